import CalendarModel
import CalendarStore
import Foundation

/// The colours of the HTML pages (week and month) and what they mean: an item's own RFC 7986 COLOR first, then
/// its first category's colour from the store, then its calendar's colour; a name without a colour gets a stable
/// one from a small palette. The legend lists exactly the colours the page uses, under what they stand for.
struct PageColors {
    /// Category name (lower-cased) → `#RRGGBB`.
    let categoryColors: [String: String]
    /// Store calendar name → `#RRGGBB`.
    let calendarColors: [String: String]
    /// The colours the store gives (upper-cased), which a name without one does not take.
    private let taken: Set<String>

    init(categoryColors: [String: String], calendarColors: [String: String]) {
        self.categoryColors = categoryColors
        self.calendarColors = calendarColors
        taken = Set(
            (Array(categoryColors.values) + Array(calendarColors.values)).compactMap(Self.cssColor).map {
                $0.uppercased()
            })
    }

    /// Tableau's ten-colour palette without its grey, and three of its twenty: twelve hues a page tells apart.
    static let palette = [
        "#4E79A7", "#F28E2B", "#59A14F", "#E15759", "#76B7B2", "#EDC948", "#B07AA1", "#9C755F", "#FF9DA7", "#499894",
        "#D37295", "#8CD17D",
    ]

    /// Where an item's colour comes from.
    enum Source: Hashable {
        case own
        case category(String)
        case calendar(String)
    }

    func source(of core: ItemCore, calendar: String) -> Source {
        if core.color.flatMap(Self.cssColor) != nil { return .own }
        if let category = core.categories.first { return .category(category.name) }
        return .calendar(calendar)
    }

    func color(of core: ItemCore, calendar: String) -> String {
        switch source(of: core, calendar: calendar) {
        case .own: return core.color.flatMap(Self.cssColor)!
        case .category(let name): return categoryColor(name)
        case .calendar(let name): return calendarColor(name)
        }
    }

    func categoryColor(_ name: String) -> String {
        categoryColors[name.lowercased()].flatMap(Self.cssColor) ?? fallback(name)
    }

    func calendarColor(_ name: String) -> String {
        calendarColors[name].flatMap(Self.cssColor) ?? fallback(name)
    }

    /// A palette colour for a name without one: chosen by the name's hash, stepping past the colours the store
    /// gives other categories or calendars, so that an uncoloured category does not look like a coloured one.
    func fallback(_ name: String) -> String {
        let start = Self.stableIndex(name)
        for step in 0..<Self.palette.count {
            let color = Self.palette[(start + step) % Self.palette.count]
            if !taken.contains(color) { return color }
        }
        return Self.palette[start]
    }

    /// The colours a store gives: its category colours, and every calendar's (its own, else a distinct default) for
    /// the store's calendars and the names `shown` (files read instead of the store). The page, `agenda --color`
    /// and `calendars` agree through this.
    static func ofStore(_ store: CalendarStore?, shown: [String]) throws -> PageColors {
        var known = Dictionary(try store?.calendarOverview().map { ($0.name, $0.color) } ?? []) { first, _ in first }
        for name in shown where known[name] == nil { known[name] = .some(nil) }
        let defaults = calendarDefaults(known.map { ($0.key, $0.value) })
        var calendarColors: [String: String] = [:]
        for (name, color) in known { calendarColors[name] = color ?? defaults[name] }
        return PageColors(categoryColors: try store.map(categoryColors(of:)) ?? [:], calendarColors: calendarColors)
    }

    /// The store's category colours by lower-cased name (categories compare without case).
    static func categoryColors(of store: CalendarStore) throws -> [String: String] {
        Dictionary(try store.categoryColors().map { ($0.key.lowercased(), $0.value) }) { first, _ in first }
    }

    /// Colours for the store's calendars that have none of their own, distinct from each other and from the ones
    /// that have (while the palette lasts): in name order, each takes the colour its name's hash picks, or the
    /// next one not yet taken. Every command that shows calendar colours (the pages, `calendars`) uses these.
    static func calendarDefaults(_ calendars: [(name: String, color: String?)]) -> [String: String] {
        var taken = Set(calendars.compactMap { $0.color.flatMap(cssColor)?.uppercased() })
        var given: [String: String] = [:]
        for calendar in calendars.sorted(by: { $0.name < $1.name }) where calendar.color.flatMap(cssColor) == nil {
            let start = stableIndex(calendar.name)
            let free = (0..<palette.count).map { palette[(start + $0) % palette.count] }.first { !taken.contains($0) }
            let color = free ?? palette[start]
            taken.insert(color)
            given[calendar.name] = color
        }
        return given
    }

    /// The legend of the colours used by these items (core and calendar each), in order of first use:
    /// "Colour by category: ■ Work ■ Home · by calendar: ■ Family", and a note when items bring their own.
    func legend(_ items: [(core: ItemCore, calendar: String)]) -> String {
        var categories: [String] = []
        var calendars: [String] = []
        var own = false
        for (core, calendar) in items {
            switch source(of: core, calendar: calendar) {
            case .own: own = true
            case .category(let name):
                if !categories.contains(where: { $0.lowercased() == name.lowercased() }) { categories.append(name) }
            case .calendar(let name): if !calendars.contains(name) { calendars.append(name) }
            }
        }
        guard !categories.isEmpty || !calendars.isEmpty || own else { return "" }
        func entries(_ names: [String], _ color: (String) -> String) -> String {
            names.map { name in
                "<li><span class=\"swatch\" style=\"background:\(color(name))\"></span>\(Self.escape(name))</li>"
            }.joined()
        }
        var parts: [String] = []
        if !categories.isEmpty {
            parts.append("<li class=\"legend-kind\">Colour by category:</li>" + entries(categories, categoryColor))
        }
        if !calendars.isEmpty {
            parts.append(
                "<li class=\"legend-kind\">\(categories.isEmpty ? "Colour by calendar" : "no category, by calendar"):"
                    + "</li>" + entries(calendars, calendarColor))
        }
        if own { parts.append("<li class=\"legend-kind\">some items bring their own colour (COLOR)</li>") }
        return "<ul class=\"legend\" aria-label=\"What the colours mean\">" + parts.joined() + "</ul>"
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

    /// Text for an element or a double-quoted attribute.
    static func escape(_ text: String) -> String { XMLEscaping.escape(text, attribute: true) }

    static func clock(_ time: LocalDateTime) -> String {
        CalendarDate.pad(time.hour, 2) + ":" + CalendarDate.pad(time.minute, 2)
    }

    static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// "Tue 17 Nov".
    static func day(_ time: LocalDateTime) -> String {
        "\(weekdays[(time.isoWeekday + 6) % 7]) \(time.day) \(months[time.month - 1])"
    }
}
