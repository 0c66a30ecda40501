import Foundation

extension ICalendar {
    /// The calendar as `app` shows it as ICSKit does (`convert --for`, `export --for`): first what `--repair` does
    /// and a tzdata VTIMEZONE for every TZID, then each rule of `AppRule` the calendar breaks removed, every change
    /// reported as a warning. Instances never change: floating times are given `zone` (the export's zone), which
    /// is where ICSKit shows them.
    package func adapted(for app: TargetApp, zone: CalendarZone, file: String?) -> (
        calendar: ICalendar, diagnostics: [Diagnostic]
    ) {
        let repaired = repairedForPeers(file: file)
        let normalized = repaired.calendar.normalizingTimeZones(file: file)
        var root = normalized.calendar.encoded()
        var rewrite = SeriesRewrite(
            zones: root.components.filter { $0.name == "VTIMEZONE" }, log: DiagnosticLog(file: file))
        AppAdaptation.publishing(&root, app: app, &rewrite.log)
        AppAdaptation.mirroringFeedProperties(&root, &rewrite.log)
        if app == .google { AppAdaptation.zoningFloatingTimes(&root, zone: zone, &rewrite.log) }
        var children: [Component] = []
        for group in AppAdaptation.series(root.components) {
            guard let master = group.first, ItemKind(rawValue: master.name) != nil,
                master.property("RECURRENCE-ID") == nil
            else {
                children += group
                continue
            }
            var items = Array(group)
            let own = root.properties.filter { $0.name == "X-WR-TIMEZONE" || $0.name == "VERSION" }
            for index in items.indices.dropFirst() {
                AppAdaptation.matchingRecurrenceID(&items[index], to: master, rewrite, calendar: own, &rewrite.log)
            }
            let overrides = Array(items.dropFirst())
            switch app {
            case .outlook where master.name == "VEVENT":
                items =
                    rewrite.rdatesForOutlook(items[0], overrides: overrides)
                    ?? rewrite.rulesForOutlook(items[0], overrides: overrides) ?? items
            case .google:
                items = rewrite.lateRDatesForGoogle(items[0], overrides: overrides) ?? items
            default: break
            }
            for index in items.indices {
                AppAdaptation.alarms(&items[index], app: app, &rewrite.log)
                if app == .google { AppAdaptation.endingRequest(&items[index], root: root, &rewrite.log) }
            }
            children += items
        }
        root.components = ICalendar.completingZones(children)
        let reread = ICS.read(ICS.write(components: [root]), file: file)
        let diagnostics = repaired.diagnostics + normalized.diagnostics + rewrite.log.sortedByLine
        return (reread.calendars.first ?? self, diagnostics)
    }
}

/// The changes `adapted(for:zone:file:)` makes, one a rule.
enum AppAdaptation {
    /// The components with their series together (master first, then its overrides), other components alone,
    /// in the order their first member stands.
    static func series(_ components: [Component]) -> [[Component]] {
        var groups: [[Component]] = []
        var place: [String: Int] = [:]
        for component in components {
            guard ItemKind(rawValue: component.name) != nil, let uid = component.property("UID")?.value else {
                groups.append([component])
                continue
            }
            let key = component.name + "\u{0}" + uid
            if let index = place[key] {
                if component.property("RECURRENCE-ID") == nil {
                    groups[index].insert(component, at: 0)
                } else {
                    groups[index].append(component)
                }
            } else {
                place[key] = groups.count
                groups.append([component])
            }
        }
        return groups
    }

    /// METHOD:PUBLISH for a file to import, unless it is an invitation with its ORGANIZER and ATTENDEEs.
    static func publishing(_ root: inout Component, app: TargetApp, _ log: inout DiagnosticLog) {
        guard let index = root.properties.firstIndex(where: { $0.name == "METHOD" }) else { return }
        let method = root.properties[index].value.uppercased()
        let items = root.components.filter { ItemKind(rawValue: $0.name) != nil }
        guard method != "PUBLISH", !AppRule.isInvitation(method: method, items) else { return }
        root.properties[index].value = "PUBLISH"
        log.warning(
            root.properties[index].line,
            "for \(app.name): METHOD:\(method) written as METHOD:PUBLISH, a calendar to import",
            code: "for-app-method")
    }

