import Foundation

/// The items of one calendar a feed shares, series by series: kept as rules and overrides when the series lies
/// within the window, else as its instances within the window (`SharedFeed`).
enum SharedSeries {
    /// A series as a calendar holds it: its master (nil for overrides without one) and overrides.
    struct Group {
        var master: CalendarComponent?
        var overrides: [CalendarComponent] = []
        var all: [CalendarComponent] { (master.map { [$0] } ?? []) + overrides }
    }

    static func items(of calendar: ICalendar, options: SharedFeed.Options) -> [CalendarComponent] {
        let kinds: Set<ItemKind> = options.todos ? [.event, .todo] : [.event]
        var groups: [Group] = []
        var byKey: [String: Int] = [:]
        for component in calendar.components {
            guard let kind = component.kind, kinds.contains(kind), let core = component.core else { continue }
            let key = kind.rawValue + "\u{1F}" + (core.uid ?? "\u{0}\(groups.count)")
            let index = byKey[key] ?? groups.count
            if index == groups.count {
                groups.append(Group())
                byKey[key] = index
            }
            if core.recurrenceID == nil, groups[index].master == nil {
                groups[index].master = component
            } else {
                groups[index].overrides.append(component)
            }
        }
        var context = calendar
        context.components = calendar.components.filter { !$0.isItem }
        return groups.flatMap { group in shared(group, context: context, options: options) }
    }

    private static func shared(_ group: Group, context: ICalendar, options: SharedFeed.Options)
        -> [CalendarComponent]
    {
        let hash = options.hashUID
        guard let master = group.master, master.core?.isRecurring == true || !group.overrides.isEmpty else {
            // One item: shown when it touches the window.
            return group.all.filter { touches($0, context: context, window: options.window) }.compactMap {
                SharedFeed.shown($0, level: options.level, hashUID: hash)
            }
        }
        var group = group
        if !liesWithin(group, context: context, window: options.window) {
            guard let kept = clipped(group, context: context, window: options.window) else {
                return instances(group, context: context, options: options)
            }
            group = kept
        }
        guard let master = group.master else { return [] }
        // Rules and overrides. An override not shown leaves its instance out of the master (an EXDATE); a master not
        // shown leaves its overrides as events of their own.
        guard var shownMaster = SharedFeed.shown(master, level: options.level, hashUID: hash) else {
            return group.overrides.compactMap { standalone($0, options: options) }
        }
        var result: [CalendarComponent] = []
        for override in group.overrides {
            if let shown = SharedFeed.shown(override, level: options.level, hashUID: hash) {
                result.append(shown)
            } else if let id = override.core?.recurrenceID?.date {
                shownMaster.core?.exceptionDates.append(id)
            }
        }
        // One UID for the whole series: when a private part is shown at busy (its UID hashed) beside parts shown in
        // full, all take the hash, so the overrides still name their series.
        let shown = [shownMaster] + result
        guard Set(shown.compactMap { $0.core?.uid }).count > 1, let uid = master.core?.uid else { return shown }
        return shown.map { component in
            var component = component
            component.core?.uid = hash(uid)
            return component
        }
    }

    /// A series that reaches outside the window as a rule clipped to it: DTSTART moved to its first instance in the
    /// window (its end kept as a DURATION), every RRULE ending (UNTIL) at its last, EXDATEs and overrides outside
    /// dropped. Taken only when it has exactly the original's instances in the window; nil otherwise (a series with
    /// RDATEs, one whose overrides move instances across the window's edges, one the rules cannot be cut from).
    private static func clipped(_ group: Group, context: ICalendar, window: Range<Date>) -> Group? {
        guard let master = group.master, var core = master.core, !core.recurrenceRules.isEmpty,
            core.recurrenceDates.isEmpty, let start = core.start,
            !group.overrides.contains(where: { $0.core?.recurrenceID?.thisAndFuture == true })
        else { return nil }
        let before = occurrences(group, context: context, window: window)
        let ids = before.map { (id: $0.recurrenceID ?? $0.start, at: $0.recurrenceDate ?? $0.startDate) }
        guard let first = ids.min(by: { $0.at < $1.at }), let last = ids.max(by: { $0.at < $1.at }) else { return nil }
        var calendar = context
        calendar.components += group.all
        let time = CalendarTime(calendar: calendar, viewerZone: "UTC")
        let within = { (date: CalendarDate) in (first.at...last.at).contains(time.date(of: date)) }
        var shifted = master
        switch master {
        case .event(var event):
            if let end = event.end {
                let seconds = Int(time.date(of: end).timeIntervalSince(time.date(of: start)))
                guard seconds >= 0 else { return nil }
                event.duration =
                    start.isDate ? CalendarDuration(days: seconds / 86_400) : CalendarDuration(exactSeconds: seconds)
                event.end = nil
            }
            shifted = .event(event)
        default: return nil
        }
        let until = RecurrenceRule.until(
            last: LocalDateTime(last.id), instant: Int64(last.at.timeIntervalSince1970.rounded(.down)),
            startForm: last.id.form)
        core.start = first.id
        core.recurrenceRules = core.recurrenceRules.map { rule in
            var rule = rule
            (rule.count, rule.until) = (nil, until)
            return rule
        }
        core.exceptionDates = core.exceptionDates.filter(within)
        shifted.core = core
        let overrides = group.overrides.filter { $0.core?.recurrenceID.map { within($0.date) } ?? false }
        let kept = Group(master: shifted, overrides: overrides)
        let after = occurrences(kept, context: context, window: window)
        let instants = { (list: [Occurrence]) in
            list.map { [$0.startDate, $0.endDate] }.sorted { $0.lexicographicallyPrecedes($1) }
        }
        return instants(after) == instants(before) ? kept : nil
    }

