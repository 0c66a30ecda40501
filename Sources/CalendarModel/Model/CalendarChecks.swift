/// The checks that need a calendar's components together: every TZID used has a VTIMEZONE (RFC 5545 §3.2.19) and
/// is used after its first onset, every VEVENT has a DTSTART unless the calendar has a METHOD, and no item repeats
/// an earlier one's UID (and RECURRENCE-ID).
///
/// Components are taken in runs (`Part`), each summed up on its own (on any thread) and added in input order, so a
/// calendar read whole and one streamed a run at a time get the same diagnostics from the same code. What is kept
/// between runs is small: per item a 64-bit fingerprint of its identity and its line (about 13 bytes), per TZID its
/// first use and its VTIMEZONE's first onset.
struct CalendarChecks {
    /// What one run of components holds that the checks need, in input order.
    struct Part: Sendable {
        struct Item: Sendable {
            var line: Int
            var isEventWithoutStart: Bool
            /// The UID, if any, and a fingerprint of the item's identity (kind, UID, RECURRENCE-ID).
            var uid: String?
            var identity: UInt64
            var hasRecurrenceID: Bool
        }

        struct Use: Sendable {
            var line: Int
            var earliest: String
            var earliestLine: Int
        }

        var items: [Item] = []
        /// How many components the run holds, of any kind.
        var componentCount = 0
        /// Each VTIMEZONE with a TZID, in order, with the earliest DTSTART of its observances.
        var zones: [(tzid: String, firstOnset: String?)] = []
        /// Per TZID, the first line that uses it and the earliest date used with it (the first such line on ties).
        var uses: [String: Use] = [:]

        init(_ components: some Collection<CalendarComponent>) {
            componentCount = components.count
            for component in components { add(component) }
        }

        private mutating func add(_ component: CalendarComponent) {
            // The few fields the checks read are copied out of the item first, not the item (see `forEachDate`).
            switch component {
            case .event(let event):
                let core = (event.core.uid, event.core.recurrenceID, event.core.start != nil)
                add(core, line: event.provenance.source?.line ?? 0, kind: .event)
            case .todo(let todo):
                let core = (todo.core.uid, todo.core.recurrenceID, todo.core.start != nil)
                add(core, line: todo.provenance.source?.line ?? 0, kind: .todo)
            case .journal(let journal):
                let core = (journal.core.uid, journal.core.recurrenceID, journal.core.start != nil)
                add(core, line: journal.provenance.source?.line ?? 0, kind: .journal)
            case .timeZone(let zone):
                guard let tzid = zone.tzid else { break }
                let onsets = zone.component.components.compactMap {
                    $0.property("DTSTART").map { String($0.value.prefix(8)) }
                }
                zones.append((tzid, onsets.min()))
                return
            case .other: break
            }
            component.asRead.forEach { nested in
                for property in nested.properties where !property.parameters.isEmpty {
                    guard let tzid = property["TZID"] else { continue }
                    use(
                        tzid,
                        Use(
                            line: property.line, earliest: Self.earliestDate(in: property.value),
                            earliestLine: property.line))
                }
            }
        }

        private mutating func add(
            _ core: (uid: String?, recurrenceID: RecurrenceID?, hasStart: Bool), line: Int, kind: ItemKind
        ) {
            var identity = FNV1a()
            if let uid = core.uid {
                identity.add(kind.componentName)
                identity.add(0)
                identity.add(uid)
                if let recurrenceID = core.recurrenceID {
                    identity.add(0)
                    identity.add(recurrenceID.date.icsValue)
                    identity.add(0)
                    identity.add(recurrenceID.date.tzid ?? "")
                    identity.add(recurrenceID.date.isDate ? 1 : 0)
                    identity.add(recurrenceID.thisAndFuture ? 1 : 0)
                }
            }
            items.append(
                Item(
                    line: line, isEventWithoutStart: kind == .event && !core.hasStart, uid: core.uid,
                    identity: identity.value, hasRecurrenceID: core.recurrenceID != nil))
        }

        /// Records a use of a TZID after those already recorded.
        mutating func use(_ tzid: String, _ use: Use) {
            if let seen = uses[tzid] {
                if use.earliest < seen.earliest {
                    uses[tzid] = Use(
                        line: seen.line, earliest: use.earliest,
                        earliestLine: use.earliestLine)
                }
            } else {
                uses[tzid] = use
            }
        }

