import Foundation

/// The calendar fields a CSV column can carry. Headers are recognised by name (Google Calendar's import columns,
/// Outlook's calendar and task export columns, the iCalendar property names); `--columns` maps any other.
package enum CSVField: String, Sendable, CaseIterable {
    /// The title (SUMMARY).
    case summary
    /// The start date alone.
    case startDate = "start-date"
    /// The start time of day alone.
    case startTime = "start-time"
    /// The start as one date or date and time.
    case start
    /// The end date alone.
    case endDate = "end-date"
    /// The end time of day alone.
    case endTime = "end-time"
    /// The end as one date or date and time.
    case end
    /// Whether the event takes whole days.
    case allDay = "all-day"
    /// The notes (DESCRIPTION).
    case description
    /// Where (LOCATION).
    case location
    /// Whether the item is private (CLASS).
    case `private`
    /// Outlook's sensitivity: normal, personal, private, confidential (CLASS).
    case sensitivity
    /// The item's UID.
    case uid
    /// Categories, separated by commas or semicolons.
    case categories
    /// The status (STATUS).
    case status
    /// A todo's due date (DUE).
    case due
    /// When a todo was done (COMPLETED).
    case completed
    /// The priority: 0–9, or High, Normal, Low.
    case priority
    /// A recurrence rule (RRULE), one per line of the cell.
    case rrule
    /// A todo's share done (PERCENT-COMPLETE).
    case percentComplete = "percent-complete"
    /// Whether a reminder is set.
    case reminderOn = "reminder-on"
    /// The reminder's date.
    case reminderDate = "reminder-date"
    /// The reminder's time of day.
    case reminderTime = "reminder-time"
    /// The organizer (ORGANIZER).
    case organizer
    /// Attendees whose presence is required.
    case requiredAttendees = "required-attendees"
    /// Attendees whose presence is optional.
    case optionalAttendees = "optional-attendees"
    /// Rooms and equipment (RESOURCES).
    case resources
    /// Outlook's free/busy state: free, tentative, busy, out of office, working elsewhere.
    case showTimeAs = "show-time-as"
    /// Whether the row is an event or a todo.
    case kind
    /// A column to leave out.
    case ignore

    /// Header names (lower-cased, single spaces) each field is recognised by.
    static let headers: [String: CSVField] = {
        var table: [String: CSVField] = [:]
        func add(_ field: CSVField, _ names: String...) { for name in names { table[name] = field } }
        add(.summary, "subject", "summary", "title")
        add(.startDate, "start date")
        add(.startTime, "start time")
        add(.start, "start", "dtstart", "begin", "start date/time")
        add(.endDate, "end date")
        add(.endTime, "end time")
        add(.end, "end", "dtend", "end date/time")
        add(.allDay, "all day event", "all day", "all-day", "allday")
        add(.description, "description", "notes", "body")
        add(.location, "location", "where")
        add(.private, "private")
        add(.sensitivity, "sensitivity")
        add(.uid, "uid")
        add(.categories, "categories", "category")
        add(.status, "status")
        add(.due, "due", "due date", "due date/time")
        add(.completed, "completed", "date completed")
        add(.priority, "priority")
        add(.rrule, "rrule", "recurrence rule")
        add(.percentComplete, "% complete", "percent complete", "percent-complete")
        add(.reminderOn, "reminder on/off")
        add(.reminderDate, "reminder date")
        add(.reminderTime, "reminder time")
        add(.organizer, "meeting organizer", "organizer")
        add(.requiredAttendees, "required attendees", "attendees")
        add(.optionalAttendees, "optional attendees")
        add(.resources, "meeting resources", "resources")
        add(.showTimeAs, "show time as")
        add(.kind, "type", "kind")
        return table
    }()

    static func key(_ header: String) -> String {
        header.trimmingCharacters(in: .whitespaces).lowercased().split(separator: " ").joined(separator: " ")
    }

    /// The field a header names, if it is one ICSKit knows.
    package static func recognising(_ header: String) -> CSVField? { headers[key(header)] }
}

