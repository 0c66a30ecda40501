import Foundation

/// A todo as a task list shows it: for a repeating todo, the occurrence it shows (its earliest open one); when it is
/// due and whether it is late or not yet to be started; its subtasks.
package struct TodoEntry: Sendable {
    /// The todo that describes the occurrence shown: the master, or its override.
    package var todo: Todo
    /// The calendar it is in.
    package var calendar: String
    /// The series' UID (the handle `done` takes).
    package var uid: String?
    /// DUE of the occurrence shown, placed in time.
    package var due: Date?
    /// DUE as written.
    package var dueValue: CalendarDate?
    /// Whether DUE is floating (no zone, or a TZID nothing explains): shown as written.
    package var dueIsFloating = false
    /// DTSTART of the occurrence shown, placed in time.
    package var start: Date?
    /// DTSTART as written.
    package var startValue: CalendarDate?
    /// The occurrence's RECURRENCE-ID, for a repeating todo.
    package var recurrenceID: CalendarDate?
    /// Whether the todo repeats.
    package var isRecurring = false
    /// Done: the todo (or the occurrence) completed or cancelled; a repeating todo, when none of its occurrences is left.
    package var isDone: Bool
    /// Open and due before now.
    package var isOverdue: Bool
    /// Open, and its DTSTART is later than now: not yet to be started (left out of the open list, not of the date
    /// filters, which go by due dates).
    package var isScheduled: Bool
    /// An occurrence of a repeating todo ticked off: listed with the completed ones, the series has its own line.
    package var isPastOccurrence = false
    /// Its subtasks ticked off, and how many it has (nil without subtasks).
    package var progress: (done: Int, total: Int)?
    /// Todos whose RELATED-TO names this one as their parent (or that this one names as its children).
    package var children: [TodoEntry] = []
}

