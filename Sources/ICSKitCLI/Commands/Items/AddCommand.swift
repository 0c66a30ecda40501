import ArgumentParser
import CalendarModel
import CalendarStore
import Foundation

/// `icskit add event|todo SUMMARY …`: a new item in the store.
struct AddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add an event or a todo to the store.",
        discussion: """
            WHEN is a day (all day) or a day and a time (in --tz): YYYY-MM-DD, DD.MM.YYYY, today, tomorrow, a \
            weekday, next/last WEEKDAY, in N days, each with an optional HH:MM ("next friday 09:30", \
            "2026-11-27T14:00"), or +2h from now. Durations: 90m, 1h, 1h30m, 2d; alarms before the start: -15m.

            Examples:
              icskit add event Dentist --start "tomorrow 09:30" --duration 45m \\
                --alarm -1h --location "Dr. Weber" --url https://example.com/booking/123
              icskit add event Stand-up --start "monday 09:15" --duration 15m \\
                --repeat "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR" --until 2027-06-30
              icskit add event "Holiday" --start 2026-12-24 --end 2026-12-27 --all-day
              icskit add event "Swimming" --start "friday 17:00" --repeat weekly --count 10
              icskit add todo "Write report" --due 2026-11-27 --priority 1 \\
                --category Work --color "#FF8800"
              icskit add todo "Charts for the report" --parent 1f0e…@icskit
            """
    )

    enum Kind: String, ExpressibleByArgument { case event, todo }

    @Argument(help: "event or todo.")
    var kind: Kind

    @Argument(help: "What it is.")
    var summary: String

    @Option(help: "When it starts (events; todos may have one too).")
    var start: String?

    @Option(help: "When an event ends (or use --duration).")
    var end: String?

    @Option(help: "How long an event lasts: 90m, 1h, 1h30m, 2d.")
    var duration: String?

    @Option(help: "When a todo is due.")
    var due: String?

    @Option(help: "A category (repeat for several).")
    var category: [String] = []

    @Option(help: "#RRGGBB: the category's colour in the store (with --category), else the item's COLOR.")
    var color: String?

    @Option(help: "1 (highest) … 9 (lowest).")
    var priority: Int?

    @Option(help: "The UID of the parent todo.")
    var parent: String?

    @Option(parsing: .unconditional, help: "A reminder before the start (events) or due time (todos): -15m, -1h, -1d.")
    var alarm: String?

    @Option(help: "Where it takes place.")
    var location: String?

    @Option(help: "What it is about (\\n starts a new line).")
    var description: String?

    @Option(help: "A link for it (a booking, a meeting room, a ticket).")
    var url: String?

    @Flag(help: "A whole day (or days): --start and --end are days; without --end, one day.")
    var allDay = false

    @OptionGroup var repetition: RepeatOptions

    @Option(
        name: .customLong("calendar"),
        help: "The store calendar (created if missing). Default: config calendar, else Personal.")
    var calendarOption: String?

    /// `--calendar`, else the config file's `calendar`, else Personal.
    func calendarName() throws -> String { try calendarOption ?? UserConfig.current()["calendar"]?.value ?? "Personal" }

    @OptionGroup var zoneOption: InputZoneOption
    @OptionGroup var store: StoreOption

    func validate() throws {
        if kind == .event, start == nil { throw ValidationError("an event needs --start") }
        if let priority, !(0...9).contains(priority) { throw ValidationError("--priority takes 0–9") }
        if let color, !CategoryColor.isHex(color) { throw ValidationError("--color takes #RRGGBB, not \(color)") }
        if end != nil, duration != nil { throw ValidationError("use --end or --duration, not both") }
        if allDay, kind == .todo, start == nil, due == nil { throw ValidationError("--all-day needs --start or --due") }
        if repetition.removesRule { throw ValidationError("--repeat none is for edit") }
        if repetition.repeat != nil, start == nil, due == nil {
            throw ValidationError("--repeat needs --start (or --due for a todo)")
        }
        if repetition.repeatAfterDone != nil {
            if kind != .todo { throw ValidationError("--repeat-after-done is for todos") }
            if start == nil, due == nil { throw ValidationError("--repeat-after-done needs --due (or --start)") }
        }
    }

    func run() throws {
        let zone = try zoneOption.zone()
        let store = try store.open()
        if let parent, try store.item(uid: parent) == nil {
            throw ValidationError("no item with UID \(parent) in the store")
        }
        let now = CalendarDate.utc(Date())
        var core = ItemCore()
        core.uid = UUID().uuidString.lowercased() + "@icskit"
        core.stamp = now
        core.created = now
        core.lastModified = now
        core.summary = summary
        core.start = try start.map { try Self.when($0, zone, allDay: allDay) }
        core.location = location
        core.description = description?.replacingOccurrences(of: "\\n", with: "\n")
        core.url = url
        core.priority = priority
        core.categories = category.map { Category($0) }
        if let parent { core.relatedTo = [Relation(uid: parent, type: "PARENT")] }
        if let color, category.isEmpty { core.color = CSSColor.nearestName(to: color) }
        let reminder = try alarm.map { text in
            guard case .success(let offset) = Self.duration(text) else {
                throw ValidationError("--alarm takes a duration such as -15m, not \(text)")
            }
            return offset
        }
        let dueDate = try due.map { try Self.when($0, zone, allDay: allDay) }
        var component: CalendarComponent
        switch kind {
        case .event: component = .event(try event(core, zone: zone))
        case .todo:
            var todo = Todo()
            todo.core = core
            todo.due = dueDate
            todo.status = .needsAction
            component = .todo(todo)
        }
        if let reminder { component.alarms = [component.reminder(displaying: summary, before: reminder)] }
        if let anchor = core.start ?? dueDate, let rule = try repetition.rule(for: anchor, zone: zone) {
            component.core?.recurrenceRules = [rule]
        }
        repetition.applyAfterDone(to: &component)
        let colors = color.flatMap { color in category.first.map { [(category: $0, color: color)] } } ?? []
        let calendar = try calendarName()
        let isNewCalendar = try !store.hasCalendar(named: calendar)
        try store.add(component, to: calendar, categoryColors: colors)
        Output.print(core.uid!)
        Output.standardError(Self.made(component, calendar: calendar, isNewCalendar: isNewCalendar))
    }

    /// The new event: `--end` (a day's DTEND is the day after, exclusive: "--end 2026-12-27" means through the
    /// 27th) or `--duration` (whole days for an all-day event, RFC 5545 §3.8.2.5).
    private func event(_ core: ItemCore, zone: ZoneClock) throws -> Event {
        var event = Event()
        event.core = core
        event.end = try end.map { try Self.when($0, zone, allDay: allDay) }
        if allDay, let start = core.start, let end = event.end {
            guard !(end < start) else { throw ValidationError("--end is before --start") }
            event.end = LocalDateTime(end).adding(days: 1).calendarDate(.date)
        }
        if let duration {
            guard case .success(let length) = Self.duration(duration) else {
                throw ValidationError("--duration takes 90m, 1h, 1h30m or 2d, not \(duration)")
            }
            if core.start?.isDate == true, length.totalSeconds % 86_400 != 0 {
                throw ValidationError("an all-day event lasts whole days: --duration 1d, 2d …, not \(duration)")
            }
            event.duration = length
        }
        return event
    }

    /// What was made, for the person who typed it (the UID alone goes to standard output, for scripts):
    /// `added event "Tea": Fri 2026-11-27 09:00 Europe/Berlin, to Personal (a new calendar)`.
    static func made(_ component: CalendarComponent, calendar: String, isNewCalendar: Bool) -> String {
        let todo: Todo? = if case .todo(let todo) = component { todo } else { nil }
        var text = "added \(todo == nil ? "event" : "todo") \"\(component.core?.summary ?? "")\""
        if let start = component.core?.start {
            text += ": " + (todo == nil ? "" : "starts ") + Self.spoken(start)
        }
        if let due = todo?.due { text += (component.core?.start == nil ? ": " : ", ") + "due " + Self.spoken(due) }
        if component.core?.recurrenceRules.isEmpty == false {
            let fromDone = todo?.otherProperties.contains { $0.name == TodoSeries.repeatFromProperty } == true
            text += fromDone ? ", repeating from when it is done" : ", repeating"
        }
        return text + ", to \(calendar)" + (isNewCalendar ? " (a new calendar)" : "")
    }

    /// `Fri 2026-11-27 09:00 Europe/Berlin`, `Fri 2026-11-27 (all day)`, `Fri 2026-11-27 09:00 UTC`.
    static func spoken(_ date: CalendarDate) -> String {
        let day = LocalDateTime(date)
        let weekday = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][day.isoWeekday - 1]
        let text = "\(weekday) " + String(format: "%04d-%02d-%02d", day.year, day.month, day.day)
        guard !date.isDate else { return text + " (all day)" }
        let zone: String
        switch date.form {
        case .utc: zone = " UTC"
        case .zoned(let tzid): zone = " " + tzid.name
        default: zone = " (floating)"
        }
        return text + String(format: " %02d:%02d", day.hour, day.minute) + zone
    }

    /// `2026-11-23`, `2026-11-23T09:30`, `2026-11-23 09:30`, `today`, `tomorrow 09:30`, `friday 14:00`.
    /// A date or date and time as typed (`TypedInput.date`), in `zone`; unreadable text is a usage error.
    /// `allDay` keeps only the day.
    static func when(_ text: String, _ zone: ZoneClock, allDay: Bool = false) throws -> CalendarDate {
        switch TypedInput.date(text, in: zone, today: zone.wallClock(at: Date()).startOfDay) {
        case .success(let date):
            return allDay ? CalendarDate(unchecked: date.year, month: date.month, day: date.day) : date
        case .failure(let problem): throw ValidationError(problem.description)
        }
    }

    /// `90m`, `1h30m`, `2d`, `-15m` as a DURATION (`TypedInput.duration`).
    static func duration(_ text: String) -> Result<CalendarDuration, ValueError> { TypedInput.duration(text) }
}

