// SeriesEditingExample IN OUT UID INSTANT: moves the instance of series UID that its rules place at INSTANT (an ISO
// 8601 instant, 2026-11-16T08:30:00Z), and every later one, an hour later: "this and following", as a calendar app
// does it. The series before INSTANT keeps its UID; the rest becomes a new series. Writes the calendar to OUT.
import CalendarModel
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 5 else {
    FileHandle.standardError.write(Data("usage: SeriesEditingExample IN OUT UID INSTANT\n".utf8))
    exit(2)
}
guard let instant = ISO8601DateFormatter().date(from: arguments[4]) else {
    FileHandle.standardError.write(Data("INSTANT is an ISO 8601 instant: 2026-11-16T08:30:00Z\n".utf8))
    exit(2)
}
do {
    var calendar = try ICS.read(contentsOf: arguments[1]).calendars[0]
    try calendar.editSeries(uid: arguments[3], instance: instant, scope: .thisAndFollowing) { item in
        // An hour later, on the clock the times are written in: start and end move alike.
        func later(_ date: CalendarDate?) throws -> CalendarDate? {
            guard let date, !date.isDate else { return date }
            var wallClock = Calendar(identifier: .gregorian)
            wallClock.timeZone = TimeZone(identifier: "UTC")!
            let wall = wallClock.date(
                from: DateComponents(
                    year: date.year, month: date.month, day: date.day, hour: date.hour, minute: date.minute,
                    second: date.second))!
            let moved = wallClock.dateComponents(
                [.year, .month, .day, .hour, .minute, .second], from: wall.addingTimeInterval(3600))
            return try CalendarDate(
                year: moved.year!, month: moved.month!, day: moved.day!, hour: moved.hour!, minute: moved.minute!,
                second: moved.second!, form: date.form)
        }
        switch item {
        case .event(var event):
            event.core.start = try later(event.core.start)
            event.end = try later(event.end)
            item = .event(event)
        case .todo(var todo):
            todo.core.start = try later(todo.core.start)
            todo.due = try later(todo.due)
            item = .todo(todo)
        case .journal, .timeZone, .other: break
        }
    }
    try Data(ICS.write([calendar])).write(to: URL(fileURLWithPath: arguments[2]), options: .atomic)
} catch {
    FileHandle.standardError.write(Data("SeriesEditingExample: \(error)\n".utf8))
    exit(1)
}
