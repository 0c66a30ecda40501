import Foundation

/// Turns the TZIDs of one calendar into zones. A TZID that is a real IANA name (bare or prefixed,
/// `/mozilla.org/…/Europe/Berlin`) is read from tzdata, or with `ZoneSource.file` from the file's VTIMEZONE when it
/// has a usable one; either way a VTIMEZONE that disagrees with tzdata on the dates in use is reported with both
/// offsets. Any other TZID uses the file's VTIMEZONE; without one, Windows IDs and Outlook display names are mapped
/// to IANA (with a warning) and UTC aliases to UTC. A TZID none of these explain is read as floating time, with a
/// warning.
///
/// Not thread-safe (it caches libical zones): one resolver per reader. Its zones are its thread's (`ThreadZones`),
/// so resolvers on different threads share nothing.
final class TimeZoneResolver {
    private var definitions: [String: Component] = [:]
    private var cache: [String: LibicalZone?] = [:]
    /// The last zone asked for: a series asks for its zone at every instance, and comparing the name with the last
    /// one costs less than hashing it.
    private var last: (tzid: String, zone: LibicalZone?)?
    /// The wall-clock times the calendar uses in each zone, found in one pass the first time a VTIMEZONE is compared.
    private var usedWalls: [String: [LocalDateTime]]?
    private let calendar: ICalendar
    private let source: ZoneSource
    private let file: String?
    private(set) var diagnostics: [Diagnostic] = []

    /// `usedWalls`, when given, are `ZoneUsage.walls(in: calendar)` found already.
    init(
        calendar: ICalendar, source: ZoneSource = .preferred, file: String? = nil,
        usedWalls: [String: [LocalDateTime]]? = nil
    ) {
        self.usedWalls = usedWalls
        for zone in calendar.timeZones {
            if let tzid = zone.tzid, definitions[tzid] == nil { definitions[tzid] = zone.component }
        }
        self.calendar = calendar
        self.source = source
        self.file = file
    }

    /// The zone a TZID names; nil means floating time. `line` places the warning, if one is due.
    /// Resolves each TZID the calendar's items name (their start, end, due, RECURRENCE-ID, RDATEs and EXDATEs).
    func resolveEveryUsedZone() {
        for component in calendar.components {
            component.forEachDate { date in
                if case .zoned(let tzid) = date.form { _ = zone(for: tzid.name) }
            }
        }
    }

    func zone(for tzid: String, line: Int = 0) -> LibicalZone? {
        if let last, last.tzid == tzid { return last.zone }
        let zone: LibicalZone?
        if let cached = cache[tzid] {
            zone = cached
        } else {
            zone = resolve(tzid, line: line)
            cache[tzid] = zone
        }
        last = (tzid, zone)
        return zone
    }

    private func resolve(_ tzid: String, line: Int) -> LibicalZone? {
        let trimmed = tzid.trimmingCharacters(in: .whitespaces)
        let tzdataName = Self.tzdataName(trimmed)
        if let definition = definitions[tzid], let fileZone = usableZone(definition, tzid: tzid, line: line) {
            guard let tzdataName, let tzdata = ThreadZones.tzdata(tzdataName) else { return fileZone }
            compare(fileZone, with: tzdata, tzid: tzid, line: definition.line)
            return source == .file ? fileZone : tzdata
        }
        if trimmed.isEmpty {
            warn(line, "empty TZID; the time is read as floating (local wherever it is shown)", code: "empty-tzid")
            return nil
        }
        if let name = Self.ianaName(for: tzid) {
            if name.note != nil || name.iana != tzid {
                if let note = name.note {
                    warn(line, "TZID \"\(tzid)\" is \(note); read as \(name.iana)", code: "tzid-mapped")
                }
            }
            return ThreadZones.tzdata(name.iana)
        }
        warn(
            line,
            "TZID \"\(tzid)\" names no time zone known here and has no VTIMEZONE; the time is read as "
                + "floating (local wherever it is shown)", code: "tzid-unknown")
        return nil
    }

