/// A component as it stands in the file — `BEGIN:NAME`, properties, nested components, `END:NAME` — with
/// nothing interpreted and nothing dropped. Typed models (Event, Todo, …) are built from it.
public struct Component: Sendable {
    /// The component name, upper-cased (`VEVENT`, `VALARM`, `X-FOO`).
    public var name: String { didSet { (sourceName, sourceEndName) = (nil, nil) } }
    /// Its properties, in file order.
    public var properties: [Property]
    /// Its nested components, in file order.
    public var components: [Component]
    /// The line of `BEGIN:`, 0 when built in code.
    package internal(set) var line: Int
    /// The name as spelled on the BEGIN line, so `BEGIN:vevent` is written back as it was.
    var sourceName: String?
    /// The name as spelled on the END line when it differs from the BEGIN line.
    var sourceEndName: String?
    /// For each child, how many properties stood before it, when the file put properties after children.
    /// The writer uses it only while it still fits the component.
    var sourceLayout: [Int]?
    /// Set when the input ended inside this component (its END missing): what it holds may be cut short.
    var isCutOff = false

    /// A component by name (upper-cased as written).
    public init(_ name: String, properties: [Property] = [], components: [Component] = []) {
        self.name = name.uppercased()
        self.properties = properties
        self.components = components
        self.line = 0
        self.sourceName = nil
    }

    /// The first property with that name.
    public func property(_ name: String) -> Property? { properties.first { $0.name == name } }

    /// Every property with that name, in file order.
    public func properties(named name: String) -> [Property] { properties.filter { $0.name == name } }

    /// Every component below this one (depth first), this one first.
    package func walk() -> [Component] {
        var all: [Component] = []
        forEach { all.append($0) }
        return all
    }

    /// Visits this component and every one below it, depth first, without building an array.
    package func forEach(_ body: (Component) -> Void) {
        body(self)
        for child in components { child.forEach(body) }
    }
}

/// What a component, property or parameter name may hold so that it can be written as a content line and read
/// back as the same name. iCalendar's own syntax cannot produce anything else; jCal and xCal can, so their readers
/// check every name they take.
enum NameRule {
    case component, property, parameter

    /// Why `name` cannot stand as such a name, or nil.
    func problem(in name: String) -> String? {
        let delimiters: Set<Unicode.Scalar>
        switch self {
        case .component: delimiters = []
        case .property: delimiters = [":", ";"]
        case .parameter: delimiters = [":", ";", "="]
        }
        if let first = name.unicodeScalars.first, first == " " || first == "\t" {
            // Written first on a line, it would make the line continue the one above.
            return "starts with a space, which continues the line above in iCalendar"
        }
        for scalar in name.unicodeScalars {
            if (scalar.value < 0x20 && scalar.value != 0x09) || scalar.value == 0x7F {
                return "holds a control character"
            }
            if delimiters.contains(scalar) { return "holds '\(scalar)', which ends a name in iCalendar" }
        }
        return nil
    }
}

extension Component {
    /// The deepest nesting the readers build (VCALENDAR counts as one level). Real calendars use four at most;
    /// deeper input is skipped with an error, so no walk over a tree can be made to recurse without bound.
    package static let maximumDepth = 32
}

extension Component: Equatable, Hashable {
    /// Equal when name, properties and components are: how they were spelled in a file does not count.
    public static func == (lhs: Component, rhs: Component) -> Bool {
        lhs.name == rhs.name && lhs.properties == rhs.properties && lhs.components == rhs.components
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(properties)
        hasher.combine(components)
    }
}
