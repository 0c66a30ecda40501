import Foundation

/// One occurrence of a todo as a task list shows it: its times and whether it is done.
public struct TodoOccurrence: Sendable, Hashable {
    /// The todo that describes it: the series' master, or the override of this occurrence.
    public var todo: Todo
    /// Its RECURRENCE-ID: its DTSTART in the series' rule, or its DUE where the series has no DTSTART, in the
    /// master's form; nil for a todo that does not repeat.
    public var recurrenceID: CalendarDate?
    /// Its DTSTART, as written (nil when the todo has none).
    public var start: CalendarDate?
    /// Its DUE, as written (nil when the todo has none).
    public var due: CalendarDate?
    /// `start`, placed in time.
    public var startDate: Date?
    /// `due`, placed in time.
    public var dueDate: Date?
    /// Whether `due` is floating (no zone of its own): shown as written.
    public var dueIsFloating = false

    /// Done: STATUS:COMPLETED or a COMPLETED time (RFC 5545 §3.8.2.1), or cancelled.
    public var isDone: Bool { todo.isCompleted || todo.core.status == .cancelled }
}

/// A todo and, when it repeats, its overrides: what planners do to one — tick off one occurrence, the whole series,
/// or take either back — as operations on model values (RFC 5545 §3.8.4.4; the shape Thunderbird, eM Client,
/// Evolution and Nextcloud Tasks write: an override of the occurrence with STATUS:COMPLETED, COMPLETED and
/// PERCENT-COMPLETE:100, the series left open).
///
/// ```swift
/// if var series = TodoSeries(calendar, uid: "plants@example.org"), let next = series.current(zone: .current) {
///     series.complete(next)
///     calendar.replace(series)
/// }
/// ```
///
/// A series that repeats from completion (`repeatsFromCompletion`: `X-ICSKIT-REPEAT-FROM:COMPLETION` beside its
/// RRULE, what Apple Reminders and todoman offer) is moved instead: completing its occurrence leaves a completed copy
/// of it (a new UID, `RELATED-TO;RELTYPE=SIBLING` naming the series, as Apple Reminders keeps one) and moves DTSTART
/// and DUE to the rule's next step from the day it was completed, at the same time of day.
public struct TodoSeries: Sendable {
    /// The UID.
    public let uid: String
    /// The master first, then the overrides; after `complete` of a series that repeats from completion, the completed
    /// copy too (under its own UID).
    public internal(set) var components: [CalendarComponent]
    /// UIDs whose items a change took away (the completed copy `reopen` takes back): to be deleted where the series
    /// is kept.
    public internal(set) var removedUIDs: [String] = []
    /// The calendar without its items: the VTIMEZONEs the times name, X-WR-TIMEZONE.
    let context: ICalendar

    /// The property that makes a series repeat from completion.
    public static let repeatFromProperty = "X-ICSKIT-REPEAT-FROM"

    /// The todo `uid` of `calendar` with its overrides; nil when the calendar has no todo of that UID.
    public init?(_ calendar: ICalendar, uid: String) {
        var context = calendar
        context.components = calendar.components.filter { !$0.isItem }
        // The series, and the completed copies it left when it repeats from completion (its siblings).
        let own = calendar.components.filter { component in
            component.kind == .todo
                && (component.core?.uid == uid
                    || component.core?.relatedTo.contains { $0.uid == uid && $0.type == "SIBLING" } == true)
        }
        self.init(uid: uid, components: own, context: context)
    }

    /// The todo `uid` made of `own` (its master and overrides, in any order), placed by `context` (a calendar
    /// without items: its VTIMEZONEs); nil when `own` is empty.
    package init?(uid: String, components own: [CalendarComponent], context: ICalendar) {
        guard !own.isEmpty else { return nil }
        self.uid = uid
        let series = own.filter { $0.core?.uid == uid }
        guard !series.isEmpty else { return nil }
        components =
            series.filter { $0.core?.recurrenceID == nil } + series.filter { $0.core?.recurrenceID != nil }
            + own.filter { $0.core?.uid != uid }
        self.context = context
    }

    /// The master and overrides, without the completed copies a series that repeats from completion left.
    var ownComponents: [CalendarComponent] { components.filter { $0.core?.uid == uid } }

    /// The todo that carries the rules (nil for overrides without their series).
    public var master: Todo? {
        guard case .todo(let todo)? = components.first, todo.core.recurrenceID == nil else { return nil }
        return todo
    }

    /// Whether the todo repeats (RRULE or RDATE).
    public var isRecurring: Bool { master?.core.isRecurring ?? false }

