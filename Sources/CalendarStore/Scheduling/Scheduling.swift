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
        var stored: SchedulingTrust.StoredItem?
        let decision = try Invitation.decision(
            method: method, item: item, component: component, origin: origin, me: cache.me
        ) { () throws -> (item: SchedulingTrust.StoredItem, received: Bool)? in
            guard let existing else { return nil }
            let read = try Self.storedItem(db, calendarID: existing, uid: uid, cache: cache)
            stored = read
            return (read, try Self.received(db, calendarID: existing, uid: uid))
        }
        switch decision {
        case .show(let detail): (outcome.kind, outcome.detail) = (.counter, detail)
        case .answer:
            outcome.kind = .refresh
            outcome.reply = try existing.flatMap { try Self.currentRequest(db, calendarID: $0, uid: uid) }
            outcome.detail = outcome.reply == nil ? "the store has no item \(uid) to send" : "answered"
        case .refuse(let refusal):
            outcome.kind = .refused
            outcome.detail = refusal.reason
            outcome.summary = stored?.components.first?.summary ?? outcome.summary
            if try Self.hold(db, component: component, outcome: outcome, refusal: refusal) > 0 {
                outcome.detail +=
                    " (older messages kept aside were let go: at most \(heldLimits.perItem) an item, "
                    + "\(heldLimits.total) in all)"
            }
        case .apply:
            let calendarID = try existing ?? writer.calendarID(named: defaultName, create: true)!
            try writer.saveTimeZones(zones, calendarID: calendarID)
            try Self.receive(
                db, component: component, item: item, method: method, calendarID: calendarID, outcome: &outcome,
                cache: cache)
        case .unknown(let detail): outcome.detail = detail
        }
        return outcome
    }

    /// What the trust rules read of a stored item: read once per UID while answers come (they change no attendee
    /// list; anything else is written at once and read again).
    private static func storedItem(_ db: Database, calendarID: Int64, uid: String, cache: SchedulingCache) throws
        -> SchedulingTrust.StoredItem
    {
        let key = SchedulingCache.key(calendarID, uid)
        if let known = cache.stored[key] { return known }
        let read = SchedulingTrust.StoredItem(
            try storedCalendar(db, calendar: calendarID, uids: [uid]).components.compactMap {
                $0.isItem ? $0.core : nil
            })
        cache.stored[key] = read
        return read
    }

    /// Whether the store has the item from an invitation (a REQUEST or PUBLISH kept), not made here.
    private static func received(_ db: Database, calendarID: Int64, uid: String) throws -> Bool {
        try Bool.fetchOne(
            db,
            sql: """
                SELECT EXISTS (SELECT 1 FROM schedulingMessage
                WHERE calendarID = ? AND uid = ? AND method IN ('REQUEST', 'PUBLISH'))
                """, arguments: [calendarID, uid]) ?? false
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
            outcome.detail = Invitation.unchangedText(
                method: method, core: core, key: outcome.recurrenceID, before: before, made: derivation.components)
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
            outcome.detail = Invitation.answersText(core)
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

    /// The item as a REQUEST from its organizer (its VTIMEZONEs included), as iCalendar text.
    static func currentRequest(_ db: Database, calendarID: Int64, uid: String) throws -> String? {
        let stored = try storedCalendar(db, calendar: calendarID, uids: [uid])
        let items = stored.components.filter(\.isItem)
        guard !items.isEmpty else { return nil }
        return Invitation.message("REQUEST", items, zones: stored.timeZones)
    }
}

extension CalendarStore {
    /// Answers an invitation as `addresses` (`Invitation.reply`: the first of them that is an attendee of the item,
    /// or of the instance `instance` names) and keeps the REPLY as a received message is, so the answer stays across
    /// the organizer's later updates of the same SEQUENCE, and set in the store, in the same transaction.
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
            guard !items.isEmpty else { throw StoreError("the store has no item \(uid) in \"\(name)\"") }
            let key = instance?.icsValue ?? ""
            let lastAnswer = try Int64.fetchOne(
                db,
                sql: "SELECT max(stamp) FROM schedulingMessage WHERE calendarID = ? AND uid = ? AND method = 'REPLY'",
                arguments: [calendarID, uid])
            let (component, reply) = try StoreError.rethrowing {
                try Invitation.reply(
                    to: items, zones: stored.timeZones, uid: uid, addresses: addresses, answer: answer,
                    comment: comment,
                    instance: instance,
                    organizerSequence: try Self.organizerSequence(
                        db, calendarID: calendarID, uid: uid, recurrenceID: key),
                    lastAnswer: lastAnswer, now: now)
            }
            var received = SchedulingOutcome(
                kind: .ignored, method: "REPLY", uid: uid, recurrenceID: key, summary: reply.summary, calendar: name,
                detail: "")
            try Self.seedSchedulingMessages(db, calendarID: calendarID, uid: uid, items: items)
            try Self.receive(
                db, component: component.keyed.component, item: component, method: "REPLY", calendarID: calendarID,
                outcome: &received)
            return reply
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
