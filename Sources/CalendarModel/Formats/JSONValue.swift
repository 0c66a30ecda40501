/// A JSON value that keeps object key order and the exact text of numbers, so jCal round trips are exact.
package enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// The number as written (`1`, `-0.5`, `37.386013`).
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    /// About how many bytes the value takes written compactly: its strings, keys and numbers, and a few for each
    /// value. Walked with a stack of its own, so nesting costs no recursion.
    package var weight: Int {
        var total = 0
        var pending: [JSONValue] = [self]
        while let value = pending.popLast() {
            total += 2
            switch value {
            case .null, .bool: total += 4
            case .number(let text), .string(let text): total += text.utf8.count
            case .array(let items): pending += items
            case .object(let members):
                for member in members {
                    total += member.key.utf8.count + 3
                    pending.append(member.value)
                }
            }
        }
        return total
    }

    package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    package func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(value)
        case .number(let value), .string(let value): hasher.combine(value)
        case .array(let values): hasher.combine(values)
        case .object(let members):
            for member in members {
                hasher.combine(member.key)
                hasher.combine(member.value)
            }
        }
    }

    package static func int(_ value: Int) -> JSONValue { .number(String(value)) }

    /// The member of an object with that key.
    package subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members.first { $0.key == key }?.value }
        return nil
    }

    package var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    package var arrayValue: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
    /// An object's members, or none.
    package var objectMembers: [(key: String, value: JSONValue)] { if case .object(let m) = self { m } else { [] } }

    /// Compact JSON text, or indented with `pretty`.
    package func serialized(pretty: Bool = false) -> String {
        String(decoding: serializedBytes(pretty: pretty), as: UTF8.self)
    }

    /// The JSON text as UTF-8 bytes.
    package func serializedBytes(pretty: Bool = false) -> [UInt8] {
        var writer = JSONWriter(pretty: pretty)
        writer.write(self)
        return writer.bytes
    }
}

/// Numbers as JSON writes them: iCalendar's INTEGER and FLOAT text (and what producers write instead: `007`,
/// `+5`, `.5`, `2.`, `1.e5`) in RFC 8259's grammar, so no reader rejects them.
enum JSONNumber {
    /// The JSON text of a number written as `[+-]digits[.digits][e[+-]digits]` (either digit run may be empty,
    /// not both); nil for anything else (`nan`, `inf`, `0x1F`, text). `integer` refuses a fraction or exponent.
    static func canonical(_ text: some StringProtocol, integer: Bool = false) -> String? {
        let bytes = Array(text.utf8)
        var index = 0
        func run() -> ArraySlice<UInt8> {
            let first = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
            return bytes[first..<index]
        }
        var sign = ""
        if index < bytes.count, bytes[index] == 0x2B || bytes[index] == 0x2D {  // + or -
            if bytes[index] == 0x2D { sign = "-" }
            index += 1
        }
        let whole = run()
        var fraction: ArraySlice<UInt8>?
        if index < bytes.count, bytes[index] == 0x2E {  // .
            index += 1
            fraction = run()
        }
        guard !whole.isEmpty || !(fraction?.isEmpty ?? true) else { return nil }
        var exponent: String?
        if index < bytes.count, bytes[index] | 0x20 == 0x65 {  // e or E
            index += 1
            var exponentSign = ""
            if index < bytes.count, bytes[index] == 0x2B || bytes[index] == 0x2D {
                exponentSign = bytes[index] == 0x2D ? "-" : "+"
                index += 1
            }
            let digits = run()
            guard !digits.isEmpty else { return nil }
            exponent = "e" + exponentSign + String(decoding: digits, as: UTF8.self)
        }
        guard index == bytes.count, !integer || (fraction == nil && exponent == nil) else { return nil }
        let significant = whole.drop { $0 == 0x30 }
        var out = sign + (significant.isEmpty ? "0" : String(decoding: significant, as: UTF8.self))
        if let fraction { out += "." + (fraction.isEmpty ? "0" : String(decoding: fraction, as: UTF8.self)) }
        return out + (exponent ?? "")
    }
}

/// Why JSON text could not be read, with the line and column it happened at.
package struct JSONParseError: Error, Sendable, CustomStringConvertible {
    package var line: Int
    /// 1-based, in characters.
    package var column: Int
    package var message: String
    package var description: String { "line \(line), column \(column): \(message)" }
}

