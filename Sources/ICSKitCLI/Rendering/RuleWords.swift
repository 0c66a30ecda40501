import CalendarModel

/// An RRULE in English words, as calendar apps say it: "every 2 weeks on Monday and Wednesday, 10 times". Parts
/// that have no short wording (BYSETPOS, BYYEARDAY, BYWEEKNO, BYHOUR …) are added as the rule writes them.
enum RuleWords {
    static let dayNames: [Weekday: String] = [
        .monday: "Monday", .tuesday: "Tuesday", .wednesday: "Wednesday", .thursday: "Thursday", .friday: "Friday",
        .saturday: "Saturday", .sunday: "Sunday",
    ]
    static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]

    static func describe(_ rule: RecurrenceRule, until: (CalendarDate) -> String) -> String {
        let units: [RecurrenceRule.Frequency: String] = [
            .secondly: "second", .minutely: "minute", .hourly: "hour", .daily: "day", .weekly: "week",
            .monthly: "month", .yearly: "year",
        ]
        let unit = units[rule.frequency] ?? rule.frequency.rawValue.lowercased()
        let interval = rule.interval ?? 1
        var text = interval == 1 ? "every \(unit)" : "every \(interval) \(unit)s"
        if !rule.byMonth.isEmpty {
            text += " in " + list(rule.byMonth.map { (1...12).contains($0) ? monthNames[$0 - 1] : String($0) })
        }
        if !rule.byMonthDay.isEmpty {
            text += " on the " + list(rule.byMonthDay.map(ordinal)) + (rule.byMonthDay.count == 1 ? " day" : " days")
        }
        if !rule.byDay.isEmpty {
            text += " on " + list(rule.byDay.map(day))
        }
        var rest: [String] = []
        for (name, values) in [
            ("BYSETPOS", rule.bySetPos), ("BYYEARDAY", rule.byYearDay), ("BYWEEKNO", rule.byWeekNo),
            ("BYHOUR", rule.byHour), ("BYMINUTE", rule.byMinute), ("BYSECOND", rule.bySecond),
        ] where !values.isEmpty {
            rest.append("\(name)=" + values.map(String.init).joined(separator: ","))
        }
        if !rest.isEmpty { text += " (" + rest.joined(separator: ";") + ")" }
        if let count = rule.count { text += count == 1 ? ", once" : ", \(count) times" }
        if let end = rule.until { text += ", until " + until(end) }
        return text
    }

    /// `Monday`, `the 2nd Tuesday`, `the last Friday`.
    static func day(_ day: RecurrenceRule.WeekdayOccurrence) -> String {
        let name = dayNames[day.weekday] ?? day.weekday.rawValue
        guard let number = day.ordinal else { return name }
        return "the \(ordinal(number)) \(name)"
    }

    /// `1st`, `22nd`, `last`, `2nd to last`.
    static func ordinal(_ number: Int) -> String {
        if number == -1 { return "last" }
        if number < -1 { return ordinal(-number) + " to last" }
        let suffix: String
        switch (number % 10, number % 100) {
        case (_, 11...13): suffix = "th"
        case (1, _): suffix = "st"
        case (2, _): suffix = "nd"
        case (3, _): suffix = "rd"
        default: suffix = "th"
        }
        return "\(number)\(suffix)"
    }

    /// `a`, `a and b`, `a, b and c`.
    static func list(_ items: [String]) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + items[items.count - 1]
    }
}