    /// Where a TZID that is no IANA name (bare or prefixed) has a VTIMEZONE in the calendar the reader can use, which
    /// it then reads times by: whether that zone gives tzdata's `iana` offsets at every wall-clock time the calendar
    /// uses in it (true when the reader reads it from tzdata anyway). What `normalizingTimeZones` asks before it
    /// renames a Windows or Outlook name to the IANA zone.
    static func fileZone(of tzid: String, in calendar: ICalendar, agreesWith iana: String) -> Bool {
        guard tzdataName(tzid.trimmingCharacters(in: .whitespaces)) == nil,
            let definition = calendar.timeZones.first(where: { $0.tzid == tzid })?.component,
            implausibleObservance(definition) == nil, let fileZone = zone(definedBy: definition),
            let tzdata = ThreadZones.tzdata(iana)
        else { return true }
        return ZoneUsage.walls(for: tzid, in: calendar).allSatisfy {
            fileZone.utcSeconds(of: $0) == tzdata.utcSeconds(of: $0)
        }
    }

    /// The zone a VTIMEZONE describes, unsigned offsets read as positive; nil (with a warning) when it cannot
    /// describe a real zone or libical rejects it.
    private func usableZone(_ definition: Component, tzid: String, line: Int) -> LibicalZone? {
        if let problem = Self.implausibleObservance(definition) {
            warn(
                line, "the VTIMEZONE for TZID \"\(tzid)\" is not used: \(problem); trying the name",
                code: "vtimezone-unusable")
            return nil
        }
        if let zone = Self.zone(definedBy: definition) { return zone }
        warn(
            line, "the VTIMEZONE for TZID \"\(tzid)\" cannot be used (libical rejects it); trying the name",
            code: "vtimezone-unusable")
        return nil
    }

    /// Whether a TZID names a tzdata zone (as it is, or with a vendor's prefix), spaces around it aside.
    static func namesTzdataZone(_ tzid: String) -> Bool {
        tzdataName(tzid.trimmingCharacters(in: .whitespaces)) != nil
    }

    /// Whether the calendar has a VTIMEZONE under a tzdata zone's name: reading a time in it compares the two
    /// (`compare`), at the times `ZoneUsage.walls(in:)` finds.
    static func comparesZones(in calendar: ICalendar) -> Bool {
        calendar.timeZones.contains { $0.tzid.map(namesTzdataZone) ?? false }
    }

    /// The tzdata name a TZID (trimmed) is, bare or behind a prefix (`/mozilla.org/…/Europe/Berlin`); nil for any
    /// other TZID.
    private static func tzdataName(_ trimmed: String) -> String? {
        LibicalZone.builtin(trimmed) != nil
            ? trimmed : WindowsZones.unprefixed(trimmed, isKnown: { LibicalZone.builtin($0) != nil })
    }

    /// This thread's zone of a VTIMEZONE, unsigned offsets read as positive; nil when libical rejects it.
    private static func zone(definedBy definition: Component) -> LibicalZone? {
        var writer = ICSWriter()
        writer.write(signingOffsets(definition))
        return ThreadZones.defined(by: String(decoding: writer.bytes, as: UTF8.self))
    }

