import Foundation

/// How much of a calendar a shared feed shows: Outlook's three permission levels for a published calendar ("can
/// view when I'm busy", "titles and locations", "all details"; Google's "see only free/busy" and "see all event
/// details" are the first and last). docs/SHARING.md says what each holds, and why.
package enum ShareLevel: String, Sendable, Hashable, CaseIterable, Codable {
    /// When: each busy instance, its times and whether it is busy, tentative or out of office.
    case busy
    /// When, and the title and place.
    case titles
    /// Everything but alarms and ICSKit's own X- properties.
    case full
}

/// The calendar a shared feed serves (`icskit share`, `serve`, `publish`), made from the calendars shared as a pure
/// function: no store, no network.
///
/// - Whatever the level, an item with CLASS:PRIVATE or CONFIDENTIAL — or a CLASS it does not know, which RFC 5545
///   §3.8.1.3 says to treat as PRIVATE — is shown at the busy level; a transparent (TRANSP:TRANSPARENT) or cancelled
///   item blocks no time and is left out (its instance, of a series: an EXDATE).
/// - Below full, UIDs are replaced by a keyed hash (`hashUID`): the same item keeps the same UID from one fetch to the
///   next, so an update stays an update, and the original UID, which can name a person or a booking, is not shown.
/// - Only what the window holds is sent: a series keeps its rules and overrides, cut to the window when it reaches
///   outside it (DTSTART at its first instance inside, UNTIL at its last) as long as the cut series has exactly its
///   instances inside; else it is sent as its instances within the window, each an event of its own, so that no
///   instance outside the window is shown.
/// - Todos are left out unless `todos` says otherwise.
package struct SharedFeed {
    package struct Options {
        package var level: ShareLevel
        /// The instants the feed covers.
        package var window: Range<Date>
        package var todos = false
        /// NAME and X-WR-CALNAME.
        package var name: String
        /// REFRESH-INTERVAL and X-PUBLISHED-TTL: how often subscribers ask again.
        package var refresh = CalendarDuration(hours: 1)
        /// A keyed hash of a UID (the same key for the life of a share).
        package var hashUID: @Sendable (String) -> String

        package init(
            level: ShareLevel, window: Range<Date>, todos: Bool = false, name: String,
            hashUID: @escaping @Sendable (String) -> String
        ) {
            (self.level, self.window, self.todos, self.name, self.hashUID) = (level, window, todos, name, hashUID)
        }
    }

    /// The feed's calendar (METHOD:PUBLISH) from `calendars`: their shared items and the VTIMEZONEs those name.
    package static func calendar(_ calendars: [ICalendar], options: Options) -> ICalendar {
        var feed = ICalendar()
        feed.productID = ICS.productID
        feed.version = "2.0"
        feed.method = "PUBLISH"
        feed.name = options.name
        feed.otherProperties = [
            Property("X-WR-CALNAME", text: options.name),
            Property("REFRESH-INTERVAL", parameters: [Parameter("VALUE", "DURATION")], value: options.refresh.icsValue),
            Property("X-PUBLISHED-TTL", value: options.refresh.icsValue),
        ]
        var items: [CalendarComponent] = []
        var zones: [String: TimeZoneDefinition] = [:]
        for calendar in calendars {
            for zone in calendar.timeZones { if let tzid = zone.tzid { zones[tzid] = zones[tzid] ?? zone } }
            items += SharedSeries.items(of: calendar, options: options)
        }
        let used = Set(items.flatMap { $0.core.map(Self.tzids) ?? [] })
        feed.components =
            zones.keys.sorted().filter(used.contains).compactMap { zones[$0].map { .timeZone($0) } } + items
        return feed
    }

    /// The TZIDs an item's times name.
    static func tzids(_ core: ItemCore) -> [String] {
        ([core.start, core.recurrenceID?.date] + core.recurrenceDates.map(\.start) + core.exceptionDates)
            .compactMap { $0?.tzid }
    }

    // MARK: One item at a level

    /// The level an item is shown at: the share's, or busy for a private, confidential or unknown CLASS.
    static func level(of core: ItemCore, _ level: ShareLevel) -> ShareLevel {
        guard let raw = core.classification?.rawValue.uppercased(), raw != "PUBLIC" else { return level }
        return .busy
    }

    /// Whether an item blocks time at all: not transparent, not cancelled.
    static func isShown(_ component: CalendarComponent) -> Bool {
        switch component {
        case .event(let event): return event.transparency != .transparent && event.core.status != .cancelled
        case .todo(let todo): return todo.core.status != .cancelled
        default: return false
        }
    }

    /// An item as the level shows it: at busy and titles, its times and rules, a hashed UID and a word for what it
    /// is; at titles its SUMMARY and LOCATION too; at full all of it but alarms and X-ICSKIT- properties.
    static func shown(_ component: CalendarComponent, level share: ShareLevel, hashUID: (String) -> String)
        -> CalendarComponent?
    {
        guard isShown(component), var core = component.core else { return nil }
        let level = Self.level(of: core, share)
        if level == .full {
            var full = component
            switch full {
            case .event(var event):
                event.alarms = []
                event.otherProperties.removeAll { $0.name.hasPrefix("X-ICSKIT-") }
                full = .event(event)
            case .todo(var todo):
                todo.alarms = []
                todo.otherProperties.removeAll { $0.name.hasPrefix("X-ICSKIT-") }
                full = .todo(todo)
            default: break
            }
            return full
        }
        var kept = ItemCore()
        kept.uid = core.uid.map(hashUID)
        kept.stamp = core.stamp
        kept.sequence = core.sequence
        kept.start = core.start
        kept.recurrenceID = core.recurrenceID
        kept.recurrenceRules = core.recurrenceRules
        kept.recurrenceDates = core.recurrenceDates
        kept.exceptionDates = core.exceptionDates
        kept.status = core.status == .tentative ? .tentative : nil
        kept.summary = level == .titles ? core.summary : Self.word(for: component)
        if level == .titles { kept.location = core.location }
        core = kept
        switch component {
        case .event(let event):
            var busy = Event()
            busy.core = core
            (busy.end, busy.duration) = (event.end, event.duration)
            busy.transparency = nil
            return .event(busy)
        case .todo(let todo):
            var busy = Todo()
            busy.core = core
            (busy.due, busy.duration, busy.completed) = (todo.due, todo.duration, todo.completed)
            busy.core.status = todo.core.status
            return .todo(busy)
        default:
            return nil
        }
    }

    /// What a busy-level item says it is: Busy, Tentative, Out of office (Microsoft's busy status OOF), or Task.
    static func word(for component: CalendarComponent) -> String {
        guard case .event(let event) = component else { return "Task" }
        let status = event.otherProperties.first { $0.name == "X-MICROSOFT-CDO-BUSYSTATUS" }?.value.uppercased()
        if status == "OOF" { return "Out of office" }
        if event.core.status == .tentative || status == "TENTATIVE" { return "Tentative" }
        return "Busy"
    }
}

