import CalendarModel
import Foundation
internal import GRDB

// What the user sends as an organizer: REQUESTs and CANCELs (RFC 5546 §3.2.2, §3.2.5).

/// A scheduling message an organizer sends (`CalendarStore.organize`, `cancellation`).
public struct SchedulingRequest: Sendable {
    /// REQUEST or CANCEL.
    public var method: String
    /// The message (METHOD, the VTIMEZONEs its times use, every component of the series) as iCalendar text.
    public var text: String
    /// The attendees' addresses (without `mailto:`), the organizer left out.
    public var recipients: [String]
    /// The organizer's address, without `mailto:`.
    public var organizer: String
    /// The item's SUMMARY.
    public var summary: String?
}

extension CalendarStore {
    /// Invites people to an item, as its organizer `organizer` (the item's ORGANIZER, set when it has none): each
    /// address in `inviting` becomes an ATTENDEE (REQ-PARTICIPANT, NEEDS-ACTION, RSVP=TRUE) unless it is one, the
    /// SEQUENCE goes one above the last REQUEST sent when the time, the rule or the place changed since, DTSTAMP
    /// is `now`; the item is changed and the REQUEST kept as a sent message (so attendees' replies apply to it) in
    /// one transaction. Throws when someone else organizes the item.
    public func organize(
        uid: String, calendar name: String, organizer: String, inviting: [String] = [], now: Date = Date()
    ) throws -> SchedulingRequest {
        try write { db in
            guard let calendarID = try StoreWriter(db).calendarID(named: name, create: false) else {
                throw StoreError("no calendar \"\(name)\" in the store")
            }
            let stored = try Self.storedCalendar(db, calendar: calendarID, uids: [uid])
            var items = stored.components.filter(\.isItem)
            guard let masterIndex = items.firstIndex(where: { $0.identity.recurrenceID.isEmpty }) ?? items.indices.first
            else { throw StoreError("the store has no item \(uid) in \"\(name)\"") }
            let me = CalendarUser.comparable(organizer)
            if let existing = items[masterIndex].core?.organizer, CalendarUser.comparable(existing.address) != me {
                throw StoreError("\(uid) is organized by \(CalendarUser.comparable(existing.address)), not by you")
            }
            try Self.seedSchedulingMessages(db, calendarID: calendarID, uid: uid, items: items)
            let sent = try Self.schedulingMessages(db, calendarID: calendarID, uid: uid)
            let lastSent = sent.filter { $0.method == "REQUEST" && $0.key.isEmpty }.max { $0.version < $1.version }
            // Later than every message kept (the item as it was, made this second, included): this one wins.
            let stamp = max(Int64(now.timeIntervalSince1970), (sent.map(\.stamp).max() ?? Int64.min / 2) + 1)
            // A time, rule or place changed since the last REQUEST: one SEQUENCE above it, for the overrides too
            // (an override older than its series is one a reschedule replaced).
            var sequence = items[masterIndex].core?.sequence ?? 0
            if let lastSent, sequence <= lastSent.sequence,
                SchedulingState.scheduleChanged(items[masterIndex], since: lastSent.item)
            {
                sequence = ItemCore.sequence(after: lastSent.sequence)
            }
            for index in items.indices {
                guard var core = items[index].core else { continue }
                core.organizer = core.organizer ?? CalendarUser(address: "mailto:" + me)
                for address in inviting.map(CalendarUser.comparable) where address != me {
                    guard !core.attendees.contains(where: { CalendarUser.comparable($0.address) == address })
                    else { continue }
                    var attendee = CalendarUser(address: "mailto:" + address)
                    attendee.parameters += [
                        Parameter("ROLE", "REQ-PARTICIPANT"), Parameter("PARTSTAT", "NEEDS-ACTION"),
                        Parameter("RSVP", "TRUE"),
                    ]
                    core.attendees.append(attendee)
                }
                core.sequence = max(core.sequence ?? 0, sequence)
                core.stamp = LocalDateTime(wallSeconds: stamp).calendarDate(.utc)
                items[index].core = core
            }
            for item in items {
                var outcome = SchedulingOutcome(
                    kind: .ignored, method: "REQUEST", uid: uid, recurrenceID: item.identity.recurrenceID,
                    summary: item.core?.summary, calendar: name, detail: "")
                try Self.receive(
                    db, component: item.keyed.component, item: item, method: "REQUEST", calendarID: calendarID,
                    outcome: &outcome)
            }
            // Answers kept aside from people invited only now count now.
            try Self.releaseHeldReplies(db, calendarID: calendarID, uid: uid)
            let core = items[masterIndex].core ?? ItemCore()
            return SchedulingRequest(
                method: "REQUEST", text: Self.message("REQUEST", items, zones: stored.timeZones),
                recipients: core.attendees.map { CalendarUser.comparable($0.address) }.filter { $0 != me },
                organizer: me, summary: core.summary)
        }
    }

