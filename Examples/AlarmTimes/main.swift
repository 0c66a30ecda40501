// AlarmTimesExample IN FROM TO: every alarm of IN's events and todos that goes off from FROM to TO (ISO 8601
// instants, 2026-03-01T00:00:00Z), one UTC instant a line, in time order. Days before or after an instance are
// counted on its clock, so a "1 day before" alarm of a 09:00 meeting rings at 09:00 across a clock change too.
import CalendarModel
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 4 else {
    FileHandle.standardError.write(Data("usage: AlarmTimesExample IN FROM TO (FROM, TO: 2026-03-01T00:00:00Z)\n".utf8))
    exit(2)
}
let instants = ISO8601DateFormatter()
guard let from = instants.date(from: arguments[2]), let to = instants.date(from: arguments[3]) else {
    FileHandle.standardError.write(Data("FROM and TO are ISO 8601 instants: 2026-03-01T00:00:00Z\n".utf8))
    exit(2)
}
do {
    let read = try ICS.read(contentsOf: arguments[1])
    for diagnostic in read.diagnostics where diagnostic.severity == .error {
        FileHandle.standardError.write(Data("\(diagnostic)\n".utf8))
    }
    // Floating times and dates ring by this machine's clock, as a calendar app on it would ring them.
    let times = read.calendars.flatMap { $0.alarmTimes(from: from, to: to, zone: .current) }
    for time in times.sorted(by: { $0.fires < $1.fires }) {
        print(instants.string(from: time.fires))
    }
} catch {
    FileHandle.standardError.write(Data("AlarmTimesExample: \(error)\n".utf8))
    exit(1)
}
