import Foundation

/// One instance of an event, todo or journal in time.
public struct Occurrence: Sendable, Hashable {
    /// The component that describes an instance: the series' master, or the override for that instance.
    public enum Item: Sendable, Hashable {
        /// An event's instance.
        case event(Event)
        /// A todo's instance.
        case todo(Todo)
        /// A journal entry's instance.
        case journal(Journal)

        /// The shared properties of the item.
        package var core: ItemCore {
            switch self {
            case .event(let event): return event.core
            case .todo(let todo): return todo.core
            case .journal(let journal): return journal.core
            }
        }

        /// The item as a component of a calendar.
        package var component: CalendarComponent {
            switch self {
            case .event(let event): return .event(event)
            case .todo(let todo): return .todo(todo)
            case .journal(let journal): return .journal(journal)
            }
        }

        /// Event, todo or journal.
        public var kind: ItemKind {
            switch self {
            case .event: return .event
            case .todo: return .todo
            case .journal: return .journal
            }
        }
    }

    /// The component describing the instance, shared by every instance it describes (a series can have
    /// thousands): copying an occurrence copies a reference, not an event.
    final class Source: Sendable, Hashable {
        let item: Item
        let core: ItemCore
        let kind: ItemKind
        let hasAlarms: Bool
        let isCompletedTodo: Bool

        init(_ item: Item) {
            self.item = item
            core = item.core
            kind = item.kind
            switch item {
            case .event(let event): (hasAlarms, isCompletedTodo) = (!event.alarms.isEmpty, false)
            case .todo(let todo): (hasAlarms, isCompletedTodo) = (!todo.alarms.isEmpty, todo.isCompleted)
            case .journal: (hasAlarms, isCompletedTodo) = (false, false)
            }
        }

        static func == (lhs: Source, rhs: Source) -> Bool { lhs === rhs || lhs.item == rhs.item }
        func hash(into hasher: inout Hasher) { hasher.combine(item) }
    }

    let source: Source
    /// The event, todo or journal this is an instance of (an override's own when it has one).
    public var item: Item { source.item }
    /// The shared properties of `item` (UID, SUMMARY, LOCATION …).
    public var core: ItemCore { source.core }
    /// The instance's start in the series' rule (its RECURRENCE-ID); nil for a component that does not recur.
    public var recurrenceID: CalendarDate?
    /// Start and end as wall-clock values in the component's own form and zone.
    public var start: CalendarDate
    /// The end as a value in the start's form.
    public var end: CalendarDate
    /// The instants. Zoned and UTC times are absolute; floating times and dates are placed in the viewer's zone.
    public var startDate: Date
    /// The end as an instant.
    public var endDate: Date
    /// From `startDate` to `endDate`, as Foundation's interval (an end before the start counts as the start).
    public var interval: DateInterval { DateInterval(start: startDate, end: max(startDate, endDate)) }
    /// The instant of `recurrenceID`, placed the same way.
    package var recurrenceDate: Date?
    /// Whether the start is floating: a floating time or date, or a TZID nothing explains, placed in the viewer's
    /// zone. Such a time is shown as written, without an offset.
    public var isFloating = false

    /// The item's UID.
    public var uid: String? { source.core.uid }
    /// The item's SUMMARY.
    public var summary: String? { source.core.summary }
    /// The item's STATUS.
    public var status: Status? { source.core.status }
    /// The item's LOCATION, without copying the item's other fields.
    package var location: String? { source.core.location }
    /// The item's CATEGORIES, without copying the item's other fields.
    package var categories: [Category] { source.core.categories }
    /// An all-day instance (DATE values): it stays on its date in every zone.
    public var isAllDay: Bool { start.isDate }
    /// `item.kind`, without copying the item.
    public var kind: ItemKind { source.kind }
    /// Whether the item overrides one instance of its series (it has a RECURRENCE-ID), without copying the item.
    public var isOverride: Bool { source.core.recurrenceID != nil }
    /// Whether the item has alarms (VALARM components).
    package var hasAlarms: Bool { source.hasAlarms }
    /// Whether the item is a completed todo.
    package var isCompletedTodo: Bool { source.isCompletedTodo }
}

