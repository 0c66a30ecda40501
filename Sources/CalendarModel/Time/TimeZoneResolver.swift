import Foundation

/// Turns the TZIDs of one calendar into zones: a VTIMEZONE in the file wins; then tzdata names, prefixed names
/// (`/mozilla.org/…/Europe/Berlin`), Windows IDs and Outlook display names (mapped to IANA, with a warning),
/// UTC aliases. A TZID none of these explain is read as floating time, with a warning.
///
/// Not thread-safe (it caches libical zones): one resolver per reader. Its zones are its own (`privateCopy`), so
/// resolvers on different threads share nothing.
final class TimeZoneResolver {
    private var definitions: [String: Component] = [:]
    private var cache: [String: LibicalZone?] = [:]
    private let file: String?
    private(set) var diagnostics: [Diagnostic] = []

    init(calendar: ICalendar, file: String? = nil) {
        for zone in calendar.timeZones {
            if let tzid = zone.tzid, definitions[tzid] == nil { definitions[tzid] = zone.component }
        }
        self.file = file
    }

    /// The zone a TZID names; nil means floating time. `line` places the warning, if one is due.
    func zone(for tzid: String, line: Int = 0) -> LibicalZone? {
        if let cached = cache[tzid] { return cached }
        let zone = resolve(tzid, line: line)
        cache[tzid] = zone
        return zone
    }

    private func resolve(_ tzid: String, line: Int) -> LibicalZone? {
        if let definition = definitions[tzid], let problem = Self.implausibleObservance(definition) {
            warn(line, "the VTIMEZONE for TZID \"\(tzid)\" is not used: \(problem); trying the name")
        } else if let definition = definitions[tzid] {
            var writer = ICSWriter()
            writer.write(definition)
            if let zone = LibicalZone.fromVTIMEZONE(String(decoding: writer.bytes, as: UTF8.self)) { return zone }
            warn(line, "the VTIMEZONE for TZID \"\(tzid)\" cannot be used (libical rejects it); trying the name")
        }
        if tzid.trimmingCharacters(in: .whitespaces).isEmpty {
            warn(line, "empty TZID; the time is read as floating (local wherever it is shown)")
            return nil
        }
        if let name = Self.ianaName(for: tzid) {
            if name.note != nil || name.iana != tzid {
                if let note = name.note { warn(line, "TZID \"\(tzid)\" is \(note); read as \(name.iana)") }
            }
            return LibicalZone.privateCopy(name.iana)
        }
        warn(
            line,
            "TZID \"\(tzid)\" names no time zone known here and has no VTIMEZONE; the time is read as "
                + "floating (local wherever it is shown)")
        return nil
    }

    /// Why a VTIMEZONE cannot describe a real zone, if it cannot: an observance that repeats more often than
    /// yearly, or at several times of its day. Zones change their offsets a few times a year; libical expands
    /// every change from the observance's start on, so `FREQ=HOURLY` from 1601 would cost millions of steps.
    static func implausibleObservance(_ definition: Component) -> String? {
        for observance in definition.components where ["STANDARD", "DAYLIGHT"].contains(observance.name) {
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

    private func warn(_ line: Int, _ message: String) {
        diagnostics.append(Diagnostic(.warning, file: file, line: line, message))
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
    private static let currentYear = LocalDateTime(wallSeconds: Int64(Date().timeIntervalSince1970)).year

    /// A zone's standard (winter) offset this year: the smaller of its January and July offsets.
    static func standardOffset(_ name: String) -> Int? {
        guard let zone = LibicalZone.builtin(name) else { return nil }
        let year = currentYear
        let january = LocalDateTime(year: year, month: 1, day: 15).wallSeconds
        let july = LocalDateTime(year: year, month: 7, day: 15).wallSeconds
        return min(zone.offset(atUTC: january), zone.offset(atUTC: july))
    }
}
