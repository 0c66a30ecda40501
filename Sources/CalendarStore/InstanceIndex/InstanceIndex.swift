import CalendarModel
import Foundation
internal import GRDB

/// Where the instances of the store's series lie in time, kept month by month, so that a week is listed without
/// expanding every series that could reach it (a store of 100,000 items holds thousands of open-ended series).
///
/// Its one question: for a window, which items have instances in it, and at which times (`instances`). Everything
/// else a listing shows comes from the items themselves, read whole, as every other command reads them (`IndexedInstances.swift`).
///
/// A month is expanded the first time a listing needs it, for one calendar and one way of expanding (viewer zone,
/// X-WR-TIMEZONE, zone rules), by the same expansion a calendar file gets. What changes an item marks its UID stale
/// (triggers, `StoreSchema`; new items lie above the highest row id seen), and the next listing expands that UID's
/// months again (`InstanceIndexUpkeep.swift`); a calendar whose VTIMEZONEs or own properties changed has its months
/// dropped. A month whose expansion said something (a limit, a zone it could not use) keeps nothing and is expanded
/// where it is listed, so that the warning is given there. The index is derived data: undo neither records nor
/// restores it, it clears it.
enum InstanceIndex {
    /// The longest window the index serves, in months: a listing of years is expanded (keeping it would cost more
    /// than expanding it, and grow the store by every month of it).
    static let windowLimit = 3

    /// The most months a calendar keeps (per way of expanding); past it the least recently made are dropped.
    static let monthLimit = 24

    /// More stale UIDs than this and every month is dropped instead (an import of thousands of items): expanding
    /// months again when they are next listed costs less than expanding each UID in each month.
    static let staleLimit = 2_000

    /// The way of expanding a month was kept for.
    struct Way: Hashable {
        var viewerZone: String
        var applyWRTimeZone: Bool
        var zones: String

        init(_ options: ExpansionOptions) {
            viewerZone = options.viewerZoneName
            applyWRTimeZone = options.applyWRTimeZone
            zones = options.zones.rawValue
        }

        init(row: Row, from column: Int) {
            viewerZone = row[column]
            applyWRTimeZone = row[column + 1]
            zones = row[column + 2]
        }

        var options: ExpansionOptions {
            var options = ExpansionOptions()
            options.components = Set(ItemKind.allCases)
            options.viewerZoneName = viewerZone
            options.applyWRTimeZone = applyWRTimeZone
            options.zones = ZoneSource(rawValue: zones) ?? .preferred
            return options
        }

        var arguments: [any DatabaseValueConvertible] { [viewerZone, applyWRTimeZone, zones] }
    }

    /// One instance in the index: the item (row id) that describes it and its times.
    struct Instance {
        var itemID: Int64
        var uid: String
        var kind: String
        /// Its place in its month's expansion.
        var position: Int
        var timing: Occurrence.Timing
    }

