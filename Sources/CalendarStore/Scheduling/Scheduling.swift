import CalendarMerge
import CalendarModel
import Foundation
internal import GRDB

/// What receiving one scheduling message (iTIP, RFC 5546) did to the store.
public struct SchedulingOutcome: Sendable, Hashable {
    /// What receiving a message did.
    public enum Kind: String, Sendable {
        /// A REQUEST (or PUBLISH) for an item the store did not have: added.
        case added
        /// A newer REQUEST, an ADD, or a PUBLISH: the item changed.
        case updated
        /// A CANCEL of the whole series (or item).
        case cancelled
        /// A CANCEL of one instance.
        case instanceCancelled = "instance cancelled"
        /// A REPLY: an attendee's answer set in the organizer's copy.
        case replied
        /// Nothing changed: the store has a newer version (or the message names an item it does not have).
        case ignored
        /// The same message again.
        case repeated
        /// A COUNTER or DECLINECOUNTER: shown, not applied.
        case counter
        /// A REFRESH: answered with the current REQUEST (`reply`).
        case refresh
        /// Not applied, kept aside: its sender may not change the item (`SchedulingTrust`); `detail` says why.
        case refused = "not applied"
    }

    /// What it did.
    public var kind: Kind
    /// The message's METHOD.
    public var method: String
    /// The item's UID.
    public var uid: String
    /// The instance's RECURRENCE-ID as written, empty for the series.
    public var recurrenceID: String
    /// The item's SUMMARY (the message's, else the stored item's).
    public var summary: String?
    /// The store calendar the item is in.
    public var calendar: String
    /// What happened, in words: why a message was ignored, who answered what, what a counter proposes.
    public var detail: String
    /// For a REFRESH: the REQUEST that answers it, as iCalendar text.
    public var reply: String?
}

/// What one run of `receiveScheduling` learnt of each UID's kept messages and the item they make, so that each
/// message reads and derives only what it adds (400 answers to one event: linear, not quadratic). Answers are
/// written once per UID at the end of the run (`flush`), not once each.
final class SchedulingCache {
    var derivations: [String: SchedulingState.Derivation] = [:]
    /// The UIDs whose item an answer changed since it was last written: calendar, UID, placement.
    var unwritten: [String: (calendarID: Int64, uid: String, time: CalendarTime)] = [:]
    /// Whether answers wait for `flush` (else each is written at once).
    var defersAnswers = false
    /// What the trust rules read of each stored item, until the item is written.
    var stored: [String: SchedulingTrust.StoredItem] = [:]
    /// The user's addresses: no message changes what they organize.
    var me: Set<String> = []

    static func key(_ calendarID: Int64, _ uid: String) -> String { "\(calendarID)\u{1F}\(uid)" }
}

extension CalendarStore {
    /// Receives scheduling messages (iTIP, RFC 5546: each calendar's METHOD; none or PUBLISH adds or updates by
    /// SEQUENCE and DTSTAMP), all in one transaction: REQUEST, PUBLISH, ADD, CANCEL and REPLY change the item as
    /// `SchedulingState` derives it from every message of its UID kept so far; COUNTER and DECLINECOUNTER are
    /// reported, REFRESH answered with the current REQUEST. An item goes to the calendar that has its UID, else to
    /// `calendar` (made when missing). A message `SchedulingTrust` refuses (not from the item's organizer, an
    /// answer of someone not invited, a mail from someone else) changes nothing: it is kept aside
    /// (`heldSchedulingMessages`) and its outcome says why.
    /// `me`: the user's addresses (`CalendarUser.comparable`); no message changes an item one of them organizes.
    package func receiveScheduling(
        _ calendars: [ICalendar], calendar defaultName: String, origin: SchedulingOrigin = .file,
        me: Set<String> = []
    ) throws -> [SchedulingOutcome] {
        try receiveScheduling(calendars.map { ($0, origin) }, calendar: defaultName, me: me)
    }

