extension CalendarComponent {
    /// One instance of this series as an item, the one way every path makes one (an override for "this event
    /// only", an answer's or a CANCEL's instance, a completed todo's copy, an export of each instance): the series'
    /// properties without RRULE, RDATE, EXDATE or EXRULE (nor the mark of a todo that repeats from completion);
    /// `start` where the series has a start (a todo without DTSTART takes it as its DUE); `end` as an event's DTEND
    /// or a todo's DUE after a DTSTART, where the series has one (a DURATION stays as it is); and `recurrenceID`:
    /// an override of that instance, or nil for an item of its own (its UID is then the caller's to change).
    package func instance(start: CalendarDate, end: CalendarDate?, recurrenceID: RecurrenceID?) -> CalendarComponent {
        guard var core = self.core else { return self }
        core.recurrenceRules = []
        core.recurrenceDates = []
        core.exceptionDates = []
        core.recurrenceID = recurrenceID
        switch self {
        case .event(var event):
            core.start = start
            event.core = core
            if event.end != nil { event.end = end }
            return .event(event)
        case .todo(var todo):
            if core.start != nil {
                core.start = start
                if todo.due != nil { todo.due = end }
            } else {
                todo.due = start
            }
            todo.core = core
            todo.otherProperties.removeAll { $0.name == TodoSeries.repeatFromProperty || $0.name == "EXRULE" }
            return .todo(todo)
        case .journal(var journal):
            core.start = start
            journal.core = core
            return .journal(journal)
        case .timeZone, .other: return self
        }
    }
}