/// How CSV is read and written.
package struct CSVOptions: Sendable {
    /// Header → field, for columns whose names ICSKit does not know (or to override one it does).
    package var columns: [String: CSVField]
    /// Import: the zone naive times are in (each becomes `TZID=zone`); none leaves them floating.
    /// Export: the zone times are written in; none writes each in its own zone.
    package var zone: String?
    /// Writes cells exactly as the data has them. By default a cell that a spreadsheet would run as a formula
    /// (starting with `=`, `+`, `-`, `@`, tab or CR) is written with a `'` before it, as OWASP recommends against
    /// CSV injection, and reading takes such a `'` off again.
    package var rawCells: Bool

    /// Options: extra header mappings, the zone naive times are read and written in, raw cells.
    package init(columns: [String: CSVField] = [:], zone: String? = nil, rawCells: Bool = false) {
        self.columns = columns
        self.zone = zone
        self.rawCells = rawCells
    }

    /// Parses `--columns "Header=field,Other Header=field"`; the reason when it cannot.
    package static func columns(_ specification: String) -> Result<[String: CSVField], ValueError> {
        var columns: [String: CSVField] = [:]
        for pair in specification.split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[0].isEmpty else {
                return .failure(ValueError("\"\(pair)\" is not HEADER=FIELD"))
            }
            guard let field = CSVField(rawValue: parts[1].lowercased()) else {
                return .failure(
                    ValueError(
                        "\"\(parts[1])\" is no field; fields are "
                            + CSVField.allCases.map(\.rawValue).joined(separator: ", ")))
            }
            columns[CSVField.key(parts[0])] = field
        }
        return .success(columns)
    }
}