    /// The occurrences of a series within the window.
    private static func occurrences(_ group: Group, context: ICalendar, window: Range<Date>) -> [Occurrence] {
        var calendar = context
        calendar.components += group.all
        var options = ExpansionOptions()
        options.components = [.event, .todo]
        options.viewerZoneName = "UTC"
        return calendar.occurrences(from: window.lowerBound, to: window.upperBound, options: options).occurrences
    }

    /// An override whose series is not shown, as an event of its own (its UID made of the series' and its instance).
    private static func standalone(_ override: CalendarComponent, options: SharedFeed.Options) -> CalendarComponent? {
        var item = override
        guard var core = item.core, let id = core.recurrenceID?.date else { return nil }
        core.uid = (core.uid ?? "") + "/" + id.icsValue
        core.recurrenceID = nil
        item.core = core
        return SharedFeed.shown(item, level: options.level, hashUID: options.hashUID)
    }

    /// Whether a single item's time touches the window (an item without a time is left out).
    private static func touches(_ component: CalendarComponent, context: ICalendar, window: Range<Date>) -> Bool {
        var calendar = context
        calendar.components.append(component)
        var options = ExpansionOptions()
        options.components = [.event, .todo]
        options.viewerZoneName = "UTC"
        return !calendar.occurrences(from: window.lowerBound, to: window.upperBound, options: options).occurrences
            .isEmpty
    }

    /// Whether every instance of the series lies in the window: it starts in it, and nothing of it (a rule without
    /// end, a later RDATE, an override moved out) comes after.
    private static func liesWithin(_ group: Group, context: ICalendar, window: Range<Date>) -> Bool {
        guard let master = group.master?.core, let start = master.start ?? group.master?.todoDue,
            master.recurrenceRules.allSatisfy({ $0.count != nil || $0.until != nil })
        else { return false }
        var calendar = context
        calendar.components += group.all
        let time = CalendarTime(calendar: calendar, viewerZone: "UTC")
        guard time.date(of: start) >= window.lowerBound else { return false }
        var options = ExpansionOptions()
        options.components = [.event, .todo]
        options.viewerZoneName = "UTC"
        options.limitPerSeries = 1
        // Past the window's end, as far as any bounded rule can reach in practice.
        let later = calendar.occurrences(
            from: window.upperBound, to: window.upperBound.addingTimeInterval(200 * 366 * 86_400), options: options)
        return later.occurrences.isEmpty
    }

    /// The series' instances within the window, each an item of its own (UID: the series' and the instance's).
    private static func instances(_ group: Group, context: ICalendar, options: SharedFeed.Options)
        -> [CalendarComponent]
    {
        var calendar = context
        calendar.components += group.all
        var expansion = ExpansionOptions()
        expansion.components = [.event, .todo]
        expansion.viewerZoneName = "UTC"
        return calendar.occurrences(from: options.window.lowerBound, to: options.window.upperBound, options: expansion)
            .occurrences.compactMap { occurrence in
                if case .journal = occurrence.item { return nil }
                var component = occurrence.item.component.instance(
                    start: occurrence.start, end: occurrence.end, recurrenceID: nil)
                let id = occurrence.recurrenceID ?? occurrence.start
                let uid = (component.core?.uid ?? "") + "/" + id.icsValue
                component.core?.uid = uid
                return SharedFeed.shown(component, level: options.level, hashUID: options.hashUID)
            }
    }
}

extension CalendarComponent {
    /// A todo's DUE, which places it when it has no DTSTART.
    fileprivate var todoDue: CalendarDate? {
        if case .todo(let todo) = self { return todo.due }
        return nil
    }
}
