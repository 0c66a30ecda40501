import CalendarModel
import CalendarStore
import Foundation

/// One self-contained HTML page for a week: the 7-day time grid (overlapping events side by side, a timed event
/// over several days drawn on each of them), a bar strip for all-day events, a Gantt chart of what covers several
/// days and of each group of overlapping events, and the week's todos with due dates and done state. Colours as
/// the legend says (PageColors); no network, one small script (the "now" line); readable when printed.
struct HTMLWeekPage {
    struct TodoRow {
        /// The todo of the occurrence: the override of a repeating todo's occurrence, else the todo.
        var todo: Todo
        var due: LocalDateTime?
        var calendar: String

        /// The todos due (or done) in [first, end) in the zone: each occurrence of a repeating todo on its own
        /// (ticked when its override is done), a todo that does not repeat once.
        static func rows(
            of calendar: ICalendar, name: String, from first: LocalDateTime, to end: LocalDateTime, zone: ZoneClock
        )
            -> [TodoRow]
        {
            let viewer = CalendarZone(known: zone.identifier)
            let time = CalendarTime(calendar: calendar, viewerZone: zone.identifier)
            var context = calendar
            context.components = calendar.components.filter { !$0.isItem }
            var byUID: [String: [CalendarComponent]] = [:]
            for component in calendar.components where component.kind == .todo {
                byUID[component.core?.uid ?? "", default: []].append(component)
            }
            let inside = { (moment: LocalDateTime) in moment >= first && moment < end }
            var rows: [TodoRow] = []
            for todo in calendar.todos where todo.recurrenceID == nil {
                if todo.isRecurring, let uid = todo.uid,
                    let series = TodoSeries(uid: uid, components: byUID[uid] ?? [], context: context)
                {
                    // An occurrence is placed by its due time (its start when it has none), as `todo` shows it.
                    let range = zone.date(of: first.adding(days: -400))..<zone.date(of: end)
                    for occurrence in series.occurrences(from: range.lowerBound, to: range.upperBound, zone: viewer) {
                        guard let value = occurrence.due ?? occurrence.start,
                            let date = occurrence.dueDate ?? occurrence.startDate
                        else { continue }
                        let due = value.isDate ? LocalDateTime(value) : zone.wallClock(at: date)
                        if inside(due) { rows.append(TodoRow(todo: occurrence.todo, due: due, calendar: name)) }
                    }
                    continue
                }
                let due = todo.due.map { $0.isDate ? LocalDateTime($0) : zone.wallClock(at: time.date(of: $0)) }
                let completed = todo.completed.map { zone.wallClock(at: time.date(of: $0)) }
                guard due.map(inside) == true || completed.map(inside) == true else { continue }
                rows.append(TodoRow(todo: todo, due: due, calendar: name))
            }
            return rows
        }
    }

    var title: String
    var zone: ZoneClock
    var layout: WeekLayout
    var todos: [TodoRow]
    var colors: PageColors
    var calendarOfEntry: [String]
    /// Warnings the page shows at its top (an instance budget spent).
    var notes: [String] = []
    var now: Date
    /// Who the reader is: invitations waiting for an answer, and declined ones, are marked.
    var me = Identity("")

    static let weekdays = PageColors.weekdays
    static let months = PageColors.months

