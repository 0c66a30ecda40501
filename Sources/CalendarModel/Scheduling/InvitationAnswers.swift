import Foundation

// What an attendee sends (REPLY, RFC 5546 §3.2.3) and what a received message does, as pure functions.

extension Invitation {
    /// The REPLY one of `addresses` (the first that is an attendee of the item, or of the instance `instance` names)
    /// sends to the item `items` (master and overrides): only that ATTENDEE with its PARTSTAT `answer`, the same
    /// UID, RECURRENCE-ID and SEQUENCE (`organizerSequence`, the organizer's newest REQUEST's, when known: what a
    /// reply answers, not one a local edit raised), DTSTAMP `now` or one second after `lastAnswer` (two answers in
    /// one second: the second is the answer), and COMMENT. Returns the REPLY's component (what the store keeps as a
    /// received message) and the answer.
    package static func reply(
        to items: [CalendarComponent], zones: [TimeZoneDefinition], uid: String, addresses: Set<String>,
        answer: String, comment: String? = nil, instance: CalendarDate? = nil, organizerSequence: Int? = nil,
        lastAnswer: Int64? = nil, now: Date
    ) throws -> (component: CalendarComponent, reply: SchedulingReply) {
        let key = instance?.icsValue ?? ""
        guard
            let target = items.first(where: { $0.identity.recurrenceID == key })
                ?? items.first(where: { $0.identity.recurrenceID.isEmpty }),
            let core = target.core
        else { throw SchedulingError("there is no item \(uid) to answer") }
        guard var me = core.attendees.first(where: { addresses.contains(CalendarUser.comparable($0.address)) }) else {
            throw SchedulingError(
                "none of your addresses (\(addresses.sorted().joined(separator: ", "))) is an attendee of \(uid)")
        }
        guard core.organizer != nil else {
            throw SchedulingError(
                "\(core.summary.map { "\"\($0)\"" } ?? uid) names no ORGANIZER: there is no one to send a REPLY to")
        }
        me.parameters.removeAll { $0.name == "PARTSTAT" || $0.name == "RSVP" }
        me.parameters.append(Parameter("PARTSTAT", answer))
        var answered = ItemCore()
        answered.uid = uid
        answered.sequence = organizerSequence ?? core.sequence
        answered.organizer = core.organizer
        answered.attendees = [me]
        answered.summary = core.summary
        // An instance without an override of its own starts at its RECURRENCE-ID.
        answered.start = core.recurrenceID == nil ? instance ?? core.start : core.start
        let stamp = max(Int64(now.timeIntervalSince1970), lastAnswer.map { $0 + 1 } ?? Int64.min)
        answered.stamp = LocalDateTime(wallSeconds: stamp).calendarDate(.utc)
        if let instance { answered.recurrenceID = core.recurrenceID ?? RecurrenceID(instance) }
        let others = comment.map { [Property("COMMENT", text: $0)] } ?? []
        let component: CalendarComponent
        if case .todo = target {
            var todo = Todo()
            (todo.core, todo.otherProperties) = (answered, others)
            component = .todo(todo)
        } else {
            var event = Event()
            (event.core, event.otherProperties) = (answered, others)
            component = .event(event)
        }
        let reply = SchedulingReply(
            text: message("REPLY", [component], zones: zones),
            organizer: core.organizer.map { CalendarUser.comparable($0.address) },
            attendee: CalendarUser.comparable(me.address), summary: core.summary, answer: answer)
        return (component, reply)
    }

    /// What to do with one item of a received message.
    package enum Decision: Sendable, Hashable {
        /// A COUNTER or DECLINECOUNTER: shown (this says what it proposes), not applied.
        case show(String)
        /// A REFRESH: answered with the current REQUEST.
        case answer
        /// Kept aside, not applied: its sender may not change the item.
        case refuse(SchedulingTrust.Refusal)
        /// Kept and applied: the item is what the UID's messages make now (`SchedulingState`).
        case apply
        /// A METHOD this does not know: nothing is done; this says so.
        case unknown(String)
    }

    /// What to do with `item` (one component of a message of `method`; `component` as received) from `origin`,
    /// with the user's addresses `me`. `stored` reads what the store has of the item's UID, only for the methods
    /// that change items: the item (nil when it has none) and whether it came from scheduling messages.
    package static func decision<Failure: Error>(
        method: String, item: CalendarComponent, component: Component, origin: SchedulingOrigin, me: Set<String>,
        stored: () throws(Failure) -> (item: SchedulingTrust.StoredItem, received: Bool)?
    ) throws(Failure) -> Decision {
        switch method {
        case "COUNTER", "DECLINECOUNTER": return .show(counterText(item, component, method: method))
        case "REFRESH": return .answer
        case _ where SchedulingState.stored.contains(method):
            let known = try stored()
            let refusal = SchedulingTrust.refusal(
                method: method, message: item.core ?? ItemCore(), stored: known?.item ?? SchedulingTrust.StoredItem([]),
                instance: item.identity.recurrenceID, received: known?.received ?? false, origin: origin, me: me)
            return refusal.map { .refuse($0) } ?? .apply
        default: return .unknown("METHOD:\(method) is not a scheduling method ICSKit knows")
        }
    }

    /// What a COUNTER proposes, or that the organizer declined one.
    private static func counterText(_ item: CalendarComponent, _ component: Component, method: String) -> String {
        guard method == "COUNTER" else { return "the organizer declined the counter proposal" }
        let organizer = item.core?.organizer.map { CalendarUser.comparable($0.address) }
        let who =
            item.core?.attendees.map { CalendarUser.comparable($0.address) }.first { $0 != organizer }
            ?? "an attendee"
        let start = item.core?.start.map { " starting \($0.description)" } ?? ""
        let comment = component.properties.first { $0.name == "COMMENT" }.map { ": " + $0.value } ?? ""
        return "\(who) proposes\(start)\(comment)"
    }

    /// Why a message (of `method`, `core`, for instance `key`) changed nothing, given the UID's messages kept before
    /// it and the components they make now.
    package static func unchangedText(
        method: String, core: ItemCore, key: String, before: [SchedulingState.Message], made: [CalendarComponent]
    ) -> String {
        if method == "REPLY", !key.isEmpty, !made.contains(where: { $0.identity.recurrenceID == key }) {
            return "the REPLY answers for \(key), which is no instance of the series: nothing changed"
        }
        let requests = before.filter { $0.method == "REQUEST" || $0.method == "PUBLISH" }
        guard let newest = requests.filter({ $0.key == key || $0.key.isEmpty }).max(by: { $0.version < $1.version })
        else {
            return method == "REQUEST" || method == "PUBLISH"
                ? "nothing changed" : "the store has no invitation for this item"
        }
        return "the store has SEQUENCE \(newest.sequence) (DTSTAMP \(newest.core.stamp?.icsValue ?? "none")); "
            + "this message has SEQUENCE \(core.sequence ?? 0) (DTSTAMP \(core.stamp?.icsValue ?? "none")): nothing changed"
    }

    /// Who answered what, as a REPLY says it.
    package static func answersText(_ core: ItemCore) -> String {
        core.attendees.map {
            CalendarUser.comparable($0.address) + " " + ($0.participationStatus ?? "NEEDS-ACTION").lowercased()
        }.joined(separator: ", ")
    }
}
