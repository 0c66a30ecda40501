import Foundation

extension Expander {
    /// X-WR-TIMEZONE as the x-wr-timezone tool applies it: in events, UTC times move into the zone and floating
    /// times are given it (DTSTART, DTEND, RDATE, EXDATE, RECURRENCE-ID); dates and zoned times stay. nil when the
    /// event has no such time, so callers keep the event as read.
    static func applying(_ tzid: String, _ zone: LibicalZone, to event: Event) -> Event? {
        // Most events of such a calendar have nothing to move: told without building anything.
        func movable(_ date: CalendarDate) -> Bool {
            switch date.form {
            case .utc, .floating: return true
            case .date, .zoned: return false
            }
        }
        guard
            event.start.map(movable) == true || event.end.map(movable) == true
                || event.exceptionDates.contains(where: movable) || event.recurrenceID.map({ movable($0.date) }) == true
                || event.recurrenceDates.contains(where: { value in
                    switch value {
                    case .date(let date): return movable(date)
                    case .period(let period):
                        if case .date(let end) = period.end, movable(end) { return true }
                        return movable(period.start)
                    }
                })
        else { return nil }
        var changed: [String] = []
        func moved(_ date: CalendarDate, _ name: String) -> CalendarDate {
            guard let moved = Self.moving(date, into: tzid, zone) else { return date }
            if !changed.contains(name) { changed.append(name) }
            return moved
        }
        let start = event.start.map { moved($0, "DTSTART") }, end = event.end.map { moved($0, "DTEND") }
        let exceptionDates = event.exceptionDates.map { moved($0, "EXDATE") }
        let recurrenceDates = event.recurrenceDates.map { value -> RecurrenceDate in
            switch value {
            case .date(let date): return .date(moved(date, "RDATE"))
            case .period(var period):
                period.start = moved(period.start, "RDATE")
                if case .date(let end) = period.end { period.end = .date(moved(end, "RDATE")) }
                return .period(period)
            }
        }
        let recurrenceID = event.recurrenceID.map { id -> RecurrenceID in
            var id = id
            id.date = moved(id.date, "RECURRENCE-ID")
            return id
        }
        guard !changed.isEmpty else { return nil }
        var result = event
        // Read and not changed since: only the moved lines are written anew, the rest as read. Else the event is
        // written canonically, as any changed model.
        let asRead = event.provenance.source != nil && !event.provenance.isModified
        if !asRead { result.keepingOriginal() }
        result.start = start
        result.end = end
        result.exceptionDates = exceptionDates
        result.recurrenceDates = recurrenceDates
        result.recurrenceID = recurrenceID
        if asRead { result.rewritingSource(of: changed) }
        return result
    }

    /// One time as X-WR-TIMEZONE moves it: a UTC time into the zone, a floating one given it; nil for dates and
    /// zoned times, which stay.
    static func moving(_ date: CalendarDate, into tzid: String, _ zone: LibicalZone) -> CalendarDate? {
        switch date.form {
        case .utc:
            return zone.local(atUTC: LocalDateTime(date).wallSeconds).calendarDate(
                .zoned(tzid: TimeZoneID(unchecked: tzid)))
        case .floating: return LocalDateTime(date).calendarDate(.zoned(tzid: TimeZoneID(unchecked: tzid)))
        case .date, .zoned: return nil
        }
    }
}
