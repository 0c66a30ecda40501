import Foundation

extension ICalendar {
    /// The calendar as strict readers and servers accept it (`icskit convert --repair`), wherever its meaning can
    /// be kept, with a warning for each change: a missing UID gets the stable one derived from the item's content,
    /// a missing DTSTAMP one derived from LAST-MODIFIED or CREATED (else the epoch, so the output stays the same
    /// from run to run); date values get `VALUE=DATE`; a DTEND before its DTSTART is swapped with it (as readers
    /// read it), one equal to it becomes a day after a date and is dropped from a date-time (an instant); RDATE
    /// PERIOD values, which many readers cannot read, become DATE-TIME values, with an override carrying the
    /// period's length where it differs from the series'. VERSION and PRODID are added when missing. An item
    /// nothing can place in time (a DTSTART or RECURRENCE-ID that is no date, a VEVENT without DTSTART) is left out
    /// of the result, with a warning; other values that do not parse are replaced or left out as
    /// `droppingUnreadable` says. What ICSKit reads past goes (a repeated DTSTART, a DURATION beside DTEND, a copy
    /// or older version of an item, a DTSTAMP in an observance, a component without a name), two items that share a
    /// UID and a version are told apart, changed instances without their series get it (`seriesForLoneOverrides`),
    /// and a TZID nothing defines is written as the floating time ICSKit reads.
    /// Texts, titles and series are written in the form RFC 5545 wants where readers agree on what they mean
    /// (`escapingTexts`, `oneLineSummary`, `synchronizingStart` and the others beside them).
    public func repairedForPeers(file: String? = nil) -> (calendar: ICalendar, diagnostics: [Diagnostic]) {
        var log = DiagnosticLog(file: file)
        var root = encoded()
        Self.oneHeaderOfEach(&root, &log)
        if root.property("VERSION") == nil { root.properties.insert(Property("VERSION", value: "2.0"), at: 0) }
        if root.property("PRODID") == nil {
            root.properties.insert(Property("PRODID", value: ICS.productID), at: 1)
            log.warning(root.line, "repaired: VCALENDAR had no PRODID; added", code: "repair-added-prodid")
        }
        Self.cleaningNames(&root, &log)
        Self.droppingEmptyValues(&root, &log)
        Self.repairingParameters(&root, inZone: false, &log)
        Self.imagesAsDataURIs(&root, &log)
        // Zones first, and the TZIDs none of them defines made floating, so that the items' repairs see the forms
        // their times end up in (a second run then finds nothing more to do).
        root.components = root.components.compactMap { child in
            child.name == "VTIMEZONE" ? Self.repairedZone(child, &log) : child
        }
        Self.floatingUnknownZones(&root, &log)
        var children: [Component] = []
        for child in root.components {
            if child.name == "VTIMEZONE" {
                children.append(child)
                continue
            }
            guard ItemKind(rawValue: child.name) != nil else {
                if let other = Self.repairedOther(child, &log) { children.append(other) }
                continue
            }
            if let reason = Self.unplaceable(child) {
                let summary = child.property("SUMMARY").map { " \"\(TextEscaping.unescape($0.value))\"" } ?? ""
                log.warning(
                    child.line, "repaired: \(child.name)\(summary) \(reason); left out, nothing can place it",
                    code: "repair-unplaceable-item")
                continue
            }
            children += Self.repaired(child, &log)
        }
        let separated = Self.seriesForLoneOverrides(Self.separatingDuplicates(children, &log), &log)
        root.components = Self.oneRulePerSeries(Self.gregorianRules(separated, &log), &log)
        Self.floatingUnknownZones(&root, &log)
        Self.sayingWhenNoItems(root, &log)
        let reread = ICS.read(ICS.write(components: [root]), file: file)
        return (reread.calendars.first ?? self, log.sortedByLine)
    }

