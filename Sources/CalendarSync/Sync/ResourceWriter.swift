import CalendarMerge
import CalendarModel

/// Writes sync resources: one VCALENDAR per UID holding its items (the master first, then its overrides by
/// RECURRENCE-ID) and the VTIMEZONEs they use. Each zone's lines are written once and reused for every resource that
/// uses it: a zone is often longer than the event beside it, and an upload writes thousands of resources.
struct ResourceWriter {
    let zones: [String: TimeZoneDefinition]
    /// The lines of each zone written so far, by TZID.
    private var zoneLines: [String: [UInt8]] = [:]
    /// `BEGIN:VCALENDAR` with VERSION and PRODID, and `END:VCALENDAR`.
    private let opening: [UInt8], closing: [UInt8]

    /// Whether each resource is written as `convert --repair` writes it (`sync --repair`).
    let repairing: Bool

    init(zones: [String: TimeZoneDefinition], repairing: Bool = false) {
        self.zones = zones
        self.repairing = repairing
        var calendar = Component("VCALENDAR")
        calendar.properties = [Property("VERSION", value: "2.0"), Property("PRODID", value: ICS.productID)]
        let empty = ICS.write(components: [calendar])
        closing = Array("END:VCALENDAR\r\n".utf8)
        opening = Array(empty.dropLast(closing.count))
    }

    /// The resource of one UID's items, as `ICS.write` writes the VCALENDAR that holds them.
    mutating func write(_ items: [MergeItem]) -> [UInt8] {
        var used: [String] = []
        for item in items {
            for property in item.component.properties {
                if let tzid = property["TZID"], !used.contains(tzid) { used.append(tzid) }
            }
        }
        var bytes = opening
        for tzid in used {
            guard let zone = zones[tzid] else { continue }
            if zoneLines[tzid] == nil { zoneLines[tzid] = ICS.write(components: [zone.component]) }
            bytes += zoneLines[tzid]!
        }
        // Changed instances without their series (an instance-only UID of a Google export): with the series they
        // belong to, as `convert --repair` writes them, or servers refuse the resource.
        let components = items.sorted { $0.key < $1.key }.map(\.component)
        let isLone = components.allSatisfy { $0.property("RECURRENCE-ID") != nil }
        bytes += ICS.write(components: isLone ? ICalendar.withSeriesForLoneOverrides(components) : components)
        bytes += closing
        guard repairing, let calendar = ICS.read(bytes).calendars.first else { return bytes }
        return ICS.write([calendar.repairedForPeers().calendar])
    }
}
