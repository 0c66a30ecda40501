/// Walks one RRULE through libical, in wall-clock time, with UNTIL applied here: libical compares UNTIL with
/// instances as written, while RFC 5545 compares instants (a UTC UNTIL against a zoned DTSTART).
struct RuleCursor {
    /// Gregorian rules are walked by ICSKit's engine; other calendar scales by libical (with ICU).
    private enum Walker {
        case engine(RecurrenceEngine)
        case libical(LibicalRecurrenceIterator)
    }

    private var walker: Walker
    private let isDate: Bool
    private let pastUntil: (LocalDateTime) -> Bool
    private(set) var finished = false

    /// `pastUntil` says whether a wall-clock instance lies after the rule's UNTIL; nil when the rule is rejected.
    init?(_ rule: RecurrenceRule, start: LocalDateTime, isDate: Bool, pastUntil: @escaping (LocalDateTime) -> Bool) {
        var unbounded = rule
        unbounded.until = nil
        if let engine = RecurrenceEngine(unbounded, start: start, isDate: isDate) {
            walker = .engine(engine)
        } else if unbounded.otherParts.contains(where: { $0.name == "RSCALE" && $0.value.uppercased() != "GREGORIAN" }),
                  let iterator = LibicalRecurrenceIterator(rule: unbounded.icsValue, start: start, isDate: isDate) {
            walker = .libical(iterator)  // another calendar scale: libical with ICU
        } else {
            return nil
        }
        self.isDate = isDate
        self.pastUntil = pastUntil
    }

    /// Moves near the first instance at or after `wall`, where the rule allows it (not with COUNT).
    mutating func skip(to wall: LocalDateTime) -> Bool {
        switch walker {
        case .engine(var engine):
            let moved = engine.skip(to: wall)
            walker = .engine(engine)
            return moved
        case .libical(let iterator): return iterator.skip(to: wall, isDate: isDate)
        }
    }

    mutating func next() -> LocalDateTime? {
        guard !finished else { return nil }
        let instance: LocalDateTime?
        switch walker {
        case .engine(var engine):
            instance = engine.next()
            walker = .engine(engine)
        case .libical(let iterator): instance = iterator.next()
        }
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
        guard var cursor = RuleCursor(self, start: startWall, isDate: start.isDate, pastUntil: { wall in
            guard let until else { return false }
            return start.isDate ? wall.dayNumber > LocalDateTime(until).dayNumber : wall > LocalDateTime(until)
        }) else {
            return .failure(ValueError("\"\(icsValue)\" is a rule libical cannot expand"))
        }
        var result: [CalendarDate] = []
        while result.count < limit, let wall = cursor.next() {
            result.append(wall.calendarDate(start.form))
        }
        return .success(result)
    }
}