    /// A calendar of only VFREEBUSY, VPOLL or VAVAILABILITY components is valid iCalendar, kept as it is; but a CalDAV
    /// calendar collection takes only events, todos and journals (RFC 4791 §4.1), so servers refuse it as a
    /// resource. Said, with what ICSKit does with such components.
    private static func sayingWhenNoItems(_ root: Component, _ log: inout DiagnosticLog) {
        let names = Set(root.components.map(\.name)).subtracting(["VTIMEZONE"])
        guard !names.isEmpty, names.allSatisfy({ ItemKind(rawValue: $0) == nil }) else { return }
        log.warning(
            root.line,
            "repaired: the calendar holds no event, todo or journal, only \(names.sorted().joined(separator: ", ")), "
                + "which a CalDAV server refuses in a calendar collection (RFC 4791 §4.1); kept as it is (`icskit "
                + "import` keeps such components with the calendar, `sync` sends none of them)",
            code: "repair-no-items")
    }

    /// A component that is no item and no VTIMEZONE (VFREEBUSY, VAVAILABILITY, X- and unknown ones), with what is
    /// in it: values that do not parse as their property's type are replaced or left out as in items
    /// (`droppingUnreadable`); nil, with a warning, for a component without a name (`BEGIN:` alone), which no
    /// reader can take.
    private static func repairedOther(_ component: Component, _ log: inout DiagnosticLog) -> Component? {
        guard !component.name.trimmingCharacters(in: .whitespaces).isEmpty else {
            log.warning(
                component.line, "repaired: a component without a name (BEGIN: alone); left out with its content",
                code: "repair-unnamed-component")
            return nil
        }
        var component = component
        droppingUnreadable(&component, &log)
        // RFC 5545 §3.6.4 and RFC 7953 ask for a DTSTAMP in these as in items.
        if ["VFREEBUSY", "VAVAILABILITY", "AVAILABLE"].contains(component.name), component.property("DTSTAMP") == nil {
            let stamp = stamp(for: component)
            component.properties.insert(Property("DTSTAMP", value: stamp), at: 0)
            log.warning(
                component.line, "repaired: \(component.name) had no DTSTAMP; added \(stamp)",
                code: "repair-added-dtstamp")
        }
        return component
    }

    /// What strict readers refuse for want of a value: a parameter with no `=` and no value (vCard's
    /// `TEL;WORK;VOICE:…`, `DTSTART;SOMETHING;VALUE=DATE:…`) is left out; so is a property whose value is empty
    /// where its type needs one (`PRIORITY:`, `GEO:;`, `URL:`; a DTSTAMP gets one instead, below; text may be
    /// empty). Each change is reported; nested components too.
    static func droppingEmptyValues(_ component: inout Component, _ log: inout DiagnosticLog) {
        var kept: [Property] = []
        for property in component.properties {
            var property = property
            let bare = property.parameters.filter { $0.values.isEmpty }
            if !bare.isEmpty {
                log.warning(
                    property.line,
                    "repaired: \(property.name)'s parameters without a value (\(bare.map(\.name).joined(separator: ", "))) "
                        + "left out", code: "repair-bare-parameter")
                let line = property.line
                property.parameters.removeAll { $0.values.isEmpty }
                property.line = line
            }
            let type = PropertyDesign.valueType(of: property)
            let empty = property.value.allSatisfy { $0 == ";" || $0 == "," || $0 == " " }
            if empty, ![.text, .unknown].contains(type), property.name != "DTSTAMP" {
                log.warning(
                    property.line,
                    "repaired: \(property.name) has no value (\"\(property.value)\"), which its type needs; left out",
                    code: "repair-empty-value")
                continue
            }
            kept.append(property)
        }
        component.properties = kept
        for index in component.components.indices { droppingEmptyValues(&component.components[index], &log) }
    }

