internal import CLibical

/// Value grammar through libical: date-times, durations, recurrence rules, geo and the generic value kinds.
///
/// libical is lenient where it should not be (`2006717T080000Z` reads as month 71, `INTEGER:x` as 0), so callers
/// check the literal form first (see `ValueSyntax`) and ask libical for the parse itself.
enum LibicalValues {
    struct Time {
        var year, month, day, hour, minute, second: Int
        var isDate: Bool
        var isUTC: Bool
    }

    struct DurationParts {
        var isNegative: Bool
        var weeks, days, hours, minutes, seconds: Int
    }

    /// Parses `YYYYMMDD`, `YYYYMMDDTHHMMSS` or `…Z`.
    static func time(_ text: String) -> Time? {
        let value = icaltime_from_string(text)
        if icaltime_is_null_time(value) != 0 { return nil }
        return Time(
            year: Int(value.year), month: Int(value.month), day: Int(value.day), hour: Int(value.hour),
            minute: Int(value.minute), second: Int(value.second), isDate: value.is_date != 0,
            isUTC: icaltime_is_utc(value) != 0)
    }

    static func duration(_ text: String) -> DurationParts? {
        let value = icaldurationtype_from_string(text)
        if icaldurationtype_is_bad_duration(value) != 0 { return nil }
        return DurationParts(
            isNegative: value.is_neg != 0, weeks: Int(value.weeks), days: Int(value.days),
            hours: Int(value.hours), minutes: Int(value.minutes), seconds: Int(value.seconds))
    }

    /// Whether libical accepts the text as a value of the named kind (`RECUR`, `GEO`, `PERIOD`, …).
    static func accepts(kind: String, _ text: String) -> Bool {
        let valueKind = icalvalue_string_to_kind(kind)
        if valueKind == ICAL_NO_VALUE { return true }
        guard let value = icalvalue_new_from_string(valueKind, text) else { return false }
        icalvalue_free(value)
        return true
    }

    static func geo(_ text: String) -> (latitude: Double, longitude: Double)? {
        guard let value = icalvalue_new_from_string(ICAL_GEO_VALUE, text) else { return nil }
        defer { icalvalue_free(value) }
        let geo = icalvalue_get_geo(value)
        return (geo.lat, geo.lon)
    }

    /// Whether libical knows the name as a built-in (tzdata) zone. Looks the name up (a search through libical's
    /// table of some 400 names, remembered per name); loads no zone data.
    static func isBuiltinZone(_ name: String) -> Bool {
        builtinNames.value(for: name) { icaltimezone_get_builtin_timezone(name) != nil }
    }

    private static let builtinNames = Remembered<String, Bool>(limit: 1024)
}
