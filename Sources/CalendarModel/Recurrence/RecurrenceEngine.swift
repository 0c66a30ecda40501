/// RFC 5545 §3.3.10 recurrence, period by period: each period of the rule's frequency (a year, a month, a WKST
/// week, a day, an hour …) gives its candidate days, then their times, then BYSETPOS picks among them.
///
/// Debian 12's libical 3.0.16 iterator gets BYSETPOS on weekly rules, BYWEEKNO across year ends, unsorted BYSECOND
/// lists and DATE starts with time parts wrong (its own later test vectors say so), so Gregorian rules are walked
/// here; libical still checks their grammar and walks non-Gregorian RSCALE rules (it has ICU).
struct RecurrenceEngine {
    private let rule: RecurrenceRule
    private let start: LocalDateTime
    private let isDate: Bool
    private let interval: Int
    let weekStart: Int
    private let skip: Skip
    private let hours: [Int], minutes: [Int], seconds: [Int]
    private let days: [(weekday: Int, ordinal: Int?)]
    private let monthDays: [Int]
    private let months: [Int]
    /// A sub-daily rule's BYHOUR, BYMINUTE and BYSECOND as filters: sorted, each value one that can occur.
    private let filterHours: [Int], filterMinutes: [Int], filterSeconds: [Int]
    /// The year period 0 stands for: DTSTART's week-year for BYWEEKNO rules (2010-01-02 is in week 53 of 2009).
    private var baseYear = 0
    private var last: LocalDateTime?
    private var period = 0
    private var buffer: [LocalDateTime] = []
    private var emitted = 0
    private var emptyPeriods = 0
    private var finished = false
    /// How many instances each period after the first holds, when that is the same for every one (weekly on given
    /// weekdays and times, monthly on days 1–28 …): what lets a rule with COUNT skip ahead by counting.
    private var instancesPerPeriod: Int?
    /// Set when the walk stopped because a long stretch had no instance (a limit, not the rule's own end).
    private(set) var gaveUpAfterYears: Int?

    enum Skip { case omit, backward, forward }

    /// nil when the rule needs another calendar scale (RSCALE other than GREGORIAN).
    init?(_ rule: RecurrenceRule, start: LocalDateTime, isDate: Bool) {
        guard let skip = Self.skip(of: rule) else { return nil }
        self.skip = skip
        self.rule = rule
        self.start = start
        self.isDate = isDate
        interval = max(1, rule.interval ?? 1)
        weekStart = Self.weekdayIndex(rule.weekStart ?? .monday)
        (hours, minutes, seconds) = Self.timeParts(rule, start: start, isDate: isDate)
        let freq = rule.frequency
        (days, monthDays, months) = Self.dayParts(rule, start: start)
        filterHours = Set(rule.byHour.filter { (0...23).contains($0) }).sorted()
        filterMinutes = Set(rule.byMinute.filter { (0...59).contains($0) }).sorted()
        filterSeconds = Set(rule.bySecond.filter { (0...60).contains($0) }).sorted()
        baseYear = start.year
        if freq == .yearly, !rule.byWeekNo.isEmpty {
            // Weeks belong to week-years: DTSTART in week 53 of the year before counts from that year, provided
            // DTSTART is itself an instance (libical's vectors pin this down).
            var weekYear = start.year
            if start.dayNumber < Self.weekYearStart(start.year, weekStart: weekStart) { weekYear -= 1 }
            if start.dayNumber >= Self.weekYearStart(start.year + 1, weekStart: weekStart) { weekYear += 1 }
            if weekYear != start.year, matchesDay(start.dayNumber, year: weekYear, inYearly: true) {
                baseYear = weekYear
            }
        }
        // A sub-daily rule whose periods never land on its BYHOUR, BYMINUTE or BYSECOND values (HOURLY every 8 hours
        // from 09:30 never reaches 03:xx) has no instance after DTSTART: known at once, instead of after walking 400
        // years of periods to find out.
        if isSubDaily, !isDate, !timeOfDayIsReachable { finished = true }
        instancesPerPeriod = uniformPeriodSize
    }

