import CalendarMerge
import CalendarModel
import Foundation
internal import GRDB

/// One item as the store keeps it: the component's text as read, and columns derived from it for queries.
struct ItemRow: Sendable {
    let uid: String
    let recurrenceID: String
    let kind: String
    let summary: String?
    let startUTC: Int64?
    let endUTC: Int64?
    let startValue: String?
    let startTZID: String?
    let dueUTC: Int64?
    let status: String?
    let completedUTC: Int64?
    let priority: Int?
    let sequence: Int?
    let lastModifiedUTC: Int64?
    let stampUTC: Int64?
    let isRecurring: Bool
    let rangeEndUTC: Int64?
    /// The component as written (UTF-8, valid by construction: ICSKit's writer made it), bound as TEXT as it is.
    let content: [UInt8]
    let fingerprint: String
    let categories: [String]
    let relations: [Relation]

    var key: MergeKey { MergeKey(uid: uid, recurrenceID: recurrenceID) }

    /// Binds the row's values for the item table, in `StoreWriter.itemColumns`' order after the calendar id.
    func bind(_ binding: inout DirectBinding) {
        binding.add(uid)
        binding.add(recurrenceID)
        binding.add(kind)
        binding.add(summary)
        binding.add(startUTC)
        binding.add(endUTC)
        binding.add(startValue)
        binding.add(startTZID)
        binding.add(dueUTC)
        binding.add(status)
        binding.add(completedUTC)
        binding.add(priority)
        binding.add(sequence)
        binding.add(lastModifiedUTC)
        binding.add(stampUTC)
        binding.add(isRecurring)
        binding.add(rangeEndUTC)
        binding.addText(content)
        binding.add(fingerprint)
    }

    /// Derives the columns of an event, todo or journal; nil for other components.
    init?(_ item: CalendarComponent, time: CalendarTime) {
        guard item.isItem else { return nil }
        let keyed = item.keyed
        self.init(
            item, component: keyed.component, uid: keyed.uid, fingerprint: keyed.component.fingerprint,
            time: time)
    }

    /// The row of a merge's external item, whose key and fingerprint the merge already has.
    init?(_ item: MergeItem, time: CalendarTime) {
        self.init(
            item.item, component: item.component, uid: item.key.uid, fingerprint: item.version.fingerprint,
            time: time)
    }

    private init?(
        _ item: CalendarComponent, component: Component, uid: String, fingerprint: String,
        time: CalendarTime
    ) {
        guard let core = item.core else { return nil }
        var end: CalendarDate?, due: CalendarDate?, completed: CalendarDate?, duration: CalendarDuration?
        switch item {
        case .event(let event): (end, duration) = (event.end, event.duration)
        case .todo(let todo): (due, duration, completed) = (todo.due, todo.duration, todo.completed)
        default: break
        }
        func seconds(_ date: CalendarDate?) -> Int64? { date.map { Int64(time.date(of: $0).timeIntervalSince1970) } }
        self.uid = uid
        recurrenceID = core.recurrenceID?.date.icsValue ?? ""
        kind = component.name
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
        rangeEndUTC =
            isRecurring
            ? Self.rangeEnd(core, start: start, startUTC: startUTC, endUTC: endUTC, seconds)
            : endUTC
        content = ICS.write(components: [component])
        self.fingerprint = fingerprint
        categories = core.categories.map(\.name)
        relations = core.relatedTo
    }

    /// The last instant a series can reach when every rule ends (by UNTIL, or by COUNT: its last instance), else
    /// open (nil). Wall-clock times plus a day of slack cover any zone offset.
    private static func rangeEnd(
        _ core: ItemCore, start: CalendarDate?, startUTC: Int64?, endUTC: Int64?,
        _ seconds: (CalendarDate?) -> Int64?
    ) -> Int64? {
        let ends = core.recurrenceRules.map { rule -> Int64? in
            if let until = rule.until { return LocalDateTime(until).wallSeconds }
            guard let count = rule.count, count <= 10_000, let start,
                case .success(let dates) = rule.instances(from: start, limit: count)
            else { return nil }
            return dates.last.map { LocalDateTime($0).wallSeconds } ?? LocalDateTime(start).wallSeconds
        }
        guard !ends.contains(where: { $0 == nil }) else { return nil }
        let dates = core.recurrenceDates.map { seconds($0.start) ?? 0 }
        let length = max(0, (endUTC ?? 0) - (startUTC ?? 0))
        return (ends.compactMap { $0 } + dates + [startUTC ?? 0]).max().map { $0 + length + 86_400 }
    }
}
