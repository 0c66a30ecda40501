import CalendarModel

/// How `PropertyMerge` names a changed field to a person: per property name, values as read (`09:00`,
/// `"Room R"`, `mailto:ana@example.com (ACCEPTED)`).
extension PropertyMerge {
    /// The changes of one field from `from` to `to`, one per property name whose value differs.
    static func describe(_ key: FieldKey, from: Field?, to: Field?, side: MergeSide) -> [FieldChange] {
        parts(key, [from, to]).compactMap { name, values in
            values[0] == values[1] ? nil : FieldChange(name: name, from: values[0], to: values[1], side: side)
        }
    }

    /// A field both sides changed differently: per property name, a conflict where the two sides differ, a change
    /// of both sides where they agree.
    static func describeConflict(
        _ key: FieldKey, from: Field?, local: Field?, external: Field?, winner: MergeSide
    ) -> [FieldChange] {
        parts(key, [from, local, external]).compactMap { name, values in
            if values[1] == values[2] {
                return values[0] == values[1]
                    ? nil : FieldChange(name: name, from: values[0], to: values[1], side: .both)
            }
            return FieldChange(name: name, from: values[0], local: values[1], external: values[2], winner: winner)
        }
    }

    /// For each property name in the field (a grouped field has several), each version's value as text. An end
    /// that moved with its start (a meeting moved, not lengthened) is left out: the start's change says it.
    static func parts(_ key: FieldKey, _ versions: [Field?]) -> [(name: String, values: [String?])] {
        var names: [String] = []
        if key.group == "time" || key.group == "recurrence" {
            for version in versions {
                for property in version?.properties ?? [] where !names.contains(property.name) {
                    names.append(property.name)
                }
            }
        } else {
            names = [key.group]
        }
        var parts = names.map { name in
            (name: name, values: versions.map { version in text(of: version, named: name, grouped: names.count > 1) })
        }
        if key.group == "time", let start = parts.first(where: { $0.name == "DTSTART" }) {
            let moved = shifts(versions, "DTSTART")
            parts.removeAll { part in
                (part.name == "DTEND" || part.name == "DUE") && start.values.contains { $0 != start.values[0] }
                    && shifts(versions, part.name) == moved
            }
        }
        return parts.map { ($0.name, shortened($0.values)) }
    }

    /// The value of a field's lines of one name (all of the field's lines when it has one name), as a person reads
    /// it; nil when the version lacks them.
    static func text(of field: Field?, named name: String, grouped: Bool) -> String? {
        if let component = field?.components.first { return alarmText(component) }
        let lines = (field?.properties ?? []).filter { !grouped || $0.name == name }
        guard !lines.isEmpty else { return nil }
        return lines.map(valueText).joined(separator: ", ")
    }

    static func valueText(_ property: Property) -> String {
        switch property.valueType {
        case .date, .dateTime:
            return property.value.split(separator: ",").map {
                ItemLabel.start(value: String($0), tzid: property["TZID"])
            }.joined(separator: ", ")
        case .text:
            return "\"" + TextEscaping.unescape(property.value) + "\""
        case .calAddress:
            return property.value + (property["PARTSTAT"].map { " (\($0))" } ?? "")
        default:
            return property.value
        }
    }

    static func alarmText(_ component: Component) -> String {
        let parts = ["ACTION", "TRIGGER"].compactMap { component.property($0).map { "\($0.name):\($0.value)" } }
        return component.name + (parts.isEmpty ? "" : " " + parts.joined(separator: " "))
    }

    /// Times on one day in one zone are told by their time of day alone: `09:00 → 13:00`.
    static func shortened(_ values: [String?]) -> [String?] {
        let present = values.compactMap { $0 }
        guard present.count > 1, present.allSatisfy({ $0.utf8.count >= 16 && !$0.contains(",") }) else { return values }
        func day(_ text: String) -> Substring { text.prefix(10) }
        func zone(_ text: String) -> Substring { text.dropFirst(16) }
        guard Set(present.map(day)).count == 1, Set(present.map(zone)).count == 1,
            present.allSatisfy({ $0.dropFirst(10).hasPrefix(" ") })
        else { return values }
        return values.map { $0.map { String($0.dropFirst(11).prefix(5)) } }
    }

    /// How far each version's single value of `name` lies from the base's, in wall-clock seconds.
    static func shifts(_ versions: [Field?], _ name: String) -> [Int64?] {
        let seconds = versions.map { version -> Int64? in
            let values = (version?.properties ?? []).filter { $0.name == name }
            guard values.count == 1,
                case .success(let date) = CalendarDate.parse(values[0].value, tzid: values[0]["TZID"])
            else { return nil }
            return LocalDateTime(date).wallSeconds
        }
        return seconds.map { value in
            guard let value, let first = seconds[0] else { return nil }
            return value - first
        }
    }
}
