/// JSCalendar written a series at a time, for a calendar read as a stream (`ICS.stream`): the bytes are those
/// `CalendarFormat.jscalendar.write` gives for the whole calendar, in memory bounded by the series still open, not by
/// the calendar.
///
/// A Group's entries are the calendar's series in the order first met, each with its overrides. Each run of the
/// stream is grouped into series and their entries written where the run is decoded, on every core (`prepared`);
/// the stream keeps the last `defaultOpenSeries` series open, writes one out when more are met after it, and writes a
/// series again, in order, when a later run added to it. The whole calendar decides two things the stream cannot
/// know in advance, so it gives up (`Refusal`, before anything is made final: the caller writes through a temporary
/// file and converts the calendar whole instead) when
///
/// - a component of a series it wrote out already comes (overrides far from their series), or
/// - a VTIMEZONE defines a zone under a name that maps to another IANA name (an Outlook or Windows TZID): whether
///   such a zone is written by its IANA name depends on every time the calendar uses in it.
///
/// Any other TZID that maps to an IANA name is written by that name, as the whole-calendar writer does.
package struct JSCalendarStream {
    /// Why the calendar must be written whole.
    package struct Refusal: Error {}

    /// How many series stay open for components yet to come, unless told.
    static let defaultOpenSeries = 1_024

    /// One series as far as it was read, and its entries as JSON (nil when a later run added to it).
    struct Series: Sendable {
        var members: [Component]
        var rendered: Rendered?
    }

    /// A series' entries (each after a `,`, indented inside the Group's `entries`) and what they left over.
    struct Rendered: Sendable {
        var bytes: [UInt8]
        var leftovers: [Component]
    }

    /// A run's components as the stream takes them: the components that are no entry, and the run's series in the
    /// order met, with their entries.
    package struct Prepared: Sendable {
        var others: [Component] = []
        var series: [(key: String, series: Series)] = []
    }

    private let version: JSCalendarVersion
    private let openSeries: Int
    private var raw: [Property] = []
    /// Components that are no entry (VTIMEZONE, VJOURNAL, items without a UID), in the order read.
    private var others: [Component] = []
    /// What entries could not hold, series by series.
    private var leftovers: [Component] = []
    private var open: [String: Series] = [:]
    private var order: [String] = []
    private var firstOpen = 0
    /// The series written out, by their keys' hashes (a collision only makes the calendar be written whole).
    private var written: Set<Int> = []
    private var wroteEntry = false

    /// A stream of `version`'s names keeping `openSeries` series open (tests make it small).
    package init(version: JSCalendarVersion, openSeries: Int = defaultOpenSeries) {
        self.version = version
        self.openSeries = max(1, openSeries)
    }

    /// The document up to its entries' `[`: the Group's members from the calendar's own properties.
    package mutating func opening(_ calendar: ICalendar) -> [UInt8] {
        let (members, raw) = JSCalendarWriter.head(calendar.ownPart)
        self.raw = raw
        var writer = JSONWriter(pretty: true)
        writer.beginObject()
        for member in members {
            writer.key(text: member.key)
            writer.write(member.value)
        }
        writer.key("entries")
        return writer.bytes + [UInt8(ascii: "[")]
    }

    /// A run's components prepared on any thread: written as components, their TZIDs by the IANA names they map
    /// to, grouped into series whose entries are written.
    package static func prepared(_ components: [CalendarComponent], version: JSCalendarVersion) -> Prepared {
        var prepared = Prepared()
        var place: [String: Int] = [:]
        var names: [String: String?] = [:]
        for component in components {
            let encoded = renamed(component.encoded, names: &names)
            guard let key = JSCalendarWriter.seriesKey(encoded) else {
                prepared.others.append(encoded)
                continue
            }
            if let index = place[key] {
                JSCalendarWriter.add(encoded, to: &prepared.series[index].series.members)
            } else {
                place[key] = prepared.series.count
                prepared.series.append((key, Series(members: [encoded])))
            }
        }
        for index in prepared.series.indices {
            prepared.series[index].series.rendered = render(prepared.series[index].series.members, version: version)
        }
        return prepared
    }

    /// Takes the next run (`prepared`), in the order read; what can be written already comes back.
    package mutating func take(_ prepared: Prepared) throws -> [UInt8] {
        for component in prepared.others {
            if component.name == "VTIMEZONE", let tzid = component.property("TZID")?.value, Self.dependsOnUse(tzid) {
                throw Refusal()
            }
            others.append(component)
        }
        var bytes: [UInt8] = []
        for (key, series) in prepared.series {
            if var known = open[key] {
                for member in series.members { JSCalendarWriter.add(member, to: &known.members) }
                known.rendered = nil
                open[key] = known
                continue
            }
            if written.contains(key.hashValue) { throw Refusal() }
            open[key] = series
            order.append(key)
            if order.count - firstOpen > openSeries { bytes += writeOldest() }
        }
        return bytes
    }

    /// The rest of the document: the series still open, the end of the entries and the Group's `iCalComponent`.
    package mutating func closing() -> [UInt8] {
        var bytes: [UInt8] = []
        while firstOpen < order.count { bytes += writeOldest() }
        bytes += wroteEntry ? Array("\n  ]".utf8) : [UInt8(ascii: "]")]
        var writer = JSONWriter(pretty: true, inside: 1)
        writer.key("iCalComponent")
        writer.write(JSCalendarWriter.tail(raw: raw, others: others + leftovers))
        writer.endObject()
        return bytes + writer.bytes + [0x0A]
    }

    /// Whether writing a zone named `tzid` by its IANA name depends on the times the calendar uses in it (a VTIMEZONE
    /// of a name that is no tzdata zone but maps to one: `TimeZoneResolver.fileZone`).
    static func dependsOnUse(_ tzid: String) -> Bool {
        guard let iana = TimeZoneResolver.ianaName(for: tzid)?.iana, iana != tzid else { return false }
        return !TimeZoneResolver.namesTzdataZone(tzid)
    }

    /// A component with each TZID that maps to another IANA name written by that name (`names` remembers them).
    private static func renamed(_ component: Component, names: inout [String: String?]) -> Component {
        guard component.name != "VTIMEZONE" else { return component }
        var rename: [String: String] = [:]
        component.forEach { nested in
            for property in nested.properties {
                guard let tzid = property["TZID"] else { continue }
                if names[tzid] == nil { names[tzid] = .some(TimeZoneResolver.ianaName(for: tzid)?.iana) }
                if let iana = names[tzid] ?? nil, iana != tzid { rename[tzid] = iana }
            }
        }
        guard !rename.isEmpty else { return component }
        var changed = false
        return ICalendar.renamingTZIDs(component, rename, &changed)
    }

    private static func render(_ members: [Component], version: JSCalendarVersion) -> Rendered {
        var writer = JSONWriter(pretty: true, inside: 2)
        let (entry, leftOver) = JSCalendarItemWriter.entry(members, version: version)
        for value in entry.arrayValue ?? [entry] { writer.write(value) }
        return Rendered(bytes: writer.bytes, leftovers: leftOver)
    }

    /// The oldest open series' entries, written out (the document's first without its `,`).
    private mutating func writeOldest() -> [UInt8] {
        let key = order[firstOpen]
        firstOpen += 1
        written.insert(key.hashValue)
        // The keys of written series stay (a late component must be noticed); the order's head goes now and then.
        if firstOpen > 4 * openSeries {
            order.removeFirst(firstOpen)
            firstOpen = 0
        }
        guard let series = open.removeValue(forKey: key) else { return [] }
        let rendered = series.rendered ?? Self.render(series.members, version: version)
        leftovers += rendered.leftovers
        guard !rendered.bytes.isEmpty else { return [] }
        defer { wroteEntry = true }
        return wroteEntry ? rendered.bytes : Array(rendered.bytes.dropFirst())
    }
}
