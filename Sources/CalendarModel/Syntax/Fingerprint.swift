/// A stable 64-bit fingerprint (FNV-1a) of what a component says, for telling whether it changed between two
/// reads: unfolded, name and parameters canonical, DTSTAMP and LAST-MODIFIED left out (exporters rewrite them on
/// every export without changing anything). Nested components (alarms) count.
extension Component {
    public var fingerprint: String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        // Each line's bytes are fed piece by piece, exactly as the line would be spelled, then a line feed: the
        // same hash as hashing the joined text, without building it.
        func feed(_ text: String) {
            for byte in text.utf8 {
                hash ^= UInt64(byte)
                hash &*= 0x0000_0100_0000_01B3
            }
        }
        func endLine() {
            hash ^= 0x0A
            hash &*= 0x0000_0100_0000_01B3
        }
        func visit(_ component: Component) {
            feed("BEGIN:")
            feed(component.name)
            endLine()
            for property in component.properties where property.name != "DTSTAMP" && property.name != "LAST-MODIFIED" {
                // Property.canonicalContentLine, piece by piece.
                feed(property.name)
                for parameter in property.parameters {
                    feed(";")
                    feed(parameter.name)
                    guard !parameter.values.isEmpty else { continue }
                    feed("=")
                    for (index, value) in parameter.values.enumerated() {
                        if index > 0 { feed(",") }
                        feed(Property.quotedParameterValue(value))
                    }
                }
                feed(":")
                feed(property.value)
                endLine()
            }
            component.components.forEach(visit)
            feed("END:")
            feed(component.name)
            endLine()
        }
        visit(self)
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

extension Component {
    /// The UID ICSKit gives an item that has none, derived from what it says, so reading the same item again gives
    /// the same UID: `icskit-<fingerprint>@derived`.
    public var derivedUID: String { "icskit-" + fingerprint + "@derived" }
}

extension CalendarComponent {
    /// The component as it will be written (as read when unchanged).
    public var component: Component { encoded }

    /// UID and RECURRENCE-ID (as written, or ""): what identifies an item across calendars and syncs.
    public var identity: (uid: String?, recurrenceID: String) {
        switch self {
        case .event(let event): return (event.uid, event.recurrenceID?.date.icsValue ?? "")
        case .todo(let todo): return (todo.uid, todo.recurrenceID?.date.icsValue ?? "")
        case .journal(let journal): return (journal.uid, journal.recurrenceID?.date.icsValue ?? "")
        case .timeZone, .other(_): return (nil, "")
        }
    }

    /// The first line of the component in its file, 0 when it was made in code.
    public var line: Int { asRead.line }
}
