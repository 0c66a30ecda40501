import CalendarModel
import CalendarStore
import Foundation

/// `show`'s text and JSON.
extension ItemDetails {
    typealias Place = (name: String, source: String?)

    static let roles = [
        "REQ-PARTICIPANT": "required", "OPT-PARTICIPANT": "optional", "NON-PARTICIPANT": "for information",
        "CHAIR": "chair",
    ]
    static let answers = [
        "NEEDS-ACTION": "no answer yet", "ACCEPTED": "accepted", "DECLINED": "declined", "TENTATIVE": "tentative",
        "DELEGATED": "delegated", "COMPLETED": "completed", "IN-PROCESS": "in process",
    ]

    /// `Name <address>`, or the address alone.
    static func person(_ user: CalendarUser) -> String {
        let address = user.email ?? user.address
        guard let name = user.commonName, !name.isEmpty, name != address else { return address }
        return "\(name) <\(address)>"
    }

    /// An attendee's role and answer in words: `optional, no answer yet`.
    static func standing(_ user: CalendarUser) -> String {
        let role = user.role.map { roles[$0.uppercased()] ?? $0.lowercased() } ?? "required"
        let answer = user.participationStatus.map { answers[$0.uppercased()] ?? $0.lowercased() } ?? "no answer yet"
        return "\(role), \(answer)"
    }

    func category(_ category: Category) -> String {
        let color = category.color ?? categoryColors[category.name.lowercased()]
        return category.name + (color.map { " (\($0))" } ?? "")
    }

    func ruleText(_ core: ItemCore) -> [String] {
        core.recurrenceRules.map { RuleWords.describe($0, until: text) }
    }

    /// The item as labelled lines, empty fields left out.
    func lines(_ item: CalendarComponent, calendar place: Place) -> [String] {
        guard let core = item.core else { return [] }
        var lines = [core.summary ?? "(no summary)"]
        func add(_ label: String, _ value: String?) {
            guard let value, !value.isEmpty else { return }
            lines.append("  " + label.padding(toLength: 11, withPad: " ", startingAt: 0) + " " + value)
        }
        let (start, end, due) = span(item)
        if let start {
            add(item.kindName == "todo" ? "starts" : "when", start + (end.map { " → " + $0 } ?? ""))
        }
        add("due", due)
        for rule in ruleText(core) { add("repeats", rule) }
        add("also", core.recurrenceDates.map { text($0.start) }.joined(separator: ", "))
        add("except", core.exceptionDates.map(text).joined(separator: ", "))
        add("next", upcoming.map(text).joined(separator: " · "))
        for override in overrides {
            guard let changed = override.core, let id = changed.recurrenceID else { continue }
            var what = [changed.start.map { "starts " + text($0) }, changed.summary.map { "\"\($0)\"" }]
            if changed.status == .cancelled { what.append("cancelled") }
            add("changed", text(id.date) + ": " + what.compactMap { $0 }.joined(separator: ", "))
        }
        add("status", core.status?.rawValue.lowercased())
        add("location", core.location)
        add("url", core.url)
        add("organizer", core.organizer.map(Self.person))
        for attendee in core.attendees { add("attendee", Self.person(attendee) + "  " + Self.standing(attendee)) }
        if let answer = me?.answer(in: core) {
            add(
                "you",
                answer == "NEEDS-ACTION"
                    ? "invited, your answer is needed" : Self.answers[answer] ?? answer.lowercased())
        }
        for alarm in alarms(item) { add("alarm", "\(alarm.when)  \(alarm.trigger) (\(alarm.action))") }
        add("categories", core.categories.map(category).joined(separator: ", "))
        add("priority", core.priority.map(String.init))
        if case .todo(let todo) = item {
            add("completed", todo.completed.map(text) ?? (todo.isCompleted ? "yes" : nil))
            add("progress", todo.percentComplete.map { "\($0) %" })
        }
        add("calendar", place.name + (place.source.map { "  (from \($0))" } ?? ""))
        add("uid", core.uid)
        if let description = core.description, !description.isEmpty {
            lines.append("  description")
            lines += description.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }
        }
        return lines
    }
}

extension ItemDetails {
    /// The item as one JSON object.
    func writeJSON(_ item: CalendarComponent, calendar place: Place, to json: inout JSONWriter) {
        guard let core = item.core else { return json.null() }
        let (start, end, due) = span(item)
        json.beginObject()
        json.key("uid"); json.string(core.uid)
        json.key("component"); json.string(item.component.name)
        json.key("summary"); json.string(core.summary)
        json.key("start"); json.string(start)
        json.key("start_zone"); json.string(core.start?.tzid)
        json.key("end"); json.string(end)
        json.key("due"); json.string(due)
        json.key("all_day"); json.bool(core.start?.isDate ?? false)
        json.key("status"); json.string(core.status?.rawValue)
        json.key("location"); json.string(core.location)
        json.key("description"); json.string(core.description)
        json.key("url"); json.string(core.url)
        json.key("priority"); json.int(core.priority)
        json.key("organizer")
        if let organizer = core.organizer { person(organizer, to: &json) } else { json.null() }
        json.key("attendees"); json.beginArray()
        for attendee in core.attendees { person(attendee, to: &json) }
        json.endArray()
        json.key("categories"); json.beginArray()
        for category in core.categories {
            json.beginObject()
            json.key("name"); json.string(category.name)
            json.key("color"); json.string(category.color ?? categoryColors[category.name.lowercased()])
            json.endObject()
        }
        json.endArray()
        json.key("alarms"); json.beginArray()
        for alarm in alarms(item) {
            json.beginObject()
            json.key("at"); json.string(alarm.when)
            json.key("trigger"); json.string(alarm.trigger)
            json.key("action"); json.string(alarm.action)
            json.endObject()
        }
        json.endArray()
        writeSeries(core, to: &json)
        json.key("calendar"); json.string(place.name)
        json.key("source"); json.string(place.source)
        json.endObject()
    }

    private func writeSeries(_ core: ItemCore, to json: inout JSONWriter) {
        json.key("rules"); json.beginArray()
        for (rule, words) in zip(core.recurrenceRules, ruleText(core)) {
            json.beginObject()
            json.key("rrule"); json.string(rule.icsValue)
            json.key("text"); json.string(words)
            json.endObject()
        }
        json.endArray()
        json.key("exceptions"); json.beginArray()
        for date in core.exceptionDates { json.string(text(date)) }
        json.endArray()
        json.key("next"); json.beginArray()
        for occurrence in upcoming { json.string(text(occurrence)) }
        json.endArray()
        json.key("overrides"); json.beginArray()
        for override in overrides {
            guard let changed = override.core, let id = changed.recurrenceID else { continue }
            json.beginObject()
            json.key("recurrence_id"); json.string(text(id.date))
            json.key("start"); json.string(changed.start.map(text))
            json.key("summary"); json.string(changed.summary)
            json.key("status"); json.string(changed.status?.rawValue)
            json.endObject()
        }
        json.endArray()
    }

    private func person(_ user: CalendarUser, to json: inout JSONWriter) {
        json.beginObject()
        json.key("name"); json.string(user.commonName)
        json.key("address"); json.string(user.email ?? user.address)
        json.key("role"); json.string(user.role)
        json.key("status"); json.string(user.participationStatus)
        json.endObject()
    }
}

extension CalendarComponent {
    /// `event`, `todo`, `journal`.
    var kindName: String {
        switch self {
        case .event: return "event"
        case .todo: return "todo"
        case .journal: return "journal"
        default: return "item"
        }
    }
}