extension Occurrence {
    /// An occurrence's times without its item: what the store's instance index keeps of an instance to list it
    /// again without expanding its series.
    package struct Timing: Sendable, Hashable {
        package var recurrenceID: CalendarDate?
        package var start: CalendarDate
        package var end: CalendarDate
        package var startDate: Date
        package var endDate: Date
        package var recurrenceDate: Date?
        package var isFloating: Bool

        package init(
            recurrenceID: CalendarDate?, start: CalendarDate, end: CalendarDate, startDate: Date, endDate: Date,
            recurrenceDate: Date?, isFloating: Bool
        ) {
            self.recurrenceID = recurrenceID
            self.start = start
            self.end = end
            self.startDate = startDate
            self.endDate = endDate
            self.recurrenceDate = recurrenceDate
            self.isFloating = isFloating
        }
    }

    /// The occurrences at these times, in their order, each of the item `items[item]` (which must be there); the
    /// instances of one item share it, as an expansion's do.
    package static func instances(of items: [Item?], at timings: [(item: Int, timing: Timing)]) -> [Occurrence] {
        var sources = [Source?](repeating: nil, count: items.count)
        return timings.map { (item, timing) in
            let source = sources[item] ?? Source(items[item]!)
            sources[item] = source
            return Occurrence(
                source: source, recurrenceID: timing.recurrenceID, start: timing.start, end: timing.end,
                startDate: timing.startDate, endDate: timing.endDate, recurrenceDate: timing.recurrenceDate,
                isFloating: timing.isFloating)
        }
    }

    /// Whether an instance [start, end) overlaps the window as expansion decides it: a span when it starts before
    /// the window ends and ends after it begins, an instant when it lies in the window.
    package static func overlaps(start: Int64, end: Int64, window: Range<Int64>) -> Bool {
        end > start ? start < window.upperBound && end > window.lowerBound : window.contains(start)
    }

    /// The window of whole seconds that expansion uses for [from, to).
    package static func seconds(from: Date, to: Date) -> Range<Int64> {
        let lower = Int64(from.timeIntervalSince1970.rounded(.down))
        return lower..<max(lower, Int64(to.timeIntervalSince1970.rounded(.up)))
    }
}

/// What to expand and how.
public struct ExpansionOptions: Sendable {
    /// Which kinds of item to expand: events only by default, as calendar views show them.
    public var components: Set<ItemKind> = [.event]
    /// The most rule instances one series may produce before it is stopped with a warning (hostile input such as
    /// `FREQ=SECONDLY` with no end).
    public var limitPerSeries = 100_000
    /// Reads X-WR-TIMEZONE as the x-wr-timezone tool does: UTC and floating times of events move into that zone.
    public var applyWRTimeZone = true
    /// Where IANA-named zones take their rules from when the file also defines them (`ZoneSource`).
    package var zones = ZoneSource.preferred
    /// The zone that floating times and dates are placed in: the viewer's zone, this machine's by default.
    public var viewerZone: CalendarZone {
        get { CalendarZone(known: viewerZoneName) }
        set { viewerZoneName = newValue.identifier }
    }
    /// `viewerZone`'s IANA name (the CLI's zones are checked where they are given).
    package var viewerZoneName = CalendarZone.current.identifier
    /// The most instances all expansions sharing this budget may produce together (one command's calendars share
    /// one); nil for no limit beyond `limitPerSeries`.
    package var budget: InstanceBudget?
    /// Whether a calendar of many series may be expanded on every core (`ICalendar.expandInParts`); the result is
    /// the same either way (tests compare both).
    package var inParts = true

    /// Events only, 100,000 instances per series, X-WR-TIMEZONE applied, floating times in this machine's zone.
    public init() {}
}

