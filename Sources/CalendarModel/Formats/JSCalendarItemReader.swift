/// One Event or Task object as a VEVENT or VTODO: each member as its iCalendar property (the inverse of
/// `JSCalendarItemWriter` and its mapping), `convertedProperties` giving back parameters, `iCalComponent` the rest.
struct JSCalendarItemReader {
    /// Keys that say what the series is, not what one instance is.
    static let seriesKeys = [
        "recurrenceRules", "recurrenceRule", "excludedRecurrenceRules", "recurrenceOverrides",
    ]
    /// What RFC 8984 §4.3.5 lets no patch change.
    static let unpatchable =
        [
            "@type", "method", "privacy", "prodId", "recurrenceId", "recurrenceIdTimeZone", "relatedTo", "replyTo",
            "sentBy", "timeZones", "uid", "organizerCalendarAddress",
        ] + seriesKeys

    let json: JSONValue
    let path: String
    let isTask: Bool
    var frame = JSCalendarValues.Frame()
    var properties: [Property] = []

    init(json: JSONValue, path: String, isTask: Bool) {
        (self.json, self.path, self.isTask) = (json, path, isTask)
        let zone = json["timeZone"]?.stringValue
        frame = JSCalendarValues.Frame(
            zone: zone == "Etc/UTC" || zone == "UTC" ? nil : zone, isUTC: zone == "Etc/UTC" || zone == "UTC",
            isDate: json["showWithoutTime"] == .bool(true))
    }

    /// The `convertedProperties` entry for a member's pointer.
    func converted(_ pointer: String) -> JSONValue? { json["iCalComponent"]?["convertedProperties"]?[pointer] }

    /// Parameters kept for a member.
    func parameters(_ pointer: String) throws(JSCalendarReader.Failure) -> [Parameter] {
        guard let kept = converted(pointer)?["parameters"] else { return [] }
        guard case .object(let members) = kept else {
            throw .jscalendar(path + "/iCalComponent/convertedProperties/" + pointer + "/parameters", "an object")
        }
        var result: [Parameter] = []
        for (key, value) in members {
            try JCalReader.checkName(
                key, .parameter, path: path + "/iCalComponent/convertedProperties/" + pointer + "/parameters/" + key)
            let values = value.arrayValue ?? [value]
            result.append(Parameter(key, values.map { $0.stringValue ?? JCalReader.scalarText($0) }))
        }
        return result
    }

    /// The zone of a location `relativeTo: "end"`, where an end in another zone than the start is.
    var endLocationZone: String? {
        json["locations"]?.objectMembers.first { $0.value["relativeTo"]?.stringValue == "end" }?.value["timeZone"]?
            .stringValue
    }

    /// A LocalDateTime in this item's frame as iCalendar text (a date, UTC or wall-clock time).
    func frameValue(_ local: String) -> String? {
        JSCalendarValues.ics(local: local, isDate: frame.isDate, utc: frame.isUTC)
    }

    /// A date property in the frame's form (`TZID`, `VALUE=DATE`).
    func dated(_ name: String, _ value: String) -> Property {
        var parameters: [Parameter] = []
        if frame.isDate { parameters.append(Parameter("VALUE", "DATE")) }
        if let zone = frame.zone, !frame.isDate { parameters.append(Parameter("TZID", zone)) }
        return Property(name, parameters: parameters, value: value)
    }

    func string(_ key: String, _ value: JSONValue) throws(JSCalendarReader.Failure) -> String {
        guard let text = value.stringValue else { throw .jscalendar(path + "/" + key, "a string") }
        return text
    }

    func integer(_ key: String, _ value: JSONValue) throws(JSCalendarReader.Failure) -> String {
        guard case .number(let number) = value, Int(number) != nil else {
            throw .jscalendar(path + "/" + key, "an integer")
        }
        return number
    }

    /// The component: every member in order, then what the escape hatch holds.
    mutating func item() throws(JSCalendarReader.Failure) -> Component {
        guard case .object(let members) = json else { throw .jscalendar(path, "an object") }
        var components: [Component] = []
        for (key, value) in members {
            // A changed instance without what its series has and no patch may take away (its privacy …).
            if converted(key)?["name"]?.stringValue == "none" { continue }
            switch key {
            case "@type", "timeZone", "showWithoutTime", "recurrenceOverrides", "iCalComponent", "replyTo",
                "organizerCalendarAddress":
                continue
            case "alerts":
                guard case .object(let alerts) = value else {
                    throw .jscalendar(path + "/alerts", "an object of Alerts")
                }
                for (id, alert) in alerts {
                    components.append(try JSCalendarAlerts.alarm(alert, path: path + "/alerts/" + id))
                }
            default:
                try member(key, value)
            }
        }
        organizerWithoutParticipant()
        if let hatch = json["iCalComponent"] {
            let (raw, inner) = try JSCalendarReader.hatch(hatch, path: path + "/iCalComponent")
            properties += raw
            components += inner
        }
        return Component(isTask ? "VTODO" : "VEVENT", properties: properties, components: components)
    }