        /// The `YYYYMMDD` part of the earliest date in a value (a list for EXDATE and RDATE).
        private static func earliestDate(in value: String) -> String {
            guard value.utf8.contains(UInt8(ascii: ",")) else { return String(value.utf8.prefix(8)) ?? value }
            return ValueSyntax.split(value, on: ",").map { String($0.utf8.prefix(8)) ?? $0 }.min() ?? value
        }
    }

    private let method: String?
    private var firstOnset: [String: String] = [:]
    private var defined: Set<String> = []
    private var uses = Part([])
    /// The first line of each identity seen.
    private var seen: FirstLines
    /// What the items reported, in their order.
    private var itemLog: [(line: Int, isError: Bool, message: String, code: String)] = []

    /// The VCALENDAR's line (nil for components read without one), and how many components were added.
    private let line: Int?
    private var componentCount = 0

    /// Checks for a calendar with this METHOD and about `expectedItems` components, which begins at `line`.
    init(method: String?, expectedItems: Int = 0, line: Int? = nil) {
        self.method = method
        self.line = line
        seen = FirstLines(expected: expectedItems)
    }

    /// Adds the next run of components.
    mutating func add(_ part: Part) {
        componentCount += part.componentCount
        for zone in part.zones {
            defined.insert(zone.tzid)
            if let onset = zone.firstOnset { firstOnset[zone.tzid] = onset }
        }
        // A TZID's first use stays the first; its earliest date the first earliest one.
        for (tzid, use) in part.uses {
            uses.use(tzid, use)
        }
        for item in part.items {
            if method == nil, item.isEventWithoutStart {
                itemLog.append(
                    (
                        item.line, true, "VEVENT has no DTSTART (required when the calendar has no METHOD)",
                        "missing-dtstart"
                    ))
            }
            guard let uid = item.uid else { continue }
            if let first = seen.insert(item.identity, line: item.line) {
                let what = item.hasRecurrenceID ? "UID and RECURRENCE-ID" : "UID"
                itemLog.append(
                    (
                        item.line, false,
                        "duplicate \(what) \"\(uid)\" (first at line \(first)); both are kept as read, and the "
                            + "instances come from the newer (higher SEQUENCE, then later DTSTAMP; the first when equal)",
                        "duplicate-uid"
                    ))
            }
        }
    }

    /// Reports what the components added so far lack: TZIDs first, then what each item reported.
    func report(_ log: inout DiagnosticLog) {
        if let line, componentCount == 0 {
            // RFC 5545 §3.6 asks for one component at least; an iTIP message (RFC 5546) is about the one it carries.
            if let method {
                log.error(
                    line,
                    "VCALENDAR with METHOD:\(method) holds no component (RFC 5546 schedules a VEVENT, VTODO, "
                        + "VJOURNAL or VFREEBUSY); nothing to read", code: "method-without-component")
            } else {
                log.warning(
                    line, "VCALENDAR holds no component (RFC 5545 §3.6 asks for one at least)", code: "empty-calendar")
            }
        }
        reportTimeZones(&log)
        for entry in itemLog {
            if entry.isError {
                log.error(entry.line, entry.message, code: entry.code)
            } else {
                log.warning(entry.line, entry.message, code: entry.code)
            }
        }
    }