    /// How the rule treats days its months lack (RFC 7529's SKIP); nil when the engine cannot expand the rule: another
    /// calendar scale, a part it does not type (a leap month, say: left to libical), or BYWEEKNO together with BYMONTH
    /// or BYMONTHDAY (which libical refuses, "not implemented"; so does ICSKit).
    private static func skip(of rule: RecurrenceRule) -> Skip? {
        if !rule.byWeekNo.isEmpty, !rule.byMonth.isEmpty || !rule.byMonthDay.isEmpty { return nil }
        guard rule.hasOtherParts else { return .omit }
        let parts = rule.otherParts
        if let scale = parts.first(where: { $0.name == "RSCALE" })?.value.uppercased(), scale != "GREGORIAN" {
            return nil
        }
        if parts.contains(where: { !["RSCALE", "SKIP"].contains($0.name) && !$0.name.hasPrefix("X-") }) { return nil }
        switch parts.first(where: { $0.name == "SKIP" })?.value.uppercased() {
        case "BACKWARD": return .backward
        case "FORWARD": return .forward
        default: return .omit
        }
    }

    /// The rule's BYDAY, BYMONTHDAY and BYMONTH with what DTSTART gives where the rule leaves them out (RFC 5545
    /// §3.3.10: yearly on DTSTART's date, monthly on its day, weekly on its weekday).
    private static func dayParts(_ rule: RecurrenceRule, start: LocalDateTime)
        -> (days: [(Int, Int?)], monthDays: [Int], months: [Int])
    {
        let startWeekday = weekday(start.dayNumber)
        var days = rule.byDay.map { (weekdayIndex($0.weekday), $0.ordinal) }
        var monthDays = rule.byMonthDay
        var months = rule.byMonth
        switch rule.frequency {
        case .yearly where rule.byWeekNo.isEmpty && rule.byYearDay.isEmpty && rule.byDay.isEmpty:
            // Yearly on DTSTART's date, or on the given month days of DTSTART's month.
            if months.isEmpty { months = [start.month] }
            if monthDays.isEmpty { monthDays = [start.day] }
        case .yearly
        where !rule.byWeekNo.isEmpty && rule.byDay.isEmpty && rule.byMonthDay.isEmpty && rule.byYearDay.isEmpty:
            days = [(startWeekday, nil)]  // in the given weeks, on DTSTART's weekday
        case .monthly where rule.byDay.isEmpty && rule.byMonthDay.isEmpty && rule.byYearDay.isEmpty:
            monthDays = [start.day]
        case .weekly where rule.byDay.isEmpty:
            days = [(startWeekday, nil)]
        default: break
        }
        return (days, monthDays, months)
    }