    /// The instances of one calendar's kept months that overlap the window, each once (an instance over the end of
    /// a month is kept in both), in no particular order; only those of `kinds`, and with `firing` those whose
    /// alarms can go off in it (a day of slack each side).
    static func instances(
        _ db: Database, calendar: Int64, way: Way, window: Range<Int64>, kinds: Set<ItemKind>, firing: Range<Int64>?
    ) throws -> [Instance] {
        let kindList = kinds.sorted().map(\.rawValue)
        // `startUTC >= from - longest` bounds the index range from below: an instance that overlaps the window
        // starts at most the month's longest instance before it.
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT n.itemID, n.uid, n.kind, n.position, n.startUTC, n.endUTC, n.startWall, n.startForm,
                       n.endWall, n.endForm, n.recurrenceUTC, n.recurrenceWall, n.recurrenceForm, n.floating
                FROM instanceMonth m JOIN instance n ON n.monthID = m.id
                WHERE m.calendarID = ? AND m.viewerZone = ? AND m.applyWRTimeZone = ? AND m.zones = ?
                AND m.month BETWEEN ? AND ? AND n.startUTC < ? AND n.startUTC >= ? - m.longest
                AND n.endUTC >= ? \(firing == nil ? "" : "AND n.hasAlarm AND n.alarmLast >= ? AND n.alarmFirst < ?")
                AND n.kind IN (\(Array(repeating: "?", count: kindList.count).joined(separator: ", ")))
                """,
            arguments: StatementArguments(
                [calendar] + way.arguments + monthBounds(window)
                    + [window.upperBound, window.lowerBound, window.lowerBound]
                    + (firing.map { [$0.lowerBound, $0.upperBound] } ?? []) + kindList))
        struct Key: Hashable {
            var item: Int64
            var start: Int64
            var recurrence: Int64?
        }
        var seen: Set<Key> = []
        var found: [Instance] = []
        while let row = try rows.next() {
            let (item, start, end, recurrence): (Int64, Int64, Int64, Int64?) = (row[0], row[4], row[5], row[10])
            guard Occurrence.overlaps(start: start, end: end, window: window),
                seen.insert(Key(item: item, start: start, recurrence: recurrence)).inserted
            else { continue }
            let recurrenceForm: String? = row[12]
            let timing = Occurrence.Timing(
                recurrenceID: recurrenceForm.map { date(wall: row[11] ?? 0, form: $0) },
                start: date(wall: row[6], form: row[7]), end: date(wall: row[8], form: row[9]),
                startDate: Date(timeIntervalSince1970: TimeInterval(start)),
                endDate: Date(timeIntervalSince1970: TimeInterval(end)),
                recurrenceDate: recurrence.map { Date(timeIntervalSince1970: TimeInterval($0)) },
                isFloating: row[13])
            found.append(Instance(itemID: item, uid: row[1], kind: row[2], position: row[3], timing: timing))
        }
        return found
    }

    // MARK: Months

    /// Month `n` counted from January 1970, in UTC.
    static func month(of seconds: Int64) -> Int {
        let day = Int((seconds >= 0 ? seconds : seconds - 86_399) / 86_400)
        let date = LocalDateTime(wallSeconds: Int64(day) * 86_400)
        return (date.year - 1970) * 12 + date.month - 1
    }

    static func range(of month: Int) -> Range<Int64> {
        func start(_ month: Int) -> Int64 {
            let year = 1970 + Int((Double(month) / 12).rounded(.down))
            return LocalDateTime(year: year, month: month - (year - 1970) * 12 + 1, day: 1).wallSeconds
        }
        return start(month)..<start(month + 1)
    }

    /// The months a window touches.
    static func months(_ window: Range<Int64>) -> ClosedRange<Int> {
        month(of: window.lowerBound)...month(of: max(window.lowerBound, window.upperBound - 1))
    }

    static func monthBounds(_ window: Range<Int64>) -> [any DatabaseValueConvertible] {
        let months = months(window)
        return [months.lowerBound, months.upperBound]
    }

    /// What a calendar's months were expanded on: its own properties and VTIMEZONEs.
    static func basis(_ db: Database, calendar: Int64) throws -> String {
        let header = try String.fetchOne(db, sql: "SELECT header FROM calendar WHERE id = ?", arguments: [calendar])
        let zones = try String.fetchAll(
            db, sql: "SELECT content FROM timeZone WHERE calendarID = ? ORDER BY tzid", arguments: [calendar])
        var hasher = FNV1a()
        hasher.add(header ?? "")
        for zone in zones {
            hasher.add(0)
            hasher.add(zone)
        }
        return hasher.hex + ":" + String(zones.count)
    }

    // MARK: Times as kept

    static func seconds(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970.rounded(.down)) }

    /// `D` a date, `F` floating, `U` UTC, `Z` and the TZID zoned.
    static func form(_ date: CalendarDate) -> String {
        switch date.form {
        case .date: "D"
        case .floating: "F"
        case .utc: "U"
        case .zoned(let tzid): "Z" + tzid.name
        }
    }

    static func date(wall: Int64, form: String) -> CalendarDate {
        let kind: CalendarDate.Form =
            switch form.first {
            case "D": .date
            case "U": .utc
            case "Z": .zoned(tzid: TimeZoneID(unchecked: String(form.dropFirst())))
            default: .floating
            }
        return CalendarDate(wall: LocalDateTime(wallSeconds: wall), form: kind)
    }
}
