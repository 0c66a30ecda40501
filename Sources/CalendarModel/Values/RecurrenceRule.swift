import Foundation

/// A typed RRULE (RFC 5545 §3.3.10) that writes back with its parts in the order they were read.
///
/// ```
/// recur           = recur-rule-part *( ";" recur-rule-part )
/// recur-rule-part = ( "FREQ" "=" freq ) / ( "UNTIL" "=" enddate ) / ( "COUNT" "=" 1*DIGIT )
///                 / ( "INTERVAL" "=" 1*DIGIT ) / ( "BYSECOND" "=" byseclist ) / ( "BYMINUTE" "=" byminlist )
///                 / ( "BYHOUR" "=" byhrlist ) / ( "BYDAY" "=" bywdaylist ) / ( "BYMONTHDAY" "=" bymodaylist )
///                 / ( "BYYEARDAY" "=" byyrdaylist ) / ( "BYWEEKNO" "=" bywknolist )
///                 / ( "BYMONTH" "=" bymolist ) / ( "BYSETPOS" "=" bysplist ) / ( "WKST" "=" weekday )
/// freq            = "SECONDLY" / "MINUTELY" / "HOURLY" / "DAILY" / "WEEKLY" / "MONTHLY" / "YEARLY"
/// ```
public struct RecurrenceRule: Sendable, Hashable, CustomStringConvertible {
    /// FREQ.
    public enum Frequency: String, Sendable, Hashable, CaseIterable {
        /// Every INTERVAL seconds.
        case secondly = "SECONDLY"
        /// Every INTERVAL minutes.
        case minutely = "MINUTELY"
        /// Every INTERVAL hours.
        case hourly = "HOURLY"
        /// Every INTERVAL days.
        case daily = "DAILY"
        /// Every INTERVAL weeks.
        case weekly = "WEEKLY"
        /// Every INTERVAL months.
        case monthly = "MONTHLY"
        /// Every INTERVAL years.
        case yearly = "YEARLY"
    }

    /// A BYDAY entry: a weekday, optionally the nth (`2MO`) or nth-from-last (`-1FR`) in the period.
    public struct WeekdayOccurrence: Sendable, Hashable {
        /// The nth such weekday of the month or year (negative: from the end); nil for every one.
        public var ordinal: Int?
        /// The weekday.
        public var weekday: Weekday

        /// Every such weekday, or the nth.
        public init(_ weekday: Weekday, ordinal: Int? = nil) {
            self.weekday = weekday
            self.ordinal = ordinal
        }

        var icsValue: String { (ordinal.map(String.init) ?? "") + weekday.rawValue }
    }

    /// FREQ.
    public var frequency: Frequency
    /// INTERVAL (1 when absent).
    public var interval: Int?
    /// COUNT: how many instances, DTSTART included.
    public var count: Int?
    /// UNTIL: the last possible instance.
    public var until: CalendarDate?
    /// BYSECOND.
    public var bySecond: [Int] = []
    /// BYMINUTE.
    public var byMinute: [Int] = []
    /// BYHOUR.
    public var byHour: [Int] = []
    /// BYDAY.
    public var byDay: [WeekdayOccurrence] = []
    /// BYMONTHDAY (negative: from the end of the month).
    public var byMonthDay: [Int] = []
    /// BYYEARDAY (negative: from the end of the year).
    public var byYearDay: [Int] = []
    /// BYWEEKNO (ISO weeks as WKST defines them).
    public var byWeekNo: [Int] = []
    /// BYMONTH.
    public var byMonth: [Int] = []
    /// BYSETPOS: which of each period's candidates to keep.
    public var bySetPos: [Int] = []
    /// WKST (Monday when absent).
    public var weekStart: Weekday?
    /// Parts ICSKit does not type (RSCALE, SKIP, X-…, leap months), kept as written.
    public var otherParts: [(name: String, value: String)] {
        get { other.map { ($0.name, $0.value) } }
        set { other = newValue.map { RawPart(name: $0.name.uppercased(), value: $0.value) } }
    }

    /// Whether the rule has parts ICSKit does not type (cheaper than building `otherParts`).
    var hasOtherParts: Bool { !other.isEmpty }

    private struct RawPart: Sendable, Hashable {
        var name: String
        var value: String
    }

    private var other: [RawPart] = []
    /// Part names in the order they were read; parts set later go after them in RFC order.
    private var order: [String] = []