    func html() -> String {
        let today = zone.wallClock(at: now)
        let todayIndex = today.dayNumber - layout.weekStart.dayNumber
        let week = layout.weekStart.isoWeek
        let last = layout.weekStart.adding(days: 6)
        let heading =
            "\(week.year)-W\(CalendarDate.pad(week.week, 2)) · \(layout.weekStart.day) "
            + "\(Self.months[layout.weekStart.month - 1]) – \(last.day) \(Self.months[last.month - 1]) \(last.year)"
        var out = Self.documentStart(
            title: title, heading: heading, zone: zone, legend: legend(),
            hours: layout.lastHour - layout.firstHour, notes: notes)
        out += "\n"
        out += "<section class=\"week\" aria-label=\"Week grid\">\n<div class=\"week-grid\">\n"
        out += "<div class=\"corner\"></div>"
        for day in 0..<7 {
            let date = layout.weekStart.adding(days: day)
            let isToday = day == todayIndex
            out +=
                "<div class=\"day-head\(isToday ? " today" : "")\"\(isToday ? " aria-current=\"date\"" : "")>"
                + "<span class=\"dow\">\(Self.weekdays[day])</span> <span class=\"dom\">\(date.day) "
                + "\(Self.months[date.month - 1])</span></div>"
        }
        out += "\n" + barStrip(todayIndex: todayIndex)
        out += "<div class=\"hours\">"
        for hour in layout.firstHour..<layout.lastHour {
            out += "<div class=\"hour\">\(CalendarDate.pad(hour, 2)):00</div>"
        }
        out += "</div>\n"
        for day in 0..<7 { out += dayColumn(day, isToday: day == todayIndex) }
        out += "</div>\n</section>\n"
        out += gantt()
        out += todoList(today: today)
        out +=
            "<footer>Made by icskit from the local store · \(layout.entries.count) instance(s), "
            + "\(todos.count) todo(s)</footer>\n"
        out += "<script>\(Self.script)</script>\n</body>\n</html>\n"
        return out
    }

    // MARK: Parts

    func legend() -> String {
        colors.legend(
            layout.entries.indices.map { (layout.entries[$0].occurrence.core, calendarOfEntry[$0]) }
                + todos.map { ($0.todo.core, $0.calendar) })
    }

    func barStrip(todayIndex: Int) -> String {
        let rows = (layout.bars.map(\.row).max() ?? -1) + 1
        var out = "<div class=\"bars\" style=\"grid-template-rows:repeat(\(max(rows, 1)),1.6rem)\">"
        out += "<div class=\"bars-label\">all day</div>"
        if todayIndex >= 0, todayIndex < 7 {
            out +=
                "<div class=\"bars-today\" style=\"grid-column:\(todayIndex + 2);grid-row:1 / span \(max(rows, 1))\"></div>"
        }
        for bar in layout.bars {
            let entry = layout.entries[bar.entry]
            let color = color(of: bar.entry)
            let classes =
                ["bar"] + (bar.continuesBefore ? ["from-before"] : []) + (bar.continuesAfter ? ["to-after"] : [])
            out +=
                "<div class=\"\(classes.joined(separator: " "))\" style=\"grid-column:\(bar.firstDay + 2) / "
                + "\(bar.lastDay + 3);grid-row:\(bar.row + 1);background:\(color);color:\(Self.textColor(on: color))\" "
                + "title=\"\(Self.escape(tooltip(entry)))\">\(Self.escape(entry.occurrence.summary ?? "(no title)"))"
                + "</div>"
        }
        return out + "</div>\n"
    }

    func dayColumn(_ day: Int, isToday: Bool) -> String {
        let span = Double((layout.lastHour - layout.firstHour) * 60)
        let dayStart = zone.date(of: layout.weekStart.adding(days: day).adding(seconds: Int64(layout.firstHour) * 3600))
        var out =
            "<div class=\"day\(isToday ? " today" : "")\" data-start=\"\(Int(dayStart.timeIntervalSince1970 * 1000))\" "
            + "data-minutes=\"\(Int(span))\">"
        for block in layout.blocks where block.day == day {
            let entry = layout.entries[block.entry]
            let from = max(block.startMinute, layout.firstHour * 60)
            let until = max(min(block.endMinute, layout.lastHour * 60), from + 15)
            let top = Double(from - layout.firstHour * 60) / span * 100
            let height = Double(until - from) / span * 100
            let width = 100.0 / Double(block.lanes)
            let color = color(of: block.entry)
            let core = entry.occurrence.core
            let short = until - from < 45
            let classes =
                ["event"] + (short ? ["short"] : []) + me.pageClasses(core)
                + (entry.occurrence.kind == .event && isFree(entry) ? ["free"] : [])
            let time =
                "<span class=\"time\">\(block.continuesBefore ? "…" : Self.clock(entry.start))–"
                + "\(block.continuesAfter ? "…" : Self.clock(entry.end))</span>"
            let what = "<span class=\"what\">\(Self.escape(entry.occurrence.summary ?? "(no title)"))</span>"
            // A short block has room for one line: the title comes first, the time after it (and in the tooltip).
            out +=
                "<div class=\"\(classes.joined(separator: " "))\" style=\"top:\(Self.percent(top));"
                + "height:\(Self.percent(height));left:\(Self.percent(width * Double(block.lane)));"
                + "width:\(Self.percent(width));background:\(color);color:\(Self.textColor(on: color))\" "
                + "title=\"\(Self.escape(tooltip(entry)))\">"
                + (short ? what + " " + time : time + " " + what)
                + (core.location.map { " <span class=\"where\">\(Self.escape($0))</span>" } ?? "")
                + "</div>"
        }
        return out + "</div>\n"
    }

    /// What covers several days, on a scale of the week; then each group of overlapping events on a scale of
    /// that group's hours, so that an overlap of half an hour is visible.
    func gantt() -> String {
        var out = "<section class=\"gantt\" aria-label=\"Gantt\">\n<h2>Multi-day and overlapping</h2>\n"
        guard !layout.multiDay.isEmpty || !layout.overlapGroups.isEmpty else {
            return out + "<p class=\"empty\">Nothing runs over several days or overlaps this week.</p>\n</section>\n"
        }
        if !layout.multiDay.isEmpty {
            out += "<h3>Over several days</h3>\n<div class=\"gantt-grid\"><div class=\"gantt-label\"></div>"
            out += "<div class=\"gantt-scale\" style=\"grid-template-columns:repeat(7,1fr)\">"
            for day in 0..<7 {
                let date = layout.weekStart.adding(days: day)
                out += "<span>\(Self.weekdays[day]) \(date.day)</span>"
            }
            out += "</div>\n"
            for index in layout.multiDay {
                out += ganttRow(index, from: layout.weekStart, until: layout.weekStart.adding(days: 7), track: 7)
            }
            out += "</div>\n"
        }
        for group in layout.overlapGroups {
            let entries = group.map { layout.entries[$0] }
            let start = entries.map(\.start).min()!, end = entries.map(\.end).max()!
            // The scale runs over whole hours around the group.
            let from = start.adding(seconds: -Int64(start.minute * 60 + start.second))
            var until = end.adding(seconds: -Int64(end.minute * 60 + end.second))
            if until < end { until = until.adding(seconds: 3600) }
            let hours = max(Int((until.wallSeconds - from.wallSeconds) / 3600), 1)
            out +=
                "<h3>Overlapping · \(PageColors.day(start)) \(Self.clock(start))–\(Self.clock(end)) · "
                + "\(entries.count) events</h3>\n<div class=\"gantt-grid\"><div class=\"gantt-label\"></div>"
                + "<div class=\"gantt-scale\" style=\"grid-template-columns:repeat(\(hours),1fr)\">"
            for hour in 0..<hours { out += "<span>\(Self.clock(from.adding(seconds: Int64(hour) * 3600)))</span>" }
            out += "</div>\n"
            for index in group { out += ganttRow(index, from: from, until: until, track: hours) }
            out += "</div>\n"
        }
        return out + "</section>\n"
    }

    /// One Gantt row: the label, and the instance's bar on a track from `from` to `until` with `track` divisions.
    func ganttRow(_ index: Int, from: LocalDateTime, until: LocalDateTime, track: Int) -> String {
        let entry = layout.entries[index]
        let span = Double(until.wallSeconds - from.wallSeconds)
        let left = max(0, Double(entry.start.wallSeconds - from.wallSeconds)) / span * 100
        let right = min(span, Double(entry.end.wallSeconds - from.wallSeconds)) / span * 100
        let color = color(of: index)
        let when =
            entry.isAllDay
            ? "" : "<span class=\"gantt-when\">\(Self.clock(entry.start))–\(Self.clock(entry.end))</span>"
        return "<div class=\"gantt-label\">\(Self.escape(entry.occurrence.summary ?? "(no title)"))\(when)</div>"
            + "<div class=\"gantt-track\" style=\"--divisions:\(track)\"><div class=\"gantt-bar\" "
            + "style=\"left:\(Self.percent(left));width:\(Self.percent(max(right - left, 0.6)));background:\(color)\" "
            + "title=\"\(Self.escape(tooltip(entry)))\"></div></div>\n"
    }

    func todoList(today: LocalDateTime) -> String {
        var out = "<section class=\"todos\" aria-label=\"Todos\">\n<h2>Todos</h2>\n"
        guard !todos.isEmpty else { return out + "<p class=\"empty\">No todos due this week.</p>\n</section>\n" }
        out += "<ul>"
        for row in todos {
            let todo = row.todo
            let done = todo.isCompleted
            let overdue = !done && (row.due.map { $0 < today } ?? false)
            let color = colors.color(of: todo.core, calendar: row.calendar)
            out +=
                "<li class=\"\(done ? "done" : overdue ? "overdue" : "open")\">"
                + "<span class=\"check\" aria-label=\"\(done ? "done" : "open")\">\(done ? "☑" : "☐")</span>"
                + "<span class=\"swatch\" style=\"background:\(color)\"></span>"
                + "<span class=\"what\">\(Self.escape(todo.summary ?? "(no title)"))</span>"
            if let due = row.due {
                let date = PageColors.day(due)
                out +=
                    "<span class=\"due\">due \(date)\(todo.due?.isDate == true ? "" : " " + Self.clock(due))"
                    + "\(overdue ? " · overdue" : "")</span>"
            }
            if let priority = todo.priority, priority > 0 {
                out +=
                    "<span class=\"prio p\(priority <= 4 ? "high" : priority == 5 ? "mid" : "low")\">P\(priority)</span>"
            }
            out += "</li>"
        }
        return out + "</ul>\n</section>\n"
    }

    // MARK: Colours and text

    func color(of entry: Int) -> String {
        colors.color(of: layout.entries[entry].occurrence.core, calendar: calendarOfEntry[entry])
    }

    func isFree(_ entry: WeekLayout.Entry) -> Bool {
        if case .event(let event) = entry.occurrence.item { return event.transparency == .transparent }
        return false
    }

    func tooltip(_ entry: WeekLayout.Entry) -> String {
        var text = entry.occurrence.summary ?? "(no title)"
        if entry.coversSeveralDays, !entry.isAllDay {
            text +=
                " · \(PageColors.day(entry.start)) \(Self.clock(entry.start)) – "
                + "\(PageColors.day(entry.end)) \(Self.clock(entry.end))"
        } else if !entry.isAllDay {
            text += " · \(Self.clock(entry.start))–\(Self.clock(entry.end))"
        }
        if let location = entry.occurrence.core.location, !location.isEmpty { text += " · " + location }
        let categories = entry.occurrence.core.categories.map(\.name)
        if !categories.isEmpty { text += " · " + categories.joined(separator: ", ") }
        return text + me.pageNote(entry.occurrence.core)
    }

    static func textColor(on color: String) -> String { PageColors.textColor(on: color) }

    static func clock(_ time: LocalDateTime) -> String { PageColors.clock(time) }

    static func percent(_ value: Double) -> String { String(format: "%.3f%%", value) }

    static func escape(_ text: String) -> String { PageColors.escape(text) }

    // MARK: Style and script

    /// The start of a page (week or month) up to its header: title, style sheet, heading, zone and legend.
    static func documentStart(
        title: String, heading: String, zone: ZoneClock, legend: String, hours: Int, bodyClass: String? = nil,
        notes: [String] = []
    ) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="generator" content="icskit">
        <title>\(escape(title)) · \(escape(heading))</title>
        <style>\(css(hours: hours))</style>
        </head>
        <body\(bodyClass.map { " class=\"\($0)\"" } ?? "")>
        <header><h1>\(escape(title))</h1><p class="sub">\(escape(heading)) · times in \
        \(escape(zone.identifier))</p>\(legend)\(notes.map { "<p class=\"warning\" role=\"alert\">\(escape($0))</p>" }.joined())</header>
        """
    }

    /// The page's style sheet (Resources/week.css, compiled in) with the number of hour rows the grid shows.
    static func css(hours: Int) -> String {
        String(decoding: PackageResources.week_css, as: UTF8.self) + ":root{--hours:\(hours)}\n"
    }

    /// Draws the current time as a line in today's column while the page is open; marks the page as rendered
    /// (Resources/week.js, compiled in).
    static let script = String(decoding: PackageResources.week_js, as: UTF8.self)
}
