import CalendarModel
import Foundation

/// What a listing shows of an item, kept as bytes beside its instances (`instanceItem.listing`), so that a week of
/// thousands of items is listed without parsing any of them: its kind, UID, SUMMARY, LOCATION, STATUS, COLOR,
/// CATEGORIES, ORGANIZER and ATTENDEEs with their parameters, RECURRENCE-ID, a todo's COMPLETED, and whether it has
/// alarms (not the alarms themselves).
///
/// Layout: a version byte, the kind (`E`, `T`, `J`), a flags byte (1: alarms, 2: RANGE=THISANDFUTURE), then
/// UID, SUMMARY, LOCATION, STATUS and COLOR as optional strings, RECURRENCE-ID and COMPLETED as optional dates,
/// the categories, the organizer (optional) and the attendees. Numbers are LEB128; an optional string is its
/// length + 1 (0: none) and its UTF-8; a date its form as `InstanceCache.form` writes it and its wall seconds.
enum ListedItem {
    static let version: UInt8 = 1

    static func encode(_ item: Occurrence.Item) -> [UInt8] {
        var writer = Writer()
        let core = item.core
        let kind: UInt8
        var hasAlarms = false
        var completed: CalendarDate?
        switch item {
        case .event(let event): (kind, hasAlarms) = (0x45, !event.alarms.isEmpty)
        case .todo(let todo): (kind, hasAlarms, completed) = (0x54, !todo.alarms.isEmpty, todo.completed)
        case .journal: kind = 0x4A
        }
        let thisAndFuture = core.recurrenceID?.thisAndFuture ?? false
        writer.bytes = [version, kind, (hasAlarms ? 1 : 0) | (thisAndFuture ? 2 : 0)]
        for text in [core.uid, core.summary, core.location, core.status?.rawValue, core.color] {
            writer.optional(text)
        }
        writer.date(core.recurrenceID?.date)
        writer.date(completed)
        writer.number(core.categories.count)
        for category in core.categories {
            writer.optional(category.name)
            writer.optional(category.color)
        }
        writer.number(core.organizer == nil ? 0 : 1)
        if let organizer = core.organizer { writer.user(organizer) }
        writer.number(core.attendees.count)
        for attendee in core.attendees { writer.user(attendee) }
        return writer.bytes
    }

    /// The fields `encode` wrote (its `item` an item with only those); nil for bytes it did not write.
    static func decode(_ bytes: UnsafeRawBufferPointer) -> Occurrence.Listed? {
        var reader = Reader(bytes: bytes)
        guard reader.byte() == version, let kind = reader.byte(), let flags = reader.byte() else { return nil }
        var core = ItemCore()
        guard let uid = reader.optional(), let summary = reader.optional(), let location = reader.optional(),
            let status = reader.optional(), let color = reader.optional(), let recurrenceID = reader.date(),
            let completed = reader.date(), let categoryCount = reader.number()
        else { return nil }
        (core.uid, core.summary, core.location, core.color) = (uid, summary, location, color)
        core.status = status.map(Status.init(rawValue:))
        core.recurrenceID = recurrenceID.map { RecurrenceID($0, thisAndFuture: flags & 2 != 0) }
        for _ in 0..<categoryCount {
            guard let name = reader.optional(), let color = reader.optional() else { return nil }
            core.categories.append(Category(name ?? "", color: color))
        }
        guard let organizers = reader.number(), organizers <= 1 else { return nil }
        if organizers == 1 {
            guard let organizer = reader.user() else { return nil }
            core.organizer = organizer
        }
        guard let attendeeCount = reader.number() else { return nil }
        for _ in 0..<attendeeCount {
            guard let attendee = reader.user() else { return nil }
            core.attendees.append(attendee)
        }
        guard reader.offset == bytes.count else { return nil }
        let hasAlarms = flags & 1 != 0
        switch kind {
        case 0x45: return Occurrence.Listed(kind: .event, core: core, hasAlarms: hasAlarms)
        case 0x54: return Occurrence.Listed(kind: .todo, core: core, completed: completed, hasAlarms: hasAlarms)
        case 0x4A: return Occurrence.Listed(kind: .journal, core: core, hasAlarms: hasAlarms)
        default: return nil
        }
    }

