import CalendarModel
import Foundation

// A planner app's own model: what a to-do and scheduling app keeps, in its own words. CalendarModel maps it to
// and from iCalendar in PlannerMapping.swift; nothing here knows about content lines.

/// A task on the planner: a deadline, a place in the week, a category with its colour, subtasks and time logs.
struct Task: Codable, Equatable {
    /// A place in the week: a weekday, the time it starts (in the planner's zone) and how long it is.
    struct Slot: Codable, Equatable {
        var weekday: Weekday
        var hour: Int
        var minute: Int
        var minutes: Int
    }

    /// A category and its colour (`#RRGGBB`).
    struct Label: Codable, Equatable {
        var name: String
        var color: String?
    }

    /// Time spent on the task.
    struct TimeLog: Codable, Equatable {
        var start: Date
        var minutes: Int
    }

    var id: String
    var title: String
    var notes: String?
    /// The deadline; with `isDueAllDay`, the day it falls on in the planner's zone.
    var due: Date?
    var isDueAllDay = false
    var slot: Slot?
    /// When it was done; nil while it is open.
    var doneAt: Date?
    var label: Label?
    var subtasks: [Task] = []
    var timeLogs: [TimeLog] = []
}

/// Something on the calendar this week: one instance of an event, in the zone it was written in.
struct Event: Codable, Equatable {
    var title: String
    var interval: DateInterval
    var isAllDay: Bool
    var timeZone: String?
}

/// The week the planner shows, in its zone.
struct PlannerWeek {
    var zone: CalendarZone
    var monday: Date

    /// Monday 00:00 to the next Monday 00:00 in `zone`: 167 or 169 hours the weeks the clocks change.
    var interval: DateInterval { zone.week(containing: monday) }

    /// The week that holds `date`: from its Monday, 00:00 in `zone`.
    init(containing date: Date, zone: CalendarZone) {
        self.zone = zone
        monday = zone.week(containing: date).start
    }

    /// When a slot starts in this week.
    func start(of slot: Task.Slot) -> Date {
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = zone.timeZone
        let offset = (Weekday.allCases.firstIndex(of: slot.weekday)! + 6) % 7  // Weekday starts on Sunday
        let day = calendar.date(byAdding: .day, value: offset, to: monday)!
        return calendar.date(bySettingHour: slot.hour, minute: slot.minute, second: 0, of: day)!
    }
}
