/// RFC 5545 / 7986 value types, as jCal and xCal name them.
package enum ValueType: String, Sendable, Hashable {
    /// BINARY: base64 data.
    case binary
    /// BOOLEAN: TRUE or FALSE.
    case boolean
    /// CAL-ADDRESS: a mailto: URI.
    case calAddress = "cal-address"
    /// DATE: a day.
    case date
    /// DATE-TIME: a day and a time.
    case dateTime = "date-time"
    /// DURATION: a length of time.
    case duration
    /// FLOAT: a decimal number.
    case float
    /// INTEGER: a whole number.
    case integer
    /// PERIOD: a start and an end or a length.
    case period
    /// RECUR: a recurrence rule.
    case recur
    /// TEXT: escaped text.
    case text
    /// TIME: a time of day.
    case time
    /// URI: a reference.
    case uri
    /// UTC-OFFSET: hours and minutes from UTC.
    case utcOffset = "utc-offset"
    /// A value type ICSKit does not know: kept as text.
    case unknown
}

/// Which value type each property has, and whether its value is a comma-separated list: the one table the
/// validator, jCal and xCal read instead of each keeping its own switch (ical.js calls this the design).
enum PropertyDesign {
    struct Entry: Sendable {
        let type: ValueType
        let isList: Bool
    }

    static let table: [String: Entry] = {
        var table: [String: Entry] = [:]
        func add(_ type: ValueType, list: Bool = false, _ names: String...) {
            for name in names { table[name] = Entry(type: type, isList: list) }
        }
        add(
            .text, "CALSCALE", "METHOD", "PRODID", "VERSION", "CLASS", "COMMENT", "DESCRIPTION", "LOCATION",
            "STATUS", "SUMMARY", "TRANSP", "TZID", "TZNAME", "CONTACT", "RELATED-TO", "UID", "ACTION",
            "REQUEST-STATUS", "NAME", "COLOR")
        add(.text, list: true, "CATEGORIES", "RESOURCES")
        add(.float, "GEO")
        add(.integer, "PERCENT-COMPLETE", "PRIORITY", "REPEAT", "SEQUENCE")
        add(
            .dateTime, "COMPLETED", "DTEND", "DUE", "DTSTART", "RECURRENCE-ID", "CREATED", "DTSTAMP",
            "LAST-MODIFIED")
        add(.dateTime, list: true, "EXDATE", "RDATE")
        add(.duration, "DURATION", "TRIGGER", "REFRESH-INTERVAL")
        add(.period, list: true, "FREEBUSY")
        add(.utcOffset, "TZOFFSETFROM", "TZOFFSETTO")
        add(.uri, "TZURL", "URL", "ATTACH", "SOURCE", "IMAGE", "CONFERENCE")
        add(.calAddress, "ATTENDEE", "ORGANIZER")
        add(.recur, "RRULE", "EXRULE")
        return table
    }()

    /// The property's value type: its VALUE parameter, else the table's default, else unknown.
    static func valueType(of property: Property) -> ValueType {
        if let declared = property["VALUE"], let type = ValueType(rawValue: declared.lowercased()) { return type }
        return table[property.name]?.type ?? .unknown
    }

    static func isList(_ name: String) -> Bool { table[name]?.isList ?? false }

    /// Properties an item holds once only whose repeats ICSKit reads past (the first is used): what places the
    /// item in time and says which version it is.
    static let singular: Set<String> = [
        "UID", "DTSTART", "DTEND", "DUE", "DURATION", "RECURRENCE-ID", "DTSTAMP", "SEQUENCE", "COMPLETED", "METHOD",
        "PRODID", "VERSION", "CALSCALE",
    ]

    /// Checks values that libical would silently delete or misread; reports each with its line. Nothing changes.
    static func validate(_ properties: [Property], _ log: inout DiagnosticLog) {
        for property in properties {
            if PropertyDesign.valueType(of: property) == .utcOffset, ValueSyntax.isUnsignedUTCOffset(property.value) {
                log.warning(
                    property.line,
                    "\(property.name) value \"\(property.value)\" has no sign (RFC 5545 §3.3.14); read as "
                        + "+\(property.value), kept as written", code: "offset-without-sign")
            } else if let problem = problem(in: property) {
                log.error(property.line, "\(property.name) value \(problem); kept as written", code: "bad-value")
            }
        }
    }

    /// Reports VALUE parameters that name no value type (RFC 5545 §3.2.20 allows the fourteen types, x-names and
    /// IANA tokens); such a value is kept as unknown text.
    static func checkValueParameters(_ properties: [Property], _ log: inout DiagnosticLog) {
        for property in properties {
            guard let declared = property["VALUE"], ValueType(rawValue: declared.lowercased()) == nil else { continue }
            if !ContentLineScanner.isValidName(declared) {
                log.warning(
                    property.line,
                    "\(property.name) has VALUE=\"\(declared.replacingOccurrences(of: "\n", with: "^n"))\", which is no value type; "
                        + "the value is kept as written, untyped", code: "bad-value-type")
            }
        }
    }

    /// Validates a whole untyped component (VTIMEZONE, VFREEBUSY, unknown components).
    static func validateTree(_ component: Component, _ log: inout DiagnosticLog) {
        validate(component.properties, &log)
        for child in component.components { validateTree(child, &log) }
    }

    static func problem(in property: Property) -> ValueError? {
        let type = valueType(of: property)
        let items = isList(property.name) ? ValueSyntax.split(property.value, on: ",") : [property.value]
        for item in items {
            let result: ValueError?
            switch type {
            case .date, .dateTime:
                result = CalendarDate.parse(item, tzid: nil).failure
            case .duration: result = CalendarDuration.parse(item).failure
            case .period: result = Period.parse(item, tzid: nil).failure
            case .recur: result = RecurrenceRule.parse(item).failure
            case .integer: result = ValueSyntax.isInteger(item) ? nil : ValueError("\"\(item)\" is not an INTEGER")
            case .utcOffset:
                result = ValueSyntax.isUTCOffset(item) ? nil : ValueError("\"\(item)\" is not a UTC offset (+HHMM)")
            case .float:
                result =
                    property.name == "GEO"
                    ? Geo.parse(item).failure
                    : Double(item) == nil ? ValueError("\"\(item)\" is not a FLOAT") : nil
            case .boolean:
                result =
                    ["TRUE", "FALSE"].contains(item.uppercased())
                    ? nil
                    : ValueError("\"\(item)\" is not a BOOLEAN")
            default: result = nil
            }
            if let result { return result }
        }
        return nil
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

extension Property {
    /// The value type: the VALUE parameter, else RFC 5545's (or RFC 7986's) default for the name, else unknown.
    package var valueType: ValueType { PropertyDesign.valueType(of: self) }
}
