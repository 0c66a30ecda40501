import Foundation

// The rules of one app each. Sources: Microsoft's [MS-OXCICAL] (how Exchange and Outlook map iCalendar) and
// [MS-STANOICAL] (where Outlook departs from RFC 5545; variation IDs such as V0193 below); for Google, its import
// behaviour as its users report it in the issue trackers of vdirsyncer, ical4j, Home Assistant and Nextcloud.
// docs/APPS.md lists each rule with its source and what `--for` does about it.

extension AppRule {
    /// Outlook imports events only ([MS-STANOICAL] V0134: no VTODO), with one recurrence pattern each.
    static func checkOutlook(root: Component, items: [RuleItem], _ log: inout DiagnosticLog) {
        for item in items where item.name == "VEVENT" {
            let rules = item.values("RRULE"), dates = item.values("RDATE")
            // [MS-OXCICAL] 2.1.3.2.2: a recurring appointment is a pattern (RRULE) with exceptions; RDATEs alone
            // make no pattern, and the appointment is not imported.
            if rules.isEmpty, let first = dates.first, item.component.property("RECURRENCE-ID") == nil {
                log.error(
                    first.line, "Outlook ignores this event: RDATE without RRULE", code: "outlook-rdate-without-rrule")
            }
            // [MS-STANOICAL] C0021: Outlook neither exports nor imports RDATE values of type PERIOD.
            for date in dates where date["VALUE"]?.uppercased() == "PERIOD" {
                log.warning(
                    date.line, "Outlook ignores RDATE;VALUE=PERIOD: these instances are lost",
                    code: "outlook-rdate-period")
            }
            // [MS-OXCICAL] 2.1.3.1.1.20.19: RRULE, 0 or 1 instance.
            if rules.count > 1 {
                log.error(
                    rules[1].line,
                    "Outlook takes one RRULE per event: the instances of the other \(rules.count - 1) "
                        + "are lost", code: "outlook-several-rrules")
            }
            for rule in rules {
                if let problem = patternProblem(rule.value) {
                    log.error(
                        rule.line,
                        "Outlook has no recurrence pattern for RRULE \(rule.value) (\(problem)); it shows "
                            + "other instances or none", code: "outlook-rule-pattern")
                }
            }
            checkOutlookAlarms(item.component, &log)
        }
        checkOutlookZones(root: root, items: items, &log)
    }

    /// [MS-OXCICAL], Component: VALARM: one reminder, placed by its TRIGGER; whatever its ACTION, it is a reminder
    /// in Outlook.
    private static func checkOutlookAlarms(_ event: Component, _ log: inout DiagnosticLog) {
        for alarm in event.components where alarm.name == "VALARM" {
            if alarm.property("TRIGGER") == nil {
                log.warning(
                    alarm.line, "Outlook ignores a VALARM without TRIGGER", code: "outlook-alarm-without-trigger")
            } else if let action = alarm.property("ACTION")?.value.uppercased(), action != "DISPLAY" {
                log.warning(
                    alarm.line, "Outlook shows ACTION:\(action) as a plain reminder", code: "outlook-alarm-action")
            }
        }
    }

    /// Outlook's VTIMEZONEs: each observance needs a TZOFFSETTO, and ([MS-OXCICAL] 2.1.3.1.1.19) each TZID a
    /// VTIMEZONE, by which Outlook places its times (Windows names above all, which only their VTIMEZONE explains).
    private static func checkOutlookZones(root: Component, items: [RuleItem], _ log: inout DiagnosticLog) {
        for zone in root.components where zone.name == "VTIMEZONE" {
            for part in zone.components where part.property("TZOFFSETTO") == nil {
                log.error(
                    part.line,
                    "Outlook fails the import: \(part.name) of VTIMEZONE \(zone.property("TZID")?.value ?? "") "
                        + "has no TZOFFSETTO", code: "outlook-observance-offset")
            }
        }
        let defined = Set(root.components.filter { $0.name == "VTIMEZONE" }.compactMap { $0.property("TZID")?.value })
        var reported: Set<String> = []
        for item in items {
            item.component.forEach { nested in
                for property in nested.properties {
                    guard let tzid = property["TZID"], !defined.contains(tzid), reported.insert(tzid).inserted
                    else { continue }
                    log.error(
                        property.line,
                        "Outlook needs a VTIMEZONE for TZID \"\(tzid)\"; without one it places these "
                            + "times in its own zone", code: "outlook-tzid-without-vtimezone")
                }
            }
        }
    }

