import Foundation

/// Dates, times and lengths as a person types them on a command line: `2026-11-24`, `2026-11-24 09:30`,
/// `2026-11-24T09:30`, `tomorrow 09:30`, `friday`; `90m`, `1h30m`, `2d`, `-15m`.
public enum TypedInput {
    /// A day, or a day and a time in `zone` (UTC times are written with Z): a date (`2026-11-24`), a date and time
    /// (`2026-11-24 09:30` or `2026-11-24T09:30`), or a named day with an optional time (`tomorrow 09:30`).
    public static func date(_ text: String, in zone: ZoneClock, today: LocalDateTime) -> Result<
        CalendarDate, ValueError
    > {
        let unreadable = ValueError("cannot read the time \(text)")
        let parts = text.lowercased().split(separator: " ").map(String.init)
        var day: LocalDateTime
        var time: String?
        if let named = parts.first.flatMap({ LocalDateTime.namedDay($0, today: today) }) {
            day = named
        } else {
            let pieces = (parts.first ?? "").split(separator: "t").map(String.init)
            guard let first = pieces.first,
                let date = try? CalendarDate.parse(first.replacingOccurrences(of: "-", with: ""), tzid: nil).get(),
                date.isDate
            else { return .failure(unreadable) }
            day = LocalDateTime(date)
            time = pieces.count > 1 ? pieces[1] : nil
        }
        if parts.count > 1 { time = parts[1] }
        guard let time else { return .success(CalendarDate(year: day.year, month: day.month, day: day.day)) }
        let clock = time.split(separator: ":").compactMap { Int($0) }
        guard clock.count >= 2, (0...23).contains(clock[0]), (0...59).contains(clock[1]) else {
            return .failure(unreadable)
        }
        return .success(
            CalendarDate(
                year: day.year, month: day.month, day: day.day, hour: clock[0], minute: clock[1], second: 0,
                form: zone.identifier == "UTC" ? .utc : .zoned(tzid: zone.identifier)))
    }

    /// A length: numbers with units `w`, `d`, `h`, `m`, `s` (`90m`, `1h30m`, `2d`), signed (`-15m`, a reminder
    /// before); zero is no length.
    public static func duration(_ text: String) -> Result<Duration, ValueError> {
        let unreadable = ValueError("\"\(text)\" is not a duration")
        var rest = Substring(text.lowercased())
        let negative = rest.hasPrefix("-")
        if negative || rest.hasPrefix("+") { rest = rest.dropFirst() }
        var result = Duration(isNegative: negative)
        var number = ""
        var sawUnit = false
        for character in rest {
            if character.isNumber {
                number.append(character)
                continue
            }
            guard let value = Int(number) else { return .failure(unreadable) }
            switch character {
            case "w": result.weeks += value
            case "d": result.days += value
            case "h": result.hours += value
            case "m": result.minutes += value
            case "s": result.seconds += value
            default: return .failure(unreadable)
            }
            number = ""
            sawUnit = true
        }
        guard sawUnit, number.isEmpty, result.totalSeconds != 0 else { return .failure(unreadable) }
        return .success(result)
    }
}

extension LocalDateTime {
    /// Midnight of the same day.
    public var startOfDay: LocalDateTime { LocalDateTime(year: year, month: month, day: day) }

    /// `today`, `tomorrow`, `yesterday`, or a weekday (`monday`, `mon`): that day when it is today, else the next
    /// one, as GNU date reads it. Nil for anything else.
    public static func namedDay(_ word: String, today: LocalDateTime) -> LocalDateTime? {
        switch word.lowercased() {
        case "today": return today
        case "tomorrow": return today.adding(days: 1)
        case "yesterday": return today.adding(days: -1)
        default:
            let names = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
            let lowered = word.lowercased()
            guard lowered.count >= 3, let index = names.firstIndex(where: { $0.hasPrefix(lowered) }) else {
                return nil
            }
            return today.adding(days: (index + 1 - today.isoWeekday + 7) % 7)
        }
    }
}
