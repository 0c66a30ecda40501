import Foundation

/// Repairs of one item's texts and series that keep what every reader makes of it, for the readers that refuse
/// what RFC 5545 calls invalid or undefined (calcurse among them): the rest of `repairedForPeers`.
extension ICalendar {
    /// Properties whose value is one TEXT (RFC 5545 §3.3.11), in which `,` and `;` must be escaped; list-valued
    /// ones (CATEGORIES, RESOURCES), where a comma separates, are not among them.
    private static let singleTexts: Set<String> = ["SUMMARY", "DESCRIPTION", "LOCATION", "COMMENT", "CONTACT"]

    /// TEXT values written as RFC 5545 §3.3.11 wants them, with the text ICSKit reads from them: a bare `,` or `;`
    /// gets its backslash, and an escape RFC 5545 does not define (`\"`, `\t`, `\:`) is written as the character
    /// after the backslash. Nested components (alarms) too. Each property changed is reported.
    static func escapingTexts(_ component: inout Component, _ log: inout DiagnosticLog) {
        for index in component.properties.indices where singleTexts.contains(component.properties[index].name) {
            let property = component.properties[index]
            guard let flaw = escapingFlaw(property.value) else { continue }
            component.properties[index].value = TextEscaping.escape(TextEscaping.unescape(property.value))
            log.warning(
                property.line,
                "repaired: \(property.name) holds \(flaw), which RFC 5545 text does not allow; written escaped, the "
                    + "same text", code: "repair-text-escape")
        }
        for index in component.components.indices { escapingTexts(&component.components[index], &log) }
    }

    /// What in a raw TEXT value is not escaped as RFC 5545 §3.3.11 wants (`an unescaped ","`, `the escape \"`),
    /// nil when nothing.
    static func escapingFlaw(_ raw: String) -> String? {
        var bytes = raw.utf8.makeIterator()
        while let byte = bytes.next() {
            switch byte {
            case UInt8(ascii: ","), UInt8(ascii: ";"):
                return "an unescaped \"\(Character(Unicode.Scalar(byte)))\""
            case UInt8(ascii: "\\"):
                guard let next = bytes.next() else { return "a backslash at its end" }
                guard Array("\\;,nN".utf8).contains(next) else {
                    return "the escape \"\\\(String(decoding: [next], as: UTF8.self))\""
                }
            default:
                continue
            }
        }
        return nil
    }

