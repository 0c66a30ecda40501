/// A stable 64-bit fingerprint (FNV-1a) of what a component says, for telling whether it changed between two
/// reads: unfolded, name and parameters canonical, DTSTAMP and LAST-MODIFIED left out (exporters rewrite them on
/// every export without changing anything). Nested components (alarms) count.
extension Component {
    /// 16 hex digits; the same for the same content however it was folded or spelled.
    package var fingerprint: String {
        var hash = FNV1a()
        // Each line's bytes are fed piece by piece, exactly as the line would be spelled, then a line feed: the
        // same hash as hashing the joined text, without building it.
        func feed(_ text: String) { hash.add(text) }
        func endLine() { hash.add(0x0A) }
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
        return hash.hex
    }
}

extension Component {
    /// The UID ICSKit gives an item that has none, derived from what it says, so reading the same item again gives
    /// the same UID: `icskit-<fingerprint>@derived`.
    package var derivedUID: String { "icskit-" + fingerprint + "@derived" }
}

extension CalendarComponent {
    /// The component as it will be written (as read when unchanged).
    package var component: Component { encoded }

    /// UID and RECURRENCE-ID (as written, or ""): what identifies an item across calendars and syncs.
    package var identity: (uid: String?, recurrenceID: String) {
        // The two fields only, not a copy of the core (see `forEachDate`).
        let found: (uid: String?, recurrenceID: RecurrenceID?)
        switch self {
        case .event(let event): found = (event.core.uid, event.core.recurrenceID)
        case .todo(let todo): found = (todo.core.uid, todo.core.recurrenceID)
        case .journal(let journal): found = (journal.core.uid, journal.core.recurrenceID)
        case .timeZone, .other: return (nil, "")
        }
        return (found.uid, found.recurrenceID?.date.icsValue ?? "")
    }

    /// The component with a UID, and that UID: its own, or for an item that has none one derived from its content
    /// (and written into it), so that reading the same item again keys it the same way. Import, merge and the
    /// store key and fingerprint items in this form.
    package var keyed: (component: Component, uid: String) {
        var generic = component
        if let uid = identity.uid { return (generic, uid) }
        let uid = generic.derivedUID
        generic.properties.insert(Property("UID", value: uid), at: 0)
        return (generic, uid)
    }

    /// The first line of the component in its file, 0 when it was made in code.
    package var line: Int { sourceMark.line }
}
