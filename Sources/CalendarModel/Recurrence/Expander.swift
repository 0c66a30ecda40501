import Foundation

/// Expands the series of one calendar on top of its placement (`CalendarTime`): grouping into series
/// (Series.swift), X-WR-TIMEZONE (WRTimeZone.swift), instance lengths, and here the instances of a window: rules
/// through `RuleCursor`, RDATE, EXDATE, overrides and THISANDFUTURE. One expander serves one thread.
final class Expander {
    let calendar: ICalendar
    let options: ExpansionOptions
    let time: CalendarTime
    let file: String?
    /// What expanding said, in the order said (the zones' findings are `time.diagnostics`).
    private(set) var notes: [Diagnostic] = []
    var wrZone: (tzid: String, zone: LibicalZone)?

    init(calendar: ICalendar, options: ExpansionOptions, file: String?, zoneWalls: [String: [LocalDateTime]]? = nil) {
        self.calendar = calendar
        self.options = options
        self.file = file
        time = CalendarTime(
            calendar: calendar, viewerZone: options.viewerZoneName, zones: options.zones, file: file,
            zoneWalls: zoneWalls)
        if options.applyWRTimeZone, let name = calendar.wrTimeZone?.name {
            if let iana = TimeZoneResolver.ianaName(for: name)?.iana, let zone = LibicalZone.privateCopy(iana) {
                wrZone = (iana, zone)
            } else {
                note(0, "X-WR-TIMEZONE \"\(name)\" names no known time zone; ignored", code: "wr-timezone-unknown")
            }
        }
    }

    var diagnostics: [Diagnostic] { notes + time.diagnostics }

    func note(_ line: Int, _ message: String, code: String) {
        notes.append(Diagnostic(.warning, file: file, line: line, message, code: code))
    }

    // MARK: Time

    func instant(_ date: CalendarDate, line: Int) -> Int64 { time.instant(date, line: line) }

    func clock(for form: CalendarDate.Form, line: Int) -> CalendarTime.Clock { time.clock(for: form, line: line) }

    /// The keys an instance is recognised by: its UTC instant and its wall clock when zoned, the wall clock when
    /// floating or a date (as recurring-ical-events matches RECURRENCE-ID and EXDATE).
    private func keys(_ date: CalendarDate, line: Int) -> [Int64] {
        let wall = LocalDateTime(date).wallSeconds
        switch date.form {
        case .utc, .zoned: return [instant(date, line: line) * 2 + 1, wall * 2]
        case .floating, .date: return [wall * 2]
        }
    }

    // MARK: Expansion

    func expand(_ series: Series, window: Range<Int64>) -> [Occurrence] {
        if options.budget?.isSpent == true { return [] }
        var result: [Occurrence] = []
        var overrideByKey: [Int64: Int] = [:]
        for (index, override) in series.overrides.enumerated() {
            guard let id = override.core.recurrenceID else { continue }
            for key in keys(id.date, line: override.line) { overrideByKey[key] = index }
        }
        var excludedKeys: Set<Int64> = []
        var excludedDays: Set<Int> = []
        if let master = series.master {
            for date in master.core.exceptionDates {
                if date.isDate { excludedDays.insert(date.dayNumber) }
                excludedKeys.formUnion(keys(date, line: master.line))
            }
            result = expandMaster(master, series.overrides, overrideByKey, excludedKeys, excludedDays, window)
        }
        for override in series.overrides {
            guard let start = override.start, let id = override.core.recurrenceID else { continue }
            if !excludedKeys.isDisjoint(with: keys(id.date, line: override.line)) { continue }
            if let occurrence = occurrence(override, start: start, recurrenceID: id.date, window: window) {
                result.append(occurrence)
            }
        }
        return result
    }

