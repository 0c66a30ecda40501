import Foundation

/// Times strict readers refuse, mended: unknown TZIDs, ends and exceptions in another form than the start, UNTIL in
/// the wrong form, ends before starts, PERIOD values.
extension ICalendar {
    /// TZIDs no VTIMEZONE of the calendar defines and no known zone name matches (IANA, Windows, Outlook display
    /// names): ICSKit reads their times as floating, and servers refuse a TZID without a VTIMEZONE, so the
    /// parameter is left out and the time written floating. Each TZID is reported once, at its first use.
    static func floatingUnknownZones(_ root: inout Component, _ log: inout DiagnosticLog) {
        let defined = Set(root.components.filter { $0.name == "VTIMEZONE" }.compactMap { $0.property("TZID")?.value })
        var reported: Set<String> = []
        func clean(_ component: inout Component) {
            // A property may repeat TZID; the first is the one read, so each is looked at in turn.
            for index in component.properties.indices {
                while let tzid = component.properties[index]["TZID"], !defined.contains(tzid),
                    TimeZoneResolver.ianaName(for: tzid) == nil
                {
                    let line = component.properties[index].line
                    component.properties[index].setParameter("TZID", nil)
                    component.properties[index].line = line
                    if reported.insert(tzid).inserted {
                        log.warning(
                            line,
                            "repaired: TZID \"\(tzid)\" has no VTIMEZONE and names no known zone; left out, the times "
                                + "written floating (as ICSKit reads them)", code: "repair-unknown-tzid")
                    }
                }
            }
            for index in component.components.indices where component.components[index].name != "VTIMEZONE" {
                clean(&component.components[index])
            }
        }
        clean(&root)
    }

    /// DTEND and DUE of another value type than DTSTART (RFC 5545 §3.8.2.2 wants the same; servers refuse a
    /// mix): a date end after a date-time start becomes midnight of that date in the start's form; a date-time end
    /// after a date start becomes the date it falls on (the next one when it is past midnight, unless it is before the
    /// start, which `repairEnd` then swaps with it). A floating end beside
    /// a zoned or UTC start, or the other way round, is read in the other's zone (the length is the wall-clock
    /// difference, as recurring-ical-events reads it): it is written in DTSTART's form at the same wall-clock time,
    /// which every reader reads so (calcurse compares an end in another form with the start's rules and refuses it).
    static func matchEndToStart(_ item: inout Component, _ log: inout DiagnosticLog) {
        guard let startProperty = item.property("DTSTART"),
            case .success(let start) = CalendarDate.parse(startProperty.value, tzid: startProperty["TZID"])
        else { return }
        let startZone = startProperty["TZID"].map { [Parameter("TZID", $0)] } ?? []
        for index in item.properties.indices where ["DTEND", "DUE"].contains(item.properties[index].name) {
            let property = item.properties[index]
            guard case .success(let end) = CalendarDate.parse(property.value, tzid: property["TZID"]) else { continue }
            var replacement: Property
            let message: String
            if end.isDate != start.isDate {
                if start.isDate {
                    let wall = LocalDateTime(end)
                    // An end before the start's day stays on its own day: `repairEnd` then swaps the two, as
                    // ICSKit and recurring-ical-events read them.
                    let day =
                        wall == wall.startOfDayValue || wall < LocalDateTime(start)
                        ? wall.startOfDayValue : wall.startOfDayValue.adding(days: 1)
                    replacement = Property(
                        property.name, parameters: [Parameter("VALUE", "DATE")],
                        value: day.calendarDate(.date).icsValue)
                } else {
                    let midnight = LocalDateTime(end).calendarDate(start.form)
                    replacement = Property(property.name, parameters: startZone, value: midnight.icsValue)
                }
                message =
                    "\(property.name) \(property.value) is not of DTSTART's value type; written as \(replacement.value)"
            } else if !start.isDate, (start.form == .floating) != (end.form == .floating) {
                let wall = LocalDateTime(end).calendarDate(start.form)
                replacement = Property(property.name, parameters: startZone, value: wall.icsValue)
                message =
                    "of \(property.name) \(property.value) and DTSTART \(startProperty.value) one is floating: read as "
                    + "the same wall-clock time in DTSTART's form, written as \(replacement.contentLine)"
            } else {
                continue
            }
            replacement.line = property.line
            item.properties[index] = replacement
            log.warning(property.line, "repaired: " + message, code: "repair-date-form")
        }
    }

