import Foundation

extension ICalendar {
    /// Whether the series `uid` has an instance that `recurrenceID` names (RFC 5545 §3.8.4.4: the DTSTART an instance
    /// has in the series' rules): the same instant in any spelling — UTC, the series' zone, another zone — or the
    /// same day when either is a date. Its rules and RDATEs count, its EXDATEs do not, and neither do its overrides
    /// (an override's RECURRENCE-ID is what is checked, not a proof).
    package func hasInstance(of uid: String, at recurrenceID: CalendarDate) -> Bool {
        var single = self
        single.components = components.filter { component in
            guard component.isItem else { return true }  // time zones
            return component.core?.uid == uid && component.core?.recurrenceID == nil
        }
        guard single.components.contains(where: \.isItem) else { return false }
        let time = CalendarTime(calendar: single, viewerZone: "UTC")
        let at = time.date(of: recurrenceID)
        var options = ExpansionOptions()
        options.components = Set(ItemKind.allCases)
        options.viewerZoneName = "UTC"
        // Two days either side: the instance starts at its RECURRENCE-ID, whatever its length.
        let around = single.occurrences(
            from: at.addingTimeInterval(-2 * 86_400), to: at.addingTimeInterval(2 * 86_400), options: options)
        return around.occurrences.contains { occurrence in
            guard let id = occurrence.recurrenceID else { return false }
            if id.isDate || recurrenceID.isDate {
                return LocalDateTime(id).dayNumber == LocalDateTime(recurrenceID).dayNumber
            }
            return time.date(of: id) == at
        }
    }
}
