import Foundation

/// Series rewritten into shapes an app can hold, their instances unchanged: RDATEs as an RRULE or as events of their
/// own, several RRULEs as several series, RDATEs after an UNTIL as events of their own. New UIDs are derived from
/// the series' UID and what the new item stands for, so the same input gives the same output every time.
struct SeriesRewrite {
    /// The VTIMEZONEs of the calendar, for expanding a series on its own.
    var zones: [Component]
    var log: DiagnosticLog

    /// The properties that make an item a series or place it in one.
    static let seriesProperties: Set<String> = [
        "RRULE", "RDATE", "EXDATE", "EXRULE", "RECURRENCE-ID", "DTSTART", "DTEND", "DURATION", "UID",
    ]

    /// One instance of a series as an event of its own: `source` (the master, or the instance's override) under
    /// `uid`, starting at `start` (in DTSTART's form) and as long as the series when it is the master.
    static func standalone(_ source: Component, master: Component, uid: String, start: Property) -> Component {
        var event = source
        let isOverride = source.property("RECURRENCE-ID") != nil
        event.properties = source.properties.filter {
            isOverride
                ? !["UID", "RECURRENCE-ID", "RRULE", "RDATE", "EXDATE"].contains($0.name)
                : !seriesProperties.contains($0.name)
        }
        event.properties.insert(Property("UID", value: uid), at: 0)
        guard !isOverride else { return event }
        var begin = start
        begin.name = "DTSTART"
        event.properties.insert(begin, at: 1)
        if let length = lengthProperty(master, isDate: start.value.count == 8) {
            event.properties.insert(length, at: 2)
        }
        return event
    }

    /// Overrides by the instance their RECURRENCE-ID names (`key`); the first of two for one instance.
    static func byInstance(_ overrides: [Component]) -> [Int64: Component] {
        Dictionary(
            overrides.compactMap { override in
                override.property("RECURRENCE-ID").flatMap { key($0.value, tzid: $0["TZID"]) }.map { ($0, override) }
            }, uniquingKeysWith: { first, _ in first })
    }

    /// The overrides whose RECURRENCE-ID names none of `instances`, which readers show beside the series, as the
    /// events of their own they are (`UID-RECURRENCE-ID`).
    static func orphans(_ overrides: [Component], uid: String, besides instances: Set<Int64>) -> [Component] {
        overrides.compactMap { override in
            guard let id = override.property("RECURRENCE-ID"), let key = key(id.value, tzid: id["TZID"]),
                !instances.contains(key)
            else { return nil }
            var event = override
            event.properties.removeAll { $0.name == "RECURRENCE-ID" || $0.name == "UID" }
            event.properties.insert(Property("UID", value: "\(uid)-\(id.value)"), at: 0)
            return event
        }
    }

    /// A DURATION as long as the series' instances (in days for dates), nil when nothing says how long they are.
    static func lengthProperty(_ master: Component, isDate: Bool) -> Property? {
        guard let length = ICalendar.length(of: master) else { return nil }
        let duration =
            isDate && length % 86_400 == 0
            ? CalendarDuration(days: length / 86_400)
            : CalendarDuration(exactSeconds: length)
        return Property("DURATION", value: duration.icsValue)
    }

    /// The instant (or, for dates and floating times, the wall clock as if in UTC) of a value, for matching
    /// RDATEs, EXDATEs and RECURRENCE-IDs written in different forms.
    static func key(_ text: String, tzid: String?) -> Int64? {
        guard let value = try? CalendarDate.parse(text, tzid: tzid).get() else { return nil }
        if case .zoned = value.form, let instant = value.date(in: .utc) {
            return Int64(instant.timeIntervalSince1970)
        }
        return value.wall.wallSeconds
    }

    /// The instances ICSKit gives `items` in [from, to) in a calendar of their own with this calendar's zones and
    /// `properties` (X-WR-TIMEZONE applies only when given there), floating times placed in UTC.
    func expand(_ items: [Component], properties: [Property], from: Date, to: Date) -> [Occurrence] {
        let root = Component("VCALENDAR", properties: properties, components: zones + items)
        guard let calendar = ICS.read(ICS.write(components: [root])).calendars.first else { return [] }
        var options = ExpansionOptions()
        options.components = Set(ItemKind.allCases)
        options.viewerZone = .utc
        return calendar.occurrences(from: from, to: to, options: options).occurrences
    }