    /// Lines whose property name is not a name (letters, digits and `-`), which strict readers refuse: one after a
    /// text property is a line of that text someone wrote without escaping the line break (as ICSKit reads a line
    /// without a colon), so it joins the text; any other is left out. Parameters without a valid name are left
    /// out. Each change is reported; nested components too.
    private static func cleaningNames(_ component: inout Component, _ log: inout DiagnosticLog) {
        let textual: Set<String> = ["DESCRIPTION", "SUMMARY", "LOCATION", "COMMENT", "CONTACT", "X-ALT-DESC"]
        var kept: [Property] = []
        for property in component.properties {
            var property = property
            if !ContentLineScanner.isValidName(property.name), let renamed = validName(property.name) {
                let (line, old) = (property.line, property.name)
                property.name = renamed
                property.line = line
                log.warning(
                    line, "repaired: property name \(old) written as \(renamed), a name strict readers take",
                    code: "repair-property-name")
            }
            if !ContentLineScanner.isValidName(property.name) {
                if let last = kept.last, textual.contains(last.name) {
                    kept[kept.count - 1].value +=
                        "\\n" + TextEscaping.escape(TextEscaping.unescape(property.contentLine))
                    log.warning(
                        property.line,
                        "repaired: a line that is no property follows \(last.name): read as a further line of its text",
                        code: "repair-joined-line")
                } else {
                    log.warning(
                        property.line, "repaired: \"\(property.name)\" is no property name; the line is left out",
                        code: "repair-bad-property-name")
                }
                continue
            }
            let invalid = property.parameters.filter { !ContentLineScanner.isValidName($0.name) }
            if !invalid.isEmpty {
                let line = property.line
                property.parameters.removeAll { !ContentLineScanner.isValidName($0.name) }
                property.line = line
                log.warning(
                    line,
                    "repaired: \(property.name) has parameters without a valid name ("
                        + invalid.map { "\"\($0.name)\"" }.joined(separator: ", ") + "); left out",
                    code: "repair-bad-parameter-name")
            }
            kept.append(property)
        }
        component.properties = kept
        for index in component.components.indices { cleaningNames(&component.components[index], &log) }
    }

    /// An X- name for a name other writers use but RFC 5545 does not allow (`X-LOTUS-CHILD_UID` →
    /// `X-LOTUS-CHILD-UID`): each other character a `-`, `X-` in front when it lacks one; nil for what is no name.
    private static func validName(_ name: String) -> String? {
        var bytes = Array(name.utf8)
        guard bytes.withUnsafeBufferPointer(ContentLineScanner.isLenientName) else { return nil }
        for index in bytes.indices
        where !ContentLineScanner.isValidName(String(decoding: [bytes[index]], as: UTF8.self)) {
            bytes[index] = UInt8(ascii: "-")
        }
        let renamed = String(decoding: bytes, as: UTF8.self).uppercased()
        return renamed.hasPrefix("X-") ? renamed : "X-" + renamed
    }

    /// Why nothing can place an item in time, if so: a DTSTART (or a todo's DUE) that is no date, or a VEVENT with
    /// no DTSTART at all (RFC 5545 requires one outside iTIP).
    private static func unplaceable(_ item: Component) -> String? {
        for name in ["DTSTART", "DUE"] {
            if let property = item.property(name), !isReadableDate(property.value, tzid: property["TZID"]) {
                return "has a \(name) that is no date (\"\(property.value)\")"
            }
        }
        if item.name == "VEVENT", item.property("DTSTART") == nil { return "has no DTSTART" }
        if let property = item.property("RECURRENCE-ID"), !isReadableDate(property.value, tzid: property["TZID"]) {
            return "has a RECURRENCE-ID that is no date (\"\(property.value)\"), so no instance is its own"
        }
        return nil
    }

    /// Whether a DATE or DATE-TIME reads as one for strict readers too (year 0 parses here, but not in Python or
    /// Java readers).
    static func isReadableDate(_ text: String, tzid: String?) -> Bool {
        ((try? CalendarDate.parse(text, tzid: tzid).get())?.year ?? 0) >= 1
    }

