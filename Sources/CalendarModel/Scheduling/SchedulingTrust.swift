/// Where a scheduling message came from, as far as its sender can be told.
package enum SchedulingOrigin: Sendable, Hashable {
    /// A calendar file: it says nothing of who sent it, so its ORGANIZER and ATTENDEEs are all there is to check.
    case file
    /// A mail (iMIP, RFC 6047) whose `From:` names `sender` (nil: it names none). `trusted`: the user vouches for
    /// it (`--trust-sender`), so a sender that does not match is not held against the message.
    case mail(sender: String?, trusted: Bool)
}

/// Who may change an item by a scheduling message (iTIP, RFC 5546 §3.2 and §6.1; iMIP, RFC 6047 §3):
///
/// - a REQUEST, ADD, CANCEL or PUBLISH changes an item the store has only when its ORGANIZER is that item's
///   organizer (compared as calendar addresses); an item without one was made here, and no message changes it;
/// - a REPLY counts only for an ATTENDEE the item (or the instance it answers) lists, and only when it names no
///   other ORGANIZER than the item's; an answer from anyone else comes from a "party crasher" (§3.2.3);
/// - from a mail, the sender is the message's ORGANIZER (for a REPLY: its ATTENDEE) or the address it is sent by
///   (SENT-BY), unless the user vouches for the mail.
///
/// `refusal` says why a message may not be applied; nil when it may.
package enum SchedulingTrust {
    /// Why a message may not be applied.
    package struct Refusal: Sendable, Hashable, Error {
        /// Which rule it breaks.
        package enum Rule: String, Sendable, Hashable {
            /// Its ORGANIZER is not the item's.
            case notOrganizer = "not the organizer"
            /// The item has no organizer: it was made here.
            case madeHere = "made here"
            /// A REPLY from someone the item does not list (a "party crasher"); it counts once they are invited.
            case notInvited = "not invited"
            /// A REPLY addressed to another organizer, or naming no attendee.
            case notAnAnswer = "not an answer"
            /// A mail whose sender is neither the one the message speaks for nor whom that one sends by.
            case unverifiedSender = "unverified sender"
        }

        /// Which rule it breaks.
        package var rule: Rule
        /// Why, in words for the user: who is not whom, and for which item.
        package var reason: String
    }

    /// Why `message` (one component of a message of `method`) may not change the item whose components the store
    /// has as `stored` (empty: a new item); nil when it may. `instance` is the message's RECURRENCE-ID as written
    /// (empty for the series): a REPLY to an instance counts for the attendees of that instance. `received`: the
    /// store has the item from scheduling messages, not made here; then an item without organizer (some booking
    /// systems send none) is updated by messages without one.
    package static func refusal(
        method: String, message: ItemCore, stored: [ItemCore], instance: String = "", received: Bool = false,
        origin: SchedulingOrigin
    ) -> Refusal? {
        let title = (stored.first?.summary ?? message.summary).map { "\"\($0)\"" } ?? message.uid.map { "item \($0)" }
        let what = title ?? "the item"
        if method == "REPLY" {
            // The sender first: an answer from a stranger's mail is not one to apply once they are invited.
            return senderRefusal(origin, claimed: message.attendees, role: "ATTENDEE")
                ?? replyRefusal(message: message, stored: stored, instance: instance, what: what)
        }
        guard ["REQUEST", "ADD", "CANCEL", "PUBLISH"].contains(method) else { return nil }
        if let master = stored.first(where: { $0.recurrenceID == nil }) ?? stored.first {
            let claimed = message.organizer.map { CalendarUser.comparable($0.address) }
            guard let organizer = master.organizer.map({ CalendarUser.comparable($0.address) }) else {
                if received {
                    guard let claimed else { return senderRefusal(origin, claimed: [], role: "ORGANIZER") }
                    return Refusal(
                        rule: .notOrganizer, reason: "\(claimed) is not the organizer of \(what) (it has none)")
                }
                return Refusal(
                    rule: .madeHere,
                    reason:
                        "\(what) has no organizer (it was made here); a \(method) from \(claimed ?? "no organizer") "
                        + "does not change it")
            }
            guard claimed == organizer else {
                return Refusal(
                    rule: .notOrganizer,
                    reason:
                        "\(claimed ?? "a message without ORGANIZER") is not the organizer of \(what) (\(organizer) is)")
            }
        }
        return senderRefusal(origin, claimed: message.organizer.map { [$0] } ?? [], role: "ORGANIZER")
    }

    /// A REPLY: the item's organizer, an attendee it lists.
    private static func replyRefusal(message: ItemCore, stored: [ItemCore], instance: String, what: String)
        -> Refusal?
    {
        guard let master = stored.first(where: { $0.recurrenceID == nil }) ?? stored.first else { return nil }
        guard let organizer = master.organizer.map({ CalendarUser.comparable($0.address) }) else {
            return Refusal(
                rule: .madeHere, reason: "\(what) has no organizer (it was made here): there is no invitation to answer"
            )
        }
        if let named = message.organizer.map({ CalendarUser.comparable($0.address) }), named != organizer {
            return Refusal(
                rule: .notAnAnswer, reason: "the REPLY is addressed to \(named), but \(organizer) organizes \(what)")
        }
        let target = stored.first { $0.recurrenceID.map(\.date.icsValue) == instance && !instance.isEmpty } ?? master
        let listed = Set((target.attendees + master.attendees).map { CalendarUser.comparable($0.address) })
        let answering = message.attendees.map { CalendarUser.comparable($0.address) }
        guard !answering.isEmpty else { return Refusal(rule: .notAnAnswer, reason: "the REPLY names no ATTENDEE") }
        if let stranger = answering.first(where: { !listed.contains($0) }) {
            return Refusal(
                rule: .notInvited,
                reason:
                    "\(stranger) is not invited to \(what); the answer is kept aside until the organizer invites them")
        }
        return nil
    }

    /// From a mail: the sender is one of `claimed` (the ORGANIZER, or a REPLY's ATTENDEE) or whom it sends by.
    private static func senderRefusal(_ origin: SchedulingOrigin, claimed: [CalendarUser], role: String) -> Refusal? {
        guard case .mail(let sender, let trusted) = origin, !trusted else { return nil }
        let allowed = Set(
            claimed.flatMap { user in [user.address] + (user["SENT-BY"].map { [$0] } ?? []) }
                .map(CalendarUser.comparable))
        guard let sender else {
            return Refusal(
                rule: .unverifiedSender,
                reason: "unverified: the mail names no sender (From:); --trust-sender applies it")
        }
        let from = CalendarUser.comparable(sender)
        guard allowed.contains(from) else {
            let names = claimed.map { CalendarUser.comparable($0.address) }.joined(separator: ", ")
            return Refusal(
                rule: .unverifiedSender,
                reason:
                    "unverified: the mail is from \(from), not from its \(role) \(names.isEmpty ? "(none)" : names) "
                    + "or whom it sends by; --trust-sender applies it")
        }
        return nil
    }
}