    /// `instancesPerPeriod`: nil where periods differ — BYSETPOS, BYYEARDAY, BYWEEKNO, SKIP, BYDAY in a month or
    /// year, days past the 28th, a filter (BYMONTH on a weekly rule, any BY part on a daily or shorter one) that
    /// some periods fail, or a time part no clock has.
    private var uniformPeriodSize: Int? {
        guard rule.bySetPos.isEmpty, rule.byYearDay.isEmpty, rule.byWeekNo.isEmpty, skip == .omit else { return nil }
        if isSubDaily {
            let filters = [rule.byHour, rule.byMinute, rule.bySecond, rule.byMonth, rule.byMonthDay]
            return filters.allSatisfy(\.isEmpty) && rule.byDay.isEmpty ? 1 : nil
        }
        guard hours.allSatisfy((0...23).contains), minutes.allSatisfy((0...59).contains),
            seconds.allSatisfy((0...59).contains)
        else { return nil }
        let times = hours.count * minutes.count * seconds.count
        // Days every month has, counted from one end only (day 28 and day -1 are one day in February).
        let monthDaysAlways = monthDays.allSatisfy((1...28).contains) || monthDays.allSatisfy((-28 ... -1).contains)
        // Weekdays of a month by ordinal (the first Monday, the last Friday): every month has four of each, and two
        // ordinals of one weekday counted from the same end never name one day (1MO and -4MO can).
        let ordinalsByWeekday = Dictionary(grouping: days, by: \.weekday).values.map { $0.map { $0.ordinal ?? 0 } }
        let monthWeekdaysAlways =
            !days.isEmpty && rule.byMonthDay.isEmpty
            && ordinalsByWeekday.allSatisfy { $0.allSatisfy((1...4).contains) || $0.allSatisfy((-4 ... -1).contains) }
        let weekdaysInMonths = Set(days.map { $0.weekday * 10 + ($0.ordinal ?? 0) }).count
        switch rule.frequency {
        case .weekly:
            guard rule.byMonth.isEmpty, rule.byMonthDay.isEmpty, days.allSatisfy({ $0.ordinal == nil }) else {
                return nil
            }
            return Set(days.map(\.weekday)).count * times
        case .daily:
            return rule.byDay.isEmpty && rule.byMonth.isEmpty && rule.byMonthDay.isEmpty ? times : nil
        case .monthly where rule.byMonth.isEmpty && monthWeekdaysAlways:
            return weekdaysInMonths * times
        case .monthly:
            guard rule.byDay.isEmpty, rule.byMonth.isEmpty, monthDaysAlways else { return nil }
            return Set(monthDays).count * times
        case .yearly where !rule.byMonth.isEmpty && monthWeekdaysAlways && months.allSatisfy((1...12).contains):
            return Set(months).count * weekdaysInMonths * times
        case .yearly:
            guard rule.byDay.isEmpty, monthDaysAlways, months.allSatisfy((1...12).contains) else { return nil }
            return Set(months).count * Set(monthDays).count * times
        default: return nil
        }
    }

    /// The hours, minutes and seconds an instance may have. Parts a rule leaves out come from DTSTART (RFC 5545
    /// §3.3.10), except the units it repeats by (every hour of an HOURLY rule); a DATE start has no time parts.
    static func timeParts(_ rule: RecurrenceRule, start: LocalDateTime, isDate: Bool) -> ([Int], [Int], [Int]) {
        guard !isDate else { return ([0], [0], [0]) }
        func unique(_ values: [Int]) -> [Int] { Array(Set(values)).sorted() }
        let freq = rule.frequency
        let hours =
            !rule.byHour.isEmpty
            ? unique(rule.byHour) : (freq == .hourly || freq == .minutely || freq == .secondly) ? [] : [start.hour]
        let minutes =
            !rule.byMinute.isEmpty
            ? unique(rule.byMinute) : (freq == .minutely || freq == .secondly) ? [] : [start.minute]
        let seconds = !rule.bySecond.isEmpty ? unique(rule.bySecond) : freq == .secondly ? [] : [start.second]
        return (hours, minutes, seconds)
    }

    /// Whether some period of a sub-daily rule starts at a time of day its BYHOUR, BYMINUTE and BYSECOND allow.
    /// Periods start at DTSTART plus multiples of INTERVAL units (wall-clock arithmetic), so the second of the day
    /// they start at is always congruent to DTSTART's modulo gcd(INTERVAL × unit, 86,400).
    private var timeOfDayIsReachable: Bool {
        let hoursAllowed = !filterHours.isEmpty, minutesAllowed = rule.frequency != .hourly && !filterMinutes.isEmpty
        let secondsAllowed = rule.frequency == .secondly && !filterSeconds.isEmpty
        guard hoursAllowed || minutesAllowed || secondsAllowed else { return true }
        func gcd(_ a: Int64, _ b: Int64) -> Int64 { b == 0 ? a : gcd(b, a % b) }
        let step = Int64(interval) * unitSeconds
        let modulus = gcd(step % 86_400 == 0 ? 86_400 : step % 86_400, 86_400)
        let startSecond = Int64(start.hour * 3600 + start.minute * 60 + start.second)
        let hours = hoursAllowed ? filterHours : Array(0...23)
        // A period's own minute and second, where the rule's unit is coarser, are DTSTART's.
        let minutes = minutesAllowed ? filterMinutes : rule.frequency == .hourly ? [start.minute] : Array(0...59)
        let seconds = secondsAllowed ? filterSeconds : rule.frequency == .secondly ? Array(0...59) : [start.second]
        for hour in hours {
            for minute in minutes {
                for second in seconds
                where (Int64(hour * 3600 + minute * 60 + second) - startSecond) % modulus == 0 {
                    return true
                }
            }
        }
        return false
    }