    /// The DTSTAMP an item without a readable one gets: its LAST-MODIFIED or CREATED when one is a UTC time, else
    /// the epoch, so the output is the same from run to run.
    private static func stamp(for item: Component) -> String {
        [item.property("LAST-MODIFIED"), item.property("CREATED")].compactMap { $0?.value }
            .first { $0.hasSuffix("Z") && $0.count == 16 && isReadableDate($0, tzid: nil) } ?? "19700101T000000Z"
    }

    /// Values that do not parse as their type, which make strict readers refuse the whole file: a DTSTAMP gets a
    /// readable one; CREATED, LAST-MODIFIED, DTEND, DUE and DURATION are left out (the item keeps its start); an
    /// RRULE keeps what can be read of it, or is left out when nothing can (the series is its first instance);
    /// EXDATE and RDATE keep the values that are dates; a VALARM's TRIGGER with its sign inside (`PT-2H`) is read
    /// as meant, and an alarm whose TRIGGER cannot be read is left out. Each change is reported.
    static func droppingUnreadable(_ item: inout Component, _ log: inout DiagnosticLog) {
        func isDate(_ text: String, _ property: Property) -> Bool { isReadableDate(text, tzid: property["TZID"]) }
        var kept: [Property] = []
        for property in item.properties {
            var property = property
            let line = property.line
            func repaired(_ message: String, code: String) { log.warning(line, "repaired: " + message, code: code) }
            switch property.name {
            case "DTSTAMP" where !isDate(property.value, property):
                let replacement = stamp(for: item)
                repaired(
                    "DTSTAMP \"\(property.value)\" is no date-time; written as \(replacement)",
                    code: "repair-bad-dtstamp")
                property = Property("DTSTAMP", value: replacement)
            case "DTSTART", "RECURRENCE-ID":
                // An item without a readable one is left out whole (`unplaceable`); elsewhere the line alone.
                guard ItemKind(rawValue: item.name) != nil || isDate(property.value, property) else {
                    repaired("\(property.name) \"\(property.value)\" is no date; left out", code: "repair-bad-date")
                    continue
                }
            case "TZOFFSETFROM", "TZOFFSETTO":
                guard let signed = signedOffset(property.value) else {
                    repaired(
                        "\(property.name) \"\(property.value)\" is no UTC offset; left out", code: "repair-bad-offset")
                    continue
                }
                if signed != property.value {
                    repaired(
                        "\(property.name) \(property.value) has no sign; written as \(signed)",
                        code: "repair-offset-sign")
                    property.value = signed
                }
            case "CREATED", "LAST-MODIFIED", "DTEND", "DUE":
                guard isDate(property.value, property) else {
                    repaired("\(property.name) \"\(property.value)\" is no date; left out", code: "repair-bad-date")
                    continue
                }
            case "DURATION" where (try? CalendarDuration.parse(property.value).get()) == nil:
                repaired("DURATION \"\(property.value)\" is no duration; left out", code: "repair-bad-duration")
                continue
            case "RRULE" where (try? RecurrenceRule.parse(property.value).get()) == nil:
                guard let recovered = recoveredRule(property, &log) else { continue }
                property = recovered
            case "EXDATE", "RDATE", "FREEBUSY":
                guard let readable = readableDates(property, &log) else { continue }
                property = readable
            default:
                break
            }
            property.line = line
            kept.append(property)
        }
        item.properties = kept
        item.components = item.components.compactMap { child in
            child.name == "VALARM" ? repairedAlarm(child, &log) : repairedOther(child, &log)
        }
    }

    /// An RRULE that does not parse as what can be read of it; nil (left out) when nothing can. Reported.
    private static func recoveredRule(_ property: Property, _ log: inout DiagnosticLog) -> Property? {
        guard let recovered = RecurrenceRule.recovering(property.value) else {
            log.warning(
                property.line,
                "repaired: RRULE \"\(property.value)\" cannot be read; left out (the series is its first instance)",
                code: "repair-bad-rrule")
            return nil
        }
        log.warning(
            property.line,
            "repaired: RRULE \"\(property.value)\" written as \(recovered.rule.icsValue), leaving out "
                + recovered.leftOut.map { "\"\($0)\"" }.joined(separator: ", "), code: "repair-rrule-parts")
        return Property("RRULE", value: recovered.rule.icsValue)
    }

