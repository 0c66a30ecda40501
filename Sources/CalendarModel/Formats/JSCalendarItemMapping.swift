/// The iCalendar properties an Event or Task has a member for (the calext mapping draft, §§ on each property), and
/// how each is written; `map` answers false for one that goes to the escape hatch as it is.
extension JSCalendarItemWriter {
    /// Simple TEXT properties and their members.
    static let texts: [String: String] = [
        "UID": "uid", "SUMMARY": "title", "DESCRIPTION": "description", "COLOR": "color",
    ]
    /// Enumerated values: property → (member, iCalendar value → JSCalendar value).
    static let eventWords: [String: (String, [String: String])] = [
        "STATUS": ("status", ["CONFIRMED": "confirmed", "TENTATIVE": "tentative", "CANCELLED": "cancelled"]),
        "TRANSP": ("freeBusyStatus", ["OPAQUE": "busy", "TRANSPARENT": "free"]),
        "CLASS": ("privacy", ["PUBLIC": "public", "PRIVATE": "private", "CONFIDENTIAL": "secret"]),
    ]
    static let taskWords: [String: (String, [String: String])] = [
        "STATUS": (
            "progress",
            [
                "NEEDS-ACTION": "needs-action", "IN-PROCESS": "in-process", "COMPLETED": "completed",
                "CANCELLED": "cancelled",
            ]
        ),
        "TRANSP": ("freeBusyStatus", ["OPAQUE": "busy", "TRANSPARENT": "free"]),
        "CLASS": ("privacy", ["PUBLIC": "public", "PRIVATE": "private", "CONFIDENTIAL": "secret"]),
    ]

    /// Maps one property; false when it goes to the escape hatch.
    mutating func map(_ property: Property, in item: Component) -> Bool {
        let name = property.name
        if let member = Self.texts[name], let text = JSCalendarWriter.exactText(property.value) {
            return mapText(property, member: member, text: text)
        }
        if name == "X-JSCALENDAR", property.parameters.count == 1, let pointer = property["X-NAME"],
            let text = JSCalendarWriter.exactText(property.value), let value = try? JSONValue.parse(Array(text.utf8)),
            JSCalendarObjects.kept(pointer, value).value == property.value
        {
            return mapKept(pointer, value)
        }
        if let (member, words) = (isTask ? Self.taskWords : Self.eventWords)[name], property.parameters.isEmpty,
            let word = words[property.value]
        {
            return set(member, .string(word))
        }
        switch name {
        case "DTSTAMP", "CREATED":
            guard property.parameters.isEmpty, let utc = JSCalendarValues.utc(property.value) else { return false }
            return set(name == "DTSTAMP" ? "updated" : "created", .string(utc))
        case "SEQUENCE", "PRIORITY", "PERCENT-COMPLETE":
            guard property.parameters.isEmpty, let number = Int(property.value), String(number) == property.value
            else { return false }
            let member = ["SEQUENCE": "sequence", "PRIORITY": "priority", "PERCENT-COMPLETE": "percentComplete"][name]
            return set(member ?? "", .int(number))
        case "DTSTART": return mapStart(property)
        case "DTEND": return mapEnd(property, in: item)
        case "DUE": return mapDue(property, in: item)
        case "DURATION", "ESTIMATED-DURATION": return mapLength(property, in: item)
        case "RRULE", "EXRULE":
            guard property.parameters.isEmpty, writtenFrame == frame,
                let rule = JSCalendarValues.rule(property.value, frame: frame)
            else {
                return false
            }
            return addRule(rule, excluded: name == "EXRULE")
        case "RDATE", "EXDATE":
            return mapDates(property)
        default:
            return mapOther(property)
        }
    }

    /// A SUMMARY, DESCRIPTION or other text member; a second SUMMARY or DESCRIPTION in another language is a
    /// localization.
    private mutating func mapText(_ property: Property, member: String, text: String) -> Bool {
        if set(member, .string(text)) {
            keep(property, consumed: [], at: member)
            return true
        }
        guard ["title", "description"].contains(member), let language = property["LANGUAGE"],
            property.parameters.count == 1,
            !hasMember("localizations", language)
                || hasMember("localizations", language)
                    && members.first(where: { $0.key == "localizations" })?.value[language]?[member] == nil
        else { return false }
        addLocalization(language, member, .string(text))
        return true
    }