    /// ORGANIZER from `replyTo` (2.0: `organizerCalendarAddress`) when no participant is the owner.
    mutating func organizerWithoutParticipant() {
        guard !properties.contains(where: { $0.name == "ORGANIZER" }) else { return }
        let hidden = converted("replyTo") != nil || converted("organizerCalendarAddress") != nil
        if !hidden, let address = json["organizerCalendarAddress"]?.stringValue ?? json["replyTo"]?["imip"]?.stringValue
        {
            properties.append(Property("ORGANIZER", value: address))
        }
    }

    /// The writer's word tables turned round (member → property, JSCalendar word → iCalendar value); a task's
    /// `failed` progress, which iCalendar has no STATUS for, is read as CANCELLED.
    static let words: [String: (String, [String: String])] = {
        var words: [String: (String, [String: String])] = [:]
        for table in [JSCalendarItemWriter.eventWords, JSCalendarItemWriter.taskWords] {
            for (property, (member, values)) in table {
                words[member] = (property, Dictionary(uniqueKeysWithValues: values.map { ($1, $0) }))
            }
        }
        words["progress"]?.1["failed"] = "CANCELLED"
        return words
    }()
    static let texts = Dictionary(uniqueKeysWithValues: JSCalendarItemWriter.texts.map { ($1, $0) })

    mutating func member(_ key: String, _ value: JSONValue) throws(JSCalendarReader.Failure) {
        if let name = Self.texts[key] {
            properties.append(
                Property(name, parameters: try parameters(key), value: TextEscaping.escape(try string(key, value))))
            return
        }
        if let (name, map) = Self.words[key] {
            let word = try string(key, value)
            guard let written = map[word] else {
                throw .jscalendar(path + "/" + key, "one of " + map.keys.sorted().joined(separator: ", "))
            }
            properties.append(Property(name, value: written))
            return
        }
        switch key {
        case "updated", "created":
            guard let text = value.stringValue, let utc = JSCalendarValues.ics(utc: text) else {
                throw .jscalendar(path + "/" + key, "a UTCDateTime (2026-01-05T09:00:00Z)")
            }
            properties.append(Property(key == "updated" ? "DTSTAMP" : "CREATED", value: utc))
        case "sequence", "priority", "percentComplete":
            let name = ["sequence": "SEQUENCE", "priority": "PRIORITY", "percentComplete": "PERCENT-COMPLETE"][key]
            properties.append(Property(name ?? "", value: try integer(key, value)))
        case "start", "due":
            guard let text = value.stringValue, let ics = frameValue(text) else {
                throw .jscalendar(path + "/" + key, frame.isDate ? "a LocalDateTime at midnight" : "a LocalDateTime")
            }
            properties.append(dated(key == "start" ? "DTSTART" : "DUE", ics))
        case "duration", "estimatedDuration": try length(key, value)
        case "recurrenceRules", "excludedRecurrenceRules":
            guard case .array(let rules) = value else {
                throw .jscalendar(path + "/" + key, "an array of RecurrenceRules")
            }
            for (index, rule) in rules.enumerated() {
                let text = try JSCalendarValues.ruleText(rule, frame: frame, path: "\(path)/\(key)/\(index)")
                properties.append(Property(key == "recurrenceRules" ? "RRULE" : "EXRULE", value: text))
            }
        case "recurrenceRule":
            properties.append(
                Property("RRULE", value: try JSCalendarValues.ruleText(value, frame: frame, path: path + "/" + key)))
        case "keywords":
            guard case .object(let names) = value else { throw .jscalendar(path + "/keywords", "an object of names") }
            properties.append(
                Property("CATEGORIES", value: names.map { TextEscaping.escape($0.key) }.joined(separator: ",")))
        default:
            try JSCalendarObjects.member(key, value, into: &self)
        }
    }

    /// `duration` or `estimatedDuration`: DTEND where ICSKit wrote one as a duration (in the end location's zone when
    /// it has one), ESTIMATED-DURATION for a task's estimate beside DUE or without a start, else DURATION.
    private mutating func length(_ key: String, _ value: JSONValue) throws(JSCalendarReader.Failure) {
        let text = try string(key, value)
        guard case .success(let length) = CalendarDuration.parse(text), !length.isNegative else {
            throw .jscalendar(path + "/" + key, "a Duration (PT1H)")
        }
        if key == "duration", converted("duration")?["name"]?.stringValue == "dtend",
            let start = json["start"]?.stringValue.flatMap(frameValue),
            case .success(let from) = CalendarDate.parse(start, tzid: nil)
        {
            if let zone = frame.zone, let endZone = endLocationZone,
                let end = JSCalendarValues.wall(after: start, in: zone, seconds: length.totalSeconds, endZone: endZone)
            {
                // The end in another zone (RFC 8984 §6.6): the same time passed, read in that zone.
                properties.append(Property("DTEND", parameters: [Parameter("TZID", endZone)], value: end))
                return
            }
            let end = LocalDateTime(from).adding(seconds: Int64(length.totalSeconds))
            let form: CalendarDate.Form = frame.isDate ? .date : frame.isUTC ? .utc : .floating
            properties.append(dated("DTEND", end.calendarDate(form).icsValue))
        } else if key == "estimatedDuration", json["due"] != nil || json["start"] == nil {
            // RFC 5545 gives a todo a DURATION only beside DTSTART and never beside DUE.
            properties.append(Property("ESTIMATED-DURATION", value: text))
        } else {
            properties.append(Property("DURATION", value: text))
        }
    }
}
