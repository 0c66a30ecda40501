import CalendarModel
import Foundation
import GRDB

/// One item as the store keeps it: the component's text as read, and columns derived from it for queries.
struct ItemRow: Sendable {
    var uid: String
    var recurrenceID: String
    var kind: String
    var summary: String?
    var startUTC: Int64?
    var endUTC: Int64?
    var startValue: String?
    var startTZID: String?
    var dueUTC: Int64?
    var status: String?
    var completedUTC: Int64?
    var priority: Int?
    var sequence: Int?
    var lastModifiedUTC: Int64?
    var stampUTC: Int64?
    var isRecurring: Bool
    var rangeEndUTC: Int64?
    var content: String
    var fingerprint: String
    var categories: [String]
    var relations: [Relation]

    /// Derives the columns of an event, todo or journal; nil for other components.
    init?(_ component: CalendarComponent, time: CalendarTime) {
        let core: ItemCore
        var end: CalendarDate?, due: CalendarDate?, completed: CalendarDate?, duration: Duration?
        switch component {
        case .event(let event):
            (core, end, duration) = (event.core, event.end, event.duration)
        case .todo(let todo):
            (core, due, duration, completed) = (todo.core, todo.due, todo.duration, todo.completed)
        case .journal(let journal): core = journal.core
        default: return nil
        }
        func seconds(_ date: CalendarDate?) -> Int64? { date.map { Int64(time.date(of: $0).timeIntervalSince1970) } }
        let stored = storedForm(of: component)
        uid = stored.uid
        recurrenceID = core.recurrenceID?.date.icsValue ?? ""
        kind = stored.component.name
        summary = core.summary
        let start = core.start ?? due
        startUTC = seconds(start)
        startValue = start?.icsValue
        startTZID = start?.tzid
        if let end {
            endUTC = seconds(end)
        } else if let duration, let startUTC {
            endUTC = startUTC + Int64(duration.totalSeconds)
        } else if let start, start.isDate, let startUTC {
            endUTC = startUTC + 86_400
        } else {
            endUTC = due.flatMap { _ in seconds(due) } ?? startUTC
        }
        dueUTC = seconds(due)
        status = core.status?.rawValue
        completedUTC = seconds(completed)
        priority = core.priority
        sequence = core.sequence
        lastModifiedUTC = seconds(core.lastModified)
        stampUTC = seconds(core.stamp)
        isRecurring = core.isRecurring
        if isRecurring {
            // The last instant a series can reach when every rule ends (by UNTIL, or by COUNT: its last instance),
            // else open (nil). Wall-clock times plus a day of slack cover any zone offset.
            let ends = core.recurrenceRules.map { rule -> Int64? in
                if let until = rule.until { return LocalDateTime(until).wallSeconds }
                guard let count = rule.count, count <= 10_000, let start,
                      case .success(let dates) = rule.instances(from: start, limit: count) else { return nil }
                return dates.last.map { LocalDateTime($0).wallSeconds } ?? LocalDateTime(start).wallSeconds
            }
            let dates = core.recurrenceDates.map { seconds($0.start) ?? 0 }
            let length = max(0, (endUTC ?? 0) - (startUTC ?? 0))
            rangeEndUTC = ends.contains(where: { $0 == nil })
                ? nil : (ends.compactMap { $0 } + dates + [startUTC ?? 0]).max().map { $0 + length + 86_400 }
        } else {
            rangeEndUTC = endUTC
        }
        content = String(decoding: ICS.write(components: [stored.component]), as: UTF8.self)
        fingerprint = stored.component.fingerprint
        categories = core.categories.map(\.name)
        relations = core.relatedTo
    }

    /// Inserts or replaces the row (and its categories and relations) in a calendar. `isNew` skips clearing what
    /// an earlier version left (statements are cached: imports run them tens of thousands of times).
    func save(_ db: Database, calendarID: Int64, isNew: Bool = false) throws {
        let upsert = try db.cachedStatement(sql: """
            INSERT INTO item (calendarID, uid, recurrenceID, kind, summary, startUTC, endUTC, startValue, startTZID,
                dueUTC, status, completedUTC, priority, sequence, lastModifiedUTC, stampUTC, isRecurring, rangeEndUTC,
                content, fingerprint)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(calendarID, uid, recurrenceID) DO UPDATE SET kind = excluded.kind, summary = excluded.summary,
                startUTC = excluded.startUTC, endUTC = excluded.endUTC, startValue = excluded.startValue,
                startTZID = excluded.startTZID, dueUTC = excluded.dueUTC, status = excluded.status,
                completedUTC = excluded.completedUTC, priority = excluded.priority, sequence = excluded.sequence,
                lastModifiedUTC = excluded.lastModifiedUTC, stampUTC = excluded.stampUTC,
                isRecurring = excluded.isRecurring, rangeEndUTC = excluded.rangeEndUTC, content = excluded.content,
                fingerprint = excluded.fingerprint
            RETURNING id
            """)
        let arguments: StatementArguments = [calendarID, uid, recurrenceID, kind, summary, startUTC, endUTC,
                                             startValue, startTZID, dueUTC, status, completedUTC, priority, sequence,
                                             lastModifiedUTC, stampUTC, isRecurring, rangeEndUTC, content, fingerprint]
        guard let itemID = try Int64.fetchOne(upsert, arguments: arguments) else {
            throw StoreError("the store did not take item \(uid)")
        }
        if !isNew {
            try db.cachedStatement(sql: "DELETE FROM itemCategory WHERE itemID = ?").execute(arguments: [itemID])
            try db.cachedStatement(sql: "DELETE FROM relation WHERE itemID = ?").execute(arguments: [itemID])
            try db.cachedStatement(sql: "DELETE FROM tombstone WHERE calendarID = ? AND uid = ? AND recurrenceID = ?")
                .execute(arguments: [calendarID, uid, recurrenceID])
        }
        if !categories.isEmpty {
            let insert = try db.cachedStatement(sql: "INSERT OR IGNORE INTO itemCategory (itemID, name) VALUES (?, ?)")
            for name in categories { try insert.execute(arguments: [itemID, name]) }
        }
        if !relations.isEmpty {
            let insert = try db.cachedStatement(sql: "INSERT INTO relation (itemID, relatedUID, relationType) VALUES (?, ?, ?)")
            for relation in relations { try insert.execute(arguments: [itemID, relation.uid, relation.type]) }
        }
    }
}

/// An item as the store keys, keeps and fingerprints it: its component, and its UID — for an item that has none,
/// one derived from its content (and written into it), so importing or merging the same file again finds it again.
public func storedForm(of component: CalendarComponent) -> (component: Component, uid: String) {
    var generic = component.component
    if let uid = component.identity.uid { return (generic, uid) }
    let uid = generic.derivedUID
    generic.properties.insert(Property("UID", value: uid), at: 0)
    return (generic, uid)
}
