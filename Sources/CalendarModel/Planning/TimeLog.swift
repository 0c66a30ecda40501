import Foundation

/// Time spent on a todo, recorded as a VJOURNAL related to it (so it travels to other apps): DTSTART when the work
/// began, `X-ICSKIT-DURATION` how long it took, `X-ICSKIT-INTERRUPTED` whether it was cut short.
package enum TimeLog {
    /// The VJOURNAL property holding how long the work took.
    package static let durationProperty = "X-ICSKIT-DURATION"
    /// The VJOURNAL property marking work that was cut short.
    package static let interruptedProperty = "X-ICSKIT-INTERRUPTED"

    /// A journal entry for `duration` spent on `todo`, ending `end`.
    package static func entry(
        for todo: Todo, duration: CalendarDuration, interrupted: Bool, end: Date = Date(),
        uid: String = UUID().uuidString.lowercased() + "@icskit"
    ) -> Journal {
        let endSeconds = Int64(end.timeIntervalSince1970.rounded(.down))
        let start = LocalDateTime(wallSeconds: endSeconds - Int64(duration.totalSeconds)).calendarDate(.utc)
        let now = LocalDateTime(wallSeconds: endSeconds).calendarDate(.utc)
        var journal = Journal()
        journal.uid = uid
        journal.stamp = now
        journal.start = start
        journal.summary = "Time on: " + (todo.summary ?? todo.uid ?? "a todo")
        journal.description = "\(duration.totalSeconds / 60) minutes" + (interrupted ? ", interrupted" : "")
        journal.status = .final
        journal.categories = ["Time log"]
        if let parent = todo.uid { journal.relatedTo = [Relation(uid: parent, type: "PARENT")] }
        journal.otherProperties =
            [Property(durationProperty, value: duration.icsValue)]
            + (interrupted ? [Property(interruptedProperty, value: "TRUE")] : [])
        return journal
    }

    /// Seconds logged per day (in `zone`), from the time-log journals of some calendars.
    package static func secondsPerDay(_ calendars: [ICalendar], zone: ZoneClock) -> [String: Int] {
        var days: [String: Int] = [:]
        for calendar in calendars {
            let time = CalendarTime(calendar: calendar, viewerZone: zone.identifier)
            for journal in calendar.journals {
                guard let start = journal.start,
                    let text = journal.otherProperties.first(where: { $0.name == durationProperty })?.value,
                    case .success(let duration) = CalendarDuration.parse(text)
                else { continue }
                let day = start.isDate ? LocalDateTime(start).isoDate : zone.wallClock(at: time.date(of: start)).isoDate
                days[day, default: 0] += duration.totalSeconds
            }
        }
        return days
    }
}