    /// A SUMMARY is one line, a short title (RFC 5545 §3.8.1.12), and calcurse refuses one with a line break: line
    /// breaks inside it are written as one space, those at its ends left out. An event or todo without a SUMMARY
    /// gets an empty one, which says the same (calcurse 4.7 refuses such a todo and crashes on such an event).
    static func oneLineSummary(_ item: inout Component, _ log: inout DiagnosticLog) {
        guard let index = item.properties.firstIndex(where: { $0.name == "SUMMARY" }) else {
            guard ["VEVENT", "VTODO"].contains(item.name) else { return }
            item.properties.append(Property("SUMMARY", value: ""))
            log.warning(
                item.line, "repaired: \(item.name) had no SUMMARY; added an empty one", code: "repair-added-summary")
            return
        }
        let property = item.properties[index]
        let text = TextEscaping.unescape(property.value)
        guard text.contains(where: \.isNewline) else { return }
        let line = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: " ")
        item.properties[index].value = TextEscaping.escape(line)
        log.warning(
            property.line,
            "repaired: SUMMARY \"\(property.value.prefix(60))\" holds line breaks; a title is one line, written as "
                + "\"\(line.prefix(60))\"", code: "repair-summary-line-break")
    }

    /// A DTSTART that is no instance of its RRULE: RFC 5545 §3.8.5.3 leaves such a set undefined, calcurse refuses
    /// it, and ICSKit, recurring-ical-events and python-dateutil read DTSTART as one more instance. The series is
    /// written starting at the rule's first instance (DTEND or DUE moved with it) with the old start as an RDATE:
    /// the same instances for every reader. Only where the rule gives the same instances from the new start (the
    /// first 500 compared), one RRULE and no EXRULE, and an end in DTSTART's form. A bounded rule without an
    /// instance from DTSTART on is left out: the item is DTSTART alone either way.
    static func synchronizingStart(_ item: inout Component, _ log: inout DiagnosticLog) {
        let rules = item.properties.filter { $0.name == "RRULE" }
        guard rules.count == 1, item.property("EXRULE") == nil, item.property("RECURRENCE-ID") == nil,
            let startIndex = item.properties.firstIndex(where: { $0.name == "DTSTART" }),
            case .success(let rule) = RecurrenceRule.parse(rules[0].value),
            case .success(let start) = CalendarDate.parse(
                item.properties[startIndex].value, tzid: item.properties[startIndex]["TZID"]),
            case .success(let before) = rule.instances(from: start, limit: 500)
        else { return }
        if before.isEmpty, rule.count != nil || rule.until != nil {
            item.properties.removeAll { $0.name == "RRULE" }
            log.warning(
                rules[0].line,
                "repaired: RRULE \(rules[0].value) has no instance from DTSTART \(start.icsValue) on; left out, the "
                    + "item is its DTSTART alone, as before", code: "repair-rrule-without-instance")
            return
        }
        guard let first = before.first, first != start,
            case .success(let after) = rule.instances(from: first, limit: 500), after == before
        else { return }
        let shift = LocalDateTime(first).wallSeconds - LocalDateTime(start).wallSeconds
        var moved = item.properties
        for index in moved.indices where ["DTEND", "DUE"].contains(moved[index].name) {
            guard case .success(let end) = CalendarDate.parse(moved[index].value, tzid: moved[index]["TZID"]),
                end.form == start.form
            else { return }
            moved[index].value = LocalDateTime(end).adding(seconds: shift).calendarDate(end.form).icsValue
        }
        let startProperty = moved[startIndex]
        moved[startIndex].value = first.icsValue
        let rdate = Property("RDATE", parameters: startProperty.parameters, value: start.icsValue)
        moved.insert(rdate, at: startIndex + 1)
        item.properties = moved
        log.warning(
            startProperty.line,
            "repaired: DTSTART \(start.icsValue) is no instance of its RRULE (\(rules[0].value)); the series starts "
                + "at the rule's first instance, \(first.icsValue), and keeps \(start.icsValue) as an RDATE: the "
                + "same instances", code: "repair-start-not-instance")
    }

    /// A DURATION in hours, minutes or seconds after a DATE start (`PT86400S`, `PT1H`), which RFC 5545 §3.8.2.5
    /// wants in days or weeks and calcurse, khal and Radicale refuse: written in days, the same length when it is
    /// whole days, else the whole days ICSKit reads (at least one: an all-day item takes its day).
    static func durationInDays(_ item: inout Component, _ log: inout DiagnosticLog) {
        guard let start = item.property("DTSTART"),
            case .success(let date) = CalendarDate.parse(start.value, tzid: nil),
            date.isDate, let index = item.properties.firstIndex(where: { $0.name == "DURATION" }),
            case .success(let duration) = CalendarDuration.parse(item.properties[index].value),
            duration.hours != 0 || duration.minutes != 0 || duration.seconds != 0
        else { return }
        let whole = duration.totalSeconds % 86_400 == 0
        guard whole || !duration.isNegative else { return }
        let days = CalendarDuration(
            isNegative: duration.isNegative, days: max(whole ? 0 : 1, abs(duration.totalSeconds) / 86_400))
        let old = item.properties[index].value
        item.properties[index].value = days.icsValue
        log.warning(
            item.properties[index].line,
            "repaired: DURATION \(old) after a date DTSTART; written in days, \(days.icsValue), "
                + (whole ? "the same length" : "the whole days it is read as (a date start has no time of day)"),
            code: "repair-date-duration")
    }

    /// An item that does not repeat (no RRULE; RDATEs, if any, only at DTSTART, as Thunderbird's faked masters
    /// write them) whose EXDATE excludes its DTSTART has no instance in ICSKit or recurring-ical-events, and
    /// calcurse refuses an EXDATE without a rule: written as a rule of that one instance (`FREQ=DAILY;COUNT=1`)
    /// with the EXDATE, the same (no) instances in a form every reader takes.
    static func excludedStart(_ item: inout Component, _ log: inout DiagnosticLog) {
        guard item.property("RRULE") == nil, item.property("EXRULE") == nil,
            let start = item.property("DTSTART"), let startKey = SeriesRewrite.key(start.value, tzid: start["TZID"])
        else { return }
        func keys(_ property: Property) -> [Int64?] {
            ValueSyntax.split(property.value, on: ",").map { SeriesRewrite.key($0, tzid: property["TZID"]) }
        }
        let dates = item.properties.filter { $0.name == "RDATE" }
        guard dates.allSatisfy({ keys($0).allSatisfy { $0 == startKey } }),
            let exclusion = item.properties.first(where: { $0.name == "EXDATE" && keys($0).contains(startKey) })
        else { return }
        item.properties.removeAll { $0.name == "RDATE" }
        var rule = Property("RRULE", value: "FREQ=DAILY;COUNT=1")
        rule.line = exclusion.line
        item.properties.append(rule)
        log.warning(
            exclusion.line,
            "repaired: EXDATE \(exclusion.value) excludes the DTSTART of an item that does not repeat, so no reader "
                + "shows it; written with RRULE:FREQ=DAILY;COUNT=1"
                + (dates.isEmpty ? "" : " in place of RDATEs at DTSTART") + ", the same (no) instances",
            code: "repair-excluded-start")
    }

    /// EXDATEs of an item that does not repeat (no RRULE, no RDATE) that exclude nothing: none falls on the day
    /// of DTSTART or next to it (so no zone can make it DTSTART). Left out with a warning; calcurse refuses them.
    static func droppingIdleExceptions(_ item: inout Component, _ log: inout DiagnosticLog) {
        guard item.property("RRULE") == nil, item.property("RDATE") == nil, item.property("EXRULE") == nil,
            let startProperty = item.property("DTSTART"),
            case .success(let start) = CalendarDate.parse(startProperty.value, tzid: startProperty["TZID"])
        else { return }
        let day = LocalDateTime(start).dayNumber
        item.properties.removeAll { property in
            guard property.name == "EXDATE" else { return false }
            let near = ValueSyntax.split(property.value, on: ",").contains { text in
                guard case .success(let date) = CalendarDate.parse(text, tzid: property["TZID"]) else { return true }
                return abs(LocalDateTime(date).dayNumber - day) <= 1
            }
            guard !near else { return false }
            log.warning(
                property.line,
                "repaired: EXDATE \(property.value) on an item that does not repeat excludes nothing; left out",
                code: "repair-exdate-without-rule")
            return true
        }
    }

    /// DTSTAMP, CREATED, LAST-MODIFIED and COMPLETED as UTC times, as RFC 5545 §3.8.2.1 and §3.8.7 ask: strict readers
    /// refuse `DTSTAMP;VALUE=DATE`. A zoned time becomes its instant, a date its midnight and a floating time the
    /// same clock time in UTC (as ICSKit reads them when it orders versions).
    static func utcStamps(_ item: inout Component, _ log: inout DiagnosticLog) {
        for index in item.properties.indices
        where ["DTSTAMP", "CREATED", "LAST-MODIFIED", "COMPLETED"].contains(item.properties[index].name) {
            let property = item.properties[index]
            guard case .success(let date) = CalendarDate.parse(property.value, tzid: property["TZID"]),
                date.form != .utc
            else { continue }
            let instant = date.date(in: .utc) ?? Date(timeIntervalSince1970: TimeInterval(date.wall.wallSeconds))
            let utc = CalendarDate(instant, in: .utc).icsValue
            item.properties[index].parameters.removeAll { ["VALUE", "TZID"].contains($0.name) }
            item.properties[index].value = utc
            log.warning(
                property.line, "repaired: \(property.name) \(property.value) is no UTC time; written as \(utc)",
                code: "repair-stamp-utc")
        }
    }
}
