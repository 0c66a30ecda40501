import Foundation

/// A JSON document read from a file in blocks, a value at a time (`JSCalendarStreamRead`): the structure around
/// the values is walked byte by byte, each value wanted is cut out whole and parsed by `JSONValue`, each other
/// skipped. Knows the line and column of the next byte, so that a value's places are the whole document's. Anything
/// that is not JSON's shape throws `JSCalendarStreamRead.Fallback`.
struct JSONSource {
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private var index = 0
    private var line = 1
    private var column = 1
    static let blockBytes = 1 << 20

    init(_ handle: FileHandle) { self.handle = handle }

    /// The next byte, nil at the end of the file.
    mutating func peek() throws -> UInt8? {
        if index == buffer.count {
            guard let data = try handle.read(upToCount: Self.blockBytes), !data.isEmpty else { return nil }
            buffer = [UInt8](data)
            index = 0
        }
        return buffer[index]
    }

    /// Takes the next byte.
    @discardableResult
    mutating func next() throws -> UInt8? {
        guard let byte = try peek() else { return nil }
        index += 1
        if byte == 0x0A {
            line += 1
            column = 1
        } else if byte & 0xC0 != 0x80 {
            column += 1
        }
        return byte
    }

    mutating func expect(_ byte: UInt8) throws {
        guard try next() == byte else { throw JSCalendarStreamRead.Fallback() }
    }

    mutating func skipByteOrderMark() throws {
        guard try peek() == 0xEF else { return }
        for byte: UInt8 in [0xEF, 0xBB, 0xBF] { try expect(byte) }
        column = 1
    }

    mutating func skipSpace() throws {
        while let byte = try peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { try next() }
    }

    /// Walks an array, `element` reading or skipping each element from its first byte.
    mutating func elements(_ element: (inout JSONSource) throws -> Void) throws {
        try expect(UInt8(ascii: "["))
        try skipSpace()
        if try peek() == UInt8(ascii: "]") { return try expect(UInt8(ascii: "]")) }
        while true {
            try skipSpace()
            try element(&self)
            try skipSpace()
            guard let next = try next() else { throw JSCalendarStreamRead.Fallback() }
            if next == UInt8(ascii: "]") { return }
            guard next == UInt8(ascii: ",") else { throw JSCalendarStreamRead.Fallback() }
        }
    }

    mutating func skipValue() throws {
        var none: [UInt8]? = nil
        try cut(into: &none)
    }

    /// The value that starts here, `depth` containers deep in the document, parsed, with the places of its objects
    /// and arrays under the pointer `root`, on the document's lines and columns.
    mutating func parsedValue(under root: String = "", depth: Int) throws -> (
        value: JSONValue, places: [String: (line: Int, column: Int)]
    ) {
        let (startLine, startColumn) = (line, column)
        var bytes: [UInt8]? = []
        try cut(into: &bytes)
        guard let parsed = try? JSONValue.parseLocating(bytes ?? [], objectsToo: true, depth: depth) else {
            throw JSCalendarStreamRead.Fallback()
        }
        var places: [String: (line: Int, column: Int)] = [:]
        for (pointer, place) in parsed.arrays {
            places[root + pointer] = (
                startLine + place.line - 1, place.line == 1 ? startColumn + place.column - 1 : place.column
            )
        }
        return (parsed.value, places)
    }

    /// Reads the value that starts here, its bytes appended to `bytes` unless that is nil: a string to its closing
    /// quote, an object or array to the bracket that closes it (strings inside read as strings), anything else to
    /// the next ',', '}', ']' or space.
    private mutating func cut(into bytes: inout [UInt8]?) throws {
        guard let first = try peek() else { throw JSCalendarStreamRead.Fallback() }
        if first == UInt8(ascii: "\"") { return try string(into: &bytes) }
        guard first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else {
            // Taken before it is kept: `bytes?.append(try next())` would not take it when skipping.
            while let byte = try peek(), !Self.endsScalar(byte) {
                try next()
                bytes?.append(byte)
            }
            return
        }
        var depth = 0
        repeat {
            guard let byte = try peek() else { throw JSCalendarStreamRead.Fallback() }
            if byte == UInt8(ascii: "\"") {
                try string(into: &bytes)
                continue
            }
            try next()
            bytes?.append(byte)
            if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") { depth += 1 }
            if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") { depth -= 1 }
        } while depth > 0
    }

    /// A string from its opening quote to its closing one, escapes included.
    private mutating func string(into bytes: inout [UInt8]?) throws {
        try expect(UInt8(ascii: "\""))
        bytes?.append(UInt8(ascii: "\""))
        while true {
            guard let byte = try next() else { throw JSCalendarStreamRead.Fallback() }
            bytes?.append(byte)
            if byte == UInt8(ascii: "\"") { return }
            if byte == UInt8(ascii: "\\") {
                guard let escaped = try next() else { throw JSCalendarStreamRead.Fallback() }
                bytes?.append(escaped)
            }
        }
    }

    private static func endsScalar(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") || byte == 0x20
            || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
