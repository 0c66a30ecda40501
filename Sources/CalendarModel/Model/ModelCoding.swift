import Foundation

// Codable forms of the values whose stored layout is not their meaning: JSON of an app's own documents (a saved
// draft, a cache, a message between processes), not jCal. Each decodes to a value that writes the same iCalendar.

extension Property: Codable {
    private enum CodingKeys: String, CodingKey { case name, parameters, value }

    /// `{"name": "X-MS-OLK-SENDER", "parameters": [...], "value": "…"}`; the value as in iCalendar (escaped).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            try container.decode(String.self, forKey: .name),
            parameters: try container.decodeIfPresent([Parameter].self, forKey: .parameters) ?? [],
            value: try container.decode(String.self, forKey: .value))
    }

    /// Writes name, parameters and value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        if !parameters.isEmpty { try container.encode(parameters, forKey: .parameters) }
        try container.encode(value, forKey: .value)
    }
}

extension Component: Codable {
    private enum CodingKeys: String, CodingKey { case name, properties, components }

    /// `{"name": "VAVAILABILITY", "properties": [...], "components": [...]}`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            try container.decode(String.self, forKey: .name),
            properties: try container.decodeIfPresent([Property].self, forKey: .properties) ?? [],
            components: try container.decodeIfPresent([Component].self, forKey: .components) ?? [])
    }

    /// Writes name, properties and nested components.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(properties, forKey: .properties)
        if !components.isEmpty { try container.encode(components, forKey: .components) }
    }
}

extension RecurrenceRule: Codable {
    /// The rule as one string, as iCalendar writes it: `"FREQ=WEEKLY;BYDAY=MO,WE"`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        switch RecurrenceRule.parse(try container.decode(String.self)) {
        case .success(let rule): self = rule
        case .failure(let error):
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    /// Writes `icsValue`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(icsValue)
    }
}

extension CalendarComponent: Codable {
    private enum CodingKeys: String, CodingKey { case event, todo, journal, timeZone, other }

    /// One key naming the kind: `{"event": {...}}`, `{"todo": {...}}`, `{"other": {"name": "VFREEBUSY", …}}`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard let key = container.allKeys.first, container.allKeys.count == 1 else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "a component is one of event, todo, journal, timeZone or other"))
        }
        switch key {
        case .event: self = .event(try container.decode(Event.self, forKey: key))
        case .todo: self = .todo(try container.decode(Todo.self, forKey: key))
        case .journal: self = .journal(try container.decode(Journal.self, forKey: key))
        case .timeZone: self = .timeZone(try container.decode(TimeZoneDefinition.self, forKey: key))
        case .other: self = .other(try container.decode(Component.self, forKey: key))
        }
    }

    /// Writes the one key of its kind.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .event(let event): try container.encode(event, forKey: .event)
        case .todo(let todo): try container.encode(todo, forKey: .todo)
        case .journal(let journal): try container.encode(journal, forKey: .journal)
        case .timeZone(let zone): try container.encode(zone, forKey: .timeZone)
        case .other(let component): try container.encode(component, forKey: .other)
        }
    }
}
