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
        if root.property("VERSION") == nil { root.properties.insert(Property("VERSION", value: "2.0"), at: 0) }
        if root.property("PRODID") == nil {
            root.properties.insert(Property("PRODID", value: ICS.productID), at: 1)
            log.warning(root.line, "repaired: VCALENDAR had no PRODID; added")
        }
        Self.cleaningNames(&root, &log)
        Self.droppingEmptyValues(&root, &log)
        Self.imagesAsDataURIs(&root, &log)
        var children: [Component] = []
        for child in root.components {
            if child.name == "VTIMEZONE" {
                if let zone = Self.repairedZone(child, &log) { children.append(zone) }
                continue
            }
            guard ExpansionOptions.allItemKinds.contains(child.name) else {
                if let other = Self.repairedOther(child, &log) { children.append(other) }
                continue
            }
            if let reason = Self.unplaceable(child) {
                let summary = child.property("SUMMARY").map { " \"\(TextEscaping.unescape($0.value))\"" } ?? ""
                log.warning(child.line, "repaired: \(child.name)\(summary) \(reason); left out, nothing can place it")
                continue
            }
            children += Self.repaired(child, &log)
        }
        root.components = Self.seriesForLoneOverrides(Self.separatingDuplicates(children, &log), &log)
        Self.floatingUnknownZones(&root, &log)
        let reread = ICS.read(ICS.write(components: [root]), file: file)
        return (reread.calendars.first ?? self, log.sortedByLine)
    }

    /// A VTIMEZONE strict readers can read: an unsigned offset gets its `+` (as ICSKit reads it); an observance
    /// whose onset or offsets cannot be read is left out, and its RRULE keeps what can be read of it; a VTIMEZONE
    /// without a TZID or without an observance left is left out (times in it are then read as ICSKit reads a TZID
    /// it cannot resolve). Nil when it is left out.
    private static func repairedZone(_ zone: Component, _ log: inout DiagnosticLog) -> Component? {
        guard let tzid = zone.property("TZID")?.value, !tzid.trimmingCharacters(in: .whitespaces).isEmpty else {
            log.warning(zone.line, "repaired: a VTIMEZONE without a TZID; left out")
            return nil
        }
        var repaired = zone
        repaired.components = zone.components.compactMap { observance in
            guard ["STANDARD", "DAYLIGHT"].contains(observance.name) else { return observance }
            var observance = observance
            for name in ["TZOFFSETFROM", "TZOFFSETTO"] {
                guard let index = observance.properties.firstIndex(where: { $0.name == name }),
                    let fixed = signedOffset(observance.properties[index].value)
                else {
                    log.warning(
                        observance.line,
                        "repaired: \(tzid) \(observance.name) has no readable \(name); the observance is left out")
                    return nil
                }
                if fixed != observance.properties[index].value {
                    let line = observance.properties[index].line
                    observance.properties[index].value = fixed
                    observance.properties[index].line = line
                    log.warning(line, "repaired: \(name) \(fixed.dropFirst()) has no sign; written as \(fixed)")
                }
            }
            guard let start = observance.property("DTSTART"), isReadableDate(start.value, tzid: nil) else {
                log.warning(
                    observance.line, "repaired: \(tzid) \(observance.name) has no readable DTSTART; left out")
                return nil
            }
            droppingUnreadable(&observance, &log)
            cleaningObservance(&observance, tzid: tzid, &log)
            return observance
        }
        guard repaired.components.contains(where: { ["STANDARD", "DAYLIGHT"].contains($0.name) }) else {
            log.warning(zone.line, "repaired: VTIMEZONE \(tzid) has no readable observance; left out")
            return nil
        }
        return repaired
    }

    /// A UTC offset as strict readers read it: `+` added when it has no sign; nil when it is no offset.
    private static func signedOffset(_ text: String) -> String? {
        let digits = text.drop { $0 == "+" || $0 == "-" }
        guard [4, 6].contains(digits.count), digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
            text.count - digits.count <= 1
        else { return nil }
        return text.count == digits.count ? "+" + text : text
    }

    /// An observance as time zone readers (python-dateutil, vobject) take it: its DTSTART a local DATE-TIME
    /// without parameters (a DATE is its midnight, which is how ICSKit reads it), and none of the properties
    /// RFC 5545 defines for other components (a DTSTAMP, a UID), which mean nothing in an observance. X- and
    /// unregistered properties stay.
    private static func cleaningObservance(_ observance: inout Component, tzid: String, _ log: inout DiagnosticLog) {
        let belongs: Set<String> = [
            "DTSTART", "TZOFFSETFROM", "TZOFFSETTO", "TZNAME", "COMMENT", "RRULE", "RDATE", "EXDATE", "EXRULE",
        ]
        observance.properties = observance.properties.compactMap { property in
            var property = property
            let line = property.line
            let onlyDateTime = property.parameters.allSatisfy {
                $0.name == "VALUE" && $0.values.map { $0.uppercased() } == ["DATE-TIME"]
            }
            if property.name == "DTSTART", !onlyDateTime {
                let value = property.value.count == 8 ? property.value + "T000000" : property.value
                log.warning(
                    line,
                    "repaired: \(tzid) \(observance.name) \(property.contentLine.prefix(80)) is no local "
                        + "date-time; written as DTSTART:\(value)")
                property = Property("DTSTART", value: value)
                property.line = line
            } else if !belongs.contains(property.name), PropertyDesign.table[property.name] != nil {
                log.warning(
                    line, "repaired: \(property.name) has no place in \(tzid) \(observance.name); left out")
                return nil
            }
            return property
        }
    }

    /// A component that is no item and no VTIMEZONE (VFREEBUSY, VAVAILABILITY, X- and unknown ones), with what is
    /// in it: values that do not parse as their property's type are replaced or left out as in items
    /// (`droppingUnreadable`); nil, with a warning, for a component without a name (`BEGIN:` alone), which no
    /// reader can take.
    private static func repairedOther(_ component: Component, _ log: inout DiagnosticLog) -> Component? {
        guard !component.name.trimmingCharacters(in: .whitespaces).isEmpty else {
            log.warning(
                component.line, "repaired: a component without a name (BEGIN: alone); left out with its content")
            return nil
        }
        var component = component
        droppingUnreadable(&component, &log)
        // RFC 5545 §3.6.4 and RFC 7953 ask for a DTSTAMP in these as in items.
        if ["VFREEBUSY", "VAVAILABILITY", "AVAILABLE"].contains(component.name), component.property("DTSTAMP") == nil {
            let stamp = stamp(for: component)
            component.properties.insert(Property("DTSTAMP", value: stamp), at: 0)
            log.warning(component.line, "repaired: \(component.name) had no DTSTAMP; added \(stamp)")
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
                        + "left out")
                let line = property.line
                property.parameters.removeAll { $0.values.isEmpty }
                property.line = line
            }
            let type = PropertyDesign.valueType(of: property)
            let empty = property.value.allSatisfy { $0 == ";" || $0 == "," || $0 == " " }
            if empty, ![.text, .unknown].contains(type), property.name != "DTSTAMP" {
                log.warning(
                    property.line,
                    "repaired: \(property.name) has no value (\"\(property.value)\"), which its type needs; left out")
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
            if !ContentLineScanner.isValidName(property.name) {
                if let last = kept.last, textual.contains(last.name) {
                    kept[kept.count - 1].value += "\\n" + TextEscaping.escape(property.contentLine)
                    log.warning(
                        property.line,
                        "repaired: a line that is no property follows \(last.name): read as a further line of its text")
                } else {
                    log.warning(
                        property.line, "repaired: \"\(property.name)\" is no property name; the line is left out")
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
                        + invalid.map { "\"\($0.name)\"" }.joined(separator: ", ") + "); left out")
            }
            kept.append(property)
        }
        component.properties = kept
        for index in component.components.indices { cleaningNames(&component.components[index], &log) }
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
    private static func isReadableDate(_ text: String, tzid: String?) -> Bool {
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
    private static func droppingUnreadable(_ item: inout Component, _ log: inout DiagnosticLog) {
        func isDate(_ text: String, _ property: Property) -> Bool { isReadableDate(text, tzid: property["TZID"]) }
        var kept: [Property] = []
        for property in item.properties {
            var property = property
            let line = property.line
            switch property.name {
            case "DTSTAMP" where !isDate(property.value, property):
                let replacement = stamp(for: item)
                log.warning(line, "repaired: DTSTAMP \"\(property.value)\" is no date-time; written as \(replacement)")
                property = Property("DTSTAMP", value: replacement)
            case "DTSTART", "RECURRENCE-ID":
                // An item without a readable one is left out whole (`unplaceable`); elsewhere the line alone.
                guard ExpansionOptions.allItemKinds.contains(item.name) || isDate(property.value, property) else {
                    log.warning(line, "repaired: \(property.name) \"\(property.value)\" is no date; left out")
                    continue
                }
            case "TZOFFSETFROM", "TZOFFSETTO":
                guard let signed = signedOffset(property.value) else {
                    log.warning(line, "repaired: \(property.name) \"\(property.value)\" is no UTC offset; left out")
                    continue
                }
                if signed != property.value {
                    log.warning(
                        line, "repaired: \(property.name) \(property.value) has no sign; written as \(signed)")
                    property.value = signed
                }
            case "CREATED", "LAST-MODIFIED", "DTEND", "DUE":
                guard isDate(property.value, property) else {
                    log.warning(line, "repaired: \(property.name) \"\(property.value)\" is no date; left out")
                    continue
                }
            case "DURATION" where (try? Duration.parse(property.value).get()) == nil:
                log.warning(line, "repaired: DURATION \"\(property.value)\" is no duration; left out")
                continue
            case "RRULE" where (try? RecurrenceRule.parse(property.value).get()) == nil:
                guard let recovered = RecurrenceRule.recovering(property.value) else {
                    log.warning(
                        line,
                        "repaired: RRULE \"\(property.value)\" cannot be read; left out (the series is its first "
                            + "instance)")
                    continue
                }
                log.warning(
                    line,
                    "repaired: RRULE \"\(property.value)\" written as \(recovered.rule.icsValue), leaving out "
                        + recovered.leftOut.map { "\"\($0)\"" }.joined(separator: ", "))
                property = Property("RRULE", value: recovered.rule.icsValue)
            case "EXDATE", "RDATE", "FREEBUSY":
                let values = ValueSyntax.split(property.value, on: ",")
                let readable = values.filter { value in
                    property["VALUE"]?.uppercased() == "PERIOD" || property.name == "FREEBUSY"
                        ? (try? Period.parse(value, tzid: property["TZID"]).get()) != nil : isDate(value, property)
                }
                guard readable.count < values.count else { break }
                let unreadable = values.filter { !readable.contains($0) }.map { "\"\($0)\"" }
                log.warning(
                    line,
                    "repaired: \(property.name) values \(unreadable.joined(separator: ", ")) are no dates; left out")
                guard !readable.isEmpty else { continue }
                property.value = readable.joined(separator: ",")
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

    /// An alarm whose TRIGGER has its sign inside (`PT-2H`, Outlook and some Evolution versions: meant is -PT2H)
    /// written as meant; nil (left out, reported) for one whose TRIGGER cannot be read at all.
    private static func repairedAlarm(_ child: Component, _ log: inout DiagnosticLog) -> Component? {
        guard let index = child.properties.firstIndex(where: { $0.name == "TRIGGER" }) else { return child }
        var alarm = child
        let trigger = alarm.properties[index]
        if trigger["VALUE"]?.uppercased() == "DATE-TIME"
            ? isReadableDate(trigger.value, tzid: trigger["TZID"])
            : (try? Duration.parse(trigger.value).get()) != nil
        {
            return alarm
        }
        let moved = trigger.value.replacingOccurrences(of: "-", with: "")
        if trigger.value.hasPrefix("P"), trigger.value.contains("-"), (try? Duration.parse("-" + moved).get()) != nil {
            alarm.properties[index].value = "-" + moved
            log.warning(trigger.line, "repaired: TRIGGER \(trigger.value) has its sign inside; written as -\(moved)")
            return alarm
        }
        log.warning(child.line, "repaired: a VALARM whose TRIGGER \"\(trigger.value)\" cannot be read; left out")
        return nil
    }

    /// One item, repaired; a series whose RDATE PERIODs need overrides comes back with them.
    private static func repaired(_ item: Component, _ log: inout DiagnosticLog) -> [Component] {
        var item = item
        let line = item.line
        if item.property("UID") == nil {
            let uid = item.derivedUID
            item.properties.insert(Property("UID", value: uid), at: 0)
            log.warning(line, "repaired: \(item.name) had no UID; added \(uid), derived from its content")
        }
        droppingUnreadable(&item, &log)
        keepingOneOfEach(&item, &log)
        if item.property("DTSTAMP") == nil {
            let stamp = stamp(for: item)
            item.properties.insert(Property("DTSTAMP", value: stamp), at: 1)
            log.warning(line, "repaired: \(item.name) had no DTSTAMP; added \(stamp)")
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
                        + "zone; written as \(midnights)")
            } else {
                item.properties[index].setParameter("VALUE", "DATE")
                log.warning(
                    property.line,
                    property["VALUE"] == nil
                        ? "repaired: \(property.name) holds a date without VALUE=DATE; added"
                        : "repaired: \(property.name) holds a date but says VALUE=DATE-TIME; written VALUE=DATE")
            }
        }
        matchEndToStart(&item, &log)
        matchExceptionsToStart(&item, &log)
        matchUntilToStart(&item, &log)
        repairEnd(&item, &log)
        escapingTexts(&item, &log)
        oneLineSummary(&item, &log)
        durationInDays(&item, &log)
        synchronizingStart(&item, &log)
        droppingIdleExceptions(&item, &log)
        imagesAsDataURIs(&item, &log)
        return splittingPeriods(item, &log)
    }

    /// One of each property an item may hold once (`PropertyDesign.singular`): repeats after the first, which
    /// ICSKit and readers use, are left out; so is a DURATION beside a DTEND (a VEVENT) or a DUE (a VTODO), which
    /// RFC 5545 forbids and which ICSKit reads past as well.
    private static func keepingOneOfEach(_ item: inout Component, _ log: inout DiagnosticLog) {
        var seen: Set<String> = []
        let end = item.name == "VTODO" ? "DUE" : "DTEND"
        let hasEnd = item.property(end) != nil
        item.properties = item.properties.filter { property in
            if property.name == "DURATION", hasEnd, item.name != "VJOURNAL" {
                log.warning(
                    property.line,
                    "repaired: \(item.name) has both \(end) and DURATION; DURATION \(property.value) left out, "
                        + "\(end) is used")
                return false
            }
            guard PropertyDesign.singular.contains(property.name), !seen.insert(property.name).inserted else {
                return true
            }
            log.warning(
                property.line,
                "repaired: a second \(property.name) (\(property.value)); left out, the first is used")
            return false
        }
    }

    /// Items with the same UID and RECURRENCE-ID, which strict readers and servers take once: a copy of another
    /// is left out; an older version (lower SEQUENCE, else earlier DTSTAMP) is left out for the newer one, as
    /// `icskit import` keeps it; a different item of the same version (an exporter that gave two events one UID)
    /// keeps its content under a UID derived from it. Each change is reported.
    private static func separatingDuplicates(_ components: [Component], _ log: inout DiagnosticLog) -> [Component] {
        func itemKey(_ item: Component) -> String? {
            guard ExpansionOptions.allItemKinds.contains(item.name), let uid = item.property("UID")?.value else {
                return nil
            }
            return uid + "\u{1F}" + (item.property("RECURRENCE-ID")?.value ?? "")
        }
        func version(_ item: Component) -> (Int, String) {
            (Int(item.property("SEQUENCE")?.value ?? "") ?? 0, item.property("DTSTAMP")?.value ?? "")
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
                    component.line, "repaired: a copy of the \(kept.name) at line \(kept.line) (UID \(uid)); left out")
            } else if version(component) != version(kept) {
                let (newer, older) = version(component) > version(kept) ? (component, kept) : (kept, component)
                log.warning(
                    older.line,
                    "repaired: \(older.name) UID \(uid) has a newer version at line \(newer.line) (a higher SEQUENCE "
                        + "or a later DTSTAMP); this one left out")
                result[index] = newer
            } else {
                var renamed = component
                let derived = component.derivedUID
                if let at = renamed.properties.firstIndex(where: { $0.name == "UID" }) {
                    let line = renamed.properties[at].line
                    renamed.properties[at] = Property("UID", value: derived)
                    renamed.properties[at].line = line
                }
                // A copy of an item already told apart has the same content, so the same derived UID.
                if let renamedKey = itemKey(renamed), let copied = first[renamedKey].flatMap({ result[$0] }) {
                    log.warning(
                        component.line,
                        "repaired: a copy of the \(copied.name) at line \(copied.line) (UID \(uid)); left out")
                    continue
                }
                log.warning(
                    component.line,
                    "repaired: \(component.name) UID \(uid) is also the UID of another item (line \(kept.line)) of "
                        + "the same version; this one written with UID \(derived), derived from its content")
                if let renamedKey = itemKey(renamed) { first[renamedKey] = result.count }
                result.append(renamed)
            }
        }
        return result.compactMap { $0 }
    }

    /// TZIDs no VTIMEZONE of the calendar defines and no known zone name matches (IANA, Windows, Outlook display
    /// names): ICSKit reads their times as floating, and servers refuse a TZID without a VTIMEZONE, so the
    /// parameter is left out and the time written floating. Each TZID is reported once, at its first use.
    private static func floatingUnknownZones(_ root: inout Component, _ log: inout DiagnosticLog) {
        let defined = Set(root.components.filter { $0.name == "VTIMEZONE" }.compactMap { $0.property("TZID")?.value })
        var reported: Set<String> = []
        func clean(_ component: inout Component) {
            // A property may repeat TZID; the first is the one read, so each is looked at in turn.
            for index in component.properties.indices {
                while let tzid = component.properties[index]["TZID"], !defined.contains(tzid),
                    TimeZoneResolver.ianaName(for: tzid) == nil
                {
                    let line = component.properties[index].line
                    component.properties[index].setParameter("TZID", nil)
                    component.properties[index].line = line
                    if reported.insert(tzid).inserted {
                        log.warning(
                            line,
                            "repaired: TZID \"\(tzid)\" has no VTIMEZONE and names no known zone; left out, the times "
                                + "written floating (as ICSKit reads them)")
                    }
                }
            }
            for index in component.components.indices where component.components[index].name != "VTIMEZONE" {
                clean(&component.components[index])
            }
        }
        clean(&root)
    }

    /// DTEND and DUE of another value type than DTSTART (RFC 5545 §3.8.2.2 wants the same; servers refuse a
    /// mix): a date end after a date-time start becomes midnight of that date in the start's form; a date-time end
    /// after a date start becomes the date it falls on (the next one when it is past midnight). A floating end beside
    /// a zoned or UTC start, or the other way round, is read in the other's zone (the length is the wall-clock
    /// difference, as recurring-ical-events reads it): it is written in DTSTART's form at the same wall-clock time,
    /// which every reader reads so (calcurse compares an end in another form with the start's rules and refuses it).
    private static func matchEndToStart(_ item: inout Component, _ log: inout DiagnosticLog) {
        guard let startProperty = item.property("DTSTART"),
            case .success(let start) = CalendarDate.parse(startProperty.value, tzid: startProperty["TZID"])
        else { return }
        let startZone = startProperty["TZID"].map { [Parameter("TZID", $0)] } ?? []
        for index in item.properties.indices where ["DTEND", "DUE"].contains(item.properties[index].name) {
            let property = item.properties[index]
            guard case .success(let end) = CalendarDate.parse(property.value, tzid: property["TZID"]) else { continue }
            var replacement: Property
            let message: String
            if end.isDate != start.isDate {
                if start.isDate {
                    let wall = LocalDateTime(end)
                    let day = wall == wall.startOfDayValue ? wall : wall.startOfDayValue.adding(days: 1)
                    replacement = Property(
                        property.name, parameters: [Parameter("VALUE", "DATE")],
                        value: day.calendarDate(.date).icsValue)
                } else {
                    let midnight = LocalDateTime(end).calendarDate(start.form)
                    replacement = Property(property.name, parameters: startZone, value: midnight.icsValue)
                }
                message =
                    "\(property.name) \(property.value) is not of DTSTART's value type; written as \(replacement.value)"
            } else if !start.isDate, (start.form == .floating) != (end.form == .floating) {
                let wall = LocalDateTime(end).calendarDate(start.form)
                replacement = Property(property.name, parameters: startZone, value: wall.icsValue)
                message =
                    "of \(property.name) \(property.value) and DTSTART \(startProperty.value) one is floating: read as "
                    + "the same wall-clock time in DTSTART's form, written as \(replacement.contentLine)"
            } else {
                continue
            }
            replacement.line = property.line
            item.properties[index] = replacement
            log.warning(property.line, "repaired: " + message)
        }
    }

    /// EXDATE dates in a series of date-times, which ICSKit and recurring-ical-events read as "no instance on this
    /// day" and which khal and others cannot read: when every instance falls at DTSTART's time of day (an RRULE no
    /// finer than DAILY, without BYHOUR, BYMINUTE or BYSECOND, and no RDATE), each date becomes that day's instance,
    /// in DTSTART's form, which says the same to every reader.
    private static func matchExceptionsToStart(_ item: inout Component, _ log: inout DiagnosticLog) {
        let rules = item.properties.filter { $0.name == "RRULE" }
        guard let startProperty = item.property("DTSTART"),
            case .success(let start) = CalendarDate.parse(startProperty.value, tzid: startProperty["TZID"]),
            !start.isDate, item.property("RDATE") == nil, !rules.isEmpty,
            rules.allSatisfy({ property in
                guard case .success(let rule) = RecurrenceRule.parse(property.value) else { return false }
                return [.daily, .weekly, .monthly, .yearly].contains(rule.frequency) && rule.byHour.isEmpty
                    && rule.byMinute.isEmpty && rule.bySecond.isEmpty
            })
        else { return }
        let time = LocalDateTime(start)
        for index in item.properties.indices where item.properties[index].name == "EXDATE" {
            let property = item.properties[index]
            guard property["VALUE"]?.uppercased() == "DATE" else { continue }
            let values = ValueSyntax.split(property.value, on: ",").map { text -> String in
                guard case .success(let date) = CalendarDate.parse(text, tzid: nil), date.isDate else { return text }
                var instance = time
                (instance.year, instance.month, instance.day) = (date.year, date.month, date.day)
                return instance.calendarDate(start.form).icsValue
            }
            var replacement = Property(
                "EXDATE", parameters: startProperty["TZID"].map { [Parameter("TZID", $0)] } ?? [],
                value: values.joined(separator: ","))
            replacement.line = property.line
            item.properties[index] = replacement
            log.warning(
                property.line,
                "repaired: EXDATE dates \(property.value) in a series of date-times; written as the instances on "
                    + "those days, \(replacement.value)")
        }
    }

    /// An RRULE's UNTIL in another form than DTSTART (RFC 5545 §3.3.10: a date for a date start, UTC for a zoned or
    /// UTC start, local for a floating one), which calcurse and other strict readers refuse, written in DTSTART's form
    /// with the bound ICSKit reads (and recurring-ical-events with it): a date-time against a date start counts by its
    /// day, so it becomes that day; a date against a time start is its midnight, in UTC against a zoned or UTC start
    /// and as written against a floating one; a local date-time against a zoned start is read as UTC, so it gains a
    /// Z, and a UTC one against a floating start is read as written, so it loses it.
    private static func matchUntilToStart(_ item: inout Component, _ log: inout DiagnosticLog) {
        guard let startProperty = item.property("DTSTART"),
            case .success(let start) = CalendarDate.parse(startProperty.value, tzid: startProperty["TZID"])
        else { return }
        for index in item.properties.indices where item.properties[index].name == "RRULE" {
            let property = item.properties[index]
            guard case .success(let rule) = RecurrenceRule.parse(property.value), let until = rule.until else {
                continue
            }
            let wall = LocalDateTime(until)
            let bound: CalendarDate
            switch (start.form, until.form) {
            case (.date, .date), (.floating, .floating), (.utc, .utc), (.zoned, .utc): continue
            case (.date, _): bound = CalendarDate(year: until.year, month: until.month, day: until.day)
            case (.floating, _): bound = wall.calendarDate(.floating)
            case (.utc, _), (.zoned, _): bound = wall.calendarDate(.utc)
            }
            let parts = ValueSyntax.split(property.value, on: ";").map { part -> String in
                part.uppercased().hasPrefix("UNTIL=") ? "UNTIL=" + bound.icsValue : part
            }
            item.properties[index].value = parts.joined(separator: ";")
            log.warning(
                property.line,
                "repaired: RRULE UNTIL \(until.icsValue) is not in the form of DTSTART \(start.icsValue); written "
                    + "as \(bound.icsValue), the same bound")
        }
    }

    /// A VEVENT's DTEND not after its DTSTART (in the same form): one before it is swapped with it (readers,
    /// ICSKit and recurring-ical-events among them, start such an event at the earlier time), or dropped in a
    /// recurring event, whose RDATEs, EXDATEs and overrides are written against its start; one equal to it
    /// becomes a day after a date start, and is dropped after a date-time (the event is an instant).
    private static func repairEnd(_ item: inout Component, _ log: inout DiagnosticLog) {
        guard item.name == "VEVENT", let startIndex = item.properties.firstIndex(where: { $0.name == "DTSTART" }),
            let endIndex = item.properties.firstIndex(where: { $0.name == "DTEND" }),
            case .success(let start) = CalendarDate.parse(
                item.properties[startIndex].value, tzid: item.properties[startIndex]["TZID"]),
            case .success(let end) = CalendarDate.parse(
                item.properties[endIndex].value, tzid: item.properties[endIndex]["TZID"]),
            start.form == end.form, LocalDateTime(end) <= LocalDateTime(start)
        else { return }
        let line = item.properties[endIndex].line
        let recurs = item.properties.contains { ["RRULE", "RDATE"].contains($0.name) }
        if LocalDateTime(end) < LocalDateTime(start), recurs {
            // Swapping would move the series' start, which its RDATEs, EXDATEs and overrides' RECURRENCE-IDs are
            // written against: they would no longer meet its instances.
            item.properties.remove(at: endIndex)
            log.warning(
                line,
                "repaired: DTEND \(end.icsValue) is before DTSTART \(start.icsValue) of a recurring event; dropped "
                    + "(moving the start would part the series from its RDATEs, EXDATEs and overrides)")
        } else if LocalDateTime(end) < LocalDateTime(start) {
            let (startValue, endValue) = (item.properties[startIndex].value, item.properties[endIndex].value)
            item.properties[startIndex].value = endValue
            item.properties[endIndex].value = startValue
            log.warning(
                line,
                "repaired: DTEND \(end.icsValue) is before DTSTART \(start.icsValue); the two swapped, as readers read it"
            )
        } else if start.isDate {
            let next = LocalDateTime(start).adding(days: 1).calendarDate(.date)
            item.properties[endIndex] = Property(
                "DTEND", parameters: [Parameter("VALUE", "DATE")], value: next.icsValue)
            log.warning(line, "repaired: DTEND \(end.icsValue) is not after DTSTART; set to \(next.icsValue)")
        } else {
            item.properties.remove(at: endIndex)
            log.warning(line, "repaired: DTEND \(end.icsValue) equals DTSTART; dropped (the event is an instant)")
        }
    }

    /// RDATE;VALUE=PERIOD as DATE-TIME values; a period whose length differs from the series' gets an override
    /// (RECURRENCE-ID at its start) that carries it.
    private static func splittingPeriods(_ item: Component, _ log: inout DiagnosticLog) -> [Component] {
        var master = item
        var overrides: [Component] = []
        let seriesLength = Self.length(of: item)
        for index in master.properties.indices.reversed() {
            let property = master.properties[index]
            guard property.name == "RDATE", property["VALUE"]?.uppercased() == "PERIOD" else { continue }
            let tzid = property["TZID"]
            var starts: [String] = []
            for text in ValueSyntax.split(property.value, on: ",") {
                guard case .success(let period) = Period.parse(text, tzid: tzid) else { return [item] }
                let seconds: Int
                switch period.end {
                case .duration(let duration): seconds = duration.totalSeconds
                case .date(let end):
                    seconds = Int(LocalDateTime(end).wallSeconds - LocalDateTime(period.start).wallSeconds)
                }
                starts.append(period.start.icsValue)
                guard seconds != seriesLength, let uid = item.property("UID")?.value else { continue }
                var override = Component(item.name)
                override.properties = item.properties.filter {
                    !["RRULE", "RDATE", "EXDATE", "EXRULE", "DTSTART", "DTEND", "DURATION", "RECURRENCE-ID"]
                        .contains($0.name)
                }
                let zone = tzid.map { [Parameter("TZID", $0)] } ?? []
                override.properties.removeAll { $0.name == "UID" }
                override.properties.insert(Property("UID", value: uid), at: 0)
                override.properties += [
                    Property("RECURRENCE-ID", parameters: zone, value: period.start.icsValue),
                    Property("DTSTART", parameters: zone, value: period.start.icsValue),
                    Property(
                        "DURATION",
                        value: Duration(
                            isNegative: seconds < 0, hours: abs(seconds) / 3600, minutes: abs(seconds) / 60 % 60,
                            seconds: abs(seconds) % 60
                        ).icsValue),
                ]
                override.components = item.components
                overrides.append(override)
            }
            var replacement = property
            replacement.parameters = property.parameters.filter { $0.name != "VALUE" }
            replacement.value = starts.joined(separator: ",")
            master.properties[index] = replacement
            log.warning(
                property.line,
                "repaired: RDATE PERIOD values, which many readers cannot read, written as DATE-TIME"
                    + (overrides.isEmpty ? "" : ", with \(overrides.count) override(s) keeping their length"))
        }
        return [master] + overrides
    }

    /// The series' length in seconds from DURATION or `end` (DTEND, a todo's DUE; same form), nil when neither says.
    static func length(of item: Component, end: String = "DTEND") -> Int? {
        if let duration = item.property("DURATION"), case .success(let value) = Duration.parse(duration.value) {
            return value.totalSeconds
        }
        guard let startProperty = item.property("DTSTART"), let endProperty = item.property(end),
            case .success(let start) = CalendarDate.parse(startProperty.value, tzid: startProperty["TZID"]),
            case .success(let end) = CalendarDate.parse(endProperty.value, tzid: endProperty["TZID"])
        else { return nil }
        return Int(LocalDateTime(end).wallSeconds - LocalDateTime(start).wallSeconds)
    }

    /// Several VCALENDARs of one file as one (strict readers and servers take one per file): the first one's own
    /// properties, every component, each VTIMEZONE once. Nil when two of them hold the same item (UID and
    /// RECURRENCE-ID): an iTIP stream of updates, which is not one calendar.
    public static func combiningForPeers(_ calendars: [ICalendar]) -> ICalendar? {
        guard var combined = calendars.first, calendars.count > 1 else { return calendars.first }
        var items: Set<String> = []
        var zones: Set<String> = []
        combined.components = []
        for calendar in calendars {
            for component in calendar.components {
                if case .timeZone(let zone) = component {
                    if let tzid = zone.tzid, !zones.insert(tzid).inserted { continue }
                } else if let uid = component.identity.uid {
                    guard items.insert(uid + "\u{1F}" + component.identity.recurrenceID).inserted else { return nil }
                }
                combined.components.append(component)
            }
        }
        return combined
    }
}
