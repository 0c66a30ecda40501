/// INTEGER (RFC 5545 §3.3.8): "a signed integer value" whose range is -2147483648 to 2147483647.
///
/// ```
/// integer    = (["+"] / "-") 1*DIGIT
/// ```
///
/// ICSKit reads an INTEGER property from outside (a file, the store's kept lines, a server) with a value beyond that
/// range as the bound it passes, and rewrites the line so, where it is read: every later step — a merge that
/// raises SEQUENCE, a line written back as read, a row of the store — sees a 32-bit number, and no arithmetic on it
/// can overflow a Swift `Int`.
package enum IntegerBounds {
    /// The properties whose default value type is INTEGER (`PropertyDesign`).
    static let names: Set<String> = Set(PropertyDesign.table.filter { $0.value.type == .integer }.keys)

    /// The number `text` spells, clamped to 32 bits; nil when it is no INTEGER.
    package static func clamped(_ text: String) -> Int? {
        guard ValueSyntax.isInteger(text) else { return nil }
        if let number = Int32(text.hasPrefix("+") ? String(text.dropFirst()) : text) { return Int(number) }
        return text.hasPrefix("-") ? Int(Int32.min) : Int(Int32.max)
    }

    /// `component` with each INTEGER property beyond 32 bits (its own and its nested components') rewritten to the
    /// bound it passes, each reported on its line; nil when none is (the common case costs one pass over values).
    static func clamping(_ component: Component, _ log: inout DiagnosticLog, depth: Int = 0) -> Component? {
        var rewritten: Component?
        let beyond = component.properties.withUnsafeBufferPointer { properties in
            // The common case, none, makes no array.
            properties.indices.contains { needsClamping(properties, at: $0) }
                ? properties.indices.filter { needsClamping(properties, at: $0) } : []
        }
        for index in beyond {
            let property = component.properties[index]
            let bound = clamped(property.value) ?? 0
            log.error(
                property.line,
                "\(property.name) value \(property.value) is outside an INTEGER's range (\(Int32.min) to "
                    + "\(Int32.max)); read as \(bound)", code: "bad-value")
            if rewritten == nil { rewritten = component }
            rewritten?.properties[index].value = String(bound)
        }
        // Nesting is bounded by the scanner; the depth guard keeps this walk bounded on its own.
        guard depth < 64 else { return rewritten }
        for (index, child) in component.components.enumerated() {
            guard let clampedChild = clamping(child, &log, depth: depth + 1) else { continue }
            if rewritten == nil { rewritten = component }
            rewritten?.components[index] = clampedChild
        }
        return rewritten
    }

    /// An INTEGER-typed property (no other VALUE) whose value is an integer beyond 32 bits. Nine characters always
    /// fit, and an integer is a sign and digits: the checks of the value's bytes spare the rest of the work for
    /// almost every line. They come before the name's: a DATE-TIME starts with digits too, and hashing its name cost
    /// more than reading its value up to the "T".
    private static func needsClamping(_ properties: UnsafeBufferPointer<Property>, at index: Int) -> Bool {
        guard properties[index].value.utf8.count >= 10, ValueSyntax.isInteger(properties[index].value) else {
            return false
        }
        let property = properties[index]
        guard names.contains(property.name), property["VALUE"].map({ $0.uppercased() == "INTEGER" }) ?? true
        else { return false }
        return Int32(property.value.hasPrefix("+") ? String(property.value.dropFirst()) : property.value) == nil
    }
}