    /// NAME beside X-WR-CALNAME and REFRESH-INTERVAL beside X-PUBLISHED-TTL, whichever of each pair is missing.
    static func mirroringFeedProperties(_ root: inout Component, _ log: inout DiagnosticLog) {
        let pairs: [(String, String, [Parameter])] = [
            ("NAME", "X-WR-CALNAME", []), ("X-WR-CALNAME", "NAME", []),
            ("REFRESH-INTERVAL", "X-PUBLISHED-TTL", []),
            ("X-PUBLISHED-TTL", "REFRESH-INTERVAL", [Parameter("VALUE", "DURATION")]),
        ]
        for (present, missing, parameters) in pairs {
            guard let property = root.property(present), root.property(missing) == nil else { continue }
            root.properties.append(Property(missing, parameters: parameters, value: property.value))
            log.warning(
                property.line, "for every app: \(missing) added beside \(present), the same value",
                code: "for-app-feed-properties")
        }
    }

    /// Floating date-times given `zone` (Google shows them as UTC): a TZID on each, UNTIL in UTC.
    static func zoningFloatingTimes(_ root: inout Component, zone: CalendarZone, _ log: inout DiagnosticLog) {
        let names: Set<String> = ["DTSTART", "DTEND", "DUE", "RECURRENCE-ID", "EXDATE", "RDATE"]
        for index in root.components.indices where ItemKind(rawValue: root.components[index].name) != nil {
            var item = root.components[index]
            guard let start = item.property("DTSTART"), start["TZID"] == nil, start.value.count == 15 else {
                continue
            }
            for position in item.properties.indices {
                let property = item.properties[position]
                if names.contains(property.name), property["TZID"] == nil,
                    (property["VALUE"] ?? "DATE-TIME").uppercased() == "DATE-TIME",
                    ValueSyntax.split(property.value, on: ",").allSatisfy({ $0.count == 15 })
                {
                    item.properties[position].setParameter("TZID", zone.identifier)
                } else if property.name == "RRULE", let rule = try? RecurrenceRule.parse(property.value).get(),
                    let until = rule.until, until.form == .floating,
                    let instant = CalendarDate(wall: until.wall, form: .zoned(tzid: TimeZoneID(zone))).date()
                {
                    let bound = RecurrenceRule.until(
                        last: until.wall, instant: Int64(instant.timeIntervalSince1970.rounded(.down)),
                        startForm: .zoned(tzid: TimeZoneID(zone)))
                    item.properties[position].value = SeriesRewrite.replacing(
                        "UNTIL", in: property.value, with: "UNTIL=" + bound.icsValue)
                }
            }
            root.components[index] = item
            log.warning(
                start.line,
                "for Google: the floating times of \(item.property("UID")?.value ?? item.name) given the zone "
                    + "\(zone.identifier), where ICSKit shows them (Google would show them as UTC)",
                code: "for-google-floating-time")
        }
    }

    /// A RECURRENCE-ID in the form of its master's DTSTART, naming the instance ICSKit has it replace; one that
    /// names no instance (readers show it beside the series) written as the event of its own it is shown as.
    static func matchingRecurrenceID(
        _ item: inout Component, to master: Component, _ rewrite: SeriesRewrite, calendar: [Property],
        _ log: inout DiagnosticLog
    ) {
        guard let index = item.properties.firstIndex(where: { $0.name == "RECURRENCE-ID" }),
            let start = master.property("DTSTART")
        else { return }
        let id = item.properties[index]
        guard !AppRule.hasStartForm(id, start) else { return }
        guard let replaced = rewrite.replacedInstance(master: master, override: item, calendar: calendar) else {
            let uid = "\(item.property("UID")?.value ?? "")-\(id.value)"
            item.properties.removeAll { $0.name == "RECURRENCE-ID" || $0.name == "UID" }
            item.properties.insert(Property("UID", value: uid), at: 0)
            log.warning(
                id.line,
                "for every app: RECURRENCE-ID \(id.value) names no instance of the series; written as the "
                    + "event of its own it is shown as, UID \(uid)", code: "for-app-recurrence-id-form")
            return
        }
        guard let text = rewrite.startText(replaced, start) else { return }
        item.properties[index] = Property("RECURRENCE-ID", parameters: start.parameters, value: text)
        log.warning(
            id.line, "for every app: RECURRENCE-ID \(id.value) written as \(text), in the form of DTSTART",
            code: "for-app-recurrence-id-form")
    }

