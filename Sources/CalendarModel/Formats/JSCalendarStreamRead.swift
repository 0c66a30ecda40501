import Foundation

/// Reads a JSCalendar Group from a file an entry at a time, in memory bounded by the largest entry and the Group's
/// own members rather than by the file: the inverse of `JSCalendarStream`. The components, model and diagnostics
/// are those `CalendarFormat.jscalendar.read` gives for the whole file (`JSCalendarStreamReadTests`).
///
/// The file is read two or three times: once for the Group's members but its entries (which may come after the
/// entries: JSON objects have no order), once more for the time zones its entries use when the Group carries no
/// VTIMEZONEs of its own (JSCalendar from elsewhere, which gets tzdata's, placed first), and once to hand on each
/// entry. Anything but a Group object of Events and Tasks, a document the whole reader would refuse, and a file whose
/// size changed while it was read throw `Fallback`: read the whole file, which says what is wrong and where.
package enum JSCalendarStreamRead {
    /// Why the file is to be read whole instead.
    package struct Fallback: Error {}

    /// Reads the Group at `path` (named `file` in diagnostics): `opening` hears the calendar's own properties
    /// first, then `run` each run of components in output order (the VTIMEZONEs and other components that are no
    /// entry, then each entry with its overrides). Returns the diagnostics, in line order.
    package static func read(
        contentsOf path: String, file: String, opening: (ICalendar) throws -> Void,
        run: ([CalendarComponent]) throws -> Void
    ) throws -> [Diagnostic] {
        let size = try fileSize(path)
        let head = try groupMembers(path)
        let budget = { JSCalendarReader.OverrideBudget(documentBytes: size) }
        let group = try wrapped { () throws(JSCalendarReader.Failure) in
            try JSCalendarReader.calendar(.object(head), path: "", budget: budget())
        }
        var first = group.components
        if !head.contains(where: { $0.key == "iCalComponent" }) {
            var use = ICalendar.ZoneUse()
            try entries(path, budget: budget()) { use.add($0) }
            first = use.missingDefinitions() + first
        }
        var own = group
        own.components = []
        var headContext = DecodeContext(log: DiagnosticLog(file: file), hasComponentsElsewhere: true)
        let calendar = ICalendar(decoding: own, &headContext)
        var context = DecodeContext(log: DiagnosticLog(file: file))
        var checks = CalendarChecks(method: calendar.method, line: group.line)
        func hand(_ components: [Component]) throws {
            let decoded = components.map { CalendarComponent(decoding: $0, &context) }
            checks.add(CalendarChecks.Part(decoded))
            try run(decoded)
        }
        try opening(calendar)
        if !first.isEmpty { try hand(first) }
        try entries(path, budget: budget(), hand)
        guard try fileSize(path) == size else { throw Fallback() }
        // In the whole reader's order before sorting: the calendar's properties, its components, then what it
        // requires and the checks across components (of which decoding the head alone ran the first).
        let required: Set = ["missing-prodid", "missing-version", "version-not-2"]
        var checked = DiagnosticLog(file: file)
        checks.report(&checked)
        let ordered =
            headContext.log.entries.filter { !required.contains($0.code) } + context.log.entries
            + headContext.log.entries.filter { required.contains($0.code) } + checked.entries
        return ordered.sortedByLine
    }

    /// The Group's members but its entries, in order; `Fallback` for anything but a Group object with entries.
    private static func groupMembers(_ path: String) throws -> [(key: String, value: JSONValue)] {
        var head: [(key: String, value: JSONValue)] = []
        var entryCount = 0
        try members(of: path) { key, source in
            if key == "entries" {
                try source.elements { source in
                    try source.skipValue()
                    entryCount += 1
                }
            } else {
                head.append((key, try source.parsedValue(depth: 1).value))
            }
        }
        guard head.first(where: { $0.key == "@type" })?.value.stringValue == "Group", entryCount > 0,
            Set(head.map(\.key)).count == head.count
        else { throw Fallback() }
        return head
    }

    /// Each entry of the Group as components (an Event or Task with its overrides), placed on the lines the whole
    /// reader gives them.
    private static func entries(
        _ path: String, budget: JSCalendarReader.OverrideBudget, _ each: ([Component]) throws -> Void
    ) throws {
        var index = 0
        try members(of: path) { key, source in
            guard key == "entries" else { return try source.skipValue() }
            try source.elements { source in
                let at = "/entries/\(index)"
                let (value, places) = try source.parsedValue(under: at, depth: 2)
                let components = try wrapped { () throws(JSCalendarReader.Failure) in
                    try JSCalendarReader.entry(value, path: at, places: places, budget: budget)
                }
                try each(components)
                index += 1
            }
        }
    }

    /// Walks the top-level object of the file: `member` hears each key with the source at its value, which it
    /// reads or skips.
    private static func members(of path: String, _ member: (String, inout JSONSource) throws -> Void) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw Fallback() }
        defer { try? handle.close() }
        var source = JSONSource(handle)
        try source.skipByteOrderMark()
        try source.skipSpace()
        try source.expect(UInt8(ascii: "{"))
        try source.skipSpace()
        if try source.peek() == UInt8(ascii: "}") { throw Fallback() }
        while true {
            try source.skipSpace()
            guard let key = try source.parsedValue(depth: 1).value.stringValue else { throw Fallback() }
            try source.skipSpace()
            try source.expect(UInt8(ascii: ":"))
            try source.skipSpace()
            try member(key, &source)
            try source.skipSpace()
            guard let next = try source.next() else { throw Fallback() }
            if next == UInt8(ascii: "}") { break }
            guard next == UInt8(ascii: ",") else { throw Fallback() }
        }
        try source.skipSpace()
        guard try source.peek() == nil else { throw Fallback() }
    }

    /// A refusal of the reader as a fallback: the whole reader says it, located.
    private static func wrapped<T>(_ body: () throws(JSCalendarReader.Failure) -> T) throws -> T {
        do { return try body() } catch { throw Fallback() }
    }

    private static func fileSize(_ path: String) throws -> Int {
        guard let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int else {
            throw Fallback()
        }
        return size
    }
}