    /// A member ICSKit kept as X-JSCALENDAR when it read JSCalendar: set again where it was.
    private mutating func mapKept(_ pointer: String, _ value: JSONValue) -> Bool {
        if pointer.hasPrefix("localizations/") {
            let language = String(pointer.dropFirst("localizations/".count))
            for (key, inner) in value.objectMembers { addLocalization(language, key, inner) }
            return !value.objectMembers.isEmpty
        }
        return !pointer.contains("/") && set(pointer, value)
    }

    /// A task's DUE, in the frame its start set (or setting it, without a start).
    private mutating func mapDue(_ property: Property, in item: Component) -> Bool {
        guard isTask, let local = key(property, allowZone: false),
            property.parameters.allSatisfy({ ["TZID", "VALUE"].contains($0.name) }),
            !frame.isDate || (property["VALUE"] == "DATE" && property["TZID"] == nil)
        else { return false }
        if item.property("DTSTART") == nil, !timeZoneWritten {
            writeTimeZone()
            if frame.isDate { _ = set("showWithoutTime", .bool(true)) }
        }
        guard writtenFrame == frame else { return false }
        return set("due", .string(local))
    }

    /// An event's DURATION, or a task's estimate: read back as DURATION beside DTSTART without DUE, else as
    /// ESTIMATED-DURATION, so only the one it is read back as maps.
    private mutating func mapLength(_ property: Property, in item: Component) -> Bool {
        let readAs =
            !isTask || (item.property("DTSTART") != nil && item.property("DUE") == nil)
            ? "DURATION" : "ESTIMATED-DURATION"
        guard property.parameters.isEmpty, property.name == readAs,
            case .success(let length) = CalendarDuration.parse(property.value), !length.isNegative,
            length.icsValue == property.value
        else { return false }
        return set(isTask ? "estimatedDuration" : "duration", .string(property.value))
    }

    var timeZoneWritten: Bool { members.contains { $0.key == "timeZone" } }

    /// Sets `key` of the localization patch for `language`.
    mutating func addLocalization(_ language: String, _ key: String, _ value: JSONValue) {
        let patch = members.first { $0.key == "localizations" }?.value[language]?.objectMembers ?? []
        appendMember("localizations", key: language, value: .object(patch + [(key, value)]))
    }

    mutating func writeTimeZone() {
        if frame.isDate { return }
        if frame.isUTC {
            _ = set("timeZone", .string("Etc/UTC"))
        } else if let zone = frame.zone {
            _ = set("timeZone", .string(zone))
        }
    }

    /// DTSTART: `start` in the item's own frame, `timeZone` (a TZID as it is; UTC as `Etc/UTC`; none for floating),
    /// `showWithoutTime` for a date.
    mutating func mapStart(_ property: Property) -> Bool {
        guard let local = JSCalendarValues.local(property.value),
            property.parameters.allSatisfy({ ["TZID", "VALUE"].contains($0.name) }),
            property["VALUE"] == nil || (frame.isDate && property["VALUE"] == "DATE"),
            !(property.value.hasSuffix("Z") && property["TZID"] != nil),
            !members.contains(where: { $0.key == "start" }),
            !["UTC", "ETC/UTC"].contains(property["TZID"]?.uppercased() ?? "")
        else { return false }
        // A date written without VALUE=DATE, or with a TZID, comes back without them: kept as it is.
        if frame.isDate, property["VALUE"] == nil || property["TZID"] != nil { return false }
        _ = set("start", .string(local))
        writeTimeZone()
        if frame.isDate { _ = set("showWithoutTime", .bool(true)) }
        return true
    }

