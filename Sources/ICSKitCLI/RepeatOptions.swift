import ArgumentParser
import CalendarModel
import Foundation

/// `--repeat daily|weekly|monthly|yearly|RRULE` with `--until WHEN` or `--count N`: the recurrence rule `add` and
/// `edit` give an item, as RFC 5545 wants it written for the item's start.
struct RepeatOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "How it repeats: daily, weekly, monthly, yearly, or a rule (\"FREQ=WEEKLY;BYDAY=MO,WE\"); "
                + "none (edit) ends the repetition.", valueName: "rule"))
    var `repeat`: String?

    @Option(help: "The last day (or day and time) it repeats on, in --tz.")
    var until: String?

    @Option(help: "How many times it happens, the first included.")
    var count: Int?

    func validate() throws {
        if until != nil, count != nil { throw ValidationError("use --until or --count, not both") }
        if `repeat` == nil, until != nil || count != nil {
            throw ValidationError("--until and --count need --repeat")
        }
        if let count, count < 1 { throw ValidationError("--count must be at least 1") }
        if let text = `repeat`, !removesRule, RecurrenceRule.Frequency(rawValue: text.uppercased()) == nil,
            case .failure(let problem) = RecurrenceRule.parse(Self.ruleText(text))
        {
            throw ValidationError(
                "--repeat takes daily, weekly, monthly, yearly or an RRULE value, not \(text): \(problem)")
        }
    }

    /// An RRULE value as given, without a leading `RRULE:`.
    static func ruleText(_ text: String) -> String {
        text.uppercased().hasPrefix("RRULE:") ? String(text.dropFirst(6)) : text
    }

    /// Whether the repetition is to end (`--repeat none`).
    var removesRule: Bool { `repeat`?.lowercased() == "none" }

    /// The rule for an item starting at `start`, nil without --repeat (or with `none`). UNTIL takes the start's
    /// form: a date for an all-day item, UTC for a zoned or UTC one (RFC 5545 §3.3.10), floating for a floating
    /// one; a bare day means through the end of that day.
    func rule(for start: CalendarDate, zone: ZoneClock) throws -> RecurrenceRule? {
        guard let text = `repeat`, !removesRule else { return nil }
        var rule: RecurrenceRule
        if let frequency = RecurrenceRule.Frequency(rawValue: text.uppercased()) {
            rule = RecurrenceRule(frequency: frequency)
        } else {
            switch RecurrenceRule.parse(Self.ruleText(text)) {
            case .success(let parsed): rule = parsed
            case .failure(let problem):
                throw ValidationError(
                    "--repeat takes daily, weekly, monthly, yearly or an RRULE value, not \(text): \(problem)")
            }
        }
        if let count {
            rule.count = count
            rule.until = nil
        }
        if let until {
            let today = zone.wallClock(at: Date()).startOfDay
            guard case .success(let moment) = TypedInput.moment(until, now: zone.wallClock(at: Date()), today: today)
            else { throw ValidationError("--until: cannot read \(until)") }
            let last = moment.hasTime ? moment.wall : moment.wall.startOfDay.adding(days: 1).adding(seconds: -1)
            switch start.form {
            case .date:
                rule.until = CalendarDate(year: last.year, month: last.month, day: last.day)
            case .floating:
                rule.until = last.calendarDate(.floating)
            case .utc, .zoned:
                let instant = Int64(zone.date(of: last).timeIntervalSince1970)
                rule.until = LocalDateTime(wallSeconds: instant).calendarDate(.utc)
            }
            rule.count = nil
        }
        return rule
    }
}
