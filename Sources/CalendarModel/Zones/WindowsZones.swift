import Foundation

/// Time-zone names that are not IANA names but say which zone they mean: Windows IDs (`W. Europe Standard Time`,
/// CLDR's mapping), Outlook display names (`(UTC+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna`), and
/// prefixed names (`/mozilla.org/20070129_1/Europe/Berlin`).
enum WindowsZones {
    /// Windows ID (lower-cased) → IANA name.
    static let byWindowsID: [String: String] = {
        var map: [String: String] = [:]
        for line in table.split(separator: "\n") {
            let columns = line.split(separator: "\t")
            if columns.count == 2 { map[columns[0].lowercased()] = String(columns[1]) }
        }
        return map
    }()

    /// Outlook display names that name no city, and the Windows ID they stand for.
    static let displayNamesWithoutCity: [String: String] = [
        "eastern time (us & canada)": "Eastern Standard Time", "central time (us & canada)": "Central Standard Time",
        "mountain time (us & canada)": "Mountain Standard Time", "pacific time (us & canada)": "Pacific Standard Time",
        "atlantic time (canada)": "Atlantic Standard Time", "alaska": "Alaskan Standard Time",
        "hawaii": "Hawaiian Standard Time", "arizona": "US Mountain Standard Time",
        "indiana (east)": "US Eastern Standard Time", "saskatchewan": "Canada Central Standard Time",
        "coordinated universal time": "UTC", "brasilia": "E. South America Standard Time",
        "mid-atlantic": "UTC-02", "international date line west": "Dateline Standard Time",
    ]

    /// The IANA zone a Windows ID names.
    static func iana(windowsID: String) -> String? { byWindowsID[windowsID.lowercased()] }

    /// The IANA zone an Outlook display name names: the first listed city that is a tzdata location whose
    /// standard offset is the one the name states, or the Windows zone of a display name without a city.
    static func iana(
        displayName: String, knownZones: [String: [String]],
        standardOffset: (String) -> Int?
    ) -> String? {
        // Quotes that travelled into the value, and runs of spaces, are not part of the name.
        var text = Substring(
            displayName.trimmingCharacters(in: CharacterSet.whitespaces.union(CharacterSet(charactersIn: "\"")))
                .split(separator: " ", omittingEmptySubsequences: true).joined(separator: " "))
        var stated: Int?
        if text.hasPrefix("("), let close = text.firstIndex(of: ")") {
            stated = offsetSeconds(text[text.index(after: text.startIndex)..<close])
            text = text[text.index(after: close)...]
        }
        let places = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        if let windows = displayNamesWithoutCity[Self.spelling(places.joined(separator: ", "))] {
            return iana(windowsID: windows)
        }
        // Prefer a city CLDR uses for a Windows zone ("Amsterdam, Berlin, …" is W. Europe: Europe/Berlin).
        let candidates = places.flatMap { knownZones[$0.lowercased()] ?? [] }.filter { zone in
            guard let stated, let offset = standardOffset(zone) else { return true }
            return offset == stated
        }
        return candidates.first(where: primaryZones.contains) ?? candidates.first
    }

    /// A display name as the table spells it: lower case, `&` where some Outlook versions write `and`
    /// ("Eastern Time (US and Canada)").
    static func spelling(_ name: String) -> String {
        name.lowercased().replacingOccurrences(of: " and ", with: " & ")
    }

    /// The IANA zones CLDR maps Windows zones to.
    static let primaryZones = Set(byWindowsID.values)

    /// `UTC+01:00`, `GMT-05:30`, `UTC` → seconds east of UTC.
    static func offsetSeconds(_ text: Substring) -> Int? {
        var rest = text
        guard rest.hasPrefix("UTC") || rest.hasPrefix("GMT") else { return nil }
        rest = rest.dropFirst(3)
        if rest.isEmpty { return 0 }
        guard let sign = rest.first, sign == "+" || sign == "-" else { return nil }
        let parts = rest.dropFirst().split(separator: ":")
        guard let hours = parts.first.flatMap({ Int($0) }) else { return nil }
        let minutes = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        return (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
    }

    /// `/mozilla.org/20070129_1/Europe/Berlin` → the shortest trailing part that is a known zone.
    static func unprefixed(_ tzid: String, isKnown: (String) -> Bool) -> String? {
        guard tzid.contains("/") else { return nil }
        let parts = tzid.split(separator: "/")
        for start in 1..<max(1, parts.count) {
            let candidate = parts[start...].joined(separator: "/")
            if isKnown(candidate) { return candidate }
        }
        return nil
    }
}
