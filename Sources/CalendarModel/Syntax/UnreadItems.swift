/// Reading a calendar again when most of it is known: items a caller already knows (by key and fingerprint, from a
/// read before) are scanned but not decoded, which is most of what reading costs.
extension ICS {
    /// An item `read(_:file:leavingOut:)` did not decode: its component as scanned, and which calendar of the
    /// result it stands in.
    package struct UnreadItem: Sendable {
        /// The item as it stands in the file.
        package var component: Component
        /// The index of its calendar in the result's `calendars`.
        package var calendarIndex: Int

        /// The item decoded, as a full read gives it (what decoding reports is dropped).
        package var decoded: CalendarComponent {
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
    package static func read<Note: Sendable>(
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
            var leftOut: Set<Int> = []
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
                if kept.count < children.count { leftOut.insert(index) }
            }
            calendars = top.indices.map { index in
                context.hasComponentsElsewhere = leftOut.contains(index)
                defer { context.hasComponentsElsewhere = false }
                return Self.decoding(top[index], &context)
            }
        } else {
            calendars = Self.calendars(from: top, &context)
        }
        if calendars.isEmpty {
            context.log.error(
                bytes.isEmpty ? 0 : 1, "no iCalendar data found (no BEGIN:VCALENDAR or component)",
                code: "no-calendar-data")
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
    package var isComplete: Bool { !isCutOff }

    /// The UID and RECURRENCE-ID a full read gives this event, todo or journal, read from its lines alone, and
    /// whether the read moves it into the zone of its calendar's X-WR-TIMEZONE (when `wrTimeZone` says the
    /// calendar has one that names a zone: the event has a UTC or floating time). Without a move a full read
    /// writes it as it stands, so its `fingerprint` is the one the read computes. nil when that cannot be told
    /// without decoding it: it is cut short, it has no UID (one is derived), its UID holds an escape, its
    /// RECURRENCE-ID is not a plain DATE or DATE-TIME or would move.
    package func keyAsRead(wrTimeZone: Bool) -> (uid: String, recurrenceID: String, moves: Bool)? {
        guard ["VEVENT", "VTODO", "VJOURNAL"].contains(name), !isCutOff else { return nil }
        var uid: String?, recurrenceID = "", moves = false
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
                if !isDate, !isZoned {
                    guard property.name != "RECURRENCE-ID" else { return nil }
                    moves = true
                }
            }
        }
        return uid.map { ($0, recurrenceID, moves) }
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
    /// Its SUMMARY and start (DTSTART) as a full read gives them, read from those properties alone; an event's
    /// start moved into the zone its calendar's X-WR-TIMEZONE names (`wrTimeZone`, as `ICalendar.wrTimeZone`
    /// reads it), as the read moves it.
    package func summaryAndStart(wrTimeZone: String? = nil) -> (summary: String?, start: CalendarDate?) {
        func first<Value>(_ name: String, _ codec: ValueCodec<Value>) -> Value? {
            for property in component.properties where property.name == name {
                if case .success(let value) = codec.single(property) { return value }
            }
            return nil
        }
        var start: CalendarDate? = first("DTSTART", .dateTime)
        if component.name == Event.componentName, let name = wrTimeZone, let date = start,
            let iana = TimeZoneResolver.ianaName(for: name)?.iana, let zone = ThreadZones.tzdata(iana)
        {
            start = Expander.moving(date, into: iana, zone) ?? date
        }
        return (first("SUMMARY", .text), start)
    }
}

extension ICalendar {
    /// What decides how this calendar's X-WR-TIMEZONE moves its events' times when it is read
    /// (`resolvingWRTimeZone`): the zone's tzdata name and a digest of its rules as this libical has them (so a
    /// tzdata update changes it); nil when it has none or it names no zone, and nothing moves.
    package var wrTimeZoneIdentity: String? { wrTimeZone.flatMap { Self.wrTimeZoneIdentity($0.name) } }

    /// `wrTimeZoneIdentity` of a calendar as scanned (its first X-WR-TIMEZONE, read as the decoder reads it).
    package static func wrTimeZoneIdentity(of calendar: Component) -> String? {
        calendar.property("X-WR-TIMEZONE").flatMap { TextEscaping.unescape($0.value) }.flatMap(wrTimeZoneIdentity)
    }

    private static func wrTimeZoneIdentity(_ name: String) -> String? {
        guard let iana = TimeZoneResolver.ianaName(for: name)?.iana, LibicalZone.privateCopy(iana) != nil,
            let rules = LibicalZone.vtimezoneText(iana: iana, fromYear: 1970)
        else { return nil }
        var digest = FNV1a()
        digest.add(rules)
        return iana + " " + digest.hex
    }
}

extension CalendarComponent {
    /// Whether it would be written exactly as it was read (it was read, and nothing changed it or its lines since).
    package var isAsRead: Bool {
        switch self {
        case .event(let event):
            return event.provenance.source != nil && !event.provenance.isModified && !event.provenance.isRewritten
        case .todo(let todo):
            return todo.provenance.source != nil && !todo.provenance.isModified && !todo.provenance.isRewritten
        case .journal(let journal):
            return journal.provenance.source != nil && !journal.provenance.isModified && !journal.provenance.isRewritten
        case .timeZone, .other: return true
        }
    }
}