    static func weekdayIndex(_ day: Weekday) -> Int {
        switch day {
        case .sunday: return 0
        case .monday: return 1
        case .tuesday: return 2
        case .wednesday: return 3
        case .thursday: return 4
        case .friday: return 5
        case .saturday: return 6
        }
    }

    /// 0 = Sunday … 6 = Saturday (1970-01-01 was a Thursday).
    static func weekday(_ dayNumber: Int) -> Int { ((dayNumber + 4) % 7 + 7) % 7 }

    // MARK: Walking

    mutating func next() -> LocalDateTime? {
        while !finished {
            if !buffer.isEmpty {
                let instance = buffer.removeFirst()
                if let count = rule.count, emitted >= count {
                    finished = true
                    return nil
                }
                emitted += 1
                return instance
            }
            fillNextPeriod()
        }
        return nil
    }

    /// Moves ahead so the next instances are near `target` (never past one at or after it). A rule with COUNT moves
    /// only when its periods hold a known number of instances, which are counted as passed; false when it cannot.
    mutating func skip(to target: LocalDateTime) -> Bool {
        guard target > start, rule.count == nil || instancesPerPeriod != nil else { return false }
        let steps: Int
        switch rule.frequency {
        case .yearly: steps = (target.year - baseYear) / interval
        case .monthly: steps = ((target.year - start.year) * 12 + target.month - start.month) / interval
        case .weekly: steps = (weekStartDay(target.dayNumber) - weekStartDay(start.dayNumber)) / 7 / interval
        case .daily: steps = (target.dayNumber - start.dayNumber) / interval
        case .hourly: steps = Int((target.wallSeconds - start.wallSeconds) / 3600) / interval
        case .minutely: steps = Int((target.wallSeconds - start.wallSeconds) / 60) / interval
        case .secondly: steps = Int(target.wallSeconds - start.wallSeconds) / interval
        }
        guard steps - 1 > period else { return true }
        if let count = rule.count, let perPeriod = instancesPerPeriod {
            // The first period may hold fewer (times before DTSTART are no instances): it is walked, not counted.
            if period == 0 { fillNextPeriod() }
            guard steps - 1 > period, !finished else { return true }
            let (whole, overflow) = (steps - 1 - period).multipliedReportingOverflow(by: perPeriod)
            emitted = overflow ? count : min(count, emitted + buffer.count + whole)
            if emitted >= count { finished = true }
        }
        period = steps - 1
        buffer = []
        emptyPeriods = 0
        return true
    }

    /// Most periods in a row with no instance before a rule is taken to have no more (a 400-year cycle).
    private var emptyLimit: Int {
        switch rule.frequency {
        case .yearly: return 400
        case .monthly: return 4800
        case .weekly: return 20_871
        default: return 146_097
        }
    }

    private mutating func fillNextPeriod() {
        let index = period
        // Past year 9999 nothing is computed (a huge INTERVAL gets there at once, without overflowing).
        guard periodYear(index) <= 9999 else { return finished = true }
        let instances = instancesOfPeriod(index)
        period += 1
        // Strictly after the last instance: a day SKIP moves into the next period is not given twice.
        let fresh = instances.filter { instance in instance >= start && last.map { instance > $0 } ?? true }
        last = fresh.last ?? last
        if !fresh.isEmpty {
            emptyPeriods = 0
            buffer = fresh
            return
        }
        if isSubDaily {
            // A sparse rule (SECONDLY on Monday at 09:00:00) skips to the next second that can match instead of
            // trying each one, and gives up after 400 years of wall time with nothing. Periods that no skip could
            // pass over (their BYSETPOS picks nothing) still count against the period limit.
            guard let next = nextPossiblePeriod(after: index), let at = moment(next) else { return finished = true }
            if next == index + 1 { emptyPeriods += 1 }
            period = next
            if at.dayNumber - (last ?? start).dayNumber > Self.givingUpDays || emptyPeriods > emptyLimit {
                (finished, gaveUpAfterYears) = (true, min(400, max(1, (at.dayNumber - start.dayNumber) / 365)))
            }
        } else {
            emptyPeriods += 1
            if emptyPeriods > emptyLimit { (finished, gaveUpAfterYears) = (true, 400) }
        }
    }

