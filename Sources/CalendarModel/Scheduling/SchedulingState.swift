import Foundation

/// iTIP processing (RFC 5546) as pure functions: the messages of one UID (as a store keeps them), and the item they
/// make.
///
/// The item is derived from the whole set of messages, never from the order they came in, so receiving is
/// idempotent and order-independent: the newest REQUEST of each instance wins (`Revision`; the message's
/// fingerprint breaks ties), an override older than the series' SEQUENCE is dropped (a reschedule
/// replaces them), an ADD of the series' SEQUENCE adds its instance (an RDATE and the instance's own data), a
/// CANCEL at least as new as what it cancels cancels the series (STATUS:CANCELLED on every component) or removes
/// the instance (an EXDATE; an instance without its series is marked cancelled), and each listed attendee's newest
/// REPLY (of one ATTENDEE, its SEQUENCE counted at most the component's) that is not older than the component's
/// SEQUENCE sets that attendee's PARTSTAT (a reschedule asks again).
package enum SchedulingState {
    /// A message's place among the messages of its instance.
    package typealias Version = (Revision, String, String)

    package struct Message {
        package var method: String
        package var key: String
        package var sequence: Int
        package var stamp: Int64
        package var digest: String
        package var item: CalendarComponent

        package var content: String

        package init(
            method: String, key: String, sequence: Int, stamp: Int64, digest: String, item: CalendarComponent,
            content: String
        ) {
            (self.method, self.key, self.sequence, self.stamp) = (method, key, sequence, stamp)
            (self.digest, self.item, self.content) = (digest, item, content)
        }

        /// The order of versions: the revision (`Revision`: SEQUENCE, then DTSTAMP), then the text itself (a total
        /// order, so that no two messages tie and the order they came in cannot matter).
        package var version: Version { (Revision(sequence: sequence, stamp: stamp), digest, content) }
        package var core: ItemCore { item.core ?? ItemCore() }
    }

    /// A received item as a message: its text as kept, the hash of that text, its instance, SEQUENCE and DTSTAMP.
    package static func message(_ component: Component, item: CalendarComponent, method: String, time: CalendarTime)
        -> Message
    {
        let content = String(decoding: ICS.write(components: [component]), as: UTF8.self)
        var hash = FNV1a()
        hash.add(content)
        let core = item.core ?? ItemCore()
        return Message(
            method: method, key: item.identity.recurrenceID, sequence: core.sequence ?? 0,
            stamp: core.stamp.map { Int64(time.date(of: $0).timeIntervalSince1970) } ?? 0, digest: hash.hex, item: item,
            content: content)
    }

    /// The methods whose messages make items (the others are answered or shown).
    package static let stored: Set<String> = ["REQUEST", "PUBLISH", "ADD", "CANCEL", "REPLY"]

    /// The item (its master and overrides, master first) the messages make; empty when they make none. `zones`:
    /// the VTIMEZONEs its times may name (to tell which instances a series has).
    package static func components(of messages: [Message], zones: [TimeZoneDefinition] = []) -> [CalendarComponent] {
        Derivation(messages, zones: zones).components
    }

    /// The items the REQUESTs, PUBLISHes, ADDs and CANCELs make, by RECURRENCE-ID as written ("" for the master),
    /// before any answer.
    static func base(of messages: [Message]) -> [String: (item: CalendarComponent, version: Version)] {
        var newest: [String: Message] = [:]
        for message in messages where message.method == "REQUEST" || message.method == "PUBLISH" {
            if newest[message.key].map({ $0.version < message.version }) ?? true { newest[message.key] = message }
        }
        let master = newest[""]
        var items: [String: (item: CalendarComponent, version: Version)] = [:]
        for (key, message) in newest {
            if let master, key != "", message.sequence < master.sequence { continue }
            items[key] = (message.item, message.version)
        }
        if let master { addInstances(messages.filter { $0.method == "ADD" }, master: master, to: &items) }
        cancel(messages.filter { $0.method == "CANCEL" }, master: master, in: &items)
        return items
    }

    /// ADDs of the series' SEQUENCE: each one's start as an RDATE of the master, and the instance as an override.
    private static func addInstances(
        _ adds: [Message], master: Message,
        to items: inout [String: (item: CalendarComponent, version: Version)]
    ) {
        for add in adds.sorted(by: { $0.version < $1.version }) where add.sequence >= master.sequence {
            guard let start = add.core.start, var series = items[""]?.item, var core = series.core else { continue }
            if !core.recurrenceDates.contains(where: { $0.start == start }) {
                core.recurrenceDates.append(.date(start))
                series.core = core
                items[""] = (series, items[""]!.version)
            }
            var instance = add.item
            instance.core?.recurrenceID = RecurrenceID(start)
            if items[start.icsValue].map({ $0.version < add.version }) ?? true {
                items[start.icsValue] = (instance, add.version)
            }
        }
    }

    /// The newest CANCEL of the series, and of each instance, when at least as new as what it cancels.
    private static func cancel(
        _ cancels: [Message], master: Message?,
        in items: inout [String: (item: CalendarComponent, version: Version)]
    ) {
        var newest: [String: Message] = [:]
        for message in cancels where newest[message.key].map({ $0.version < message.version }) ?? true {
            newest[message.key] = message
        }
        if let whole = newest[""], master.map({ $0.version <= whole.version }) ?? true {
            for key in Array(items.keys) {
                items[key]?.item.core?.status = .cancelled
            }
        }
        for (key, message) in newest.sorted(by: { $0.key < $1.key }) where key != "" {
            let target = items[key]?.version ?? master?.version
            guard let target, target <= message.version else { continue }
            if var series = items[""]?.item, var core = series.core, let id = message.core.recurrenceID?.date {
                if !core.exceptionDates.contains(id) { core.exceptionDates.append(id) }
                series.core = core
                items[""]?.item = series
                items[key] = nil
            } else {
                items[key]?.item.core?.status = .cancelled
            }
        }
    }

    /// Whether the series `master` has an instance at `date` (any spelling of the same instant).
    static func hasInstance(_ master: CalendarComponent, at date: CalendarDate, zones: [TimeZoneDefinition])
        -> Bool
    {
        guard let uid = master.core?.uid else { return false }
        var calendar = ICalendar()
        calendar.components = zones.map { .timeZone($0) } + [master]
        return calendar.hasInstance(of: uid, at: date)
    }

    /// One instance of an event series as an override: the series' data at `date` (its RECURRENCE-ID), without
    /// its rules; nil for todos and journals.
    package static func instanceOverride(of series: CalendarComponent, at date: CalendarDate) -> CalendarComponent? {
        guard case .event(let event) = series, let start = event.core.start else { return nil }
        let shift = date.wall.wallSeconds - start.wall.wallSeconds
        let end = event.end.map {
            CalendarDate(wall: LocalDateTime(wallSeconds: $0.wall.wallSeconds + shift), form: $0.form)
        }
        return series.instance(start: date, end: end, recurrenceID: RecurrenceID(date))
    }

    /// The item of a message as the store keeps it (its component's text, without a VCALENDAR around it).
    package static func item(kept content: String) -> CalendarComponent? {
        let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//ICSKit//kept//EN\r\n" + content + "END:VCALENDAR\r\n"
        return ICS.read(Array(text.utf8)).calendars.first?.components.first(where: \.isItem)
    }
}

extension SchedulingState {
    /// Whether the time, the rule or the place differ: what raises an organizer's SEQUENCE (RFC 5546 §2.1.4).
    package static func scheduleChanged(_ item: CalendarComponent, since sent: CalendarComponent) -> Bool {
        func schedule(_ item: CalendarComponent) -> [String] {
            let core = item.core ?? ItemCore()
            var fields = [
                core.start?.description ?? "", core.location ?? "", "\(core.recurrenceRules)",
                "\(core.recurrenceDates)", "\(core.exceptionDates)",
            ]
            switch item {
            case .event(let event): fields += [event.end?.description ?? "", "\(String(describing: event.duration))"]
            case .todo(let todo): fields += [todo.due?.description ?? "", "\(String(describing: todo.duration))"]
            default: break
            }
            return fields
        }
        return schedule(item) != schedule(sent)
    }
}
