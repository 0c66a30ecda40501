import CalendarModel
import Foundation

/// One self-contained HTML page for a month, as calendar apps show one: whole weeks from Monday to Sunday, one box
/// per day listing its all-day events (as coloured chips, continued across the days they cover), its timed events
/// by start (an event over several days marked `13:00 →`, `↔`, `→ 23:00` on its days) and the todos due that day.
/// Days outside the month are dimmed; today is marked. Same colours, legend, style and script as the week page.
struct HTMLMonthPage {
    var title: String
    var zone: ZoneClock
    /// The first day of the month; the grid runs over whole weeks, `gridStart` (a Monday) up to `gridEnd`.
    var month: LocalDateTime
    var gridStart: LocalDateTime
    var gridEnd: LocalDateTime
    var occurrences: [(occurrence: Occurrence, calendar: String)]
    var todos: [HTMLWeekPage.TodoRow]
    var colors: PageColors
    /// Warnings the page shows at its top (an instance budget spent).
    var notes: [String] = []
    var now: Date
    /// Who the reader is: invitations waiting for an answer, and declined ones, are marked.
    var me = Identity("")

    static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]

    /// An instance in wall-clock time, with the grid days (from `gridStart`) it covers.
    struct Placed {
        var occurrence: Occurrence
        var calendar: String
        var start: LocalDateTime
        var end: LocalDateTime
        var firstDay: Int
        var lastDay: Int
    }

    func placed() -> [Placed] {
        occurrences.map { occurrence, calendar in
            let span = WeekLayout.span(of: occurrence, zone: zone, from: gridStart)
            return Placed(
                occurrence: occurrence, calendar: calendar, start: span.start, end: span.end,
                firstDay: span.firstDay, lastDay: span.lastDay)
        }
    }

    func html() -> String {
        let days = gridEnd.dayNumber - gridStart.dayNumber
        let todayIndex = zone.wallClock(at: now).dayNumber - gridStart.dayNumber
        let heading = "\(Self.monthNames[month.month - 1]) \(month.year)"
        let items = placed()
        var out = HTMLWeekPage.documentStart(
            title: title, heading: heading, zone: zone,
            legend: colors.legend(
                items.map { ($0.occurrence.core, $0.calendar) } + todos.map { ($0.todo.core, $0.calendar) }),
            hours: 10, bodyClass: "month-page", notes: notes)
        out += """

            <section class="month" aria-label="Month grid">
            <div class="month-grid">

            """
        for weekday in PageColors.weekdays { out += "<div class=\"month-head\">\(weekday)</div>" }
        out += "\n"
        for day in 0..<days {
            let date = gridStart.adding(days: day)
            let classes =
                ["month-day"] + (date.month != month.month ? ["outside"] : [])
                + (day == todayIndex ? ["today"] : [])
            out +=
                "<div class=\"\(classes.joined(separator: " "))\"\(day == todayIndex ? " aria-current=\"date\"" : "")>"
                + "<div class=\"month-date\">\(date.day == 1 ? "\(date.day) \(PageColors.months[date.month - 1])" : "\(date.day)")</div><ul>"
            out += cell(day, items)
            out += "</ul></div>\n"
        }
        out += "</div>\n</section>\n"
        let instances = items.filter { $0.lastDay >= 0 && $0.firstDay < days }.count
        out +=
            "<footer>Made by icskit from the local store · \(instances.counted("instance")), "
            + "\(todos.count.counted("todo"))</footer>\n"
        out += "<script>\(HTMLWeekPage.script)</script>\n</body>\n</html>\n"
        return out
    }

    /// The list items of one day: all-day chips, then timed events by start, then the todos due that day.
    func cell(_ day: Int, _ items: [Placed]) -> String {
        var out = ""
        let covering = items.filter { $0.firstDay <= day && $0.lastDay >= day }
        for item in covering where item.occurrence.isAllDay {
            let color = colors.color(of: item.occurrence.core, calendar: item.calendar)
            let classes =
                ["chip"] + (item.firstDay < day ? ["from-before"] : []) + (item.lastDay > day ? ["to-after"] : [])
            out +=
                "<li class=\"\(classes.joined(separator: " "))\" style=\"background:\(color);"
                + "color:\(PageColors.textColor(on: color))\" title=\"\(PageColors.escape(tooltip(item)))\">"
                + "\(item.firstDay < day ? "← " : "")\(PageColors.escape(item.occurrence.summary ?? "(no title)"))"
                + "\(item.lastDay > day ? " →" : "")</li>"
        }
        for item in covering where !item.occurrence.isAllDay {
            let color = colors.color(of: item.occurrence.core, calendar: item.calendar)
            let time: String
            switch (item.firstDay == day, item.lastDay == day) {
            case (true, true): time = PageColors.clock(item.start)
            case (true, false): time = PageColors.clock(item.start) + " →"
            case (false, true): time = "→ " + PageColors.clock(item.end)
            case (false, false): time = "↔"
            }
            let state = me.pageClasses(item.occurrence.core).map { " " + $0 }.joined()
            out +=
                "<li class=\"timed\(state)\" title=\"\(PageColors.escape(tooltip(item)))\">"
                + "<span class=\"swatch\" style=\"background:\(color)\"></span><span class=\"time\">\(time)</span> "
                + "<span class=\"what\">\(PageColors.escape(item.occurrence.summary ?? "(no title)"))</span></li>"
        }
        let date = gridStart.adding(days: day)
        for row in todos where row.due.map({ $0.dayNumber == date.dayNumber }) == true {
            let done = row.todo.isCompleted
            let color = colors.color(of: row.todo.core, calendar: row.calendar)
            out +=
                "<li class=\"todo\(done ? " done" : "")\"><span class=\"swatch\" style=\"background:\(color)\"></span>"
                + "<span class=\"check\" aria-label=\"\(done ? "done" : "open")\">\(done ? "☑" : "☐")</span> "
                + "<span class=\"what\">\(PageColors.escape(row.todo.summary ?? "(no title)"))</span></li>"
        }
        return out
    }

    func tooltip(_ item: Placed) -> String {
        var text = item.occurrence.summary ?? "(no title)"
        if !item.occurrence.isAllDay {
            text +=
                item.lastDay > item.firstDay
                ? " · \(PageColors.day(item.start)) \(PageColors.clock(item.start)) – "
                    + "\(PageColors.day(item.end)) \(PageColors.clock(item.end))"
                : " · \(PageColors.clock(item.start))–\(PageColors.clock(item.end))"
        }
        if let location = item.occurrence.core.location, !location.isEmpty { text += " · " + location }
        return text + me.pageNote(item.occurrence.core)
    }
}
