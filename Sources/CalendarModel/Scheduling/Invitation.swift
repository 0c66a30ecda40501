import Foundation

/// A scheduling message an organizer sends (`Invitation.request`, `Invitation.cancellation`).
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

/// An answer to an invitation (`Invitation.reply`): the REPLY to send, and what it answered.
public struct SchedulingReply: Sendable {
    /// The REPLY (METHOD:REPLY, the VTIMEZONEs its times use) as iCalendar text.
    public var text: String
    /// The organizer's address, without `mailto:`.
    public var organizer: String?
    /// The attendee address that answered, without `mailto:`.
    public var attendee: String
    /// The item's SUMMARY.
    public var summary: String?
    /// The answer (ACCEPTED, DECLINED, TENTATIVE).
    public var answer: String
}

/// Why an invitation cannot be sent or answered, in words for the user.
public struct SchedulingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public var description: String
    package init(_ description: String) { self.description = description }
}

/// iTIP (RFC 5546) as the user takes part in it, as pure functions of the stored item (its master and overrides),
/// the change and who the user is: the message to send (REQUEST, CANCEL, REPLY) and, for a received message, what
/// to do with it. A store keeps the items and messages these make; a command line parses and prints.
package enum Invitation {
    /// The address among `me` (`CalendarUser.comparable`) that organizes `master`, when it has attendees besides;
    /// nil when the user does not organize it with anyone (an edit then sends nothing).
    package static func organizer(of master: CalendarComponent, me: Set<String>) -> String? {
        guard let organizer = master.core?.organizer.map({ CalendarUser.comparable($0.address) }),
            me.contains(organizer),
            master.core?.attendees.contains(where: { CalendarUser.comparable($0.address) != organizer }) == true
        else { return nil }
        return organizer
    }

    /// The REQUEST `organizer` sends for the item `items` (master and overrides), inviting `inviting` too: each
    /// becomes an ATTENDEE (REQ-PARTICIPANT, NEEDS-ACTION, RSVP=TRUE) unless it is one; ORGANIZER set when missing;
    /// SEQUENCE one above the last REQUEST sent when the time, the rule or the place changed since; DTSTAMP `now`,
    /// or later than every message kept (`kept`, the item's messages so far). Returns the changed components (what
    /// the store keeps) and the message. Throws when someone else organizes the item.
    package static func request(
        _ items: [CalendarComponent], zones: [TimeZoneDefinition], organizer: String, inviting: [String] = [],
        kept: [SchedulingState.Message], now: Date
    ) throws -> (items: [CalendarComponent], request: SchedulingRequest) {
        var items = items
        guard let masterIndex = items.firstIndex(where: { $0.identity.recurrenceID.isEmpty }) ?? items.indices.first
        else { throw SchedulingError("there is no item to send") }
        let me = CalendarUser.comparable(organizer)
        if let existing = items[masterIndex].core?.organizer, CalendarUser.comparable(existing.address) != me {
            let uid = items[masterIndex].core?.uid ?? "the item"
            throw SchedulingError("\(uid) is organized by \(CalendarUser.comparable(existing.address)), not by you")
        }
        let lastSent = kept.filter { $0.method == "REQUEST" && $0.key.isEmpty }.max { $0.version < $1.version }
        // Later than every message kept (the item as it was, made this second, included): this one wins.
        let stamp = max(Int64(now.timeIntervalSince1970), (kept.map(\.stamp).max() ?? Int64.min / 2) + 1)
        // A time, rule or place changed since the last REQUEST: one SEQUENCE above it, for the overrides too
        // (an override older than its series is one a reschedule replaced).
        var sequence = items[masterIndex].core?.sequence ?? 0
        if let lastSent, sequence <= lastSent.sequence,
            SchedulingState.scheduleChanged(items[masterIndex], since: lastSent.item)
        {
            sequence = ItemCore.sequence(after: lastSent.sequence)
        }
        let invited = inviting.map(CalendarUser.comparable).filter { $0 != me }
        for index in items.indices {
            guard var core = items[index].core else { continue }
            core.organizer = core.organizer ?? CalendarUser(address: "mailto:" + me)
            for address in invited
            where !core.attendees.contains(where: { CalendarUser.comparable($0.address) == address }) {
                core.attendees.append(invitee(address))
            }
            core.sequence = max(core.sequence ?? 0, sequence)
            core.stamp = LocalDateTime(wallSeconds: stamp).calendarDate(.utc)
            items[index].core = core
        }
        let core = items[masterIndex].core ?? ItemCore()
        let request = SchedulingRequest(
            method: "REQUEST", text: message("REQUEST", items, zones: zones),
            recipients: core.attendees.map { CalendarUser.comparable($0.address) }.filter { $0 != me },
            organizer: me, summary: core.summary)
        return (items, request)
    }

    /// A new attendee as an invitation adds one: a required participant asked to answer.
    private static func invitee(_ address: String) -> CalendarUser {
        var attendee = CalendarUser(address: "mailto:" + address)
        attendee.parameters += [
            Parameter("ROLE", "REQ-PARTICIPANT"), Parameter("PARTSTAT", "NEEDS-ACTION"), Parameter("RSVP", "TRUE"),
        ]
        return attendee
    }

    /// The CANCEL an organizer sends before removing the item `items`: every component with STATUS:CANCELLED,
    /// SEQUENCE one higher, DTSTAMP `now`; for one `instance` of a series, that instance alone (RFC 5546 §3.2.5: the
    /// master's copy with its RECURRENCE-ID, or the instance's override). Nil when none of `addresses` organizes it
    /// or it has no attendees besides.
    package static func cancellation(
        _ items: [CalendarComponent], zones: [TimeZoneDefinition], addresses: Set<String>,
        instance: CalendarDate? = nil, now: Date
    ) -> SchedulingRequest? {
        var items = items
        if let instance {
            guard let master = items.first(where: { $0.identity.recurrenceID.isEmpty }) else { return nil }
            items = [items.first { $0.core?.recurrenceID?.date == instance } ?? master.cancelledInstance(at: instance)]
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
            method: "CANCEL", text: message("CANCEL", items, zones: zones), recipients: recipients,
            organizer: organizer, summary: master.core?.summary)
    }

    /// A message of these components with the VTIMEZONEs they use.
    package static func message(_ method: String, _ items: [CalendarComponent], zones: [TimeZoneDefinition]) -> String {
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
    /// The series' instance at `start` as a CANCEL names it: no RRULE, RDATE or EXDATE, DTSTART and RECURRENCE-ID
    /// `start`, no end (RFC 5546 §3.2.5 asks for none).
    fileprivate func cancelledInstance(at start: CalendarDate) -> CalendarComponent {
        var copy = instance(start: start, end: nil, recurrenceID: RecurrenceID(start))
        if case .event(var event) = copy {
            event.end = nil
            event.duration = nil
            copy = .event(event)
        }
        return copy
    }
}