    /// The start instants of a series on its own (no overrides), expanded by ICSKit up to `horizon`.
    func instants(of master: Component, until horizon: Date) -> [Int64] {
        var lone = master
        lone.properties.removeAll { $0.name == "RECURRENCE-ID" }
        // From 1900: RDATEs may lie before DTSTART (`--repair` keeps a DTSTART that is no instance as an RDATE).
        let from = Date(timeIntervalSince1970: -2_208_988_800)
        return expand([lone], properties: [Property("VERSION", value: "2.0")], from: from, to: horizon).map {
            Int64($0.startDate.timeIntervalSince1970)
        }
    }

    /// The master instance an override replaces as ICSKit reads the calendar (its start instant), or nil when its
    /// RECURRENCE-ID names none (readers then show it beside the series): the series is expanded around the
    /// RECURRENCE-ID with and without the override, under the calendar's own properties (X-WR-TIMEZONE).
    func replacedInstance(master: Component, override: Component, calendar: [Property]) -> Int64? {
        guard let id = override.property("RECURRENCE-ID"), let key = Self.key(id.value, tzid: id["TZID"]) else {
            return nil
        }
        func starts(_ items: [Component]) -> Set<Int64> {
            let around = expand(
                items, properties: calendar, from: Date(timeIntervalSince1970: TimeInterval(key - 3 * 86_400)),
                to: Date(timeIntervalSince1970: TimeInterval(key + 3 * 86_400)))
            return Set(around.filter { !$0.isOverride }.map { Int64($0.startDate.timeIntervalSince1970) })
        }
        let replaced = starts([master]).subtracting(starts([master, override]))
        return replaced.count == 1 ? replaced.first : nil
    }

    /// Whether every rule of an item ends (COUNT or UNTIL).
    static func isBounded(_ item: Component) -> Bool {
        item.properties(named: "RRULE").allSatisfy { rule in
            (try? RecurrenceRule.parse(rule.value).get()).map { $0.count != nil || $0.until != nil } ?? false
        }
    }
}

extension SeriesRewrite {
    /// An RDATE-only series (Outlook ignores it): an RRULE when its instances fall at equal steps of whole days
    /// at one time of day, else each RDATE instance an event of its own. Nil when the series is left as it is.
    mutating func rdatesForOutlook(_ master: Component, overrides: [Component]) -> [Component]? {
        guard master.property("RRULE") == nil, !master.properties(named: "RDATE").isEmpty,
            let start = master.property("DTSTART"), let uid = master.property("UID")?.value,
            let first = try? CalendarDate.parse(start.value, tzid: start["TZID"]).get()
        else { return nil }
        let excluded = Set(
            master.properties(named: "EXDATE").flatMap { property in
                ValueSyntax.split(property.value, on: ",").compactMap { Self.key($0, tzid: property["TZID"]) }
            })
        var dates: [(text: String, value: CalendarDate, property: Property)] = []
        for property in master.properties(named: "RDATE") {
            for text in ValueSyntax.split(property.value, on: ",") {
                guard let value = try? CalendarDate.parse(text, tzid: property["TZID"]).get() else { return nil }
                guard let key = Self.key(text, tzid: property["TZID"]), !excluded.contains(key),
                    key != Self.key(start.value, tzid: start["TZID"])
                else { continue }
                dates.append((text, value, property))
            }
        }
        let startExcluded = Self.key(start.value, tzid: start["TZID"]).map(excluded.contains) ?? false
        if !startExcluded, let rule = Self.evenRule(first: first, later: dates.map(\.value)) {
            var series = master
            series.properties.removeAll { $0.name == "RDATE" || $0.name == "EXDATE" }
            series.properties.append(Property("RRULE", value: rule))
            log.warning(
                master.line, "for Outlook: RDATEs of \(uid) written as RRULE:\(rule), the same instances",
                code: "for-outlook-rdates-as-rule")
            return [series] + overrides
        }
        let byID = Self.byInstance(overrides)
        var result: [Component] = []
        if !startExcluded {
            let own = Self.key(start.value, tzid: start["TZID"]).flatMap { byID[$0] }
            result.append(Self.standalone(own ?? master, master: master, uid: uid, start: start))
        }
        for date in dates.sorted(by: { $0.value < $1.value }) {
            var begin = date.property
            begin.parameters =
                start.parameters.filter { $0.name != "VALUE" }
                + (date.text.count == 8 ? [Parameter("VALUE", "DATE")] : [])
            begin.value = date.text
            let source = Self.key(date.text, tzid: date.property["TZID"]).flatMap { byID[$0] } ?? master
            result.append(Self.standalone(source, master: master, uid: "\(uid)-\(date.text)", start: begin))
        }
        let instances = Set(([start] + dates.map(\.property)).compactMap { Self.key($0.value, tzid: $0["TZID"]) })
            .union(dates.compactMap { Self.key($0.text, tzid: $0.property["TZID"]) })
        result += Self.orphans(overrides, uid: uid, besides: instances.union(excluded))
        log.warning(
            master.line,
            "for Outlook: the \(dates.count + (startExcluded ? 0 : 1)) instances of \(uid) (RDATE without RRULE) "
                + "written as events of their own, UIDs \(uid)-DATE", code: "for-outlook-rdates-as-events")
        return result
    }

