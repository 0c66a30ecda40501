import Foundation

/// One CSV cell read as a value: dates, times, durations, numbers and lists, as spreadsheets write them.
extension CSVImporter {
    static let todoStatuses: [String: String] = [
        "not started": "NEEDS-ACTION", "needs-action": "NEEDS-ACTION", "needs action": "NEEDS-ACTION",
        "in progress": "IN-PROCESS", "in-process": "IN-PROCESS", "completed": "COMPLETED", "done": "COMPLETED",
        "waiting on someone else": "NEEDS-ACTION", "deferred": "NEEDS-ACTION",
    ]

    static func status(_ text: String, isTodo: Bool) -> Status? {
        let lower = text.lowercased()
        if isTodo, let mapped = todoStatuses[lower] { return Status(rawValue: mapped) }
        let token = text.uppercased().replacingOccurrences(of: " ", with: "-")
        let known =
            isTodo
            ? ["NEEDS-ACTION", "COMPLETED", "IN-PROCESS", "CANCELLED"]
            : ["TENTATIVE", "CONFIRMED", "CANCELLED"]
        return known.contains(token) || token.hasPrefix("X-") ? Status(rawValue: token) : nil
    }

    static func priority(_ text: String) -> Int? {
        switch text.lowercased() {
        case "high", "urgent", "important": return 1
        case "normal", "medium": return 5
        case "low": return 9
        default: return Int(text).flatMap { (0...9).contains($0) ? $0 : nil }
        }
    }

    static func truth(_ text: String) -> Bool {
        ["true", "yes", "y", "1", "x", "on", "wahr", "ja"].contains(text.lowercased())
    }

    /// A date cell: `05/30/2024` (or day first, for the whole file), `30.05.2024`, `2024-05-30`, `20240530`.
    func day(_ text: String) -> (year: Int, month: Int, day: Int)? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        var parts: [Int]
        var yearFirst = false
        var dayFirstHere = dayFirst
        if trimmed.count == 8, let number = Int(trimmed) {
            parts = [number / 10000, number / 100 % 100, number % 100]
            yearFirst = true
        } else if trimmed.contains("-") {
            parts = trimmed.split(separator: "-").compactMap { Int($0) }
            // 2026-05-30 is year first; 30-05-2026 is read like 30/05/2026.
            yearFirst = parts.count == 3 && parts[0] > 31
        } else if trimmed.contains(".") {
            parts = trimmed.split(separator: ".").compactMap { Int($0) }
            dayFirstHere = true
        } else {
            parts = trimmed.split(separator: "/").compactMap { Int($0) }
            if parts.count == 3, parts[0] > 31 { yearFirst = true }
        }
        guard parts.count == 3 else { return nil }
        var year: Int, month: Int, day: Int
        (year, month, day) =
            yearFirst
            ? (parts[0], parts[1], parts[2])
            : dayFirstHere ? (parts[2], parts[1], parts[0]) : (parts[2], parts[0], parts[1])
        if year < 100, !yearFirst { year += 2000 }
        guard (1...12).contains(month), (1...ValueSyntax.daysIn(month: month, year: year)).contains(day),
            (1...9999).contains(year)
        else { return nil }
        return (year, month, day)
    }

    /// A time cell: `10:00 AM`, `9:30:15 pm`, `14:30`, `14:30:00`.
    static func time(_ text: String) -> (Int, Int, Int)? {
        var body = text.trimmingCharacters(in: .whitespaces).lowercased().replacingOccurrences(of: ".", with: "")
        var meridiem: String?
        for suffix in ["am", "pm"] where body.hasSuffix(suffix) {
            meridiem = suffix
            body = String(body.dropLast(2)).trimmingCharacters(in: .whitespaces)
        }
        let parts = body.split(separator: ":").map { Int($0) }
        guard (2...3).contains(parts.count), parts.allSatisfy({ $0 != nil }) else { return nil }
        var hour = parts[0]!
        let minute = parts[1]!, second = parts.count == 3 ? parts[2]! : 0
        if let meridiem {
            guard (1...12).contains(hour) else { return nil }
            hour = hour % 12 + (meridiem == "pm" ? 12 : 0)
        }
        guard (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second) else { return nil }
        return (hour, minute, second)
    }

    /// A cell holding a date and maybe a time: `2024-05-30T10:00:00Z`, `2024-05-30 10:00`, `05/30/2024 10:00 AM`,
    /// `20240530T100000`, or a date alone.
    func moment(_ text: String) -> CalendarDate? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let zone = trimmed.contains("T") && !trimmed.hasSuffix("Z") ? options.zone : nil
        if let parsed = CalendarDate.parse(trimmed, tzid: zone).success { return parsed }
        var datePart = trimmed
        var timePart: String?
        if let separator = trimmed.firstIndex(where: { $0 == "T" || $0 == " " }) {
            datePart = String(trimmed[..<separator])
            timePart = String(trimmed[trimmed.index(after: separator)...])
        }
        guard let date = day(datePart) else { return nil }
        guard var timeText = timePart, !timeText.isEmpty else {
            return CalendarDate(unchecked: date.year, month: date.month, day: date.day)
        }
        var utc = false
        if timeText.hasSuffix("Z") {
            utc = true
            timeText.removeLast()
        }
        guard let time = Self.time(timeText) else { return nil }
        if utc {
            return CalendarDate(
                unchecked: date.year, month: date.month, day: date.day, hour: time.0, minute: time.1,
                second: time.2, form: .utc)
        }
        return timed((date.year, date.month, date.day), time)
    }

    /// A wall time in the import's zone, floating without one.
    func timed(_ day: (Int, Int, Int), _ time: (Int, Int, Int)) -> CalendarDate {
        CalendarDate(
            unchecked: day.0, month: day.1, day: day.2, hour: time.0, minute: time.1, second: time.2,
            form: options.zone.map { .zoned(tzid: TimeZoneID(unchecked: $0)) } ?? .floating)
    }

    /// COMPLETED is a UTC time (RFC 5545 §3.8.2.1): a zoned time (or a date, at midnight in the import's zone)
    /// converts; without a zone a floating time or a date is taken as UTC.
    func utc(_ date: CalendarDate) -> CalendarDate {
        // Zoned times here are always in the import's zone (`timed` makes them).
        guard date.form != .utc, let clock else { return LocalDateTime(date).calendarDate(.utc) }
        let instant = clock.date(of: LocalDateTime(date))
        return LocalDateTime(wallSeconds: Int64(instant.timeIntervalSince1970)).calendarDate(.utc)
    }

    /// Notes the year of a zoned time, for the VTIMEZONE the calendar gets.
    mutating func noteZone(_ date: CalendarDate) -> CalendarDate {
        if date.tzid != nil { earliestYear = min(earliestYear ?? date.year, date.year) }
        return date
    }
}