    /// Receives the messages of several files or mails, each with where it came from, in one transaction.
    package func receiveScheduling(
        _ messages: [(calendar: ICalendar, origin: SchedulingOrigin)], calendar defaultName: String,
        me: Set<String> = []
    ) throws -> [SchedulingOutcome] {
        try write { db in
            var outcomes: [SchedulingOutcome] = []
            let cache = SchedulingCache()
            cache.me = me
            cache.defersAnswers = true
            for (calendar, origin) in messages {
                let method = (calendar.method ?? "PUBLISH").trimmingCharacters(in: .whitespaces).uppercased()
                for item in calendar.components where item.isItem {
                    outcomes.append(
                        try Self.receive(
                            db, item, method: method, zones: calendar.timeZones, calendar: defaultName, origin: origin,
                            cache: cache))
                }
            }
            try Self.flush(db, cache)
            return outcomes
        }
    }

    /// One item of a received message: shown, answered, kept aside or applied.
    private static func receive(
        _ db: Database, _ item: CalendarComponent, method: String, zones: [TimeZoneDefinition],
        calendar defaultName: String,
        origin: SchedulingOrigin, cache: SchedulingCache
    ) throws -> SchedulingOutcome {
        let writer = StoreWriter(db)
        let (component, uid) = item.keyed
        let existing = try Int64.fetchOne(
            db, sql: "SELECT calendarID FROM item WHERE uid = ? ORDER BY id LIMIT 1", arguments: [uid])
        let name =
            try existing.flatMap {
                try String.fetchOne(db, sql: "SELECT name FROM calendar WHERE id = ?", arguments: [$0])
            } ?? defaultName
        var outcome = SchedulingOutcome(
            kind: .ignored, method: method, uid: uid, recurrenceID: item.identity.recurrenceID,
            summary: item.core?.summary, calendar: name, detail: "")
        switch method {
        case "COUNTER", "DECLINECOUNTER":
            outcome.kind = .counter
            outcome.detail = Self.counterText(item, component, method: method)
        case "REFRESH":
            outcome.kind = .refresh
            outcome.reply = try existing.flatMap { try Self.currentRequest(db, calendarID: $0, uid: uid) }
            outcome.detail = outcome.reply == nil ? "the store has no item \(uid) to send" : "answered"
        case _ where SchedulingState.stored.contains(method):
            // Read once per UID while answers come (they change no attendee list; anything else is written at once
            // and read again).
            let stored = try existing.map { calendarID in
                let key = SchedulingCache.key(calendarID, uid)
                if let known = cache.stored[key] { return known }
                let read = SchedulingTrust.StoredItem(
                    try storedCalendar(db, calendar: calendarID, uids: [uid]).components.compactMap {
                        $0.isItem ? $0.core : nil
                    })
                cache.stored[key] = read
                return read
            }
            let received = try existing.map {
                try Bool.fetchOne(
                    db,
                    sql: """
                        SELECT EXISTS (SELECT 1 FROM schedulingMessage
                        WHERE calendarID = ? AND uid = ? AND method IN ('REQUEST', 'PUBLISH'))
                        """, arguments: [$0, uid]) ?? false
            }
            if let refusal = SchedulingTrust.refusal(
                method: method, message: item.core ?? ItemCore(), stored: stored ?? SchedulingTrust.StoredItem([]),
                instance: item.identity.recurrenceID, received: received ?? false, origin: origin, me: cache.me)
            {
                outcome.kind = .refused
                outcome.detail = refusal.reason
                outcome.summary = stored?.components.first?.summary ?? outcome.summary
                if try Self.hold(db, component: component, outcome: outcome, refusal: refusal) > 0 {
                    outcome.detail +=
                        " (older messages kept aside were let go: at most \(heldLimits.perItem) an item, "
                        + "\(heldLimits.total) in all)"
                }
                return outcome
            }
            let calendarID = try existing ?? writer.calendarID(named: defaultName, create: true)!
            try writer.saveTimeZones(zones, calendarID: calendarID)
            try Self.receive(
                db, component: component, item: item, method: method, calendarID: calendarID, outcome: &outcome,
                cache: cache)
        default:
            outcome.detail = "METHOD:\(method) is not a scheduling method ICSKit knows"
        }
        return outcome
    }

