/// How a category's colour travels in a calendar file. iCalendar has no place for it (RFC 7986's COLOR is the
/// colour of one item or of the whole calendar), so ICSKit writes one calendar property per coloured category:
/// `X-ICSKIT-CATEGORY-COLOR;X-CATEGORY=Work:#3366FF`. Reading a calendar fills `Category.color` of its items'
/// categories from these (names compared without case); writing one carries the colours its items' categories
/// have. Other programs keep the property as an unknown one; `icskit import` keeps the colours in the store and
/// `icskit export` writes them back.
package enum CategoryColor {
    /// The calendar property that carries one category's colour.
    package static let propertyName = "X-ICSKIT-CATEGORY-COLOR"
    /// The parameter that names the category.
    package static let parameterName = "X-CATEGORY"

    /// Whether the text is a `#RRGGBB` colour.
    package static func isHex(_ text: String) -> Bool {
        text.utf8.count == 7 && text.hasPrefix("#") && text.dropFirst().allSatisfy(\.isHexDigit)
    }

    /// The category colours calendar properties carry, in their order: each category's name as written and its
    /// `#RRGGBB` colour (properties without a name or with another value are left out).
    package static func colors(in properties: [Property]) -> [(category: String, color: String)] {
        properties.compactMap { property in
            guard property.name == propertyName,
                let name = property.parameters.first(where: { $0.name == parameterName })?.value, !name.isEmpty,
                isHex(property.value)
            else { return nil }
            return (name, property.value)
        }
    }

    /// The property for one category's colour.
    package static func property(category: String, color: String) -> Property {
        Property(propertyName, parameters: [Parameter(parameterName, category)], value: color)
    }
}

extension ICalendar {
    /// Each category's colour as the calendar's items carry it (the first where two differ), by name without
    /// case, with the name as first written.
    var itemCategoryColors: [String: (category: String, color: String)] {
        var colors: [String: (category: String, color: String)] = [:]
        for component in components {
            for category in component.categories {
                guard let color = category.color, colors[category.name.lowercased()] == nil else { continue }
                colors[category.name.lowercased()] = (category.name, color)
            }
        }
        return colors
    }

    /// The category colours the calendar's properties carry, by lower-cased name (the first where two differ).
    var propertyCategoryColors: [String: String] {
        var colors: [String: String] = [:]
        for (name, color) in CategoryColor.colors(in: otherProperties) where colors[name.lowercased()] == nil {
            colors[name.lowercased()] = color
        }
        return colors
    }

    /// Gives the items' categories the colours the calendar's properties carry, leaving each item as read (it is
    /// written back byte for byte unless changed).
    mutating func fillCategoryColors() {
        let colors = propertyCategoryColors
        guard !colors.isEmpty else { return }
        for index in components.indices {
            components[index].fillCategoryColors(colors)
        }
    }

    /// The calendar's own properties with a category colour property for each coloured category of its items that
    /// the properties do not already say; nil when they say every one.
    var propertiesWithItemCategoryColors: [Property]? {
        let said = propertyCategoryColors
        let missing = itemCategoryColors.filter { said[$0.key] != $0.value.color }
        guard !missing.isEmpty else { return nil }
        var properties = otherProperties.filter { property in
            property.name != CategoryColor.propertyName
                || !missing.keys.contains(
                    property.parameters.first { $0.name == CategoryColor.parameterName }?.value.lowercased() ?? "")
        }
        for (_, entry) in missing.sorted(by: { $0.key < $1.key }) {
            properties.append(CategoryColor.property(category: entry.category, color: entry.color))
        }
        return properties
    }
}

extension CalendarComponent {
    /// The item's categories, without copying the rest of it; none for other components.
    var categories: [Category] {
        switch self {
        case .event(let event): event.core.categories
        case .todo(let todo): todo.core.categories
        case .journal(let journal): journal.core.categories
        case .timeZone, .other: []
        }
    }

    /// Sets the colours of the item's categories that have none from `colors` (by lower-cased name) without
    /// marking the item changed.
    mutating func fillCategoryColors(_ colors: [String: String]) {
        func filled<Item: CalendarItem>(_ item: Item) -> Item? {
            var item = item
            let wasModified = item.provenance.isModified
            var changed = false
            for index in item.core.categories.indices where item.core.categories[index].color == nil {
                guard let color = colors[item.core.categories[index].name.lowercased()] else { continue }
                item.core.categories[index].color = color
                changed = true
            }
            item.provenance.isModified = wasModified
            return changed ? item : nil
        }
        switch self {
        case .event(let event): if let event = filled(event) { self = .event(event) }
        case .todo(let todo): if let todo = filled(todo) { self = .todo(todo) }
        case .journal(let journal): if let journal = filled(journal) { self = .journal(journal) }
        case .timeZone, .other: return
        }
    }
}
