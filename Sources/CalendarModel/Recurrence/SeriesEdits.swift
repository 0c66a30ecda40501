import Foundation

/// A recurring series as a calendar stores it — the master and the overrides that share its UID — and the edits
/// calendar apps offer on one of its instances: this instance only, this and the following ones, or the whole series.
///
/// ```swift
/// var series = RecurringSeries(calendar.components.filter { $0.core?.uid == uid })
/// let later = try series.split(at: occurrence, newUID: UUID().uuidString)  // "this and following"
/// ```
public struct RecurringSeries: Sendable {
    /// The master first (when there is one), then the overrides as given.
    public private(set) var components: [CalendarComponent]

    /// The components of one UID (others are left out).
    public init(_ components: [CalendarComponent]) {
        let uid = components.first?.core?.uid
        let own = components.filter { $0.core != nil && $0.core?.uid == uid }
        self.components = own.filter { $0.core?.recurrenceID == nil } + own.filter { $0.core?.recurrenceID != nil }
    }

    /// The component that carries the rules (nil for overrides without their series).
    public var master: CalendarComponent? { masterIndex.map { components[$0] } }

    /// Where the master is in `components` (first, when there is one).
    fileprivate var masterIndex: Int? { components.firstIndex { $0.core?.recurrenceID == nil } }

    /// Whether `occurrence` is the series' first instance (its RECURRENCE-ID is DTSTART): "this and following" is
    /// then the whole series. False for a series without a DTSTART (a todo placed by DUE), which cannot be cut.
    public func isFirst(_ occurrence: Occurrence) -> Bool {
        guard let start = master?.core?.start, let id = occurrence.recurrenceID else { return false }
        return LocalDateTime(id) <= LocalDateTime(start)
    }

    /// The place in `components` of the component that describes `occurrence` ("this instance only"): its
    /// override, made from the master when there is none yet, as calendar apps write one. Nil when `occurrence` is no
    /// instance of this series.
    public mutating func instanceIndex(for occurrence: Occurrence) -> Int? {
        guard let recurrenceID = occurrence.recurrenceID, occurrence.uid == components.first?.core?.uid else {
            return nil
        }
        if let existing = components.firstIndex(where: { $0.core?.recurrenceID?.date == recurrenceID }) {
            return existing
        }
        guard let override = master?.override(at: occurrence) else { return nil }
        components.append(override)
        return components.count - 1
    }

    /// Puts `component` in place of the one at `index` (the edits of `ICalendar.editSeries`).
    mutating func replace(at index: Int, with component: CalendarComponent) { components[index] = component }

    /// Takes one instance out ("delete this instance only"): an EXDATE on the master at its RECURRENCE-ID, and its
    /// override, when it has one, gone. False, changing nothing, for a series without its master.
    @discardableResult
    public mutating func exclude(_ recurrenceID: CalendarDate) -> Bool {
        guard let index = masterIndex, var core = components[index].core else { return false }
        if !core.exceptionDates.contains(recurrenceID) { core.exceptionDates.append(recurrenceID) }
        core.recordEdit()
        components[index].core = core
        components.removeAll { $0.core?.recurrenceID?.date == recurrenceID }
        return true
    }

    /// After the master's DTSTART moved from `old` (an edit of the whole series' time), moves what names its
    /// instances by their start alike — EXDATEs and the overrides' RECURRENCE-IDs — so that each still names an
    /// instance of the rules.
    public mutating func moveInstances(from old: CalendarDate) {
        guard let index = masterIndex, var core = components[index].core, let new = core.start, new.form == old.form,
            !new.isDate, !old.isDate
        else { return }
        let shift = LocalDateTime(new).wallSeconds - LocalDateTime(old).wallSeconds
        guard shift != 0 else { return }
        func moved(_ date: CalendarDate) -> CalendarDate {
            date.isDate ? date : LocalDateTime(date).adding(seconds: shift).calendarDate(date.form)
        }
        core.exceptionDates = core.exceptionDates.map(moved)
        components[index].core = core
        for place in components.indices where place != index {
            guard var override = components[place].core, let id = override.recurrenceID else { continue }
            override.recurrenceID = RecurrenceID(moved(id.date), thisAndFuture: id.thisAndFuture)
            components[place].core = override
        }
    }

    /// Ends the series before `occurrence` ("delete this and following"): its rules stop there (COUNT made the
    /// number of instances before it, else UNTIL the moment before it), and the RDATEs, EXDATEs and overrides from
    /// it on go. Returns false, changing nothing, when `occurrence` is the series' first instance (nothing would
    /// remain: the whole series is what goes) or no instance of it.
    @discardableResult
    public mutating func end(before occurrence: Occurrence) throws -> Bool {
        guard let cut = try Cut(self, occurrence) else { return false }
        end(at: cut)
        return true
    }