    private func expandMaster(
        _ master: SeriesMember, _ overrides: [SeriesMember], _ overrideByKey: [Int64: Int],
        _ excludedKeys: Set<Int64>, _ excludedDays: Set<Int>,
        _ window: Range<Int64>
    ) -> [Occurrence] {
        guard let start = master.start else { return [] }
        let futures = overrides.filter { $0.core.recurrenceID?.thisAndFuture ?? false }
            .compactMap { override -> (from: Int64, member: SeriesMember, move: Int64)? in
                guard let id = override.core.recurrenceID?.date, let moved = override.start else { return nil }
                return (
                    instant(id, line: override.line), override,
                    LocalDateTime(moved).wallSeconds - LocalDateTime(id).wallSeconds
                )
            }.sorted { $0.from < $1.from }
        let maxMove = futures.map { abs($0.move) }.max() ?? 0
        let longest = max(maxDuration(master), futures.map { maxDuration($0.member) }.max() ?? 0)
        // Instances that start in this span can touch the window.
        let span = (window.lowerBound - longest - maxMove - 86_400)..<(window.upperBound + maxMove + 86_400)

        let candidates = self.candidates(master, start: start, span: span)
        var result: [Occurrence] = []
        let matchesNothing = excludedKeys.isEmpty && overrideByKey.isEmpty
        for candidate in candidates {
            let original = candidate.wall.calendarDate(start.form)
            if !matchesNothing {
                let candidateKeys = keys(original, line: master.line)
                if candidateKeys.contains(where: excludedKeys.contains)
                    || candidateKeys.contains(where: { overrideByKey[$0] != nil })
                {
                    continue
                }
            }
            if !excludedDays.isEmpty, excludedDays.contains(candidate.wall.dayNumber) { continue }
            var member = master
            var wall = candidate.wall
            if !futures.isEmpty, let future = Self.lastFuture(before: instant(original, line: master.line), in: futures)
            {
                member = future.member
                wall = wall.adding(seconds: future.move)
            }
            var occurrence: Occurrence?
            if let periodEnd = candidate.periodEnd {
                member.length = .exact(instant(periodEnd, line: master.line) - instant(original, line: master.line))
            }
            occurrence = self.occurrence(
                member, start: wall.calendarDate(start.form),
                recurrenceID: master.core.isRecurring ? original : nil, window: window)
            if let occurrence { result.append(occurrence) }
        }
        return result
    }

    /// The start times a master's DTSTART, RDATEs and RRULEs give in `span`, each once, in the order found; an RDATE
    /// PERIOD with its end.
    private func candidates(
        _ master: SeriesMember, start: CalendarDate, span: Range<Int64>
    ) -> [(wall: LocalDateTime, periodEnd: CalendarDate?)] {
        var candidates: [(wall: LocalDateTime, periodEnd: CalendarDate?)] = []
        var seen: Set<Int64> = []
        func consider(_ wall: LocalDateTime, periodEnd: CalendarDate? = nil) {
            if seen.insert(wall.wallSeconds).inserted { candidates.append((wall, periodEnd)) }
        }
        let rules = master.core.recurrenceRules
        let startWall = LocalDateTime(start)
        let untils = rules.compactMap(\.until)
        if let latest = untils.max(by: { untilInstant($0) < untilInstant($1) }),
            isPast(startWall, until: latest, start: start, line: master.line)
        {
            // DTSTART after every UNTIL is no instance (as recurring-ical-events decides).
        } else {
            consider(startWall)
        }
        for rdate in master.core.recurrenceDates {
            switch rdate {
            case .date(let date): consider(wall(of: date, as: start, line: master.line))
            case .period(let period):
                let end: CalendarDate
                switch period.end {
                case .date(let date): end = date
                case .duration(let duration):
                    end = LocalDateTime(period.start).adding(seconds: Int64(duration.totalSeconds))
                        .calendarDate(period.start.form)
                }
                consider(wall(of: period.start, as: start, line: master.line), periodEnd: end)
            }
        }
        for rule in rules {
            walk(rule, from: start, master: master, span: span) { consider($0) }
        }
        return candidates
    }

