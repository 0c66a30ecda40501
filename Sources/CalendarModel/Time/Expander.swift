import Foundation

/// How long each instance of a component lasts.
enum InstanceLength {
    /// Whole days (DATE values).
    case days(Int)
    /// Wall-clock time added to the start (DTEND in the same zone, DURATION).
    case wall(Int64)
    /// Elapsed time (DTEND in another zone than DTSTART).
    case exact(Int64)
}

/// One component of a series as the expander sees it.
struct SeriesMember {
    var source: Occurrence.Source
    var start: CalendarDate?
    var length: InstanceLength
    var line: Int

    init(item: Occurrence.Item, start: CalendarDate?, length: InstanceLength, line: Int) {
        source = Occurrence.Source(item)
        self.start = start
        self.length = length
        self.line = line
    }

    var item: Occurrence.Item { source.item }
    var core: ItemCore { source.core }
}

/// A master and its overrides, sharing a UID.
struct Series {
    var master: SeriesMember?
    var overrides: [SeriesMember] = []
}

/// Expands the series of one calendar. Holds the time-zone resolver, so one expander serves one thread.
final class Expander {
    private let calendar: ICalendar
    private let options: ExpansionOptions
    private let resolver: TimeZoneResolver
    private let viewer: LibicalZone
    private let file: String?
    private var notes: [Diagnostic] = []
    private var wrZone: (tzid: String, zone: LibicalZone)?

    init(calendar: ICalendar, options: ExpansionOptions, file: String?) {
        self.calendar = calendar
        self.options = options
        self.file = file
        resolver = TimeZoneResolver(calendar: calendar, file: file)
        viewer = LibicalZone.privateCopy(options.viewerZone) ?? LibicalZone.utc()
        if options.applyWRTimeZone, let name = calendar.wrTimeZone {
            if let iana = TimeZoneResolver.ianaName(for: name)?.iana, let zone = LibicalZone.privateCopy(iana) {
                wrZone = (iana, zone)
            } else {
                note(0, "X-WR-TIMEZONE \"\(name)\" names no known time zone; ignored")
            }
        }
    }

    var diagnostics: [Diagnostic] { notes + resolver.diagnostics }

    private func note(_ line: Int, _ message: String) {
        notes.append(Diagnostic(.warning, file: file, line: line, message))
    }

    // MARK: Series

    /// The calendar's components grouped into series by kind and UID; the highest SEQUENCE wins among duplicates.
    /// Linear in the number of components: a series and its overrides are found through dictionaries and grown in
    /// place (a calendar can hold tens of thousands of overrides of one UID).
    func series() -> [Series] {
        var all: [Series] = []
        var seriesByKey: [String: Int] = [:]
        var overrideByID: [[CalendarDate: Int]] = []
        for component in calendar.components {
            guard let member = member(component) else { continue }
            let position: Int
            if let uid = member.core.uid, let known = seriesByKey[member.item.componentName + "\u{0}" + uid] {
                position = known
            } else {
                position = all.count
                all.append(Series())
                overrideByID.append([:])
                if let uid = member.core.uid { seriesByKey[member.item.componentName + "\u{0}" + uid] = position }
            }
            guard let id = member.core.recurrenceID?.date else {
                if all[position].master.map({ ($0.core.sequence ?? 0) <= (member.core.sequence ?? 0) }) ?? true {
                    all[position].master = member
                }
                continue
            }
            if let existing = overrideByID[position][id] {
                if (all[position].overrides[existing].core.sequence ?? 0) <= (member.core.sequence ?? 0) {
                    all[position].overrides[existing] = member
                }
            } else {
                overrideByID[position][id] = all[position].overrides.count
                all[position].overrides.append(member)
            }
        }
        return all
    }

    private func member(_ component: CalendarComponent) -> SeriesMember? {
        switch component {
        case .event(var event) where options.components.contains("VEVENT"):
            if let wrZone, let moved = Self.applying(wrZone.tzid, wrZone.zone, to: event) { event = moved }
            let line = event.provenance.source?.line ?? 0
            return SeriesMember(
                item: .event(event), start: event.start,
                length: length(
                    from: event.start, end: event.end, duration: event.duration,
                    defaultDays: 1), line: line)
        case .todo(let todo) where options.components.contains("VTODO"):
            let start = todo.start ?? todo.due
            return SeriesMember(
                item: .todo(todo), start: start,
                length: length(
                    from: start, end: todo.start == nil ? nil : todo.due,
                    duration: todo.duration, defaultDays: 0),
                line: todo.provenance.source?.line ?? 0)
        case .journal(let journal) where options.components.contains("VJOURNAL"):
            return SeriesMember(
                item: .journal(journal), start: journal.start,
                length: length(from: journal.start, end: nil, duration: nil, defaultDays: 1),
                line: journal.provenance.source?.line ?? 0)
        default:
            return nil
        }
    }

