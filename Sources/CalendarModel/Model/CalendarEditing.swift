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
    /// (its `RECURRENCE-ID`, `20260105T090000Z`: the same instant spelt in the series' zone or another names the
    /// same override) — to read or replace in place; setting nil removes it. Setting an override that is not there
    /// yet adds it only when the key names an instance of the series: a key that names none adds nothing
    /// (`editSeries(uid:instance:scope:zone:newUID:now:_:)` makes overrides, and says why it cannot).
    public subscript(uid uid: String, recurrenceID recurrenceID: String = "") -> CalendarComponent? {
        get { itemIndex(uid: uid, recurrenceID: recurrenceID).map { components[$0] } }
        set {
            let index = itemIndex(uid: uid, recurrenceID: recurrenceID)
            switch (index, newValue) {
            case (let index?, let item?): components[index] = item
            case (let index?, nil): components.remove(at: index)
            case (nil, let item?):
                guard recurrenceID.isEmpty || instanceKey(recurrenceID).map({ hasInstance(of: uid, at: $0) }) == true
                else { return }
                components.append(item)
            case (nil, nil): break
            }
        }
    }

    private func itemIndex(uid: String, recurrenceID: String) -> Int? {
        let written = components.firstIndex { component in
            guard let core = component.core, core.uid == uid else { return false }
            return (core.recurrenceID?.date.icsValue ?? "") == recurrenceID
        }
        guard written == nil, let key = instanceKey(recurrenceID) else { return written }
        // The same instant in another spelling (or, for a date, the same day).
        let time = CalendarTime(calendar: self, viewerZone: "UTC")
        let at = time.date(of: key)
        return components.firstIndex { component in
            guard let core = component.core, core.uid == uid, let id = core.recurrenceID?.date else { return false }
            if id.isDate || key.isDate { return LocalDateTime(id).dayNumber == LocalDateTime(key).dayNumber }
            return time.date(of: id) == at
        }
    }

    /// A RECURRENCE-ID key as a date: `20260105T090000Z`, `20260105T100000` (floating) or `20260105`.
    private func instanceKey(_ text: String) -> CalendarDate? {
        guard !text.isEmpty, case .success(let date) = CalendarDate.parse(text, tzid: nil) else { return nil }
        return date
    }
}
