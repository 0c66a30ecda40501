import CalendarModel
import Foundation

/// The planner's own properties: how long a slot is, and how long a time log took (ICSKit's `icskit log` writes
/// the same property, so the logs of both travel).
enum PlannerProperty {
    static let slotLength = "X-PLANNER-SLOT-LENGTH"
    static let logDuration = "X-ICSKIT-DURATION"
}

extension Event {
    /// One instance of a calendar event.
    init(_ occurrence: Occurrence) {
        self.init(
            title: occurrence.summary ?? "", interval: occurrence.interval, isAllDay: occurrence.isAllDay,
            timeZone: occurrence.start.zone?.identifier)
    }
}

extension Task {
    /// The tasks of some calendars: each VTODO with its subtasks (RELATED-TO;RELTYPE=PARENT) and the time logs
    /// (VJOURNALs related to it), top-level tasks first as the file has them.
    static func tasks(in calendars: [ICalendar], week: PlannerWeek) -> [Task] {
        let todos = calendars.flatMap(\.todos)
        let journals = calendars.flatMap(\.journals)
        let ids = Set(todos.compactMap(\.uid))
        func parent(_ relations: [Relation]) -> String? { relations.first { $0.type == "PARENT" }?.uid }
        func task(_ todo: Todo) -> Task {
            let id = todo.uid ?? UUID().uuidString
            return Task(
                id: id, title: todo.summary ?? "", notes: todo.description, due: todo.due?.date(in: week.zone),
                isDueAllDay: todo.due?.isDate ?? false,
                slot: todo.start.flatMap { slot(at: $0, of: todo, in: week.zone) },
                doneAt: todo.isCompleted ? todo.completed?.date(in: week.zone) ?? todo.lastModified?.date() : nil,
                label: todo.categories.first.map { Label(name: $0.name, color: $0.color) },
                subtasks: todos.filter { parent($0.relatedTo) == id }.map(task),
                timeLogs: journals.filter { parent($0.relatedTo) == id }.compactMap(timeLog))
        }
        return todos.filter { parent($0.relatedTo).map { !ids.contains($0) } ?? true }.map(task)
    }

    private static func slot(at start: CalendarDate, of todo: Todo, in zone: CalendarZone) -> Slot? {
        guard !start.isDate, let date = start.date(in: zone) else { return nil }
        let wall = CalendarDate(date, in: zone)
        let length = todo.otherProperties.first { $0.name == PlannerProperty.slotLength }
            .flatMap { try? CalendarDuration.parse($0.value).get() }
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = zone.timeZone
        let weekday = Weekday.allCases[calendar.component(.weekday, from: date) - 1]
        return Slot(
            weekday: weekday, hour: wall.hour, minute: wall.minute, minutes: (length?.totalSeconds ?? 3600) / 60)
    }

    private static func timeLog(_ journal: Journal) -> TimeLog? {
        guard let start = journal.start?.date(in: .utc),
            let length = journal.otherProperties.first(where: { $0.name == PlannerProperty.logDuration }),
            let duration = try? CalendarDuration.parse(length.value).get()
        else { return nil }
        return TimeLog(start: start, minutes: duration.totalSeconds / 60)
    }

    /// The task as iCalendar: a VTODO (its slot as DTSTART, a reminder 30 minutes before it is due), then its
    /// time logs as VJOURNALs and its subtasks, each related to it.
    func components(in week: PlannerWeek, parent: String? = nil, now: Date = Date()) -> [CalendarComponent] {
        let deadline = due.map {
            isDueAllDay ? CalendarDate.day(of: $0, in: week.zone) : CalendarDate($0, in: week.zone)
        }
        var todo = Todo(summary: title, due: deadline, uid: id, now: now)
        todo.description = notes
        if let slot {
            todo.start = CalendarDate(week.start(of: slot), in: week.zone)
            todo.otherProperties = [
                Property(PlannerProperty.slotLength, value: CalendarDuration(minutes: slot.minutes).icsValue)
            ]
        }
        if let label { todo.categories = [Category(label.name, color: label.color)] }
        if let parent { todo.relatedTo = [Relation(uid: parent, type: "PARENT")] }
        if due != nil, doneAt == nil {
            var reminder = Alarm(displaying: title, before: CalendarDuration(minutes: 30))
            reminder.trigger = .relative(CalendarDuration(isNegative: true, minutes: 30), relatedToEnd: true)  // DUE
            todo.alarms = [reminder]
        }
        if let doneAt { todo.markCompleted(at: doneAt) }
        let logs = timeLogs.enumerated().map { index, log -> CalendarComponent in
            var journal = Journal(
                summary: "Time on: \(title)", date: CalendarDate(log.start, in: .utc), uid: "\(id)-log-\(index)",
                now: now)
            journal.relatedTo = [Relation(uid: id, type: "PARENT")]
            journal.otherProperties = [
                Property(PlannerProperty.logDuration, value: CalendarDuration(minutes: log.minutes).icsValue)
            ]
            return .journal(journal)
        }
        return [.todo(todo)] + logs + subtasks.flatMap { $0.components(in: week, parent: id, now: now) }
    }
}
