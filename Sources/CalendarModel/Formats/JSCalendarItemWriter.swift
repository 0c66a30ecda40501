/// One VEVENT or VTODO as a JSCalendar Event or Task (the calext mapping draft's names; RFC 8984 or the 2.0 draft
/// by `version`). A property is mapped only when reading the result back gives it as it was; everything else goes
/// to the object's `iCalComponent` (`JSCalendarWriter.hatch`).
struct JSCalendarItemWriter {
    let version: JSCalendarVersion
    let isTask: Bool
    var members: [(key: String, value: JSONValue)] = []
    var raw: [Property] = []
    var converted: [(key: String, value: JSONValue)] = []
    var leftOver: [Component] = []
    var frame = JSCalendarValues.Frame()

    /// A series (its master first, then the instances it changes) as one entry: overrides become
    /// `recurrenceOverrides` patches, each holding what differs from the master. Overrides whose RECURRENCE-ID is
    /// not in the master's form, and changed instances without a master, are entries of their own.
    static func entry(_ series: [Component], version: JSCalendarVersion) -> (JSONValue, [Component]) {
        guard let master = series.first else { return (.null, []) }
        var writer = JSCalendarItemWriter(version: version, isTask: master.name == "VTODO")
        writer.add(master)
        var lone: [Component] = []
        if master.property("RECURRENCE-ID") == nil, writer.writtenFrame == writer.frame {
            var overrides = writer.recurrenceOverrides
            // The master's object, made only for a series that has overrides to compare with it.
            let base = series.count > 1 ? writer.object : .null
            for override in series.dropFirst() {
                guard let id = override.property("RECURRENCE-ID"), let key = writer.key(id, allowZone: false),
                    !writer.listedKeys.contains(key),
                    id.parameters.allSatisfy({ ["TZID", "VALUE"].contains($0.name) }),
                    overrides[key] == nil
                        || overrides[key] == .object([])
                else {
                    lone.append(override)
                    continue
                }
                var other = JSCalendarItemWriter(version: version, isTask: override.name == "VTODO")
                other.add(override, skipping: "RECURRENCE-ID")
                // What no patch may change, the instance has from the master; what it lacks is said so.
                let own = other.object
                for key in JSCalendarItemReader.unpatchable where base[key] != nil && own[key] == nil {
                    other.converted.append((key, .object([("name", .string("none"))])))
                }
                guard let patch = Self.patch(from: base, to: other.object) else {
                    lone.append(override)
                    continue
                }
                if overrides[key] == .object([]) {
                    writer.converted.append(("recurrenceOverrides/" + key, .object([("name", .string("rdate"))])))
                }
                overrides[key] = .object(patch)
                writer.overrideOrder.append(key)
            }
            writer.setOverrides(overrides)
        } else {
            lone = Array(series.dropFirst())
        }
        var entries = [writer.object]
        var leftOver = writer.leftOver
        for override in lone {
            var other = JSCalendarItemWriter(version: version, isTask: override.name == "VTODO")
            other.add(override)
            entries.append(other.object)
            leftOver += other.leftOver
        }
        // A changed instance of its own is a further entry; the caller gets them in order, after the series.
        return (entries.count == 1 ? entries[0] : .array(entries), leftOver)
    }

    /// Overrides as written so far, by LocalDateTime; RDATEs are `{}`, EXDATEs `{"excluded": true}`.
    var recurrenceOverrides: [String: JSONValue] = [:]
    var overrideOrder: [String] = []

    mutating func setOverrides(_ overrides: [String: JSONValue]) {
        recurrenceOverrides = overrides
        members.removeAll { $0.key == "recurrenceOverrides" }
        guard !overrideOrder.isEmpty else { return }
        var seen: Set<String> = []
        let ordered = overrideOrder.filter { seen.insert($0).inserted }
        members.append(("recurrenceOverrides", .object(ordered.compactMap { key in overrides[key].map { (key, $0) } })))
    }

    /// The object: its members, then the escape hatch.
    var object: JSONValue {
        var all = members
        if let hatch = JSCalendarWriter.hatch(
            name: isTask ? "vtodo" : "vevent", raw: raw, components: leftOverInHatch, converted: converted)
        {
            all.append(("iCalComponent", hatch))
        }
        return .object(all)
    }
    var leftOverInHatch: [Component] = []