    /// Keeps one message and writes the item that the UID's messages make now, when it differs from before (an
    /// answer, when the cache defers them, at `flush`).
    static func receive(
        _ db: Database, component: Component, item: CalendarComponent, method: String, calendarID: Int64,
        outcome: inout SchedulingOutcome, cache: SchedulingCache = SchedulingCache()
    ) throws {
        let around = try storedCalendar(db, calendar: calendarID)
        let time = CalendarTime(calendar: around, viewerZone: "UTC")
        let core = item.core ?? ItemCore()
        let message = SchedulingState.message(component, item: item, method: method, time: time)
        let key = SchedulingCache.key(calendarID, outcome.uid)
        var derivation =
            try cache.derivations[key]
            ?? SchedulingState.Derivation(
                schedulingMessages(db, calendarID: calendarID, uid: outcome.uid), zones: around.timeZones)
        // The same message again (a copy re-sent, a mail read twice) is kept once.
        try db.execute(
            sql: """
                INSERT INTO schedulingMessage
                    (calendarID, uid, method, recurrenceID, sequence, stamp, digest, content)
                SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8 WHERE NOT EXISTS (SELECT 1 FROM schedulingMessage
                    WHERE calendarID = ?1 AND uid = ?2 AND digest = ?7 AND method = ?3 AND content = ?8)
                """,
            arguments: [
                calendarID, outcome.uid, method, message.key, message.sequence, message.stamp, message.digest,
                message.content,
            ])
        guard db.changesCount > 0 else {
            cache.derivations[key] = derivation
            outcome.kind = .repeated
            outcome.detail = "this message was received before"
            return
        }
        // The message as it is kept, read back as every kept message is read.
        let added = try schedulingMessages(db, calendarID: calendarID, uid: outcome.uid, id: db.lastInsertedRowID)
        let before = derivation.messages
        let old = derivation.components
        var changed = false
        for message in added where derivation.add(message) { changed = true }
        cache.derivations[key] = derivation
        guard changed else {
            outcome.summary = outcome.summary ?? old.first?.core?.summary
            outcome.detail = ignoredText(method: method, core: core, messages: before, key: outcome.recurrenceID)
            if method == "REPLY", !outcome.recurrenceID.isEmpty,
                !derivation.components.contains(where: { $0.identity.recurrenceID == outcome.recurrenceID })
            {
                outcome.detail =
                    "the REPLY answers for \(outcome.recurrenceID), which is no instance of the series: "
                    + "nothing changed"
            }
            return
        }
        outcome.summary = outcome.summary ?? (derivation.components.first ?? old.first)?.core?.summary
        if method == "REPLY", cache.defersAnswers {
            cache.unwritten[key] = (calendarID, outcome.uid, time)
        } else {
            (cache.unwritten[key], cache.stored[key]) = (nil, nil)
            try write(db, derivation.components, uid: outcome.uid, calendarID: calendarID, time: time)
        }
        switch method {
        case "CANCEL": outcome.kind = outcome.recurrenceID.isEmpty ? .cancelled : .instanceCancelled
        case "REPLY":
            outcome.kind = .replied
            outcome.detail = core.attendees.map {
                CalendarUser.comparable($0.address) + " " + ($0.participationStatus ?? "NEEDS-ACTION").lowercased()
            }.joined(separator: ", ")
        default: outcome.kind = old.isEmpty ? .added : .updated
        }
    }

    /// Writes the answers the cache deferred: each UID's item once.
    static func flush(_ db: Database, _ cache: SchedulingCache) throws {
        for (key, place) in cache.unwritten.sorted(by: { $0.key < $1.key }) {
            guard let derivation = cache.derivations[key] else { continue }
            try write(db, derivation.components, uid: place.uid, calendarID: place.calendarID, time: place.time)
        }
        cache.unwritten = [:]
    }

    /// The item the messages make, as the store's rows of its UID: overrides it no longer has are deleted.
    private static func write(
        _ db: Database, _ components: [CalendarComponent], uid: String, calendarID: Int64, time: CalendarTime
    ) throws {
        let writer = StoreWriter(db)
        let rows = components.compactMap { ItemRow($0, time: time) }
        let kept = Set(rows.map(\.recurrenceID))
        for recurrenceID in try String.fetchAll(
            db, sql: "SELECT recurrenceID FROM item WHERE calendarID = ? AND uid = ?", arguments: [calendarID, uid])
        where !kept.contains(recurrenceID) {
            try writer.delete(MergeKey(uid: uid, recurrenceID: recurrenceID), calendarID: calendarID, tombstone: true)
        }
        for row in rows { try writer.save(row, calendarID: calendarID) }
    }

