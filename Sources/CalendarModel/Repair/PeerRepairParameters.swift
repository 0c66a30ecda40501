/// Parameters strict readers refuse, mended as RFC 5545 §3.2 says: a VALUE that names a type the property cannot
/// have, parameters a VTIMEZONE property does not take, values that needed quotes.
extension ICalendar {
    /// Parameters RFC 5545 defines to hold one value; a comma in one of them needs quotes (§3.2).
    static let singleValuedParameters: Set<String> = [
        "ALTREP", "CN", "CUTYPE", "DIR", "ENCODING", "FMTTYPE", "FBTYPE", "LANGUAGE", "PARTSTAT", "RANGE", "RELATED",
        "RELTYPE", "ROLE", "RSVP", "SENT-BY", "TZID", "VALUE", "LABEL", "EMAIL", "DERIVED", "ORDER", "SCHEMA",
    ]

    /// What each VTIMEZONE property may carry (RFC 5545 §3.6.5): dateutil, which vobject and Radicale read zones with,
    /// refuses any other parameter there.
    static let zoneParameters: [String: Set<String>] = [
        "TZNAME": ["LANGUAGE"], "DTSTART": ["VALUE"], "TZOFFSETFROM": [], "TZOFFSETTO": [], "TZID": [], "RRULE": [],
    ]

    /// Each property of the tree, nested components too: a VALUE naming a type the property does not take (it has
    /// one, and `TZNAME;VALUE=DATE:CET` is no date) is left out when the value reads as the property's own type; an
    /// X- or unknown parameter on a VTIMEZONE property is left out; a single-valued parameter written with several
    /// values (an unquoted comma: `CN=Doe, John`) becomes the one quoted value it was meant as. Each is reported.
    static func repairingParameters(_ component: inout Component, inZone: Bool, _ log: inout DiagnosticLog) {
        let isZone = inZone || component.name == "VTIMEZONE"
        for index in component.properties.indices {
            var property = component.properties[index]
            let line = property.line
            withoutWrongValueType(&property, &log)
            if isZone, component.name != "VTIMEZONE" || property.name == "TZID",
                let allowed = zoneParameters[property.name]
            {
                let extra = property.parameters.filter { !allowed.contains($0.name) }
                if !extra.isEmpty {
                    property.parameters.removeAll { !allowed.contains($0.name) }
                    log.warning(
                        line,
                        "repaired: \(property.name) in a VTIMEZONE has parameters it does not take ("
                            + extra.map(\.name).joined(separator: ", ")
                            + "), which vobject and Radicale refuse; left out",
                        code: "repair-zone-parameter")
                }
            }
            quotingParameterValues(&property, &log)
            property.line = line
            component.properties[index] = property
        }
        for index in component.components.indices {
            repairingParameters(&component.components[index], inZone: isZone, &log)
        }
    }

    /// A VALUE naming a type the property does not take (it has one, and `TZNAME;VALUE=DATE:CET` is no date) left
    /// out when the value reads as the property's own type.
    private static func withoutWrongValueType(_ property: inout Property, _ log: inout DiagnosticLog) {
        guard let declared = property["VALUE"], let entry = PropertyDesign.table[property.name],
            [.text, .integer, .float, .utcOffset, .recur, .calAddress].contains(entry.type),
            ValueType(rawValue: declared.lowercased()) != entry.type, PropertyDesign.problem(in: property) != nil
        else { return }
        var plain = property
        plain.setParameter("VALUE", nil)
        guard PropertyDesign.problem(in: plain) == nil else { return }
        property = plain
        log.warning(
            property.line,
            "repaired: \(property.name) says VALUE=\(declared), which it cannot have and its value is "
                + "not; left out, the value read as the \(entry.type.rawValue.uppercased()) it is",
            code: "repair-value-type")
    }

    /// A single-valued parameter written with several values (an unquoted comma: `CN=Doe, John`) as the one
    /// quoted value it was meant as; double quotes inside a value (RFC 5545 §3.2 lets none in; RFC 6868's ^' is
    /// read by few) as single quotes.
    private static func quotingParameterValues(_ property: inout Property, _ log: inout DiagnosticLog) {
        for (position, parameter) in property.parameters.enumerated()
        where parameter.values.count > 1 && singleValuedParameters.contains(parameter.name) {
            let joined = parameter.values.joined(separator: ",")
            property.parameters[position] = Parameter(parameter.name, joined)
            log.warning(
                property.line,
                "repaired: \(property.name)'s \(parameter.name) holds an unquoted comma, which makes it several "
                    + "values where it takes one; written as one quoted value, \"\(joined)\"",
                code: "repair-parameter-quoted")
        }
        for (position, parameter) in property.parameters.enumerated()
        where parameter.values.contains(where: { $0.contains("\"") }) {
            property.parameters[position] = Parameter(
                parameter.name, parameter.values.map { $0.replacingOccurrences(of: "\"", with: "'") })
            log.warning(
                property.line,
                "repaired: \(property.name)'s \(parameter.name) holds a double quote, which no parameter value "
                    + "may; written with single quotes", code: "repair-parameter-quote")
        }
    }
}