    /// What the override changes: its members that differ from the master's, and `null` for what it lacks;
    /// identity and recurrence keys are never patched.
    /// Nil when the override differs in what RFC 8984 §4.3.5 lets no patch change (its privacy, relations, who
    /// to reply to): it is then an entry of its own.
    static func patch(from base: JSONValue, to override: JSONValue) -> [(key: String, value: JSONValue)]? {
        guard case .object(let master) = base, case .object(let own) = override else { return [] }
        let series = Set(JSCalendarItemReader.seriesKeys)
        var patch: [(key: String, value: JSONValue)] = []
        for (key, value) in own where !series.contains(key) && base[key] != value { patch.append((key, value)) }
        let forbidden = Set(JSCalendarItemReader.unpatchable)
        for (key, _) in master where !series.contains(key) && !forbidden.contains(key) && override[key] == nil {
            patch.append((key, .null))
        }
        return patch.contains { forbidden.contains($0.key) } || patch.isEmpty ? nil : patch
    }

    /// Adds every property and component of `item`.
    mutating func add(_ item: Component, skipping: String? = nil) {
        members.append(("@type", .string(isTask ? "Task" : "Event")))
        if let start = item.property("DTSTART") ?? (isTask ? item.property("DUE") : nil) {
            frame = Self.frame(of: start)
        }
        var categories: [Property] = []
        // DTSTART first: the frame it writes (timeZone, showWithoutTime) is what the other times are read in.
        for starts in [true, false] {
            for property in item.properties where (property.name == "DTSTART") == starts && property.name != skipping {
                if property.name == "CATEGORIES" {
                    categories.append(property)
                } else if !map(property, in: item) {
                    raw.append(property)
                }
            }
        }
        addKeywords(categories)
        setOverrides(recurrenceOverrides)
        for component in item.components {
            if component.name == "VALARM", let alert = JSCalendarAlerts.alert(component) {
                appendMember("alerts", key: "a\(alertCount + 1)", value: alert)
                alertCount += 1
            } else {
                leftOverInHatch.append(component)
            }
        }
    }
    var alertCount = 0
    var linkCount = 0
    var virtualCount = 0
    var participantIDs: [String: (id: String, organizer: Bool)] = [:]
    var organizerWritten = false
    /// Keys of RDATE and EXDATE values written several to a line.
    var listedKeys: Set<String> = []

    /// The frame a reader takes from what is written so far (`timeZone`, `showWithoutTime`); values in another
    /// frame are not mapped, as they would not come back as they were.
    var writtenFrame: JSCalendarValues.Frame {
        let zone = members.first { $0.key == "timeZone" }?.value.stringValue
        return JSCalendarValues.Frame(
            zone: zone == "Etc/UTC" ? nil : zone, isUTC: zone == "Etc/UTC",
            isDate: members.contains { $0.key == "showWithoutTime" && $0.value == .bool(true) })
    }

    static func frame(of start: Property) -> JSCalendarValues.Frame {
        JSCalendarValues.Frame(
            zone: start["TZID"], isUTC: start.value.hasSuffix("Z"),
            isDate: start["VALUE"]?.uppercased() == "DATE" || start.value.count == 8)
    }

    /// A member once; a second of the same key is not mapped.
    mutating func set(_ key: String, _ value: JSONValue) -> Bool {
        guard !members.contains(where: { $0.key == key }) else { return false }
        members.append((key, value))
        return true
    }

    /// Puts `value` under `key` in the object member `name` (participants, locations, alerts …), in place when the
    /// key is there.
    mutating func appendMember(_ name: String, key: String, value: JSONValue) {
        guard let index = members.firstIndex(where: { $0.key == name }) else {
            members.append((name, .object([(key, value)])))
            return
        }
        var entries = members[index].value.objectMembers
        if let at = entries.firstIndex(where: { $0.key == key }) {
            entries[at].value = value
        } else {
            entries.append((key, value))
        }
        members[index].value = .object(entries)
    }

    /// Parameters beyond those a mapping consumed, kept in `convertedProperties` under the member's pointer.
    mutating func keep(_ property: Property, consumed: Set<String>, at pointer: String, name: String? = nil) {
        let rest = property.parameters.filter { !consumed.contains($0.name) }
        guard !rest.isEmpty || name != nil else { return }
        var entry: [(key: String, value: JSONValue)] = []
        if let name { entry.append(("name", .string(name))) }
        if !rest.isEmpty { entry.append(("parameters", JCalWriter.parameters(rest))) }
        converted.append((pointer, .object(entry)))
    }

    /// A DTSTART-like value as a LocalDateTime in this item's frame (its zone, UTC, floating or dates); nil when it
    /// is in another form (`allowZone`: a UTC value beside a zoned start is converted).
    func key(_ property: Property, allowZone: Bool) -> String? {
        let own = Self.frame(of: property)
        if own == frame { return JSCalendarValues.local(property.value) }
        if allowZone, own.isUTC, let zone = frame.zone, !frame.isDate,
            let wall = JSCalendarValues.wall(ofUTC: property.value, in: zone)
        {
            return JSCalendarValues.local(wall)
        }
        return nil
    }
}