    /// 400 years of days (one Gregorian cycle): a rule with no instance that long has none to come.
    private static let givingUpDays = 146_097

    private var isSubDaily: Bool { [.hourly, .minutely, .secondly].contains(rule.frequency) }

    /// The length of a period of a sub-daily rule, in seconds.
    private var unitSeconds: Int64 {
        rule.frequency == .hourly ? 3600 : rule.frequency == .minutely ? 60 : 1
    }

    /// `index` periods of `interval` units each; nil when that overflows (the rule is then far past year 9999).
    private func steps(_ index: Int) -> Int? {
        let (product, overflow) = index.multipliedReportingOverflow(by: interval)
        return overflow ? nil : product
    }

    /// Where a sub-daily period begins; nil past what a wall clock can hold.
    private func moment(_ index: Int) -> LocalDateTime? {
        guard let steps = steps(index) else { return nil }
        let (offset, overflow) = Int64(steps).multipliedReportingOverflow(by: unitSeconds)
        guard !overflow, abs(offset) < 1 << 50 else { return nil }
        return start.adding(seconds: offset)
    }

    /// The first period after `index` that can hold an instance, given that `index` held none: the next day
    /// that passes the day-level parts, else the next BYHOUR hour, BYMINUTE minute or BYSECOND second.
    private func nextPossiblePeriod(after index: Int) -> Int? {
        guard let at = moment(index) else { return nil }
        let dayStart = LocalDateTime(year: at.year, month: at.month, day: at.day)
        let hourStart = dayStart.adding(seconds: Int64(at.hour) * 3600)
        let minuteStart = hourStart.adding(seconds: Int64(at.minute) * 60)
        let target: LocalDateTime
        if !matchesDay(at.dayNumber, year: nil, inYearly: false) {
            var day = at.dayNumber + 1
            let end = day + Self.givingUpDays
            while day < end, !matchesDay(day, year: nil, inYearly: false) { day += 1 }
            target = LocalDateTime(wallSeconds: Int64(day) * 86_400)
        } else if !rule.byHour.isEmpty, !rule.byHour.contains(at.hour) {
            target =
                filterHours.first { $0 > at.hour }.map { dayStart.adding(seconds: Int64($0) * 3600) }
                ?? dayStart.adding(days: 1)
        } else if rule.frequency != .hourly, !rule.byMinute.isEmpty, !rule.byMinute.contains(at.minute) {
            target =
                filterMinutes.first { $0 > at.minute }.map { hourStart.adding(seconds: Int64($0) * 60) }
                ?? hourStart.adding(seconds: 3600)
        } else if rule.frequency == .secondly, !rule.bySecond.isEmpty, !rule.bySecond.contains(at.second) {
            target =
                filterSeconds.first { $0 > at.second }.map { minuteStart.adding(seconds: Int64($0)) }
                ?? minuteStart.adding(seconds: 60)
        } else {
            return index + 1
        }
        let step = Int64(interval) * unitSeconds
        let periods = (target.wallSeconds - start.wallSeconds + step - 1).floorDivided(by: step)
        return max(index + 1, Int(periods))
    }

