import Foundation

/// The calendar apps whose import rules ICSKit knows (`validate --for`, `convert --for`, `export --for`). Each reads
/// valid RFC 5545 in its own way and drops or misreads parts of it without a word; docs/APPS.md lists every rule,
/// its source and what ICSKit does about it.
package enum TargetApp: String, CaseIterable, Sendable {
    case outlook, google, apple

    /// The app as people name it.
    package var name: String {
        switch self {
        case .outlook: return "Outlook"
        case .google: return "Google Calendar"
        case .apple: return "Apple Calendar"
        }
    }
}

/// An item of a calendar under the rules: its component, and the master's DTSTART for its series.
struct RuleItem {
    var component: Component
    var masterStart: Property?

    var name: String { component.name }
    var line: Int { component.line }
    func values(_ name: String) -> [Property] { component.properties(named: name) }
}

extension ICalendar {
    /// What `app` would drop, refuse or show differently in this calendar, one diagnostic a finding, each naming
    /// the app and what it does (`outlook-…`, `google-…` and, for every app, `app-…` codes).
    package func findings(for app: TargetApp, file: String?) -> [Diagnostic] {
        var log = DiagnosticLog(file: file)
        let root = encoded()
        let items = Self.ruleItems(root)
        AppRule.checkAll(root: root, items: items, app: app, &log)
        switch app {
        case .outlook: AppRule.checkOutlook(root: root, items: items, &log)
        case .google: AppRule.checkGoogle(root: root, items: items, &log)
        case .apple: break
        }
        return log.sortedByLine
    }

    /// The events, todos and journals of a calendar with the DTSTART of their series' master.
    static func ruleItems(_ root: Component) -> [RuleItem] {
        let items = root.components.filter { ItemKind(rawValue: $0.name) != nil }
        var masters: [String: Property] = [:]
        for item in items where item.property("RECURRENCE-ID") == nil {
            if let uid = item.property("UID")?.value, let start = item.property("DTSTART") { masters[uid] = start }
        }
        return items.map { RuleItem(component: $0, masterStart: $0.property("UID").flatMap { masters[$0.value] }) }
    }
}

/// The rules, each with its source; `validate --for` reports them, `AppAdaptation` removes them.
enum AppRule {
    /// Rules every app shares.
    static func checkAll(root: Component, items: [RuleItem], app: TargetApp, _ log: inout DiagnosticLog) {
        // RFC 5546 §1.4, §3.2: a file for import or subscription publishes (METHOD:PUBLISH or none); a REQUEST is an
        // invitation and needs its ORGANIZER and recipients, and other methods are answers to one.
        if let method = root.property("METHOD") {
            let value = method.value.uppercased()
            if value != "PUBLISH", !isInvitation(method: value, items.map(\.component)) {
                log.error(
                    method.line,
                    "\(app.name) reads a file with METHOD:\(value) as an iTIP message, not a calendar to import "
                        + "(a file to import says METHOD:PUBLISH or none)", code: "app-method")
            }
        }
        for item in items {
            checkUntil(item, app: app, &log)
            checkRecurrenceID(item, app: app, &log)
        }
        // Feeds: RFC 7986 NAME and REFRESH-INTERVAL beside what Google and Apple read (X-WR-CALNAME,
        // X-PUBLISHED-TTL), so that every app names the calendar and refreshes it alike.
        for (standard, other) in [("NAME", "X-WR-CALNAME"), ("REFRESH-INTERVAL", "X-PUBLISHED-TTL")] {
            let has = (root.property(standard) != nil, root.property(other) != nil)
            guard has.0 != has.1 else { continue }
            let present = has.0 ? standard : other
            log.warning(
                root.property(present)?.line ?? root.line,
                "the calendar has \(present) without \(has.0 ? other : standard); apps that read only the other "
                    + "do not see it", code: "app-feed-properties")
        }
    }

    /// A METHOD:REQUEST whose items all name their ORGANIZER and ATTENDEEs: an invitation, not a file to import.
    static func isInvitation(method: String, _ items: [Component]) -> Bool {
        method == "REQUEST" && items.allSatisfy { $0.property("ORGANIZER") != nil && $0.property("ATTENDEE") != nil }
    }

    /// Whether a RECURRENCE-ID has the value type and zone (TZID, or UTC) of the series' DTSTART.
    static func hasStartForm(_ id: Property, _ start: Property) -> Bool {
        (id.value.count == 8) == (start.value.count == 8) && id["TZID"] == start["TZID"]
            && id.value.hasSuffix("Z") == start.value.hasSuffix("Z")
    }

    /// RFC 5545 §3.3.10: UNTIL is a UTC time when DTSTART has a zone, and a DATE when DTSTART is one; Outlook and
    /// Google end such series elsewhere or drop the rule.
    private static func checkUntil(_ item: RuleItem, app: TargetApp, _ log: inout DiagnosticLog) {
        guard let start = item.component.property("DTSTART") else { return }
        let expected: (form: String, matches: (CalendarDate) -> Bool) =
            start.value.count == 8
            ? ("a DATE, as DTSTART is", { $0.isDate })
            : start["TZID"] != nil || start.value.hasSuffix("Z")
                ? ("a UTC time, as it must be beside a DTSTART with a zone", { $0.form == .utc })
                : ("a floating time, as DTSTART is", { $0.form == .floating })
        for rule in item.values("RRULE") {
            guard case .success(let parsed) = RecurrenceRule.parse(rule.value), let until = parsed.until,
                !expected.matches(until)
            else { continue }
            log.error(
                rule.line,
                "\(app.name) ends this series at another time: RRULE UNTIL \(until.icsValue) is not \(expected.form)",
                code: "app-until-form")
        }
    }

    /// RFC 5545 §3.8.4.4: RECURRENCE-ID has the value type and zone of the series' DTSTART; apps match a changed
    /// instance to nothing otherwise and show it twice.
    private static func checkRecurrenceID(_ item: RuleItem, app: TargetApp, _ log: inout DiagnosticLog) {
        guard let id = item.component.property("RECURRENCE-ID"), let start = item.masterStart,
            !hasStartForm(id, start)
        else { return }
        log.error(
            id.line,
            "\(app.name) matches no instance to this change: RECURRENCE-ID \(id.value) is not in the form of the "
                + "series' DTSTART (\(start.value)\(start["TZID"].map { ", \($0)" } ?? ""))",
            code: "app-recurrence-id-form")
    }
}