    /// `FREQ=DAILY;INTERVAL=n;COUNT=k` (or WEEKLY) when `first` and `later` fall at one time of day, `n` days apart
    /// in order; nil otherwise.
    static func evenRule(first: CalendarDate, later: [CalendarDate]) -> String? {
        let all = [first] + later.sorted(by: { $0.wall < $1.wall })
        guard all.count >= 2, all.allSatisfy({ $0.form == first.form }),
            all.allSatisfy({ ($0.hour, $0.minute, $0.second) == (first.hour, first.minute, first.second) })
        else { return nil }
        let days = all.map(\.wall.dayNumber)
        let step = days[1] - days[0]
        guard step > 0, zip(days, days.dropFirst()).allSatisfy({ $1 - $0 == step }) else { return nil }
        return step % 7 == 0
            ? "FREQ=WEEKLY;INTERVAL=\(step / 7);COUNT=\(all.count)" : "FREQ=DAILY;INTERVAL=\(step);COUNT=\(all.count)"
    }
}

extension SeriesRewrite {
    /// A series Outlook cannot hold as one (several RRULEs, or a rule with several BYMONTHDAY, BYHOUR or BYMINUTE
    /// values) as one series a rule: the first keeps the UID, DTSTART and RDATEs, each other starts at its rule's
    /// first instance after DTSTART under `UID-rule2`… and leaves out (EXDATE) what an earlier one already has;
    /// COUNT becomes the UNTIL of the last instance first. Overrides go with the series that has their instance.
    /// Nil when nothing is to be done or it cannot be done without changing the instances (said in a warning).
    /// `--repair` (`forOutlook` false) splits several RRULEs only, and says so as a repair.
    mutating func rulesForOutlook(
        _ master: Component, overrides: [Component], forOutlook: Bool = true
    ) -> [Component]? {
        let rules = master.properties(named: "RRULE")
        guard let start = master.property("DTSTART"), let uid = master.property("UID")?.value,
            let startKey = Self.key(start.value, tzid: start["TZID"]),
            rules.count > 1 || (forOutlook && rules.contains(where: { AppRule.patternProblem($0.value) != nil }))
        else { return nil }
        let said = forOutlook ? "for Outlook:" : "repaired:"
        func refuse(_ why: String) -> [Component]? {
            let message = "\(said) the rules of \(uid) are left as they are: \(why)"
            if forOutlook {
                log.warning(master.line, message, code: "for-outlook-rules-kept")
            } else {
                log.warning(master.line, message, code: "repair-rules-kept")
            }
            return nil
        }
        guard let pieces = pieces(of: master, start: start, listsToo: forOutlook) else {
            return refuse("its COUNT cannot be written as an UNTIL")
        }
        if forOutlook, pieces.contains(where: { AppRule.patternProblem($0) != nil }) {
            return eventsForOutlook(master, overrides: overrides)
                ?? refuse("Outlook has no pattern for it, and it never ends")
        }
        let bounded = pieces.allSatisfy { $0.uppercased().contains("COUNT=") || $0.uppercased().contains("UNTIL=") }
        let horizon =
            bounded ? Date.distantFuture : Date(timeIntervalSince1970: TimeInterval(startKey) + 40 * 31_557_600)
        var taken: Set<Int64> = []
        var series: [(uid: String, component: Component, instants: Set<Int64>)] = []
        for (index, piece) in pieces.enumerated() {
            var part = master
            part.properties.removeAll { $0.name == "RRULE" || (index > 0 && $0.name == "RDATE") }
            part.properties.append(Property("RRULE", value: piece))
            var instants = instants(of: part, until: horizon)
            if index > 0 {
                instants.removeAll { $0 == startKey }
                guard let first = instants.first, let text = startText(first, start) else { continue }
                let shared = instants.filter(taken.contains)
                let texts = shared.compactMap { startText($0, start) }
                if !shared.isEmpty, !bounded || texts.count != shared.count {
                    return refuse("two of its rules never end and share instances")
                }
                part = Self.laterPart(part, of: master, uid: "\(uid)-rule\(index + 1)", start: text, excluding: texts)
            }
            taken.formUnion(instants)
            series.append((part.property("UID")?.value ?? uid, part, Set(instants)))
        }
        let result = series.map(\.component) + Self.overrides(overrides, of: series, uid: uid)
        let message =
            "\(said) the series \(uid) written as \(series.count) series, one a rule (UIDs \(uid)-rule2…), the same "
            + "instances"
        if forOutlook {
            log.warning(master.line, message, code: "for-outlook-rules-split")
        } else {
            log.warning(master.line, message, code: "repair-rules-split")
        }
        return result
    }

