import ArgumentParser
import CalendarModel
import Foundation

/// `icskit agenda`: the instances in a window, in the viewer's zone.
struct AgendaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "agenda",
        abstract: "List the events that fall in a window: recurring series expanded, overrides applied.",
        discussion: """
            The window starts inclusive and ends exclusive, in --tz (default: the system's zone). All-day events \
            stay on their own date in every zone; floating times are read in --tz.

            Examples:
              icskit agenda work.ics --week this
              icskit agenda work.ics family.ics --from 2026-12-01 --to +14d --tz Europe/Berlin
              icskit agenda google.ics --today --json
            """
    )

    @Argument(help: "Calendar files (.ics or jCal); - reads standard input.")
    var files: [String]

    @OptionGroup var window: WindowOptions

    @Flag(help: "Print one JSON array of instances.")
    var json = false

    @Flag(name: .customLong("no-x-wr-timezone"), help: "Do not apply Google's X-WR-TIMEZONE.")
    var noXWRTimezone = false

    @Option(help: "The most instances one recurring series may produce before it is stopped.")
    var maxInstances = 100_000

    @Flag(name: .shortAndLong, help: "No warnings on standard error.")
    var quiet = false

    func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one calendar file (- reads standard input)") }
        if maxInstances < 1 { throw ValidationError("--max-instances must be at least 1") }
    }

    func run() throws {
        let zone = try window.zone()
        let (start, end) = try window.window(in: zone)
        let input = try CalendarFiles.read(files)
        var options = ExpansionOptions()
        options.viewerZone = zone.identifier
        options.applyWRTimeZone = !noXWRTimezone
        options.limitPerSeries = maxInstances
        var diagnostics = input.diagnostics.filter { $0.severity == .error }
        var rows: [(occurrence: Occurrence, calendar: String)] = []
        for source in input.sources {
            for calendar in source.calendars {
                let expansion = calendar.occurrences(from: zone.date(of: start), to: zone.date(of: end),
                                                     options: options, file: source.path)
                diagnostics += expansion.diagnostics
                rows += expansion.occurrences.map { ($0, source.name) }
            }
        }
        rows.sort { ($0.occurrence.startDate, $0.calendar) < ($1.occurrence.startDate, $1.calendar) }
        CalendarFiles.report(diagnostics, quiet: quiet)
        let format = InstanceFormat(zone: zone)
        if json {
            print(JSONValue.array(rows.map { format.json($0.occurrence, calendar: $0.calendar) }).serialized(pretty: true))
        } else {
            format.printDays(rows, from: start, to: end)
        }
    }
}

/// How instances are written: ISO 8601 in the viewer's zone, floating times without offset, dates bare.
struct InstanceFormat {
    let zone: ZoneClock

    func time(_ value: CalendarDate, at instant: Date) -> String {
        if value.isDate { return LocalDateTime(value).isoDate }
        if value.form == .floating { return LocalDateTime(value).iso8601 }
        return zone.iso8601(instant)
    }

    func json(_ occurrence: Occurrence, calendar: String) -> JSONValue {
        let core = occurrence.item.core
        return .object([
            ("uid", core.uid.map(JSONValue.string) ?? .null),
            ("recurrence_id", zip(occurrence.recurrenceID, occurrence.recurrenceDate).map { .string(time($0, at: $1)) }
                ?? .null),
            ("summary", core.summary.map(JSONValue.string) ?? .null),
            ("start", .string(time(occurrence.start, at: occurrence.startDate))),
            ("end", .string(time(occurrence.end, at: occurrence.endDate))),
            ("all_day", .bool(occurrence.isAllDay)),
            ("calendar", .string(calendar)),
            ("component", .string(occurrence.item.componentName)),
            ("location", core.location.map(JSONValue.string) ?? .null),
            ("status", core.status.map { .string($0.rawValue) } ?? .null),
            ("categories", .array(core.categories.map { .string($0.name) })),
        ])
    }

    /// Text: a heading per day, then `09:00–10:00  Summary  (calendar)` or `all day`.
    func printDays(_ rows: [(occurrence: Occurrence, calendar: String)], from: LocalDateTime, to: LocalDateTime) {
        let names = ["", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        var day = from.startOfDay
        var printed = false
        while day < to {
            let next = day.adding(days: 1)
            let todays = rows.filter { row in
                let start = wall(row.occurrence.start, row.occurrence.startDate)
                let end = wall(row.occurrence.end, row.occurrence.endDate)
                return start < next && (end > day || (end == start && start >= day))
            }
            if !todays.isEmpty {
                print("\(printed ? "\n" : "")\(names[day.isoWeekday]) \(day.isoDate)")
                printed = true
                for row in todays {
                    let start = wall(row.occurrence.start, row.occurrence.startDate)
                    let end = wall(row.occurrence.end, row.occurrence.endDate)
                    let span = row.occurrence.isAllDay ? "all day    "
                        : "\(start < day ? "…    " : clock(start))–\(end > next ? "…    " : clock(end))"
                    print("  \(span)  \(row.occurrence.summary ?? "(no summary)")  (\(row.calendar))")
                }
            }
            day = next
        }
        if !printed { print("nothing between \(from.iso8601) and \(to.iso8601)") }
    }

    private func wall(_ value: CalendarDate, _ instant: Date) -> LocalDateTime {
        value.isDate || value.form == .floating ? LocalDateTime(value) : zone.wallClock(at: instant)
    }

    private func clock(_ time: LocalDateTime) -> String {
        String(time.iso8601.dropFirst(11).prefix(5))  // HH:MM
    }
}

private func zip<A, B>(_ a: A?, _ b: B?) -> (A, B)? {
    guard let a, let b else { return nil }
    return (a, b)
}
