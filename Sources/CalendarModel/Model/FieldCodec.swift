/// State while one component is turned into a model: the diagnostics log and what the caller asked for.
struct DecodeContext {
    var log: DiagnosticLog
}

/// How values of one kind are read from and written to properties (text, DATE-TIME, RRULE, ATTENDEE …).
struct ValueCodec<Value: Sendable & Equatable>: Sendable {
    /// Reads every value a property holds (EXDATE and CATEGORIES hold lists).
    let decode: @Sendable (Property) -> Result<[Value], ValueError>
    /// Writes values as properties of the given name.
    let encode: @Sendable (String, [Value]) -> [Property]
}

/// One typed field of a model and the property it comes from: the table rows behind `Event`, `Todo` …
struct FieldCodec<Model>: Sendable {
    let name: String
    /// Reads the properties with this name into the model; returns the indices of those it could not use.
    let decode: @Sendable (inout Model, [Property], inout DecodeContext) -> [Int]
    let encode: @Sendable (Model) -> [Property]
    let isUnchanged: @Sendable (Model, Model) -> Bool

    /// Properties that may appear once only; a repeat is reported and kept as an unknown property.
    private static var singular: Set<String> {
        ["UID", "DTSTART", "DTEND", "DUE", "DURATION", "RECURRENCE-ID", "DTSTAMP", "SEQUENCE", "COMPLETED"]
    }

    /// A field that holds at most one value.
    static func single<Value>(_ name: String, _ keyPath: WritableKeyPath<Model, Value?> & Sendable,
                              _ codec: ValueCodec<Value>) -> FieldCodec {
        FieldCodec(name: name, decode: { model, properties, context in
            var rejected: [Int] = []
            for (index, property) in properties.enumerated() {
                guard model[keyPath: keyPath] == nil else {
                    if singular.contains(name) {
                        context.log.warning(property.line, "\(name) appears more than once; the first is used, "
                            + "this one is kept as written")
                    }
                    rejected.append(index)
                    continue
                }
                switch codec.decode(property) {
                case .success(let values) where values.count == 1: model[keyPath: keyPath] = values[0]
                case .success: rejected.append(index)
                case .failure(let error):
                    context.log.error(property.line, "\(name) value \(error); kept as written")
                    rejected.append(index)
                }
            }
            return rejected
        }, encode: { model in
            model[keyPath: keyPath].map { codec.encode(name, [$0]) } ?? []
        }, isUnchanged: { $0[keyPath: keyPath] == $1[keyPath: keyPath] })
    }

    /// A field that collects every value of every property with that name.
    static func list<Value>(_ name: String, _ keyPath: WritableKeyPath<Model, [Value]> & Sendable,
                            _ codec: ValueCodec<Value>) -> FieldCodec {
        FieldCodec(name: name, decode: { model, properties, context in
            var rejected: [Int] = []
            for (index, property) in properties.enumerated() {
                switch codec.decode(property) {
                case .success(let values): model[keyPath: keyPath].append(contentsOf: values)
                case .failure(let error):
                    context.log.error(property.line, "\(name) value \(error); kept as written")
                    rejected.append(index)
                }
            }
            return rejected
        }, encode: { model in
            let values = model[keyPath: keyPath]
            return values.isEmpty ? [] : codec.encode(name, values)
        }, isUnchanged: { $0[keyPath: keyPath] == $1[keyPath: keyPath] })
    }

    /// The same field seen through a containing model (`ItemCore` fields inside `Event`).
    func lifted<Outer>(_ keyPath: WritableKeyPath<Outer, Model> & Sendable) -> FieldCodec<Outer> {
        FieldCodec<Outer>(name: name, decode: { outer, properties, context in
            decode(&outer[keyPath: keyPath], properties, &context)
        }, encode: { encode($0[keyPath: keyPath]) },
           isUnchanged: { isUnchanged($0[keyPath: keyPath], $1[keyPath: keyPath]) })
    }
}

/// A field table with a name index, built once per model type.
struct FieldTable<Model>: Sendable {
    let fields: [FieldCodec<Model>]
    private let index: [String: Int]

