/// Writes JSCalendar (RFC 8984, or the JSCalendar 2.0 draft's names): a calendar is a `Group` whose `entries` are
/// its events (`Event`) and todos (`Task`), following the calext mapping draft (JSCalendar: Converting from and to
/// iCalendar). What has no JSCalendar form, or would not come back as it was, travels in the draft's escape hatch,
/// `iCalComponent` (its `properties` and `components` in jCal's form), and parameters of mapped properties in its
/// `convertedProperties`, so that reading the JSCalendar back gives the iCalendar content it came from.
package enum JSCalendarWriter {
    /// One calendar gives one Group; several give an array of them.
    package static func json(_ components: [Component], version: JSCalendarVersion) -> JSONValue {
        let groups = components.map { group($0, version: version) }
        return groups.count == 1 ? groups[0] : .array(groups)
    }

    /// A VCALENDAR (or a lone item) as a Group: PRODID as `prodId`, each item with its overrides an entry, the
    /// calendar's other properties and components (VTIMEZONE, VJOURNAL, VFREEBUSY …) in `iCalComponent`.
    static func group(_ calendar: Component, version: JSCalendarVersion) -> JSONValue {
        let root = calendar.name == "VCALENDAR" ? calendar : Component("VCALENDAR", components: [calendar])
        var (members, raw) = head(root)
        var entries: [JSONValue] = []
        var others: [Component] = []
        // Each series with its overrides, in the order read: two masters of one UID keep their order (ICSKit reads
        // the first of equal versions), which `AppAdaptation.series` does not.
        var groups: [String: Int] = [:]
        var series: [[Component]] = []
        for component in root.components {
            guard let key = seriesKey(component) else {
                others.append(component)
                continue
            }
            if let index = groups[key] {
                add(component, to: &series[index])
            } else {
                groups[key] = series.count
                series.append([component])
            }
        }
        for members in series {
            let (entry, leftOver) = JSCalendarItemWriter.entry(members, version: version)
            entries += entry.arrayValue ?? [entry]
            others += leftOver
        }
        members.append(("entries", .array(entries)))
        members.append(("iCalComponent", tail(raw: raw, others: others)))
        return .object(members)
    }

    /// The series a component belongs to (a VEVENT's or VTODO's kind and UID); nil for any other component.
    static func seriesKey(_ component: Component) -> String? {
        guard ["VEVENT", "VTODO"].contains(component.name), let uid = component.property("UID")?.value else {
            return nil
        }
        return component.name + "\u{0}" + uid
    }

    /// A series' next component: a master met after its overrides goes first.
    static func add(_ component: Component, to series: inout [Component]) {
        if component.property("RECURRENCE-ID") == nil, series.first?.property("RECURRENCE-ID") != nil {
            series.insert(component, at: 0)
        } else {
            series.append(component)
        }
    }

    /// The Group's `iCalComponent`: always there, even empty, since it says the Group was iCalendar, whose
    /// VTIMEZONEs (or their absence) it holds.
    static func tail(raw: [Property], others: [Component]) -> JSONValue {
        hatch(name: "vcalendar", raw: raw, components: others, converted: [])
            ?? .object([("@type", .string("ICalComponent")), ("name", .string("vcalendar"))])
    }

    /// The Group's members from the calendar's own properties (before its `entries`), and the properties that
    /// travel in its `iCalComponent` instead.
    static func head(_ root: Component) -> (members: [(key: String, value: JSONValue)], raw: [Property]) {
        var members: [(key: String, value: JSONValue)] = [("@type", .string("Group"))]
        var raw: [Property] = []
        for property in root.properties {
            let member = groupMembers[property.name]
            let value: JSONValue?
            switch property.name {
            case "LAST-MODIFIED": value = JSCalendarValues.utc(property.value).map(JSONValue.string)
            case "SOURCE": value = .string(property.value)
            case "X-JSCALENDAR":
                if property.parameters.count == 1, let pointer = property["X-NAME"], !pointer.contains("/"),
                    let text = exactText(property.value), let json = try? JSONValue.parse(Array(text.utf8)),
                    JSCalendarObjects.kept(pointer, json).value == property.value,
                    !members.contains(where: { $0.key == pointer })
                {
                    members.append((pointer, json))
                    continue
                }
                value = nil
            default: value = exactText(property.value).map(JSONValue.string)
            }
            if let member, let value, property.parameters.isEmpty, !members.contains(where: { $0.key == member }) {
                members.append((member, value))
            } else {
                raw.append(property)
            }
        }
        return (members, raw)
    }

    /// A calendar's properties that a Group has a member for (RFC 7986 NAME, UID, DESCRIPTION, COLOR, SOURCE).
    static let groupMembers = [
        "PRODID": "prodId", "UID": "uid", "NAME": "title", "DESCRIPTION": "description", "COLOR": "color",
        "SOURCE": "source", "LAST-MODIFIED": "updated",
    ]

    /// The escape hatch: `{"@type": "ICalComponent", "name", "properties", "components", "convertedProperties"}`,
    /// nil when it would be empty.
    static func hatch(
        name: String, raw: [Property], components: [Component], converted: [(key: String, value: JSONValue)]
    ) -> JSONValue? {
        guard !raw.isEmpty || !components.isEmpty || !converted.isEmpty else { return nil }
        var members: [(key: String, value: JSONValue)] = [("@type", .string("ICalComponent")), ("name", .string(name))]
        if !raw.isEmpty { members.append(("properties", .array(raw.map(JCalWriter.property)))) }
        if !components.isEmpty { members.append(("components", .array(components.map(JCalWriter.component)))) }
        if !converted.isEmpty { members.append(("convertedProperties", .object(converted))) }
        return .object(members)
    }

    /// A TEXT value unescaped, when escaping it again gives the same text (else it travels as written).
    static func exactText(_ value: String) -> String? {
        TextEscaping.canonicalUnescaped(value)
    }
}
