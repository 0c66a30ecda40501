/// The object-valued members of an Event or Task read back: participants, locations, virtual locations, links and
/// relations, localizations. A member ICSKit has no property for is kept as an `X-JSCALENDAR` property holding its
/// JSON (`X-NAME` its pointer), which the writer turns back into the member, so that nothing is lost either way.
enum JSCalendarObjects {
    static func kept(_ pointer: String, _ value: JSONValue) -> Property {
        Property(
            "X-JSCALENDAR", parameters: [Parameter("X-NAME", pointer)], value: TextEscaping.escape(value.serialized()))
    }

    static func member(_ key: String, _ value: JSONValue, into reader: inout JSCalendarItemReader)
        throws(JSCalendarReader.Failure)
    {
        let path = reader.path + "/" + key
        switch key {
        case "participants":
            for (id, item) in try entries(value, path) { try participant(id, item, into: &reader) }
        case "locations":
            for (id, item) in try entries(value, path) { try location(id, item, path: path + "/" + id, into: &reader) }
        case "virtualLocations":
            for (id, item) in try entries(value, path) {
                try virtualLocation(id, item, path: path + "/" + id, into: &reader)
            }
        case "links":
            for (id, item) in try entries(value, path) { try link(id, item, path: path + "/" + id, into: &reader) }
        case "relatedTo":
            for (uid, relation) in try entries(value, path) {
                var parameters: [Parameter] = []
                if case .object(let kinds)? = relation["relation"], let kind = kinds.first?.key {
                    parameters.append(Parameter("RELTYPE", kind.uppercased()))
                }
                reader.properties.append(
                    Property("RELATED-TO", parameters: parameters, value: TextEscaping.escape(uid)))
            }
        case "localizations":
            for (language, patch) in try entries(value, path) { localization(language, patch, into: &reader) }
        default:
            // A member ICSKit has no property for (RFC 8984's `locale`, `timeZones`, a vendor's …) is kept.
            reader.properties.append(kept(key, value))
        }
    }

    /// The members of an object of objects by id (`participants`, `locations` …).
    private static func entries(_ value: JSONValue, _ path: String) throws(JSCalendarReader.Failure)
        -> [(key: String, value: JSONValue)]
    {
        guard case .object(let items) = value else { throw .jscalendar(path, "an object of objects by id") }
        for (id, item) in items {
            guard case .object = item else { throw .jscalendar(path + "/" + id, "an object") }
        }
        return items
    }

    /// A location as LOCATION (its name) and GEO (its coordinates); one that only says where the end is gives DTEND
    /// its zone (read with `duration`) and nothing here.
    private static func location(
        _ id: String, _ location: JSONValue, path: String, into reader: inout JSCalendarItemReader
    )
        throws(JSCalendarReader.Failure)
    {
        if location["relativeTo"]?.stringValue == "end", location["name"] == nil { return }
        if let name = location["name"]?.stringValue {
            reader.properties.append(
                Property(
                    "LOCATION", parameters: try reader.parameters("locations/" + id), value: TextEscaping.escape(name)))
        }
        if let coordinates = location["coordinates"]?.stringValue {
            guard coordinates.hasPrefix("geo:") else { throw .jscalendar(path + "/coordinates", "a geo: URI") }
            let numbers = coordinates.dropFirst(4).split(separator: ";").first ?? ""
            reader.properties.append(Property("GEO", value: numbers.replacingOccurrences(of: ",", with: ";")))
        }
    }

    /// A virtual location as CONFERENCE (RFC 7986), its name the LABEL.
    private static func virtualLocation(
        _ id: String, _ location: JSONValue, path: String, into reader: inout JSCalendarItemReader
    )
        throws(JSCalendarReader.Failure)
    {
        guard let uri = location["uri"]?.stringValue else { throw .jscalendar(path + "/uri", "a URI") }
        var parameters = [Parameter("VALUE", "URI")]
        if let name = location["name"]?.stringValue { parameters.append(Parameter("LABEL", name)) }
        parameters += try reader.parameters("virtualLocations/" + id)
        reader.properties.append(Property("CONFERENCE", parameters: parameters, value: uri))
    }

