/// State while one component is turned into a model: the diagnostics log and what the caller asked for.
struct DecodeContext {
    var log: DiagnosticLog
    /// Some of a VCALENDAR's components are read elsewhere (a streamed read's runs, the items a merge leaves
    /// unread): whether it holds none cannot be told from what is decoded here.
    var hasComponentsElsewhere = false
    /// Whether the findings that change nothing read are looked for: values no field reads, what RFC 5545
    /// requires, the calendar-wide checks. Off for what a store reads back of its own items, checked when they were
    /// imported, whose findings no one would hear (`ICS.read(_:file:splitting:checking:)`).
    var checks = true
}

/// How values of one kind are read from and written to properties (text, DATE-TIME, RRULE, ATTENDEE …).
struct ValueCodec<Value: Sendable & Equatable>: Sendable {
    /// Reads every value a property holds (EXDATE and CATEGORIES hold lists).
    let decode: @Sendable (Property) -> Result<[Value], ValueError>
    /// Reads the one value of a property that holds one; nil when the codec has no such fast path.
    let decodeOne: (@Sendable (Property) -> Result<Value, ValueError>)?
    /// Writes values as properties of the given name.
    let encode: @Sendable (String, [Value]) -> [Property]

    init(
        decode: @escaping @Sendable (Property) -> Result<[Value], ValueError>,
        decodeOne: (@Sendable (Property) -> Result<Value, ValueError>)? = nil,
        encode: @escaping @Sendable (String, [Value]) -> [Property]
    ) {
        self.decode = decode
        self.decodeOne = decodeOne
        self.encode = encode
    }

    /// Reads a property that must hold exactly one value.
    func single(_ property: Property) -> Result<Value, ValueError> {
        if let decodeOne { return decodeOne(property) }
        return decode(property).flatMap { values in
            values.count == 1 ? .success(values[0]) : .failure(ValueError("holds \(values.count) values, not one"))
        }
    }
}

/// One typed field of a model and the property it comes from: the table rows behind `Event`, `Todo` …
struct FieldCodec<Model>: Sendable {
    let name: String
    /// Reads one property with this name into the model (called in file order); false when it was not used,
    /// so it stays among the model's other properties.
    let decode: @Sendable (inout Model, Property, inout DecodeContext) -> Bool
    let encode: @Sendable (Model) -> [Property]
    let isUnchanged: @Sendable (Model, Model) -> Bool

    /// A field that holds at most one value, reached through `get` and `set` (`{ $0.due }, { $0.due = $1 }`).
    /// `recover` may make something of a value the codec refuses (an INTEGER too large, clamped): it is then read,
    /// with an error saying what was read.
    ///
    /// Closures rather than a key path: every property of every item read goes through here, and a key path
    /// applied at run time goes through the runtime's generic projection (a getter and a setter call each, generic
    /// metadata looked up, the whole model copied for a field with an observer): 6 % of `convert`'s CPU on
    /// gen_ics.py 20000 (perf). The closures compile to the field's own accessors.
    static func single<Value>(
        _ name: String, _ get: @escaping @Sendable (Model) -> Value?,
        _ set: @escaping @Sendable (inout Model, Value) -> Void,
        _ codec: ValueCodec<Value>, recover: (@Sendable (Property) -> (value: Value, note: String)?)? = nil
    ) -> FieldCodec {
        FieldCodec(
            name: name,
            decode: { model, property, context in
                guard get(model) == nil else {
                    // A repeat of a once-only property is reported and kept as an unknown property.
                    if PropertyDesign.singular.contains(name) {
                        context.log.warning(
                            property.line,
                            "\(name) appears more than once; the first is used, "
                                + "this one is kept as written", code: "repeated-property")
                    }
                    return false
                }
                switch codec.single(property) {
                case .success(let value):
                    set(&model, value)
                    return true
                case .failure(let error):
                    if let recovered = recover?(property) {
                        set(&model, recovered.value)
                        context.log.error(property.line, "\(name) value \(error); \(recovered.note)", code: "bad-value")
                        return true
                    }
                    context.log.error(property.line, "\(name) value \(error); kept as written", code: "bad-value")
                    return false
                }
            },
            encode: { model in
                get(model).map { codec.encode(name, [$0]) } ?? []
            }, isUnchanged: { get($0) == get($1) })
    }