    /// The year a period falls in (for the year-9999 stop); Int.max when its index overflows.
    private func periodYear(_ index: Int) -> Int {
        guard let steps = steps(index) else { return .max }
        switch rule.frequency {
        case .yearly: return steps > 1_000_000 ? .max : baseYear + steps
        case .monthly: return steps > 12_000_000 ? .max : start.year + (start.month - 1 + steps) / 12
        case .weekly: return steps > 52_000_000 ? .max : start.year + steps / 52
        case .daily: return steps > 366_000_000 ? .max : start.year + steps / 366
        case .hourly, .minutely, .secondly: return moment(index)?.year ?? .max
        }
    }

    // MARK: One period

    private func instancesOfPeriod(_ index: Int) -> [LocalDateTime] {
        let candidates: [LocalDateTime]
        switch rule.frequency {
        case .yearly, .monthly, .weekly, .daily:
            candidates = daysOfPeriod(index).flatMap { times($0) }  // `flatMap(times)` would copy the engine
        case .hourly, .minutely, .secondly:
            candidates = subDailyInstances(index)
        }
        return Self.bySetPos(Self.sortedUnique(candidates), rule.bySetPos)
    }

    private static func sortedUnique(_ values: [LocalDateTime]) -> [LocalDateTime] {
        guard values.count > 1 else { return values }
        var sorted = values.sorted()
        var write = 1
        for read in 1..<sorted.count where sorted[read] != sorted[write - 1] {
            sorted[write] = sorted[read]
            write += 1
        }
        sorted.removeLast(sorted.count - write)
        return sorted
    }

    private static func bySetPos(_ sorted: [LocalDateTime], _ positions: [Int]) -> [LocalDateTime] {
        guard !positions.isEmpty, !sorted.isEmpty else { return sorted }
        var picked: [LocalDateTime] = []
        for position in positions {
            let index = position > 0 ? position - 1 : sorted.count + position
            if sorted.indices.contains(index) { picked.append(sorted[index]) }
        }
        return Array(Set(picked)).sorted()
    }

    /// The days (day numbers) a YEARLY/MONTHLY/WEEKLY/DAILY period holds after every BYxxx part.
    private func daysOfPeriod(_ index: Int) -> [Int] {
        switch rule.frequency {
        case .yearly:
            let year = baseYear + index * interval
            if onlyMonthDays { return directDays(year: year, months: months.isEmpty ? Array(1...12) : months) }
            if onlyWeekdaysOfMonths, !months.isEmpty {
                return months.sorted().flatMap { month in
                    weekdaysOfMonth(
                        first: LocalDateTime.days(fromCivil: year, month, 1),
                        length: ValueSyntax.daysIn(month: month, year: year))
                }
            }
            let range = rule.byWeekNo.isEmpty ? Self.yearRange(year) : weekYearRange(year)
            let moved = (1...12).flatMap { skippedMonthDays(year, $0) } + skippedYearDays(year)
            return Array(Set(range.filter { matchesDay($0, year: year, inYearly: true) } + moved)).sorted()
        case .monthly:
            let monthIndex = start.month - 1 + index * interval
            let (year, month) = (start.year + monthIndex / 12, monthIndex % 12 + 1)
            if onlyMonthDays {
                return months.isEmpty || months.contains(month) ? directDays(year: year, months: [month]) : []
            }
            let first = LocalDateTime.days(fromCivil: year, month, 1)
            if onlyWeekdaysOfMonths {
                guard months.isEmpty || months.contains(month) else { return [] }
                return weekdaysOfMonth(first: first, length: ValueSyntax.daysIn(month: month, year: year))
            }
            let range = first..<(first + ValueSyntax.daysIn(month: month, year: year))
            let moved = skippedMonthDays(year, month)
            return Array(Set(range.filter { matchesDay($0, year: year, inYearly: false) } + moved)).sorted()
        case .weekly:
            let first = weekStartDay(start.dayNumber) + index * interval * 7
            return (first..<(first + 7)).filter { matchesDay($0, year: nil, inYearly: false) }
        default:
            let day = start.dayNumber + index * interval
            return matchesDay(day, year: nil, inYearly: false) ? [day] : []
        }
    }