/// Calendars as CSV rows in Google Calendar's import layout plus the fields it lacks, and back.
package enum CSVCalendar {
    /// The columns ICSKit writes: Google Calendar's documented import columns, then UID, Categories, Status, Due,
    /// Completed, Priority, RRULE and Type (`event` or `todo`, so a todo with no due date stays a todo).
    package static let exportHeader = [
        "Subject", "Start Date", "Start Time", "End Date", "End Time", "All Day Event",
        "Description", "Location", "Private", "UID", "Categories", "Status", "Due",
        "Completed", "Priority", "RRULE", "Type",
    ]

    // MARK: Writing

    /// An item CSV cannot carry whole: an overridden instance (RECURRENCE-ID, not written) or a series with
    /// EXDATEs (written as one row without them), with its line in the input.
    package struct LeftOut: Sendable, Equatable {
        /// The line of the component left out.
        package var line: Int
        /// Its title, when it has one.
        package var summary: String?
        /// True for an overridden instance, false for a series whose EXDATEs are left out.
        package var isOverride: Bool
    }

    /// One row per event and todo. Overridden instances (RECURRENCE-ID) and EXDATEs have no column: they are
    /// listed in `leftOut` so the caller can say so, each at its line.
    package static func write(_ calendars: [ICalendar], options: CSVOptions = CSVOptions())
        -> (text: String, leftOut: [LeftOut])
    {
        var rows = [CSVTable.Row(cells: exportHeader, line: 0)]
        var leftOut: [LeftOut] = []
        let target = options.zone.flatMap(ZoneClock.init(identifier:))
        for calendar in calendars {
            let time = target.map { CalendarTime(calendar: calendar, viewerZone: $0.identifier) }
            func wall(_ date: CalendarDate) -> LocalDateTime {
                guard let time, let target, !date.isDate, date.form != .floating else { return LocalDateTime(date) }
                return target.wallClock(at: time.date(of: date))
            }
            for component in calendar.components {
                switch component {
                case .event(let event):
                    if event.recurrenceID != nil || !event.exceptionDates.isEmpty {
                        leftOut.append(
                            LeftOut(line: component.line, summary: event.summary, isOverride: event.recurrenceID != nil)
                        )
                    }
                    if event.recurrenceID != nil { continue }
                    rows.append(CSVTable.Row(cells: guarded(eventCells(event, wall: wall), options), line: 0))
                case .todo(let todo):
                    if todo.recurrenceID != nil || !todo.exceptionDates.isEmpty {
                        leftOut.append(
                            LeftOut(line: component.line, summary: todo.summary, isOverride: todo.recurrenceID != nil))
                    }
                    if todo.recurrenceID != nil { continue }
                    rows.append(CSVTable.Row(cells: guarded(todoCells(todo, wall: wall), options), line: 0))
                default: continue
                }
            }
        }
        return (CSVTable(rows: rows).text(), leftOut)
    }

    /// The characters a spreadsheet reads as the start of a formula (OWASP's list for CSV injection).
    static let formulaStarts: Set<Character> = ["=", "+", "-", "@", "\t", "\r"]

    /// What a cell `guarded` puts a `'` before may start with: a formula start, or a `'` of the cell's own (which
    /// would otherwise come off on the way back as if it were the guard).
    static func needsGuard(_ first: Character) -> Bool { formulaStarts.contains(first) || first == "'" }

    /// Cells that would start a formula, neutralised with a leading `'`, and cells that start with a `'` of their
    /// own, which get a second one (unless `rawCells`).
    static func guarded(_ cells: [String], _ options: CSVOptions) -> [String] {
        guard !options.rawCells else { return cells }
        return cells.map { cell in cell.first.map(needsGuard) == true ? "'" + cell : cell }
    }

    /// A cell read back: the `'` that `guarded` put before a formula start or a `'` comes off again (unless
    /// `rawCells`); a `'` before anything else is the cell's own (`'Tis` from another program stays as it is).
    static func unguarded(_ cell: String, _ options: CSVOptions) -> String {
        guard !options.rawCells, cell.first == "'", let second = cell.dropFirst().first, needsGuard(second)
        else { return cell }
        return String(cell.dropFirst())
    }

    static func eventCells(_ event: Event, wall: (CalendarDate) -> LocalDateTime) -> [String] {
        var cells = [String](repeating: "", count: exportHeader.count)
        cells[0] = event.summary ?? ""
        if let start = event.start {
            let allDay = start.isDate
            let from = wall(start)
            var endDate = event.end
            if endDate == nil, let duration = event.duration {
                endDate = LocalDateTime(start).adding(seconds: Int64(duration.totalSeconds)).calendarDate(start.form)
            }
            let until = endDate.map(wall)
            cells[1] = usDate(from)
            cells[5] = allDay ? "True" : "False"
            if allDay {
                // Google reads an all-day End Date as the last day; iCalendar's DTEND is the day after.
                let last = until.map { $0.dayNumber > from.dayNumber ? $0.adding(days: -1) : from } ?? from
                cells[3] = usDate(last)
            } else {
                cells[2] = usTime(from)
                if let until {
                    cells[3] = usDate(until)
                    cells[4] = usTime(until)
                }
            }
        }
        fillCommon(&cells, event.core)
        cells[16] = "event"
        return cells
    }

    static func todoCells(_ todo: Todo, wall: (CalendarDate) -> LocalDateTime) -> [String] {
        var cells = [String](repeating: "", count: exportHeader.count)
        cells[0] = todo.summary ?? ""
        if let start = todo.start {
            let from = wall(start)
            cells[1] = usDate(from)
            if !start.isDate { cells[2] = usTime(from) }
            cells[5] = start.isDate ? "True" : "False"
        }
        if let due = todo.due {
            cells[12] = due.isDate ? usDate(wall(due)) : usDate(wall(due)) + " " + usTime(wall(due))
        }
        if let completed = todo.completed {
            let at = wall(completed)
            cells[13] = completed.isDate ? usDate(at) : usDate(at) + " " + usTime(at)
        }
        fillCommon(&cells, todo.core)
        cells[16] = "todo"
        return cells
    }

    static func fillCommon(_ cells: inout [String], _ core: ItemCore) {
        cells[6] = core.description ?? ""
        cells[7] = core.location ?? ""
        cells[8] = core.classification == .private || core.classification == .confidential ? "True" : "False"
        cells[9] = core.uid ?? ""
        cells[10] = core.categories.map(\.name).joined(separator: ";")
        cells[11] = core.status?.rawValue ?? ""
        cells[14] = core.priority.map(String.init) ?? ""
        cells[15] = core.recurrenceRules.map(\.icsValue).joined(separator: "\n")
    }

    /// `05/30/2024`, the date form Google Calendar's import documents.
    static func usDate(_ wall: LocalDateTime) -> String {
        CalendarDate.pad(wall.month, 2) + "/" + CalendarDate.pad(wall.day, 2) + "/" + CalendarDate.pad(wall.year, 4)
    }

    /// `10:00 AM`, seconds only when there are some.
    static func usTime(_ wall: LocalDateTime) -> String {
        let hour12 = wall.hour % 12 == 0 ? 12 : wall.hour % 12
        var text = String(hour12) + ":" + CalendarDate.pad(wall.minute, 2)
        if wall.second != 0 { text += ":" + CalendarDate.pad(wall.second, 2) }
        return text + (wall.hour < 12 ? " AM" : " PM")
    }
}