    /// Whether it repeats from completion rather than on its rule's dates (`repeatFromProperty`).
    public var repeatsFromCompletion: Bool {
        isRecurring
            && master?.otherProperties.contains {
                $0.name == Self.repeatFromProperty && $0.value.uppercased() == "COMPLETION"
            } == true
    }

    // MARK: Occurrences

    /// The occurrences that start in [from, to) (a todo without DTSTART starts at its DUE), earliest first; floating
    /// times and dates placed in `zone`. A todo that does not repeat is its one occurrence, whatever its times.
    public func occurrences(from: Date, to: Date, zone: CalendarZone) -> [TodoOccurrence] {
        let time = CalendarTime(calendar: context, viewerZone: zone.identifier)
        guard isRecurring else {
            return ownComponents.compactMap { component -> TodoOccurrence? in
                guard case .todo(let todo) = component, todo.core.recurrenceID == nil else { return nil }
                return Self.occurrence(todo, recurrenceID: nil, start: todo.core.start, due: todo.due, time: time)
            }
        }
        var calendar = context
        calendar.components += ownComponents
        var options = ExpansionOptions()
        options.components = [.todo]
        options.viewerZoneName = zone.identifier
        return calendar.occurrences(from: from, to: to, options: options).occurrences.compactMap { found in
            guard case .todo(let todo) = found.item, found.startDate >= from else { return nil }
            let hasStart = todo.core.start != nil
            let due = hasStart ? (todo.due != nil || todo.duration != nil ? found.end : nil) : found.start
            return Self.occurrence(
                todo, recurrenceID: found.recurrenceID, start: hasStart ? found.start : nil, due: due, time: time)
        }
    }

    private static func occurrence(
        _ todo: Todo, recurrenceID: CalendarDate?, start: CalendarDate?, due: CalendarDate?, time: CalendarTime
    ) -> TodoOccurrence {
        TodoOccurrence(
            todo: todo, recurrenceID: recurrenceID, start: start, due: due, startDate: start.map(time.date(of:)),
            dueDate: due.map(time.date(of:)), dueIsFloating: due.map(time.isFloating) ?? false)
    }

    /// The occurrence a task list shows for the series: the earliest one not done, after the latest one done (an
    /// occurrence before one you ticked off has passed); nil when none is left (a bounded series all done, or the
    /// whole series completed). For a todo that does not repeat, itself when it is not done.
    public func current(zone: CalendarZone) -> TodoOccurrence? {
        guard isRecurring else {
            return occurrences(from: .distantPast, to: .distantFuture, zone: zone).first { !$0.isDone }
        }
        if let master, master.isCompleted || master.core.status == .cancelled { return nil }
        let time = CalendarTime(calendar: context, viewerZone: zone.identifier)
        let lastDone = components.compactMap { component -> Date? in
            guard case .todo(let todo) = component, let id = todo.core.recurrenceID, todo.isCompleted else {
                return nil
            }
            return time.date(of: id.date)
        }.max()
        let first = master.flatMap { ($0.core.start ?? $0.due).map(time.date(of:)) } ?? .distantPast
        var from = max(first, lastDone.map { $0.addingTimeInterval(1) } ?? first)
        // Windows of growing length: most series have their next occurrence in the first.
        for days in [400.0, 4_000, 40_000] {
            let to = from.addingTimeInterval(days * 86_400)
            if let open = occurrences(from: from, to: to, zone: zone).first(where: { !$0.isDone }) { return open }
            from = to
        }
        return nil
    }

    /// The occurrence whose RECURRENCE-ID is `recurrenceID` (the same instant in any spelling; the same day for a
    /// date), or whose start or due falls on the day `recurrenceID` names when it is a date; nil when none does.
    public func occurrence(at recurrenceID: CalendarDate, zone: CalendarZone) -> TodoOccurrence? {
        let time = CalendarTime(calendar: context, viewerZone: zone.identifier)
        let at = time.date(of: recurrenceID)
        let around = occurrences(
            from: at.addingTimeInterval(-40 * 86_400), to: at.addingTimeInterval(40 * 86_400), zone: zone)
        if recurrenceID.isDate {
            let day = LocalDateTime(recurrenceID).dayNumber
            func onDay(_ value: CalendarDate?, _ date: Date?) -> Bool {
                guard let value, let date else { return false }
                let wall = value.isDate ? LocalDateTime(value) : LocalDateTime(CalendarDate(date, in: zone))
                return wall.dayNumber == day
            }
            return around.first { onDay($0.recurrenceID, $0.recurrenceID.map(time.date(of:))) }
                ?? around.first { onDay($0.due, $0.dueDate) } ?? around.first { onDay($0.start, $0.startDate) }
        }
        return around.first { $0.recurrenceID.map(time.date(of:)) == at }
    }
}
