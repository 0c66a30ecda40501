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
/// - a REPLY answers for one ATTENDEE (its sender, RFC 5546 §3.2.3);
/// - a REQUEST, ADD, CANCEL or PUBLISH never changes an item the store has that one of my addresses organizes: what
///   I organize changes here only;
/// - from a mail, the sender is the message's ORGANIZER (for a REPLY: its ATTENDEE) or the address the *stored* item
///   says it is sent by (SENT-BY: the message's own claim proves nothing), unless the user vouches for the mail.
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
            /// A REQUEST, ADD, CANCEL or PUBLISH for an item one of my addresses organizes.
            case organizedByMe = "organized by you"
        }

        /// Which rule it breaks.
        package var rule: Rule
        /// Why, in words for the user: who is not whom, and for which item.
        package var reason: String
    }

    /// What the rules read of the item the store has (its components' ORGANIZER, ATTENDEEs and SENT-BYs), read once
    /// for every message of a run: thousands of answers to an item of thousands of attendees stay linear.
    package struct StoredItem: Sendable {
        /// Its components (empty: the store has no such item).
        package let components: [ItemCore]
        /// The master, else the first component.
        let master: ItemCore?
        /// The master's ORGANIZER, comparable.
        let organizer: String?
        /// The attendees of each component by its RECURRENCE-ID as written ("" for the master), comparable.
        let attendees: [String: Set<String>]
        /// Whom each organizer or attendee address sends by (SENT-BY), as the store's copy says.
        let sentBy: [String: Set<String>]

        /// Reads `components` (an item's master and overrides).
        package init(_ components: [ItemCore]) {
            self.components = components
            master = components.first(where: { $0.recurrenceID == nil }) ?? components.first
            organizer = master?.organizer.map { CalendarUser.comparable($0.address) }
            var attendees: [String: Set<String>] = [:]
            var sentBy: [String: Set<String>] = [:]
            for core in components {
                let key = core.recurrenceID?.date.icsValue ?? ""
                for user in core.attendees + (core.organizer.map { [$0] } ?? []) {
                    let address = CalendarUser.comparable(user.address)
                    if let by = user["SENT-BY"] { sentBy[address, default: []].insert(CalendarUser.comparable(by)) }
                }
                attendees[key, default: []].formUnion(core.attendees.map { CalendarUser.comparable($0.address) })
            }
            (self.attendees, self.sentBy) = (attendees, sentBy)
        }
    }

    /// Why `message` (one component of a message of `method`) may not change the item whose components the store
    /// has as `stored` (empty: a new item); nil when it may. `instance` is the message's RECURRENCE-ID as written
    /// (empty for the series): a REPLY to an instance counts for the attendees of that instance (whether the series
    /// has that instance is `SchedulingState`'s to say, from every message). `received`: the store has the item from
    /// scheduling messages, not made here; then an item without organizer (some booking systems send none) is
    /// updated by messages without one. `me`: my addresses (`CalendarUser.comparable`).
    package static func refusal(
        method: String, message: ItemCore, stored: [ItemCore], instance: String = "", received: Bool = false,
        origin: SchedulingOrigin, me: Set<String> = []
    ) -> Refusal? {
        refusal(
            method: method, message: message, stored: StoredItem(stored), instance: instance, received: received,
            origin: origin, me: me)
    }

    /// `refusal` with the stored item read once (`StoredItem`).
    package static func refusal(
        method: String, message: ItemCore, stored: StoredItem, instance: String = "", received: Bool = false,
        origin: SchedulingOrigin, me: Set<String> = []
    ) -> Refusal? {
        let title =
            (stored.components.first?.summary ?? message.summary).map { "\"\($0)\"" }
            ?? message.uid.map { "item \($0)" }
        let what = title ?? "the item"
        if method == "REPLY" {
            // The sender first: an answer from a stranger's mail is not one to apply once they are invited.
            return senderRefusal(origin, claimed: message.attendees, stored: stored, role: "ATTENDEE")
                ?? replyRefusal(message: message, stored: stored, instance: instance, what: what)
        }
        guard ["REQUEST", "ADD", "CANCEL", "PUBLISH"].contains(method) else { return nil }
        let claimed = message.organizer.map { CalendarUser.comparable($0.address) }
        if let mine = stored.organizer, me.contains(mine) {
            return Refusal(
                rule: .organizedByMe,
                reason:
                    "\(what) is organized by you (\(mine)); a \(method) from a message does not change it "
                    + "(icskit edit does)")
        }
        if stored.master != nil {
            guard let organizer = stored.organizer else {
                if received {
                    guard let claimed else {
                        return senderRefusal(origin, claimed: [], stored: stored, role: "ORGANIZER")
                    }
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
        return senderRefusal(origin, claimed: message.organizer.map { [$0] } ?? [], stored: stored, role: "ORGANIZER")
    }

    /// A REPLY: the item's organizer, one attendee it lists.
    private static func replyRefusal(message: ItemCore, stored: StoredItem, instance: String, what: String)
        -> Refusal?
    {
        guard stored.master != nil else { return nil }
        guard let organizer = stored.organizer else {
            return Refusal(
                rule: .madeHere, reason: "\(what) has no organizer (it was made here): there is no invitation to answer"
            )
        }
        if let named = message.organizer.map({ CalendarUser.comparable($0.address) }), named != organizer {
            return Refusal(
                rule: .notAnAnswer, reason: "the REPLY is addressed to \(named), but \(organizer) organizes \(what)")
        }
        let answering = message.attendees.map { CalendarUser.comparable($0.address) }
        guard !answering.isEmpty else { return Refusal(rule: .notAnAnswer, reason: "the REPLY names no ATTENDEE") }
        // RFC 5546 §3.2.3: one ATTENDEE, the one who answers; another listed beside would answer for someone else.
        guard answering.count == 1 else {
            return Refusal(
                rule: .notAnAnswer,
                reason:
                    "a REPLY answers for one ATTENDEE, its sender; this one names \(answering.count) "
                    + "(\(answering.joined(separator: ", ")))")
        }
        let masterKey = stored.master?.recurrenceID?.date.icsValue ?? ""
        let listed = [masterKey, instance].contains { stored.attendees[$0]?.contains(answering[0]) ?? false }
        guard listed else {
            return Refusal(
                rule: .notInvited,
                reason:
                    "\(answering[0]) is not invited to \(what); the answer is kept aside until the organizer invites "
                    + "them")
        }
        return nil
    }

    /// From a mail: the sender is one of `claimed` (the ORGANIZER, or a REPLY's ATTENDEE) or whom the stored item
    /// says that one sends by (a SENT-BY only the message names counts for nothing, since anyone can write one).
    private static func senderRefusal(
        _ origin: SchedulingOrigin, claimed: [CalendarUser], stored: StoredItem, role: String
    ) -> Refusal? {
        guard case .mail(let sender, let trusted) = origin, !trusted else { return nil }
        let claimedAddresses = Set(claimed.map { CalendarUser.comparable($0.address) })
        let allowed = claimedAddresses.union(claimedAddresses.flatMap { stored.sentBy[$0] ?? [] })
        guard let sender else {
            return Refusal(
                rule: .unverifiedSender,
                reason:
                    "unverified: the mail names no single sender (From:) that can be read; --trust-sender applies it")
        }
        let from = CalendarUser.comparable(sender)
        guard allowed.contains(from) else {
            let names = claimed.map { CalendarUser.comparable($0.address) }.joined(separator: ", ")
            return Refusal(
                rule: .unverifiedSender,
                reason:
                    "unverified: the mail is from \(from), not from its \(role) \(names.isEmpty ? "(none)" : names) "
                    + "or whom your copy says sends for them (SENT-BY); --trust-sender applies it")
        }
        return nil
    }
}
