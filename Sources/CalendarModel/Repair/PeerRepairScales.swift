import Foundation

/// RRULEs with RSCALE or SKIP (RFC 7529), which khal, Radicale, recurring-ical-events and calcurse refuse, written in
/// RFC 5545's terms with the instances ICSKit reads.
extension ICalendar {
    /// The most instances one rule is written as (a daily rule in another calendar scale, ten years of it, is more).
    static let scaleRDateLimit = 1_000

    /// Whether an RRULE value has an RFC 7529 part.
    static func hasScale(_ rule: String) -> Bool {
        ValueSyntax.split(rule, on: ";").contains { part in
            let name = part.split(separator: "=", maxSplits: 1).first.map { $0.uppercased() }
            return name == "RSCALE" || name == "SKIP"
        }
    }

    /// Each RRULE with RSCALE or SKIP: without them when the rule gives the same instances so (a Gregorian rule
    /// whose SKIP never comes into play, checked up to the span below), else as RDATEs in DTSTART's form for the span
    /// from DTSTART to the end of the tenth year after this one (at most `scaleRDateLimit` of them), so that readers
    /// without RFC 7529 show the same instances inside that span; the warning names it. EXDATEs and overrides stay.
    static func gregorianRules(_ components: [Component], _ log: inout DiagnosticLog) -> [Component] {
        guard components.contains(where: { $0.properties(named: "RRULE").contains { hasScale($0.value) } }) else {
            return components
        }
        let rewrite = SeriesRewrite(
            zones: components.filter { $0.name == "VTIMEZONE" }, log: DiagnosticLog(file: log.file))
        var gregorian = Calendar(identifier: .gregorian)
        gregorian.timeZone = TimeZone(identifier: "UTC") ?? gregorian.timeZone
        let thisYear = gregorian.component(.year, from: Date())
        let horizon = gregorian.date(from: DateComponents(year: thisYear + 11, month: 1, day: 1)) ?? Date()
        return components.map { component in
            guard ItemKind(rawValue: component.name) != nil, component.property("RECURRENCE-ID") == nil,
                let start = component.property("DTSTART"),
                let startKey = SeriesRewrite.key(start.value, tzid: start["TZID"])
            else { return component }
            var item = component
            for index in item.properties.indices.reversed() {
                let rule = item.properties[index]
                guard rule.name == "RRULE", hasScale(rule.value) else { continue }
                let scope = ScaleScope(rewrite: rewrite, horizon: horizon, start: start, startKey: startKey)
                if let written = withoutScale(rule, of: item, scope, &log) {
                    item.properties[index] = written
                } else {
                    item.properties.remove(at: index)
                }
            }
            return item
        }
    }

    /// What a rule with RFC 7529's parts is written against: the series' start and the span's end.
    private struct ScaleScope {
        var rewrite: SeriesRewrite
        var horizon: Date
        var start: Property
        var startKey: Int64
    }

    /// One RRULE with RSCALE or SKIP of `item` as `gregorianRules` writes it: the rule without them, its RDATEs, or
    /// nil (left out: no instance in the span); each said.
    private static func withoutScale(
        _ rule: Property, of item: Component, _ scope: ScaleScope, _ log: inout DiagnosticLog
    )
        -> Property?
    {
        func instants(_ value: String) -> [Int64] {
            let lone = Component(
                item.name,
                properties: item.properties.filter { ["UID", "DTSTART"].contains($0.name) }
                    + [Property("RRULE", value: value)])
            return scope.rewrite.instants(of: lone, until: scope.horizon)
        }
        let plain = ValueSyntax.split(rule.value, on: ";").filter { !hasScale($0) }.joined(separator: ";")
        let scaled = instants(rule.value)
        let isGregorian = ValueSyntax.split(rule.value, on: ";").allSatisfy {
            !$0.uppercased().hasPrefix("RSCALE=") || $0.uppercased() == "RSCALE=GREGORIAN"
        }
        if isGregorian, instants(plain) == scaled {
            log.warning(
                rule.line,
                "repaired: RRULE \(rule.value) is Gregorian and gives the same instances without RFC 7529's "
                    + "RSCALE and SKIP, which most readers cannot read; written as \(plain)",
                code: "repair-rscale-gregorian")
            var written = rule
            written.value = plain
            return written
        }
        let start = scope.start
        let written = Array(scaled.filter { $0 != scope.startKey }.prefix(scaleRDateLimit))
        guard let last = written.last else {
            let year = Calendar(identifier: .gregorian).dateComponents(in: .gmt, from: scope.horizon).year ?? 0
            log.warning(
                rule.line,
                "repaired: RRULE \(rule.value) (RFC 7529) gives no instance after DTSTART before \(year); left out",
                code: "repair-rscale-rdates")
            return nil
        }
        var dates = Property(
            "RDATE", parameters: start.parameters.filter { ["TZID", "VALUE"].contains($0.name) },
            value: written.compactMap { scope.rewrite.startText($0, start) }.joined(separator: ","))
        dates.line = rule.line
        let until = scope.rewrite.startText(last, start) ?? ""
        let complete = scaled.count <= scaleRDateLimit && endsBefore(rule.value, scope.horizon, count: scaled.count)
        log.warning(
            rule.line,
            "repaired: RRULE \(rule.value) uses RFC 7529 (RSCALE or SKIP), which most readers cannot read; "
                + "written as \(written.count) RDATEs, its instances from \(start.value) to \(until)"
                + (complete ? " (all of them)" : "; readers show none after that"),
            code: "repair-rscale-rdates")
        return dates
    }

    /// Whether a rule's instances all come before `horizon`: its COUNT is `count`, or its UNTIL is before it.
    private static func endsBefore(_ rule: String, _ horizon: Date, count: Int) -> Bool {
        for part in ValueSyntax.split(rule, on: ";") {
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2 else { continue }
            if pair[0].uppercased() == "COUNT" { return Int(pair[1]) == count }
            if pair[0].uppercased() == "UNTIL", let until = SeriesRewrite.key(pair[1], tzid: nil) {
                return until < Int64(horizon.timeIntervalSince1970)
            }
        }
        return false
    }
}