    /// EXDATE dates in a series of date-times, which ICSKit and recurring-ical-events read as "no instance on this
    /// day" and which khal and others cannot read: when every instance falls at DTSTART's time of day (an RRULE no
    /// finer than DAILY, without BYHOUR, BYMINUTE or BYSECOND, and no RDATE), each date becomes that day's instance,
    /// in DTSTART's form, which says the same to every reader.
    static func matchExceptionsToStart(_ item: inout Component, _ log: inout DiagnosticLog) {
        let rules = item.properties.filter { $0.name == "RRULE" }
        guard let startProperty = item.property("DTSTART"),
            case .success(let start) = CalendarDate.parse(startProperty.value, tzid: startProperty["TZID"]),
            !start.isDate, item.property("RDATE") == nil, !rules.isEmpty,
            rules.allSatisfy({ property in
                guard case .success(let rule) = RecurrenceRule.parse(property.value) else { return false }
                return [.daily, .weekly, .monthly, .yearly].contains(rule.frequency) && rule.byHour.isEmpty
                    && rule.byMinute.isEmpty && rule.bySecond.isEmpty
            })
        else { return }
        let time = LocalDateTime(start)
        for index in item.properties.indices where item.properties[index].name == "EXDATE" {
            let property = item.properties[index]
            guard property["VALUE"]?.uppercased() == "DATE" else { continue }
            let values = ValueSyntax.split(property.value, on: ",").map { text -> String in
                guard case .success(let date) = CalendarDate.parse(text, tzid: nil), date.isDate else { return text }
                var instance = time
                (instance.year, instance.month, instance.day) = (date.year, date.month, date.day)
                return instance.calendarDate(start.form).icsValue
            }
            var replacement = Property(
                "EXDATE", parameters: startProperty["TZID"].map { [Parameter("TZID", $0)] } ?? [],
                value: values.joined(separator: ","))
            replacement.line = property.line
            item.properties[index] = replacement
            log.warning(
                property.line,
                "repaired: EXDATE dates \(property.value) in a series of date-times; written as the instances on "
                    + "those days, \(replacement.value)", code: "repair-exdate-dates")
        }
    }

    /// An RRULE's UNTIL in another form than DTSTART (RFC 5545 §3.3.10: a date for a date start, UTC for a zoned or
    /// UTC start, local for a floating one), which calcurse and other strict readers refuse, written in DTSTART's form
    /// with the bound ICSKit reads (and recurring-ical-events with it): a date-time against a date start counts by its
    /// day, so it becomes that day; a date against a time start is its midnight, in UTC against a zoned or UTC start
    /// and as written against a floating one; a local date-time against a zoned start is read as UTC, so it gains a
    /// Z, and a UTC one against a floating start is read as written, so it loses it.
    static func matchUntilToStart(_ item: inout Component, _ log: inout DiagnosticLog) {
        guard let startProperty = item.property("DTSTART"),
            case .success(let start) = CalendarDate.parse(startProperty.value, tzid: startProperty["TZID"])
        else { return }
        for index in item.properties.indices where item.properties[index].name == "RRULE" {
            let property = item.properties[index]
            guard case .success(let rule) = RecurrenceRule.parse(property.value), let until = rule.until else {
                continue
            }
            switch (start.form, until.form) {
            case (.date, .date), (.floating, .floating), (.utc, .utc), (.zoned, .utc): continue
            default: break
            }
            // A time of another form is read as written: its wall clock, as UTC where UTC is wanted.
            let wall = LocalDateTime(until)
            let bound = RecurrenceRule.until(last: wall, instant: wall.wallSeconds, startForm: start.form)
            let parts = ValueSyntax.split(property.value, on: ";").map { part -> String in
                part.uppercased().hasPrefix("UNTIL=") ? "UNTIL=" + bound.icsValue : part
            }
            item.properties[index].value = parts.joined(separator: ";")
            log.warning(
                property.line,
                "repaired: RRULE UNTIL \(until.icsValue) is not in the form of DTSTART \(start.icsValue); written "
                    + "as \(bound.icsValue), the same bound", code: "repair-until-form")
        }
    }