/// Which todos a list shows.
package enum TodoFilter: String, Sendable, CaseIterable {
    /// Not completed, and not waiting for a later start (the default).
    case open
    /// Not completed, with a DTSTART later than now.
    case scheduled
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

/// The todos of some calendars, by due date, with subtasks under their parents: one line per repeating todo (the
/// occurrence `TodoSeries.current` gives), plus each occurrence ticked off for the completed filter.
package struct TodoList {
    /// The todos, ordered by due date, each subtask after its parent.
    package private(set) var entries: [TodoEntry] = []
    private let zone: ZoneClock
    private let now: Date

    /// Reads the todos of each calendar; `name` is what a calendar is shown as.
    package init(calendars: [(calendar: ICalendar, name: String)], zone: ZoneClock, now: Date = Date()) {
        self.zone = zone
        self.now = now
        let viewer = CalendarZone(known: zone.identifier)
        for (calendar, name) in calendars {
            var context = calendar
            context.components = calendar.components.filter { !$0.isItem }
            var byUID: [String: [CalendarComponent]] = [:]
            for component in calendar.components where component.kind == .todo {
                byUID[component.core?.uid ?? "", default: []].append(component)
            }
            for todo in calendar.todos where todo.recurrenceID == nil {
                guard let uid = todo.uid,
                    let series = TodoSeries(uid: uid, components: byUID[uid] ?? [], context: context)
                else {
                    entries.append(entry(todo, calendar: name, occurrence: nil, context: context, viewer: viewer))
                    continue
                }
                add(series, calendar: name, viewer: viewer)
            }
        }
        entries.sort(by: Self.order)
    }

    private mutating func add(_ series: TodoSeries, calendar: String, viewer: CalendarZone) {
        guard let master = series.master else { return }
        if let current = series.current(zone: viewer) {
            entries.append(entry(current, calendar: calendar, uid: series.uid, recurring: series.isRecurring))
        } else {
            // Nothing left to do: the series (or the todo) is shown done, at its last occurrence ticked off.
            let last = series.isRecurring ? series.lastCompleted(zone: viewer) : nil
            let shown = last ?? series.occurrences(from: .distantPast, to: .distantFuture, zone: viewer).first
            var done =
                shown.map { entry($0, calendar: calendar, uid: series.uid, recurring: series.isRecurring) }
                ?? entry(master, calendar: calendar, occurrence: nil, context: ICalendar(), viewer: viewer)
            done.isDone = true
            (done.isOverdue, done.isScheduled) = (false, false)
            entries.append(done)
        }
        guard series.isRecurring else { return }
        for component in series.components {
            guard case .todo(let todo) = component, let id = todo.core.recurrenceID?.date, todo.isCompleted,
                let occurrence = series.occurrence(at: id, zone: viewer)
            else { continue }
            var past = entry(occurrence, calendar: calendar, uid: series.uid, recurring: true)
            past.isPastOccurrence = true
            entries.append(past)
        }
    }

    private func entry(_ occurrence: TodoOccurrence, calendar: String, uid: String, recurring: Bool) -> TodoEntry {
        let done = occurrence.isDone
        return TodoEntry(
            todo: occurrence.todo, calendar: calendar, uid: uid, due: occurrence.dueDate, dueValue: occurrence.due,
            dueIsFloating: occurrence.dueIsFloating, start: occurrence.startDate, startValue: occurrence.start,
            recurrenceID: occurrence.recurrenceID,
            isRecurring: recurring, isDone: done, isOverdue: !done && occurrence.dueDate.map { $0 < now } ?? false,
            isScheduled: !done && occurrence.start != nil && occurrence.startDate.map { $0 > now } ?? false)
    }

    /// A todo without a UID (or without its series): as it stands.
    private func entry(
        _ todo: Todo, calendar: String, occurrence: TodoOccurrence?, context: ICalendar, viewer: CalendarZone
    ) -> TodoEntry {
        let time = CalendarTime(calendar: context, viewerZone: viewer.identifier)
        let due = todo.due.map(time.date(of:)), start = todo.core.start.map(time.date(of:))
        let done = todo.isCompleted || todo.core.status == .cancelled
        return TodoEntry(
            todo: todo, calendar: calendar, uid: todo.uid, due: due, dueValue: todo.due,
            dueIsFloating: todo.due.map(time.isFloating) ?? false, start: start, startValue: todo.core.start,
            isDone: done,
            isOverdue: !done && due.map { $0 < now } ?? false, isScheduled: !done && start.map { $0 > now } ?? false)
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

    /// Whether an entry passes a filter: the open list leaves out what waits for its start; the date filters go by
    /// due dates alone; an occurrence ticked off is listed with the completed ones only.
    func passes(_ entry: TodoEntry, _ filter: TodoFilter) -> Bool {
        let todayStart = zone.date(of: zone.wallClock(at: now).startOfDayValue)
        let tomorrow = zone.date(of: zone.wallClock(at: now).startOfDayValue.adding(days: 1))
        if entry.isPastOccurrence { return filter == .completed }
        switch filter {
        case .open: return !entry.isDone && !entry.isScheduled
        case .scheduled: return entry.isScheduled
        case .today: return !entry.isDone && entry.due.map { $0 >= todayStart && $0 < tomorrow } ?? false
        case .upcoming: return !entry.isDone && entry.due.map { $0 >= tomorrow } ?? false
        case .completed: return entry.isDone
        case .overdue: return entry.isOverdue
        case .all: return true
        }
    }

    /// The entries that pass the filters, subtasks nested under their parents when both pass; each parent with its
    /// subtasks' progress (of all its subtasks, whichever pass).
    package func tree(filter: TodoFilter = .open, category: String? = nil, slot: DaySlot? = nil) -> [TodoEntry] {
        let family = Self.parents(entries.filter { !$0.isPastOccurrence })
        var progress: [String: (done: Int, total: Int)] = [:]
        for entry in entries where !entry.isPastOccurrence {
            guard let uid = entry.uid, let parent = family.parentOf[uid] else { continue }
            progress[parent, default: (0, 0)].total += 1
            if entry.isDone { progress[parent, default: (0, 0)].done += 1 }
        }
        let chosen = entries.filter { entry in
            guard passes(entry, filter) else { return false }
            if let category, !entry.todo.categories.contains(where: { $0.name.lowercased() == category.lowercased() }) {
                return false
            }
            if let slot {
                guard let due = entry.due, let value = entry.dueValue, !value.isDate,
                    slot.hours.contains(zone.wallClock(at: due).hour)
                else { return false }
            }
            return true
        }.map { entry -> TodoEntry in
            var entry = entry
            if !entry.isPastOccurrence { entry.progress = entry.uid.flatMap { progress[$0] } }
            return entry
        }
        return Self.nest(chosen, parentOf: family.parentOf)
    }

    /// Each subtask's parent (RELATED-TO;RELTYPE=PARENT on the child, or RELTYPE=CHILD on the parent), among
    /// `entries`; a chain that comes back to where it started is broken there (its members have no parent) and said.
    static func parents(_ entries: [TodoEntry]) -> (parentOf: [String: String], cycles: [[String]]) {
        let uids = Set(entries.compactMap(\.uid))
        var parentOf: [String: String] = [:]
        for entry in entries {
            guard let uid = entry.uid else { continue }
            for relation in entry.todo.relatedTo where uids.contains(relation.uid) && relation.uid != uid {
                if relation.type == "PARENT" { parentOf[uid] = relation.uid }
                if relation.type == "CHILD" { parentOf[relation.uid] = uid }
            }
        }
        var cycles: [[String]] = []
        var inCycle: Set<String> = []
        for start in parentOf.keys.sorted() where !inCycle.contains(start) {
            var path: [String] = [start]
            var seen: Set<String> = [start]
            var current = start
            // Each step goes up one parent; a chain longer than the entries has come back round.
            while let parent = parentOf[current], path.count <= uids.count {
                if let at = path.firstIndex(of: parent) {
                    let cycle = Array(path[at...])
                    if inCycle.isDisjoint(with: cycle) { cycles.append(cycle) }
                    inCycle.formUnion(cycle)
                    break
                }
                guard seen.insert(parent).inserted else { break }
                path.append(parent)
                current = parent
            }
        }
        for uid in inCycle { parentOf[uid] = nil }
        return (parentOf, cycles)
    }

    /// The RELATED-TO cycles among the todos (each reported once, listed at the top level).
    package var relationCycles: [[String]] { Self.parents(entries.filter { !$0.isPastOccurrence }).cycles }

    /// Puts each entry under its parent, when both are listed.
    static func nest(_ entries: [TodoEntry], parentOf: [String: String]) -> [TodoEntry] {
        var childrenOf: [String: [Int]] = [:]
        let listed = Set(entries.compactMap { $0.isPastOccurrence ? nil : $0.uid })
        for (index, entry) in entries.enumerated() {
            guard !entry.isPastOccurrence, let uid = entry.uid, let parent = parentOf[uid], listed.contains(parent)
            else { continue }
            childrenOf[parent, default: []].append(index)
        }
        // No cycle is left in `parentOf`: building down from the roots ends.
        func build(_ entry: TodoEntry) -> TodoEntry {
            var entry = entry
            if !entry.isPastOccurrence, let uid = entry.uid {
                entry.children = (childrenOf[uid] ?? []).map { build(entries[$0]) }
            }
            return entry
        }
        return entries.filter { entry in
            entry.isPastOccurrence || !(entry.uid.flatMap { parentOf[$0] }.map(listed.contains) ?? false)
        }.map(build)
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
                if entry.isDone { stats.completed += 1 }
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