    private mutating func end(at cut: Cut) {
        var core = cut.master
        for index in core.recurrenceRules.indices {
            if core.recurrenceRules[index].count != nil {
                core.recurrenceRules[index].count = cut.countsBefore[index]
            } else {
                core.recurrenceRules[index].until = cut.untilBefore
            }
        }
        core.recurrenceRules.removeAll { $0.count == 0 }
        core.recurrenceDates.removeAll { !cut.isBefore($0.start) }
        core.exceptionDates.removeAll { !cut.isBefore($0) }
        core.recordEdit()
        components[cut.masterIndex].core = core
        components.removeAll { component in
            guard let id = component.core?.recurrenceID?.date else { return false }
            return !cut.isBefore(id)
        }
    }

    /// Splits the series at `occurrence` ("change this and following"): this series ends before it (`end(before:)`)
    /// and the rest becomes a new series under `newUID`, starting at the instance (its end or due moved alike),
    /// with what remains of COUNT, the later RDATEs and EXDATEs, and the later overrides. Nil, changing nothing,
    /// when `occurrence` is the first instance (the whole series is what changes) or no instance of this series.
    public mutating func split(at occurrence: Occurrence, newUID: String) throws -> RecurringSeries? {
        guard let cut = try Cut(self, occurrence), let master else { return nil }
        var later = master
        var core = cut.master
        let shift = LocalDateTime(cut.at).wallSeconds - LocalDateTime(core.start ?? cut.at).wallSeconds
        core.uid = newUID
        core.start = cut.at
        for index in core.recurrenceRules.indices {
            if let count = core.recurrenceRules[index].count {
                core.recurrenceRules[index].count = count - (cut.countsBefore[index] ?? 0)
            }
        }
        core.recurrenceDates.removeAll { cut.isBefore($0.start) }
        core.exceptionDates.removeAll { cut.isBefore($0) }
        core.created = nil
        core.recordEdit()
        core.sequence = nil  // a new item
        later.core = core
        func moved(_ date: CalendarDate?) -> CalendarDate? {
            date.map { LocalDateTime($0).adding(seconds: shift).calendarDate($0.form) }
        }
        switch later {
        case .event(var event):
            event.end = moved(event.end)
            later = .event(event)
        case .todo(var todo):
            todo.due = moved(todo.due)
            later = .todo(todo)
        default: break
        }
        var overrides: [CalendarComponent] = []
        for component in components {
            guard let id = component.core?.recurrenceID?.date, !cut.isBefore(id), var moved = component.core
            else { continue }
            moved.uid = newUID
            var override = component
            override.core = moved
            overrides.append(override)
        }
        end(at: cut)
        return RecurringSeries([later] + overrides)
    }
}

/// Where a series is cut: before an instance's place in the rules (its RECURRENCE-ID, not where an override
/// moved it).
private struct Cut {
    let masterIndex: Int
    let master: ItemCore
    /// The instance's RECURRENCE-ID, in DTSTART's form.
    let at: CalendarDate
    /// Per rule, how many of its instances lie before the cut (for rules with COUNT).
    let countsBefore: [Int?]
    /// The last moment before the cut, as UNTIL must be written for DTSTART's form (RFC 5545 §3.3.10): a date for
    /// a date, floating for floating, UTC for UTC and zoned times.
    let untilBefore: CalendarDate

    init?(_ series: RecurringSeries, _ occurrence: Occurrence) throws {
        guard let at = occurrence.recurrenceID, occurrence.uid == series.components.first?.core?.uid,
            let masterIndex = series.masterIndex, let master = series.components[masterIndex].core,
            let start = master.start, !series.isFirst(occurrence)
        else { return nil }
        (self.masterIndex, self.master, self.at) = (masterIndex, master, at)
        countsBefore = try master.recurrenceRules.map { rule in
            guard let count = rule.count else { return nil }
            // Bounded as expansion bounds a series (a COUNT of billions is walked no further).
            let instances = try rule.instances(from: start, limit: min(count, 100_000)).get()
            return instances.prefix { LocalDateTime($0) < LocalDateTime(at) }.count
        }
        untilBefore = RecurrenceRule.until(
            last: LocalDateTime(at).adding(seconds: -1),
            instant: Int64((occurrence.recurrenceDate ?? occurrence.startDate).timeIntervalSince1970) - 1,
            startForm: start.form)
    }

    /// Whether a date of the series (an RDATE, EXDATE or RECURRENCE-ID) lies before the cut, compared as written.
    func isBefore(_ date: CalendarDate) -> Bool {
        date.isDate || at.isDate
            ? LocalDateTime(date).dayNumber < LocalDateTime(at).dayNumber : LocalDateTime(date) < LocalDateTime(at)
    }
}