/// A limit on how many instances one command lists, shared by every calendar it expands: a handful of
/// `FREQ=SECONDLY` series must not cost minutes and gigabytes. Spending past it is reported once.
package final class InstanceBudget: @unchecked Sendable {
    // `@unchecked Sendable`: the counters are only touched under `lock`.
    /// The most instances that may be taken.
    package let limit: Int
    private let lock = NSLock()
    private var used = 0
    private var refused = false
    private var reported = false

    /// A budget of `limit` instances.
    package init(limit: Int) { self.limit = limit }

    /// Takes one instance; false once the budget is spent.
    func take() -> Bool {
        lock.withLock {
            guard used < limit else {
                refused = true
                return false
            }
            used += 1
            return true
        }
    }

    /// Takes `count` instances at once when they all fit; else takes none and returns false.
    func take(_ count: Int) -> Bool {
        lock.withLock {
            guard used + count <= limit else { return false }
            used += count
            return true
        }
    }

    /// Whether an instance was refused: the window holds more than the limit, and expanding can stop. (Taking the
    /// last instance is not enough: a window holding exactly `limit` instances is complete.)
    package var isSpent: Bool { lock.withLock { refused } }

    /// True the first time it is asked after the budget is spent: that caller reports it.
    func claimReport() -> Bool {
        lock.withLock {
            defer { reported = true }
            return !reported
        }
    }
}

/// The instances of a calendar in a window, sorted by start, and what was worth telling about them.
public struct Expansion: Sendable {
    /// The instances, sorted by start.
    public var occurrences: [Occurrence]
    /// Limits that cut series short, zones that could not be used, rules that could not be expanded.
    public var diagnostics: [Diagnostic]
}

extension ICalendar {
    /// The instances that overlap [from, to): recurrence rules, RDATE, EXDATE, RECURRENCE-ID overrides (moved into
    /// and out of the window, RANGE=THISANDFUTURE) with DTSTART always the first instance (RFC 5545 §3.8.5.3).
    /// Rules are walked lazily: nothing past the window is computed.
    public func occurrences(
        from: Date, to: Date, options: ExpansionOptions = ExpansionOptions(),
        file: String? = nil
    ) -> Expansion {
        let expander = Expander(calendar: self, options: options, file: file)
        let window = Occurrence.seconds(from: from, to: to)
        let walls = ZoneWallsAhead(self, options: options)
        let series = expander.series()
        if let expansion = Self.expandInParts(series, by: expander, window: window, zoneWalls: walls) {
            return expansion
        }
        let occurrences = series.flatMap { expander.expand($0, window: window) }
        return Expansion(occurrences: Self.sorted(occurrences), diagnostics: expander.diagnostics)
    }

    /// Instances by start; among equal starts by UID and component, then in the order they were made.
    static func sorted(_ occurrences: [Occurrence]) -> [Occurrence] {
        // Sort small keys, then gather: sorting the instances themselves would move them around again and again.
        let keys = occurrences.indices.map { (start: occurrences[$0].startDate, index: $0) }
        let order = keys.sorted { lhs, rhs in
            isOrdered(occurrences[lhs.index], lhs.index, before: occurrences[rhs.index], rhs.index)
        }
        return order.map { occurrences[$0.index] }
    }

    /// The order of `sorted`: by start, then UID and component, then the place each was made in (`a`, `b`).
    static func isOrdered(_ x: Occurrence, _ a: Int, before y: Occurrence, _ b: Int) -> Bool {
        if x.startDate != y.startDate { return x.startDate < y.startDate }
        let (p, q) = (x.source, y.source)
        if p === q { return a < b }
        return (p.core.uid ?? "", p.kind.componentName, a) < (q.core.uid ?? "", q.kind.componentName, b)
    }
}

extension CalendarComponent {
    /// An override of this master for one of its instances (what a calendar app's "this event only" writes): the
    /// master's properties with the instance's start and end, its RECURRENCE-ID, and no rules or dates of its own.
    /// Nil when the occurrence is no instance of a series or this is no event, todo or journal.
    package func override(at occurrence: Occurrence) -> CalendarComponent? {
        guard let recurrenceID = occurrence.recurrenceID, core != nil else { return nil }
        return instance(start: occurrence.start, end: occurrence.end, recurrenceID: RecurrenceID(recurrenceID))
    }
}
