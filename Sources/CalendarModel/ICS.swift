import Foundation

/// Reading and writing RFC 5545 text.
///
/// ```swift
/// let result = try ICS.read(contentsOf: "work.ics")
/// for event in result.calendars.flatMap(\.events) { print(event.summary ?? "") }
/// let bytes = ICS.write(result.calendars)
/// ```
public enum ICS {
    /// ICSKit's version, as `icskit --version` prints it.
    package static let version = "0.1.0"

    /// The PRODID of calendars ICSKit makes (exports, free/busy, the store's calendars read back).
    public static let productID = "-//ICSKit//icskit 0.1//EN"

    /// What reading one input gave: its calendars and everything worth telling about it.
    public struct ReadResult: Sendable {
        /// The calendars read, in input order.
        public var calendars: [ICalendar]
        /// What was wrong and what was done about it, in line order.
        public var diagnostics: [Diagnostic]
        /// Whether the input ended before it was complete (a missing END, a cut-off download or quote): what was
        /// read is part of a calendar at most, so what it lacks must not be taken as deleted.
        public var isTruncated = false

        /// The input as generic components (for jCal, xCal and tools that want no typing).
        package var components: [Component] { calendars.flatMap { $0.topLevelComponents } }

        /// Whether any diagnostic is an error.
        public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
    }

    /// Reads iCalendar bytes. Never fails: what cannot be read is reported in `diagnostics` and skipped or kept raw.
    public static func read(_ bytes: [UInt8], file: String? = nil) -> ReadResult {
        read(bytes, file: file, splitting: ScanPlan.defaultSplitting)
    }

    /// Reads iCalendar bytes, scanning large inputs in parts on every core as `splitting` says (nil: in one
    /// piece); the result is the same either way (tests and the fuzz target check that sameness). Without
    /// `checking`, only what changes what is read is reported (what the scanner and the fields find): the checks
    /// that change nothing (values no field reads, what RFC 5545 requires, the calendar-wide ones) are not made.
    /// For a store reading back its own items, checked when they were imported; the calendars are the same either
    /// way.
    package static func read(
        _ bytes: [UInt8], file: String?, splitting: (minimumBytes: Int, pieces: Int)?, checking: Bool = true
    ) -> ReadResult {
        var log = DiagnosticLog(file: file)
        let scanned = ContentLineScanner.scan(bytes, log: &log, splitting: splitting, checking: checking)
        var context = DecodeContext(log: log)
        context.checks = checking
        var calendars: [ICalendar]
        if let children = scanned.decodedChildren, scanned.components.count == 1 {
            // Read in parts: the one calendar's components were decoded on the parts' threads.
            calendars = [
                ICalendar(decoding: scanned.components[0], &context) { calendar, context in
                    calendar.components = children.components
                    context.log.append(children.log)
                }
            ]
        } else {
            calendars = Self.calendars(from: scanned.components, &context)
        }
        if calendars.isEmpty {
            context.log.error(
                bytes.isEmpty ? 0 : 1, "no iCalendar data found (no BEGIN:VCALENDAR or component)",
                code: "no-calendar-data")
        }
        return ReadResult(
            calendars: calendars, diagnostics: context.log.sortedByLine,
            isTruncated: scanned.isTruncated)
    }

    /// Reads what a store wrote of its own items, checked when they were imported: as `read`, without the checks
    /// whose findings no one would hear (`read(_:file:splitting:checking:)`).
    package static func readStored(_ bytes: [UInt8]) -> ReadResult {
        read(bytes, file: nil, splitting: ScanPlan.defaultSplitting, checking: false)
    }

    /// Reads a file; throws only when the file cannot be read at all.
    public static func read(contentsOf path: String) throws -> ReadResult {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return read([UInt8](data), file: path)
    }

    /// Builds calendars from top-level components; bare components (no VCALENDAR) form implicit calendars.
    static func calendars(from top: [Component], _ context: inout DecodeContext) -> [ICalendar] {
        var calendars: [ICalendar] = []
        var bare: [Component] = []
        func flushBare() {
            guard !bare.isEmpty else { return }
            context.log.warning(
                bare[0].line,
                "\(bare[0].name) stands outside any VCALENDAR; read as if one were "
                    + "around it, and written back without one", code: "component-outside-vcalendar")
            var implicit = ICalendar()
            implicit.isImplicit = true
            implicit.components = bare.map { CalendarComponent(decoding: $0, &context) }
            if context.checks { implicit.checkRequired(line: bare[0].line, &context) }
            calendars.append(implicit)
            bare = []
        }
        for component in top {
            if component.name == ICalendar.componentName {
                flushBare()
                calendars.append(ICalendar(decoding: component, &context))
            } else {
                bare.append(component)
            }
        }
        flushBare()
        return calendars
    }

    /// Writes calendars as RFC 5545 text (CRLF, folded at 75 octets).
    public static func write(_ calendars: [ICalendar]) -> [UInt8] {
        write(components: calendars.flatMap { $0.topLevelComponents })
    }

    /// Writes generic components as RFC 5545 text.
    package static func write(components: [Component]) -> [UInt8] {
        var writer = ICSWriter()
        for component in components { writer.write(component) }
        return writer.bytes
    }

    /// Builds typed calendars from generic components (the jCal and xCal readers use this).
    package static func calendars(from components: [Component], file: String? = nil) -> ReadResult {
        var context = DecodeContext(log: DiagnosticLog(file: file))
        let calendars = calendars(from: components, &context)
        return ReadResult(calendars: calendars, diagnostics: context.log.entries)
    }
}

extension ICalendar {
    /// What this calendar writes at top level: itself, or its components when it had no VCALENDAR around them.
    package var topLevelComponents: [Component] { isImplicit ? encodeChildren() : [encoded()] }
}
