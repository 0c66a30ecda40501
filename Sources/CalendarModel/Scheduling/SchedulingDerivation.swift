import Foundation

extension SchedulingState {
    /// The item one UID's messages make (`components(of:)`), kept up to date message by message.
    ///
    /// Answers are applied last: each attendee's newest REPLY for a component (RFC 5546 §3.2.3: of one ATTENDEE;
    /// ranked with its SEQUENCE at most the organizer's, so that a huge one cannot pin an answer above the attendee's
    /// real later reply) sets that attendee's PARTSTAT, unless older than the component's SEQUENCE (a reschedule asks
    /// again); an answer for an instance without an override of its own makes one, when the series has that instance.
    ///
    /// An answer that changes one attendee of a component the other messages made is applied to that attendee
    /// alone, so R answers to an item of A attendees cost R + A, not R × A. Anything else derives the item anew from
    /// every message, by the same rules: the result never depends on the path, nor on the order messages came in.
    package struct Derivation {
        typealias Entry = (item: CalendarComponent, version: Version)

        /// Every message added, in order.
        package private(set) var messages: [Message]
        private let zones: [TimeZoneDefinition]
        /// What the REQUESTs, PUBLISHes, ADDs and CANCELs make, by RECURRENCE-ID as written.
        private var base: [String: Entry] = [:]
        /// Each (instance, attendee)'s newest answer.
        private var newest: [String: Message] = [:]
        /// The base with the newest answers applied.
        private var made: [String: Entry] = [:]
        /// Where each attendee (by address) stands in a component of `made`, built when first needed.
        private var positions: [String: [String: Int]] = [:]

        /// The item `messages` make; `zones`: the VTIMEZONEs its times may name (to tell which instances a series
        /// has).
        package init(_ messages: [Message], zones: [TimeZoneDefinition] = []) {
            self.messages = messages
            self.zones = zones
            rebuild()
        }

        /// The item's master and overrides, master first; empty when the messages make none.
        package var components: [CalendarComponent] { made.keys.sorted().compactMap { made[$0]?.item } }

        /// Adds one message; whether the item changed.
        package mutating func add(_ message: Message) -> Bool {
            messages.append(message)
            guard message.method == "REPLY" else {
                let before = components
                rebuild()
                return components != before
            }
            guard let id = Self.answerID(message) else { return false }
            if let current = newest[id], !(ranked(current) < ranked(message)) { return false }
            newest[id] = message
            // One attendee of a component the other messages made, and no override an answer made that copies the
            // master's attendees: only that attendee changes.
            if base[message.key] != nil, message.key != "" || made.keys.allSatisfy({ base[$0] != nil }) {
                return answerAlone(message)
            }
            let before = components
            applyAnswers()
            return components != before
        }

        /// `(instance, attendee)` of a REPLY of one ATTENDEE; nil for any other (it answers for nobody).
        private static func answerID(_ reply: Message) -> String? {
            guard reply.core.attendees.count == 1 else { return nil }
            return reply.key + "\u{1F}" + CalendarUser.comparable(reply.core.attendees[0].address)
        }

        /// A REPLY's place among the answers of its attendee: its SEQUENCE counts up to the organizer's.
        private func ranked(_ reply: Message) -> Version {
            let organizer = (base[reply.key] ?? base[""])?.item.core?.sequence ?? 0
            return (Revision(sequence: min(reply.sequence, organizer), stamp: reply.stamp), reply.digest, reply.content)
        }

        private mutating func rebuild() {
            base = SchedulingState.base(of: messages)
            newest = [:]
            for reply in messages where reply.method == "REPLY" {
                guard let id = Self.answerID(reply) else { continue }
                if newest[id].map({ ranked($0) < ranked(reply) }) ?? true { newest[id] = reply }
            }
            applyAnswers()
        }

        /// `made` from `base` and every newest answer: components in RECURRENCE-ID order, the master first, so that an
        /// override an answer makes copies the master as answered.
        private mutating func applyAnswers() {
            made = base
            positions = [:]
            var byKey: [String: [Message]] = [:]
            for (_, reply) in newest.sorted(by: { $0.key < $1.key }) { byKey[reply.key, default: []].append(reply) }
            for (key, answers) in byKey.sorted(by: { $0.key < $1.key }) {
                // An answer for one instance of a series makes that instance an override of its own; one for an
                // instance the series does not have adds none (the organizer's next update would send it to all).
                if made[key] == nil, let series = made[""], let date = answers[0].core.recurrenceID?.date,
                    !(series.item.core?.exceptionDates.contains(date) ?? false),
                    SchedulingState.hasInstance(series.item, at: date, zones: zones),
                    let instance = instanceOverride(of: series.item, at: date)
                {
                    made[key] = (instance, series.version)
                }
                guard var entry = made[key], var core = entry.item.core else { continue }
                var counted = false
                for reply in answers where answer(reply, in: &core, key: key) { counted = true }
                // Written back only when an answer counted: an untouched component stays as it was read.
                guard counted else { continue }
                entry.item.core = core
                made[key] = entry
            }
        }

        /// One answer applied to its component in `made`; whether the component changed.
        private mutating func answerAlone(_ reply: Message) -> Bool {
            guard var entry = made[reply.key], var core = entry.item.core,
                answer(reply, in: &core, key: reply.key)
            else { return false }
            let before = entry.item
            entry.item.core = core
            made[reply.key] = entry
            return entry.item != before
        }

        /// Sets the answering attendee's PARTSTAT in `core` (the component of `key`); false when the answer does
        /// not count (older than the component's SEQUENCE, or from an attendee it does not list).
        private mutating func answer(_ reply: Message, in core: inout ItemCore, key: String) -> Bool {
            guard reply.sequence >= (core.sequence ?? 0), let answer = reply.core.attendees.first else { return false }
            if positions[key] == nil {
                var index: [String: Int] = [:]
                for (position, attendee) in core.attendees.enumerated() {
                    index[CalendarUser.comparable(attendee.address)] =
                        index[CalendarUser.comparable(attendee.address)] ?? position
                }
                positions[key] = index
            }
            guard let position = positions[key]?[CalendarUser.comparable(answer.address)] else { return false }
            core.attendees[position].parameters.removeAll { $0.name == "PARTSTAT" }
            core.attendees[position].parameters.append(
                Parameter("PARTSTAT", answer.participationStatus ?? "NEEDS-ACTION"))
            return true
        }
    }
}
