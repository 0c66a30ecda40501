import Foundation

extension TodoSeries {
    /// Ticks off one occurrence. Of a series, its override says so (made from the master when it has none: the
    /// occurrence's times, RECURRENCE-ID in the master's form, no rules of its own) and the series stays open; a
    /// series that repeats from completion is moved instead (`TodoSeries`). A todo that does not repeat is completed.
    /// Returns the UID of the completed copy a series that repeats from completion leaves; nil otherwise.
    @discardableResult
    public mutating func complete(_ occurrence: TodoOccurrence, at date: Date = Date(), zone: CalendarZone = .current)
        -> String?
    {
        guard isRecurring, let id = occurrence.recurrenceID else {
            changeMaster { $0.markCompleted(at: date) }
            return nil
        }
        if repeatsFromCompletion { return moveFromCompletion(occurrence, at: date, zone: zone) }
        changeOverride(of: occurrence, id: id) { $0.markCompleted(at: date) }
        return nil
    }

    /// Takes the ticking off of one occurrence back: its override is open again (STATUS:NEEDS-ACTION, no COMPLETED,
    /// PERCENT-COMPLETE gone). Of a series that repeats from completion, the latest completed copy goes and the
    /// series moves back to its times. A todo that does not repeat is open again.
    public mutating func reopen(_ occurrence: TodoOccurrence) {
        guard isRecurring, let id = occurrence.recurrenceID else { return changeMaster(Self.markOpen) }
        if repeatsFromCompletion { return moveBack() }
        guard components.contains(where: { $0.core?.recurrenceID.map { $0.date == id } ?? false }) else { return }
        changeOverride(of: occurrence, id: id, Self.markOpen)
    }

    /// Completes the whole series (every occurrence): its master is completed, as `done --series` does.
    public mutating func completeSeries(at date: Date = Date()) { changeMaster { $0.markCompleted(at: date) } }

    /// Opens the whole series again: its master, and every override, no longer completed.
    public mutating func reopenSeries() {
        for index in components.indices where components[index].core?.uid == uid {
            guard case .todo(var todo) = components[index], todo.isCompleted else { continue }
            Self.markOpen(&todo)
            components[index] = .todo(todo)
        }
    }

    /// The latest occurrence ticked off (by COMPLETED time, else by its instant): what `undone` takes back.
    public func lastCompleted(zone: CalendarZone) -> TodoOccurrence? {
        let time = CalendarTime(calendar: ICalendar(), viewerZone: zone.identifier)
        let done = components.compactMap { component -> Todo? in
            guard case .todo(let todo) = component, todo.core.uid == uid, todo.core.recurrenceID != nil,
                todo.isCompleted
            else { return nil }
            return todo
        }
        guard
            let latest = done.max(by: { a, b in
                (a.completed.map(time.date(of:)) ?? .distantPast, a.core.recurrenceID!.date.icsValue)
                    < (b.completed.map(time.date(of:)) ?? .distantPast, b.core.recurrenceID!.date.icsValue)
            }), let id = latest.core.recurrenceID?.date
        else { return nil }
        return occurrence(at: id, zone: zone)
    }

    // MARK: Changes

    private static func markOpen(_ todo: inout Todo) {
        todo.core.status = .needsAction
        todo.completed = nil
        todo.percentComplete = nil
        todo.core.recordEdit()
    }

    private mutating func changeMaster(_ change: (inout Todo) -> Void) {
        guard case .todo(var todo)? = components.first else { return }
        change(&todo)
        components[0] = .todo(todo)
    }

    /// Changes the override of the occurrence at `id`, made from the master first when there is none.
    private mutating func changeOverride(
        of occurrence: TodoOccurrence, id: CalendarDate, _ change: (inout Todo) -> Void
    ) {
        if let index = components.firstIndex(where: { $0.core?.recurrenceID.map { $0.date == id } ?? false }),
            case .todo(var todo) = components[index]
        {
            change(&todo)
            components[index] = .todo(todo)
            return
        }
        guard let master, let start = occurrence.start ?? occurrence.due,
            case .todo(var todo) = CalendarComponent.todo(master).instance(
                start: start, end: occurrence.due, recurrenceID: RecurrenceID(id))
        else { return }
        todo.core.created = nil
        todo.core.stamp = .utc(Date())
        change(&todo)
        components.append(.todo(todo))
    }

