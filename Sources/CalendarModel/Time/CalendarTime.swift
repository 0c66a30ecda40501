import Foundation

/// Places the values of one calendar in time: its VTIMEZONEs, tzdata and the mapped names, with floating
/// times and dates in the viewer's zone. Not thread-safe.
public final class CalendarTime {
    private let expander: Expander

    public init(calendar: ICalendar, viewerZone: String, file: String? = nil) {
        var options = ExpansionOptions()
        options.viewerZone = viewerZone
        options.components = ["VTODO", "VEVENT", "VJOURNAL"]
        expander = Expander(calendar: calendar, options: options, file: file)
    }

    /// The instant of a value.
    public func date(of value: CalendarDate) -> Date {
        Date(timeIntervalSince1970: TimeInterval(expander.instant(value, line: 0)))
    }

    /// Warnings about the calendar's time zones met so far.
    public var diagnostics: [Diagnostic] { expander.diagnostics }
}