extension SharedFeed {
    /// A window relative to now, `-30d..+12mo`: two signed lengths of days (d), weeks (w), months (mo) or years (y),
    /// the first before the second, neither more than five years from now (a feed of every instance of a daily
    /// series over decades serves no subscriber); months and years by the calendar (UTC). Nil when it cannot be read.
    package static func window(_ text: String, now: Date) -> Range<Date>? {
        let ends = text.components(separatedBy: "..")
        let reach = 5 * 366 * 86_400.0
        guard ends.count == 2, let from = moved(now, by: ends[0]), let to = moved(now, by: ends[1]), from < to,
            abs(from.timeIntervalSince(now)) <= reach, abs(to.timeIntervalSince(now)) <= reach
        else { return nil }
        return from..<to
    }

    private static func moved(_ date: Date, by text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let sign = trimmed.first, sign == "-" || sign == "+" else { return nil }
        let body = trimmed.dropFirst()
        let digits = body.prefix { $0.isNumber }
        guard let count = Int(digits), count <= 100_000 else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let amount = sign == "-" ? -count : count
        switch body.dropFirst(digits.count).lowercased() {
        case "d": return calendar.date(byAdding: .day, value: amount, to: date)
        case "w": return calendar.date(byAdding: .day, value: amount * 7, to: date)
        case "mo": return calendar.date(byAdding: .month, value: amount, to: date)
        case "y": return calendar.date(byAdding: .year, value: amount, to: date)
        default: return nil
        }
    }
}
