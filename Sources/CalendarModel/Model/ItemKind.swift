/// What an item is — an event, a todo or a journal entry: the one encoding of the three kinds across ICSKit. The raw
/// value is the component's name, as files and the store write it.
public enum ItemKind: String, Sendable, Hashable, CaseIterable, Comparable, Codable {
    /// A VEVENT.
    case event = "VEVENT"
    /// A VTODO.
    case todo = "VTODO"
    /// A VJOURNAL.
    case journal = "VJOURNAL"

    /// The kind a component's name names, in any case (`VEVENT`, `vtodo`); nil for every other component.
    package init?(componentName: String) {
        self.init(rawValue: componentName.uppercased())
    }

    /// The kind a person's word names: `event`, `todo` (or `task`), `journal`, their plurals, or the component's
    /// name, in any case; nil for anything else.
    package init?(word: String) {
        var lower = word.lowercased()
        if lower.hasPrefix("v") { lower.removeFirst() }
        if lower.hasSuffix("s") { lower.removeLast() }
        switch lower {
        case "event": self = .event
        case "todo", "task": self = .todo
        case "journal": self = .journal
        default: return nil
        }
    }

    /// The component's name: `VEVENT`, `VTODO` or `VJOURNAL`.
    package var componentName: String { rawValue }

    /// The word for it: `event`, `todo` or `journal`.
    package var word: String {
        switch self {
        case .event: "event"
        case .todo: "todo"
        case .journal: "journal"
        }
    }

    /// Events, then todos, then journals.
    public static func < (lhs: ItemKind, rhs: ItemKind) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