    /// The kept messages of one UID (or only the one of row `id`).
    static func schedulingMessages(_ db: Database, calendarID: Int64, uid: String, id: Int64? = nil) throws
        -> [SchedulingState.Message]
    {
        try Row.fetchAll(
            db,
            sql: """
                SELECT method, recurrenceID, sequence, stamp, digest, content FROM schedulingMessage
                WHERE calendarID = ? AND uid = ? AND (?3 IS NULL OR id = ?3) ORDER BY id
                """, arguments: [calendarID, uid, id]
        ).compactMap { row in
            guard let item = SchedulingState.item(kept: row[5]) else { return nil }
            return SchedulingState.Message(
                method: row[0], key: row[1], sequence: row[2], stamp: row[3], digest: row[4], item: item,
                content: row[5])
        }
    }

    /// Why a message changed nothing: what the store has is as new or newer.
    private static func ignoredText(
        method: String, core: ItemCore, messages: [SchedulingState.Message], key: String
    ) -> String {
        let requests = messages.filter { $0.method == "REQUEST" || $0.method == "PUBLISH" }
        guard let newest = requests.filter({ $0.key == key || $0.key.isEmpty }).max(by: { $0.version < $1.version })
        else {
            return method == "REQUEST" || method == "PUBLISH"
                ? "nothing changed" : "the store has no invitation for this item"
        }
        return "the store has SEQUENCE \(newest.sequence) (DTSTAMP \(newest.core.stamp?.icsValue ?? "none")); "
            + "this message has SEQUENCE \(core.sequence ?? 0) (DTSTAMP \(core.stamp?.icsValue ?? "none")): nothing changed"
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

    /// The item as a REQUEST from its organizer (its VTIMEZONEs included), as iCalendar text.
    static func currentRequest(_ db: Database, calendarID: Int64, uid: String) throws -> String? {
        let stored = try storedCalendar(db, calendar: calendarID, uids: [uid])
        let items = stored.components.filter(\.isItem)
        guard !items.isEmpty else { return nil }
        return message("REQUEST", items, zones: stored.timeZones)
    }
}

/// An answer to an invitation (`CalendarStore.reply`): the REPLY to send, and what it answered.
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

extension CalendarStore {
    /// Answers an invitation as `addresses` (the first of them that is an attendee of the item, or of the
    /// instance `instance` names): a REPLY with only that ATTENDEE and its new PARTSTAT, the same UID, SEQUENCE and
    /// RECURRENCE-ID, DTSTAMP `now`, and COMMENT; kept as a received message is, so the answer stays across the
    /// organizer's later updates of the same SEQUENCE, and set in the store, in the same transaction.
    public func reply(
        uid: String, calendar name: String, addresses: Set<String>, answer: String, comment: String? = nil,
        instance: CalendarDate? = nil, now: Date = Date()
    ) throws -> SchedulingReply {
        try write { db in
            guard let calendarID = try StoreWriter(db).calendarID(named: name, create: false) else {
                throw StoreError("no calendar \"\(name)\" in the store")
            }
            let stored = try Self.storedCalendar(db, calendar: calendarID, uids: [uid])
            let items = stored.components.filter(\.isItem)
            let key = instance?.icsValue ?? ""
            guard
                let target = items.first(where: { $0.identity.recurrenceID == key })
                    ?? items.first(where: {
                        $0.identity.recurrenceID.isEmpty
                    }),
                var core = target.core
            else { throw StoreError("the store has no item \(uid) in \"\(name)\"") }
            guard
                var me = core.attendees.first(where: {
                    addresses.contains(CalendarUser.comparable($0.address))
                })
            else {
                throw StoreError(
                    "none of your addresses (\(addresses.sorted().joined(separator: ", "))) is an attendee of \(uid)")
            }
            guard core.organizer != nil else {
                throw StoreError(
                    "\(core.summary.map { "\"\($0)\"" } ?? uid) names no ORGANIZER: there is no one to send a REPLY to")
            }
            me.parameters.removeAll { $0.name == "PARTSTAT" || $0.name == "RSVP" }
            me.parameters.append(Parameter("PARTSTAT", answer))
            var event = Event()
            event.core.uid = uid
            event.core.sequence =
                try Self.organizerSequence(db, calendarID: calendarID, uid: uid, recurrenceID: key) ?? core.sequence
            event.core.organizer = core.organizer
            event.core.attendees = [me]
            event.core.summary = core.summary
            // An instance without an override of its own starts at its RECURRENCE-ID.
            event.core.start = core.recurrenceID == nil ? instance ?? core.start : core.start
            // Later than any answer kept before (two answers in one second: the second is the answer).
            let answered =
                try Int64.fetchOne(
                    db,
                    sql:
                        "SELECT max(stamp) FROM schedulingMessage WHERE calendarID = ? AND uid = ? AND method = 'REPLY'",
                    arguments: [calendarID, uid]) ?? Int64.min
            let stamp = max(Int64(now.timeIntervalSince1970), answered == Int64.min ? Int64.min : answered + 1)
            event.core.stamp = LocalDateTime(wallSeconds: stamp).calendarDate(.utc)
            if let instance { event.core.recurrenceID = core.recurrenceID ?? RecurrenceID(instance) }
            if let comment { event.otherProperties.append(Property("COMMENT", text: comment)) }
            let reply: CalendarComponent
            if case .todo = target {
                var todo = Todo()
                todo.core = event.core
                todo.otherProperties = event.otherProperties
                reply = .todo(todo)
            } else {
                reply = .event(event)
            }
            core.attendees = core.attendees.map {
                CalendarUser.comparable($0.address) == CalendarUser.comparable(me.address) ? me : $0
            }
            var received = SchedulingOutcome(
                kind: .ignored, method: "REPLY", uid: uid, recurrenceID: key, summary: core.summary, calendar: name,
                detail: "")
            try Self.seedSchedulingMessages(db, calendarID: calendarID, uid: uid, items: items)
            try Self.receive(
                db, component: reply.keyed.component, item: reply, method: "REPLY", calendarID: calendarID,
                outcome: &received)
            return SchedulingReply(
                text: Self.message("REPLY", [reply], zones: stored.timeZones),
                organizer: core.organizer.map { CalendarUser.comparable($0.address) },
                attendee: CalendarUser.comparable(me.address), summary: core.summary, answer: answer)
        }
    }

