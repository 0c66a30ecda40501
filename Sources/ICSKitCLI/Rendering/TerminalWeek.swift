import CalendarModel
import Foundation

/// A week as a time grid for a terminal (`icskit week`): days as columns, hours as rows, all-day items in a band
/// above, overlapping events side by side (`WeekLayout`'s lanes), and the todos due each day under it in the time
/// blocks planners use — morning, afternoon, evening, and any time of the day — ticked `[x]` when done. Titles are
/// cut to fit, wide characters counted as two columns (`TerminalWidth`); colours (calendar, category, an item's own)
/// only when asked for.
struct TerminalWeek {
    var title: String
    var layout: WeekLayout
    /// The calendar of each of the layout's occurrences.
    var calendars: [String]
    var todos: [HTMLWeekPage.TodoRow]
    /// The whole width, in columns (60 at least).
    var width: Int
    /// The hours shown, [first, last): given, or where the week's timed items are.
    var hours: Range<Int>
    /// Colours for items, or nil for none.
    var colors: PageColors?

    /// The gutter before the day columns: an hour, or a band's name.
    static let gutter = 6

    /// Each day column's width: what is left after the gutter and a separator before each day, shared by seven.
    var columnWidth: Int { max((max(width, 60) - Self.gutter - 7) / 7, 4) }

    /// The hours a week's timed blocks take (at least one hour), 8–18 when it has none: where they begin and end
    /// on their own days (a piece that runs on from or into another day is cut at the grid's edge, as the HTML week
    /// is).
    static func hours(of layout: WeekLayout) -> Range<Int> {
        let starts = layout.blocks.filter { !$0.continuesBefore }.map { $0.startMinute / 60 }
        let ends = layout.blocks.filter { !$0.continuesAfter }.map { ($0.endMinute + 59) / 60 }
        guard let first = starts.min() ?? ends.min().map({ $0 - 1 }),
            let last = ends.max() ?? starts.max().map({ $0 + 1 })
        else { return 8..<18 }
        return max(first, 0)..<min(max(last, first + 1), 24)
    }

    /// The grid's lines: every text from the data made safe (`TerminalText`), so the lines are written as they are,
    /// colour codes included.
    func lines() -> [String] {
        var lines = [
            TerminalWidth.fit(TerminalText.safe(title, keepingLineBreaks: false), columnWidth * 7 + Self.gutter + 7)
                .trimmingTrailingSpaces
        ]
        lines.append(row(label: "", cells: (0..<7).map { dayName($0) }))
        lines.append(
            String(repeating: "─", count: Self.gutter)
                + String(repeating: "┼" + String(repeating: "─", count: columnWidth), count: 7))
        lines += allDayBand()
        for hour in hours { lines.append(hourRow(hour)) }
        lines += todoRows()
        return lines
    }

    private func dayName(_ day: Int) -> String {
        let date = layout.weekStart.adding(days: day)
        return PageColors.weekdays[date.isoWeekday - 1] + " " + String(format: "%02d", date.day)
    }

    /// A row: the gutter's label, then each day's cell (already the column's width, or fitted to it).
    private func row(label: String, cells: [String]) -> String {
        var line = TerminalWidth.fit(label, Self.gutter)
        for cell in cells {
            line +=
                "│" + (TerminalWidth.of(Self.plain(cell)) == columnWidth ? cell : TerminalWidth.fit(cell, columnWidth))
        }
        return line.trimmingTrailingSpaces
    }

    // MARK: Bands

    /// All-day and multi-day items: one row per bar row, each bar written across the columns it spans.
    private func allDayBand() -> [String] {
        let rows = (layout.bars.map(\.row).max() ?? -1) + 1
        return (0..<rows).map { index in
            var line = TerminalWidth.fit(index == 0 ? "all" : "", Self.gutter)
            var day = 0
            while day < 7 {
                if let bar = layout.bars.first(where: { $0.row == index && $0.firstDay == day }) {
                    let span = (bar.lastDay - bar.firstDay + 1) * (columnWidth + 1) - 1
                    let text = (bar.continuesBefore ? "‹" : "") + summary(bar.entry)
                    line += "│" + paint(TerminalWidth.fit(text, span), entry: bar.entry)
                    day = bar.lastDay + 1
                } else {
                    line += "│" + String(repeating: " ", count: columnWidth)
                    day += 1
                }
            }
            return line.trimmingTrailingSpaces
        }
    }

