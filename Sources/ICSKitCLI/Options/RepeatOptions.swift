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

    @Option(
        help: ArgumentHelp(
            "A todo that repeats from when it is done, not on fixed dates: 3d, 2w, 1m, 1y (or daily, weekly …). "
                + "Each `done` moves its start and due that far past the day it was done, at the same time of day.",
            valueName: "interval"))
    var repeatAfterDone: String?

    /// `--repeat-after-done`'s step as a rule (`FREQ=WEEKLY;INTERVAL=2`), written beside
    /// `X-ICSKIT-REPEAT-FROM:COMPLETION` so other apps still show a repeating todo.
    var afterDoneRule: RecurrenceRule? {
        guard let text = repeatAfterDone?.lowercased().trimmingCharacters(in: .whitespaces) else { return nil }
        if let frequency = RecurrenceRule.Frequency(rawValue: text.uppercased()) {
            return RecurrenceRule(frequency: frequency)
        }
        let digits = text.prefix { $0.isNumber }
        let unit = text.dropFirst(digits.count).trimmingCharacters(in: .whitespaces)
        let frequencies: [String: RecurrenceRule.Frequency] = [
            "d": .daily, "day": .daily, "days": .daily, "w": .weekly, "week": .weekly, "weeks": .weekly,
            "m": .monthly, "month": .monthly, "months": .monthly, "y": .yearly, "year": .yearly, "years": .yearly,
        ]
        guard let frequency = frequencies[unit], let interval = digits.isEmpty ? 1 : Int(digits), interval >= 1,
            interval <= 1_000
        else { return nil }
        var rule = RecurrenceRule(frequency: frequency)
        if interval > 1 { rule.interval = interval }
        return rule
    }

    /// A todo made to repeat from when it is done: its rule and `X-ICSKIT-REPEAT-FROM:COMPLETION`.
    func applyAfterDone(to component: inout CalendarComponent) {
        guard case .todo(var todo) = component, let rule = afterDoneRule else { return }
        todo.core.recurrenceRules = [rule]
        todo.otherProperties.removeAll { $0.name == TodoSeries.repeatFromProperty }
        todo.otherProperties.append(Property(TodoSeries.repeatFromProperty, value: "COMPLETION"))
        component = .todo(todo)
    }

    func validate() throws {
        if let text = repeatAfterDone {
            if `repeat` != nil { throw ValidationError("use --repeat or --repeat-after-done, not both") }
            if until != nil || count != nil { throw ValidationError("--repeat-after-done goes on until it is removed") }
            if afterDoneRule == nil {
                throw ValidationError("--repeat-after-done takes 3d, 2w, 1m, 1y, daily, weekly …, not \(text)")
            }
            return
        }
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
            rule.until = RecurrenceRule.until(
                last: last, instant: Int64(zone.date(of: last).timeIntervalSince1970), startForm: start.form)
            rule.count = nil
        }
        return rule
    }
}