/// RFC 7986 COLOR takes CSS3 colour names; a `#RRGGBB` is written as the nearest of them.
enum CSSColor {
    static let names: [(name: String, rgb: (Int, Int, Int))] = [
        ("black", (0, 0, 0)), ("white", (255, 255, 255)), ("gray", (128, 128, 128)), ("silver", (192, 192, 192)),
        ("red", (255, 0, 0)), ("maroon", (128, 0, 0)), ("crimson", (220, 20, 60)), ("orange", (255, 165, 0)),
        ("darkorange", (255, 140, 0)), ("gold", (255, 215, 0)), ("yellow", (255, 255, 0)), ("olive", (128, 128, 0)),
        ("lime", (0, 255, 0)), ("green", (0, 128, 0)), ("seagreen", (46, 139, 87)), ("teal", (0, 128, 128)),
        ("cyan", (0, 255, 255)), ("skyblue", (135, 206, 235)), ("dodgerblue", (30, 144, 255)), ("blue", (0, 0, 255)),
        ("navy", (0, 0, 128)), ("indigo", (75, 0, 130)), ("purple", (128, 0, 128)), ("violet", (238, 130, 238)),
        ("magenta", (255, 0, 255)), ("pink", (255, 192, 203)), ("hotpink", (255, 105, 180)), ("brown", (165, 42, 42)),
        ("chocolate", (210, 105, 30)), ("tan", (210, 180, 140)),
    ]

    static func nearestName(to hex: String) -> String {
        let value = Int(hex.dropFirst(), radix: 16) ?? 0
        let (r, g, b) = (value >> 16 & 0xFF, value >> 8 & 0xFF, value & 0xFF)
        return names.min { lhs, rhs in
            let a =
                (lhs.rgb.0 - r) * (lhs.rgb.0 - r) + (lhs.rgb.1 - g) * (lhs.rgb.1 - g) + (lhs.rgb.2 - b)
                * (lhs.rgb.2 - b)
            let c =
                (rhs.rgb.0 - r) * (rhs.rgb.0 - r) + (rhs.rgb.1 - g) * (rhs.rgb.1 - g) + (rhs.rgb.2 - b)
                * (rhs.rgb.2 - b)
            return a < c
        }!.name
    }
}
