import Foundation

/// `--repair` of VTIMEZONEs: what strict readers need of a zone's definition and its observances.
extension ICalendar {
    /// A VTIMEZONE strict readers can read: an unsigned offset gets its `+` (as ICSKit reads it); an observance
    /// whose onset or offsets cannot be read is left out, and its RRULE keeps what can be read of it; a VTIMEZONE
    /// without a TZID or without an observance left is left out (times in it are then read as ICSKit reads a TZID
    /// it cannot resolve). Nil when it is left out.
    static func repairedZone(_ zone: Component, _ log: inout DiagnosticLog) -> Component? {
        guard let tzid = zone.property("TZID")?.value, !tzid.trimmingCharacters(in: .whitespaces).isEmpty else {
            log.warning(
                zone.line, "repaired: a VTIMEZONE without a TZID; left out", code: "repair-vtimezone-without-tzid")
            return nil
        }
        // A VTIMEZONE that cannot describe a zone (an observance without TZOFFSETTO …) is not used: ICSKit reads its
        // TZID by name. Left out, so that readers place the times by that name too.
        if let problem = TimeZoneResolver.implausibleObservance(zone), TimeZoneResolver.ianaName(for: tzid) != nil {
            log.warning(
                zone.line,
                "repaired: the VTIMEZONE for TZID \"\(tzid)\" is not used (\(problem)); left out, its "
                    + "times read by the name, as ICSKit reads them", code: "repair-vtimezone-unused")
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
                        "repaired: \(tzid) \(observance.name) has no readable \(name); the observance is left out",
                        code: "repair-observance-unreadable")
                    return nil
                }
                if fixed != observance.properties[index].value {
                    let line = observance.properties[index].line
                    observance.properties[index].value = fixed
                    observance.properties[index].line = line
                    log.warning(
                        line, "repaired: \(name) \(fixed.dropFirst()) has no sign; written as \(fixed)",
                        code: "repair-offset-sign")
                }
            }
            guard let start = observance.property("DTSTART"), isReadableDate(start.value, tzid: nil) else {
                log.warning(
                    observance.line, "repaired: \(tzid) \(observance.name) has no readable DTSTART; left out",
                    code: "repair-observance-unreadable")
                return nil
            }
            droppingUnreadable(&observance, &log)
            cleaningObservance(&observance, tzid: tzid, &log)
            return observance
        }
        guard repaired.components.contains(where: { ["STANDARD", "DAYLIGHT"].contains($0.name) }) else {
            log.warning(
                zone.line, "repaired: VTIMEZONE \(tzid) has no readable observance; left out",
                code: "repair-vtimezone-without-observance")
            return nil
        }
        return repaired
    }

    /// A UTC offset as strict readers read it: `+` added when it has no sign; nil when it is no offset.
    static func signedOffset(_ text: String) -> String? {
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
    static func cleaningObservance(_ observance: inout Component, tzid: String, _ log: inout DiagnosticLog) {
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
                        + "date-time; written as DTSTART:\(value)", code: "repair-observance-start")
                property = Property("DTSTART", value: value)
                property.line = line
            } else if !belongs.contains(property.name), PropertyDesign.table[property.name] != nil {
                log.warning(
                    line, "repaired: \(property.name) has no place in \(tzid) \(observance.name); left out",
                    code: "repair-observance-property")
                return nil
            }
            return property
        }
    }
}