    /// A series that repeats from completion: a completed copy of the occurrence under a UID of its own, and the
    /// master's DTSTART and DUE moved to the rule's next step from the day it was completed (in the start's zone),
    /// at the same time of day.
    private mutating func moveFromCompletion(_ occurrence: TodoOccurrence, at date: Date, zone: CalendarZone) -> String?
    {
        guard var todo = master, let anchor = todo.core.start ?? todo.due,
            let rule = todo.core.recurrenceRules.first
        else { return nil }
        guard
            case .todo(var copy) = CalendarComponent.todo(todo).instance(
                start: occurrence.start ?? occurrence.due ?? anchor, end: occurrence.due ?? todo.due, recurrenceID: nil)
        else { return nil }
        let copyUID = UUID().uuidString.lowercased() + "@icskit"
        copy.core.uid = copyUID
        copy.core.relatedTo.append(Relation(uid: uid, type: "SIBLING"))
        copy.markCompleted(at: date)
        // The rule's next step from the completion day, at the anchor's time of day, in the anchor's form.
        let zoneOfAnchor = anchor.tzid.flatMap { try? CalendarZone($0) } ?? zone
        let day = LocalDateTime(CalendarDate(date, in: zoneOfAnchor)).startOfDayValue
        let wall = anchor.isDate ? day : day.adding(seconds: LocalDateTime(anchor).wallSeconds % 86_400)
        var step = rule
        (step.count, step.until) = (nil, nil)
        guard case .success(let steps) = step.instances(from: wall.calendarDate(anchor.form), limit: 2),
            steps.count == 2
        else { return nil }
        let shift = LocalDateTime(steps[1]).wallSeconds - LocalDateTime(anchor).wallSeconds
        func moved(_ value: CalendarDate?) -> CalendarDate? {
            value.map { LocalDateTime($0).adding(seconds: shift).calendarDate($0.form) }
        }
        todo.core.start = moved(todo.core.start)
        todo.due = moved(todo.due)
        todo.core.recordEdit(at: date)
        components[0] = .todo(todo)
        components.append(.todo(copy))
        return copyUID
    }

    /// Takes back the latest move from completion: the latest completed copy (named as the series' sibling) goes, and
    /// the master's times become the copy's again.
    private mutating func moveBack() {
        let copies = components.indices.filter { index in
            components[index].core?.relatedTo.contains { $0.uid == uid && $0.type == "SIBLING" } ?? false
        }
        let time = CalendarTime(calendar: context, viewerZone: "UTC")
        // The latest done; of two done in one second, the later occurrence.
        func completed(_ index: Int) -> (Date, Date) {
            guard case .todo(let todo) = components[index] else { return (.distantPast, .distantPast) }
            return (
                todo.completed.map(time.date(of:)) ?? .distantPast,
                (todo.due ?? todo.core.start).map(time.date(of:)) ?? .distantPast
            )
        }
        guard let last = copies.max(by: { completed($0) < completed($1) }),
            case .todo(let copy) = components[last], var todo = master
        else { return }
        if let start = copy.core.start { todo.core.start = start }
        if let due = copy.due { todo.due = due }
        todo.core.recordEdit()
        components[0] = .todo(todo)
        if let gone = components[last].core?.uid { removedUIDs.append(gone) }
        components.remove(at: last)
    }
}

extension ICalendar {
    /// Puts a changed todo back in one step: the components of its UID, and of the completed copies it made or took
    /// back, replaced by the series' own, where the first of them stood.
    ///
    /// ```swift
    /// if var series = TodoSeries(calendar, uid: uid) {
    ///     series.completeSeries()
    ///     calendar.replace(series)
    /// }
    /// ```
    public mutating func replace(_ series: TodoSeries) {
        let uids = Set(series.components.compactMap { $0.core?.uid } + series.removedUIDs + [series.uid])
        let at = components.firstIndex { $0.core?.uid.map(uids.contains) ?? false } ?? components.count
        let before = components[..<at].filter { !($0.core?.uid.map(uids.contains) ?? false) }
        let after = components[at...].filter { !($0.core?.uid.map(uids.contains) ?? false) }
        components = before + series.components + after
    }
}