    /// Alarms as the app uses them: Outlook's without TRIGGER left out, other ACTIONs as the display reminder
    /// Outlook shows; Google's all left out (it ignores them and sets its own).
    static func alarms(_ item: inout Component, app: TargetApp, _ log: inout DiagnosticLog) {
        // Every app: an alarm without TRIGGER has nothing to fire at, one without ACTION is shown (RFC 5545 §3.6.6
        // requires both).
        item.components = item.components.compactMap { alarm in
            guard alarm.name == "VALARM" else { return alarm }
            guard alarm.property("TRIGGER") != nil else {
                log.warning(alarm.line, "for \(app.name): a VALARM without TRIGGER left out", code: "for-app-alarm")
                return nil
            }
            guard alarm.property("ACTION") == nil else { return alarm }
            var shown = alarm
            shown.properties.insert(Property("ACTION", value: "DISPLAY"), at: 0)
            if shown.property("DESCRIPTION") == nil {
                shown.properties.append(Property("DESCRIPTION", value: item.property("SUMMARY")?.value ?? "Reminder"))
            }
            log.warning(
                alarm.line, "for \(app.name): ACTION:DISPLAY added to a VALARM without ACTION", code: "for-app-alarm")
            return shown
        }
        let alarms = item.components.filter { $0.name == "VALARM" }
        guard !alarms.isEmpty, app != .apple else { return }
        if app == .google {
            item.components.removeAll { $0.name == "VALARM" }
            log.warning(
                alarms[0].line,
                "for Google: \(alarms.count) alarm(s) left out; Google ignores the alarms of imported "
                    + "events and sets its own reminders", code: "for-google-alarms")
            return
        }
        item.components = item.components.map { alarm in
            guard alarm.name == "VALARM", let action = alarm.property("ACTION")?.value.uppercased(), action != "DISPLAY"
            else { return alarm }
            var display = alarm
            display.properties.removeAll { ["ACTION", "ATTACH", "ATTENDEE", "DESCRIPTION"].contains($0.name) }
            let text = alarm.property("DESCRIPTION")?.value ?? item.property("SUMMARY")?.value ?? "Reminder"
            display.properties.insert(
                contentsOf: [Property("ACTION", value: "DISPLAY"), Property("DESCRIPTION", value: text)], at: 0)
            log.warning(
                alarm.line, "for Outlook: ACTION:\(action) written as ACTION:DISPLAY, the reminder Outlook shows",
                code: "for-outlook-alarm")
            return display
        }
    }

    /// An explicit end for an event without one in a METHOD:REQUEST file (Google drops it): a day after a date,
    /// no time after a date-time, as RFC 5545 reads the missing end.
    static func endingRequest(_ item: inout Component, root: Component, _ log: inout DiagnosticLog) {
        guard root.property("METHOD")?.value.uppercased() == "REQUEST", item.name == "VEVENT",
            item.property("DTEND") == nil, item.property("DURATION") == nil, let start = item.property("DTSTART")
        else { return }
        let length = start.value.count == 8 ? "P1D" : "PT0S"
        item.properties.append(Property("DURATION", value: length))
        log.warning(
            start.line, "for Google: DURATION:\(length) added, the length RFC 5545 gives an event without an end",
            code: "for-google-request-end")
    }
}
