import Foundation

/// A todo as a task list shows it: when it is due, whether it is late, and its subtasks.
package struct TodoEntry: Sendable {
    /// The todo.
    package var todo: Todo
    /// The calendar it is in.
    package var calendar: String
    /// DUE (for a recurring todo, that of its next instance), placed in time.
    package var due: Date?
    /// DUE as written.
    package var dueValue: CalendarDate?
    /// Whether DUE is floating (no zone, or a TZID nothing explains): shown as written, without an offset.
    package var dueIsFloating = false
    /// Open and due before now.
    package var isOverdue: Bool
    /// Todos whose RELATED-TO names this one as their parent (or that this one names as its children).
    package var children: [TodoEntry] = []
}

/// Which todos a list shows.
package enum TodoFilter: String, Sendable, CaseIterable {
    /// Not completed (the default).
    case open
    /// Open and due today.
    case today
    /// Open and due after today.
    case upcoming
    /// Completed (STATUS:COMPLETED or a COMPLETED time).
    case completed
    /// Open and due before now.
    case overdue
    /// Every todo, open or not.
    case all
}

/// Parts of the day a todo can be due in: morning 06–12, afternoon 12–18, evening 18–24.
package enum DaySlot: String, Sendable, CaseIterable {
    /// 06:00–12:00.
    case morning
    /// 12:00–18:00.
    case afternoon
    /// 18:00–24:00.
    case evening

    var hours: Range<Int> {
        switch self {
        case .morning: return 6..<12
        case .afternoon: return 12..<18
        case .evening: return 18..<24
        }
    }
}

/// Completion of the todos due in one day or one ISO week.
package struct CompletionStats: Sendable, Hashable {
    /// `2026-11-23`, or `2026-W48` for a week.
    package var period: String
    /// How many todos were due in the span.
    package var due: Int
    /// How many of those were completed.
    package var completed: Int
    /// completed / due (0 when nothing was due).
    package var rate: Double { due == 0 ? 0 : Double(completed) / Double(due) }
}

