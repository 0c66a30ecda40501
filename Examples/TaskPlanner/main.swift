// TaskPlannerExample IN.ics OUT.ics [YYYY-MM-DD]
//
// Reads a calendar export, shows the week that holds the given day (or the first item) as the planner's own
// Event and Task values, and writes the planner's tasks back as iCalendar that other apps take: VTODOs with
// categories and colours, subtasks, reminders and time logs. Floating times and the week are in this machine's
// zone (TZ).
import CalendarModel
import Foundation

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2 || arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: TaskPlannerExample IN.ics OUT.ics [YYYY-MM-DD]\n".utf8))
    exit(2)
}
let (input, output) = (arguments[arguments.startIndex], arguments[arguments.startIndex + 1])

// 1. Read: problems are diagnostics (file:line: severity: message), never a crash.
let read: ICS.ReadResult
do {
    read = try ICS.read(contentsOf: input)
} catch {
    FileHandle.standardError.write(Data("TaskPlannerExample: cannot read \(input): \(error)\n".utf8))
    exit(1)
}
for diagnostic in read.diagnostics { FileHandle.standardError.write(Data("\(diagnostic)\n".utf8)) }

// 2. The week: the given day's, or the first item's.
let zone = CalendarZone.current
let items = read.calendars.flatMap(\.components).compactMap(\.core)
let firstDay =
    arguments.count == 3
    ? try? CalendarDate.parse(arguments.last!.replacingOccurrences(of: "-", with: ""), tzid: nil).get()
    : items.compactMap { $0.start }.min()
let week = PlannerWeek(containing: firstDay?.date(in: zone) ?? Date(), zone: zone)

// 3. Map into the planner's own values: this week's event instances, and every task.
var options = ExpansionOptions()
options.viewerZone = zone
let events = read.calendars.flatMap { calendar in
    calendar.occurrences(from: week.interval.start, to: week.interval.end, options: options).occurrences.map(Event.init)
}
let tasks = Task.tasks(in: read.calendars, week: week)

// 4. Write the planner's tasks: a new calendar, checked, then written in one step (a temporary file, renamed).
guard !tasks.isEmpty else {
    print("\(events.count) events this week; no tasks in \(input), so \(output) is not written")
    exit(0)
}
var planner = ICalendar()
planner.name = "Planner"
planner.components = tasks.flatMap { $0.components(in: week) }
let problems = planner.validate()
guard problems.isEmpty else {
    for problem in problems { FileHandle.standardError.write(Data("\(problem)\n".utf8)) }
    exit(1)
}
do {
    try Data(ICS.write([planner])).write(to: URL(fileURLWithPath: output), options: .atomic)
} catch {
    FileHandle.standardError.write(Data("TaskPlannerExample: cannot write \(output): \(error)\n".utf8))
    exit(1)
}

print("week of \(CalendarDate.day(of: week.monday, in: zone)) (\(zone)): \(events.count) events")
for event in events.sorted(by: { $0.interval.start < $1.interval.start }) {
    let start = CalendarDate(event.interval.start, in: zone)
    print("  \(event.isAllDay ? "all day        " : start.icsValue)  \(event.title)")
}
let subtasks = tasks.reduce(0) { $0 + $1.subtasks.count }
print("\(tasks.count) tasks (\(subtasks) subtasks) written to \(output)")
