import Foundation

/// CSV rows into calendar components: Google Calendar's import layout, Outlook's calendar and task exports, ICSKit's
/// own export, or any table whose headers `--columns` maps. A cell that cannot be read is reported with its row and
/// column; a row whose dates cannot be read is skipped, a row with a bad priority or RRULE keeps the rest. Columns
/// no field claims travel as `X-ICSKIT-CSV;X-COLUMN=header:value`, so nothing is dropped.
extension CSVCalendar {
    /// Reads a CSV table into one calendar; cells that cannot be read are errors naming their line, row and column.
    package static func read(_ bytes: [UInt8], file: String?, options: CSVOptions = CSVOptions()) -> ICS.ReadResult {
        var importer = CSVImporter(file: file, options: options)
        return importer.read(bytes)
    }
}

/// The property that carries a column no field claims.
let csvColumnProperty = "X-ICSKIT-CSV"

struct CSVImporter {
    let file: String?
    let options: CSVOptions
    var diagnostics: [Diagnostic] = []
    var headers: [String] = []
    var fields: [CSVField?] = []
    /// The first year a zoned time is in, for the VTIMEZONE.
    var earliestYear: Int?
    /// Whether `a/b/yyyy` dates put the day first, decided once for the whole file.
    var dayFirst = false
    let stamp = CalendarDate.utc(Date())
    /// The import's zone, made once: times in it become UTC for COMPLETED.
    let clock: ZoneClock?

    init(file: String?, options: CSVOptions) {
        self.file = file
        self.options = options
        clock = options.zone.flatMap(ZoneClock.init(identifier:))
    }

    mutating func error(_ line: Int, _ message: String, code: String) {
        diagnostics.append(Diagnostic(.error, file: file, line: line, message, code: code))
    }
    mutating func warning(_ line: Int, _ message: String, code: String) {
        diagnostics.append(Diagnostic(.warning, file: file, line: line, message, code: code))
    }