    /// An EXDATE, RDATE or FREEBUSY with the values that are dates (periods, for PERIOD values and FREEBUSY); nil
    /// (left out) when none is. Reported when any is not.
    private static func readableDates(_ property: Property, _ log: inout DiagnosticLog) -> Property? {
        let values = ValueSyntax.split(property.value, on: ",")
        let readable = values.filter { value in
            property["VALUE"]?.uppercased() == "PERIOD" || property.name == "FREEBUSY"
                ? (try? Period.parse(value, tzid: property["TZID"]).get()) != nil
                : isReadableDate(value, tzid: property["TZID"])
        }
        guard readable.count < values.count else { return property }
        let unreadable = values.filter { !readable.contains($0) }.map { "\"\($0)\"" }
        log.warning(
            property.line,
            "repaired: \(property.name) values \(unreadable.joined(separator: ", ")) are no dates; left out",
            code: "repair-bad-date")
        guard !readable.isEmpty else { return nil }
        var kept = property
        kept.value = readable.joined(separator: ",")
        return kept
    }

    /// An alarm whose TRIGGER has its sign inside (`PT-2H`, Outlook and some Evolution versions: meant is -PT2H)
    /// written as meant; nil (left out, reported) for one whose TRIGGER cannot be read at all.
    private static func repairedAlarm(_ child: Component, _ log: inout DiagnosticLog) -> Component? {
        guard let index = child.properties.firstIndex(where: { $0.name == "TRIGGER" }) else { return child }
        var alarm = child
        let trigger = alarm.properties[index]
        if trigger["VALUE"]?.uppercased() == "DATE-TIME"
            ? isReadableDate(trigger.value, tzid: trigger["TZID"])
            : (try? CalendarDuration.parse(trigger.value).get()) != nil
        {
            return alarm
        }
        let moved = trigger.value.replacingOccurrences(of: "-", with: "")
        if trigger.value.hasPrefix("P"), trigger.value.contains("-"),
            (try? CalendarDuration.parse("-" + moved).get()) != nil
        {
            alarm.properties[index].value = "-" + moved
            log.warning(
                trigger.line, "repaired: TRIGGER \(trigger.value) has its sign inside; written as -\(moved)",
                code: "repair-trigger-sign")
            return alarm
        }
        log.warning(
            child.line, "repaired: a VALARM whose TRIGGER \"\(trigger.value)\" cannot be read; left out",
            code: "repair-bad-trigger")
        return nil
    }

    /// An item without a UID, or with an empty one (which is none), gets one derived from its content. Reported.
    private static func ensuringUID(_ item: inout Component, _ log: inout DiagnosticLog) {
        let hadEmptyUID = item.properties.contains { $0.name == "UID" && $0.value.allSatisfy(\.isWhitespace) }
        if hadEmptyUID { item.properties.removeAll { $0.name == "UID" && $0.value.allSatisfy(\.isWhitespace) } }
        guard item.property("UID") == nil else { return }
        let uid = item.derivedUID
        item.properties.insert(Property("UID", value: uid), at: 0)
        log.warning(
            item.line,
            "repaired: \(item.name) had \(hadEmptyUID ? "an empty UID; set to" : "no UID; added") \(uid), derived "
                + "from its content", code: "repair-added-uid")
    }