    /// The SEQUENCE of the organizer's newest REQUEST or ADD for the item (or its instance): what a REPLY answers
    /// (RFC 5546 §2.1.4), not one a local edit raised. Nil when none was received.
    static func organizerSequence(_ db: Database, calendarID: Int64, uid: String, recurrenceID: String) throws -> Int? {
        try Int.fetchOne(
            db,
            sql: """
                SELECT max(sequence) FROM schedulingMessage
                WHERE calendarID = ? AND uid = ? AND method IN ('REQUEST', 'ADD') AND recurrenceID IN ('', ?)
                """, arguments: [calendarID, uid, recurrenceID])
    }

    /// An item the store has from a plain import (no REQUEST kept for it) is kept as PUBLISH messages first, so
    /// that what the messages make is that item with the answers; kept again, ahead of the messages before it, when
    /// the store's item changed since.
    static func seedSchedulingMessages(
        _ db: Database, calendarID: Int64, uid: String, items: [CalendarComponent]
    ) throws {
        let kept = try schedulingMessages(db, calendarID: calendarID, uid: uid)
        guard !kept.contains(where: { $0.method == "REQUEST" }) else { return }
        // Kept before, and the store's item changed since (imported again, edited): kept again, ahead of the rest.
        let made = SchedulingState.components(of: kept)
        let stored = items.sorted { $0.identity.recurrenceID < $1.identity.recurrenceID }
        if kept.contains(where: { $0.method == "PUBLISH" }), made == stored { return }
        let ahead = (
            sequence: kept.map(\.sequence).max() ?? Int.min, stamp: (kept.map(\.stamp).max() ?? Int64.min / 2) + 1
        )
        let time = CalendarTime(calendar: try storedCalendar(db, calendar: calendarID), viewerZone: "UTC")
        for item in items {
            var message = SchedulingState.message(item.keyed.component, item: item, method: "PUBLISH", time: time)
            message.sequence = max(message.sequence, ahead.sequence)
            message.stamp = max(message.stamp, ahead.stamp)
            try db.execute(
                sql: """
                    INSERT INTO schedulingMessage
                        (calendarID, uid, method, recurrenceID, sequence, stamp, digest, content)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    calendarID, uid, "PUBLISH", message.key, message.sequence, message.stamp, message.digest,
                    message.content,
                ])
        }
    }
}
