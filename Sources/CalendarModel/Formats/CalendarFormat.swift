/// The serialisations ICSKit reads and writes.
public enum CalendarFormat: String, Sendable, CaseIterable {
    /// RFC 5545 text.
    case ics
    /// RFC 7265 JSON.
    case jcal
    /// RFC 6321 XML.
    case xcal
    /// RFC 4180 comma-separated values in Google Calendar's import layout (see `CSVCalendar`).
    case csv
    /// RFC 8984 JSON (JSCalendar: a Group of Events and Tasks); the JSCalendar 2.0 draft's names are read too.
    case jscalendar

    /// The extension a written file gets.
    public var fileExtension: String {
        switch self {
        case .ics: return "ics"
        case .jcal: return "json"
        case .xcal: return "xml"
        case .csv: return "csv"
        case .jscalendar: return "json"
        }
    }

    /// The format a path's extension names, if any (`.ics`, `.ical`, `.ifb`, `.json`, `.jcal`, `.xml`, `.xcal`; a
    /// mail message, `.eml`, is read for its calendar parts as iCalendar).
    public init?(pathExtension path: String) {
        let lower = path.lowercased()
        if [".ics", ".ical", ".icalendar", ".ifb", ".eml"].contains(where: lower.hasSuffix) {
            self = .ics
        } else if [".json", ".jcal"].contains(where: lower.hasSuffix) {
            self = .jcal
        } else if [".xml", ".xcal", ".xcs"].contains(where: lower.hasSuffix) {
            self = .xcal
        } else if [".csv", ".tsv"].contains(where: lower.hasSuffix) {
            self = .csv
        } else {
            return nil
        }
    }

    /// Guesses from the content: jCal starts with `[`, xCal with `<`, CSV has a first line of separated headers
    /// and no colon (every iCalendar line has one); everything else is read as iCalendar.
    public init(sniffing bytes: [UInt8]) {
        let body = bytes.drop { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        switch body.first {
        case UInt8(ascii: "{"): self = .jscalendar
        case UInt8(ascii: "["):
            self = JSCalendarReader.looksLikeJSCalendar(bytes) ? .jscalendar : .jcal
        case UInt8(ascii: "<"): self = .xcal
        default:
            let firstLine = body.prefix { $0 != 0x0A && $0 != 0x0D }
            let separated = firstLine.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: ";") || $0 == 0x09 }
            self = separated && !firstLine.contains(UInt8(ascii: ":")) ? .csv : .ics
        }
    }

    /// Reads calendars in this format. iCalendar never fails (problems become diagnostics); jCal or xCal that is
    /// not well-formed or not of the format's shape yields no calendars and one error. A mail message read as
    /// iCalendar gives its calendar parts (`MIMEMessage`), or one error when it has none.
    public func read(_ bytes: [UInt8], file: String?) -> ICS.ReadResult {
        read(bytes, file: file, csv: CSVOptions())
    }

    /// `read(_:file:)` with the CLI's CSV options (columns, zone).
    package func read(_ bytes: [UInt8], file: String?, csv: CSVOptions) -> ICS.ReadResult {
        switch self {
        case .csv:
            return CSVCalendar.read(bytes, file: file, options: csv)
        case .ics:
            guard MIMEMessage.isMessage(bytes) else { return ICS.read(bytes, file: file) }
            // A mail message: its calendar parts, each read as a file of its own (lines count within the part).
            let parts = MIMEMessage.calendarParts(bytes)
            guard !parts.isEmpty else {
                return Self.unreadable(
                    file: file, line: 1, column: nil,
                    "a mail message without a text/calendar or application/ics part")
            }
            var result = ICS.ReadResult(calendars: [], diagnostics: [], isTruncated: false)
            for part in parts {
                let read = ICS.read(part.bytes, file: file)
                result.calendars += read.calendars
                result.diagnostics += read.diagnostics
                result.isTruncated = result.isTruncated || read.isTruncated
            }
            return result
        case .jscalendar:
            do {
                // In line order, as a document read an entry at a time says them (`JSCalendarStreamRead`).
                var read = ICS.calendars(from: try JSCalendarReader.read(bytes), file: file)
                read.diagnostics = read.diagnostics.sortedByLine
                return read
            } catch {
                return Self.unreadable(file: file, line: error.line, column: error.column, error.message)
            }
        case .jcal:
            // A `.json` file may hold JSCalendar as well: an object, or an array of objects.
            if JSCalendarReader.looksLikeJSCalendar(bytes) { return Self.jscalendar.read(bytes, file: file, csv: csv) }
            do {
                return ICS.calendars(from: try JCalReader.read(bytes), file: file)
            } catch {
                return Self.unreadable(file: file, line: error.line, column: error.column, error.message)
            }
        case .xcal:
            do {
                let (components, warnings) = try XCalReader.read(bytes)
                var result = ICS.calendars(from: components, file: file)
                result.diagnostics =
                    warnings.map { Diagnostic(.warning, file: file, line: $0.0, $0.1, code: "xcal-foreign-element") }
                    + result.diagnostics
                return result
            } catch {
                return Self.unreadable(file: file, line: error.line, column: error.column, error.message)
            }
        }
    }

    /// A document its strict reader refused: nothing of it is read, and the one error says where and why.
    private static func unreadable(file: String?, line: Int, column: Int?, _ message: String) -> ICS.ReadResult {
        ICS.ReadResult(
            calendars: [],
            diagnostics: [
                Diagnostic(
                    .error, file: file, line: line, column: column, message + "; nothing read",
                    code: "unreadable-document")
            ])
    }

    /// Writes calendars in this format.
    public func write(_ calendars: [ICalendar]) -> [UInt8] { write(calendars, csv: CSVOptions()) }

    /// `write(_:)` with the CLI's CSV options and JSCalendar names.
    package func write(
        _ calendars: [ICalendar], csv: CSVOptions, jscalendar: JSCalendarVersion = .rfc8984
    ) -> [UInt8] {
        switch self {
        case .jscalendar:
            // Items outside any VCALENDAR are one Group, as they are one calendar when read; zones by IANA name.
            let roots = calendars.map { $0.encodedNamingZonesByIANA() }
            return JSCalendarWriter.json(roots, version: jscalendar)
                .serializedBytes(pretty: true) + [0x0A]
        case .csv: return Array(CSVCalendar.write(calendars, options: csv).text.utf8)
        case .ics: return ICS.write(calendars)
        case .jcal:
            return JCalWriter.json(calendars.flatMap(\.topLevelComponents)).serializedBytes() + [0x0A]
        case .xcal:
            return Array(XCalWriter.document(calendars.flatMap(\.topLevelComponents)).utf8)
        }
    }
}
