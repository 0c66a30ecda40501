/// Changing a calendar's items where they stand: what an app does after reading a file, before writing it back.
/// Items the change leaves alone are written back line for line, as read.
extension ICalendar {
    /// Changes every event in place:
    /// `calendar.updateEvents { if $0.summary == "Standup" { $0.location = "Room 4" } }`.
    public mutating func updateEvents(_ change: (inout Event) throws -> Void) rethrows {
        for index in components.indices {
            guard case .event(var event) = components[index] else { continue }
            try change(&event)
            components[index] = .event(event)
        }
    }

    /// Changes every todo in place: `calendar.updateTodos { if $0.summary == "Report" { $0.markCompleted() } }`.
    public mutating func updateTodos(_ change: (inout Todo) throws -> Void) rethrows {
        for index in components.indices {
            guard case .todo(var todo) = components[index] else { continue }
            try change(&todo)
            components[index] = .todo(todo)
        }
    }

    /// The event, todo or journal with this UID — its series (no `recurrenceID`) or the override of one instance
    /// (`RECURRENCE-ID` as written, `20260105T090000Z`) — to read or replace in place; setting nil removes it.
    public subscript(uid uid: String, recurrenceID recurrenceID: String = "") -> CalendarComponent? {
        get { itemIndex(uid: uid, recurrenceID: recurrenceID).map { components[$0] } }
        set {
            let index = itemIndex(uid: uid, recurrenceID: recurrenceID)
            switch (index, newValue) {
            case (let index?, let item?): components[index] = item
            case (let index?, nil): components.remove(at: index)
            case (nil, let item?): components.append(item)
            case (nil, nil): break
            }
        }
    }

    private func itemIndex(uid: String, recurrenceID: String) -> Int? {
        components.firstIndex { component in
            guard let core = component.core, core.uid == uid else { return false }
            return (core.recurrenceID?.date.icsValue ?? "") == recurrenceID
        }
    }
}
