import Foundation

/// Which instances of a recurring series an edit changes, as calendar apps ask: "this event", "this and following
/// events", "all events" (EventKit's `.thisEvent` and `.futureEvents`, and the whole series).
public enum SeriesEditScope: Sendable, Hashable {
    /// One instance: its override, made from the series when it has none.
    case thisInstance
    /// The instance and every later one: the series ends before it, and a new series (a new UID) starts at it.
    case thisAndFollowing
    /// The series: its master; overrides and EXDATEs move with its start.
    case allInstances
}

/// Why an edit of a series was refused. Nothing was changed.
public enum SeriesEditError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The calendar has no series of that UID (no item, or overrides without their master).
    case noSeries(uid: String)
    /// The series has no instance whose original start (its RECURRENCE-ID) is that instant.
    case noInstance(uid: String, at: Date)

    /// What was refused, in a sentence.
    public var description: String {
        switch self {
        case .noSeries(let uid): return "no recurring series with UID \(uid)"
        case .noInstance(let uid, let at):
            return
                "the series \(uid) has no instance starting (as its rules place it) at \(ISO8601DateFormatter().string(from: at))"
        }
    }
}

extension ICalendar {
    /// Edits the recurring series `uid` at one of its instances, in one step, as a calendar app's "this event / this
    /// and following / all events" does, and puts the result back in the calendar.
    ///
    /// The instance is named by `instance`, the instant its rules place it at (its RECURRENCE-ID, not where an override
    /// moved it): any spelling of that instant in the file — UTC, the series' zone, another zone — names the same
    /// instance; an all-day series' instance is named by the start of its day in `zone`. An instant that names no
    /// instance throws `SeriesEditError.noInstance`: no override is ever made for a time the series does not have.
    ///
    /// `edit` receives the component to change — the instance's override, the new series' master, or the master —
    /// and may change anything but its UID and RECURRENCE-ID, which are kept. Afterwards, as RFC 5546 §2.1.4 asks of
    /// an organizer's change, the edited component's SEQUENCE is raised, and DTSTAMP and LAST-MODIFIED are `now`; a
    /// series cut by "this and following" is changed (and raised) alike, and the new series starts at SEQUENCE 0.
    /// When the edit moves the start of all instances, or of the new series, the overrides and EXDATEs move with it.
    ///
    /// ```swift
    /// try calendar.editSeries(uid: "standup@example.com", instance: monday0930, scope: .thisAndFollowing) { item in
    ///     item.core?.location = "Room 4"
    /// }
    /// ```
    ///
    /// Returns the UID of the new series for `.thisAndFollowing` (nil when the instance was the first: the whole
    /// series was edited), else `uid`.
    @discardableResult
    public mutating func editSeries(
        uid: String, instance: Date, scope: SeriesEditScope, zone: CalendarZone = .current,
        newUID: String = UUID().uuidString, now: Date = Date(), _ edit: (inout CalendarComponent) throws -> Void
    ) throws -> String? {
        var series = RecurringSeries(components.filter { $0.core?.uid == uid })
        guard series.master != nil else { throw SeriesEditError.noSeries(uid: uid) }
        guard let occurrence = occurrence(of: series, at: instance, zone: zone) else {
            throw SeriesEditError.noInstance(uid: uid, at: instance)
        }
        var later: RecurringSeries?
        switch scope {
        case .thisInstance:
            guard let index = series.instanceIndex(for: occurrence) else {
                throw SeriesEditError.noInstance(uid: uid, at: instance)
            }
            try series.edit(at: index, now: now, raising: true, edit)
        case .thisAndFollowing where !series.isFirst(occurrence):
            guard var rest = try series.split(at: occurrence, newUID: newUID) else {
                throw SeriesEditError.noInstance(uid: uid, at: instance)
            }
            try rest.editMaster(now: now, raising: false, edit)
            later = rest
        case .thisAndFollowing, .allInstances:
            try series.editMaster(now: now, raising: true, edit)
        }
        let replaced = Set([uid, newUID])
        let at = components.firstIndex { $0.core?.uid.map(replaced.contains) ?? false } ?? components.count
        let kept = { (part: ArraySlice<CalendarComponent>) in
            part.filter { !($0.core?.uid.map(replaced.contains) ?? false) }
        }
        components = kept(components[..<at]) + series.components + (later?.components ?? []) + kept(components[at...])
        switch scope {
        case .thisAndFollowing: return later == nil ? nil : newUID
        case .thisInstance, .allInstances: return uid
        }
    }

    /// The instance of `series` whose RECURRENCE-ID is `instant` (the day that holds it in `zone`, for dates).
    private func occurrence(of series: RecurringSeries, at instant: Date, zone: CalendarZone) -> Occurrence? {
        instances(of: series.components, around: instant, zone: zone).first {
            ($0.recurrenceDate ?? $0.startDate) == instant && $0.recurrenceID != nil
        }
    }
}

extension RecurringSeries {
    /// Applies `edit` to the component at `index`, keeping its UID and RECURRENCE-ID, and stamps it: DTSTAMP and
    /// LAST-MODIFIED `now`, SEQUENCE raised when `raising`.
    mutating func edit(
        at index: Int, now: Date, raising: Bool, _ edit: (inout CalendarComponent) throws -> Void
    ) throws {
        var component = components[index]
        let (uid, recurrenceID) = (component.core?.uid, component.core?.recurrenceID)
        try edit(&component)
        guard var core = component.core else { return }
        (core.uid, core.recurrenceID) = (uid, recurrenceID)
        if raising {
            core.recordEdit(at: now)
        } else {
            core.stamp = CalendarDate.utc(now)
            core.lastModified = core.stamp
        }
        component.core = core
        replace(at: index, with: component)
    }

    /// `edit(at:)` on the master; when it moved the start, the overrides' RECURRENCE-IDs and the EXDATEs move alike.
    mutating func editMaster(now: Date, raising: Bool, _ edit: (inout CalendarComponent) throws -> Void) throws {
        guard let index = components.firstIndex(where: { $0.core?.recurrenceID == nil }) else { return }
        let start = components[index].core?.start
        try self.edit(at: index, now: now, raising: raising, edit)
        if let start, components[index].core?.start != start { moveInstances(from: start) }
    }
}