    private static let canonicalOrder = [
        "FREQ", "UNTIL", "COUNT", "INTERVAL", "BYSECOND", "BYMINUTE", "BYHOUR",
        "BYDAY", "BYMONTHDAY", "BYYEARDAY", "BYWEEKNO", "BYMONTH", "BYSETPOS",
        "WKST",
    ]

    /// A rule of this frequency and nothing else.
    public init(frequency: Frequency) { self.frequency = frequency }

    /// The rule as written.
    public var description: String { icsValue }

    /// The rule as an RRULE value.
    public var icsValue: String {
        let present = Set(order)
        let names =
            order + Self.canonicalOrder.filter { !present.contains($0) }
            + other.map(\.name).filter { !present.contains($0) }
        return names.compactMap { name in partValue(name).map { "\(name)=\($0)" } }.joined(separator: ";")
    }

    private func partValue(_ name: String) -> String? {
        func list(_ values: [Int]) -> String? { values.isEmpty ? nil : values.map(String.init).joined(separator: ",") }
        switch name {
        case "FREQ": return frequency.rawValue
        case "UNTIL": return until?.icsValue
        case "COUNT": return count.map(String.init)
        case "INTERVAL": return interval.map(String.init)
        case "BYSECOND": return list(bySecond)
        case "BYMINUTE": return list(byMinute)
        case "BYHOUR": return list(byHour)
        case "BYDAY": return byDay.isEmpty ? nil : byDay.map(\.icsValue).joined(separator: ",")
        case "BYMONTHDAY": return list(byMonthDay)
        case "BYYEARDAY": return list(byYearDay)
        case "BYWEEKNO": return list(byWeekNo)
        case "BYMONTH": return list(byMonth)
        case "BYSETPOS": return list(bySetPos)
        case "WKST": return weekStart?.rawValue
        default: return other.first { $0.name == name }?.value
        }
    }

    /// Rules are equal when they recur the same way; the order their parts were written in does not count.
    public static func == (lhs: RecurrenceRule, rhs: RecurrenceRule) -> Bool {
        lhs.frequency == rhs.frequency && lhs.interval == rhs.interval && lhs.count == rhs.count
            && lhs.until == rhs.until && lhs.bySecond == rhs.bySecond && lhs.byMinute == rhs.byMinute
            && lhs.byHour == rhs.byHour && lhs.byDay == rhs.byDay && lhs.byMonthDay == rhs.byMonthDay
            && lhs.byYearDay == rhs.byYearDay && lhs.byWeekNo == rhs.byWeekNo && lhs.byMonth == rhs.byMonth
            && lhs.bySetPos == rhs.bySetPos && lhs.weekStart == rhs.weekStart && lhs.other == rhs.other
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(frequency)
        hasher.combine(interval)
        hasher.combine(count)
        hasher.combine(until)
        hasher.combine(byDay)
        hasher.combine(byMonth)
        hasher.combine(byMonthDay)
    }

    /// Reads an RRULE value. libical checks the grammar; ICSKit checks what libical lets through (UNTIL dates).
    /// The same few rules come back thousands of times (every VTIMEZONE copy a CalDAV resource carries has two), so
    /// results are remembered by their text (`parsed`).
    public static func parse(_ text: String) -> Result<RecurrenceRule, ValueError> {
        parsed.value(for: text) { parseAnew(text) }
    }

    /// The RRULE values read so far and what they read as, by text: a result depends on nothing but the text.
    static let parsed = Remembered<String, Result<RecurrenceRule, ValueError>>(limit: 4096)

    private static func parseAnew(_ text: String) -> Result<RecurrenceRule, ValueError> {
        func failure(_ why: String) -> Result<RecurrenceRule, ValueError> {
            .failure(ValueError("\"\(text)\" is not a valid RRULE: \(why)"))
        }
        var parts: [(String, String)] = []
        for part in ValueSyntax.split(text, on: ";") where !part.isEmpty {
            guard let equals = part.utf8.firstIndex(of: UInt8(ascii: "=")) else {
                return failure("part \"\(part)\" has no '='")
            }
            parts.append((String(part[..<equals]).uppercased(), String(part[part.utf8.index(after: equals)...])))
        }
        guard let freqText = parts.first(where: { $0.0 == "FREQ" })?.1,
            let frequency = Frequency(rawValue: freqText.uppercased())
        else {
            return failure("FREQ is missing or unknown")
        }
        guard LibicalValues.accepts(kind: "RECUR", text) else { return failure("libical rejects it") }
        var rule = RecurrenceRule(frequency: frequency)
        for (name, value) in parts {
            guard !rule.order.contains(name) else { return failure("\(name) appears twice") }
            rule.order.append(name)
            if let problem = rule.set(name, value) { return failure(problem) }
        }
        if rule.count != nil, rule.until != nil { return failure("COUNT and UNTIL together") }
        if let problem = rule.valueOutOfRange { return failure(problem) }
        return .success(rule)
    }

