import Foundation

extension Expander {
    /// X-WR-TIMEZONE as the x-wr-timezone tool applies it: in events, UTC times move into the zone and floating
    /// times are given it (DTSTART, DTEND, RDATE, EXDATE, RECURRENCE-ID); dates and zoned times stay. nil when the
    /// event has no such time, so callers keep the event as read.
    static func applying(_ tzid: String, _ zone: LibicalZone, to event: Event) -> Event? {
        var moves = false
        func moved(_ date: CalendarDate) -> CalendarDate {
            guard let moved = Self.moving(date, into: tzid, zone) else { return date }
            moves = true
            return moved
        }
        let start = event.start.map(moved), end = event.end.map(moved)
        let exceptionDates = event.exceptionDates.map(moved)
        let recurrenceDates = event.recurrenceDates.map { value -> RecurrenceDate in
            switch value {
            case .date(let date): return .date(moved(date))
            case .period(var period):
                period.start = moved(period.start)
                if case .date(let end) = period.end { period.end = .date(moved(end)) }
                return .period(period)
            }
        }
        let recurrenceID = event.recurrenceID.map { id -> RecurrenceID in
            var id = id
            id.date = moved(id.date)
            return id
        }
        guard moves else { return nil }
        var event = event
        event.keepingOriginal()
        event.start = start
        event.end = end
        event.exceptionDates = exceptionDates
        event.recurrenceDates = recurrenceDates
        event.recurrenceID = recurrenceID
        return event
    }

    /// One time as X-WR-TIMEZONE moves it: a UTC time into the zone, a floating one given it; nil for dates and
    /// zoned times, which stay.
    static func moving(_ date: CalendarDate, into tzid: String, _ zone: LibicalZone) -> CalendarDate? {
        switch date.form {
        case .utc: return zone.local(atUTC: LocalDateTime(date).wallSeconds).calendarDate(.zoned(tzid: tzid))
        case .floating: return LocalDateTime(date).calendarDate(.zoned(tzid: tzid))
        case .date, .zoned: return nil
        }
    }
}