    /// A VEVENT's DTEND not after its DTSTART (in the same form): one before it is swapped with it (readers,
    /// ICSKit and recurring-ical-events among them, start such an event at the earlier time), or dropped in a
    /// recurring event, whose RDATEs, EXDATEs and overrides are written against its start; one equal to it
    /// becomes a day after a date start, and is dropped after a date-time (the event is an instant).
    static func repairEnd(_ item: inout Component, _ log: inout DiagnosticLog) {
        guard item.name == "VEVENT", let startIndex = item.properties.firstIndex(where: { $0.name == "DTSTART" }),
            let endIndex = item.properties.firstIndex(where: { $0.name == "DTEND" }),
            case .success(let start) = CalendarDate.parse(
                item.properties[startIndex].value, tzid: item.properties[startIndex]["TZID"]),
            case .success(let end) = CalendarDate.parse(
                item.properties[endIndex].value, tzid: item.properties[endIndex]["TZID"]),
            start.form == end.form, LocalDateTime(end) <= LocalDateTime(start)
        else { return }
        let line = item.properties[endIndex].line
        let recurs = item.properties.contains { ["RRULE", "RDATE"].contains($0.name) }
        if LocalDateTime(end) < LocalDateTime(start), recurs {
            // Swapping would move the series' start, which its RDATEs, EXDATEs and overrides' RECURRENCE-IDs are
            // written against: they would no longer meet its instances.
            item.properties.remove(at: endIndex)
            log.warning(
                line,
                "repaired: DTEND \(end.icsValue) is before DTSTART \(start.icsValue) of a recurring event; dropped "
                    + "(moving the start would part the series from its RDATEs, EXDATEs and overrides)",
                code: "repair-end-before-start-dropped")
        } else if LocalDateTime(end) < LocalDateTime(start) {
            let (startValue, endValue) = (item.properties[startIndex].value, item.properties[endIndex].value)
            item.properties[startIndex].value = endValue
            item.properties[endIndex].value = startValue
            log.warning(
                line,
                "repaired: DTEND \(end.icsValue) is before DTSTART \(start.icsValue); the two swapped, as readers read it",
                code: "repair-end-before-start-swapped")
        } else if start.isDate {
            let next = LocalDateTime(start).adding(days: 1).calendarDate(.date)
            item.properties[endIndex] = Property(
                "DTEND", parameters: [Parameter("VALUE", "DATE")], value: next.icsValue)
            log.warning(
                line, "repaired: DTEND \(end.icsValue) is not after DTSTART; set to \(next.icsValue)",
                code: "repair-end-not-after-start")
        } else {
            item.properties.remove(at: endIndex)
            log.warning(
                line, "repaired: DTEND \(end.icsValue) equals DTSTART; dropped (the event is an instant)",
                code: "repair-end-equals-start")
        }
    }