    /// What can be made of a rule that does not parse as written: a repeated `RRULE:` prefix
    /// (`RRULE:RRULE:…;FREQ=WEEKLY`) and parts that are not `NAME=VALUE` or name no rule part are left out, and what
    /// is left is parsed, then without X- parts libical refuses. Nil when that fails too, or when nothing was left
    /// out (the rule is wrong, not damaged).
    static func recovering(_ text: String) -> (rule: RecurrenceRule, leftOut: [String])? {
        let known: Set<String> = [
            "FREQ", "UNTIL", "COUNT", "INTERVAL", "BYSECOND", "BYMINUTE", "BYHOUR", "BYDAY", "BYMONTHDAY",
            "BYYEARDAY", "BYWEEKNO", "BYMONTH", "BYSETPOS", "WKST", "RSCALE", "SKIP",
        ]
        // Separators escaped as if the rule were text (`FREQ=WEEKLY\;COUNT=3\;BYDAY=MO\,WE`, as some exporters
        // write): RECUR values are not text-escaped (RFC 5545 §3.3.10), so the backslashes go.
        if text.contains("\\") {
            let plain = text.replacingOccurrences(of: "\\;", with: ";").replacingOccurrences(of: "\\,", with: ",")
            if plain != text, case .success(let rule) = parse(plain) { return (rule, ["\\"]) }
        }
        var rest = Substring(text)
        var leftOut: [String] = []
        while rest.uppercased().hasPrefix("RRULE:") {
            leftOut.append("RRULE:")
            rest = rest.dropFirst(6)
        }
        var kept: [Substring] = []
        for part in rest.split(separator: ";", omittingEmptySubsequences: true) {
            let name = part.split(separator: "=", maxSplits: 1).first.map { $0.uppercased() } ?? ""
            if part.contains("="), known.contains(name) || name.hasPrefix("X-") {
                kept.append(part)
            } else {
                leftOut.append(String(part))
            }
        }
        if !leftOut.isEmpty, case .success(let rule) = parse(kept.joined(separator: ";")) { return (rule, leftOut) }
        // libical refuses some X- parts: without them, then.
        let extensions = kept.filter { $0.uppercased().hasPrefix("X-") }
        guard !extensions.isEmpty,
            case .success(let rule) = parse(kept.filter { !$0.uppercased().hasPrefix("X-") }.joined(separator: ";"))
        else { return nil }
        return (rule, leftOut + extensions.map(String.init))
    }

    /// The values RFC 5545 §3.3.10 allows in each numeric BYxxx part (negative ones count from the end).
    struct ValueRange: CustomStringConvertible {
        var magnitude: ClosedRange<Int>
        var allowsNegative: Bool

        func allows(_ value: Int) -> Bool {
            magnitude.contains(value) || (allowsNegative && value < 0 && value != .min && magnitude.contains(-value))
        }

        var description: String {
            allowsNegative
                ? "±\(magnitude.lowerBound)–\(magnitude.upperBound)"
                : "\(magnitude.lowerBound)–\(magnitude.upperBound)"
        }
    }

    static let ranges: [String: ValueRange] = [
        "BYSECOND": ValueRange(magnitude: 0...60, allowsNegative: false),
        "BYMINUTE": ValueRange(magnitude: 0...59, allowsNegative: false),
        "BYHOUR": ValueRange(magnitude: 0...23, allowsNegative: false),
        "BYMONTHDAY": ValueRange(magnitude: 1...31, allowsNegative: true),
        "BYYEARDAY": ValueRange(magnitude: 1...366, allowsNegative: true),
        "BYWEEKNO": ValueRange(magnitude: 1...53, allowsNegative: true),
        "BYMONTH": ValueRange(magnitude: 1...12, allowsNegative: false),
        "BYSETPOS": ValueRange(magnitude: 1...366, allowsNegative: true),
    ]
    static let weekOrdinals = ValueRange(magnitude: 1...53, allowsNegative: true)

    /// Whether RSCALE names a calendar scale other than Gregorian (such rules are expanded by libical, with ICU).
    var isNonGregorian: Bool { other.contains { $0.name == "RSCALE" && $0.value.uppercased() != "GREGORIAN" } }

