/// RFC 5545 rules that hold between properties, where producers most often go wrong. Each finding is a warning:
/// the data is kept as read and the later layers decide how to interpret it.
extension CalendarItem {
    func checkRequired(line: Int, _ context: inout DecodeContext) {
        let name = Self.componentName
        if core.uid == nil {
            context.log.error(line, "\(name) has no UID; it is read without one", code: "missing-uid")
        } else if core.uid?.utf8.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) == true {
            context.log.error(
                lineOf("UID", line), "\(name) has an empty UID, which servers refuse; `--repair` gives it one",
                code: "empty-uid")
        }
        if core.stamp == nil { context.log.warning(line, "\(name) has no DTSTAMP", code: "missing-dtstamp") }
        for (label, date) in [("DTSTAMP", core.stamp), ("CREATED", core.created), ("LAST-MODIFIED", core.lastModified)]
        where date.map({ $0.form != .utc }) ?? false {
            context.log.warning(
                lineOf(label, line), "\(label) must be a UTC time (…Z); read as \(formName(date!))",
                code: "stamp-not-utc")
        }
        checkDateForms(&context)
        if let priority = core.priority, !(0...9).contains(priority) {
            context.log.warning(
                lineOf("PRIORITY", line), "PRIORITY \(priority) is outside 0–9", code: "priority-out-of-range")
        }
        // An end, a due time and their durations are checked with or without a start (a todo may have none).
        checkEnd(start: core.start, line: line, &context)
        if let start = core.start { checkAgainstStart(start, line: line, &context) }
    }

    /// A DATE with a TZID, and a DATE without VALUE=DATE, as the component was read.
    private func checkDateForms(_ context: inout DecodeContext) {
        // The first property of each label, found in one pass over the component's properties (read in place).
        guard let properties = provenance.source?.properties else { return }
        let labels = DateFormLabels.all
        var places = [Int?](repeating: nil, count: labels.count)
        properties.withUnsafeBufferPointer { properties in
            for index in properties.indices {
                guard let label = labels.firstIndex(of: properties[index].name), places[label] == nil
                else { continue }
                places[label] = index
            }
        }
        for place in places.prefix(DateFormLabels.single.count) {
            guard let place, properties[place]["TZID"] != nil, properties[place].value.utf8.count == 8 else { continue }
            let property = properties[place], label = property.name
            context.log.warning(
                property.line,
                "\(label) has a TZID but a DATE value; read as midnight in that zone, "
                    + "as python icalendar does (write VALUE=DATE without TZID for an all-day date)",
                code: "date-with-tzid")
        }
        // A DATE needs VALUE=DATE (RFC 5545 §3.3.4); without it strict readers take the value for a broken
        // DATE-TIME. Said once per property name.
        for place in places {
            // A part of 8 bytes needs a value of 8 bytes or a list: most values are spared the split.
            guard let place, properties[place]["VALUE"] == nil, properties[place]["TZID"] == nil,
                properties[place].value.utf8.count == 8 || properties[place].value.utf8.contains(UInt8(ascii: ","))
            else { continue }
            let property = properties[place], label = property.name
            guard
                property.value.split(separator: ",").contains(where: { $0.utf8.count == 8 && $0.allSatisfy(\.isNumber) }
                )
            else { continue }
            context.log.warning(
                property.line, "\(label) has a DATE value without VALUE=DATE (RFC 5545 §3.3.4); read as a date",
                code: "date-without-value-date")
        }
    }

    /// RRULE's UNTIL, EXDATE, RDATE and RECURRENCE-ID against DTSTART's form.
    private func checkAgainstStart(_ start: CalendarDate, line: Int, _ context: inout DecodeContext) {
        for rule in core.recurrenceRules {
            guard let until = rule.until else { continue }
            if until.isDate != start.isDate {
                context.log.warning(
                    lineOf("RRULE", line),
                    "RRULE UNTIL is a \(until.isDate ? "DATE" : "DATE-TIME") "
                        + "but DTSTART is a \(start.isDate ? "DATE" : "DATE-TIME") (RFC 5545 §3.3.10)",
                    code: "until-type-mismatch")
            } else if !start.isDate, start.form != .floating, until.form != .utc {
                context.log.warning(
                    lineOf("RRULE", line),
                    "RRULE UNTIL must be in UTC (…Z) when DTSTART has a "
                        + "time zone (RFC 5545 §3.3.10)", code: "until-not-utc")
            }
        }
        let related: [(String, [CalendarDate])] = [
            ("EXDATE", core.exceptionDates), ("RDATE", core.recurrenceDates.map(\.start)),
            ("RECURRENCE-ID", core.recurrenceID.map { [$0.date] } ?? []),
        ]
        for (label, dates) in related where dates.contains(where: { $0.isDate != start.isDate }) {
            context.log.warning(
                lineOf(label, line),
                "\(label) is a \(start.isDate ? "DATE-TIME" : "DATE") but "
                    + "DTSTART is a \(start.isDate ? "DATE" : "DATE-TIME"); instances may not match",
                code: "date-list-type-mismatch")
        }
    }

    /// The line of the first property with that name in the component as read.
    func lineOf(_ name: String, _ fallback: Int) -> Int {
        provenance.source?.property(name)?.line ?? fallback
    }

    private func formName(_ date: CalendarDate) -> String {
        switch date.form {
        case .date: return "a DATE"
        case .floating: return "a floating time"
        case .utc: return "UTC"
        case .zoned(let tzid): return "a time in \(tzid.name)"
        }
    }
}

