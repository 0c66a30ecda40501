/// A DURATION value (RFC 5545 §3.3.6): `-P1W`, `P1DT2H`, `PT15M`.
///
/// ```
/// dur-value  = (["+"] / "-") "P" (dur-date / dur-time / dur-week)
/// dur-date   = dur-day [dur-time]
/// dur-time   = "T" (dur-hour / dur-minute / dur-second)
/// dur-week   = 1*DIGIT "W"
/// dur-hour   = 1*DIGIT "H" [dur-minute]
/// dur-minute = 1*DIGIT "M" [dur-second]
/// dur-second = 1*DIGIT "S"
/// dur-day    = 1*DIGIT "D"
/// ```
public struct CalendarDuration: Sendable, Hashable, CustomStringConvertible, Codable {
    /// A duration before (a TRIGGER of `-PT15M`).
    public var isNegative: Bool
    /// Whole weeks (a week form has nothing else).
    public var weeks: Int
    /// Days.
    public var days: Int
    /// Hours.
    public var hours: Int
    /// Minutes.
    public var minutes: Int
    /// Seconds.
    public var seconds: Int

    /// A duration from its parts.
    public init(
        isNegative: Bool = false, weeks: Int = 0, days: Int = 0, hours: Int = 0, minutes: Int = 0,
        seconds: Int = 0
    ) {
        self.isNegative = isNegative
        (self.weeks, self.days, self.hours, self.minutes, self.seconds) = (weeks, days, hours, minutes, seconds)
    }

    /// Nominal length in seconds (a day counted as 86,400 s; the time layer handles DST-aware days).
    public var totalSeconds: Int {
        let magnitude = ((weeks * 7 + days) * 24 + hours) * 3600 + minutes * 60 + seconds
        return isNegative ? -magnitude : magnitude
    }

    /// As iCalendar writes it: `P1W`, `-PT15M`, `P1DT2H`. RFC 5545 gives a duration one sign, in front: parts given
    /// with their own sign (`CalendarDuration(minutes: -10)`, `CalendarDuration(hours: 1, minutes: -10)`) are written as the length
    /// they add up to (`-PT10M`, `PT50M`), never as `PT-10M`, which no reader takes.
    public var icsValue: String {
        let parts = [weeks, days, hours, minutes, seconds]
        guard parts.contains(where: { $0 < 0 }) else { return Self.text(isNegative, parts) }
        let total = totalSeconds
        let magnitude = total.magnitude
        let time = [magnitude / 86_400, magnitude % 86_400 / 3600, magnitude % 3600 / 60, magnitude % 60].map {
            Int($0)
        }
        return Self.text(total < 0, [0] + time)
    }

    /// `P`, the sign and the parts (weeks, days, hours, minutes, seconds), none of them negative.
    private static func text(_ isNegative: Bool, _ parts: [Int]) -> String {
        let (weeks, days, hours, minutes, seconds) = (parts[0], parts[1], parts[2], parts[3], parts[4])
        var text = isNegative ? "-P" : "P"
        if weeks != 0 { text += "\(weeks)W" }
        if days != 0 { text += "\(days)D" }
        if hours != 0 || minutes != 0 || seconds != 0 {
            text += "T"
            if hours != 0 { text += "\(hours)H" }
            if minutes != 0 { text += "\(minutes)M" }
            if seconds != 0 { text += "\(seconds)S" }
        }
        return text.count == (isNegative ? 2 : 1) ? text + "T0S" : text
    }

    /// The iCalendar value.
    public var description: String { icsValue }

    /// Whether two durations are the same length: `CalendarDuration(minutes: -10)` is `-PT10M` as read, `P1W` is
    /// `P7D`, and `-PT0S` is `PT0S`. Days are nominal (RFC 5545 §3.3.6: a day across a clock change is 23 or 25
    /// hours), so `P1D` is not `PT24H`.
    public static func == (lhs: CalendarDuration, rhs: CalendarDuration) -> Bool {
        lhs.nominalParts == rhs.nominalParts
    }

    /// Hashes the length, as `==` compares it.
    public func hash(into hasher: inout Hasher) {
        let (days, seconds) = nominalParts
        hasher.combine(days)
        hasher.combine(seconds)
    }

    /// The length as written: nominal days (weeks included; RFC 5545 §3.3.6: a day on the clock, 23 or 25 hours
    /// across a change) and exact seconds, signed. Parts of mixed signs are added up as `icsValue` writes them.
    /// Equality compares it; alarm times count from it.
    var nominalParts: (days: Int, seconds: Int) {
        let parts = [weeks, days, hours, minutes, seconds]
        guard !parts.contains(where: { $0 < 0 }) else {
            let total = totalSeconds
            return (total / 86_400, total % 86_400)
        }
        let sign = isNegative ? -1 : 1
        return (sign * (weeks * 7 + days), sign * (hours * 3600 + minutes * 60 + seconds))
    }

    /// An exact length of `seconds` (hours, minutes, seconds; negative for a negative one).
    package init(exactSeconds seconds: Int) {
        self.init(
            isNegative: seconds < 0, hours: abs(seconds) / 3600, minutes: abs(seconds) / 60 % 60,
            seconds: abs(seconds) % 60)
    }

    /// Reads an RFC 5545 duration.
    public static func parse(_ text: String) -> Result<CalendarDuration, ValueError> {
        let shaped = ValueSyntax.withBytes(text) { bytes in
            let body = bytes.drop { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") }
            return body.first == UInt8(ascii: "P") && body.count > 1 && bytes.count - body.count <= 1
        }
        guard shaped, let parts = LibicalValues.duration(text) else {
            return .failure(ValueError("\"\(text)\" is not a DURATION"))
        }
        return .success(
            CalendarDuration(
                isNegative: parts.isNegative, weeks: parts.weeks, days: parts.days,
                hours: parts.hours, minutes: parts.minutes, seconds: parts.seconds))
    }
}