    /// The first BYxxx value outside its range, said as a reason. Calendar scales with a thirteenth month
    /// (RFC 7529: Hebrew, Ethiopic, Coptic) allow BYMONTH 13.
    var valueOutOfRange: String? {
        let parts: [(String, [Int])] = [
            ("BYSECOND", bySecond), ("BYMINUTE", byMinute), ("BYHOUR", byHour),
            ("BYMONTHDAY", byMonthDay), ("BYYEARDAY", byYearDay),
            ("BYWEEKNO", byWeekNo), ("BYMONTH", byMonth), ("BYSETPOS", bySetPos),
        ]
        for (name, values) in parts {
            guard var range = Self.ranges[name] else { continue }
            if name == "BYMONTH", isNonGregorian { range.magnitude = 1...13 }
            if let bad = values.first(where: { !range.allows($0) }) { return "\(name) \(bad) is outside \(range)" }
        }
        return nil
    }

    /// Stores one part; returns why it is invalid, or nil.
    private mutating func set(_ name: String, _ value: String) -> String? {
        func ints() -> [Int]? {
            let values = ValueSyntax.split(value, on: ",").map { Int($0.trimmingPlus) }
            return values.contains(nil) || values.isEmpty ? nil : values.compactMap { $0 }
        }
        func keep() { other.append(RawPart(name: name, value: value)) }
        switch name {
        case "FREQ": break
        case "UNTIL":
            switch CalendarDate.parse(value, tzid: nil) {
            case .success(let date): until = date
            case .failure(let error): return "UNTIL \(error)"
            }
        case "COUNT":
            guard let number = Int(value), number >= 0 else { return "COUNT \(value) is not a count" }
            count = number
        case "INTERVAL":
            guard let number = Int(value), number >= 1 else { return "INTERVAL \(value) is not positive" }
            interval = number
        case "BYSECOND", "BYMINUTE", "BYHOUR", "BYMONTHDAY", "BYYEARDAY", "BYWEEKNO", "BYMONTH", "BYSETPOS":
            // Values that are not plain numbers (RFC 7529's leap months, `5L`) are kept for libical.
            guard let values = ints() else {
                keep()
                break
            }
            switch name {
            case "BYSECOND": bySecond = values
            case "BYMINUTE": byMinute = values
            case "BYHOUR": byHour = values
            case "BYMONTHDAY": byMonthDay = values
            case "BYYEARDAY": byYearDay = values
            case "BYWEEKNO": byWeekNo = values
            case "BYMONTH": byMonth = values
            default: bySetPos = values
            }
        case "BYDAY":
            var days: [WeekdayOccurrence] = []
            for item in value.split(separator: ",") {
                guard let day = Weekday(rawValue: String(item.suffix(2)).uppercased()) else {
                    return "BYDAY \(item) is not a weekday"
                }
                let prefix = item.dropLast(2)
                let ordinal = prefix.isEmpty ? nil : Int(prefix.hasPrefix("+") ? prefix.dropFirst() : prefix)
                guard prefix.isEmpty || ordinal.map(Self.weekOrdinals.allows) == true else {
                    return "BYDAY \(item) has a bad ordinal (±1 to ±53)"
                }
                days.append(WeekdayOccurrence(day, ordinal: ordinal))
            }
            byDay = days
        case "WKST":
            guard let day = Weekday(rawValue: value.uppercased()) else { return "WKST \(value) is not a weekday" }
            weekStart = day
        default: keep()
        }
        return nil
    }
}

extension RecurrenceRule {
    /// The UNTIL of a series whose last instance may start at `last`, in the form RFC 5545 §3.3.10 asks of a
    /// DTSTART of `startForm`: the date for a date start, the wall clock for a floating one, and for a UTC or zoned
    /// start the UTC time of `instant` (the instant of `last` in the start's zone, in seconds). The one place
    /// "UNTIL in DTSTART's form" is decided: series cut by "this and following", `--until`, `--repair` and the
    /// apps' rules.
    package static func until(
        last: LocalDateTime, instant: @autoclosure () -> Int64, startForm: CalendarDate.Form
    ) -> CalendarDate {
        switch startForm {
        case .date: return CalendarDate(unchecked: last.year, month: last.month, day: last.day)
        case .floating: return last.calendarDate(.floating)
        case .utc, .zoned: return LocalDateTime(wallSeconds: instant()).calendarDate(.utc)
        }
    }
}