    /// A part of a series split by rule after the first: under `uid`, starting at `start` (its rule's first instance
    /// after DTSTART) as long as the series, without the instances an earlier part has (`excluding`, an EXDATE).
    private static func laterPart(
        _ part: Component, of master: Component, uid: String, start text: String, excluding: [String]
    ) -> Component {
        guard let start = master.property("DTSTART") else { return part }
        var part = part
        part.properties.removeAll { ["UID", "DTSTART", "DTEND", "DURATION"].contains($0.name) }
        var begin = start
        begin.value = text
        part.properties.insert(contentsOf: [Property("UID", value: uid), begin], at: 0)
        if let length = lengthProperty(master, isDate: start.value.count == 8) { part.properties.insert(length, at: 2) }
        if !excluding.isEmpty {
            part.properties.append(
                Property("EXDATE", parameters: start.parameters, value: excluding.joined(separator: ",")))
        }
        return part
    }

    /// The overrides of a series split by rule, each under the UID of the part that has its instance.
    private static func overrides(
        _ overrides: [Component], of series: [(uid: String, component: Component, instants: Set<Int64>)], uid: String
    ) -> [Component] {
        overrides.map { override in
            var moved = override
            let key = override.property("RECURRENCE-ID").flatMap { Self.key($0.value, tzid: $0["TZID"]) }
            if let key, let owner = series.first(where: { $0.instants.contains(key) }), owner.uid != uid {
                moved.properties.removeAll { $0.name == "UID" }
                moved.properties.insert(Property("UID", value: owner.uid), at: 0)
            }
            return moved
        }
    }

    /// The rules of a series as the rules of its parts: with `listsToo`, one a BYMONTHDAY, BYHOUR and BYMINUTE
    /// value; a rule with COUNT, which counts from DTSTART (every part but the first moves it), with the UNTIL of
    /// its last instance when it is split or has others beside it. Nil when that UNTIL cannot be written.
    func pieces(of master: Component, start: Property, listsToo: Bool) -> [String]? {
        let rules = master.properties(named: "RRULE")
        var pieces: [String] = []
        for rule in rules {
            let parts = listsToo ? Self.parts(of: rule.value) : [rule.value]
            guard parts.count > 1 || rules.count > 1, rule.value.uppercased().contains("COUNT=") else {
                pieces += parts
                continue
            }
            var alone = master
            alone.properties.removeAll { $0.name == "RRULE" || $0.name == "RDATE" || $0.name == "EXDATE" }
            alone.properties.append(rule)
            guard let last = instants(of: alone, until: .distantFuture).last, let until = untilText(last, start)
            else { return nil }
            let counted = Self.replacing("COUNT", in: rule.value, with: "UNTIL=" + until)
            pieces += listsToo ? Self.parts(of: counted) : [counted]
        }
        return pieces
    }

    /// A series that ends, as an event of its own for each instance (`UID-START`), its overrides in their place;
    /// nil for one that never ends or has more than 1,000 instances.
    mutating func eventsForOutlook(_ master: Component, overrides: [Component]) -> [Component]? {
        guard Self.isBounded(master), let start = master.property("DTSTART"), let uid = master.property("UID")?.value
        else { return nil }
        let instants = instants(of: master, until: .distantFuture)
        guard instants.count <= 1_000 else { return nil }
        let texts = instants.compactMap { startText($0, start) }
        guard texts.count == instants.count else { return nil }
        let byID = Self.byInstance(overrides)
        let events = zip(instants, texts).map { instant, text -> Component in
            var begin = start
            begin.value = text
            return Self.standalone(byID[instant] ?? master, master: master, uid: "\(uid)-\(text)", start: begin)
        }
        log.warning(
            master.line,
            "for Outlook: the \(events.count) instances of \(uid), whose rule Outlook has no pattern for, "
                + "written as events of their own (UIDs \(uid)-START)", code: "for-outlook-rule-as-events")
        return events + Self.orphans(overrides, uid: uid, besides: Set(instants))
    }

