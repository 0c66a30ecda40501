/// Writes xCal (RFC 6321): `<icalendar>` holding one `<vcalendar>` per calendar, each component as
/// `<properties>` then `<components>`, each property as `<parameters>` then typed value elements. Value types come
/// from the property design as in jCal; unknown properties and values that do not fit their type travel as
/// `<unknown>` with their raw text, so nothing is lost.
package enum XCalWriter {
    /// The iCalendar XML namespace of RFC 6321.
    package static let namespace = "urn:ietf:params:xml:ns:icalendar-2.0"

    /// The parameters whose values RFC 6321 types as something other than text.
    static let parameterTypes: [String: ValueType] = [
        "ALTREP": .uri, "DIR": .uri, "DELEGATED-FROM": .calAddress, "DELEGATED-TO": .calAddress,
        "MEMBER": .calAddress, "SENT-BY": .calAddress, "RSVP": .boolean,
    ]

    /// RRULE parts in the order RFC 6321's schema lists them.
    static let recurOrder = [
        "freq", "until", "count", "interval", "bysecond", "byminute", "byhour", "byday",
        "bymonthday", "byyearday", "byweekno", "bymonth", "bysetpos", "wkst",
    ]

    /// An xCal document of these VCALENDAR components.
    package static func document(_ components: [Component]) -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<icalendar xmlns=\"\(namespace)\">\n"
        for component in components { write(component, indent: 1, into: &out) }
        out += "</icalendar>\n"
        return out
    }

    static func write(_ component: Component, indent: Int, into out: inout String) {
        let pad = String(repeating: "  ", count: indent)
        var name = component.name.lowercased()
        var start = name
        if !isElementName(component.name) {
            // A damaged BEGIN line's name cannot be an element name; it travels in an attribute.
            name = componentElement
            start = name + " name=\"" + XMLEscaping.escape(component.name, attribute: true) + "\""
        }
        out += "\(pad)<\(start)>\n\(pad)  <properties>\n"
        for property in component.properties { out += "\(pad)    " + self.property(property) + "\n" }
        out += "\(pad)  </properties>\n"
        if !component.components.isEmpty || component.name == ICalendar.componentName {
            out += "\(pad)  <components>\n"
            for child in component.components { write(child, indent: indent + 2, into: &out) }
            out += "\(pad)  </components>\n"
        }
        out += "\(pad)</\(name)>\n"
    }

    /// Carries a property whose name cannot be an XML element name (a damaged line kept as read), as its whole
    /// content line.
    package static let contentLineElement = "x-icskit-content-line"

    /// Carries a component whose name cannot be an XML element name, the name in its `name` attribute.
    package static let componentElement = "x-icskit-component"

    /// Whether an iCalendar name can stand as an xCal element name: a letter, then letters, digits and `-`.
    static func isElementName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, ("A"..."Z").contains(first) || ("a"..."z").contains(first) else {
            return false
        }
        return ContentLineScanner.isValidName(name)
    }

    /// One property element on one line.
    package static func property(_ property: Property) -> String {
        guard isElementName(property.name), property.parameters.allSatisfy({ isElementName($0.name) }) else {
            return "<\(contentLineElement)>" + element("unknown", property.contentLine) + "</\(contentLineElement)>"
        }
        let name = property.name.lowercased()
        let type = JCalWriter.valueType(of: property)
        if type != .unknown, let values = values(property, type) {
            // The value element names the type, so VALUE itself is left out (RFC 6321 §3.4).
            let parameters = property.parameters.filter { $0.name != "VALUE" }
            return "<\(name)>" + self.parameters(parameters) + values + "</\(name)>"
        }
        return "<\(name)>" + parameters(property.parameters) + element("unknown", property.value) + "</\(name)>"
    }

    static func element(_ name: String, _ text: String) -> String {
        "<\(name)>" + XMLEscaping.escape(text) + "</\(name)>"
    }

    static func parameters(_ parameters: [Parameter]) -> String {
        guard !parameters.isEmpty else { return "" }
        var out = "<parameters>"
        for parameter in parameters {
            let name = parameter.name.lowercased()
            let type = parameterTypes[parameter.name] ?? .text
            out += "<\(name)>"
            for value in parameter.values {
                if type == .boolean, ["TRUE", "FALSE"].contains(value) {
                    out += element("boolean", value.lowercased())
                } else {
                    out += element(type == .boolean ? "text" : type.rawValue, value)
                }
            }
            out += "</\(name)>"
        }
        return out + "</parameters>"
    }

    /// A duration in the form RFC 5545's grammar (and so xCal's schema) allows: weeks stand alone, so
    /// `P1W6DT15H`, which some writers produce, becomes the equal `P13DT15H`.
    static func rfcDuration(_ text: String) -> String {
        guard var duration = CalendarDuration.parse(text).success, duration.weeks != 0,
            duration.days != 0 || duration.hours != 0 || duration.minutes != 0 || duration.seconds != 0
        else {
            return text
        }
        duration.days += duration.weeks * 7
        duration.weeks = 0
        return duration.icsValue
    }

    /// The value elements of a property, or nil when its text does not fit the type. The jCal conversion does the
    /// checking and reformatting; this turns its values into elements.
    static func values(_ property: Property, _ type: ValueType) -> String? {
        if property.name == "REQUEST-STATUS", type == .text {
            let parts = TextEscaping.splitList(property.value, separator: ";").map { TextEscaping.unescape(String($0)) }
            return element("code", parts[0]) + element("description", parts.count > 1 ? parts[1] : "")
                + (parts.count > 2 ? element("data", parts[2...].joined(separator: ";")) : "")
        }
        guard let values = JCalWriter.values(property, type) else { return nil }
        var out = ""
        for value in values {
            switch (type, value) {
            case (.float, .array(let pair)) where property.name == "GEO" && pair.count == 2:
                out +=
                    element("latitude", JCalReader.scalarText(pair[0]))
                    + element("longitude", JCalReader.scalarText(pair[1]))
            case (.duration, .string(let text)):
                out += element("duration", rfcDuration(text))
            case (.period, .string(let text)) where text.contains("/P") || text.contains("/-P") || text.contains("/+P"):
                let halves = text.split(separator: "/", maxSplits: 1).map(String.init)
                out +=
                    "<period>" + element("start", halves[0]) + element("duration", rfcDuration(halves[1]))
                    + "</period>"
            case (.boolean, .bool(let flag)):
                out += element("boolean", flag ? "true" : "false")
            case (.period, .string(let text)):
                let halves = text.split(separator: "/", maxSplits: 1).map(String.init)
                guard halves.count == 2 else { return nil }
                out += "<period>" + element("start", halves[0]) + element("end", halves[1]) + "</period>"
            case (.recur, .object(let members)):
                // A part whose name cannot be an element name (a damaged rule): the rule travels as unknown text.
                guard members.allSatisfy({ isElementName($0.key) }) else { return nil }
                let known = recurOrder.flatMap { key in members.filter { $0.key == key } }
                let others = members.filter { !recurOrder.contains($0.key) }
                out += "<recur>"
                for member in known + others {
                    for item in member.value.arrayValue ?? [member.value] {
                        out += element(member.key, JCalReader.scalarText(item))
                    }
                }
                out += "</recur>"
            default:
                out += element(type.rawValue, JCalReader.scalarText(value))
            }
        }
        return out
    }
}
