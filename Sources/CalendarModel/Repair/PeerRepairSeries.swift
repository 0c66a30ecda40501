import Foundation

extension ICalendar {
    /// Several RRULEs in one item, which servers and most readers take one of: one series a rule, the instances
    /// unchanged (`SeriesRewrite.rulesForOutlook`, as `--for outlook` splits them), each split reported.
    static func oneRulePerSeries(_ components: [Component], _ log: inout DiagnosticLog) -> [Component] {
        guard components.contains(where: { $0.properties(named: "RRULE").count > 1 }) else { return components }
        var rewrite = SeriesRewrite(
            zones: components.filter { $0.name == "VTIMEZONE" }, log: DiagnosticLog(file: log.file))
        var result: [Component] = []
        for group in AppAdaptation.series(components) {
            guard let master = group.first, master.property("RECURRENCE-ID") == nil,
                let split = rewrite.rulesForOutlook(master, overrides: Array(group.dropFirst()), forOutlook: false)
            else {
                result += group
                continue
            }
            result += split
        }
        log.append(rewrite.log)
        return result
    }

    /// Changed instances (RECURRENCE-ID) whose series the calendar does not hold, as an invitation to one instance
    /// or an export of a few instances writes them: readers show each at its own time, but servers refuse a
    /// resource without its series (Radicale: "Main component missing"). The repair adds the series they belong
    /// to and nothing more: the instances' RECURRENCE-IDs as its start and RDATEs, every one of them overridden by
    /// the instance as written, so every reader shows the same instances; a reader that ignores overrides shows the
    /// series at the instances' original times. The series is the first instance's copy without RECURRENCE-ID,
    /// rule, dates and exceptions, its length kept as a DURATION. Left as they are (and said) when the
    /// RECURRENCE-IDs mix dates and date-times, which one series cannot hold. Each series added is reported.
    static func seriesForLoneOverrides(_ components: [Component], _ log: inout DiagnosticLog) -> [Component] {
        var groups: [String: [Int]] = [:]
        var order: [String] = []
        for (index, component) in components.enumerated() {
            guard ItemKind(rawValue: component.name) != nil,
                let uid = component.property("UID")?.value
            else { continue }
            let key = component.name + "\u{1F}" + uid
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(index)
        }
        var added: [Int: Component] = [:]
        for key in order {
            guard let indices = groups[key],
                indices.allSatisfy({ components[$0].property("RECURRENCE-ID") != nil })
            else { continue }
            let overrides = indices.map { components[$0] }
            guard let made = series(of: overrides, &log) else { continue }
            added[indices[0]] = made
        }
        guard !added.isEmpty else { return components }
        var result: [Component] = []
        for (index, component) in components.enumerated() {
            if let made = added[index] { result.append(made) }
            result.append(component)
        }
        return result
    }

    /// `components` with the series each UID of only changed instances belongs to, as `seriesForLoneOverrides`
    /// adds it: for writers of one resource per UID (sync), whose servers refuse such a resource.
    package static func withSeriesForLoneOverrides(_ components: [Component]) -> [Component] {
        var log = DiagnosticLog(file: nil)
        return seriesForLoneOverrides(components, &log)
    }

    /// The series whose instances are exactly these overrides' RECURRENCE-IDs; nil (with a warning) when they mix
    /// dates and date-times.
    private static func series(of overrides: [Component], _ log: inout DiagnosticLog) -> Component? {
        guard let template = overrides.first, let first = template.property("RECURRENCE-ID") else { return nil }
        let uid = template.property("UID")?.value ?? ""
        func isDate(_ property: Property) -> Bool { property["VALUE"]?.uppercased() == "DATE" }
        let ids = overrides.compactMap { $0.property("RECURRENCE-ID") }
        guard ids.allSatisfy({ isDate($0) == isDate(first) }) else {
            log.warning(
                template.line,
                "\(template.name) UID \(uid) has only changed instances (RECURRENCE-ID), no series, and they mix "
                    + "dates and date-times; left as they are (servers may refuse them)", code: "orphan-overrides-mixed"
            )
            return nil
        }
        func at(_ property: Property, as name: String) -> Property {
            var written = Property(
                name, parameters: property.parameters.filter { $0.name != "RANGE" }, value: property.value)
            written.line = property.line
            return written
        }
        // The length the first instance has, before its start is replaced.
        let startName = template.name == "VTODO" && template.property("DTSTART") == nil ? "DUE" : "DTSTART"
        let seconds = startName == "DUE" ? nil : length(of: template, end: template.name == "VTODO" ? "DUE" : "DTEND")
        var made = template
        made.properties.removeAll {
            ["RECURRENCE-ID", "RRULE", "EXRULE", "RDATE", "EXDATE", "DTEND", "DUE", "DURATION", startName]
                .contains($0.name)
        }
        made.properties.append(at(first, as: startName))
        if let seconds, seconds > 0 {
            let days = seconds % 86_400 == 0 ? seconds / 86_400 : 0
            let duration =
                isDate(first) || days > 0
                ? CalendarDuration(days: max(1, days))
                : CalendarDuration(hours: seconds / 3600, minutes: seconds / 60 % 60, seconds: seconds % 60)
            made.properties.append(Property("DURATION", value: duration.icsValue))
        }
        made.properties += ids.dropFirst().map { at($0, as: "RDATE") }
        log.warning(
            template.line,
            "repaired: \(template.name) UID \(uid) has only changed instances (\(ids.count) with RECURRENCE-ID) and "
                + "no series, which servers refuse; the series they belong to added (start and RDATEs at their "
                + "RECURRENCE-IDs, each overridden as written: the same instances)", code: "repair-orphan-overrides")
        return made
    }
}