    mutating func read(_ bytes: [UInt8]) -> ICS.ReadResult {
        let (table, problems) = CSVTable.read(bytes)
        for problem in problems {
            if problem.isError {
                error(problem.line, problem.message, code: "csv-syntax")
            } else {
                warning(problem.line, problem.message, code: "csv-syntax")
            }
        }
        guard let header = table.rows.first else {
            error(
                bytes.isEmpty ? 0 : 1, "no header row: the first line of a CSV calendar names its columns",
                code: "csv-no-header")
            return ICS.ReadResult(calendars: [], diagnostics: diagnostics)
        }
        headers = header.cells
        fields = headers.map { options.columns[CSVField.key($0)] ?? CSVField.recognising($0) }
        let present = Set(fields.compactMap { $0 })
        guard present.contains(.summary) || !present.isDisjoint(with: [.start, .startDate, .due]) else {
            error(
                header.line,
                "no column is a subject, start or due date (headers: "
                    + headers.map { "\"\($0)\"" }.joined(separator: ", ") + "); name them with --columns HEADER=FIELD, "
                    + "fields: " + CSVField.allCases.map(\.rawValue).joined(separator: ", "), code: "csv-no-date-column"
            )
            return ICS.ReadResult(calendars: [], diagnostics: diagnostics)
        }
        let rows = Array(table.rows.dropFirst())
        decideDateOrder(rows)
        let taskLayout =
            !present.isDisjoint(with: [.due, .completed, .percentComplete])
            && present.isDisjoint(with: [.end, .endDate, .endTime])
        var calendar = ICalendar()
        calendar.productID = ICS.productID
        calendar.version = "2.0"
        for (offset, row) in rows.enumerated() {
            if row.cells.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) { continue }
            if row.cells.count > headers.count {
                warning(
                    row.line,
                    "row \(offset + 2) has \(row.cells.count) cells, the header \(headers.count); "
                        + "the cells past the last column are ignored", code: "csv-cell-count")
            }
            if let component = component(row, number: offset + 2, taskLayout: taskLayout) {
                calendar.components.append(component)
            }
        }
        // Times in a zone need its VTIMEZONE (Outlook will not read them without): tzdata's, from the first year used.
        if let zone = options.zone, let earliestYear,
            let definition = ICalendar.vtimezone(iana: zone, fromYear: earliestYear)
        {
            calendar.components.insert(.timeZone(TimeZoneDefinition(definition)), at: 0)
        }
        var result = ICS.ReadResult(calendars: [calendar], diagnostics: diagnostics)
        // A quoted cell never closed means the table stops there: the rows after it are missing, not deleted.
        result.isTruncated = problems.contains(where: \.isError)
        return result
    }

    static let dateFields: Set<CSVField> = [.startDate, .endDate, .start, .end, .due, .completed, .reminderDate]

    /// `3/4/2024` (or `3-4-2024`) is 4 March when some such date in the file has a first part over 12 (and not a
    /// year), else 3 April.
    mutating func decideDateOrder(_ rows: [CSVTable.Row]) {
        var firstOver12 = false
        for row in rows {
            for (index, cell) in row.cells.enumerated() where index < fields.count {
                guard let field = fields[index], Self.dateFields.contains(field) else { continue }
                let parts = cell.split(separator: " ").first?.split { $0 == "/" || $0 == "-" } ?? []
                if parts.count == 3, let first = Int(parts[0]), let second = Int(parts[1]), (13...31).contains(first),
                    second <= 12
                {
                    firstOver12 = true
                }
            }
        }
        dayFirst = firstOver12
    }

    // MARK: One row

    struct Cells {
        /// Each field's cell as read (text fields keep their spaces) and its column.
        var values: [CSVField: (text: String, column: Int)] = [:]
        /// The cell with surrounding spaces trimmed, nil when empty.
        subscript(field: CSVField) -> String? {
            guard let value = values[field]?.text.trimmingCharacters(in: .whitespaces), !value.isEmpty else {
                return nil
            }
            return value
        }
        /// The cell as read with its line breaks as `\n` (spreadsheets write CRLF inside cells), nil when blank.
        func text(_ field: CSVField) -> String? {
            guard self[field] != nil, let text = values[field]?.text else { return nil }
            guard text.utf8.contains(0x0D) else { return text }
            return String(text.map { $0 == "\r\n" || $0 == "\r" ? "\n" : $0 })
        }
    }

    /// A row left out; why was reported where it was found.
    struct RowSkipped: Error {}

    /// Where a row stands, for its diagnostics.
    struct RowPlace {
        var line: Int
        var number: Int
    }

    /// One row as an event or a todo; nil (with a diagnostic) for a row that cannot be one.
    mutating func component(_ row: CSVTable.Row, number: Int, taskLayout: Bool) -> CalendarComponent? {
        var (cells, unclaimed) = self.cells(of: row)
        let at = RowPlace(line: row.line, number: number)
        do {
            var isTodo = Self.isTodo(cells, taskLayout: taskLayout)
            let start = try startDate(cells, at)
            let end = isTodo ? nil : try endDate(cells, start: start, at)
            let (due, completed) = isTodo ? try todoDates(cells, at) : (nil, nil)
            guard
                cells[.summary] != nil || start != nil || due != nil || cells[.uid] != nil
                    || cells[.description] != nil
            else {
                warning(
                    at.line, "row \(at.number) has no subject, start, due date, UID or description; skipped",
                    code: "csv-empty-row")
                return nil
            }
            if !isTodo, start == nil { isTodo = undatedIsTodo(cells, at) }
            var core = ItemCore()
            core.stamp = stamp
            core.summary = cells.text(.summary)
            if let start { core.start = noteZone(start) }
            describe(&core, cells, isTodo: isTodo, completed: completed, at)
            let percentComplete = isTodo ? self.percentComplete(cells, at) : nil
            readRules(&core, cells, at)
            addPeople(cells, &core, &unclaimed)
            var item: CalendarComponent
            if isTodo {
                var todo = Todo()
                todo.core = core
                (todo.due, todo.completed, todo.percentComplete) = (due, completed, percentComplete)
                todo.alarms = alarms(cells, anchor: due, relatedToEnd: due != nil)
                todo.otherProperties = others(cells, isTodo: true) + unclaimed
                item = .todo(todo)
            } else {
                var event = Event()
                event.core = core
                if let end { event.end = noteZone(end) }
                event.transparency =
                    cells[.showTimeAs].flatMap { ["0", "free"].contains($0.lowercased()) }
                        == true ? .transparent : nil
                event.alarms = alarms(cells, anchor: start, relatedToEnd: false)
                event.otherProperties = others(cells, isTodo: false) + unclaimed
                item = .event(event)
            }
            let uid = cells.text(.uid) ?? Self.derivedUID(item.encoded)
            item.core?.uid = uid
            return item
        } catch {
            return nil
        }
    }

    /// Whether an event row without a start is read as a to-do: an event needs a start (RFC 5545 §3.6.1 in a
    /// calendar without METHOD), so it is one unless its kind says event (an iTIP event written to CSV), which is
    /// kept as it was; either said.
    private mutating func undatedIsTodo(_ cells: Cells, _ at: RowPlace) -> Bool {
        guard cells[.kind] == nil else {
            warning(
                at.line, "row \(at.number) is an event without a start date; kept, but strict readers want DTSTART",
                code: "csv-event-without-start")
            return false
        }
        warning(at.line, "row \(at.number) has no start date; read as a to-do", code: "csv-row-read-as-todo")
        return true
    }

    /// The row's cells by field, and a property for each cell of a column no field claims.
    func cells(of row: CSVTable.Row) -> (Cells, [Property]) {
        var cells = Cells()
        var unclaimed: [Property] = []
        for (index, cell) in row.cells.prefix(headers.count).enumerated() {
            let text = CSVCalendar.unguarded(cell, options)
            var value = text
            let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
            // Outlook writes "0/0/00" (and some tools "None") for a date it does not have.
            if let field = fields[index], Self.dateFields.contains(field),
                ["0/0/00", "0/0/0000", "none", "n/a"].contains(trimmed)
            {
                value = ""
            }
            if let field = fields[index] {
                if field != .ignore { cells.values[field] = (value, index) }
            } else if !trimmed.isEmpty {
                unclaimed.append(
                    Property(
                        csvColumnProperty, parameters: [Parameter("X-COLUMN", headers[index])],
                        value: TextEscaping.escape(text)))
            }
        }
        return (cells, unclaimed)
    }

    /// Reports a cell that does not read as its field.
    mutating func bad(_ field: CSVField, _ cells: Cells, _ at: RowPlace, _ what: String, _ consequence: String) {
        let column = cells.values[field].map { headers[$0.column] } ?? field.rawValue
        error(
            at.line,
            "row \(at.number), column \"\(column)\": \"\(cells.values[field]?.text ?? "")\" \(what); " + consequence,
            code: "csv-bad-cell")
    }

    /// Whether the row is a to-do: its kind says so, or a task layout, or it has only to-do fields.
    static func isTodo(_ cells: Cells, taskLayout: Bool) -> Bool {
        switch cells[.kind]?.lowercased() {
        case "todo", "task", "vtodo": return true
        case "event", "vevent", "appointment", "meeting": return false
        default:
            return taskLayout || cells[.due] != nil || cells[.completed] != nil || cells[.percentComplete] != nil
                || todoStatuses[cells[.status]?.lowercased() ?? ""] != nil && cells[.end] == nil
                    && cells[.endDate] == nil
        }
    }

    /// The start: one date-and-time cell, or a date cell and a time cell; a date for an all-day row.
    mutating func startDate(_ cells: Cells, _ at: RowPlace) throws -> CalendarDate? {
        var start: CalendarDate?
        if let text = cells[.start] {
            guard let date = moment(text) else { throw skip(.start, cells, at, "is not a date or date and time") }
            start = date
        } else if let dateText = cells[.startDate] {
            guard let day = day(dateText) else { throw skip(.startDate, cells, at, Self.notADay) }
            if let timeText = cells[.startTime], cells[.allDay].map(Self.truth) != true {
                guard let time = Self.time(timeText) else { throw skip(.startTime, cells, at, Self.notATime) }
                start = timed(day, time)
            } else {
                start = CalendarDate(unchecked: day.year, month: day.month, day: day.day)
            }
        }
        if cells[.allDay].map(Self.truth) == true, let timedStart = start, !timedStart.isDate {
            start = CalendarDate(unchecked: timedStart.year, month: timedStart.month, day: timedStart.day)
        }
        return start
    }

    static let notADay = "is not a date (MM/DD/YYYY, DD.MM.YYYY or YYYY-MM-DD)"
    static let notATime = "is not a time of day (10:00 AM or 14:30)"

    /// Reports a cell that leaves its row out, and the error that does.
    mutating func skip(_ field: CSVField, _ cells: Cells, _ at: RowPlace, _ what: String) -> RowSkipped {
        bad(field, cells, at, what, "row skipped")
        return RowSkipped()
    }

    /// An event's end, in its start's kind; one before the start is left out with a warning.
    mutating func endDate(_ cells: Cells, start: CalendarDate?, _ at: RowPlace) throws -> CalendarDate? {
        guard let start else { return nil }
        var end: CalendarDate?
        if let text = cells[.end] {
            guard let date = moment(text) else { throw skip(.end, cells, at, "is not a date or date and time") }
            // The end takes the start's kind: a date for an all-day start, midnight for a timed one.
            end =
                start.isDate
                ? CalendarDate(unchecked: date.year, month: date.month, day: date.day)
                : date.isDate ? timed((date.year, date.month, date.day), (0, 0, 0)) : date
        } else if cells[.endDate] != nil || cells[.endTime] != nil {
            end = try endFromParts(cells, start: start, at)
        } else if start.isDate {
            end = LocalDateTime(start).adding(days: 1).calendarDate(.date)
        }
        if let endValue = end, LocalDateTime(endValue) < LocalDateTime(start) {
            warning(
                at.line,
                "row \(at.number): the end \(endValue.icsValue) is before the start \(start.icsValue); the end is left out",
                code: "csv-end-before-start")
            return nil
        }
        return end
    }

    /// An end from a date cell and a time cell, either of which may be missing.
    mutating func endFromParts(_ cells: Cells, start: CalendarDate, _ at: RowPlace) throws -> CalendarDate {
        var endDay = (start.year, start.month, start.day)
        if let dateText = cells[.endDate] {
            guard let day = day(dateText) else { throw skip(.endDate, cells, at, Self.notADay) }
            endDay = (day.year, day.month, day.day)
        }
        if start.isDate {
            let time = cells[.endTime].flatMap(Self.time)
            let last = LocalDateTime(year: endDay.0, month: endDay.1, day: endDay.2)
            // Outlook writes the day after with 12:00 AM (as iCalendar does); Google the last day itself.
            let exclusive = time.map { $0 == (0, 0, 0) } == true && last.dayNumber > LocalDateTime(start).dayNumber
            return (exclusive ? last : last.adding(days: 1)).calendarDate(.date)
        }
        if let timeText = cells[.endTime] {
            guard let time = Self.time(timeText) else { throw skip(.endTime, cells, at, Self.notATime) }
            return timed((endDay.0, endDay.1, endDay.2), time)
        }
        return timed((endDay.0, endDay.1, endDay.2), (start.hour, start.minute, start.second))
    }

    /// A to-do's due and completion times.
    mutating func todoDates(_ cells: Cells, _ at: RowPlace) throws -> (CalendarDate?, CalendarDate?) {
        var due: CalendarDate?, completed: CalendarDate?
        if let text = cells[.due] {
            guard let value = moment(text) else { throw skip(.due, cells, at, "is not a date or date and time") }
            due = noteZone(value)
        }
        if let text = cells[.completed] {
            guard let value = moment(text) else { throw skip(.completed, cells, at, "is not a date or date and time") }
            completed = utc(value)
        }
        return (due, completed)
    }

    /// Description, location, class, categories, status and priority.
    mutating func describe(
        _ core: inout ItemCore, _ cells: Cells, isTodo: Bool, completed: CalendarDate?, _ at: RowPlace
    ) {
        core.description = cells.text(.description)
        core.location = cells.text(.location)
        if cells[.private].map(Self.truth) == true {
            core.classification = .private
        } else if let sensitivity = cells[.sensitivity]?.lowercased(), sensitivity != "normal" {
            core.classification = sensitivity == "confidential" ? .confidential : .private
        }
        core.categories = Self.list(cells[.categories]).map { Category($0) }
        var status = cells[.status].flatMap { Self.status($0, isTodo: isTodo) }
        if cells[.status] != nil, status == nil { bad(.status, cells, at, "is not a status", "left out") }
        if isTodo, status == nil, completed != nil { status = .completed }
        if !isTodo, status == nil, let show = cells[.showTimeAs], ["1", "tentative"].contains(show.lowercased()) {
            status = .tentative
        }
        core.status = status
        if let text = cells[.priority] {
            if let priority = Self.priority(text) {
                core.priority = priority
            } else {
                bad(.priority, cells, at, "is not a priority (0–9, High, Normal or Low)", "left out")
            }
        }
    }

    /// A to-do's percentage done: `50`, `50%` or a fraction (`0.5`).
    mutating func percentComplete(_ cells: Cells, _ at: RowPlace) -> Int? {
        guard let text = cells[.percentComplete] else { return nil }
        let digits = text.replacingOccurrences(of: "%", with: "").trimmingCharacters(in: .whitespaces)
        if let percent = Int(digits)
            ?? Double(digits).map({ Int(($0 <= 1 && digits.contains(".") ? $0 * 100 : $0).rounded()) }),
            (0...100).contains(percent)
        {
            return percent
        }
        bad(.percentComplete, cells, at, "is not a percentage (0–100)", "left out")
        return nil
    }

    /// The recurrence rules, one a line of the cell.
    mutating func readRules(_ core: inout ItemCore, _ cells: Cells, _ at: RowPlace) {
        guard let text = cells[.rrule] else { return }
        for line in text.split(whereSeparator: \.isNewline) {
            let body = line.hasPrefix("RRULE:") ? line.dropFirst(6) : line[...]
            if let rule = RecurrenceRule.parse(String(body)).success {
                core.recurrenceRules.append(rule)
            } else {
                bad(.rrule, cells, at, "is not a recurrence rule (FREQ=WEEKLY;BYDAY=MO…)", "left out")
            }
        }
    }

    /// Outlook's busy states that iCalendar has no property for, and the resources.
    func others(_ cells: Cells, isTodo: Bool) -> [Property] {
        var other: [Property] = []
        if !isTodo, let show = cells[.showTimeAs]?.lowercased() {
            switch show {
            case "3", "out of office", "away": other.append(Property("X-MICROSOFT-CDO-BUSYSTATUS", value: "OOF"))
            case "4", "working elsewhere":
                other.append(Property("X-MICROSOFT-CDO-BUSYSTATUS", value: "WORKINGELSEWHERE"))
            default: break
            }
        }
        let resources = Self.list(cells[.resources])
        if !resources.isEmpty {
            other.append(Property("RESOURCES", value: resources.map(TextEscaping.escape).joined(separator: ",")))
        }
        return other
    }

    /// The reminder, when the row has one on.
    func alarms(_ cells: Cells, anchor: CalendarDate?, relatedToEnd: Bool) -> [Alarm] {
        guard cells[.reminderOn].map(Self.truth) == true else { return [] }
        return [alarm(cells, anchor: anchor, relatedToEnd: relatedToEnd, summary: cells[.summary])]
    }

    /// The order earlier versions wrote an imported row's properties in. A row without a UID is keyed by a
    /// fingerprint of its properties in this order, so a CSV file imported before keys its rows as it did then and
    /// importing it again finds the same items.
    static let derivationOrder = [
        "DTSTAMP", "SUMMARY", "DTSTART", "DTEND", "DUE", "COMPLETED", "DESCRIPTION", "LOCATION", "CLASS", "CATEGORIES",
        "STATUS", "PRIORITY", "PERCENT-COMPLETE", "RRULE", "TRANSP", "X-MICROSOFT-CDO-BUSYSTATUS", "ORGANIZER",
        "ATTENDEE", "RESOURCES",
    ]

    static func derivedUID(_ component: Component) -> String {
        var ordered = component
        let rank = Dictionary(uniqueKeysWithValues: derivationOrder.enumerated().map { ($1, $0) })
        // A stable sort: the X-ICSKIT-CSV columns keep their order after the named properties.
        ordered.properties = component.properties.enumerated().sorted {
            (rank[$0.element.name] ?? rank.count, $0.offset) < (rank[$1.element.name] ?? rank.count, $1.offset)
        }.map(\.element)
        return ordered.derivedUID
    }

    /// A `;`-separated cell (categories, resources) as its trimmed, non-empty entries.
    static func list(_ cell: String?) -> [String] {
        (cell ?? "").split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Organizer and attendees with an e-mail address become ORGANIZER and ATTENDEE; names alone stay in the
    /// column's X-ICSKIT-CSV property.
    mutating func addPeople(_ cells: Cells, _ core: inout ItemCore, _ unclaimed: inout [Property]) {
        func people(_ text: String) -> [(name: String?, address: String?)] {
            text.split(separator: ";").map { entry in
                let trimmed = entry.trimmingCharacters(in: .whitespaces)
                if let open = trimmed.firstIndex(of: "<"), let close = trimmed.lastIndex(of: ">"), open < close {
                    let name = trimmed[..<open].trimmingCharacters(in: CharacterSet(charactersIn: " \""))
                    return (name.isEmpty ? nil : name, String(trimmed[trimmed.index(after: open)..<close]))
                }
                return trimmed.contains("@") ? (nil, trimmed) : (trimmed, nil)
            }
        }
        func keep(_ field: CSVField, _ names: [String]) {
            guard !names.isEmpty, let column = cells.values[field]?.column else { return }
            unclaimed.append(
                Property(
                    csvColumnProperty, parameters: [Parameter("X-COLUMN", headers[column])],
                    value: TextEscaping.escape(names.joined(separator: "; "))))
        }
        if let text = cells[.organizer] {
            let organizer = people(text).first
            if let address = organizer?.address {
                core.organizer = CalendarUser(address: "mailto:" + address, commonName: organizer?.name)
            } else {
                keep(.organizer, [text])
            }
        }
        for (field, role) in [(CSVField.requiredAttendees, "REQ-PARTICIPANT"), (.optionalAttendees, "OPT-PARTICIPANT")]
        {
            guard let text = cells[field] else { continue }
            var nameless: [String] = []
            for person in people(text) {
                guard let address = person.address else {
                    if let name = person.name, !name.isEmpty { nameless.append(name) }
                    continue
                }
                core.attendees.append(
                    CalendarUser(
                        address: "mailto:" + address,
                        parameters: [Parameter("ROLE", role)] + (person.name.map { [Parameter("CN", $0)] } ?? [])))
            }
            keep(field, nameless)
        }
    }

    /// A display alarm at the reminder's date and time, relative to an event's start or a todo's due date
    /// (Outlook's default of 15 minutes before when only the on/off column says there is a reminder).
    func alarm(_ cells: Cells, anchor: CalendarDate?, relatedToEnd: Bool, summary: String?) -> Alarm {
        var offset = CalendarDuration(isNegative: true, minutes: 15)
        if let anchor, let dateText = cells[.reminderDate], let day = day(dateText) {
            let time = cells[.reminderTime].flatMap(Self.time) ?? (0, 0, 0)
            let at = LocalDateTime(
                year: day.year, month: day.month, day: day.day, hour: time.0, minute: time.1,
                second: time.2)
            let seconds = Int(at.wallSeconds - LocalDateTime(anchor).wallSeconds)
            let magnitude = abs(seconds)
            offset = CalendarDuration(
                isNegative: seconds < 0, days: magnitude / 86_400, hours: magnitude % 86_400 / 3600,
                minutes: magnitude % 3600 / 60, seconds: magnitude % 60)
        }
        var alarm = Alarm()
        alarm.action = .display
        alarm.trigger = .relative(offset, relatedToEnd: relatedToEnd)
        alarm.description = summary.flatMap { $0.isEmpty ? nil : $0 } ?? "Reminder"
        return alarm
    }
}
