/// Writes one calendar a run of components at a time, for `ICS.stream`: the opening (the calendar's own part), each
/// run's components, then the closing. Put together, the pieces are the bytes `CalendarFormat.write` gives for the
/// whole calendar (iCalendar, jCal and xCal; CSV needs the calendar's time zones before its first row and is written
/// whole; JSCalendar has `JSCalendarStream`).
package struct CalendarStreamWriter: Sendable {
    /// The format written: iCalendar, jCal or xCal.
    package let format: CalendarFormat

    /// A writer for `format`, or nil for CSV (written whole) and JSCalendar (whose entries group series:
    /// `JSCalendarStream`).
    package init?(format: CalendarFormat) {
        guard format != .csv, format != .jscalendar else { return nil }
        self.format = format
    }

    /// The calendar's start and own properties (its components are ignored).
    package func opening(_ calendar: ICalendar) -> [UInt8] {
        let own = calendar.ownPart
        switch format {
        case .ics, .csv, .jscalendar:
            var writer = ICSWriter()
            writer.writeOpening(own)
            return writer.bytes
        case .jcal:
            // `["vcalendar",[…],[]]` less the `]]` that closes it.
            return Array(JCalWriter.component(own).serializedBytes().dropLast(2))
        case .xcal:
            let document = Array(XCalWriter.document([own]).utf8)
            return Array(document.dropLast(Self.xcalClosing.count))
        }
    }

    /// The components of run `index` (runs counted from 0).
    package func run(_ components: [CalendarComponent], index: Int) -> [UInt8] {
        switch format {
        case .ics, .csv, .jscalendar:
            var writer = ICSWriter()
            for component in components { writer.write(component.encoded) }
            return writer.bytes
        case .jcal:
            var writer = JSONWriter()
            for (offset, component) in components.enumerated() {
                if index > 0 || offset > 0 { writer.appendRaw(UInt8(ascii: ",")) }
                writer.write(JCalWriter.component(component.encoded))
            }
            return writer.bytes
        case .xcal:
            var out = ""
            for component in components { XCalWriter.write(component.encoded, indent: 3, into: &out) }
            return Array(out.utf8)
        }
    }

    /// What ends the calendar (and the document).
    package func closing(_ calendar: ICalendar) -> [UInt8] {
        switch format {
        case .ics, .csv, .jscalendar:
            var writer = ICSWriter()
            writer.writeClosing(calendar.ownPart)
            return writer.bytes
        case .jcal: return Array("]]\n".utf8)
        case .xcal: return Self.xcalClosing
        }
    }

    private static let xcalClosing = Array("    </components>\n  </vcalendar>\n</icalendar>\n".utf8)
}

extension ICalendar {
    /// The calendar as written, without its components.
    var ownPart: Component {
        var own = self
        own.components = []
        return own.encoded()
    }
}
