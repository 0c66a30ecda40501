/// Reading a calendar again when most of it is known: items a caller already knows (by key and fingerprint, from a
/// read before) are scanned but not decoded, which is most of what reading costs.
extension ICS {
    /// An item `read(_:file:leavingOut:)` did not decode: its component as scanned, and which calendar of the
    /// result it stands in.
    public struct UnreadItem: Sendable {
        /// The item as it stands in the file.
        public var component: Component
        /// The index of its calendar in the result's `calendars`.
        public var calendarIndex: Int

        /// The item decoded, as a full read gives it (what decoding reports is dropped).
        public var decoded: CalendarComponent {
            var scratch = DecodeContext(log: DiagnosticLog(file: nil))
            return CalendarComponent(decoding: component, &scratch)
        }
    }

    /// Reads iCalendar bytes as `read(_:file:)` does, except that the components of each VCALENDAR for which
    /// `leaveOut` returns a note are not decoded: they come back unread, each with its note, and the calendars hold
    /// the rest. `leaveOut` sees each component as scanned and the calendar around it without its components; it
    /// runs on every core. What decoding a left-out component would have reported is not reported, and the
    /// calendar-wide checks (duplicate UIDs, TZIDs without VTIMEZONE) see only what was decoded. An input with
    /// components outside any VCALENDAR is decoded whole.
    public static func read<Note: Sendable>(
        _ bytes: [UInt8], file: String?,
        leavingOut leaveOut: @escaping @Sendable (_ component: Component, _ calendar: Component) -> Note?
    ) -> (result: ReadResult, unread: [(item: UnreadItem, note: Note)]) {
        var log = DiagnosticLog(file: file)
        let scanned = ContentLineScanner.scan(bytes, log: &log, decoding: false)
        var top = scanned.components
        var unread: [(item: UnreadItem, note: Note)] = []
        var context = DecodeContext(log: log)
        let calendars: [ICalendar]
        if top.allSatisfy({ $0.name == ICalendar.componentName }) {
            for index in top.indices {
                var header = top[index]
                header.components = []
                let children = top[index].components
                let run = 512
                let notes = ParallelParts.run((children.count + run - 1) / run) { [header] part in
                    children[part * run..<min(children.count, (part + 1) * run)].map { leaveOut($0, header) }
                }.joined()
                var kept: [Component] = []
                for (child, note) in zip(children, notes) {
                    if let note {
                        unread.append((UnreadItem(component: child, calendarIndex: index), note))
                    } else {
                        kept.append(child)
                    }
                }
                top[index].components = kept
            }
            calendars = top.map { Self.decoding($0, &context) }
        } else {
            calendars = Self.calendars(from: top, &context)
        }
        if calendars.isEmpty {
            context.log.error(bytes.isEmpty ? 0 : 1, "no iCalendar data found (no BEGIN:VCALENDAR or component)")
        }
        let result = ReadResult(
            calendars: calendars, diagnostics: context.log.sortedByLine, isTruncated: scanned.isTruncated)
        return (result, unread)
    }

    /// A calendar decoded with its components decoded on every core, in runs (what they report is kept).
    private static func decoding(_ calendar: Component, _ context: inout DecodeContext) -> ICalendar {
        let children = calendar.components, file = context.log.file
        let run = 256
        let runs = ParallelParts.run((children.count + run - 1) / run) { part in
            var context = DecodeContext(log: DiagnosticLog(file: file))
            let decoded = children[part * run..<min(children.count, (part + 1) * run)].map {
                CalendarComponent(decoding: $0, &context)
            }
            return (decoded, context.log)
        }
        return ICalendar(decoding: calendar, &context) { calendar, context in
            calendar.components = runs.flatMap(\.0)
            for (_, log) in runs { context.log.append(log) }
        }
    }
}

extension Component {
    /// Whether the input went on to this component's END (false when it ended inside it).
    public var isComplete: Bool { !isCutOff }

    /// The UID and RECURRENCE-ID a full read gives this event, todo or journal, read from its lines alone; nil
    /// when that cannot be told without decoding it, or when a full read could write it otherwise than it stands
    /// (then its `fingerprint` would not be the one a full read computes): it is cut short, it has no UID (one
    /// is derived), its UID holds an escape, its RECURRENCE-ID is not a plain DATE or DATE-TIME, or the calendar
    /// has an X-WR-TIMEZONE (`wrTimeZone`) and the event has a UTC or floating time that moves into that zone.
    public func keyAsRead(wrTimeZone: Bool) -> (uid: String, recurrenceID: String)? {
        guard ["VEVENT", "VTODO", "VJOURNAL"].contains(name), !isCutOff else { return nil }
        var uid: String?, recurrenceID = ""
        for property in properties {
            switch property.name {
            case "UID":
                guard uid == nil, !property.value.isEmpty, !property.value.utf8.contains(UInt8(ascii: "\\")) else {
                    return nil
                }
                uid = property.value
            case "RECURRENCE-ID":
                guard recurrenceID.isEmpty, Self.isPlainDateOrDateTime(property.value) else { return nil }
                recurrenceID = property.value
            default:
                break
            }
            if wrTimeZone, name == "VEVENT", Self.timesWRTimeZoneMoves.contains(property.name) {
                // Stays put: a DATE, or a time with a TZID that is not UTC (a Z wins over the TZID).
                let value = property.value.utf8
                let isDate = value.count == 8 && property["VALUE"] != "PERIOD"
                let isZoned =
                    property["TZID"] != nil && !value.contains { $0 == UInt8(ascii: "Z") || $0 == UInt8(ascii: "z") }
                guard isDate || isZoned else { return nil }
            }
        }
        return uid.map { ($0, recurrenceID) }
    }

    /// The properties of an event whose UTC and floating times X-WR-TIMEZONE moves into its zone.
    private static let timesWRTimeZoneMoves: Set<String> = ["DTSTART", "DTEND", "EXDATE", "RDATE", "RECURRENCE-ID"]

    /// `YYYYMMDD`, `YYYYMMDDTHHMMSS` or `YYYYMMDDTHHMMSSZ`: values a full read spells the same way again.
    private static func isPlainDateOrDateTime(_ value: String) -> Bool {
        let bytes = Array(value.utf8)
        func digits(_ range: Range<Int>) -> Bool { range.allSatisfy { (0x30...0x39).contains(bytes[$0]) } }
        switch bytes.count {
        case 8: return digits(0..<8)
        case 15, 16:
            return digits(0..<8) && bytes[8] == UInt8(ascii: "T") && digits(9..<15)
                && (bytes.count == 15 || bytes[15] == UInt8(ascii: "Z"))
        default: return false
        }
    }
}

extension ICS.UnreadItem {
    /// Its SUMMARY and start (DTSTART) as a full read gives them, read from those properties alone.
    public var summaryAndStart: (summary: String?, start: CalendarDate?) {
        func first<Value>(_ name: String, _ codec: ValueCodec<Value>) -> Value? {
            for property in component.properties where property.name == name {
                if case .success(let value) = codec.single(property) { return value }
            }
            return nil
        }
        return (first("SUMMARY", .text), first("DTSTART", .dateTime))
    }
}