extension JSONValue {
    /// Parses JSON text strictly as RFC 8259 defines it: UTF-8, numbers in JSON's grammar (no `+1`, `01`, `.5`,
    /// `1.`), only JSON's escapes, no raw control characters in strings, no lone surrogates. A UTF-8 byte-order
    /// mark is skipped. Nesting deeper than 512 levels is refused rather than overflowing the stack.
    package static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.index == bytes.count else { throw parser.error("unexpected text after the JSON value") }
        return value
    }

    /// `parse`, and where each array starts (line, column in characters), by its JSON Pointer (RFC 6901: ""
    /// for the whole text, "/0/1/2" below it; object keys as written): what a reader needs to say where a
    /// component or property it found wanting is.
    /// With `objectsToo`, where every value starts (JSCalendar's shape is objects of strings). `depth`: how deep
    /// in a larger document the text stands (its nesting counts toward the limit as there).
    package static func parseLocating(_ bytes: [UInt8], objectsToo: Bool = false, depth: Int = 0)
        throws(JSONParseError) -> (value: JSONValue, arrays: [String: (line: Int, column: Int)])
    {
        var parser = JSONParser(bytes: bytes)
        parser.arrays = [:]
        parser.objectsToo = objectsToo
        let value = try parser.value(depth: depth)
        parser.skipSpace()
        guard parser.index == bytes.count else { throw parser.error("unexpected text after the JSON value") }
        return (value, parser.arrays ?? [:])
    }
}

private struct JSONParser {
    static let maximumDepth = 512

    let bytes: [UInt8]
    var index = 0
    var line = 1
    /// Where the current line starts, for columns.
    var lineStart = 0
    /// With `parseLocating`: each array's start by its pointer, and the pointer of the value being read.
    var arrays: [String: (line: Int, column: Int)]?
    var pointer = ""
    var objectsToo = false
    /// The column of `counted` on the current line (`lineStart`): columns of positions met in order are counted
    /// from the last one, not from the line's start again (a jCal file written on one line).
    var counted = (lineStart: -1, index: 0, column: 1)

    init(bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { (index, lineStart) = (3, 3) }
    }

    /// An error at `position` (default: the current byte), its column counted in characters.
    func error(_ message: String, at position: Int? = nil) -> JSONParseError {
        let end = min(position ?? index, bytes.count)
        let column = bytes[lineStart..<max(lineStart, end)].reduce(1) { $1 & 0xC0 == 0x80 ? $0 : $0 + 1 }
        return JSONParseError(line: line, column: column, message: message)
    }

    mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x0A:
                line += 1
                lineStart = index + 1
            case 0x20, 0x09, 0x0D: break
            default: return
            }
            index += 1
        }
    }

    /// Records where the container at `index` starts, by its pointer.
    mutating func locate() {
        if counted.lineStart != lineStart { counted = (lineStart, lineStart, 1) }
        counted.column = bytes[counted.index..<index].reduce(counted.column) { $1 & 0xC0 == 0x80 ? $0 : $0 + 1 }
        counted.index = index
        arrays?[pointer] = (line, counted.column)
    }

    mutating func value(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth < Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth) levels") }
        skipSpace()
        guard index < bytes.count else { throw error("unexpected end of input") }
        if objectsToo { locate() }
        switch bytes[index] {
        case 0x7B:  // {
            index += 1
            var members: [(key: String, value: JSONValue)] = []
            skipSpace()
            if index < bytes.count, bytes[index] == 0x7D { index += 1; return .object(members) }
            while true {
                skipSpace()
                guard index < bytes.count, bytes[index] == 0x22 else { throw error("expected a key") }
                let key = try string()
                skipSpace()
                guard index < bytes.count, bytes[index] == 0x3A else { throw error("expected ':'") }
                index += 1
                let outer = pointer
                if arrays != nil { pointer += "/" + key }
                members.append((key, try value(depth: depth + 1)))
                pointer = outer
                skipSpace()
                guard index < bytes.count else { throw error("unterminated object") }
                if bytes[index] == 0x2C { index += 1; continue }
                guard bytes[index] == 0x7D else { throw error("expected ',' or '}'") }
                index += 1
                return .object(members)
            }
        case 0x5B:  // [
            if arrays != nil, !objectsToo { locate() }
            index += 1
            var values: [JSONValue] = []
            skipSpace()
            if index < bytes.count, bytes[index] == 0x5D { index += 1; return .array(values) }
            let outer = pointer
            defer { pointer = outer }
            while true {
                if arrays != nil { pointer = outer + "/" + String(values.count) }
                values.append(try value(depth: depth + 1))
                skipSpace()
                guard index < bytes.count else { throw error("unterminated array") }
                if bytes[index] == 0x2C { index += 1; continue }
                guard bytes[index] == 0x5D else { throw error("expected ',' or ']'") }
                index += 1
                return .array(values)
            }
        case 0x22: return .string(try string())
        case 0x74: return try literal("true", .bool(true))
        case 0x66: return try literal("false", .bool(false))
        case 0x6E: return try literal("null", .null)
        case 0x2D, 0x30...0x39: return try number()
        default: throw error("unexpected character")
        }
    }

    mutating func literal(_ word: StaticString, _ value: JSONValue) throws(JSONParseError) -> JSONValue {
        let utf8 = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard bytes.count - index >= utf8.count, bytes[index..<index + utf8.count].elementsEqual(utf8) else {
            throw error("unexpected character")
        }
        index += utf8.count
        return value
    }

    /// The number of ASCII digits from the current position on, stepped over.
    mutating func digits() -> Int {
        let first = index
        while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
        return index - first
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, kept as written.
    mutating func number() throws(JSONParseError) -> JSONValue {
        let start = index
        if bytes[index] == 0x2D { index += 1 }
        let integerStart = index
        let integerDigits = digits()
        guard integerDigits > 0 else { throw error("a number needs a digit after '-'") }
        if integerDigits > 1, bytes[integerStart] == 0x30 {
            throw error("a number may not start with 0 (leading zeros are not JSON)", at: integerStart)
        }
        if index < bytes.count, bytes[index] == 0x2E {
            index += 1
            guard digits() > 0 else { throw error("a number needs a digit after '.'") }
        }
        if index < bytes.count, bytes[index] | 0x20 == 0x65 {  // e or E
            index += 1
            if index < bytes.count, bytes[index] == 0x2B || bytes[index] == 0x2D { index += 1 }
            guard digits() > 0 else { throw error("a number needs a digit in its exponent") }
        }
        return .number(String(decoding: bytes[start..<index], as: UTF8.self))
    }

    mutating func string() throws(JSONParseError) -> String {
        let open = index
        index += 1
        var out: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x22 {
                index += 1
                return String(decoding: out, as: UTF8.self)
            } else if byte == 0x5C {
                try escape(into: &out)
            } else if byte < 0x20 {
                throw error("a control character (U+\(hex(UInt32(byte)))) inside a string must be escaped")
            } else if byte < 0x80 {
                out.append(byte)
                index += 1
            } else {
                let length = Self.utf8Length(bytes, at: index)
                guard length > 0 else { throw error("bytes that are not UTF-8 inside a string") }
                out.append(contentsOf: bytes[index..<index + length])
                index += length
            }
        }
        throw error("a string is never closed", at: open)
    }

    /// One escape after a backslash: JSON's eight, or `\uXXXX` (a surrogate pair as one character).
    mutating func escape(into out: inout [UInt8]) throws(JSONParseError) {
        let start = index
        index += 1
        guard index < bytes.count else { throw error("a string is never closed") }
        let letter = bytes[index]
        index += 1
        switch letter {
        case 0x22, 0x5C, 0x2F: out.append(letter)  // " \ /
        case 0x6E: out.append(0x0A)  // n
        case 0x74: out.append(0x09)  // t
        case 0x72: out.append(0x0D)  // r
        case 0x62: out.append(0x08)  // b
        case 0x66: out.append(0x0C)  // f
        case 0x75:  // u
            var scalar = try hex4()
            if (0xDC00..<0xE000).contains(scalar) {
                throw error("\\u\(hex(scalar)) is a low surrogate with no high surrogate before it", at: start)
            }
            if (0xD800..<0xDC00).contains(scalar) {
                guard bytes.count - index >= 6, bytes[index] == 0x5C, bytes[index + 1] == 0x75 else {
                    throw error("\\u\(hex(scalar)) is a high surrogate with no low surrogate after it", at: start)
                }
                index += 2
                let low = try hex4()
                guard (0xDC00..<0xE000).contains(low) else {
                    throw error(
                        "\\u\(hex(scalar)) is a high surrogate followed by \\u\(hex(low)), not a low surrogate",
                        at: start)
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let character = Unicode.Scalar(scalar) else {
                throw error("\\u escape names no character", at: start)
            }
            out.append(contentsOf: String(character).utf8)
        default:
            throw error("\\\(String(decoding: [letter], as: UTF8.self)) is not a JSON escape", at: start)
        }
    }

    mutating func hex4() throws(JSONParseError) -> UInt32 {
        guard bytes.count - index >= 4 else { throw error("\\u needs four hex digits") }
        var value: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            guard let digit = Self.hexDigit(byte) else { throw error("\\u needs four hex digits") }
            value = value << 4 | digit
        }
        index += 4
        return value
    }

    static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case 0x30...0x39: return UInt32(byte - 0x30)
        case 0x41...0x46: return UInt32(byte - 0x41 + 10)
        case 0x61...0x66: return UInt32(byte - 0x61 + 10)
        default: return nil
        }
    }

    /// The length of the valid UTF-8 sequence at `position`, 0 when it is not one.
    static func utf8Length(_ bytes: [UInt8], at position: Int) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            let lead = buffer[position]
            let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
            guard position + length <= buffer.count else { return 0 }
            return UTF8Check.isValid(UnsafeBufferPointer(rebasing: buffer[position..<position + length])) ? length : 0
        }
    }

    func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