    /// A link as URL (what was a URL, or a link with neither `rel` nor `contentType`), else ATTACH.
    private static func link(_ id: String, _ link: JSONValue, path: String, into reader: inout JSCalendarItemReader)
        throws(JSCalendarReader.Failure)
    {
        guard let href = link["href"]?.stringValue else { throw .jscalendar(path + "/href", "a URI") }
        let isURL =
            reader.converted("links/" + id)?["name"]?.stringValue == "url"
            || (link["rel"] == nil && link["contentType"] == nil)
        var parameters: [Parameter] = []
        if let type = link["contentType"]?.stringValue { parameters.append(Parameter("FMTTYPE", type)) }
        parameters += try reader.parameters("links/" + id)
        reader.properties.append(Property(isURL ? "URL" : "ATTACH", parameters: parameters, value: href))
    }

    /// A localization: its title and description as SUMMARY and DESCRIPTION in that LANGUAGE, the rest kept.
    static func localization(_ language: String, _ patch: JSONValue, into reader: inout JSCalendarItemReader) {
        for (member, name) in [("title", "SUMMARY"), ("description", "DESCRIPTION")] {
            if let text = patch[member]?.stringValue {
                reader.properties.append(
                    Property(name, parameters: [Parameter("LANGUAGE", language)], value: TextEscaping.escape(text)))
            }
        }
        let rest = patch.objectMembers.filter { !["title", "description"].contains($0.key) }
        if !rest.isEmpty { reader.properties.append(kept("localizations/" + language, .object(rest))) }
    }

    /// A participant as ORGANIZER (an `owner`) and ATTENDEE (any other role, or none): the address from
    /// `sendTo.imip` or `calendarAddress` (else `mailto:` and its `email`).
    static func participant(_ id: String, _ json: JSONValue, into reader: inout JSCalendarItemReader)
        throws(JSCalendarReader.Failure)
    {
        let path = reader.path + "/participants/" + id
        guard
            let address = json["calendarAddress"]?.stringValue ?? json["sendTo"]?["imip"]?.stringValue
                ?? json["email"]?.stringValue.map({ "mailto:" + $0 })
        else { throw .jscalendar(path, "a Participant with sendTo.imip, calendarAddress or email") }
        var roles: [String] = []
        if let given = json["roles"] {
            guard case .object(let names) = given else { throw .jscalendar(path + "/roles", "an object of roles") }
            roles = names.filter { $0.value == .bool(true) }.map(\.key)
        }
        if roles.contains("owner") {
            var parameters = try reader.parameters("participants/\(id)/organizer")
            if reader.converted("participants/\(id)/organizer") == nil, let name = json["name"]?.stringValue {
                parameters.append(Parameter("CN", name))
            }
            reader.properties.append(Property("ORGANIZER", parameters: parameters, value: address))
            guard roles.contains(where: { $0 != "owner" }) else { return }
        }
        var parameters: [Parameter] = []
        if let name = json["name"]?.stringValue { parameters.append(Parameter("CN", name)) }
        if let kind = json["kind"]?.stringValue { parameters.append(Parameter("CUTYPE", kind.uppercased())) }
        if roles.contains("chair") {
            parameters.append(Parameter("ROLE", "CHAIR"))
        } else if roles.contains("optional") {
            parameters.append(Parameter("ROLE", "OPT-PARTICIPANT"))
        } else if roles.contains("informational") {
            parameters.append(Parameter("ROLE", "NON-PARTICIPANT"))
        }
        if let status = json["participationStatus"]?.stringValue {
            parameters.append(Parameter("PARTSTAT", status.uppercased()))
        }
        if case .bool(let expect)? = json["expectReply"] {
            parameters.append(Parameter("RSVP", expect ? "TRUE" : "FALSE"))
        }
        parameters += try reader.parameters("participants/" + id)
        reader.properties.append(Property("ATTENDEE", parameters: parameters, value: address))
    }
}