    /// One hour of the grid: each day's blocks that touch it, in their lanes; the block that starts in this hour
    /// writes its title, one that runs on from above a bar.
    private func hourRow(_ hour: Int) -> String {
        let from = hour * 60, to = from + 60
        var cells: [String] = []
        for day in 0..<7 {
            let touching = layout.blocks.filter { $0.day == day && $0.startMinute < to && $0.endMinute > from }
            guard let lanes = touching.map(\.lanes).max() else {
                cells.append(String(repeating: " ", count: columnWidth))
                continue
            }
            // Lanes too narrow for a word: the title that begins here (else the earliest), and how many more.
            if columnWidth / lanes < 4 {
                let first = touching.first { $0.startMinute >= from } ?? touching[0]
                let more = touching.count > 1 ? "+\(touching.count - 1)" : ""
                let text = TerminalWidth.fit(
                    first.startMinute >= from || hour == hours.lowerBound ? summary(first.entry) : "│",
                    columnWidth - more.count)
                cells.append(paint(text, entry: first.entry) + more)
                continue
            }
            let laneWidth = columnWidth / lanes
            var sizes = [Int](repeating: laneWidth, count: lanes)
            sizes[lanes - 1] = columnWidth - laneWidth * (lanes - 1)
            var lanesText = sizes.map { String(repeating: " ", count: $0) }
            // Blocks that begin later are written last: a title over a bar of the block before it.
            for block in touching.sorted(by: { ($0.startMinute, $0.entry) < ($1.startMinute, $1.entry) }) {
                let lane = min(block.lane * lanes / max(block.lanes, 1), lanes - 1)
                let starts = block.startMinute >= from || hour == hours.lowerBound
                let text = starts ? summary(block.entry) : "│"
                lanesText[lane] = paint(TerminalWidth.fit(text, sizes[lane]), entry: block.entry)
            }
            cells.append(lanesText.joined())
        }
        return row(label: String(format: "%02d:00", hour), cells: cells)
    }

    /// The todos due each day, by the part of the day they are due in (a todo due on a day, or at night, is due
    /// any time of it).
    private func todoRows() -> [String] {
        guard !todos.isEmpty else { return [] }
        let slots: [(label: String, hours: Range<Int>?)] = [
            ("morn", 6..<12), ("aftn", 12..<18), ("eve", 18..<24), ("any", nil),
        ]
        var lines = [
            String(repeating: "─", count: Self.gutter)
                + String(repeating: "┼" + String(repeating: "─", count: columnWidth), count: 7)
        ]
        for slot in slots {
            var perDay = [[HTMLWeekPage.TodoRow]](repeating: [], count: 7)
            for todo in todos {
                guard let due = todo.due else { continue }
                let day = due.dayNumber - layout.weekStart.dayNumber
                guard (0..<7).contains(day) else { continue }
                let timed = !(todo.todo.due?.isDate ?? true) && (6..<24).contains(due.hour)
                let inSlot = slot.hours.map { timed && $0.contains(due.hour) } ?? !timed
                if inSlot { perDay[day].append(todo) }
            }
            let rows = perDay.map(\.count).max() ?? 0
            for index in 0..<rows {
                let cells = perDay.map { todos -> String in
                    guard index < todos.count else { return String(repeating: " ", count: columnWidth) }
                    let todo = todos[index]
                    let text =
                        (todo.todo.isCompleted ? "[x] " : "[ ] ")
                        + TerminalText.safe(todo.todo.summary ?? "(no summary)", keepingLineBreaks: false)
                    return tint(TerminalWidth.fit(text, columnWidth), core: todo.todo.core, calendar: todo.calendar)
                }
                lines.append(row(label: index == 0 ? slot.label : "", cells: cells))
            }
        }
        return lines
    }

    // MARK: Text and colour

    private func summary(_ entry: Int) -> String {
        let occurrence = layout.entries[entry].occurrence
        let text = occurrence.summary.map { TerminalText.safe($0, keepingLineBreaks: false) } ?? "(no summary)"
        return occurrence.status == .cancelled ? "✗ " + text : text
    }

    /// An event's cell in its colour (the colour as background, the text readable on it).
    private func paint(_ text: String, entry: Int) -> String {
        guard let colors,
            let calendar = calendars.indices.contains(layout.entries[entry].index)
                ? calendars[layout.entries[entry].index] : nil,
            let (red, green, blue) = AgendaStyle.rgb(
                colors.color(of: layout.entries[entry].occurrence.core, calendar: calendar))
        else { return text }
        let dark = (red * 299 + green * 587 + blue * 114) / 1000 < 140
        return "\u{1B}[48;2;\(red);\(green);\(blue)m\u{1B}[\(dark ? 97 : 30)m" + text + "\u{1B}[0m"
    }

    /// A todo's text in its colour.
    private func tint(_ text: String, core: ItemCore, calendar: String) -> String {
        guard let colors, let (red, green, blue) = AgendaStyle.rgb(colors.color(of: core, calendar: calendar)) else {
            return text
        }
        return "\u{1B}[38;2;\(red);\(green);\(blue)m" + text + "\u{1B}[0m"
    }

    /// Text without its colour codes, to measure.
    static func plain(_ text: String) -> String {
        guard text.contains("\u{1B}") else { return text }
        return text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    }
}

extension String {
    fileprivate var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