    /// One item, repaired; a series whose RDATE PERIODs need overrides comes back with them.
    private static func repaired(_ item: Component, _ log: inout DiagnosticLog) -> [Component] {
        var item = item
        let line = item.line
        ensuringUID(&item, &log)
        droppingUnreadable(&item, &log)
        utcStamps(&item, &log)
        keepingOneOfEach(&item, &log)
        if item.property("DTSTAMP") == nil {
            let stamp = stamp(for: item)
            item.properties.insert(Property("DTSTAMP", value: stamp), at: 1)
            log.warning(line, "repaired: \(item.name) had no DTSTAMP; added \(stamp)", code: "repair-added-dtstamp")
        }
        for index in item.properties.indices {
            let property = item.properties[index]
            let dates = ValueSyntax.split(property.value, on: ",")
            guard ["DTSTART", "DTEND", "DUE", "RECURRENCE-ID", "EXDATE", "RDATE"].contains(property.name),
                // `VALUE=DATE` says all-day, whatever TZID stands beside it (which readers weigh differently).
                [nil, "DATE-TIME"].contains(property["VALUE"]?.uppercased()),
                dates.allSatisfy({ $0.count == 8 && Int($0) != nil })
            else { continue }
            if property["TZID"] != nil {
                // A date where a DATE-TIME is declared, with a zone: read as midnight in that zone (as python
                // icalendar reads it), and written so.
                let midnights = dates.map { $0 + "T000000" }.joined(separator: ",")
                item.properties[index].setParameter("VALUE", nil)
                item.properties[index].value = midnights
                log.warning(
                    property.line,
                    "repaired: \(property.name) \(property.value) is a date with a TZID, read as midnight in that "
                        + "zone; written as \(midnights)", code: "repair-date-with-tzid")
            } else {
                item.properties[index].setParameter("VALUE", "DATE")
                log.warning(
                    property.line,
                    property["VALUE"] == nil
                        ? "repaired: \(property.name) holds a date without VALUE=DATE; added"
                        : "repaired: \(property.name) holds a date but says VALUE=DATE-TIME; written VALUE=DATE",
                    code: "repair-date-value-type")
            }
        }
        // PERIOD values first: the dates they become, and the overrides they make, are mended as the rest are (a
        // second run then finds nothing more to do).
        return splittingPeriods(item, &log).map { part in
            var item = part
            matchEndToStart(&item, &log)
            matchExceptionsToStart(&item, &log)
            matchDatesToStart(&item, &log)
            matchUntilToStart(&item, &log)
            repairEnd(&item, &log)
            escapingTexts(&item, &log)
            oneLineSummary(&item, &log)
            durationInDays(&item, &log)
            synchronizingStart(&item, &log)
            excludedStart(&item, &log)
            droppingIdleExceptions(&item, &log)
            imagesAsDataURIs(&item, &log)
            return item
        }
    }

    /// One of each property an item may hold once (`PropertyDesign.singular`): repeats after the first, which
    /// ICSKit and readers use, are kept as X- properties (`X-LOCATION`); a DURATION beside a DTEND (a VEVENT) or a
    /// DUE (a VTODO), which RFC 5545 forbids and which ICSKit reads past as well, is left out.
    private static func keepingOneOfEach(_ item: inout Component, _ log: inout DiagnosticLog) {
        var seen: Set<String> = []
        let end = item.name == "VTODO" ? "DUE" : "DTEND"
        let hasEnd = item.property(end) != nil
        item.properties = item.properties.compactMap { property in
            if property.name == "DURATION", hasEnd, item.name != "VJOURNAL" {
                log.warning(
                    property.line,
                    "repaired: \(item.name) has both \(end) and DURATION; DURATION \(property.value) left out, "
                        + "\(end) is used", code: "repair-end-and-duration")
                return nil
            }
            let once =
                PropertyDesign.singular.contains(property.name)
                || (Self.onceInItems.contains(property.name)
                    && !(item.name == "VJOURNAL" && property.name == "DESCRIPTION"))
            guard once, !seen.insert(property.name).inserted else { return property }
            // Kept, as an X- property no reader takes for the first (two LOCATIONs: the second is still there).
            var kept = property
            kept.name = "X-" + property.name
            kept.line = property.line
            log.warning(
                property.line,
                "repaired: a second \(property.name) (\(property.value)); kept as \(kept.name), the first is used",
                code: "repair-repeated-property")
            return kept
        }
    }