    /// RDATE;VALUE=PERIOD as DATE-TIME values; a period whose length differs from the series' gets an override
    /// (RECURRENCE-ID at its start) that carries it.
    static func splittingPeriods(_ item: Component, _ log: inout DiagnosticLog) -> [Component] {
        var master = item
        var overrides: [Component] = []
        let seriesLength = Self.length(of: item)
        for index in master.properties.indices.reversed() {
            let property = master.properties[index]
            guard property.name == "RDATE", property["VALUE"]?.uppercased() == "PERIOD" else { continue }
            let tzid = property["TZID"]
            var starts: [String] = []
            for text in ValueSyntax.split(property.value, on: ",") {
                guard case .success(let period) = Period.parse(text, tzid: tzid) else { return [item] }
                let seconds: Int
                switch period.end {
                case .duration(let duration): seconds = duration.totalSeconds
                case .date(let end):
                    seconds = Int(LocalDateTime(end).wallSeconds - LocalDateTime(period.start).wallSeconds)
                }
                starts.append(period.start.icsValue)
                guard seconds != seriesLength, let uid = item.property("UID")?.value else { continue }
                var override = Component(item.name)
                override.properties = item.properties.filter {
                    !["RRULE", "RDATE", "EXDATE", "EXRULE", "DTSTART", "DTEND", "DURATION", "RECURRENCE-ID"]
                        .contains($0.name)
                }
                let zone = tzid.map { [Parameter("TZID", $0)] } ?? []
                override.properties.removeAll { $0.name == "UID" }
                override.properties.insert(Property("UID", value: uid), at: 0)
                override.properties += [
                    Property("RECURRENCE-ID", parameters: zone, value: period.start.icsValue),
                    Property("DTSTART", parameters: zone, value: period.start.icsValue),
                    Property("DURATION", value: CalendarDuration(exactSeconds: seconds).icsValue),
                ]
                override.components = item.components
                overrides.append(override)
            }
            var replacement = property
            replacement.parameters = property.parameters.filter { $0.name != "VALUE" }
            replacement.value = starts.joined(separator: ",")
            master.properties[index] = replacement
            log.warning(
                property.line,
                "repaired: RDATE PERIOD values, which many readers cannot read, written as DATE-TIME"
                    + (overrides.isEmpty ? "" : ", with \(overrides.count) override(s) keeping their length"),
                code: "repair-rdate-period")
        }
        return [master] + overrides
    }

    /// The series' length in seconds from DURATION or `end` (DTEND, a todo's DUE; same form), nil when neither says.
    static func length(of item: Component, end: String = "DTEND") -> Int? {
        if let duration = item.property("DURATION"), case .success(let value) = CalendarDuration.parse(duration.value) {
            return value.totalSeconds
        }
        guard let startProperty = item.property("DTSTART"), let endProperty = item.property(end),
            case .success(let start) = CalendarDate.parse(startProperty.value, tzid: startProperty["TZID"]),
            case .success(let end) = CalendarDate.parse(endProperty.value, tzid: endProperty["TZID"])
        else { return nil }
        return Int(LocalDateTime(end).wallSeconds - LocalDateTime(start).wallSeconds)
    }

    /// Several VCALENDARs of one file as one (strict readers and servers take one per file): the first one's own
    /// properties, every component, each VTIMEZONE once. Nil when two of them hold the same item (UID and
    /// RECURRENCE-ID): an iTIP stream of updates, which is not one calendar.
    package static func combiningForPeers(_ calendars: [ICalendar]) -> ICalendar? {
        guard calendars.count > 1 else { return calendars.first }
        // The headers of the first calendar the file wrote (items outside any VCALENDAR have none).
        var combined = calendars.first { !$0.isImplicit } ?? calendars[0]
        combined.isImplicit = false
        var items: Set<String> = []
        var zones: Set<String> = []
        combined.components = []
        for calendar in calendars {
            for component in calendar.components {
                if case .timeZone(let zone) = component {
                    if let tzid = zone.tzid, !zones.insert(tzid).inserted { continue }
                } else if let uid = component.identity.uid {
                    guard items.insert(uid + "\u{1F}" + component.identity.recurrenceID).inserted else { return nil }
                }
                combined.components.append(component)
            }
        }
        return combined
    }
}