    /// Rules whose days are just month days (yearly on a date, monthly on the 15th): no day needs testing.
    private var onlyMonthDays: Bool {
        days.isEmpty && rule.byYearDay.isEmpty && rule.byWeekNo.isEmpty && skip == .omit && !monthDays.isEmpty
    }

    /// Rules whose days are weekdays of months alone (monthly on the last Friday, yearly on March's second Sunday):
    /// BYDAY, with no BYMONTHDAY, BYYEARDAY or BYWEEKNO; the days are worked out per weekday (`weekdaysOfMonth`).
    private var onlyWeekdaysOfMonths: Bool {
        !days.isEmpty && monthDays.isEmpty && rule.byYearDay.isEmpty && rule.byWeekNo.isEmpty
    }

    /// The days of one month (its first day number and length) BYDAY picks, in order, ordinals counting within the
    /// month: what `matchesDay` accepts of that month when BYDAY is the only day part, without testing each day.
    private func weekdaysOfMonth(first: Int, length: Int) -> [Int] {
        let last = first + length - 1
        var result: [Int] = []
        for entry in days {
            let firstMatch = first + (entry.weekday - Self.weekday(first) + 7) % 7
            switch entry.ordinal {
            case nil:
                result += stride(from: firstMatch, through: last, by: 7)
            case let ordinal? where ordinal > 0:
                let day = firstMatch + (ordinal - 1) * 7
                if day <= last { result.append(day) }
            case let ordinal?:
                let lastMatch = last - (Self.weekday(last) - entry.weekday + 7) % 7
                let day = lastMatch + (ordinal + 1) * 7
                if day >= first { result.append(day) }
            }
        }
        return days.count > 1 ? Array(Set(result)).sorted() : result
    }

    /// The month days of the given months of a year, in order; days a month does not have are left out.
    private func directDays(year: Int, months: [Int]) -> [Int] {
        var result: [Int] = []
        for month in months.sorted() {
            let length = ValueSyntax.daysIn(month: month, year: year)
            let first = LocalDateTime.days(fromCivil: year, month, 1)
            for day in monthDays {
                let dayOfMonth = day > 0 ? day : length + day + 1
                if (1...length).contains(dayOfMonth) { result.append(first + dayOfMonth - 1) }
            }
        }
        return result.count > 1 ? Array(Set(result)).sorted() : result
    }

    /// Whether a day passes every day-level part: BYMONTH, BYWEEKNO, BYYEARDAY, BYMONTHDAY, BYDAY.
    private func matchesDay(_ day: Int, year periodYear: Int?, inYearly: Bool) -> Bool {
        let (year, month, dayOfMonth) = LocalDateTime.civil(fromDays: day)
        if !months.isEmpty, !months.contains(month) { return false }
        if !rule.byWeekNo.isEmpty {
            let weekYear = periodYear ?? year
            let firstWeek = weekYearStart(weekYear)
            let weeks = (weekYearStart(weekYear + 1) - firstWeek) / 7
            let week = (day - firstWeek) / 7 + 1
            guard day >= firstWeek, week <= weeks,
                rule.byWeekNo.contains(where: { $0 == week || $0 == week - weeks - 1 })
            else { return false }
        }
        if !rule.byYearDay.isEmpty {
            let jan1 = LocalDateTime.days(fromCivil: year, 1, 1)
            let length = LocalDateTime.days(fromCivil: year + 1, 1, 1) - jan1
            let yearDay = day - jan1 + 1
            guard rule.byYearDay.contains(where: { $0 == yearDay || $0 == yearDay - length - 1 }) else { return false }
        }
        if !monthDays.isEmpty {
            let length = ValueSyntax.daysIn(month: month, year: year)
            guard monthDays.contains(where: { $0 == dayOfMonth || $0 == dayOfMonth - length - 1 }) else { return false }
        }
        if !days.isEmpty {
            let weekday = Self.weekday(day)
            // Ordinals count within the month for monthly rules and yearly rules with BYMONTH, else the year.
            let inMonth = rule.frequency == .monthly || (inYearly && !months.isEmpty)
            let useOrdinals = (rule.frequency == .monthly || rule.frequency == .yearly) && rule.byWeekNo.isEmpty
            let first =
                inMonth ? LocalDateTime.days(fromCivil: year, month, 1) : LocalDateTime.days(fromCivil: year, 1, 1)
            let last =
                inMonth
                ? first + ValueSyntax.daysIn(month: month, year: year) - 1
                : LocalDateTime.days(fromCivil: year + 1, 1, 1) - 1
            let matched = days.contains { entry in
                guard entry.weekday == weekday else { return false }
                guard let ordinal = entry.ordinal, useOrdinals else { return true }
                return ordinal > 0 ? (day - first) / 7 + 1 == ordinal : -((last - day) / 7 + 1) == ordinal
            }
            if !matched { return false }
        }
        return true
    }

