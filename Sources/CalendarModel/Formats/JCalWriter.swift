/// Writes jCal (RFC 7265): `["vcalendar", [properties], [components]]`, value types from the property design,
/// parameters kept, unknown properties typed "unknown" with their raw text.
package enum JCalWriter {
    /// One calendar gives one jCal array; several give an array of them.
    package static func json(_ components: [Component]) -> JSONValue {
        components.count == 1 ? component(components[0]) : .array(components.map(component))
    }

    package static func component(_ component: Component) -> JSONValue {
        .array([
            .string(component.name.lowercased()), .array(component.properties.map(property)),
            .array(component.components.map(self.component)),
        ])
    }

    package static func property(_ property: Property) -> JSONValue {
        let name = JSONValue.string(property.name.lowercased())
        let type = valueType(of: property)
        if type != .unknown, let values = values(property, type) {
            // The type slot carries VALUE, so the parameter itself is left out (RFC 7265 §3.4.1).
            let parameters = property.parameters.filter { $0.name != "VALUE" }
            return .array([name, self.parameters(parameters), .string(type.rawValue)] + values)
        }
        // Unknown properties, unknown VALUE types and values that do not fit their type travel as "unknown"
        // with their raw text and every parameter, so nothing is lost.
        return .array([
            name, self.parameters(property.parameters), .string(ValueType.unknown.rawValue),
            .string(property.value),
        ])
    }

    /// The value type a property is written with: VALUE when declared, else the design's default, except that a
    /// date-time property whose values are all dates without `VALUE=DATE` (common in real exports) is typed as
    /// the dates it holds.
    static func valueType(of property: Property) -> ValueType {
        if let declared = property["VALUE"] { return ValueType(rawValue: declared.lowercased()) ?? .unknown }
        let type = PropertyDesign.valueType(of: property)
        guard type == .dateTime, property.value.count == 8 || property.value.contains(",") else { return type }
        let items = property.value.split(separator: ",", omittingEmptySubsequences: false)
        let allDates = items.allSatisfy { CalendarDate.parse(String($0), tzid: nil).success?.isDate == true }
        return allDates ? .date : type
    }

    static func parameters(_ parameters: [Parameter]) -> JSONValue {
        .object(
            parameters.map { parameter in
                let values = parameter.values.map(JSONValue.string)
                return (parameter.name.lowercased(), values.count == 1 ? values[0] : .array(values))
            })
    }

    /// The jCal values of a property, or nil when the text does not fit the type.
    static func values(_ property: Property, _ type: ValueType) -> [JSONValue]? {
        let raw = property.value
        func items() -> [String] {
            PropertyDesign.isList(property.name)
                ? raw.split(separator: ",", omittingEmptySubsequences: false).map(String.init) : [raw]
        }
        func each(_ convert: (String) -> JSONValue?) -> [JSONValue]? {
            let converted = items().map(convert)
            return converted.contains(nil) ? nil : converted.compactMap { $0 }
        }
        switch type {
        case .text:
            let parts = PropertyDesign.isList(property.name) ? TextEscaping.splitList(raw).map(String.init) : [raw]
            return parts.map { .string(TextEscaping.unescape($0)) }
        case .date, .dateTime:
            return each { item in
                guard let date = CalendarDate.parse(item, tzid: nil).success, date.isDate == (type == .date) else {
                    return nil
                }
                return .string(jcalDate(date))
            }
        case .period:
            return each { item in
                Period.parse(item, tzid: nil).success.map { period in
                    switch period.end {
                    case .date(let end): return .string(jcalDate(period.start) + "/" + jcalDate(end))
                    case .duration(let duration): return .string(jcalDate(period.start) + "/" + duration.icsValue)
                    }
                }
            }
        case .duration: return each { item in CalendarDuration.parse(item).success.map { _ in .string(item) } }
        case .utcOffset:
            return ValueSyntax.isUTCOffset(raw) ? [.string(jcalOffset(raw))] : nil
        case .integer:
            return each { item in JSONNumber.canonical(item, integer: true).map(JSONValue.number) }
        case .float:
            if property.name == "GEO" {
                guard Geo.parse(raw).success != nil else { return nil }
                let parts = raw.split(separator: ";").compactMap { JSONNumber.canonical($0) }
                return parts.count == 2 ? [.array(parts.map(JSONValue.number))] : nil
            }
            return each { item in JSONNumber.canonical(item).map(JSONValue.number) }
        case .boolean:
            return each { ["TRUE", "FALSE"].contains($0.uppercased()) ? .bool($0.uppercased() == "TRUE") : nil }
        case .recur: return RecurrenceRule.parse(raw).success != nil ? [recur(raw)] : nil
        case .time:
            return each { item in
                guard item.count >= 6 else { return nil }
                let digits = Array(item)
                return .string("\(String(digits[0..<2])):\(String(digits[2..<4])):\(String(digits[4...]))")
            }
        case .binary, .uri, .calAddress, .unknown: return [.string(raw)]
        }
    }

    /// `20240101T090000Z` → `2024-01-01T09:00:00Z`; `20240101` → `2024-01-01`.
    static func jcalDate(_ date: CalendarDate) -> String {
        var text =
            CalendarDate.pad(date.year, 4) + "-" + CalendarDate.pad(date.month, 2) + "-"
            + CalendarDate.pad(date.day, 2)
        if date.isDate { return text }
        text +=
            "T" + CalendarDate.pad(date.hour, 2) + ":" + CalendarDate.pad(date.minute, 2) + ":"
            + CalendarDate.pad(date.second, 2)
        return date.form == .utc ? text + "Z" : text
    }

    /// `+0130` → `+01:30`, `+013045` → `+01:30:45`.
    static func jcalOffset(_ raw: String) -> String {
        let digits = Array(raw)
        var text = String(digits[0..<3]) + ":" + String(digits[3..<5])
        if digits.count == 7 { text += ":" + String(digits[5..<7]) }
        return text
    }

    /// RRULE parts as a jCal object, in the order written; numeric parts as numbers, lists as arrays.
    static func recur(_ raw: String) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        for part in raw.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2 else { continue }
            let key = pair[0].lowercased()
            let items = pair[1].split(separator: ",").map(String.init).map { item -> JSONValue in
                if key == "until" {
                    return .string(CalendarDate.parse(item, tzid: nil).success.map(jcalDate) ?? item)
                }
                if key != "freq", key != "wkst", key != "byday", let number = JSONNumber.canonical(item, integer: true)
                {
                    return .number(number)
                }
                return .string(item)
            }
            members.append((key, items.count == 1 ? items[0] : .array(items)))
        }
        return .object(members)
    }
}

extension Result {
    var success: Success? {
        if case .success(let value) = self { return value }
        return nil
    }
}