    /// A rule as rules of one BYMONTHDAY, BYHOUR and BYMINUTE value each (their union is the rule's instances).
    static func parts(of rule: String) -> [String] {
        var results = [[String]()]
        for part in ValueSyntax.split(rule, on: ";") {
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2, ["BYMONTHDAY", "BYHOUR", "BYMINUTE"].contains(pair[0].uppercased()) else {
                results = results.map { $0 + [part] }
                continue
            }
            let values = pair[1].split(separator: ",")
            results = results.flatMap { done in values.map { done + ["\(pair[0])=\($0)"] } }
        }
        return results.map { $0.joined(separator: ";") }
    }

    /// `rule` with its `name=` part (COUNT, UNTIL) written as `replacement` (`UNTIL=…`).
    static func replacing(_ name: String, in rule: String, with replacement: String) -> String {
        ValueSyntax.split(rule, on: ";").map { $0.uppercased().hasPrefix(name + "=") ? replacement : $0 }
            .joined(separator: ";")
    }

    /// An instant written as DTSTART writes its values; nil for a TZID no zone database knows.
    func startText(_ instant: Int64, _ start: Property) -> String? {
        let date = Date(timeIntervalSince1970: TimeInterval(instant))
        if let tzid = start["TZID"] {
            guard let zone = try? CalendarZone(tzid) else { return nil }
            return CalendarDate(date, in: zone).wall.calendarDate(.floating).icsValue
        }
        let wall = CalendarDate(date, in: .utc)
        if start.value.count == 8 { return String(wall.icsValue.prefix(8)) }
        return start.value.hasSuffix("Z") ? wall.icsValue : String(wall.icsValue.dropLast())
    }

    /// UNTIL for the last instance of a series with this DTSTART: UTC beside a zone, else in DTSTART's form.
    func untilText(_ instant: Int64, _ start: Property) -> String? {
        if start["TZID"] != nil {
            return CalendarDate(Date(timeIntervalSince1970: TimeInterval(instant)), in: .utc).icsValue
        }
        return startText(instant, start)
    }

    /// RDATEs after the only RRULE's UNTIL (Google hides them) as events of their own, `UID-DATE`.
    mutating func lateRDatesForGoogle(_ master: Component, overrides: [Component]) -> [Component]? {
        let rules = master.properties(named: "RRULE")
        guard rules.count == 1, let until = try? RecurrenceRule.parse(rules[0].value).get().until,
            let uid = master.property("UID")?.value
        else { return nil }
        let bound =
            until.form == .utc ? until.date(in: .utc).map { Int64($0.timeIntervalSince1970) } : until.wall.wallSeconds
        guard let bound else { return nil }
        var series = master
        var extra: [Component] = []
        let byID = Self.byInstance(overrides)
        var keptOverrides = overrides
        for (index, property) in master.properties.enumerated().reversed() where property.name == "RDATE" {
            let values = ValueSyntax.split(property.value, on: ",")
            let late = values.filter { Self.key($0, tzid: property["TZID"]).map { $0 > bound } ?? false }
            guard !late.isEmpty else { continue }
            let early = values.filter { !late.contains($0) }
            if early.isEmpty {
                series.properties.remove(at: index)
            } else {
                series.properties[index].value = early.joined(separator: ",")
            }
            for text in late {
                var begin = property
                begin.value = text
                let key = Self.key(text, tzid: property["TZID"])
                let source = key.flatMap { byID[$0] } ?? master
                keptOverrides.removeAll {
                    $0.property("RECURRENCE-ID").flatMap { Self.key($0.value, tzid: $0["TZID"]) } == key
                }
                extra.append(Self.standalone(source, master: master, uid: "\(uid)-\(text)", start: begin))
            }
        }
        guard !extra.isEmpty else { return nil }
        log.warning(
            master.line, "for Google: \(extra.count) RDATE(s) of \(uid) after its UNTIL written as events of their own",
            code: "for-google-late-rdates")
        return [series] + keptOverrides + extra
    }
}