    init(_ fields: [FieldCodec<Model>]) {
        self.fields = fields
        var index: [String: Int] = [:]
        for (position, field) in fields.enumerated() { index[field.name] = position }
        self.index = index
    }

    /// Reads the properties this table knows into the model and marks them consumed; the others are left alone.
    func decode(_ properties: [Property], into model: inout Model, consumed: inout [Bool],
                _ context: inout DecodeContext) {
        var slots: [(field: Int, property: Int)] = []
        for (position, property) in properties.enumerated() {
            if let field = index[property.name] { slots.append((field, position)) }
        }
        guard !slots.isEmpty else { return }
        slots.sort { ($0.field, $0.property) < ($1.field, $1.property) }
        var start = 0
        while start < slots.count {
            var end = start + 1
            while end < slots.count, slots[end].field == slots[start].field { end += 1 }
            let group = slots[start..<end].map { properties[$0.property] }
            let rejected = fields[slots[start].field].decode(&model, group, &context)
            for (offset, slot) in slots[start..<end].enumerated() where !rejected.contains(offset) {
                consumed[slot.property] = true
            }
            start = end
        }
    }
}

/// The component a model was read from and the model as first read, so an unchanged model is written back
/// line for line, and a changed one keeps the original lines of the fields that did not change.
final class Origin<Model: Sendable>: Sendable {
    let component: Component
    let snapshot: Model

    init(component: Component, snapshot: Model) {
        self.component = component
        self.snapshot = snapshot
    }
}

/// Provenance never takes part in a model's equality: two events with the same fields are equal wherever
/// they came from.
struct Provenance<Model: Sendable>: Sendable, Hashable {
    var origin: Origin<Model>?

    static func == (lhs: Provenance, rhs: Provenance) -> Bool { true }
    func hash(into hasher: inout Hasher) {}
}

/// A typed model of one iCalendar component kind, described by its field table.
protocol ComponentModel: Sendable, Equatable {
    static var componentName: String { get }
    /// Every typed field, in the order a canonical component writes them.
    static var fields: [FieldCodec<Self>] { get }
    /// Reads the typed properties into the model, marking those it used.
    mutating func decodeProperties(_ properties: [Property], consumed: inout [Bool], _ context: inout DecodeContext)
    var otherProperties: [Property] { get set }
    var provenance: Provenance<Self> { get set }
    init()
    /// Reads nested components (alarms, unknown components).
    mutating func decodeChildren(_ components: [Component], _ context: inout DecodeContext)
    func encodeChildren() -> [Component]
    /// Reports what RFC 5545 requires and the component lacks.
    func checkRequired(line: Int, _ context: inout DecodeContext)
}

extension ComponentModel {
    init(decoding component: Component, _ context: inout DecodeContext) {
        self.init()
        var consumed = [Bool](repeating: false, count: component.properties.count)
        decodeProperties(component.properties, consumed: &consumed, &context)
        otherProperties = component.properties.indices.filter { !consumed[$0] }.map { component.properties[$0] }
        PropertyDesign.validate(otherProperties, &context.log)
        decodeChildren(component.components, &context)
        provenance.origin = Origin(component: component, snapshot: self)
        checkRequired(line: component.line, &context)
    }

    /// The component to write: as read when nothing changed, canonical otherwise.
    func encoded() -> Component {
        guard let origin = provenance.origin else { return encodedCanonically(origin: nil) }
        return self == origin.snapshot ? origin.component : encodedCanonically(origin: origin)
    }

    /// Properties in table order; a field that did not change keeps the lines it was read from.
    func encodedCanonically(origin: Origin<Self>?) -> Component {
        var component = Component(Self.componentName)
        for field in Self.fields {
            if let origin, field.isUnchanged(self, origin.snapshot) {
                let rejectedLines = Set(origin.snapshot.otherProperties.filter { $0.name == field.name }.map(\.line))
                component.properties += origin.component.properties.filter {
                    $0.name == field.name && !rejectedLines.contains($0.line)
                }
            } else {
                component.properties += field.encode(self)
            }
        }
        component.properties += otherProperties
        component.components = encodeChildren()
        return component
    }
}
