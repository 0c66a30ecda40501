import CalendarModel

/// A three-way merge of one item, property by property: when both sides changed an item but not the same
/// properties, each side's changes are kept (a new summary there, a completion here). Properties are compared by
/// name, all lines of a name together (ATTENDEE lines are one value); nested components (alarms) together as one.
/// SEQUENCE becomes the higher of the two, DTSTAMP and LAST-MODIFIED the later. Nil when both sides changed the
/// same property differently: that is a conflict for the merge policy.
enum FieldMerge {
    static let derived: Set<String> = ["DTSTAMP", "LAST-MODIFIED", "SEQUENCE"]

    static func merge(base: Component, local: Component, external: Component) -> Component? {
        guard base.name == local.name, local.name == external.name else { return nil }
        func lines(_ component: Component, _ name: String) -> [String] {
            component.properties.filter { $0.name == name }.map(\.contentLine)
        }
        var names: [String] = []
        for property in local.properties + external.properties where !names.contains(property.name) {
            names.append(property.name)
        }
        var merged = Component(local.name)
        for name in names where !derived.contains(name) {
            let (b, l, e) = (lines(base, name), lines(local, name), lines(external, name))
            let chosen: Component
            if l == b {
                chosen = external
            } else if e == b || e == l {
                chosen = local
            } else {
                return nil
            }
            merged.properties += chosen.properties.filter { $0.name == name }
        }
        // The bookkeeping properties: the later stamp, the higher revision.
        for name in ["DTSTAMP", "LAST-MODIFIED"] {
            let candidates = (local.properties + external.properties).filter { $0.name == name }
            if let latest = candidates.max(by: { $0.value < $1.value }) { merged.properties.append(latest) }
        }
        let sequences = (local.properties + external.properties).filter { $0.name == "SEQUENCE" }.compactMap {
            Int($0.value)
        }
        if let highest = sequences.max() { merged.properties.append(Property("SEQUENCE", value: String(highest))) }
        func children(_ component: Component) -> [[UInt8]] { component.components.map { ICS.write(components: [$0]) } }
        let (b, l, e) = (children(base), children(local), children(external))
        if l == b {
            merged.components = external.components
        } else if e == b || e == l {
            merged.components = local.components
        } else {
            return nil
        }
        // UID first, as writers put it.
        if let index = merged.properties.firstIndex(where: { $0.name == "UID" }) {
            merged.properties.insert(merged.properties.remove(at: index), at: 0)
        }
        return merged
    }
}
