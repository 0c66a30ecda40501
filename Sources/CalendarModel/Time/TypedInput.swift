import Foundation

/// Dates, times and lengths as a person types them on a command line: `2026-11-24`, `2026-11-24 09:30`,
/// `2026-11-24T09:30`, `tomorrow 09:30`, `friday`; `90m`, `1h30m`, `2d`, `-15m`.
package enum TypedInput {
    /// A day, or a day and a time in `zone` (UTC times are written with Z), in the grammar of `moment`.
    package static func date(_ text: String, in zone: ZoneClock, today: LocalDateTime) -> Result<
        CalendarDate, ValueError
    > {
        moment(text, now: zone.wallClock(at: Date()), today: today).map { moment in
            let wall = moment.wall
            guard moment.hasTime else { return CalendarDate(unchecked: wall.year, month: wall.month, day: wall.day) }
            return CalendarDate(
                unchecked: wall.year, month: wall.month, day: wall.day, hour: wall.hour, minute: wall.minute, second: 0,
                form: zone.identifier == "UTC" ? .utc : .zoned(tzid: TimeZoneID(unchecked: zone.identifier)))
        }
    }

    /// A time typed in the viewer's zone, given in the zone of the item's own time it replaces (`old`), so that a
    /// Chicago series edited from Berlin stays a Chicago series and keeps following Chicago's clock changes. Dates,
    /// floating times and times whose zone ICSKit does not know are left as typed.
    package static func keepingZone(_ typed: CalendarDate, of old: CalendarDate?) -> CalendarDate {
        guard let old, case .zoned = old.form, let zone = old.zone, typed.form != .date, typed.form != .floating,
            typed.zone != zone, let instant = typed.date(in: .utc)
        else { return typed }
        return CalendarDate(instant, in: zone)
    }

    /// The one grammar of days and times every command reads (wall-clock times, in whatever zone the command
    /// says), with an optional `HH:MM` after any day:
    /// - `2026-11-27`, `2026-11-27T09:30`, `27.11.2026`;
    /// - `today`, `tomorrow`, `yesterday`, a weekday (`friday`, `fri`, `this friday`: today when it is today,
    ///   else the next);
    /// - `next friday` (the first after today), `last friday` (the last before today);
    /// - `Dec 1`, `1 Dec`, `December 1 2026`, `1 Dec 2026` (without a year: this year's);
    /// - `in 3 days`, `in 2 weeks` (`in 3d`, `in 2w`);
    /// - `now`, and `+2h`, `+90m`, `+1d` from now (a time);
    /// - a time alone (`09:30`, `9am`, `9:30pm`, `noon`, `midnight`): today at that time.
    package static func moment(_ text: String, now: LocalDateTime, today: LocalDateTime? = nil) -> Result<
        (wall: LocalDateTime, hasTime: Bool), ValueError
    > {
        let today = today ?? now.startOfDay
        let unreadable = ValueError(
            "cannot read the time \(text) (try 2026-11-27, 27.11.2026, Dec 1, today, friday, next monday, "
                + "in 3 days, now, +2h, each with an optional time: 09:30, 9am, noon)")
        var words = text.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
        if words == ["now"] { return .success((now.adding(seconds: -Int64(now.second)), true)) }
        if words.count == 1, words[0].hasPrefix("+"), case .success(let length) = duration(words[0]) {
            let minute = now.adding(seconds: Int64(length.totalSeconds))
            return .success((minute.adding(seconds: -Int64(minute.second)), true))
        }
        // `2026-11-27t09:30` is a day and a time in one word.
        if words.count == 1, words[0].first?.isNumber == true, words[0].contains("t") {
            words = words[0].split(separator: "t", maxSplits: 1).map(String.init)
        }
        var clock: (hour: Int, minute: Int)?
        if let last = words.last, let parsed = Self.clock(last) {
            clock = parsed
            words.removeLast()
        }
        guard !words.isEmpty || clock != nil, let day = Self.day(words, today: today) else {
            return .failure(unreadable)
        }
        guard let clock else { return .success((day, false)) }
        return .success(
            (
                LocalDateTime(year: day.year, month: day.month, day: day.day, hour: clock.hour, minute: clock.minute),
                true
            ))
    }

    /// `HH:MM` (or `HH:MM:SS`, seconds dropped); `9am`, `9:30pm`, `12am` (midnight); `noon`, `midnight`.
    static func clock(_ word: String) -> (hour: Int, minute: Int)? {
        switch word {
        case "noon": return (12, 0)
        case "midnight": return (0, 0)
        default: break
        }
        for (suffix, offset) in [("am", 0), ("pm", 12)] where word.hasSuffix(suffix) {
            let time = String(word.dropLast(2))
            let parsed = time.contains(":") ? clock(time) : Int(time).map { ($0, 0) }
            guard let (hour, minute) = parsed, (1...12).contains(hour) else { return nil }
            return (hour % 12 + offset, minute)
        }
        let parts = word.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }),
            let hour = Int(parts[0]), let minute = Int(parts[1]), (0...23).contains(hour), (0...59).contains(minute)
        else { return nil }
        return (hour, minute)
    }

    /// The day the words (lower-cased, no time) name.
    static func day(_ words: [String], today: LocalDateTime) -> LocalDateTime? {
        switch words.count {
        case 0: return today
        case 1:
            let word = words[0]
            if let named = LocalDateTime.namedDay(word, today: today) { return named }
            if word.contains(".") {
                let parts = word.split(separator: ".").compactMap { Int($0) }
                guard parts.count == 3, parts[2] >= 1000, (1...12).contains(parts[1]),
                    (1...LocalDateTime.days(inMonth: parts[1], year: parts[2])).contains(parts[0])
                else { return nil }
                return LocalDateTime(year: parts[2], month: parts[1], day: parts[0])
            }
            guard let date = try? CalendarDate.parse(word.replacingOccurrences(of: "-", with: ""), tzid: nil).get(),
                date.isDate
            else { return nil }
            return LocalDateTime(date)
        case 2 where words[0] == "this":
            guard LocalDateTime.weekdayIndex(words[1]) != nil else { return nil }
            return LocalDateTime.namedDay(words[1], today: today)
        case 2 where words[0] == "next":
            guard let weekday = LocalDateTime.weekdayIndex(words[1]) else { return nil }
            return today.adding(days: (weekday - today.isoWeekday + 6) % 7 + 1)
        case 2 where words[0] == "last":
            guard let weekday = LocalDateTime.weekdayIndex(words[1]) else { return nil }
            return today.adding(days: -((today.isoWeekday - weekday + 6) % 7 + 1))
        case 2 where words[0] == "in":
            guard case .success(let length) = duration(words[1]), length.hours == 0, length.minutes == 0,
                length.seconds == 0, !length.isNegative
            else { return nil }
            return today.adding(days: length.weeks * 7 + length.days)
        case 3 where words[0] == "in":
            guard let count = Int(words[1]), count >= 0 else { return nil }
            switch words[2] {
            case "day", "days": return today.adding(days: count)
            case "week", "weeks": return today.adding(days: 7 * count)
            default: return nil
            }
        default: return monthDay(words, today: today)
        }
    }

    /// `dec 1`, `1 dec`, `december 1 2026`, `1 dec 2026` (a month's name of three letters or more; without a year,
    /// this year's).
    static func monthDay(_ words: [String], today: LocalDateTime) -> LocalDateTime? {
        guard (2...3).contains(words.count) else { return nil }
        let year = words.count == 3 ? Int(words[2]) : today.year
        let pair: (month: Int?, day: Int?) =
            Int(words[0]) != nil
            ? (LocalDateTime.monthIndex(words[1]), Int(words[0]))
            : (LocalDateTime.monthIndex(words[0]), Int(words[1].filter { $0 != "," }))
        guard let year, (1...9999).contains(year), let month = pair.month, let day = pair.day,
            (1...LocalDateTime.days(inMonth: month, year: year)).contains(day)
        else { return nil }
        return LocalDateTime(year: year, month: month, day: day)
    }

    /// A length: numbers with units `w`, `d`, `h`, `m`, `s` (`90m`, `1h30m`, `2d`), signed (`-15m`, a reminder
    /// before); zero is no length.
    package static func duration(_ text: String) -> Result<CalendarDuration, ValueError> {
        let unreadable = ValueError("\"\(text)\" is not a duration")
        var rest = Substring(text.lowercased())
        let negative = rest.hasPrefix("-")
        if negative || rest.hasPrefix("+") { rest = rest.dropFirst() }
        var result = CalendarDuration(isNegative: negative)
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
    package var startOfDay: LocalDateTime { LocalDateTime(year: year, month: month, day: day) }

    /// `today`, `tomorrow`, `yesterday`, or a weekday (`monday`, `mon`): that day when it is today, else the next
    /// one, as GNU date reads it. Nil for anything else.
    package static func namedDay(_ word: String, today: LocalDateTime) -> LocalDateTime? {
        switch word.lowercased() {
        case "today": return today
        case "tomorrow": return today.adding(days: 1)
        case "yesterday": return today.adding(days: -1)
        default:
            guard let weekday = weekdayIndex(word) else { return nil }
            return today.adding(days: (weekday - today.isoWeekday + 7) % 7)
        }
    }

    /// The ISO weekday (1 Monday … 7 Sunday) a name or its first three or more letters give (`fri`, `friday`).
    package static func weekdayIndex(_ word: String) -> Int? {
        let names = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
        let lowered = word.lowercased()
        guard lowered.count >= 3, let index = names.firstIndex(where: { $0.hasPrefix(lowered) }) else { return nil }
        return index + 1
    }

    /// The month (1…12) an English name or its first three or more letters give (`dec`, `december`).
    package static func monthIndex(_ word: String) -> Int? {
        let names = [
            "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
            "november", "december",
        ]
        let lowered = word.lowercased()
        guard lowered.count >= 3 else { return nil }
        return names.firstIndex { $0.hasPrefix(lowered) }.map { $0 + 1 }
    }

    /// How many days a month has.
    package static func days(inMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