    /// DTEND of an event in its start's form, as the `duration` between them (wall-clock time, as RFC 5545 reads
    /// an end in the start's zone); `convertedProperties` says it was a DTEND.
    mutating func mapEnd(_ property: Property, in item: Component) -> Bool {
        guard !isTask, item.property("DURATION") == nil, let start = item.property("DTSTART"),
            members.contains(where: { $0.key == "start" })
        else { return false }
        if let startZone = start["TZID"], let endZone = property["TZID"], startZone != endZone {
            return mapEnd(property, from: start, startZone, to: endZone)
        }
        guard key(property, allowZone: false) != nil, property.parameters == start.parameters,
            case .success(let from) = CalendarDate.parse(start.value, tzid: nil),
            case .success(let to) = CalendarDate.parse(property.value, tzid: nil)
        else { return false }
        let seconds = LocalDateTime(to).wallSeconds - LocalDateTime(from).wallSeconds
        guard seconds >= 0 else { return false }
        let length =
            frame.isDate
            ? CalendarDuration(days: Int(seconds / 86_400)) : CalendarDuration(exactSeconds: Int(seconds))
        guard set("duration", .string(length.icsValue)) else { return false }
        converted.append(("duration", .object([("name", .string("dtend"))])))
        return true
    }

    /// A DTEND in another zone than DTSTART (a flight) as RFC 8984 §6.6 writes it: the time that passes as
    /// `duration`, and the end's zone on a location `relativeTo: "end"`.
    mutating func mapEnd(_ property: Property, from start: Property, _ startZone: String, to endZone: String) -> Bool {
        guard property.parameters.count == 1, start.parameters.count == 1, !hasMember("locations", "end"),
            let from = JSCalendarValues.utc(ofWall: start.value, in: startZone).flatMap({
                SeriesRewrite.key($0, tzid: nil)
            }),
            let to = JSCalendarValues.utc(ofWall: property.value, in: endZone).flatMap({
                SeriesRewrite.key($0, tzid: nil)
            }),
            to >= from,
            JSCalendarValues.wall(after: start.value, in: startZone, seconds: Int(to - from), endZone: endZone)
                == property.value,
            set("duration", .string(CalendarDuration(exactSeconds: Int(to - from)).icsValue))
        else { return false }
        converted.append(("duration", .object([("name", .string("dtend"))])))
        appendMember(
            "locations", key: "end",
            value: .object([
                ("@type", .string("Location")), ("relativeTo", .string("end")), ("timeZone", .string(endZone)),
            ]))
        return true
    }

    mutating func addRule(_ rule: JSONValue, excluded: Bool) -> Bool {
        // The 2.0 draft has one rule; a second goes to the escape hatch.
        if !excluded, version == .draft2 { return set("recurrenceRule", rule) }
        let name = excluded ? "excludedRecurrenceRules" : "recurrenceRules"
        if let index = members.firstIndex(where: { $0.key == name }) {
            members[index].value = .array((members[index].value.arrayValue ?? []) + [rule])
        } else {
            members.append((name, .array([rule])))
        }
        return true
    }

    /// RDATE and EXDATE values in the start's form as `recurrenceOverrides` keys: `{}` adds an instance,
    /// `{"excluded": true}` removes one; the values of one line are one line again (`convertedProperties`).
    mutating func mapDates(_ property: Property) -> Bool {
        guard writtenFrame == frame, property.parameters.allSatisfy({ ["TZID", "VALUE"].contains($0.name) }),
            property["VALUE"] == nil || (frame.isDate && property["VALUE"] == "DATE"),
            !(frame.isDate && property["VALUE"] == nil)
        else { return false }
        var keys: [String] = []
        for value in ValueSyntax.split(property.value, on: ",") {
            var single = property
            single.value = value
            guard let local = key(single, allowZone: false), recurrenceOverrides[local] == nil,
                !keys.contains(local)
            else { return false }
            keys.append(local)
        }
        // A list on one line comes back as one line: its first key's entry names the others.
        if keys.count > 1 {
            converted.append(
                (
                    "recurrenceOverrides/" + keys[0],
                    .object([
                        ("name", .string(property.name.lowercased())),
                        ("with", .array(keys.dropFirst().map(JSONValue.string))),
                    ])
                ))
            listedKeys.formUnion(keys)
        }
        let value: JSONValue = property.name == "EXDATE" ? .object([("excluded", .bool(true))]) : .object([])
        for key in keys {
            recurrenceOverrides[key] = value
            overrideOrder.append(key)
        }
        return true
    }
}
