import Foundation

/// One time an alarm goes off: for an instance of an item (a relative trigger), or for the item (an absolute one).
///
/// ```swift
/// for time in calendar.alarmTimes(from: today.start, to: today.end, zone: berlin) {
///     print(time.fires, time.alarm.description ?? "", time.uid ?? "")
/// }
/// ```
public struct AlarmTime: Sendable, Hashable {
    /// The alarm.
    public var alarm: Alarm
    /// The alarm's place among its item's alarms.
    public var index: Int
    /// When it goes off.
    public var fires: Date
    /// 0 for the trigger itself, 1… for its REPEATs, DURATION apart.
    public var repetition: Int
    /// Whether its trigger is a time (the same for every instance) rather than an offset from the instance.
    public var isAbsolute: Bool
    /// The item's UID.
    public var uid: String?
    /// The instance's RECURRENCE-ID (its place in the series' rules), nil for an item that does not repeat.
    public var recurrenceID: CalendarDate?
}

extension Alarm {
    /// When a relative trigger goes off for an instance [start, end) at exact offsets (a day counted as 86,400 s):
    /// for listings that show an offset beside its instance. `ICalendar.alarmTimes` counts days by the clock.
    package func relativeFiring(start: Date, end: Date, fromEnd: Bool = false) -> Date? {
        guard case .relative(let offset, let relatedToEnd) = trigger else { return nil }
        return (relatedToEnd || fromEnd ? end : start).addingTimeInterval(TimeInterval(offset.totalSeconds))
    }

    /// The time RFC 9074's ACKNOWLEDGED says the alarm was last dismissed: firings at or before it are done.
    var acknowledged: CalendarDate? {
        guard let value = otherProperties.first(where: { $0.name == "ACKNOWLEDGED" })?.value,
            case .success(let date) = CalendarDate.parse(value, tzid: nil)
        else { return nil }
        return date
    }
}

extension ICalendar {
    /// Every time an alarm goes off between `from` (inclusive) and `to` (exclusive), in time order: each instance's
    /// relative triggers (before or after its start, or its end with RELATED=END; a todo without DTSTART counts from
    /// its DUE), absolute triggers once for their item, each REPEAT (at most 100), days counted on the clock of the
    /// instance's zone (a "1 day before" alarm of a 09:00 meeting goes off at 09:00 the day before, across a clock
    /// change too). A firing at or before the alarm's ACKNOWLEDGED (RFC 9074) is done and left out, unless
    /// `includingAcknowledged`; a snooze (a VALARM `RELATED-TO;RELTYPE=SNOOZE`, with its own trigger) is an alarm
    /// like any other. Floating times and dates are placed in `zone`. Cancelled events and completed todos keep their
    /// alarms: filter on the item if they should not ring.
    public func alarmTimes(
        from: Date, to: Date, zone: CalendarZone = .current, includingAcknowledged: Bool = false
    ) -> [AlarmTime] {
        var options = ExpansionOptions()
        options.components = [.event, .todo]
        options.viewerZone = zone
        // Instances whose alarms can reach the window: as far either side as the furthest trigger and its repeats.
        let reach = TimeInterval(alarmReach() + 2 * 86_400)
        let expansion = occurrences(from: from - reach, to: to + reach, options: options)
        let time = CalendarTime(calendar: self, viewerZone: zone.identifier)
        var seen = Set<AlarmTime>()
        var found: [AlarmTime] = []
        for occurrence in expansion.occurrences {
            for firing in occurrence.alarmFirings(time: time, includingAcknowledged: includingAcknowledged)
            where firing.fires >= from && firing.fires < to {
                var key = firing
                if key.isAbsolute { key.recurrenceID = nil }  // once for the item, not once per instance
                if seen.insert(key).inserted { found.append(key) }
            }
        }
        return found.sorted { ($0.fires, $0.uid ?? "", $0.index) < ($1.fires, $1.uid ?? "", $1.index) }
    }