    /// RFC 7529: with SKIP=BACKWARD or FORWARD a day that does not exist (the 31st of a 30-day month, day 366 of a
    /// common year) moves to the day before or after the gap instead of being left out.
    private func skippedMonthDays(_ year: Int, _ month: Int) -> [Int] {
        guard skip != .omit, rule.byDay.isEmpty, rule.byYearDay.isEmpty, rule.byWeekNo.isEmpty,
            months.isEmpty || months.contains(month)
        else { return [] }
        let length = ValueSyntax.daysIn(month: month, year: year)
        let first = LocalDateTime.days(fromCivil: year, month, 1)
        return monthDays.filter { abs($0) > length }.map { day in
            // Past the end: the gap is after the last day; before the start (negative): before the first.
            let gapAfter = day > 0 ? first + length - 1 : first - 1
            return skip == .backward ? gapAfter : gapAfter + 1
        }
    }

    private func skippedYearDays(_ year: Int) -> [Int] {
        guard skip != .omit, rule.byWeekNo.isEmpty else { return [] }
        let jan1 = LocalDateTime.days(fromCivil: year, 1, 1)
        let length = LocalDateTime.days(fromCivil: year + 1, 1, 1) - jan1
        return rule.byYearDay.filter { abs($0) > length }.map { day in
            let gapAfter = day > 0 ? jan1 + length - 1 : jan1 - 1
            return skip == .backward ? gapAfter : gapAfter + 1
        }
    }

    /// Each day at every BYHOUR × BYMINUTE × BYSECOND time.
    private func times(_ day: Int) -> [LocalDateTime] {
        let (year, month, dayOfMonth) = LocalDateTime.civil(fromDays: day)
        var result: [LocalDateTime] = []
        for hour in hours where (0...23).contains(hour) {
            for minute in minutes where (0...59).contains(minute) {
                for second in seconds where (0...60).contains(second) {
                    result.append(
                        LocalDateTime(
                            year: year, month: month, day: dayOfMonth, hour: hour, minute: minute,
                            second: second))
                }
            }
        }
        return result
    }

    /// HOURLY / MINUTELY / SECONDLY: the period's own hour, minute or second, limited by every coarser part.
    private func subDailyInstances(_ index: Int) -> [LocalDateTime] {
        guard let moment = moment(index), matchesDay(moment.dayNumber, year: nil, inYearly: false) else { return [] }
        if !rule.byHour.isEmpty, !rule.byHour.contains(moment.hour) { return [] }
        if rule.frequency != .hourly, !rule.byMinute.isEmpty, !rule.byMinute.contains(moment.minute) { return [] }
        if rule.frequency == .secondly, !rule.bySecond.isEmpty, !rule.bySecond.contains(moment.second) { return [] }
        let minuteList = rule.frequency == .hourly ? (minutes.isEmpty ? [moment.minute] : minutes) : [moment.minute]
        let secondList = rule.frequency == .secondly ? [moment.second] : (seconds.isEmpty ? [moment.second] : seconds)
        return minuteList.flatMap { minute in
            secondList.map { second in
                LocalDateTime(
                    year: moment.year, month: moment.month, day: moment.day, hour: moment.hour,
                    minute: minute, second: second)
            }
        }
    }
}