    /// Compares the file's zone with tzdata's at the wall-clock times the calendar uses in it; one warning, with
    /// both offsets at the first date they differ, saying which is used.
    private func compare(_ fileZone: LibicalZone, with tzdata: LibicalZone, tzid: String, line: Int) {
        var first: (wall: LocalDateTime, file: Int, tzdata: Int)?
        var differing = 0
        if usedWalls == nil { usedWalls = ZoneUsage.walls(in: calendar) }
        let walls = usedWalls?[tzid] ?? []
        for wall in walls {
            let fileOffset = Int(wall.wallSeconds - fileZone.utcSeconds(of: wall))
            let tzdataOffset = Int(wall.wallSeconds - tzdata.utcSeconds(of: wall))
            guard fileOffset != tzdataOffset else { continue }
            differing += 1
            if first == nil { first = (wall, fileOffset, tzdataOffset) }
        }
        guard let first else { return }
        let when = first.wall.minuteText
        let used =
            source == .file
            ? "the file's is used (--zones tzdata uses tzdata)"
            : "tzdata is used, as python icalendar and Google do (--zones file uses the file's)"
        warn(
            line,
            "the VTIMEZONE for TZID \"\(tzid)\" disagrees with tzdata: \(when) is UTC\(Self.offsetText(first.file)) "
                + "in the file, UTC\(Self.offsetText(first.tzdata)) in tzdata (\(differing) of \(walls.count) times "
                + "compared differ); \(used)", code: "vtimezone-differs")
    }

    /// `+01:00`, `-05:00`, `+02:30:17`.
    static func offsetText(_ seconds: Int) -> String {
        let magnitude = abs(seconds)
        let (hours, minutes, rest) = (magnitude / 3600, magnitude / 60 % 60, magnitude % 60)
        var text = (seconds < 0 ? "-" : "+") + String(format: "%02d:%02d", hours, minutes)
        if rest != 0 { text += String(format: ":%02d", rest) }
        return text
    }

    /// The VTIMEZONE with unsigned TZOFFSETFROM/TZOFFSETTO values (`0100`, as Apple iCal 1.5 wrote) read as
    /// positive, which is what their authors meant; the reader has warned about each.
    static func signingOffsets(_ definition: Component) -> Component {
        var copy = definition
        for index in copy.components.indices {
            for property in copy.components[index].properties.indices {
                let value = copy.components[index].properties[property].value
                if ["TZOFFSETFROM", "TZOFFSETTO"].contains(copy.components[index].properties[property].name),
                    ValueSyntax.isUnsignedUTCOffset(value)
                {
                    copy.components[index].properties[property].value = "+" + value
                }
            }
        }
        return copy
    }

    /// Why a VTIMEZONE cannot describe a real zone, if it cannot: no observance, none with an onset, or one that
    /// repeats more often than yearly or at several times of its day. Zones change their offsets a few times a year; libical expands
    /// every change from the observance's start on, so `FREQ=HOURLY` from 1601 would cost millions of steps.
    static func implausibleObservance(_ definition: Component) -> String? {
        let observances = definition.components.filter { ["STANDARD", "DAYLIGHT"].contains($0.name) }
        if observances.isEmpty { return "it has no STANDARD or DAYLIGHT" }
        if !observances.contains(where: { $0.property("DTSTART") != nil }) {
            return "none of its observances has a DTSTART (the onset of its offsets)"
        }
        for observance in observances {
            if observance.property("TZOFFSETTO") == nil {
                return "its \(observance.name) has no TZOFFSETTO (the offset it changes to)"
            }
            for rule in observance.properties(named: "RRULE") {
                let parts = rule.value.uppercased().split(separator: ";").map { $0.split(separator: "=", maxSplits: 1) }
                for part in parts where part.count == 2 {
                    let (key, value) = (part[0], part[1])
                    if key == "FREQ", value != "YEARLY" {
                        return "its \(observance.name) repeats FREQ=\(value), but offsets change yearly"
                    }
                    if ["BYHOUR", "BYMINUTE", "BYSECOND"].contains(key), value.contains(",") {
                        return "its \(observance.name) changes at several times of day (\(key)=\(value))"
                    }
                }
            }
        }
        return nil
    }

    private func warn(_ line: Int, _ message: String, code: String) {
        var diagnostic = Diagnostic(.warning, file: file, line: line, message, code: code)
        diagnostic.isAboutZones = true
        diagnostics.append(diagnostic)
    }

