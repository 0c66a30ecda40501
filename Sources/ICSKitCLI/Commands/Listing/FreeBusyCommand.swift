import ArgumentParser
import CalendarModel
import CalendarMerge
import CalendarStore
import Foundation

/// `icskit freebusy`: a VFREEBUSY per calendar, or the free slots all of them share.
struct FreeBusyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "freebusy",
        abstract: "Busy time per calendar as VFREEBUSY, or with --find the free slots common to all of them.",
        discussion: """
            Events block time unless TRANSP:TRANSPARENT or STATUS:CANCELLED; TENTATIVE ones are BUSY-TENTATIVE.
            --within limits --find to those hours of each day in --tz, so they follow the clock across DST.
            Examples:
              icskit freebusy work.ics --week next > busy.ics
              icskit freebusy --week next --find 30m --within 09:00-17:00   # the store
              icskit freebusy alice.ics bob.ics carol.ics --week 2026-W44 --find 1h \\
                --within 09:00-18:00 --tz Europe/Berlin
            """)

    @Argument(help: "Calendar files (.ics, jCal, xCal or CSV); - reads standard input. None: the store.")
    var files: [String] = []

    @Option(help: "With the store: only this calendar (repeat for several).", completion: CalendarCompletion.kind)
    var calendar: [String] = []

    @OptionGroup var store: StoreOption

    @OptionGroup var window: WindowOptions

    @Option(help: "Find free slots of at least this length common to all calendars (30m, 1h, 1h30m).")
    var find: String?

    @Option(help: "With --find: only these hours of each day (HH:MM-HH:MM, in --tz).")
    var within: String?

    @Flag(help: "With --find: print one JSON array of slots.")
    var json = false

    @Flag(name: .shortAndLong, help: "No warnings on standard error.")
    var quiet = false

    @OptionGroup var zoneRules: ZonesOption

    func validate() throws {
        if let find, Self.seconds(find) == nil { throw ValidationError("--find takes 30m, 1h or 1h30m, not \(find)") }
        if let within, Self.hours(within) == nil {
            throw ValidationError("--within takes HH:MM-HH:MM with the start first, not \(within)")
        }
        if within != nil, find == nil { throw ValidationError("--within goes with --find") }
        if json, find == nil { throw ValidationError("--json goes with --find (without it the output is iCalendar)") }
    }

    func run() throws {
        let zone = try window.zone()
        let (start, end) = try window.window(in: zone)
        let (from, to) = (zone.date(of: start), zone.date(of: end))
        let input = try CalendarFiles.readOrStore(files, store: store, calendars: calendar, window: from..<to)
        var diagnostics = input.diagnostics.filter { $0.severity == .error }
        var options = ExpansionOptions()
        options.viewerZoneName = zone.identifier
        var busy: [(name: String, periods: [FreeBusy.BusyTime])] = []
        for source in input.sources {
            var periods: [FreeBusy.BusyTime] = []
            for calendar in source.calendars {
                let result = calendar.busyTime(from: from, to: to, options: options, file: source.path)
                periods += result.periods
                diagnostics += result.diagnostics
            }
            busy.append((source.name, periods))
        }
        CalendarFiles.report(diagnostics, quiet: quiet, fromStore: files.isEmpty)
        if let find, let minimum = Self.seconds(find) {
            let slots = FreeBusy.freeSlots(
                busy: busy.flatMap { $0.periods.map(\.range) }, from: from, to: to,
                within: within.flatMap(Self.hours), zone: zone, minimum: minimum)
            printSlots(slots, zone: zone)
        } else {
            try Output.writeStandardOutput(ICS.write([Self.calendar(busy, from: from, to: to)]))
        }
    }

    private func printSlots(_ slots: [Range<Date>], zone: ZoneClock) {
        if json {
            Output.print(
                JSONValue.array(
                    slots.map { slot in
                        .object([
                            ("start", .string(zone.iso8601(slot.lowerBound))),
                            ("end", .string(zone.iso8601(slot.upperBound))),
                            ("minutes", .int(Int(slot.upperBound.timeIntervalSince(slot.lowerBound) / 60))),
                        ])
                    }
                ).serialized(pretty: true))
            return
        }
        if slots.isEmpty { Output.print("no common free slot") }
        for slot in slots {
            let (start, end) = (zone.wallClock(at: slot.lowerBound), zone.wallClock(at: slot.upperBound))
            let minutes = Int(slot.upperBound.timeIntervalSince(slot.lowerBound) / 60)
            let length = (minutes >= 60 ? "\(minutes / 60)h" : "") + (minutes % 60 > 0 ? "\(minutes % 60)m" : "")
            let endDay =
                (end.year, end.month, end.day) == (start.year, start.month, start.day)
                ? "" : String(format: "%04d-%02d-%02d ", end.year, end.month, end.day)
            Output.print(
                String(
                    format: "%04d-%02d-%02d %02d:%02d–", start.year, start.month, start.day, start.hour,
                    start.minute) + endDay + String(format: "%02d:%02d  (", end.hour, end.minute) + length + ")")
        }
    }

    /// One VCALENDAR (METHOD:PUBLISH) with a VFREEBUSY per input, times in UTC as RFC 5545 requires.
    static func calendar(_ busy: [(name: String, periods: [FreeBusy.BusyTime])], from: Date, to: Date) -> ICalendar {
        func utc(_ date: Date) -> String {
            LocalDateTime(wallSeconds: Int64(date.timeIntervalSince1970.rounded(.down))).calendarDate(.utc).icsValue
        }
        var calendar = ICalendar()
        calendar.productID = ICS.productID
        calendar.version = "2.0"
        calendar.method = "PUBLISH"
        let stamp = utc(Date())
        for (name, periods) in busy {
            var properties = [
                Property("UID", value: "icskit-freebusy-\(utc(from))-\(utc(to))-" + SourceDigest.of(Array(name.utf8))),
                Property("DTSTAMP", value: stamp),
                Property("DTSTART", value: utc(from)),
                Property("DTEND", value: utc(to)),
                Property("COMMENT", text: name),
            ]
            properties += periods.map { period in
                Property(
                    "FREEBUSY", parameters: [Parameter("FBTYPE", period.kind.rawValue)],
                    value: utc(period.range.lowerBound) + "/" + utc(period.range.upperBound))
            }
            calendar.components.append(.other(Component("VFREEBUSY", properties: properties)))
        }
        return calendar
    }

    /// `30m`, `1h`, `1h30m` in seconds.
    static func seconds(_ text: String) -> TimeInterval? {
        guard case .success(let length) = AddCommand.duration(text), !length.isNegative, length.totalSeconds > 0
        else { return nil }
        return TimeInterval(length.totalSeconds)
    }

    /// `09:00-18:00` as minutes of the day.
    static func hours(_ text: String) -> (start: Int, end: Int)? {
        let parts = text.split(separator: "-")
        func minutes(_ part: Substring) -> Int? {
            let fields = part.split(separator: ":")
            guard fields.count == 2, let hour = Int(fields[0]), let minute = Int(fields[1]),
                (0...24).contains(hour), (0..<60).contains(minute), hour * 60 + minute <= 1440
            else { return nil }
            return hour * 60 + minute
        }
        guard parts.count == 2, let start = minutes(parts[0]), let end = minutes(parts[1]), start < end else {
            return nil
        }
        return (start, end)
    }
}