    /// Properties RFC 5545 §3.6.1–3.6.3 (and RFC 7986's COLOR) allow once in an event, todo or journal, beside
    /// `PropertyDesign.singular` (a journal may hold several DESCRIPTIONs).
    static let onceInItems: Set<String> = [
        "CLASS", "CREATED", "DESCRIPTION", "GEO", "LAST-MODIFIED", "LOCATION", "ORGANIZER", "PRIORITY", "STATUS",
        "SUMMARY", "TRANSP", "URL", "PERCENT-COMPLETE", "COLOR",
    ]

    /// A raw item's version (`Revision`) from its SEQUENCE and DTSTAMP as written.
    private static func revision(of item: Component) -> Revision {
        let stamp = item.property("DTSTAMP").flatMap { try? CalendarDate.parse($0.value, tzid: nil).get() }
        return Revision(
            sequence: item.property("SEQUENCE").flatMap { IntegerBounds.clamped($0.value) } ?? 0,
            stamp: stamp.map { LocalDateTime($0).wallSeconds })
    }

    /// The item with its UID line's value replaced, on the same line.
    private static func withUID(_ uid: String, _ item: Component) -> Component {
        var renamed = item
        if let at = renamed.properties.firstIndex(where: { $0.name == "UID" }) {
            let line = renamed.properties[at].line
            renamed.properties[at] = Property("UID", value: uid)
            renamed.properties[at].line = line
        }
        return renamed
    }

    /// Items with the same UID and RECURRENCE-ID, which strict readers and servers take once: a copy of another
    /// is left out; an older version (`Revision`) is left out for the newer one, as
    /// `icskit import` keeps it; a different item of the same version (an exporter that gave two events one UID)
    /// keeps its content under a UID derived from it. Each change is reported.
    private static func separatingDuplicates(_ components: [Component], _ log: inout DiagnosticLog) -> [Component] {
        func itemKey(_ item: Component) -> String? {
            guard ItemKind(rawValue: item.name) != nil, let uid = item.property("UID")?.value else {
                return nil
            }
            return uid + "\u{1F}" + (item.property("RECURRENCE-ID")?.value ?? "")
        }
        func text(_ item: Component) -> String { String(decoding: ICS.write(components: [item]), as: UTF8.self) }
        var first: [String: Int] = [:]
        var result: [Component?] = []
        for component in components {
            guard let key = itemKey(component) else {
                result.append(component)
                continue
            }
            guard let index = first[key], let kept = result[index] else {
                first[key] = result.count
                result.append(component)
                continue
            }
            let uid = component.property("UID")?.value ?? ""
            if text(kept) == text(component) {
                log.warning(
                    component.line, "repaired: a copy of the \(kept.name) at line \(kept.line) (UID \(uid)); left out",
                    code: "repair-duplicate-item")
            } else if revision(of: component) != revision(of: kept) {
                let (newer, older) =
                    revision(of: component) > revision(of: kept) ? (component, kept) : (kept, component)
                log.warning(
                    older.line,
                    "repaired: \(older.name) UID \(uid) has a newer version at line \(newer.line) (a higher SEQUENCE "
                        + "or a later DTSTAMP); this one left out", code: "repair-older-version")
                result[index] = newer
            } else {
                let derived = component.derivedUID
                let renamed = withUID(derived, component)
                // A copy of an item already told apart has the same content, so the same derived UID.
                if let renamedKey = itemKey(renamed), let copied = first[renamedKey].flatMap({ result[$0] }) {
                    log.warning(
                        component.line,
                        "repaired: a copy of the \(copied.name) at line \(copied.line) (UID \(uid)); left out",
                        code: "repair-duplicate-item")
                    continue
                }
                log.warning(
                    component.line,
                    "repaired: \(component.name) UID \(uid) is also the UID of another item (line \(kept.line)) of "
                        + "the same version; this one written with UID \(derived), derived from its content",
                    code: "repair-duplicate-uid")
                if let renamedKey = itemKey(renamed) { first[renamedKey] = result.count }
                result.append(renamed)
            }
        }
        return result.compactMap { $0 }
    }

}