    /// A field that collects every value of every property with that name, reached through `get` and `append`
    /// (`{ $0.attendees }, { $0.attendees += $1 }`; closures for the reason `single` gives). `recover` may make
    /// something of a value the codec refuses (with a note saying what was read and what was left out): it is then
    /// read with a warning instead of kept as written with an error.
    static func list<Value>(
        _ name: String, _ get: @escaping @Sendable (Model) -> [Value],
        _ append: @escaping @Sendable (inout Model, [Value]) -> Void,
        _ codec: ValueCodec<Value>,
        recover: (@Sendable (Property) -> (values: [Value], note: String)?)? = nil
    ) -> FieldCodec {
        FieldCodec(
            name: name,
            decode: { model, property, context in
                switch codec.decode(property) {
                case .success(let values):
                    append(&model, values)
                    return true
                case .failure(let error):
                    if let recovered = recover?(property) {
                        append(&model, recovered.values)
                        context.log.warning(
                            property.line, "\(name) value \(error); \(recovered.note)", code: "bad-value")
                        return true
                    }
                    context.log.error(property.line, "\(name) value \(error); kept as written", code: "bad-value")
                    return false
                }
            },
            encode: { model in
                let values = get(model)
                return values.isEmpty ? [] : codec.encode(name, values)
            }, isUnchanged: { get($0) == get($1) })
    }

    /// The same field seen through a containing model (`ItemCore` fields inside `Event`).
    func lifted<Outer>(_ keyPath: WritableKeyPath<Outer, Model> & Sendable) -> FieldCodec<Outer> {
        FieldCodec<Outer>(
            name: name,
            decode: { outer, properties, context in
                decode(&outer[keyPath: keyPath], properties, &context)
            }, encode: { encode($0[keyPath: keyPath]) },
            isUnchanged: { isUnchanged($0[keyPath: keyPath], $1[keyPath: keyPath]) })
    }
}

/// A field table with a name index, built once per model type.
struct FieldTable<Model>: Sendable {
    let fields: [FieldCodec<Model>]
    /// Field names in table order. A table has a few dozen short names, so a linear search of small strings beats
    /// hashing each property name.
    private let names: [String]

    init(_ fields: [FieldCodec<Model>]) {
        self.fields = fields
        self.names = fields.map(\.name)
    }

    /// Reads the properties this table knows into the model and marks each read or rejected (its field already
    /// said why); the others are left alone.
    func decode(
        _ properties: [Property], into model: inout Model, claims: inout [FieldClaim],
        _ context: inout DecodeContext
    ) {
        for position in properties.indices {
            guard let field = names.firstIndex(of: properties[position].name) else { continue }
            claims[position] = fields[field].decode(&model, properties[position], &context) ? .read : .rejected
        }
    }
}

/// What a model's field table made of one property.
enum FieldClaim {
    /// No field has this name: the property is one the model does not type.
    case unclaimed
    /// A field read it.
    case read
    /// A field has this name but did not take the property (a bad value, a repeat); the field has reported it, and
    /// the property is kept as written.
    case rejected
}

/// Where a model came from: the component as read, and whether any field changed since. An unchanged model is
/// written back line for line; a changed one is written canonically, keeping the lines of the fields that did not
/// change. Provenance never takes part in equality: two events with the same fields are equal wherever they came
/// from.
struct Provenance: Sendable, Hashable {
    var source: Component?
    /// Set by every stored field's `didSet`; reset when the model has just been read.
    var isModified = false
    /// Whether `source` is no longer the component as the file has it but was rewritten after reading (times
    /// X-WR-TIMEZONE moved, `rewritingSource`): the model is written from it all the same.
    var isRewritten = false
    /// The model as read from `source`, when whoever changed it kept it (`keepingOriginal()`), so writing it need
    /// not decode `source` again to tell what changed.
    var original: OriginalModel?

    static func == (lhs: Provenance, rhs: Provenance) -> Bool { true }
    func hash(into hasher: inout Hasher) {}
}

/// A model as it was read, in a box: an existential held inline would make every model address-only, and each
/// `switch` over a `CalendarComponent` would then copy the whole model out of its case.
final class OriginalModel: Sendable {
    let model: any Sendable
    init(_ model: any Sendable) { self.model = model }
}

/// A typed model of one iCalendar component kind, described by its field table.
protocol ComponentModel: Sendable, Equatable {
    static var componentName: String { get }
    /// Every typed field, in the order a canonical component writes them.
    static var fields: [FieldCodec<Self>] { get }
    /// Reads the typed properties into the model, marking what it made of each.
    mutating func decodeProperties(_ properties: [Property], claims: inout [FieldClaim], _ context: inout DecodeContext)
    var otherProperties: [Property] { get set }
    var provenance: Provenance { get set }
    init()
    /// Reads nested components (alarms, unknown components).
    mutating func decodeChildren(_ components: [Component], _ context: inout DecodeContext)
    func encodeChildren() -> [Component]
    /// Reports what RFC 5545 requires and the component lacks.
    func checkRequired(line: Int, _ context: inout DecodeContext)
    /// What a model derives from its parts once all are read (a calendar's category colours for its items).
    mutating func didDecode()
    /// For each of `fields`, whether it holds the same as in `original`.
    func unchangedFields(since original: Self) -> [Bool]
}