    /// Items' listed fields gathered one after another (each copied once, into one buffer), then decoded together:
    /// on every core when there are many.
    struct Batch {
        private var bytes: [UInt8] = []
        private var spans: [Range<Int>?] = []

        /// The next item's fields.
        mutating func append(_ fields: UnsafeRawBufferPointer) {
            spans.append(bytes.count..<bytes.count + fields.count)
            bytes += fields
        }

        /// The next item has no listed fields.
        mutating func appendNone() { spans.append(nil) }

        /// Each item's fields as shared instances' items, in the order appended; nil where there were none or
        /// they are not what `encode` writes.
        func decoded() -> [Occurrence.Shared?] {
            let (bytes, spans) = (self.bytes, self.spans)
            let parts = ParallelParts.ranges(spans.count, from: 2_000)
            return ParallelParts.run(parts.count) { part in
                parts[part].map { index in
                    spans[index].flatMap { span in
                        bytes[span].withUnsafeBytes(ListedItem.decode).map(Occurrence.Shared.init)
                    }
                }
            }.flatMap { $0 }
        }
    }

    struct Writer {
        var bytes: [UInt8] = []

        mutating func number(_ value: Int) { unsigned(UInt64(max(0, value))) }

        mutating func unsigned(_ value: UInt64) {
            var rest = value
            while rest >= 0x80 {
                bytes.append(UInt8(rest & 0x7F) | 0x80)
                rest >>= 7
            }
            bytes.append(UInt8(rest))
        }

        mutating func optional(_ text: String?) {
            guard let text else { return number(0) }
            number(text.utf8.count + 1)
            bytes += text.utf8
        }

        /// The form, then the wall seconds moved to be non-negative (zig-zag).
        mutating func date(_ date: CalendarDate?) {
            optional(date.map(InstanceCache.form))
            guard let date else { return }
            let wall = date.wall.wallSeconds
            unsigned(UInt64(bitPattern: (wall << 1) ^ (wall >> 63)))
        }

        mutating func user(_ user: CalendarUser) {
            optional(user.address)
            number(user.parameters.count)
            for parameter in user.parameters {
                optional(parameter.name)
                number(parameter.values.count)
                for value in parameter.values { optional(value) }
            }
        }
    }

    struct Reader {
        let bytes: UnsafeRawBufferPointer
        var offset = 0

        mutating func byte() -> UInt8? {
            guard offset < bytes.count else { return nil }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func number() -> Int? {
            guard let value = unsigned(), value <= UInt64(Int.max) else { return nil }
            return Int(value)
        }

        mutating func unsigned() -> UInt64? {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while let byte = byte() {
                guard shift <= 63 else { return nil }
                value |= UInt64(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return value }
                shift += 7
            }
            return nil
        }

        /// `.some(nil)` for an absent string, nil for bytes that end too soon.
        mutating func optional() -> String?? {
            guard let length = number() else { return nil }
            if length == 0 { return .some(nil) }
            guard length - 1 <= bytes.count - offset else { return nil }
            defer { offset += length - 1 }
            let text = UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + length - 1])
            return .some(String(decoding: text, as: UTF8.self))
        }

        mutating func date() -> CalendarDate?? {
            guard let form = optional() else { return nil }
            guard let form else { return .some(nil) }
            guard let number = unsigned() else { return nil }
            let wall = Int64(bitPattern: number >> 1) ^ -Int64(bitPattern: number & 1)
            return .some(InstanceCache.date(wall: wall, form: form))
        }

        mutating func user() -> CalendarUser? {
            guard let address = optional(), let address, let count = number(), count <= bytes.count else { return nil }
            var user = CalendarUser(address: address)
            for _ in 0..<count {
                guard let name = optional(), let name, let valueCount = number(), valueCount <= bytes.count
                else { return nil }
                var values: [String] = []
                for _ in 0..<valueCount {
                    guard let value = optional(), let value else { return nil }
                    values.append(value)
                }
                user.parameters.append(Parameter(name, values))
            }
            return user
        }
    }
}