    /// Why a rule fits none of Outlook's recurrence patterns (daily, weekly on days, monthly on a day or the nth
    /// weekday, yearly alike: [MS-OXOCAL] 2.2.1.44.1 RecurrencePattern), or nil.
    static func patternProblem(_ value: String) -> String? {
        guard case .success(let rule) = RecurrenceRule.parse(value) else { return "it cannot be read" }
        if rule.byMonthDay.count > 1 { return "several BYMONTHDAY values" }
        if rule.byHour.count > 1 || rule.byMinute.count > 1 || !rule.bySecond.isEmpty {
            return "several times of day"
        }
        if [.hourly, .minutely, .secondly].contains(rule.frequency) { return "FREQ=\(rule.frequency.rawValue)" }
        if !rule.byYearDay.isEmpty || !rule.byWeekNo.isEmpty { return "BYYEARDAY or BYWEEKNO" }
        if !rule.bySetPos.isEmpty {
            let nth = rule.bySetPos.count == 1 && [-1, 1, 2, 3, 4].contains(rule.bySetPos[0])
            if !nth || rule.byDay.isEmpty { return "BYSETPOS other than the first to fourth or the last weekday" }
        }
        return nil
    }

    /// Google Calendar's import.
    static func checkGoogle(root: Component, items: [RuleItem], _ log: inout DiagnosticLog) {
        let isRequest = root.property("METHOD")?.value.uppercased() == "REQUEST"
        var seen: [String: Int] = [:]
        for item in items {
            let component = item.component
            // RFC 5545 §3.6.1 requires DTSTAMP; Google's importer fails the file without it (FuzzyGrim/Yamtrack#669,
            // spatie/calendar-links#96).
            if component.property("DTSTAMP") == nil {
                log.error(
                    item.line, "Google fails the import: \(item.name) has no DTSTAMP", code: "google-missing-dtstamp")
            }
            // ical4j/ical4j#271: "0/0 appointments imported" for a REQUEST whose event has no end.
            if isRequest, item.name == "VEVENT", component.property("DTEND") == nil,
                component.property("DURATION") == nil
            {
                log.error(
                    item.line, "Google drops this event: no DTEND or DURATION in a METHOD:REQUEST file",
                    code: "google-request-without-end")
            }
            if let uid = component.property("UID")?.value {
                let key = uid + "\u{0}" + (component.property("RECURRENCE-ID")?.value ?? "")
                if let first = seen[key] {
                    log.error(
                        item.line, "Google refuses a second item with UID \(uid) (first at line \(first))",
                        code: "google-duplicate-uid")
                } else {
                    seen[key] = item.line
                }
            }
            checkGoogleSeries(item, &log)
            // Gowee/lccal-worker#9, SunsetYe66/ClasstableToIcal#1 (Google's support forum: imports drop every
            // reminder), sportstimes/f1#848 (subscriptions too).
            if component.components.contains(where: { $0.name == "VALARM" }) {
                log.warning(
                    item.line, "Google ignores the alarms of imported events; it sets its own reminders",
                    code: "google-alarms-ignored")
            }
        }
    }

    private static func checkGoogleSeries(_ item: RuleItem, _ log: inout DiagnosticLog) {
        let component = item.component
        if let start = component.property("DTSTART"), start["TZID"] == nil, start.value.count > 8,
            !start.value.hasSuffix("Z")
        {
            log.warning(
                start.line, "Google shows the floating time \(start.value) as UTC", code: "google-floating-time")
        }
        let untils = component.properties(named: "RRULE").compactMap { try? RecurrenceRule.parse($0.value).get() }
            .compactMap(\.until)
        guard let until = untils.max(by: { $0.isWallClockBefore($1) }), untils.count == 1 else { return }
        for date in component.properties(named: "RDATE") {
            let late = ValueSyntax.split(date.value, on: ",").filter { text in
                guard
                    let value = try? CalendarDate.parse(String(text.prefix(while: { $0 != "/" })), tzid: date["TZID"])
                        .get()
                else { return false }
                return value.form == until.form ? until.isWallClockBefore(value) : until < value
            }
            guard !late.isEmpty else { continue }
            log.warning(
                date.line,
                "Google hides RDATE \(late.joined(separator: ",")) after the RRULE's UNTIL \(until.icsValue)",
                code: "google-rdate-after-until")
        }
    }
}