    /// The IANA zone a TZID names without help from the file, and what kind of name it was when not IANA.
    static func ianaName(for tzid: String) -> (iana: String, note: String?)? {
        let trimmed = tzid.trimmingCharacters(in: .whitespaces)
        if LibicalZone.builtin(trimmed) != nil { return (trimmed, nil) }
        if ["utc", "gmt", "z", "etc/utc", "etc/gmt", "universal", "zulu"].contains(trimmed.lowercased()) {
            return ("UTC", nil)
        }
        if let bare = WindowsZones.unprefixed(trimmed, isKnown: { LibicalZone.builtin($0) != nil }) {
            return (bare, nil)
        }
        if let iana = WindowsZones.iana(windowsID: trimmed) { return (iana, "a Windows time-zone name") }
        if let iana = WindowsZones.iana(
            displayName: trimmed, knownZones: Self.zonesByCity,
            standardOffset: Self.standardOffset)
        {
            return (iana, "an Outlook time-zone display name")
        }
        return nil
    }

    /// tzdata zones by their city, lower-cased, spaces for underscores (`new york` → America/New_York).
    static let zonesByCity: [String: [String]] = {
        var map: [String: [String]] = [:]
        for name in LibicalZone.builtinNames {
            guard let city = name.split(separator: "/").last else { continue }
            map[city.replacingOccurrences(of: "_", with: " ").lowercased(), default: []].append(name)
        }
        return map
    }()

    /// This year, worked out once (a Foundation calendar per lookup is costly).
    static let currentYear = LocalDateTime(wallSeconds: Int64(Date().timeIntervalSince1970)).year

    /// A zone's standard (winter) offset this year: the smaller of its January and July offsets.
    static func standardOffset(_ name: String) -> Int? {
        guard let zone = LibicalZone.builtin(name) else { return nil }
        let year = currentYear
        let january = LocalDateTime(year: year, month: 1, day: 15).wallSeconds
        let july = LocalDateTime(year: year, month: 7, day: 15).wallSeconds
        return min(zone.offset(atUTC: january), zone.offset(atUTC: july))
    }
}

/// libical zones kept for the thread's life, by tzdata name or by VTIMEZONE text. A file of many VCALENDARs (an
/// iTIP stream, a CalDAV collection in one file) resolves the same zones once per VCALENDAR, and every fresh libical
/// zone expands its rules from their start again on first use (2–3 ms each: a file of 5,000 calendars took 12 s to
/// import); a reused zone keeps what it expanded. Per thread, as libical zones are not thread-safe (a resolver, which
/// is not `Sendable`, stays on the thread that made it); at most 64 of each kind, then forgotten together.
final class ThreadZones {
    private var named: [String: LibicalZone?] = [:]
    private var defined: [String: LibicalZone?] = [:]

    private static var current: ThreadZones {
        let dictionary = Thread.current.threadDictionary
        if let zones = dictionary["icskit.threadZones"] as? ThreadZones { return zones }
        let zones = ThreadZones()
        dictionary["icskit.threadZones"] = zones
        return zones
    }

    /// tzdata's zone for an IANA name (`LibicalZone.privateCopy`).
    static func tzdata(_ name: String) -> LibicalZone? { kept(name, in: \.named, LibicalZone.privateCopy) }

    /// The zone a VTIMEZONE's text describes (`LibicalZone.fromVTIMEZONE`).
    static func defined(by text: String) -> LibicalZone? { kept(text, in: \.defined, LibicalZone.fromVTIMEZONE) }

    private static func kept(
        _ key: String, in table: ReferenceWritableKeyPath<ThreadZones, [String: LibicalZone?]>,
        _ make: (String) -> LibicalZone?
    ) -> LibicalZone? {
        let zones = current
        if let known = zones[keyPath: table][key] { return known }
        if zones[keyPath: table].count >= 64 { zones[keyPath: table].removeAll() }
        let zone = make(key)
        zones[keyPath: table][key] = .some(zone)
        return zone
    }
}