    /// The alarm times of one instance (from `occurrences`), in time order: the rules of `alarmTimes(from:to:)`.
    public func alarmTimes(
        of occurrence: Occurrence, zone: CalendarZone = .current, includingAcknowledged: Bool = false
    )
        -> [AlarmTime]
    {
        occurrence.alarmFirings(
            time: CalendarTime(calendar: self, viewerZone: zone.identifier),
            includingAcknowledged: includingAcknowledged
        ).sorted { ($0.fires, $0.index) < ($1.fires, $1.index) }
    }

    /// The longest reach of any relative trigger, its repeats included, in seconds (nominal days as 25 hours).
    private func alarmReach() -> Int {
        var reach = 0
        for component in components {
            let alarms: [Alarm]
            switch component {
            case .event(let event): alarms = event.alarms
            case .todo(let todo): alarms = todo.alarms
            default: continue
            }
            for alarm in alarms {
                guard case .relative(let offset, _) = alarm.trigger else { continue }
                let (days, seconds) = offset.nominalParts
                let repeats = min(max(alarm.repeatCount ?? 0, 0), 100) * abs(alarm.duration?.totalSeconds ?? 0)
                reach = max(reach, abs(days) * 90_000 + abs(seconds) + repeats)
            }
        }
        return min(reach, 400 * 86_400)
    }
}

extension Occurrence {
    /// Every time this instance's alarms go off, each REPEAT included (at most 100 repeats): relative triggers
    /// from its start, or its end (RELATED=END; a todo's due time, from which a todo without DTSTART counts), days
    /// on the clock of the value they count from; absolute triggers placed by `time`. Firings at or before an alarm's
    /// ACKNOWLEDGED are left out unless `includingAcknowledged`.
    package func alarmFirings(time: CalendarTime, includingAcknowledged: Bool = true) -> [AlarmTime] {
        let alarms: [Alarm]
        var relatedToDue = false
        var (end, endValue) = (endDate, self.end)
        switch item {
        case .event(let event):
            alarms = event.alarms
        case .todo(let todo):
            alarms = todo.alarms
            relatedToDue = todo.core.start == nil
            if let due = todo.due { (end, endValue) = (time.date(of: due), due) }
        case .journal:
            return []
        }
        var firings: [AlarmTime] = []
        for (index, alarm) in alarms.enumerated() {
            let first: Date
            var isAbsolute = false
            switch alarm.trigger {
            case .relative(let offset, let relatedToEnd):
                let fromEnd = relatedToEnd || relatedToDue
                first = Self.moved(fromEnd ? end : startDate, value: fromEnd ? endValue : start, by: offset, time: time)
            case .absolute(let value):
                first = time.date(of: value)
                isAbsolute = true
            case nil:
                continue
            }
            let acknowledged = includingAcknowledged ? nil : alarm.acknowledged.map(time.date(of:))
            let step = TimeInterval(alarm.duration?.totalSeconds ?? 0)
            let repeats = step > 0 ? min(max(alarm.repeatCount ?? 0, 0), 100) : 0
            for count in 0...repeats {
                let fires = first.addingTimeInterval(step * TimeInterval(count))
                if let acknowledged, fires <= acknowledged { continue }
                firings.append(
                    AlarmTime(
                        alarm: alarm, index: index, fires: fires, repetition: count, isAbsolute: isAbsolute, uid: uid,
                        recurrenceID: recurrenceID))
            }
        }
        return firings
    }

    /// `instant` (the placement of `value`) moved by `offset`: its days on `value`'s own clock, then its time exact.
    private static func moved(_ instant: Date, value: CalendarDate, by offset: CalendarDuration, time: CalendarTime)
        -> Date
    {
        let (days, seconds) = offset.nominalParts
        guard days != 0 else { return instant.addingTimeInterval(TimeInterval(seconds)) }
        let shifted = time.date(of: LocalDateTime(value).adding(days: days).calendarDate(value.form))
        return shifted.addingTimeInterval(TimeInterval(seconds))
    }
}
