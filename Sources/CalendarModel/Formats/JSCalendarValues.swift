import Foundation

/// Which JSCalendar names ICSKit writes: RFC 8984's (`recurrenceRules`, `sendTo`, `replyTo`) or those of the
/// JSCalendar 2.0 draft of the IETF calext group (`recurrenceRule`, `calendarAddress`, `organizerCalendarAddress`).
/// Both are read, whichever a document uses.
package enum JSCalendarVersion: Int, Sendable {
    case rfc8984 = 1
    case draft2 = 2
}

/// Values as iCalendar and JSCalendar write them, each way: times (JSCalendar's LocalDateTime and UTCDateTime),
/// recurrence rules (RFC 8984 §4.3.3), and the check that a value written one way comes back as it was.
enum JSCalendarValues {
    private enum LocalPlace {
        case digit(Int)
        case separator(UInt8)
    }

    private static let localPlaces: [LocalPlace] = [
        .digit(0), .digit(1), .digit(2), .digit(3), .separator(UInt8(ascii: "-")), .digit(4), .digit(5),
        .separator(UInt8(ascii: "-")), .digit(6), .digit(7), .separator(UInt8(ascii: "T")), .digit(9), .digit(10),
        .separator(UInt8(ascii: ":")), .digit(11), .digit(12), .separator(UInt8(ascii: ":")), .digit(13), .digit(14),
    ]

    /// `20260105T090000`, `20260105T090000Z` or `20260105` as a LocalDateTime, `2026-01-05T09:00:00` (a date at
    /// midnight); nil for anything else.
    static func local(_ ics: String) -> String? {
        var ics = ics
        return ics.withUTF8 { bytes -> String? in
            let isDigit = { (byte: UInt8) in byte >= 0x30 && byte <= 0x39 }
            guard bytes.count == 8 || bytes.count == 15 || (bytes.count == 16 && bytes[15] == UInt8(ascii: "Z")),
                bytes[0..<8].allSatisfy(isDigit)
            else { return nil }
            guard bytes.count == 8 || (bytes[8] == UInt8(ascii: "T") && bytes[9..<15].allSatisfy(isDigit)) else {
                return nil
            }
            // YYYY-MM-DDTHH:MM:SS: each place's byte of the value, or its separator (a date's time is midnight).
            return String(unsafeUninitializedCapacity: 19) { out in
                for (place, source) in localPlaces.enumerated() {
                    out[place] =
                        switch source {
                        case .digit(let at): at < bytes.count ? bytes[at] : UInt8(ascii: "0")
                        case .separator(let byte): byte
                        }
                }
                return localPlaces.count
            }
        }
    }

