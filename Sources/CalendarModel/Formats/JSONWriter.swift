/// Writes JSON text straight into bytes, value by value, with no tree in between; indented with `pretty`.
///
/// ```swift
/// var json = JSONWriter(pretty: true)
/// json.beginObject(); json.key("uid"); json.string("a@b"); json.endObject()
/// ```
package struct JSONWriter {
    package private(set) var bytes: [UInt8] = []
    private let pretty: Bool
    /// Per open container: whether it has an element yet.
    private var filled: [Bool] = []
    private var afterKey = false

    package init(pretty: Bool = false) { self.pretty = pretty }

    /// A writer that goes on inside `depth` open containers, each holding an element already: what it writes
    /// starts with `,` (and, `pretty`, the indentation of that depth), as the next element of a document written
    /// in pieces (`JSCalendarStream`).
    package init(pretty: Bool, inside depth: Int) {
        self.pretty = pretty
        filled = Array(repeating: true, count: depth)
    }

    /// Hands over what was written so far and starts an empty buffer, so long output can go out in pieces.
    package mutating func takeBytes() -> [UInt8] {
        defer { bytes.removeAll(keepingCapacity: true) }
        return bytes
    }

    package mutating func beginArray() { open(UInt8(ascii: "[")) }
    package mutating func endArray() { close(UInt8(ascii: "]")) }
    package mutating func beginObject() { open(UInt8(ascii: "{")) }
    package mutating func endObject() { close(UInt8(ascii: "}")) }

    /// A key of any text (a member's name from a tree), escaped as needed. Named apart from `key(_:)`, which a
    /// literal would otherwise not reach (a literal is String's first), so that literal keys are copied as they are.
    package mutating func key(text name: String) {
        separate()
        Self.quote(name, into: &bytes)
        bytes.append(UInt8(ascii: ":"))
        if pretty { bytes.append(UInt8(ascii: " ")) }
        afterKey = true
    }

    /// A key known to need no escaping (a literal), copied as it is.
    package mutating func key(_ name: StaticString) {
        assert(
            UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount).allSatisfy {
                !Self.needsEscape($0)
            })
        separate()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        if pretty { bytes.append(UInt8(ascii: " ")) }
        afterKey = true
    }

    /// A string value whose bytes the caller writes (digits, dates: nothing to escape).
    package mutating func string(writing body: (inout [UInt8]) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        body(&bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    package mutating func string(_ text: String?) {
        guard let text else { return literal("null") }
        separate()
        Self.quote(text, into: &bytes)
    }

    package mutating func number(_ text: String) { literal(text) }
    package mutating func int(_ value: Int?) { value.map { literal(String($0)) } ?? literal("null") }
    package mutating func bool(_ value: Bool) { literal(value ? "true" : "false") }
    package mutating func null() { literal("null") }

    /// Appends one byte of JSON syntax as it is (the `,` between values written one by one).
    package mutating func appendRaw(_ byte: UInt8) { bytes.append(byte) }

    /// Writes a whole value.
    package mutating func write(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let flag): bool(flag)
        case .number(let text): number(text)
        case .string(let text): string(text)
        case .array(let values):
            beginArray()
            for element in values { write(element) }
            endArray()
        case .object(let members):
            beginObject()
            for member in members {
                key(text: member.key)
                write(member.value)
            }
            endObject()
        }
    }

    private mutating func literal(_ text: String) {
        separate()
        bytes.append(contentsOf: text.utf8)
    }

    private mutating func open(_ bracket: UInt8) {
        separate()
        bytes.append(bracket)
        filled.append(false)
    }

    private mutating func close(_ bracket: UInt8) {
        let hadElements = filled.removeLast()
        if pretty, hadElements { newline() }
        bytes.append(bracket)
    }

    /// Comma and indentation before an element (none right after a key).
    private mutating func separate() {
        if afterKey {
            afterKey = false
            return
        }
        guard !filled.isEmpty else { return }
        if filled[filled.count - 1] { bytes.append(UInt8(ascii: ",")) }
        filled[filled.count - 1] = true
        if pretty { newline() }
    }

    private mutating func newline() {
        let count = 1 + 2 * filled.count
        guard count <= Self.lineBreak.utf8CodeUnitCount else {
            bytes.append(0x0A)
            for _ in 1..<count { bytes.append(UInt8(ascii: " ")) }
            return
        }
        bytes.append(contentsOf: UnsafeBufferPointer(start: Self.lineBreak.utf8Start, count: count))
    }

    /// A line break and the indentation of up to 32 levels, copied from for each new line.
    private static let lineBreak: StaticString = "\n                                                                "

    /// Bytes that start something `quote` escapes: C0 controls, `"`, `\`, DEL, and 0xC2 (which leads C1 controls).
    private static func needsEscape(_ byte: UInt8) -> Bool {
        switch byte {
        case 0..<0x20, 0x22, 0x5C, 0x7F, 0xC2: return true
        default: return false
        }
    }

    /// Escapes `"`, `\` and control characters (C0, DEL and C1, which a terminal showing the JSON would obey);
    /// every other byte (UTF-8 included) is copied as it is, a run of them at a time.
    static func quote(_ text: String, into out: inout [UInt8]) {
        out.append(0x22)
        var text = text
        text.withUTF8 { escape($0, into: &out) }
        out.append(0x22)
    }

    /// The bytes of a string with each escape appended in place: the bytes between escapes (most strings are one
    /// such run) are copied whole.
    private static func escape(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        func hex(_ nibble: UInt8) -> UInt8 {
            nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
        }
        var plainStart = 0
        var index = 0
        let base = bytes.baseAddress
        let space = SIMD16<UInt8>(repeating: 0x20), quote = SIMD16<UInt8>(repeating: 0x22)
        let backslash = SIMD16<UInt8>(repeating: 0x5C), delete = SIMD16<UInt8>(repeating: 0x7F)
        let c1 = SIMD16<UInt8>(repeating: 0xC2)
        while index < bytes.count {
            // Sixteen bytes at a time while none needs a look (`needsEscape`): text runs are copied whole anyway.
            while index + 16 <= bytes.count, let base {
                let chunk = UnsafeRawPointer(base + index).loadUnaligned(as: SIMD16<UInt8>.self)
                let special = (chunk .< space) .| (chunk .== quote) .| (chunk .== backslash) .| (chunk .== delete)
                guard !any(special .| (chunk .== c1)) else { break }
                index += 16
            }
            guard index < bytes.count else { break }
            guard needsEscape(bytes[index]) else {
                index += 1
                continue
            }
            var byte = bytes[index]
            let letter: UInt8
            var length = 1
            switch byte {
            case 0x22, 0x5C: letter = byte
            case 0x0A: letter = UInt8(ascii: "n")
            case 0x0D: letter = UInt8(ascii: "r")
            case 0x09: letter = UInt8(ascii: "t")
            // U+0080–U+009F (C1 controls) are C2 80 … C2 9F in UTF-8.
            case 0xC2 where index + 1 < bytes.count && (0x80...0x9F).contains(bytes[index + 1]):
                byte = bytes[index + 1]
                length = 2
                letter = UInt8(ascii: "u")
            case 0xC2:
                index += 1
                continue
            default: letter = UInt8(ascii: "u")
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plainStart..<index]))
            index += length
            plainStart = index
            out.append(0x5C)
            out.append(letter)
            guard letter == UInt8(ascii: "u") else { continue }
            out.append(UInt8(ascii: "0"))
            out.append(UInt8(ascii: "0"))
            out.append(hex(byte >> 4))
            out.append(hex(byte & 0xF))
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plainStart..<bytes.count]))
    }
}