    private func length(
        from start: CalendarDate?, end: CalendarDate?, duration: Duration?,
        defaultDays: Int
    ) -> InstanceLength {
        guard let start else { return .wall(0) }
        if let end {
            if start.isDate, end.isDate { return .days(end.dayNumber - start.dayNumber) }
            // Same zone, or one side floating or a date (read in the other's zone, as recurring-ical-events does):
            // the wall-clock difference. Two different zones: the elapsed time.
            let zoneless: Set<CalendarDate.Form> = [.floating, .date]
            if start.form == end.form || zoneless.contains(start.form) || zoneless.contains(end.form) {
                return .wall(LocalDateTime(end).wallSeconds - LocalDateTime(start).wallSeconds)
            }
            return .exact(instant(end, line: 0) - instant(start, line: 0))
        }
        if let duration {
            return start.isDate && duration.totalSeconds % 86_400 == 0
                ? .days(duration.totalSeconds / 86_400) : .wall(Int64(duration.totalSeconds))
        }
        return start.isDate ? .days(defaultDays) : .wall(0)
    }

    /// X-WR-TIMEZONE as the x-wr-timezone tool applies it: in events, UTC times move into the zone and floating
    /// times are given it (DTSTART, DTEND, RDATE, EXDATE, RECURRENCE-ID); dates and zoned times stay. nil when the
    /// event has no such time, so callers keep the event as read.
    static func applying(_ tzid: String, _ zone: LibicalZone, to event: Event) -> Event? {
        var moves = false
        func moved(_ date: CalendarDate) -> CalendarDate {
            switch date.form {
            case .utc:
                moves = true
                return zone.local(atUTC: LocalDateTime(date).wallSeconds).calendarDate(.zoned(tzid: tzid))
            case .floating:
                moves = true
                return LocalDateTime(date).calendarDate(.zoned(tzid: tzid))
            case .date, .zoned: return date
            }
        }
        let start = event.start.map(moved), end = event.end.map(moved)
        let exceptionDates = event.exceptionDates.map(moved)
        let recurrenceDates = event.recurrenceDates.map { value -> RecurrenceDate in
            switch value {
            case .date(let date): return .date(moved(date))
            case .period(var period):
                period.start = moved(period.start)
                if case .date(let end) = period.end { period.end = .date(moved(end)) }
                return .period(period)
            }
        }
        let recurrenceID = event.recurrenceID.map { id -> RecurrenceID in
            var id = id
            id.date = moved(id.date)
            return id
        }
        guard moves else { return nil }
        var event = event
        event.start = start
        event.end = end
        event.exceptionDates = exceptionDates
        event.recurrenceDates = recurrenceDates
        event.recurrenceID = recurrenceID
        return event
    }

    // MARK: Time

    /// The UTC instant of a value: zoned through its zone, floating times and dates in the viewer's zone.
    func instant(_ date: CalendarDate, line: Int) -> Int64 {
        clock(for: date.form, line: line).instant(LocalDateTime(date))
    }

    /// The zone wall-clock values of one form are read in, resolved once (a series has thousands of instances).
    func clock(for form: CalendarDate.Form, line: Int) -> Clock {
        switch form {
        case .utc: return Clock(zone: nil)
        case .zoned(let tzid): return Clock(zone: resolver.zone(for: tzid, line: line) ?? viewer)
        case .floating, .date: return Clock(zone: viewer)
        }
    }

    /// Wall clock ⇄ instant in one zone (nil: UTC).
    struct Clock {
        let zone: LibicalZone?

        func instant(_ wall: LocalDateTime) -> Int64 { zone?.utcSeconds(of: wall) ?? wall.wallSeconds }
        func wall(_ instant: Int64) -> LocalDateTime {
            zone?.local(atUTC: instant) ?? LocalDateTime(wallSeconds: instant)
        }
    }

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
        let rules = master.core.recurrenceRules
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

        var candidates: [(wall: LocalDateTime, periodEnd: CalendarDate?)] = []
        var seen: Set<Int64> = []
        func consider(_ wall: LocalDateTime, periodEnd: CalendarDate? = nil) {
            if seen.insert(wall.wallSeconds).inserted { candidates.append((wall, periodEnd)) }
        }
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
            note(
                master.line,
                "RRULE \(rule.icsValue) cannot be expanded (libical rejects it); only DTSTART and RDATE "
                    + "are used")
            return
        }
        let clock = self.clock(for: start.form, line: master.line)
        let spanStartWall = clock.wall(span.lowerBound)
        if rule.count == nil, spanStartWall > startWall { _ = cursor.skip(to: spanStartWall) }
        var steps = 0
        while let wall = cursor.next() {
            steps += 1
            if steps > options.limitPerSeries {
                note(
                    master.line,
                    "RRULE \(rule.icsValue) of \"\(master.core.uid ?? "?")\" made more than "
                        + "\(options.limitPerSeries) instances before the end of the window; stopped there")
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
                    + "\(years) years after its last one (or its start); stopped looking there")
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
    /// (a non-UTC UNTIL with a zoned DTSTART is read as UTC, as recurring-ical-events does).
    private func isPast(_ wall: LocalDateTime, until: CalendarDate, start: CalendarDate, line: Int) -> Bool {
        switch start.form {
        case .date: return wall.dayNumber > until.dayNumber
        case .floating: return wall > LocalDateTime(until)
        case .utc, .zoned: return instant(wall.calendarDate(start.form), line: line) > untilInstant(until)
        }
    }

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
                    + "this; --max-total raises the limit)")
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
            // An end before the start (reported when read): the earlier one starts, as recurring-ical-events does.
            (start, end, startInstant, endInstant) = (end, start, endInstant, startInstant)
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
            })
    }
}

extension CalendarDate {
    /// Days since 1970-01-01 of the date part.
    var dayNumber: Int { LocalDateTime.days(fromCivil: year, month, day) }
}
