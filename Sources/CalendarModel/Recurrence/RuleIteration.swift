/// Walks one RRULE in wall-clock time (Gregorian rules through RecurrenceEngine, RSCALE ones through libical),
/// with UNTIL applied here: libical compares UNTIL with instances as written, while RFC 5545 compares instants (a
/// UTC UNTIL against a zoned DTSTART).
struct RuleCursor {
    /// Gregorian rules are walked by ICSKit's engine; other calendar scales by libical (with ICU). The engine is
    /// kept as an optional, not an enum payload, so stepping it mutates it in place instead of copying it.
    private var engine: RecurrenceEngine?
    private let iterator: LibicalRecurrenceIterator?
    private let isDate: Bool
    private let hasCount: Bool
    private let pastUntil: (LocalDateTime) -> Bool
    private(set) var finished = false

    /// `pastUntil` says whether a wall-clock instance lies after the rule's UNTIL; nil when the rule is rejected.
    init?(_ rule: RecurrenceRule, start: LocalDateTime, isDate: Bool, pastUntil: @escaping (LocalDateTime) -> Bool) {
        var unbounded = rule
        unbounded.until = nil
        engine = RecurrenceEngine(unbounded, start: start, isDate: isDate)
        // libical 3.0.16 loops forever in `icalrecur_iterator_new` on a non-Gregorian rule whose BYSETPOS asks for
        // more instances than a period holds (`RSCALE=CHINESE;FREQ=YEARLY;BYSETPOS=3`); such rules are refused.
        if engine == nil, rule.bySetPos.isEmpty, rule.isNonGregorian {
            iterator = LibicalRecurrenceIterator(rule: unbounded.icsValue, start: start, isDate: isDate)
        } else {
            iterator = nil
        }
        guard engine != nil || iterator != nil else { return nil }
        self.isDate = isDate
        hasCount = rule.count != nil
        self.pastUntil = pastUntil
    }

    /// How long the walk went without an instance before it gave up, when that (a limit, not the rule's own end)
    /// is why it stopped.
    var gaveUpAfterYears: Int? { engine?.gaveUpAfterYears }

    /// Moves near the first instance at or after `wall`, where the rule allows it (libical's walk: not with COUNT).
    mutating func skip(to wall: LocalDateTime) -> Bool {
        if engine != nil { return engine!.skip(to: wall) }
        return !hasCount && iterator?.skip(to: wall, isDate: isDate) ?? false
    }

    mutating func next() -> LocalDateTime? {
        guard !finished else { return nil }
        let instance = engine != nil ? engine!.next() : iterator?.next()
        guard let instance, !pastUntil(instance) else {
            finished = true
            return nil
        }
        return instance
    }
}

extension RecurrenceRule {
    /// The rule's instances from `start` in wall-clock time, COUNT and UNTIL honoured, at most `limit` of them.
    /// UNTIL is compared as written when `start` is floating or a date (as python-dateutil does).
    ///
    /// ```swift
    /// let rule = try RecurrenceRule.parse("FREQ=WEEKLY;COUNT=3").get()
    /// let dates = try rule.instances(from: CalendarDate(year: 2026, month: 1, day: 5)).get()
    /// ```
    public func instances(from start: CalendarDate, limit: Int = 10_000) -> Result<[CalendarDate], ValueError> {
        let until = self.until
        let startWall = LocalDateTime(start)
        guard
            var cursor = RuleCursor(
                self, start: startWall, isDate: start.isDate,
                pastUntil: { wall in
                    guard let until else { return false }
                    return start.isDate ? wall.dayNumber > LocalDateTime(until).dayNumber : wall > LocalDateTime(until)
                })
        else {
            return .failure(ValueError("\"\(icsValue)\" is a rule libical cannot expand"))
        }
        var result: [CalendarDate] = []
        while result.count < limit, let wall = cursor.next() {
            result.append(wall.calendarDate(start.form))
        }
        return .success(result)
    }
}
