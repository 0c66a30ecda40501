import CalendarModel
import CalendarStore
import Foundation

/// One self-contained HTML page for a week: the 7-day time grid (overlapping events side by side), a bar strip for
/// all-day and multi-day events, a Gantt chart of the multi-day and overlapping ones, and the week's todos with
/// due dates and done state. Category colours throughout; no network, one small script (the "now" line); readable
/// when printed.
struct HTMLWeekPage {
    struct TodoRow {
        var todo: Todo
        var due: LocalDateTime?
        var calendar: String
    }

    var title: String
    var zone: ZoneClock
    var layout: WeekLayout
    var todos: [TodoRow]
    /// Category name (lower-cased) → `#RRGGBB`.
    var categoryColors: [String: String]
    /// Store calendar name → `#RRGGBB`, for items without a category colour.
    var calendarColors: [String: String]
    var calendarOfEntry: [String]
    var now: Date

    static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    static let palette = ["#4E79A7", "#F28E2B", "#59A14F", "#E15759", "#76B7B2", "#EDC948", "#B07AA1", "#9C755F"]

    func html() -> String {
        let today = zone.wallClock(at: now)
        let todayIndex = today.dayNumber - layout.weekStart.dayNumber
        let week = layout.weekStart.isoWeek
        let last = layout.weekStart.adding(days: 6)
        let heading =
            "\(week.year)-W\(CalendarDate.pad(week.week, 2)) · \(layout.weekStart.day) "
            + "\(Self.months[layout.weekStart.month - 1]) – \(last.day) \(Self.months[last.month - 1]) \(last.year)"
        var out = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="generator" content="icskit">
            <title>\(Self.escape(title)) · \(Self.escape(heading))</title>
            <style>\(Self.css(hours: layout.lastHour - layout.firstHour))</style>
            </head>
            <body>
            <header><h1>\(Self.escape(title))</h1><p class="sub">\(Self.escape(heading)) · times in \
            \(Self.escape(zone.identifier))</p>\(legend())</header>

            """
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
        var names: [String] = []
        for entry in layout.entries {
            for category in entry.occurrence.core.categories where !names.contains(category.name) {
                names.append(category.name)
            }
        }
        for row in todos {
            for category in row.todo.categories where !names.contains(category.name) { names.append(category.name) }
        }
        guard !names.isEmpty else { return "" }
        return "<ul class=\"legend\">"
            + names.map { name in
                "<li><span class=\"swatch\" style=\"background:\(categoryColor(name))\"></span>\(Self.escape(name))</li>"
            }.joined() + "</ul>"
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
                + (entry.occurrence.isAllDay
                    ? "" : " <small>\(Self.clock(entry.start))–\(Self.clock(entry.end))</small>")
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
            let classes =
                ["event"] + (until - from < 45 ? ["short"] : []) + (core.status == .cancelled ? ["cancelled"] : [])
                + (entry.occurrence.item.componentName == "VEVENT" && isFree(entry) ? ["free"] : [])
            out +=
                "<div class=\"\(classes.joined(separator: " "))\" style=\"top:\(Self.percent(top));"
                + "height:\(Self.percent(height));left:\(Self.percent(width * Double(block.lane)));"
                + "width:\(Self.percent(width));background:\(color);color:\(Self.textColor(on: color))\" "
                + "title=\"\(Self.escape(tooltip(entry)))\">"
                + "<span class=\"time\">\(block.continuesBefore ? "…" : Self.clock(entry.start))–"
                + "\(block.continuesAfter ? "…" : Self.clock(entry.end))</span> "
                + "<span class=\"what\">\(Self.escape(entry.occurrence.summary ?? "(no title)"))</span>"
                + (core.location.map { " <span class=\"where\">\(Self.escape($0))</span>" } ?? "")
                + "</div>"
        }
        return out + "</div>\n"
    }

    func gantt() -> String {
        var out = "<section class=\"gantt\" aria-label=\"Gantt\">\n<h2>Multi-day and overlapping</h2>\n"
        guard !layout.gantt.isEmpty else {
            return out + "<p class=\"empty\">Nothing runs over several days or overlaps this week.</p>\n</section>\n"
        }
        out += "<div class=\"gantt-grid\"><div class=\"gantt-label\"></div><div class=\"gantt-scale\">"
        for day in 0..<7 {
            let date = layout.weekStart.adding(days: day)
            out += "<span>\(Self.weekdays[day]) \(date.day)</span>"
        }
        out += "</div>\n"
        let weekSeconds = 7.0 * 86_400
        for index in layout.gantt {
            let entry = layout.entries[index]
            let from = max(0, Double(entry.start.wallSeconds - layout.weekStart.wallSeconds)) / weekSeconds * 100
            let until =
                min(weekSeconds, Double(entry.end.wallSeconds - layout.weekStart.wallSeconds)) / weekSeconds * 100
            let color = color(of: index)
            out +=
                "<div class=\"gantt-label\">\(Self.escape(entry.occurrence.summary ?? "(no title)"))</div>"
                + "<div class=\"gantt-track\"><div class=\"gantt-bar\" style=\"left:\(Self.percent(from));"
                + "width:\(Self.percent(max(until - from, 0.6)));background:\(color)\" title=\"\(Self.escape(tooltip(entry)))\">"
                + "</div></div>\n"
        }
        return out + "</div>\n</section>\n"
    }

    func todoList(today: LocalDateTime) -> String {
        var out = "<section class=\"todos\" aria-label=\"Todos\">\n<h2>Todos</h2>\n"
        guard !todos.isEmpty else { return out + "<p class=\"empty\">No todos due this week.</p>\n</section>\n" }
        out += "<ul>"
        for row in todos {
            let todo = row.todo
            let done = todo.isCompleted
            let overdue = !done && (row.due.map { $0 < today } ?? false)
            let color = todo.categories.first.map { categoryColor($0.name) } ?? calendarColor(row.calendar)
            out +=
                "<li class=\"\(done ? "done" : overdue ? "overdue" : "open")\">"
                + "<span class=\"check\" aria-label=\"\(done ? "done" : "open")\">\(done ? "☑" : "☐")</span>"
                + "<span class=\"swatch\" style=\"background:\(color)\"></span>"
                + "<span class=\"what\">\(Self.escape(todo.summary ?? "(no title)"))</span>"
            if let due = row.due {
                let date = "\(Self.weekdays[(due.isoWeekday + 6) % 7]) \(due.day) \(Self.months[due.month - 1])"
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
        let core = layout.entries[entry].occurrence.core
        if let color = core.color.flatMap(Self.cssColor) { return color }
        if let category = core.categories.first { return categoryColor(category.name) }
        return calendarColor(calendarOfEntry[entry])
    }

    func categoryColor(_ name: String) -> String {
        categoryColors[name.lowercased()].flatMap(Self.cssColor) ?? Self.palette[Self.stableIndex(name)]
    }

    func calendarColor(_ name: String) -> String {
        calendarColors[name].flatMap(Self.cssColor) ?? Self.palette[Self.stableIndex(name)]
    }

    func isFree(_ entry: WeekLayout.Entry) -> Bool {
        if case .event(let event) = entry.occurrence.item { return event.transparency == .transparent }
        return false
    }

    func tooltip(_ entry: WeekLayout.Entry) -> String {
        var text = entry.occurrence.summary ?? "(no title)"
        text += entry.occurrence.isAllDay ? "" : " · \(Self.clock(entry.start))–\(Self.clock(entry.end))"
        if let location = entry.occurrence.core.location { text += " · " + location }
        let categories = entry.occurrence.core.categories.map(\.name)
        if !categories.isEmpty { text += " · " + categories.joined(separator: ", ") }
        return text
    }

    /// `#RRGGBB` or `#RGB` as given, or a CSS colour keyword (RFC 7986 COLOR); anything else is not used.
    static func cssColor(_ value: String) -> String? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if CategoryColor.isHex(trimmed) { return trimmed }
        let scalars = trimmed.unicodeScalars
        if (3...20).contains(scalars.count),
            scalars.allSatisfy({ ("a"..."z").contains($0) || ("A"..."Z").contains($0) })
        {
            return trimmed.lowercased()
        }
        return nil
    }

    static func stableIndex(_ name: String) -> Int {
        var hash: UInt32 = 2_166_136_261
        for byte in name.lowercased().utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return Int(hash % UInt32(palette.count))
    }

    /// Black or white text, whichever reads better on the colour (relative luminance).
    static func textColor(on color: String) -> String {
        guard color.hasPrefix("#"), color.count == 7 else { return "#fff" }
        let digits = Array(color.dropFirst())
        func channel(_ offset: Int) -> Double {
            let value = Double(Int(String(digits[offset..<offset + 2]), radix: 16) ?? 0) / 255
            return value <= 0.03928 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
        }
        let luminance = 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4)
        return luminance > 0.4 ? "#111" : "#fff"
    }

    static func clock(_ time: LocalDateTime) -> String {
        CalendarDate.pad(time.hour, 2) + ":" + CalendarDate.pad(time.minute, 2)
    }

    static func percent(_ value: Double) -> String { String(format: "%.3f%%", value) }

    /// Text for an element or a double-quoted attribute.
    static func escape(_ text: String) -> String { XMLEscaping.escape(text, attribute: true) }

    // MARK: Style and script

    /// The page's style sheet (Resources/week.css, compiled in) with the number of hour rows the grid shows.
    static func css(hours: Int) -> String {
        String(decoding: PackageResources.week_css, as: UTF8.self) + ":root{--hours:\(hours)}\n"
    }

    /// Draws the current time as a line in today's column while the page is open; marks the page as rendered
    /// (Resources/week.js, compiled in).
    static let script = String(decoding: PackageResources.week_js, as: UTF8.self)
}
