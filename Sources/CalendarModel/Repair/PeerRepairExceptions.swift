import Foundation

/// RDATEs and EXDATEs in another form than DTSTART (RFC 5545 §3.8.5.1 and §3.8.5.2 want DTSTART's), which khal,
/// calcurse and servers refuse, written in DTSTART's form with the meaning readers agree on.
extension ICalendar {
    /// In a series of zoned or UTC date-times, an RDATE or EXDATE in UTC or in another zone becomes the same instant
    /// in DTSTART's zone (every reader compares instants); an RDATE date becomes its midnight in DTSTART's form, which
    /// is how ICSKit, python icalendar and recurring-ical-events place it (an instance as long as the others). EXDATE
    /// dates are left to `matchExceptionsToStart`; a zone no database knows is left as it is.
    static func matchDatesToStart(_ item: inout Component, _ log: inout DiagnosticLog) {
        guard let startProperty = item.property("DTSTART"),
            case .success(let start) = CalendarDate.parse(startProperty.value, tzid: startProperty["TZID"]),
            !start.isDate, start.form != .floating
        else { return }
        let zone: CalendarZone
        if let tzid = startProperty["TZID"] {
            guard let known = try? CalendarZone(tzid) else { return }
            zone = known
        } else {
            zone = .utc
        }
        for index in item.properties.indices where ["RDATE", "EXDATE"].contains(item.properties[index].name) {
            let property = item.properties[index]
            let type = property["VALUE"]?.uppercased()
            guard type != "PERIOD", !(type == "DATE" && property.name == "EXDATE") else { continue }
            var values: [String] = []
            for text in ValueSyntax.split(property.value, on: ",") {
                guard case .success(let value) = CalendarDate.parse(text, tzid: property["TZID"]) else { return }
                if value.isDate {
                    values.append(LocalDateTime(value).calendarDate(start.form).icsValue)
                } else if value.form == start.form {
                    values.append(value.icsValue)
                } else if value.form != .floating, let instant = value.date(in: .utc) {
                    let wall = CalendarDate(instant, in: zone).wall
                    values.append(wall.calendarDate(start.form == .utc ? .utc : .floating).icsValue)
                } else {
                    return
                }
            }
            let written = values.joined(separator: ",")
            let zoneParameter = startProperty["TZID"].map { [Parameter("TZID", $0)] } ?? []
            guard written != property.value || property["TZID"] != startProperty["TZID"] || type == "DATE" else {
                continue
            }
            var replacement = Property(property.name, parameters: zoneParameter, value: written)
            replacement.line = property.line
            item.properties[index] = replacement
            log.warning(
                property.line,
                "repaired: \(property.name) \(property.value) is not in DTSTART's form (\(startProperty.value)"
                    + (startProperty["TZID"].map { " in \($0)" } ?? "") + "); written as \(replacement.contentLine), "
                    + (type == "DATE" ? "its midnight, as readers place it" : "the same instant"),
                code: "repair-exception-form")
        }
    }
}
