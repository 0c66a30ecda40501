/// The rules an edit keeps, once for every program that edits items: an event keeps its length when it moves, and a
/// todo's reminder is counted from when it is due.
extension Event {
    /// Moves the event to `start`. With `keepingDuration` (the default) a DTEND moves by as much as the start, in the
    /// new start's form, so the event keeps its length (a DURATION keeps it by itself); without, the end stays put.
    public mutating func setStart(_ start: CalendarDate, keepingDuration: Bool = true) {
        if keepingDuration, let old = core.start, let end {
            let shift = LocalDateTime(start).wallSeconds - LocalDateTime(old).wallSeconds
            self.end = LocalDateTime(end).adding(seconds: shift).calendarDate(start.form)
        }
        core.start = start
    }
}

extension CalendarComponent {
    /// An event's or todo's reminders; empty for anything else, which setting leaves as it is.
    public var alarms: [Alarm] {
        get {
            switch self {
            case .event(let event): return event.alarms
            case .todo(let todo): return todo.alarms
            case .journal, .timeZone, .other: return []
            }
        }
        set {
            switch self {
            case .event(var event):
                event.alarms = newValue
                self = .event(event)
            case .todo(var todo):
                todo.alarms = newValue
                self = .todo(todo)
            case .journal, .timeZone, .other: break
            }
        }
    }

    /// A display reminder showing `text`, `offset` before the item (`-15m` and `15m` alike mean a quarter of an hour
    /// before): before a todo's DUE when it has one (TRIGGER;RELATED=END, which RFC 5545 §3.8.6.3 relates to a
    /// todo's due time), else before its start.
    public func reminder(displaying text: String, before offset: CalendarDuration) -> Alarm {
        var before = offset
        before.isNegative = false
        var alarm = Alarm(displaying: text, before: before)
        if case .todo(let todo) = self, todo.due != nil, case .relative(let trigger, _) = alarm.trigger {
            alarm.trigger = .relative(trigger, relatedToEnd: true)
        }
        return alarm
    }
}
