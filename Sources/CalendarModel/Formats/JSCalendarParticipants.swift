/// Participants, locations, links, relations, keywords and alerts of a JSCalendar object, from iCalendar's
/// ORGANIZER and ATTENDEE, LOCATION and GEO, CONFERENCE, URL and ATTACH, RELATED-TO, CATEGORIES and VALARM.
extension JSCalendarItemWriter {
    static let roles: [String: String] = [
        "CHAIR": "chair", "OPT-PARTICIPANT": "optional", "NON-PARTICIPANT": "informational",
    ]

    mutating func mapOther(_ property: Property) -> Bool {
        switch property.name {
        case "ORGANIZER", "ATTENDEE": return mapParticipant(property)
        case "LOCATION":
            guard let text = JSCalendarWriter.exactText(property.value), !hasMember("locations", "l1") else {
                return false
            }
            let location: JSONValue = .object([("@type", .string("Location")), ("name", .string(text))])
            appendMember("locations", key: "l1", value: location)
            keep(property, consumed: [], at: "locations/l1")
            return true
        case "GEO":
            let parts = property.value.split(separator: ";", omittingEmptySubsequences: false)
            guard property.parameters.isEmpty, parts.count == 2, !hasMember("locations", "g1") else { return false }
            let location: JSONValue = .object([
                ("@type", .string("Location")), ("coordinates", .string("geo:\(parts[0]),\(parts[1])")),
            ])
            appendMember("locations", key: "g1", value: location)
            return true
        case "URL", "ATTACH":
            let isURL = property.name == "URL"
            // VALUE=URI (the default) stays in convertedProperties; binary data has no link.
            guard property["VALUE"].map({ $0.uppercased() == "URI" }) ?? true, property["ENCODING"] == nil,
                !property.value.isEmpty
            else { return false }
            var link: [(key: String, value: JSONValue)] = [
                ("@type", .string("Link")), ("href", .string(property.value)),
            ]
            if !isURL { link.append(("rel", .string("enclosure"))) }
            if let type = property["FMTTYPE"] { link.append(("contentType", .string(type))) }
            linkCount += 1
            let id = "k\(linkCount)"
            appendMember("links", key: id, value: .object(link))
            keep(property, consumed: ["FMTTYPE"], at: "links/" + id, name: isURL ? "url" : nil)
            return true
        case "CONFERENCE":
            guard property["VALUE"]?.uppercased() == "URI" else { return false }
            var location: [(key: String, value: JSONValue)] = [
                ("@type", .string("VirtualLocation")), ("uri", .string(property.value)),
            ]
            if let label = property["LABEL"] { location.append(("name", .string(label))) }
            virtualCount += 1
            let id = "v\(virtualCount)"
            appendMember("virtualLocations", key: id, value: .object(location))
            keep(property, consumed: ["VALUE", "LABEL"], at: "virtualLocations/" + id)
            return true
        case "RELATED-TO":
            guard let uid = JSCalendarWriter.exactText(property.value), !hasMember("relatedTo", uid),
                property.parameters.allSatisfy({ $0.name == "RELTYPE" && $0.values.count == 1 })
            else { return false }
            let relation: JSONValue =
                property["RELTYPE"].map { .object([($0.lowercased(), .bool(true))]) } ?? .object([])
            guard property["RELTYPE"].map({ $0 == $0.uppercased() }) ?? true else { return false }
            appendMember(
                "relatedTo", key: uid, value: .object([("@type", .string("Relation")), ("relation", relation)]))
            return true
        default:
            return false
        }
    }

    func hasMember(_ name: String, _ key: String) -> Bool {
        members.first { $0.key == name }?.value[key] != nil
    }

    /// CATEGORIES as `keywords`: one line without parameters whose names come back as they were; any other
    /// shape stays as written.
    mutating func addKeywords(_ lines: [Property]) {
        guard let line = lines.first else { return }
        let names = ValueSyntax.split(line.value, on: ",").map(TextEscaping.unescape)
        guard lines.count == 1, line.parameters.isEmpty, Set(names).count == names.count,
            TextEscaping.isCanonical(line.value, list: true), !names.contains("")
        else {
            raw += lines
            return
        }
        _ = set("keywords", .object(names.map { ($0, .bool(true)) }))
    }