    /// The THISANDFUTURE override in force at an instant: the last one whose RECURRENCE-ID is before it (a binary
    /// search: a series can have thousands).
    private static func lastFuture(
        before instant: Int64, in futures: [(from: Int64, member: SeriesMember, move: Int64)]
    )
        -> (from: Int64, member: SeriesMember, move: Int64)?
    {
        var low = 0, high = futures.count  // the first index whose `from` is not before the instant
        while low < high {
            let middle = (low + high) / 2
            if futures[middle].from < instant { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : futures[low - 1]
    }

    /// Walks a rule through the span, skipping ahead where libical allows it, stopping at the series limit.
    private func walk(
        _ rule: RecurrenceRule, from start: CalendarDate, master: SeriesMember, span: Range<Int64>,
        _ body: (LocalDateTime) -> Void
    ) {
        let startWall = LocalDateTime(start)
        guard
            var cursor = RuleCursor(
                rule, start: startWall, isDate: start.isDate,
                pastUntil: { [unowned self] in
                    guard let until = rule.until else { return false }
                    return self.isPast($0, until: until, start: start, line: master.line)
                })
        else {
            let why =
                rule.isNonGregorian && !rule.bySetPos.isEmpty
                ? "libical cannot bound BYSETPOS in a non-Gregorian RSCALE" : "libical rejects it"
            note(
                master.line,
                "RRULE \(rule.icsValue) cannot be expanded (\(why)); only DTSTART and RDATE are used",
                code: "rrule-unexpandable")
            return
        }
        let clock = self.clock(for: start.form, line: master.line)
        let spanStartWall = clock.wall(span.lowerBound)
        if spanStartWall > startWall { _ = cursor.skip(to: spanStartWall) }
        var steps = 0
        while let wall = cursor.next() {
            steps += 1
            if steps > options.limitPerSeries {
                note(
                    master.line,
                    "RRULE \(rule.icsValue) of \"\(master.core.uid ?? "?")\" made more than "
                        + "\(options.limitPerSeries) instances before the end of the window; stopped there",
                    code: "series-limit")
                return
            }
            if options.budget?.isSpent == true { return }
            let at = clock.instant(wall)
            if at >= span.upperBound { return }
            if at >= span.lowerBound { body(wall) }
        }
        if let years = cursor.gaveUpAfterYears {
            note(
                master.line,
                "RRULE \(rule.icsValue) of \"\(master.core.uid ?? "?")\" has no instance in the "
                    + "\(years) years after its last one (or its start); stopped looking there",
                code: "rrule-without-instances")
        }
    }

    /// An RDATE's wall clock in the series' form (converted when it is written in another zone).
    private func wall(of date: CalendarDate, as start: CalendarDate, line: Int) -> LocalDateTime {
        if date.form == start.form || start.form == .floating || start.isDate || date.isDate || date.form == .floating {
            return LocalDateTime(date)
        }
        return clock(for: start.form, line: line).wall(instant(date, line: line))
    }

    /// Whether an instance lies after UNTIL: dates by day, floating times as written, zoned times by instant
    /// (a non-UTC UNTIL with a zoned DTSTART is read as UTC, as recurring-ical-events does). An all-day series with a
    /// UTC UNTIL (Exchange writes `UNTIL=…T220000Z` for the last day of a European calendar) takes UNTIL's date in
    /// the calendar's zone, so its last day is not lost.
    private func isPast(_ wall: LocalDateTime, until: CalendarDate, start: CalendarDate, line: Int) -> Bool {
        switch start.form {
        case .date:
            if until.form == .utc, let zone = allDayUntilZone {
                let local = zone.clock.wall(LocalDateTime(until).wallSeconds)
                if local.dayNumber != until.dayNumber, warnedUntil.insert(line).inserted {
                    note(
                        line,
                        "an all-day series ends at a UTC time (UNTIL=\(until.icsValue)); its last day is read in the "
                            + "calendar's zone \(zone.tzid): \(local.isoDate)", code: "all-day-until-utc")
                }
                return wall.dayNumber > local.dayNumber
            }
            return wall.dayNumber > until.dayNumber
        case .floating: return wall > LocalDateTime(until)
        case .utc, .zoned: return instant(wall.calendarDate(start.form), line: line) > untilInstant(until)
        }
    }

    /// The calendar's zone for an all-day series' UTC UNTIL: X-WR-TIMEZONE's, else its first VTIMEZONE's; nil when
    /// it names none that is known (UNTIL's UTC date is used then).
    private lazy var allDayUntilZone: (tzid: String, clock: CalendarTime.Clock)? = {
        let named =
            wrZone?.tzid
            ?? calendar.components.lazy.compactMap { component -> String? in
                if case .timeZone(let zone) = component { return zone.tzid }
                return nil
            }.first
        guard let tzid = named else { return nil }
        let clock = clock(for: .zoned(tzid: TimeZoneID(unchecked: tzid)), line: 0)
        return clock.isFloating ? nil : (tzid, clock)
    }()
    /// The series told of their UTC UNTIL already (by line).
    private var warnedUntil: Set<Int> = []

    /// UNTIL as an instant: its wall clock read as UTC (a non-UTC UNTIL with a zoned DTSTART is read so too).
    private func untilInstant(_ until: CalendarDate) -> Int64 { LocalDateTime(until).wallSeconds }

    private func maxDuration(_ member: SeriesMember) -> Int64 {
        switch member.length {
        case .days(let days): return Int64(days) * 86_400 + 7200
        case .wall(let seconds), .exact(let seconds): return abs(seconds) + 7200
        }
    }

    /// Whether one more instance fits the command's budget; the first refusal is reported.
    private func budgetAllows() -> Bool {
        guard let budget = options.budget, !budget.take() else { return true }
        if budget.claimReport() {
            note(
                0,
                "the window holds more than \(budget.limit) instances, the most one command lists; expansion "
                    + "stopped there, so the list is incomplete (a flood of FREQ=SECONDLY or MINUTELY series looks like "
                    + "this; --max-total raises the limit)", code: "instance-budget")
        }
        return false
    }

    /// One instance of a member starting at `start`, if it overlaps the window (and the budget allows it).
    private func occurrence(
        _ member: SeriesMember, start: CalendarDate, recurrenceID: CalendarDate?,
        window: Range<Int64>
    ) -> Occurrence? {
        var start = start
        let clock = self.clock(for: start.form, line: member.line)
        let startWall = LocalDateTime(start)
        var startInstant = clock.instant(startWall)
        var end: CalendarDate
        var endInstant: Int64
        switch member.length {
        case .days(let days):
            let endWall = startWall.adding(days: days)
            end = endWall.calendarDate(start.form)
            endInstant = clock.instant(endWall)
        case .wall(let seconds):
            let endWall = startWall.adding(seconds: seconds)
            end = endWall.calendarDate(start.form)
            endInstant = seconds == 0 ? startInstant : clock.instant(endWall)
        case .exact(let seconds):
            endInstant = startInstant + seconds
            end = clock.wall(endInstant).calendarDate(start.form)
        }
        if endInstant < startInstant {
            if LocalDateTime(end) >= startWall {
                // A start in a DST gap reads as after the gap (RFC 5545 §3.3.5), past an end just after it: the
                // instance keeps its start and has no length (recurring-ical-events leaves the end before it).
                (end, endInstant) = (start, startInstant)
            } else {
                // An end written before the start (reported when read): the earlier one starts, as
                // recurring-ical-events does.
                (start, end, startInstant, endInstant) = (end, start, endInstant, startInstant)
            }
        }
        let overlaps =
            endInstant > startInstant
            ? startInstant < window.upperBound && endInstant > window.lowerBound
            : window.contains(startInstant)
        guard overlaps, budgetAllows() else { return nil }
        return Occurrence(
            source: member.source, recurrenceID: recurrenceID, start: start, end: end,
            startDate: Date(timeIntervalSince1970: TimeInterval(startInstant)),
            endDate: Date(timeIntervalSince1970: TimeInterval(endInstant)),
            recurrenceDate: recurrenceID.map {
                Date(timeIntervalSince1970: TimeInterval(instant($0, line: member.line)))
            }, isFloating: clock.isFloating)
    }
}

extension CalendarDate {
    /// Days since 1970-01-01 of the date part.
    var dayNumber: Int { LocalDateTime.days(fromCivil: year, month, day) }
}
