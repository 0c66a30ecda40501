import ArgumentParser
import CalendarModel
import CalendarStore
import CalendarStoreSync
import CalendarSync
import Foundation

/// `icskit export`: the store (or a week of it) as one file any calendar app accepts.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export calendars from the store as RFC 5545 (a VTIMEZONE for every TZID, bare IANA names), "
            + "or a week as one HTML page.",
        discussion: """
            With a window (--week, --today, --from/--to) only the items that touch it are written: series with \
            all their overrides. --expand writes each instance as an item of its own (todos too), for apps that \
            do not understand RRULE.

            --format html writes one self-contained page (no network) for the 7 days from the window's start \
            (default: this week): a time grid with overlapping events side by side and timed events over several \
            days drawn on each day, a bar strip for all-day events, a Gantt chart of what covers several days and \
            of each group of overlapping events, and the todos due in the week, in the colours the legend \
            explains, with today marked. With --month it is the month instead: one box per day with its events \
            and todos. Both print on A4 landscape.

            Examples:
              icskit export --week this -o week.ics
              icskit export --week this --for google -o week-google.ics
              icskit export --calendar Work --from 2026-12-01 --to +31d --expand \\
                -o december.ics
              icskit export --format html --week next --tz Europe/Berlin -o week.html
              icskit export --format html --month this -o month.html
            """
    )

    @Option(help: "Only this store calendar.", completion: CalendarCompletion.kind)
    var calendar: String?

    @OptionGroup var window: WindowOptions

    @Flag(help: "Write every instance in the window as a standalone event (its own UID, no RRULE).")
    var expand = false

    @Option(help: "ics (default) or html (a week view; with --month a month view).")
    var format: ExportFormat = .ics

    enum ExportFormat: String, ExpressibleByArgument { case ics, html }

    @Option(name: .shortAndLong, help: "Output file; - writes standard output (the default).")
    var output = "-"

    @Option(
        help: ArgumentHelp(
            "Write a vdir instead: one .ics per UID in this directory (created when missing), as khal and vdirsyncer "
                + "keep them; files of other UIDs stay.", valueName: "DIR"))
    var vdir: String?

    @Flag(
        help: ArgumentHelp(
            "Write what strict readers and servers accept where the meaning is recoverable (as convert --repair); "
                + "each change is reported on standard error."))
    var repair = false

    @Option(
        name: .customLong("max-total"),
        help: ArgumentHelp(
            "The most instances an HTML page draws; past it the page and standard error say it is incomplete.",
            valueName: "N"))
    var maxTotal = 5_000

    @OptionGroup var target: ForAppOption

    @OptionGroup var store: StoreOption

    @OptionGroup var me: MeOption

    var hasWindow: Bool { window.isGiven }

    @OptionGroup var zoneRules: ZonesOption

    func validate() throws {
        if expand, !hasWindow { throw ValidationError("--expand needs a window (--week, --today or --from/--to)") }
        if expand, format == .html { throw ValidationError("--expand is for --format ics") }
        if vdir != nil, format == .html || output != "-" { throw ValidationError("--vdir writes ics files, not -o") }
        if maxTotal < 1 { throw ValidationError("--max-total must be at least 1") }
    }

    func run() throws {
        let store = try store.open(.readOnly)
        if output != "-",
            ["", "-wal", "-shm", "-journal"].contains(where: { Output.isSameFile(output, store.path + $0) })
        {
            throw CommandFailure(
                "refusing to write the export over the store itself (\(store.path)); choose another "
                    + "-o file")
        }
        try CalendarFiles.requireCalendar(calendar, in: store)
        let zone = try window.zone()
        if format == .html {
            try writeHTML(store, zone: zone)
            return
        }
        var range: Range<Date>?
        if hasWindow {
            let (start, end) = try window.window(in: zone)
            range = zone.date(of: start)..<zone.date(of: end)
        }
        let loaded = try store.loadCalendars(named: calendar, window: range)
        let combined = try combined(loaded, range: range, zone: zone, store: store)
        if let vdir {
            do {
                let storage = try VdirStorage(path: vdir)
                let result = try storage.export(
                    [combined], displayName: loaded.count == 1 ? loaded[0].name : nil,
                    color: loaded.count == 1 ? loaded[0].calendar.color : nil)
                Output.standardError(
                    "\(vdir): \(result.written.counted("file")) written, \(result.same) already the same")
            } catch let failure as SyncStorageError {
                throw CommandFailure(failure.description)
            }
            return
        }
        if let range, !combined.components.contains(where: \.isItem) {
            Output.standardError(
                "warning: nothing between \(zone.wallClock(at: range.lowerBound).iso8601) and "
                    + "\(zone.wallClock(at: range.upperBound).iso8601) (in \(zone.identifier)): the calendar written "
                    + "holds no item")
        }
        let bytes = ICS.write([combined])
        try Output.emit(bytes, to: output)
    }

    /// One VCALENDAR for everything (several in one file trip up some apps): one calendar keeps its own properties
    /// (NAME, X-WR-CALNAME, UID, COLOR, REFRESH-INTERVAL …); the window's items (or instances, `--expand`), one
    /// version a UID, one definition a zone, the category colours, then what `--for` or `--repair` asks.
    private func combined(
        _ loaded: [(calendar: ICalendar, name: String)], range: Range<Date>?, zone: ZoneClock, store: CalendarStore
    ) throws -> ICalendar {
        var combined = ICalendar()
        if loaded.count == 1 {
            combined = loaded[0].calendar
            combined.components = []
        } else {
            combined.name = "ICSKit export"
        }
        combined.productID = ICS.productID
        combined.version = "2.0"
        var parts: [(components: [CalendarComponent], calendar: String)] = []
        for (calendar, name) in loaded {
            var chosen = calendar
            if let range {
                chosen = expand ? Self.expanded(chosen, range, zone) : Self.touching(chosen, range, zone)
            }
            parts.append((chosen.normalizingTimeZones().calendar.components, name))
        }
        combined.components += Self.oneVersionPerUID(parts)
        combined.components = Self.oneDefinitionPerZone(combined.components)
        combined.otherProperties += try Self.categoryColors(of: combined, in: store)
        if let app = target.app {
            let adapted = combined.adapted(for: app, zone: CalendarZone(known: zone.identifier), file: "export")
            CalendarFiles.report(adapted.diagnostics, quiet: false)
            return adapted.calendar
        } else if repair {
            let repaired = combined.repairedForPeers(file: "export")
            CalendarFiles.report(repaired.diagnostics, quiet: false)
            return repaired.calendar
        }
        return combined
    }

    /// The calendars' components in one list, where two calendars hold the same UID (a file imported into both)
    /// only the newer version's (`Revision`; the first calendar's when equal), with a
    /// warning: one VCALENDAR cannot hold a UID twice.
    static func oneVersionPerUID(_ parts: [(components: [CalendarComponent], calendar: String)]) -> [CalendarComponent]
    {
        var owner: [String: (part: Int, revision: Revision)] = [:]
        for (index, part) in parts.enumerated() {
            for component in part.components {
                guard let core = component.core, core.recurrenceID == nil, let uid = core.uid else { continue }
                if let kept = owner[uid], kept.part != index {
                    let newer = core.revision > kept.revision
                    Output.standardError(
                        "warning: UID \(uid) is in calendars \(parts[kept.part].calendar) and \(part.calendar); "
                            + "the version of \(newer ? part.calendar : parts[kept.part].calendar) is written")
                    if !newer { continue }
                }
                owner[uid] = (index, core.revision)
            }
        }
        return parts.enumerated().flatMap { index, part in
            part.components.filter { component in
                guard let uid = component.core?.uid, let kept = owner[uid] else { return true }
                return kept.part == index
            }
        }
    }

    /// The same zone from two calendars once: each calendar's VTIMEZONE is trimmed to the years its own items use,
    /// so the one that begins earliest is kept (it covers the other's years too).
    static func oneDefinitionPerZone(_ components: [CalendarComponent]) -> [CalendarComponent] {
        func firstOnset(_ component: CalendarComponent) -> String {
            guard case .timeZone(let definition) = component else { return "" }
            return definition.component.components.compactMap { $0.property("DTSTART")?.value }.min() ?? ""
        }
        var chosen: [String: Int] = [:]
        for (index, component) in components.enumerated() {
            guard case .timeZone(let definition) = component, let tzid = definition.tzid else { continue }
            if let kept = chosen[tzid], firstOnset(components[kept]) <= firstOnset(component) { continue }
            chosen[tzid] = index
        }
        let kept = Set(chosen.values)
        return components.enumerated().filter { index, component in
            guard case .timeZone = component else { return true }
            return kept.contains(index)
        }.map(\.element)
    }

    /// What an HTML page shows of a stretch of days: the instances (with their calendars) by start, the todos due
    /// or done in it, and the colours.
    struct PageContent {
        var title: String
        var occurrences: [(occurrence: Occurrence, calendar: String)] = []
        var todos: [HTMLWeekPage.TodoRow] = []
        var colors = PageColors(categoryColors: [:], calendarColors: [:])
        /// What the page must say it leaves out (an instance budget spent), also said on standard error.
        var notes: [String] = []
    }

    func pageContent(_ store: CalendarStore, from first: LocalDateTime, to end: LocalDateTime, zone: ZoneClock) throws
        -> PageContent
    {
        let range = zone.date(of: first)..<zone.date(of: end)
        let loaded = try store.loadCalendars(named: calendar, window: range)
        var content = PageContent(title: calendar ?? "Calendar")
        // A page of more than a few thousand boxes is read by nobody, and a handful of FREQ=SECONDLY series would
        // make one of hundreds of MB: the page has a budget, as `agenda` has.
        var options = ExpansionOptions()
        options.viewerZoneName = zone.identifier
        options.limitPerSeries = maxTotal
        options.budget = InstanceBudget(limit: maxTotal)
        var diagnostics: [Diagnostic] = []
        for (calendar, name) in loaded {
            let expansion = calendar.occurrences(
                from: range.lowerBound, to: range.upperBound, options: options, file: name)
            diagnostics += expansion.diagnostics
            content.occurrences += expansion.occurrences.map { ($0, name) }
            content.todos += HTMLWeekPage.TodoRow.rows(of: calendar, name: name, from: first, to: end, zone: zone)
        }
        content.occurrences.sort {
            ($0.occurrence.startDate, $0.occurrence.endDate) < ($1.occurrence.startDate, $1.occurrence.endDate)
        }
        if calendar == nil {
            // The page is named after the calendars it shows, not every calendar of the store.
            let shown = Set(content.occurrences.map(\.calendar) + content.todos.map(\.calendar))
            let names = loaded.map(\.name).filter(shown.contains)
            content.title = names.isEmpty ? "Calendar" : names.joined(separator: " · ")
        }
        if options.budget?.isSpent == true {
            let note =
                "this page is incomplete: the window holds more than \(maxTotal) instances and only \(maxTotal) "
                + "are drawn (a flood of FREQ=SECONDLY or MINUTELY series looks like this; --max-total "
                + "raises the limit)"
            content.notes.append(note)
        }
        CalendarFiles.report(diagnostics, quiet: false, fromStore: true)  // the budget's own warning among them
        content.todos.sort {
            ($0.todo.isCompleted ? 1 : 0, $0.due?.wallSeconds ?? .max) < (
                $1.todo.isCompleted ? 1 : 0, $1.due?.wallSeconds ?? .max
            )
        }
        content.colors = try PageColors.ofStore(store, shown: loaded.map(\.name))
        return content
    }

    /// The 7 days from the window's start (this week without one) as an HTML page; with --month, that month.
    func writeHTML(_ store: CalendarStore, zone: ZoneClock) throws {
        if window.month != nil {
            let (first, next) = try window.window(in: zone)
            // Whole weeks, Monday to Sunday, around the month.
            let gridStart = first.adding(days: 1 - first.isoWeekday)
            let lastDay = next.adding(days: -1)
            let gridEnd = lastDay.adding(days: 8 - lastDay.isoWeekday)
            let content = try pageContent(store, from: gridStart, to: gridEnd, zone: zone)
            let page = HTMLMonthPage(
                title: content.title, zone: zone, month: first, gridStart: gridStart, gridEnd: gridEnd,
                occurrences: content.occurrences, todos: content.todos, colors: content.colors, notes: content.notes,
                now: Date(), me: me.identity(store: self.store))
            try Output.emit(Array(page.html().utf8), to: output)
            return
        }
        var weekStart: LocalDateTime
        if hasWindow {
            weekStart = try window.window(in: zone).start.startOfDay
        } else {
            let today = zone.wallClock(at: Date()).startOfDay
            weekStart = today.adding(days: 1 - today.isoWeekday)
        }
        let content = try pageContent(store, from: weekStart, to: weekStart.adding(days: 7), zone: zone)
        let layout = WeekLayout(occurrences: content.occurrences.map(\.occurrence), weekStart: weekStart, zone: zone)
        let page = HTMLWeekPage(
            title: content.title, zone: zone, layout: layout, todos: content.todos, colors: content.colors,
            calendarOfEntry: layout.entries.map { content.occurrences[$0.index].calendar }, notes: content.notes,
            now: Date(), me: me.identity(store: self.store))
        try Output.emit(Array(page.html().utf8), to: output)
    }

    /// The store's colours of the categories the exported items use, as calendar properties
    /// (`X-ICSKIT-CATEGORY-COLOR;X-CATEGORY=Work:#3366FF`): iCalendar has no place for a category's colour, and
    /// `icskit import` reads these back into another store.
    static func categoryColors(of calendar: ICalendar, in store: CalendarStore) throws -> [Property] {
        let used = Set(
            calendar.components.flatMap { component -> [String] in
                switch component {
                case .event(let event): return event.categories.map { $0.name.lowercased() }
                case .todo(let todo): return todo.categories.map { $0.name.lowercased() }
                case .journal(let journal): return journal.categories.map { $0.name.lowercased() }
                default: return []
                }
            })
        return try store.categoryColors().sorted { $0.key < $1.key }.compactMap { name, color in
            guard used.contains(name.lowercased()) else { return nil }
            return CategoryColor.property(category: name, color: color)
        }
    }

    /// The calendar's items that have an instance in the window, every component of their UID included.
    static func touching(_ calendar: ICalendar, _ range: Range<Date>, _ zone: ZoneClock) -> ICalendar {
        var options = ExpansionOptions()
        options.components = Set(ItemKind.allCases)
        options.viewerZoneName = zone.identifier
        let uids = Set(
            calendar.occurrences(from: range.lowerBound, to: range.upperBound, options: options)
                .occurrences.compactMap(\.uid))
        var result = calendar
        result.components = calendar.components.filter { component in
            component.identity.uid.map(uids.contains) ?? (component.name == "VTIMEZONE")
        }
        return result
    }

    /// Every instance in the window as an item of its own (events, todos and journals alike): UID
    /// `<uid>-<start>`, no recurrence properties.
    static func expanded(_ calendar: ICalendar, _ range: Range<Date>, _ zone: ZoneClock) -> ICalendar {
        var options = ExpansionOptions()
        options.components = Set(ItemKind.allCases)
        options.viewerZoneName = zone.identifier
        var result = calendar
        result.components = calendar.components.filter { $0.name == "VTIMEZONE" }
        for occurrence in calendar.occurrences(from: range.lowerBound, to: range.upperBound, options: options)
            .occurrences
        {
            let instance = occurrence.recurrenceID.map { $0.icsValue } ?? occurrence.start.icsValue
            // A todo's instance starts at its DTSTART, or (without one) at its DUE; an event's ends explicitly.
            var item = occurrence.item.component.instance(
                start: occurrence.start, end: occurrence.end, recurrenceID: nil)
            if case .event(var event) = item {
                (event.end, event.duration) = (occurrence.end, nil)
                item = .event(event)
            }
            let uid = (item.core?.uid ?? "icskit") + "-" + instance
            item.core?.uid = uid
            result.components.append(item)
        }
        return result
    }
}