    /// RFC 5545 §3.2.19: every TZID used needs a VTIMEZONE, and times before a VTIMEZONE's first onset have no
    /// offset. Names that are not IANA zones are reported too: apps that ignore VTIMEZONE (Google among them)
    /// turn such times floating. One warning per TZID.
    private func reportTimeZones(_ log: inout DiagnosticLog) {
        for (tzid, use) in uses.uses.sorted(by: { ($0.value.line, $0.key) < ($1.value.line, $1.key) }) {
            let isIANA = LibicalValues.isBuiltinZone(tzid)
            if let onset = firstOnset[tzid] {
                if !isIANA {
                    log.warning(
                        use.line,
                        "TZID \"\(tzid)\" is not an IANA zone name; its VTIMEZONE applies "
                            + "here, but apps that ignore VTIMEZONE may read these times as floating",
                        code: "tzid-not-iana")
                } else if use.earliest < onset {
                    let outcome =
                        ZoneSource.preferred == .tzdata
                        ? "tzdata's \(tzid) applies (programs that use the file's rules have no offset there)"
                        : "the offset there is undefined"
                    log.warning(
                        use.earliestLine,
                        "TZID \"\(tzid)\" is used on \(use.earliest), before the first onset its VTIMEZONE "
                            + "defines (\(onset)); \(outcome)", code: "tzid-before-first-onset")
                }
            } else if defined.contains(tzid) {
                log.warning(
                    use.line,
                    "TZID \"\(tzid)\" has a VTIMEZONE without onsets (no observance has a DTSTART); "
                        + (isIANA ? "the IANA zone of that name applies" : "it cannot be used"),
                    code: "vtimezone-without-onsets")
            } else if isIANA {
                log.warning(
                    use.line,
                    "TZID \"\(tzid)\" has no VTIMEZONE in this calendar (RFC 5545 §3.2.19); "
                        + "the IANA zone of that name applies", code: "tzid-without-vtimezone")
            } else if let mapped = TimeZoneResolver.ianaName(for: tzid) {
                log.warning(
                    use.line,
                    "TZID \"\(tzid)\" has no VTIMEZONE in this calendar and is "
                        + "\(mapped.note ?? "a prefixed name"); read as \(mapped.iana)", code: "tzid-mapped")
            } else {
                log.warning(
                    use.line,
                    "TZID \"\(tzid)\" has no VTIMEZONE in this calendar and names no known "
                        + "zone; its times are floating", code: "tzid-unknown")
            }
        }
    }
}

/// A set of 64-bit fingerprints, each with the line it was first seen on: open addressing with linear probing over
/// two flat arrays (12 bytes a slot, at most 15/16 full), sized for the items expected so that it does not grow
/// (growing holds the old table and the new one at once): two million items take 24 MB, a dictionary would take 64.
struct FirstLines {
    private var keys: [UInt64] = []
    private var lines: [UInt32] = []
    private var count = 0

    /// A set with room for `expected` fingerprints. Small to begin with: a CalDAV download checks thousands of
    /// calendars of one item each.
    init(expected: Int = 0) {
        var capacity = 16
        while capacity * 15 < expected * 16 { capacity *= 2 }
        keys = Array(repeating: 0, count: capacity)
        lines = Array(repeating: 0, count: capacity)
    }

    /// Adds a fingerprint; returns the line it was first seen on if it was there already.
    mutating func insert(_ fingerprint: UInt64, line: Int) -> Int? {
        // 0 marks an empty slot.
        let key = fingerprint == 0 ? 1 : fingerprint
        if (count + 1) * 16 > keys.count * 15 { grow() }
        let mask = keys.count - 1
        var slot = Int(truncatingIfNeeded: Self.mix(key)) & mask
        while keys[slot] != 0 {
            if keys[slot] == key { return Int(lines[slot]) }
            slot = (slot + 1) & mask
        }
        keys[slot] = key
        lines[slot] = UInt32(clamping: line)
        count += 1
        return nil
    }

    private mutating func grow() {
        let oldKeys = keys, oldLines = lines
        let capacity = keys.count * 2
        keys = Array(repeating: 0, count: capacity)
        lines = Array(repeating: 0, count: capacity)
        let mask = capacity - 1
        for index in oldKeys.indices where oldKeys[index] != 0 {
            var slot = Int(truncatingIfNeeded: Self.mix(oldKeys[index])) & mask
            while keys[slot] != 0 { slot = (slot + 1) & mask }
            keys[slot] = oldKeys[index]
            lines[slot] = oldLines[index]
        }
    }

    /// MurmurHash3's finalizer: FNV-1a's low bits alone would crowd the slots.
    private static func mix(_ value: UInt64) -> UInt64 {
        var value = value
        value ^= value >> 33
        value &*= 0xFF51_AFD7_ED55_8CCD
        value ^= value >> 33
        value &*= 0xC4CE_B9FE_1A85_EC53
        value ^= value >> 33
        return value
    }
}