    /// The CANCEL an organizer sends before removing an item: every component with STATUS:CANCELLED, SEQUENCE
    /// one higher, DTSTAMP `now`; for one `instance` of a series, that instance alone (RFC 5546 §3.2.5: the
    /// master's copy with its RECURRENCE-ID, or the instance's override). Nil when none of `addresses` organizes
    /// it or it has no attendees besides.
    public func cancellation(
        uid: String, calendar name: String, addresses: Set<String>, instance: CalendarDate? = nil, now: Date = Date()
    ) throws -> SchedulingRequest? {
        let stored = try loadItems(calendar: name, uids: [uid])
        var items = stored.components.filter(\.isItem)
        if let instance {
            guard let master = items.first(where: { $0.identity.recurrenceID.isEmpty }) else { return nil }
            var one =
                items.first { $0.core?.recurrenceID?.date == instance }
                ?? master.withoutRecurrence(startingAt: instance)
            let recurrenceID = one.core?.recurrenceID ?? RecurrenceID(instance)
            one.core?.recurrenceID = recurrenceID
            items = [one]
        }
        guard let master = items.first(where: { $0.identity.recurrenceID.isEmpty }) ?? items.first,
            let organizer = master.core?.organizer.map({ CalendarUser.comparable($0.address) }),
            addresses.contains(organizer)
        else { return nil }
        let recipients = (master.core?.attendees ?? []).map { CalendarUser.comparable($0.address) }.filter {
            $0 != organizer
        }
        guard !recipients.isEmpty else { return nil }
        for index in items.indices {
            guard var core = items[index].core else { continue }
            core.status = .cancelled
            core.sequence = ItemCore.sequence(after: core.sequence ?? 0)
            core.stamp = CalendarDate.utc(now)
            items[index].core = core
        }
        return SchedulingRequest(
            method: "CANCEL", text: Self.message("CANCEL", items, zones: stored.timeZones), recipients: recipients,
            organizer: organizer, summary: master.core?.summary)
    }

    /// A message of these components with the VTIMEZONEs they use.
    static func message(_ method: String, _ items: [CalendarComponent], zones: [TimeZoneDefinition]) -> String {
        var calendar = ICalendar()
        calendar.productID = ICS.productID
        calendar.version = "2.0"
        calendar.method = method
        let text = String(decoding: ICS.write(components: items.map(\.keyed.component)), as: UTF8.self)
        let used = zones.filter { zone in zone.tzid.map { text.contains("TZID=" + $0) } ?? false }
        calendar.components = used.map { .timeZone($0) } + items
        return String(decoding: ICS.write([calendar]), as: UTF8.self)
    }
}

extension CalendarComponent {
    /// The series' instance at `start` as a CANCEL names it: no RRULE, RDATE or EXDATE, DTSTART `start`, no end
    /// (RFC 5546 §3.2.5 asks for none).
    func withoutRecurrence(startingAt start: CalendarDate) -> CalendarComponent {
        var copy = self
        copy.core?.recurrenceRules = []
        copy.core?.recurrenceDates = []
        copy.core?.exceptionDates = []
        if case .event(var event) = copy {
            event.end = nil
            event.duration = nil
            copy = .event(event)
        }
        copy.core?.start = start
        return copy
    }
}
