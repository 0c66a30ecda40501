import Foundation

extension Alarm {
    /// When a relative trigger goes off for an instance [start, end): from the start, or from the end with
    /// RELATED=END or `fromEnd` (a todo without DTSTART counts from its due time). Nil for an absolute trigger or
    /// none. `remind`, `agenda --details` and `show` all place alarms through this.
    package func relativeFiring(start: Date, end: Date, fromEnd: Bool = false) -> Date? {
        guard case .relative(let offset, let relatedToEnd) = trigger else { return nil }
        return (relatedToEnd || fromEnd ? end : start).addingTimeInterval(TimeInterval(offset.totalSeconds))
    }
}

extension Occurrence {
    /// One time an alarm of an instance goes off.
    package struct AlarmFiring: Sendable, Hashable {
        /// The alarm's place among the item's alarms.
        package var index: Int
        /// The alarm.
        package var alarm: Alarm
        /// When it goes off.
        package var fires: Date
        /// Whether its trigger is a time (one for the whole series) rather than an offset from the instance.
        package var isAbsolute: Bool
    }

    /// Every time this instance's alarms go off, each REPEAT included (at most 100 repeats): relative triggers
    /// from its start, or its end (RELATED=END; a todo's due time, from which a todo without DTSTART counts);
    /// absolute triggers placed by `time`.
    package func alarmFirings(time: CalendarTime) -> [AlarmFiring] {
        let alarms: [Alarm]
        var relatedToDue = false
        var end = endDate
        switch item {
        case .event(let event):
            alarms = event.alarms
        case .todo(let todo):
            alarms = todo.alarms
            relatedToDue = todo.core.start == nil
            if let due = todo.due { end = time.date(of: due) }
        case .journal:
            return []
        }
        var firings: [AlarmFiring] = []
        for (index, alarm) in alarms.enumerated() {
            let first: Date
            var isAbsolute = false
            if let relative = alarm.relativeFiring(start: startDate, end: end, fromEnd: relatedToDue) {
                first = relative
            } else if case .absolute(let value) = alarm.trigger {
                first = time.date(of: value)
                isAbsolute = true
            } else {
                continue
            }
            let step = TimeInterval(alarm.duration?.totalSeconds ?? 0)
            let repeats = step > 0 ? min(max(alarm.repeatCount ?? 0, 0), 100) : 0
            for count in 0...repeats {
                firings.append(
                    AlarmFiring(
                        index: index, alarm: alarm, fires: first.addingTimeInterval(step * TimeInterval(count)),
                        isAbsolute: isAbsolute))
            }
        }
        return firings
    }
}