/// The todos of some calendars, by due date, with subtasks under their parents.
package struct TodoList {
    /// The todos, ordered by due date, each subtask after its parent.
    package private(set) var entries: [TodoEntry] = []
    private let zone: ZoneClock
    private let now: Date

    /// Reads the todos of each calendar; `name` is what a calendar is shown as.
    package init(calendars: [(calendar: ICalendar, name: String)], zone: ZoneClock, now: Date = Date()) {
        self.zone = zone
        self.now = now
        for (calendar, name) in calendars {
            let time = CalendarTime(calendar: calendar, viewerZone: zone.identifier)
            var options = ExpansionOptions()
            options.components = [.todo]
            options.viewerZoneName = zone.identifier
            let startOfToday = zone.date(of: zone.wallClock(at: now).startOfDayValue)
            for todo in calendar.todos where todo.recurrenceID == nil {
                var due: CalendarDate? = todo.due
                if todo.isRecurring,
                    let next = Self.nextInstance(
                        of: todo, in: calendar, after: startOfToday,
                        options: options)
                {
                    due = next
                }
                let dueDate: Date? = due.map { time.date(of: $0) }
                entries.append(
                    TodoEntry(
                        todo: todo, calendar: name, due: dueDate, dueValue: due,
                        dueIsFloating: due.map { time.isFloating($0) } ?? false,
                        isOverdue: !todo.isCompleted && dueDate.map { $0 < now } ?? false))
            }
        }
        entries.sort(by: Self.order)
    }

    /// The DUE of a recurring todo's first open instance that ends today or later (else its last one): an instance
    /// whose override is completed is done, and the next one is due.
    private static func nextInstance(
        of todo: Todo, in calendar: ICalendar, after start: Date,
        options: ExpansionOptions
    ) -> CalendarDate? {
        var single = calendar
        single.components = calendar.components.filter { component in
            if case .todo(let other) = component { return other.uid == todo.uid }
            return false
        }
        let window = single.occurrences(
            from: start.addingTimeInterval(-86_400 * 366),
            to: start.addingTimeInterval(86_400 * 400), options: options
        ).occurrences
        func isOpen(_ instance: Occurrence) -> Bool {
            if case .todo(let override) = instance.item { return !override.isCompleted }
            return true
        }
        guard let next = window.first(where: { $0.endDate >= start && isOpen($0) }) ?? window.last else { return nil }
        // The instance runs from DTSTART to DUE; a todo with only DUE has its DUE as start.
        return todo.start != nil && todo.due != nil ? next.end : next.start
    }

    /// Due first (undated last), then PRIORITY (1 highest, unset last), then summary.
    static func order(_ a: TodoEntry, _ b: TodoEntry) -> Bool {
        let dueA = a.due ?? .distantFuture, dueB = b.due ?? .distantFuture
        if dueA != dueB { return dueA < dueB }
        let priorityA = a.todo.priority.flatMap { $0 == 0 ? nil : $0 } ?? 10
        let priorityB = b.todo.priority.flatMap { $0 == 0 ? nil : $0 } ?? 10
        if priorityA != priorityB { return priorityA < priorityB }
        return (a.todo.summary ?? "") < (b.todo.summary ?? "")
    }

    /// The entries that pass the filters, subtasks nested under their parents when both pass.
    package func tree(filter: TodoFilter = .open, category: String? = nil, slot: DaySlot? = nil) -> [TodoEntry] {
        let todayStart = zone.date(of: zone.wallClock(at: now).startOfDayValue)
        let tomorrow = todayStart.addingTimeInterval(86_400)
        let chosen = entries.filter { entry in
            let done = entry.todo.isCompleted
            switch filter {
            case .open: if done { return false }
            case .today: if done || !(entry.due.map { $0 >= todayStart && $0 < tomorrow } ?? false) { return false }
            case .upcoming: if done || !(entry.due.map { $0 >= tomorrow } ?? false) { return false }
            case .completed: if !done { return false }
            case .overdue: if !entry.isOverdue { return false }
            case .all: break
            }
            if let category, !entry.todo.categories.contains(where: { $0.name.lowercased() == category.lowercased() }) {
                return false
            }
            if let slot {
                guard let due = entry.due, let value = entry.dueValue, !value.isDate,
                    slot.hours.contains(zone.wallClock(at: due).hour)
                else { return false }
            }
            return true
        }
        return Self.nest(chosen)
    }

    /// Puts each entry under its parent (RELATED-TO;RELTYPE=PARENT on the child, or RELTYPE=CHILD on the parent).
    static func nest(_ entries: [TodoEntry]) -> [TodoEntry] {
        let uids = Set(entries.compactMap(\.todo.uid))
        var parentOf: [String: String] = [:]
        for entry in entries {
            guard let uid = entry.todo.uid else { continue }
            for relation in entry.todo.relatedTo where uids.contains(relation.uid) && relation.uid != uid {
                if relation.type == "PARENT" { parentOf[uid] = relation.uid }
                if relation.type == "CHILD" { parentOf[relation.uid] = uid }
            }
        }
        // A cycle (a parent of its own ancestor) is broken by leaving its members at the top.
        func hasCycle(_ uid: String) -> Bool {
            var seen: Set<String> = [uid]
            var current = uid
            while let parent = parentOf[current] {
                if !seen.insert(parent).inserted { return true }
                current = parent
            }
            return false
        }
        for uid in parentOf.keys where hasCycle(uid) { parentOf[uid] = nil }
        func build(_ entry: TodoEntry) -> TodoEntry {
            var entry = entry
            entry.children = entries.filter { child in child.todo.uid.map { parentOf[$0] } == entry.todo.uid }
                .map(build)
            return entry
        }
        return entries.filter { $0.todo.uid.flatMap { parentOf[$0] } == nil }.map(build)
    }

    /// Completion per day and per ISO week of the todos due then (after the category filter).
    package func completion(category: String? = nil) -> (days: [CompletionStats], weeks: [CompletionStats]) {
        var days: [String: CompletionStats] = [:], weeks: [String: CompletionStats] = [:]
        for entry in entries {
            guard let due = entry.due else { continue }
            if let category, !entry.todo.categories.contains(where: { $0.name.lowercased() == category.lowercased() }) {
                continue
            }
            let wall = entry.dueValue?.isDate == true ? LocalDateTime(entry.dueValue!) : zone.wallClock(at: due)
            let week = wall.isoWeek
            let weekName = "\(week.year)-W" + (week.week < 10 ? "0" : "") + String(week.week)
            for (key, table) in [(wall.isoDate, 0), (weekName, 1)] {
                var stats = (table == 0 ? days[key] : weeks[key]) ?? CompletionStats(period: key, due: 0, completed: 0)
                stats.due += 1
                if entry.todo.isCompleted { stats.completed += 1 }
                if table == 0 { days[key] = stats } else { weeks[key] = stats }
            }
        }
        return (days.values.sorted { $0.period < $1.period }, weeks.values.sorted { $0.period < $1.period })
    }
}

extension LocalDateTime {
    /// Midnight of this day.
    package var startOfDayValue: LocalDateTime { LocalDateTime(year: year, month: month, day: day) }
}