extension Event {
    func checkEnd(start: CalendarDate?, line: Int, _ context: inout DecodeContext) {
        if end != nil, duration != nil {
            context.log.error(
                lineOf("DURATION", line),
                "VEVENT has both DTEND and DURATION (RFC 5545 allows one); "
                    + "DTEND is used", code: "end-and-duration")
        }
        if end == nil, let duration, duration.totalSeconds < 0 {
            context.log.warning(
                lineOf("DURATION", line),
                "DURATION \(duration.icsValue) is negative: the event ends before it starts; a calendar app shows it "
                    + "as it likes (or not at all)", code: "negative-duration")
        }
        if let start { checkEndDate(end, label: "DTEND", start: start, line: line, &context) }
    }
}

extension Todo {
    func checkEnd(start: CalendarDate?, line: Int, _ context: inout DecodeContext) {
        if due != nil, duration != nil {
            context.log.error(
                lineOf("DURATION", line), "VTODO has both DUE and DURATION (RFC 5545 allows one); DUE is used",
                code: "due-and-duration")
        }
        if let start { checkEndDate(due, label: "DUE", start: start, line: line, &context) }
        if let percent = percentComplete, !(0...100).contains(percent) {
            context.log.warning(
                lineOf("PERCENT-COMPLETE", line), "PERCENT-COMPLETE \(percent) is outside 0–100",
                code: "percent-out-of-range")
        }
    }
}

extension Journal {
    /// A journal has no end.
    func checkEnd(start: CalendarDate?, line: Int, _ context: inout DecodeContext) {}
}

extension CalendarItem {
    func checkEndDate(
        _ end: CalendarDate?, label: String, start: CalendarDate, line: Int,
        _ context: inout DecodeContext
    ) {
        guard let end else { return }
        if end.isDate != start.isDate {
            context.log.warning(
                lineOf(label, line), "\(label) and DTSTART differ in type (DATE vs DATE-TIME)",
                code: "end-type-mismatch")
        } else if end.form == start.form, end.isWallClockBefore(start) {
            context.log.warning(
                lineOf(label, line), "\(label) \(end.icsValue) is before DTSTART \(start.icsValue)",
                code: "end-before-start")
        }
    }
}

/// The properties `checkDateForms` looks at, made once: the single dates for both checks, then the date lists.
private enum DateFormLabels {
    static let single = ["DTSTART", "DTEND", "DUE", "RECURRENCE-ID"]
    static let all = single + ["EXDATE", "RDATE"]
}
