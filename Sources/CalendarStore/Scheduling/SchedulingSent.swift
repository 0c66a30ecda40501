import CalendarModel
import Foundation
internal import GRDB

// What the user sends as an organizer: REQUESTs and CANCELs (RFC 5546 §3.2.2, §3.2.5), built by `Invitation`.

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
            let items = stored.components.filter(\.isItem)
            guard !items.isEmpty else { throw StoreError("the store has no item \(uid) in \"\(name)\"") }
            try Self.seedSchedulingMessages(db, calendarID: calendarID, uid: uid, items: items)
            let kept = try Self.schedulingMessages(db, calendarID: calendarID, uid: uid)
            let (sent, request) = try StoreError.rethrowing {
                try Invitation.request(
                    items, zones: stored.timeZones, organizer: organizer, inviting: inviting, kept: kept, now: now)
            }
            for item in sent {
                var outcome = SchedulingOutcome(
                    kind: .ignored, method: "REQUEST", uid: uid, recurrenceID: item.identity.recurrenceID,
                    summary: item.core?.summary, calendar: name, detail: "")
                try Self.receive(
                    db, component: item.keyed.component, item: item, method: "REQUEST", calendarID: calendarID,
                    outcome: &outcome)
            }
            // Answers kept aside from people invited only now count now.
            try Self.releaseHeldReplies(db, calendarID: calendarID, uid: uid)
            return request
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
        return Invitation.cancellation(
            stored.components.filter(\.isItem), zones: stored.timeZones, addresses: addresses, instance: instance,
            now: now)
    }
}