extension ComponentModel {
    /// Decodes a component; `children`, when given, stands in for decoding its nested components (they were
    /// decoded elsewhere, at the same point of the log).
    init(
        decoding component: Component, _ context: inout DecodeContext,
        children: ((inout Self, inout DecodeContext) -> Void)? = nil
    ) {
        self.init()
        // An INTEGER beyond 32 bits becomes its bound in the lines themselves, so what is written back is too. A
        // calendar's components are decoded (and clamped) each on its own, sometimes from another copy.
        let component =
            Self.componentName == ICalendar.componentName
            ? component : IntegerBounds.clamping(component, &context.log) ?? component
        var claims = [FieldClaim](repeating: .unclaimed, count: component.properties.count)
        decodeProperties(component.properties, claims: &claims, &context)
        otherProperties = component.properties.indices.filter { claims[$0] != .read }.map { component.properties[$0] }
        // Values no field looked at are checked here; a field reports its own (once).
        if context.checks {
            PropertyDesign.validate(
                component.properties.indices.filter { claims[$0] == .unclaimed }
                    .map { component.properties[$0] }, &context.log)
            PropertyDesign.checkValueParameters(component.properties, &context.log)
        }
        if let children { children(&self, &context) } else { decodeChildren(component.components, &context) }
        provenance = Provenance(source: component)
        didDecode()
        if context.checks { checkRequired(line: component.line, &context) }
    }

    /// Nothing to derive, for most components.
    mutating func didDecode() {}

    /// The component to write: as read when nothing changed, canonical otherwise.
    func encoded() -> Component {
        if let source = provenance.source, !provenance.isModified { return source }
        return encodedCanonically()
    }

    func unchangedFields(since original: Self) -> [Bool] { Self.fields.map { $0.isUnchanged(self, original) } }

    /// Keeps the model as read beside it before it is changed (a no-op once changed, or for a model made in code):
    /// for code that changes many models read from a file and writes them all.
    mutating func keepingOriginal() {
        guard provenance.source != nil, !provenance.isModified, provenance.original == nil else { return }
        provenance.original = OriginalModel(self)
    }

    /// After the fields named `changed` of a model just read were changed: the source with their lines replaced by
    /// their new encoding where the first of each stood, every other line as read and in its place (lines a field
    /// rejected, kept among the other properties, too), and the model counted as read from that source, so it is
    /// written from it rather than canonically. For a model that was read and not changed before; nothing happens
    /// to a model made in code.
    mutating func rewritingSource(of changed: [String]) {
        guard let source = provenance.source, !changed.isEmpty else { return }
        let fields = Self.fields.filter { changed.contains($0.name) }
        // Lines of those names a field did not read stay as they are (rare: a value that did not parse).
        let rejected = Set(otherProperties.lazy.filter { changed.contains($0.name) }.map(\.line))
        var written: [String] = []
        var rewritten = source
        rewritten.properties = []
        rewritten.properties.reserveCapacity(source.properties.count + 2)
        for property in source.properties {
            guard changed.contains(property.name), rejected.isEmpty || !rejected.contains(property.line) else {
                rewritten.properties.append(property)
                continue
            }
            // The field's lines go where its first line stood; its further lines are among them.
            guard !written.contains(property.name) else { continue }
            written.append(property.name)
            for field in fields where field.name == property.name {
                for var encoded in field.encode(self) {
                    encoded.line = property.line
                    rewritten.properties.append(encoded)
                }
            }
        }
        for field in fields where !written.contains(field.name) { rewritten.properties += field.encode(self) }
        provenance = Provenance(source: rewritten)
        provenance.isRewritten = true
    }

    /// The model as it was read, for telling which fields changed; nil for a model made in code.
    var asOriginallyRead: Self? {
        guard let source = provenance.source else { return nil }
        if let original = provenance.original?.model as? Self { return original }
        var scratch = DecodeContext(log: DiagnosticLog(file: nil))
        return Self(decoding: source, &scratch)
    }

    /// Properties in table order; a field that did not change keeps the lines it was read from.
    func encodedCanonically() -> Component {
        let original = asOriginallyRead
        // The lines each field read (what it rejected stays in otherProperties, and is written from there).
        var lines: [String: [Property]] = [:]
        if let original, let source = provenance.source {
            var rejected: [String: Set<Int>] = [:]
            for property in original.otherProperties { rejected[property.name, default: []].insert(property.line) }
            for property in source.properties where rejected[property.name]?.contains(property.line) != true {
                lines[property.name, default: []].append(property)
            }
        }
        var component = Component(Self.componentName)
        let unchanged = original.map(unchangedFields) ?? []
        for (index, field) in Self.fields.enumerated() {
            if !unchanged.isEmpty, unchanged[index] {
                component.properties += lines[field.name] ?? []
            } else {
                component.properties += field.encode(self)
            }
        }
        component.properties += otherProperties
        component.components = encodeChildren()
        return component
    }
}