    /// A LocalDateTime (`2026-01-05T09:00:00`) as iCalendar writes it: a date when `isDate` (the time must be
    /// midnight), with `Z` when `utc`; nil when it is no LocalDateTime.
    static func ics(local: String, isDate: Bool = false, utc: Bool = false) -> String? {
        let bytes = Array(local.utf8)
        let digits: Set<Int> = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18]
        guard bytes.count == 19, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == UInt8(ascii: "T"),
            bytes[13] == 0x3A, bytes[16] == 0x3A,
            digits.allSatisfy({ (0x30...0x39).contains(bytes[$0]) })
        else { return nil }
        let date = String(decoding: bytes[0..<4] + bytes[5..<7] + bytes[8..<10], as: UTF8.self)
        let time = String(decoding: bytes[11..<13] + bytes[14..<16] + bytes[17..<19], as: UTF8.self)
        if isDate { return time == "000000" ? date : nil }
        return date + "T" + time + (utc ? "Z" : "")
    }

    /// A UTCDateTime (`2026-01-05T09:00:00Z`) from iCalendar's UTC form, and back.
    static func utc(_ ics: String) -> String? {
        guard ics.count == 16, ics.hasSuffix("Z"), let local = local(ics) else { return nil }
        return local + "Z"
    }

    static func ics(utc: String) -> String? {
        guard utc.hasSuffix("Z") else { return nil }
        return ics(local: String(utc.dropLast()), utc: true)
    }

    /// The wall-clock time of a UTC instant (`20260107T080000Z`) in `zone`, or the other way, as iCalendar text.
    static func wall(ofUTC ics: String, in zone: String) -> String? {
        guard let zone = try? CalendarZone(zone), case .success(let value) = CalendarDate.parse(ics, tzid: nil),
            let instant = value.date(in: .utc)
        else { return nil }
        return CalendarDate(instant, in: zone).wall.calendarDate(.floating).icsValue
    }

    static func utc(ofWall ics: String, in zone: String) -> String? {
        guard (try? CalendarZone(zone)) != nil, case .success(let value) = CalendarDate.parse(ics, tzid: zone),
            let instant = value.date(in: .utc)
        else { return nil }
        return CalendarDate(instant, in: .utc).icsValue
    }

    /// The wall-clock time in `endZone` that is `seconds` after `start` in `zone` (a flight's DTEND), or nil.
    static func wall(after start: String, in zone: String, seconds: Int, endZone: String) -> String? {
        guard let utc = utc(ofWall: start, in: zone), case .success(let value) = CalendarDate.parse(utc, tzid: nil),
            let instant = value.date(in: .utc)
        else { return nil }
        let end = CalendarDate(instant.addingTimeInterval(TimeInterval(seconds)), in: .utc).icsValue
        return wall(ofUTC: end, in: endZone)
    }

    // MARK: Recurrence rules

    /// RRULE parts and their JSCalendar keys, with how each value is written.
    enum PartKind { case lowercased, integer, integers, strings, nDays, until }
    static let ruleParts: [(part: String, key: String, kind: PartKind)] = [
        ("FREQ", "frequency", .lowercased), ("INTERVAL", "interval", .integer), ("COUNT", "count", .integer),
        ("UNTIL", "until", .until), ("BYSECOND", "bySecond", .integers), ("BYMINUTE", "byMinute", .integers),
        ("BYHOUR", "byHour", .integers), ("BYDAY", "byDay", .nDays), ("BYMONTHDAY", "byMonthDay", .integers),
        ("BYYEARDAY", "byYearDay", .integers), ("BYWEEKNO", "byWeekNo", .integers), ("BYMONTH", "byMonth", .strings),
        ("BYSETPOS", "bySetPosition", .integers), ("WKST", "firstDayOfWeek", .lowercased),
        ("RSCALE", "rscale", .lowercased), ("SKIP", "skip", .lowercased),
    ]

    /// Where a series' times are: a zone's name, UTC, floating, or dates; what UNTIL is written against.
    struct Frame: Equatable {
        var zone: String?
        var isUTC = false
        var isDate = false
    }

    /// An RRULE as a RecurrenceRule object, its parts in the order written (so that it is written back as it
    /// was); nil when a part has no JSCalendar form or would not come back as it is.
    static func rule(_ text: String, frame: Frame) -> JSONValue? {
        var members: [(key: String, value: JSONValue)] = [("@type", .string("RecurrenceRule"))]
        for part in ValueSyntax.split(text, on: ";") {
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2, let known = ruleParts.first(where: { $0.part == pair[0] }) else { return nil }
            let items = pair[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let value: JSONValue
            switch known.kind {
            case .lowercased: value = .string(pair[1].lowercased())
            case .integer:
                guard let number = Int(pair[1]) else { return nil }
                value = .int(number)
            case .integers:
                let numbers = items.compactMap { Int($0) }
                guard numbers.count == items.count else { return nil }
                value = .array(numbers.map(JSONValue.int))
            case .strings: value = .array(items.map(JSONValue.string))
            case .nDays:
                var days: [JSONValue] = []
                for item in items {
                    let day = String(item.suffix(2))
                    let ordinal = item.dropLast(2)
                    guard Weekday(rawValue: day) != nil, ordinal.isEmpty || Int(ordinal) != nil else { return nil }
                    var nDay: [(key: String, value: JSONValue)] = [
                        ("@type", .string("NDay")), ("day", .string(day.lowercased())),
                    ]
                    if let nth = Int(ordinal) { nDay.append(("nthOfPeriod", .int(nth))) }
                    days.append(.object(nDay))
                }
                value = .array(days)
            case .until:
                let local: String?
                if frame.zone != nil, !frame.isUTC, pair[1].hasSuffix("Z") {
                    local = wall(ofUTC: pair[1], in: frame.zone ?? "").flatMap { self.local($0) }
                } else {
                    local = self.local(pair[1])
                }
                guard let local else { return nil }
                value = .string(local)
            }
            members.append((known.key, value))
        }
        let json = JSONValue.object(members)
        return (try? ruleText(json, frame: frame, path: "")) == text ? json : nil
    }

    /// A RecurrenceRule object as RRULE text, its parts in the order of its keys (RFC 8984 names).
    static func ruleText(_ json: JSONValue, frame: Frame, path: String) throws(JSCalendarReader.Failure) -> String {
        guard case .object(let members) = json else { throw .jscalendar(path, "a RecurrenceRule object") }
        var parts: [String] = []
        for (key, value) in members where key != "@type" {
            guard let known = ruleParts.first(where: { $0.key == key }) else {
                throw .jscalendar(path + "/" + key, "a RecurrenceRule property (\"\(key)\" is none)")
            }
            let text: String
            switch (known.kind, value) {
            case (.lowercased, .string(let word)): text = word.uppercased()
            case (.integer, .number(let number)) where Int(number) != nil: text = number
            case (.integers, .array(let numbers)):
                let written = numbers.compactMap { value -> String? in
                    if case .number(let number) = value, Int(number) != nil { return number }
                    return nil
                }
                guard written.count == numbers.count else {
                    throw .jscalendar(path + "/" + key, "an array of integers")
                }
                text = written.joined(separator: ",")
            case (.strings, .array(let names)):
                let written = names.compactMap(\.stringValue)
                guard written.count == names.count else { throw .jscalendar(path + "/" + key, "an array of strings") }
                text = written.joined(separator: ",")
            case (.nDays, .array(let days)):
                text = try days.enumerated().map { index, day throws(JSCalendarReader.Failure) in
                    guard let name = day["day"]?.stringValue, Weekday(rawValue: name.uppercased()) != nil else {
                        throw .jscalendar("\(path)/\(key)/\(index)", "an NDay object with a \"day\" (mo, tu, …)")
                    }
                    var ordinal = ""
                    if let nth = day["nthOfPeriod"] {
                        guard case .number(let number) = nth, Int(number) != nil else {
                            throw .jscalendar("\(path)/\(key)/\(index)/nthOfPeriod", "an integer")
                        }
                        ordinal = number
                    }
                    return ordinal + name.uppercased()
                }.joined(separator: ",")
            case (.until, .string(let local)):
                guard let written = until(local, frame: frame) else {
                    throw .jscalendar(path + "/until", "a LocalDateTime (2026-01-05T09:00:00)")
                }
                text = written
            default:
                throw .jscalendar(path + "/" + key, "the type RFC 8984 gives \"\(key)\"")
            }
            parts.append(known.part + "=" + text)
        }
        guard parts.contains(where: { $0.hasPrefix("FREQ=") }) else {
            throw .jscalendar(path, "a RecurrenceRule with a \"frequency\"")
        }
        return parts.joined(separator: ";")
    }

    /// UNTIL as RFC 5545 §3.3.10 wants it beside DTSTART: a date, UTC beside a zone or UTC, else local.
    static func until(_ local: String, frame: Frame) -> String? {
        if frame.isDate { return ics(local: local, isDate: true) }
        if frame.isUTC { return ics(local: local, utc: true) }
        guard let zone = frame.zone else { return ics(local: local) }
        return ics(local: local).flatMap { utc(ofWall: $0, in: zone) }
    }
}
