import CalendarModel

/// Whose change a field of a merge result carries.
public enum MergeSide: String, Sendable, Hashable {
    /// The external calendar's (the file, the feed, the sync partner).
    case external
    /// The store's.
    case local
    /// Both sides made the same change.
    case both
}

/// One field an update or a merge changed, as a report names it: `DTSTART 09:00 → 13:00 (external)`.
public struct FieldChange: Sendable, Hashable {
    /// The property's name (`DTSTART`, `LOCATION`, `ATTENDEE`), or `VALARM` for an alarm.
    public var name: String
    /// The value before (the merge base's, or the store's for an update), as a person reads it; nil when absent.
    public var from: String?
    /// The value after; nil when the change removed it.
    public var to: String?
    /// Whose value `to` is.
    public var side: MergeSide
    /// For a field both sides changed to different values: each side's value (nil: removed there). `side` names
    /// the winner.
    public var local: String?
    public var external: String?
    /// Whether both sides changed this field to different values.
    public var isConflict: Bool

    /// A one-sided (or same-on-both-sides) change.
    public init(name: String, from: String?, to: String?, side: MergeSide) {
        self.name = name
        self.from = from
        self.to = to
        self.side = side
        isConflict = false
    }

    /// A field both sides changed, with the value each gave it and the winner.
    public init(name: String, from: String?, local: String?, external: String?, winner: MergeSide) {
        self.init(name: name, from: from, to: winner == .external ? external : local, side: winner)
        self.local = local
        self.external = external
        isConflict = true
    }
}

/// The three-way merge of one item, field by field, against what the merge base said of it: a field one side
/// changed takes that side's value; a field both changed to different values takes the `winner`'s and is a
/// conflict. What a field is:
///
/// - **time**: DTSTART, DTEND, DURATION and DUE move together. A new start with the old end (or the other way
///   round) could put the end before the start, or make a one-hour meeting last a day.
/// - **recurrence**: RRULE, EXRULE, RDATE and EXDATE change together. An EXDATE names an instance of one rule;
///   kept beside another rule it would cancel an instance that happens to fall there, or none.
/// - a property that may stand once: its name (parameters are part of its value).
/// - a property that may repeat (ATTENDEE, CATEGORIES, ATTACH, COMMENT, CONTACT, RELATED-TO, RESOURCES, X- …):
///   each value on its own, so one side's new attendee and the other side's removed category both hold. An
///   ATTENDEE is known by its address, so a reply (its PARTSTAT) replaces the attendee's line.
/// - a nested component (VALARM): each on its own, known by its UID (RFC 9074) or else its content.
///
/// DTSTAMP and LAST-MODIFIED become the later of the two sides, SEQUENCE one above the higher of the two.
public enum PropertyMerge {
    /// What a merge of one item gives.
    public struct Outcome: Sendable {
        /// The merged component.
        public var component: Component
        /// Every field that differs from the base in the result or on either side, in the component's order.
        public var changes: [FieldChange]
        /// Whether the result says the same as the local (or the external) version, but for the bookkeeping
        /// properties: then that version is the result.
        public var equalsLocal: Bool
        public var equalsExternal: Bool
        /// Whether some field was changed differently on both sides.
        public var hasConflict: Bool { changes.contains(where: \.isConflict) }
    }

    /// The bookkeeping properties, made from both sides instead of merged.
    static let bookkeeping: Set<String> = ["DTSTAMP", "LAST-MODIFIED", "SEQUENCE"]
    static let timeNames: Set<String> = ["DTSTART", "DTEND", "DURATION", "DUE"]
    static let recurrenceNames: Set<String> = ["RRULE", "EXRULE", "RDATE", "EXDATE"]
    /// Properties RFC 5545 and RFC 7986 let an event or todo hold more than once.
    static let repeating: Set<String> = [
        "ATTACH", "ATTENDEE", "CATEGORIES", "COMMENT", "CONTACT", "RELATED-TO", "RESOURCES", "REQUEST-STATUS",
        "CONFERENCE", "IMAGE",
    ]

