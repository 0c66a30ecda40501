import CalendarModel
import Foundation

/// The reference model of `CommandSequenceCLITests`: what the store should hold after each command, in the terms a
/// user sees (titles, places, times, instances taken out or changed, todos done, reminders), and what `agenda`,
/// `search`, `todo` and `remind` should then print. Times are minutes after 2026-12-01 00:00 UTC.
struct CommandModel: Equatable {
    struct Item: Equatable {
        var uid: String
        var calendar: String
        var isTodo: Bool
        var summary: String
        var location: String?
        /// An event's start or a todo's due time.
        var start: Int
        /// A daily series' instance count (nil: a single item).
        var count: Int?
        /// Instances taken out (EXDATE), by index.
        var excluded: Set<Int> = []
        /// Instances changed on their own (RECURRENCE-ID): their title and place, by index.
        var overrides: [Int: Override] = [:]
        var completed = false
        var hasAlarm = false

        /// Whether it is a series.
        var isSeries: Bool { count != nil }
    }

    struct Override: Equatable {
        var summary: String
        var location: String?
    }

    /// Items by calendar and UID (one UID may stand in two calendars).
    var items: [Key: Item] = [:]
    /// The store's calendars, items or not.
    var calendarNames: Set<String> = []

    struct Key: Hashable, Comparable {
        var calendar: String
        var uid: String
        static func < (a: Key, b: Key) -> Bool { (a.calendar, a.uid) < (b.calendar, b.uid) }
    }

    static let base = LocalDateTime(year: 2026, month: 12, day: 1)

    mutating func put(_ item: Item) { items[Key(calendar: item.calendar, uid: item.uid)] = item }

    func item(uid: String) -> Item? { items.values.filter { $0.uid == uid }.min { $0.calendar < $1.calendar } }

    // MARK: What listings should print

    /// One instance as `agenda --json` prints it: UID, start (`2026-12-01T10:00:00Z`), title, place.
    struct Instance: Hashable, Comparable {
        var uid: String
        var start: String
        var summary: String
        var location: String?
        static func < (a: Instance, b: Instance) -> Bool {
            (a.start, a.uid, a.summary) < (b.start, b.uid, b.summary)
        }
    }

    /// The events' instances that start in [from, to).
    func agenda(from: Int, to: Int) -> [Instance] {
        var instances: [Instance] = []
        for item in items.values where !item.isTodo {
            for index in 0..<(item.count ?? 1) where !item.excluded.contains(index) {
                let start = item.start + index * 1440
                guard start >= from, start < to else { continue }
                let changed = item.overrides[index]
                instances.append(
                    Instance(
                        uid: item.uid, start: Self.iso(start), summary: changed?.summary ?? item.summary,
                        location: changed == nil ? item.location : changed?.location))
            }
        }
        return instances.sorted()
    }

    /// The rows `search WORD` should find: (UID, the override's RECURRENCE-ID or "").
    func search(_ word: String) -> Set<[String]> {
        var rows: Set<[String]> = []
        func holds(_ texts: [String?]) -> Bool {
            texts.compactMap { $0 }.contains { text in
                text.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).contains {
                    $0.hasPrefix(word.lowercased())
                }
            }
        }
        for item in items.values {
            if holds([item.summary, item.location]) { rows.insert([item.uid, ""]) }
            for (index, changed) in item.overrides where holds([changed.summary, changed.location]) {
                rows.insert([item.uid, Self.basic(item.start + index * 1440)])
            }
        }
        return rows
    }

    /// The open todos `todo` should list, by title.
    var openTodos: [String] { items.values.filter { $0.isTodo && !$0.completed }.map(\.summary).sorted() }

    /// How many reminders `remind --within 1d --now NOW` should print: an alarm 15 minutes before each instance
    /// (before a todo's due time) that goes off in [now, now + 1 day); none for done todos.
    func reminders(now: Int) -> Int {
        var count = 0
        for item in items.values where item.hasAlarm && !(item.isTodo && item.completed) {
            for index in 0..<(item.count ?? 1) where !item.excluded.contains(index) {
                let fires = item.start + index * 1440 - 15
                if fires >= now, fires < now + 1440 { count += 1 }
            }
        }
        return count
    }

    // MARK: Times

    static func wall(_ minutes: Int) -> LocalDateTime { base.adding(seconds: Int64(minutes) * 60) }

    /// `2026-12-01T10:00:00Z`.
    static func iso(_ minutes: Int) -> String { wall(minutes).iso8601 + "Z" }

    /// `20261201T100000Z`.
    static func basic(_ minutes: Int) -> String {
        let wall = wall(minutes)
        return String(
            format: "%04d%02d%02dT%02d%02d00Z", wall.year, wall.month, wall.day, wall.hour, wall.minute)
    }

    /// `2026-12-01 10:00`, as the commands read it (with --tz UTC).
    static func typed(_ minutes: Int) -> String {
        let wall = wall(minutes)
        return String(format: "%04d-%02d-%02d %02d:%02d", wall.year, wall.month, wall.day, wall.hour, wall.minute)
    }

    /// `2026-12-01`.
    static func day(_ minutes: Int) -> String { String(typed(minutes).prefix(10)) }

    static func minutes(_ date: CalendarDate) -> Int {
        Int((LocalDateTime(date).wallSeconds - base.wallSeconds) / 60)
    }
}

extension CommandModel {
    /// The model of what `export` wrote: the items of every calendar (`X-WR-CALNAME` names a calendar when the
    /// export is of one; the test exports one calendar at a time).
    static func items(fromExport text: String, calendar: String) -> [Item] {
        let read = ICS.read(Array(text.utf8))
        var made: [String: Item] = [:]
        var overrides: [(uid: String, id: CalendarDate, summary: String, location: String?)] = []
        for calendarRead in read.calendars {
            for component in calendarRead.components {
                let core: ItemCore, isTodo: Bool, alarms: Int, start: CalendarDate?
                var completed = false
                switch component {
                case .event(let event):
                    (core, isTodo, alarms, start) = (event.core, false, event.alarms.count, event.core.start)
                case .todo(let todo):
                    (core, isTodo, alarms, start) = (todo.core, true, todo.alarms.count, todo.due ?? todo.core.start)
                    completed = todo.status == .completed
                default: continue
                }
                guard let uid = core.uid else { continue }
                if let id = core.recurrenceID?.date {
                    overrides.append((uid, id, core.summary ?? "", core.location))
                    continue
                }
                let first = start.map(minutes) ?? 0
                var item = Item(
                    uid: uid, calendar: calendar, isTodo: isTodo, summary: core.summary ?? "", location: core.location,
                    start: first, count: core.recurrenceRules.first?.count)
                item.excluded = Set(core.exceptionDates.map { (minutes($0) - first) / 1440 })
                item.completed = completed
                item.hasAlarm = alarms > 0
                made[uid] = item
            }
        }
        for changed in overrides {
            guard var item = made[changed.uid] else { continue }
            item.overrides[(minutes(changed.id) - item.start) / 1440] = Override(
                summary: changed.summary, location: changed.location)
            made[changed.uid] = item
        }
        return Array(made.values)
    }
}