    /// ORGANIZER and ATTENDEE as participants, one per calendar address (as written): the organizer's `roles` has `owner`, an
    /// attendee's `attendee` (CHAIR also `chair`; OPT- and NON-PARTICIPANT `optional`, `informational`); CN is
    /// `name`, PARTSTAT `participationStatus`, RSVP `expectReply`, CUTYPE `kind`, the address `sendTo.imip` (2.0:
    /// `calendarAddress`); the item says who organizes in `replyTo.imip` (2.0: `organizerCalendarAddress`).
    /// Parameters with no member stay in `convertedProperties`; an ATTENDEE with a ROLE of REQ-PARTICIPANT
    /// written keeps it there, as its absence means the same.
    mutating func mapParticipant(_ property: Property) -> Bool {
        let isOrganizer = property.name == "ORGANIZER"
        let address = property.value
        guard address.contains(":"),
            property.parameters.allSatisfy({ $0.values.count == 1 })
        else { return false }
        let existing = participantIDs[address]
        if isOrganizer, organizerWritten { return false }
        if let existing, existing.organizer == isOrganizer { return false }
        let id = existing?.id ?? "p\(participantIDs.count + 1)"
        var participant =
            members.first { $0.key == "participants" }?.value[id]?.objectMembers ?? [
                ("@type", .string("Participant"))
            ]
        var consumed: Set<String> = []
        if isOrganizer {
            // The organizer's parameters are all kept as written; its name shows when no attendee line gives one.
            if participant.count == 1, let name = property["CN"] { Self.put("name", .string(name), in: &participant) }
        } else {
            consumed = Self.attendeeMembers(property, in: &participant)
        }
        switch version {
        case .rfc8984: Self.put("sendTo", .object([("imip", .string(address))]), in: &participant)
        case .draft2: Self.put("calendarAddress", .string(address), in: &participant)
        }
        let roles = Self.roles(
            participant.first { $0.key == "roles" }?.value ?? .object([]), of: property, consumed: &consumed)
        Self.put("roles", roles, in: &participant)
        appendMember("participants", key: id, value: .object(participant))
        participantIDs[address] = (id, isOrganizer)
        if isOrganizer {
            organizerWritten = true
            switch version {
            case .rfc8984: _ = set("replyTo", .object([("imip", .string(address))]))
            case .draft2: _ = set("organizerCalendarAddress", .string(address))
            }
            keep(property, consumed: consumed, at: "participants/\(id)/organizer", name: "organizer")
        } else {
            keep(property, consumed: consumed, at: "participants/" + id, name: "attendee")
        }
        return true
    }

    /// Sets `key` of a participant, in place when it has one.
    private static func put(_ key: String, _ value: JSONValue, in participant: inout [(key: String, value: JSONValue)])
    {
        if let index = participant.firstIndex(where: { $0.key == key }) {
            participant[index].value = value
        } else {
            participant.append((key, value))
        }
    }

    /// An ATTENDEE's CN, PARTSTAT, RSVP and CUTYPE as members; the parameters consumed (one spelt otherwise than its
    /// member writes it back stays in `convertedProperties`).
    private static func attendeeMembers(
        _ property: Property, in participant: inout [(key: String, value: JSONValue)]
    ) -> Set<String> {
        var consumed: Set<String> = []
        if let name = property["CN"] {
            put("name", .string(name), in: &participant)
            consumed.insert("CN")
        }
        if let status = property["PARTSTAT"], status == status.uppercased() {
            put("participationStatus", .string(status.lowercased()), in: &participant)
            consumed.insert("PARTSTAT")
        }
        if let rsvp = property["RSVP"], ["TRUE", "FALSE"].contains(rsvp) {
            put("expectReply", .bool(rsvp == "TRUE"), in: &participant)
            consumed.insert("RSVP")
        }
        if let kind = property["CUTYPE"], kind == kind.uppercased() {
            put("kind", .string(kind.lowercased()), in: &participant)
            consumed.insert("CUTYPE")
        }
        return consumed
    }

    /// The participant's `roles` with the organizer's `owner` first, or an attendee's `attendee` and its ROLE's word
    /// (ROLE then consumed).
    private static func roles(_ roles: JSONValue, of property: Property, consumed: inout Set<String>) -> JSONValue {
        guard case .object(var set) = roles else { return roles }
        if property.name == "ORGANIZER" {
            set.insert(("owner", .bool(true)), at: 0)
        } else {
            set.append(("attendee", .bool(true)))
            if let role = property["ROLE"], let word = Self.roles[role] {
                set.append((word, .bool(true)))
                consumed.insert("ROLE")
            }
        }
        return .object(set)
    }
}