    /// Merges `local` and `external` against `base`; `winner` takes the fields both changed differently.
    public static func merge(base: Component, local: Component, external: Component, winner: MergeSide) -> Outcome {
        let (b, l, e) = (Fields(base), Fields(local), Fields(external))
        var keys = l.order
        for key in e.order where l.values[key] == nil { keys.append(key) }
        for key in b.order where l.values[key] == nil && e.values[key] == nil { keys.append(key) }
        var chosen: [FieldKey: Field] = [:]
        var changes: [FieldChange] = []
        for key in keys {
            let (old, mine, theirs) = (b.values[key], l.values[key], e.values[key])
            let result: Field?
            if mine == theirs {
                result = mine
                if mine != old { changes += describe(key, from: old, to: mine, side: .both) }
            } else if mine == old {
                result = theirs
                changes += describe(key, from: old, to: theirs, side: .external)
            } else if theirs == old {
                result = mine
                changes += describe(key, from: old, to: mine, side: .local)
            } else {
                result = winner == .external ? theirs : mine
                changes += describeConflict(key, from: old, local: mine, external: theirs, winner: winner)
            }
            chosen[key] = result
        }
        let equalsLocal = keys.allSatisfy { chosen[$0] == l.values[$0] }
        let equalsExternal = keys.allSatisfy { chosen[$0] == e.values[$0] }
        var merged = Component(local.name)
        for key in keys {
            guard let field = chosen[key] else { continue }
            merged.properties += field.properties
            merged.components += field.components
        }
        merged.properties += bookkeeping(local: local, external: external)
        if let uid = merged.properties.firstIndex(where: { $0.name == "UID" }), uid != 0 {
            merged.properties.insert(merged.properties.remove(at: uid), at: 0)
        }
        return Outcome(component: merged, changes: changes, equalsLocal: equalsLocal, equalsExternal: equalsExternal)
    }

    /// What an update from `old` to `new` changes, field by field (every change on `side`).
    public static func changes(from old: Component, to new: Component, side: MergeSide) -> [FieldChange] {
        let (a, b) = (Fields(old), Fields(new))
        var keys = b.order
        for key in a.order where b.values[key] == nil { keys.append(key) }
        return keys.flatMap { key in
            a.values[key] == b.values[key] ? [] : describe(key, from: a.values[key], to: b.values[key], side: side)
        }
    }

    /// The later DTSTAMP and LAST-MODIFIED of the two sides, and a SEQUENCE above both.
    static func bookkeeping(local: Component, external: Component) -> [Property] {
        var properties: [Property] = []
        for name in ["DTSTAMP", "LAST-MODIFIED"] {
            let stamps = (local.properties(named: name) + external.properties(named: name))
            if let latest = stamps.max(by: { $0.value < $1.value }) { properties.append(latest) }
        }
        let sequences = (local.properties(named: "SEQUENCE") + external.properties(named: "SEQUENCE"))
            .compactMap { IntegerBounds.clamped($0.value) }
        properties.append(Property("SEQUENCE", value: String(ItemCore.sequence(after: sequences.max() ?? 0))))
        return properties
    }
}

/// A field's identity within one item (see `PropertyMerge`).
struct FieldKey: Hashable {
    /// `time`, `recurrence`, a property name, or a component name.
    var group: String
    /// For a repeating property or a nested component: which one.
    var member: String = ""
}

/// A field's lines (or nested components) on one side, compared by their canonical text.
struct Field: Equatable {
    var properties: [Property] = []
    var components: [Component] = []
    var text: [String] = []

    /// Equal when they hold the same lines in any order (DTEND before DTSTART is the same time).
    static func == (lhs: Field, rhs: Field) -> Bool {
        lhs.text.count == rhs.text.count && (lhs.text == rhs.text || lhs.text.sorted() == rhs.text.sorted())
    }
}

/// An item's fields, in the order they first appear.
struct Fields {
    var order: [FieldKey] = []
    var values: [FieldKey: Field] = [:]

    init(_ component: Component) {
        for property in component.properties where !PropertyMerge.bookkeeping.contains(property.name) {
            add(Self.key(of: property), property: property)
        }
        for child in component.components {
            let uid = child.property("UID")?.value
            let text = String(decoding: ICS.write(components: [child]), as: UTF8.self)
            add(FieldKey(group: child.name, member: uid.map { "UID:" + $0 } ?? text), component: child, text: text)
        }
    }

    static func key(of property: Property) -> FieldKey {
        let name = property.name
        if PropertyMerge.timeNames.contains(name) { return FieldKey(group: "time") }
        if PropertyMerge.recurrenceNames.contains(name) { return FieldKey(group: "recurrence") }
        if name == "ATTENDEE" { return FieldKey(group: name, member: property.value.lowercased()) }
        if PropertyMerge.repeating.contains(name) || name.hasPrefix("X-") {
            return FieldKey(group: name, member: property.canonicalContentLine)
        }
        return FieldKey(group: name)
    }

    mutating func add(_ key: FieldKey, property: Property) {
        if values[key] == nil { order.append(key) }
        values[key, default: Field()].properties.append(property)
        values[key, default: Field()].text.append(property.canonicalContentLine)
    }

    mutating func add(_ key: FieldKey, component: Component, text: String) {
        if values[key] == nil { order.append(key) }
        values[key, default: Field()].components.append(component)
        values[key, default: Field()].text.append(text)
    }
}
