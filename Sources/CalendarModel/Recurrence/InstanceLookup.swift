import Foundation

extension ICalendar {
    /// Whether the series `uid` has an instance that `recurrenceID` names (RFC 5545 §3.8.4.4: the DTSTART an instance
    /// has in the series' rules): the same instant in any spelling — UTC, the series' zone, another zone — or the
    /// same day when either is a date. Its rules and RDATEs count, its EXDATEs do not, and neither do its overrides
    /// (an override's RECURRENCE-ID is what is checked, not a proof).
    package func hasInstance(of uid: String, at recurrenceID: CalendarDate) -> Bool {
        let masters = components.filter { $0.core?.uid == uid && $0.core?.recurrenceID == nil }
        guard !masters.isEmpty else { return false }
        var single = self
        single.components = components.filter { !$0.isItem } + masters
        let time = CalendarTime(calendar: single, viewerZone: "UTC")
        let at = time.date(of: recurrenceID)
        return instances(of: masters, around: at, zone: .utc).contains { occurrence in
            guard let id = occurrence.recurrenceID else { return false }
            if id.isDate || recurrenceID.isDate {
                return LocalDateTime(id).dayNumber == LocalDateTime(recurrenceID).dayNumber
            }
            return time.date(of: id) == at
        }
    }

    /// The instances of `items` (a series: its master, and overrides when given) within two days of `instant`, with
    /// this calendar's time zones; floating times and dates in `zone`. An instance starts at its RECURRENCE-ID,
    /// whatever its length, so the one `instant` names is among them (where an override moved it aside).
    func instances(of items: [CalendarComponent], around instant: Date, zone: CalendarZone) -> [Occurrence] {
        var single = self
        single.components = components.filter { !$0.isItem } + items
        var options = ExpansionOptions()
        options.components = Set(ItemKind.allCases)
        options.viewerZone = zone
        return single.occurrences(
            from: instant.addingTimeInterval(-2 * 86_400), to: instant.addingTimeInterval(2 * 86_400), options: options
        ).occurrences
    }
}
