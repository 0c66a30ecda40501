import Foundation

/// A small, strict XML reader for xCal: elements, attributes, namespaces, text, CDATA, comments and processing
/// instructions. It refuses document type declarations and every entity but XML's five predefined ones and
/// character references, so no input can make it fetch, expand or nest entities.
package struct XMLElement: Sendable, Equatable {
    /// The namespace URI the element's prefix (or the default namespace) resolves to, nil when none.
    package var namespace: String?
    /// The local name, without prefix.
    package var name: String
    package var attributes: [(name: String, value: String)]
    package var children: [XMLElement]
    /// The element's own character data (text and CDATA between its children), concatenated.
    package var text: String
    /// The line of the start tag, from 1.
    package var line: Int

    package static func == (lhs: XMLElement, rhs: XMLElement) -> Bool {
        lhs.namespace == rhs.namespace && lhs.name == rhs.name && lhs.children == rhs.children
            && lhs.text == rhs.text && lhs.attributes.map(\.name) == rhs.attributes.map(\.name)
            && lhs.attributes.map(\.value) == rhs.attributes.map(\.value)
    }

    /// The child elements with that local name.
    package func children(named name: String) -> [XMLElement] { children.filter { $0.name == name } }

    /// Parses a whole document and returns its root element.
    package static func parse(_ bytes: [UInt8]) throws(XMLFailure) -> XMLElement {
        var parser = XMLParser(bytes)
        return try parser.document()
    }
}

/// Why an XML document was not read, with the line (and column, in characters) where reading stopped.
package struct XMLFailure: Error, Sendable, CustomStringConvertible {
    package var line: Int
    package var column: Int?
    package var message: String
    package var description: String { "line \(line)\(column.map { ", column \($0)" } ?? ""): \(message)" }
}

/// The parser behind `XMLElement.parse`: one pass over UTF-8 bytes.
struct XMLParser {
    static let maximumDepth = 200

    let bytes: [UInt8]
    var index = 0
    var line = 1
    /// Where the current line starts, for columns.
    var lineStart = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { (index, lineStart) = (3, 3) }
    }

    /// A failure at the current position, or on an earlier line (then without a column).
    func failure(_ message: String, line: Int? = nil) -> XMLFailure {
        if let line, line != self.line { return XMLFailure(line: line, column: nil, message: message) }
        let column = bytes[lineStart..<min(index, bytes.count)].reduce(1) { $1 & 0xC0 == 0x80 ? $0 : $0 + 1 }
        return XMLFailure(line: self.line, column: column, message: message)
    }

    var atEnd: Bool { index >= bytes.count }

    /// Whether the bytes at the current position are `text`'s. Literals only: a `String` overload would be the one
    /// a literal picks, and comparing through `String.UTF8View` cost a fifth of reading a CalDAV answer.
    func peek(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard bytes.count - index >= count else { return false }
        return bytes.withUnsafeBufferPointer { memcmp($0.baseAddress! + index, text.utf8Start, count) == 0 }
    }

    mutating func advance(_ count: Int = 1) {
        for _ in 0..<count where index < bytes.count {
            if bytes[index] == 0x0A {
                line += 1
                lineStart = index + 1
            }
            index += 1
        }
    }

    /// Whether a code point is a character XML 1.0 allows in a document (its `Char` production).
    static func isXMLCharacter(_ value: UInt32) -> Bool {
        switch value {
        case 0x09, 0x0A, 0x0D, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }

    mutating func skipWhitespace() {
        while !atEnd {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: advance()
            default: return
            }
        }
    }

    /// Skips past `terminator`, returning the bytes before it.
    mutating func take(until terminator: StaticString, what: String) throws(XMLFailure) -> ArraySlice<UInt8> {
        try take(
            until: UnsafeBufferPointer(start: terminator.utf8Start, count: terminator.utf8CodeUnitCount), what: what)
    }

    /// Skips past `terminator` (one byte or more), returning the bytes before it.
    mutating func take(until terminator: UnsafeBufferPointer<UInt8>, what: String) throws(XMLFailure) -> ArraySlice<
        UInt8
    > {
        let start = index, startLine = line
        let first = terminator[0], length = terminator.count
        var position = index
        while bytes.count - position >= length {
            if bytes[position] == first,
                bytes.withUnsafeBufferPointer({ memcmp($0.baseAddress! + position, terminator.baseAddress!, length) })
                    == 0
            {
                advance(position - index)
                let taken = bytes[start..<index]
                advance(length)
                return taken
            }
            position += 1
        }
        advance(bytes.count - index)
        let text = String(decoding: terminator, as: UTF8.self)
        throw failure("\(what) is never closed with '\(text)'", line: startLine)
    }

    mutating func document() throws(XMLFailure) -> XMLElement {
        try checkCharacters()
        var root: XMLElement?
        while true {
            skipWhitespace()
            if atEnd { break }
            if peek("<?xml ") || peek("<?xml\t") || peek("<?xml\n") || peek("<?xml\r") {
                let declaration = String(decoding: try take(until: "?>", what: "the XML declaration"), as: UTF8.self)
                try checkEncoding(declaration)
            } else if peek("<?") {
                _ = try take(until: "?>", what: "a processing instruction")
            } else if peek("<!--") {
                _ = try take(until: "-->", what: "a comment")
            } else if peek("<!DOCTYPE") || peek("<!doctype") {
                throw failure(
                    "a document type declaration (<!DOCTYPE) is refused: xCal needs none, and DTDs can "
                        + "define entities that expand without bound or read other files")
            } else if peek("<"), root == nil {
                root = try element(depth: 0, namespaces: ["xml": "http://www.w3.org/XML/1998/namespace"])
            } else {
                throw failure(root == nil ? "expected an element" : "content after the root element")
            }
        }
        guard let root else { throw failure("the document has no element") }
        return root
    }

    /// XML is read as UTF-8, and a document may not hold control characters other than tab and line ends.
    mutating func checkCharacters() throws(XMLFailure) {
        let invalid = bytes.withUnsafeBufferPointer(UTF8Check.firstInvalid)
        let control = bytes.withUnsafeBufferPointer { buffer in
            buffer.firstIndex { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
        }
        guard let bad = [invalid, control].compactMap({ $0 }).min() else { return }
        while index < bad { advance() }
        if bad == control {
            throw failure(
                "control character U+00\(String(bytes[bad], radix: 16, uppercase: true)), which XML does not "
                    + "allow")
        }
        throw failure("bytes that are not UTF-8; xCal is read as UTF-8")
    }

    func checkEncoding(_ declaration: String) throws(XMLFailure) {
        guard let range = declaration.range(of: "encoding") else { return }
        let rest = declaration[range.upperBound...].drop { $0 == " " || $0 == "=" }
        let name = rest.dropFirst().prefix { $0 != "\"" && $0 != "'" }.lowercased()
        guard ["utf-8", "utf8", "us-ascii"].contains(name) else {
            throw failure("encoding \(name) is not supported; xCal is read as UTF-8")
        }
    }

    static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0...0x20, 0x7F, UInt8(ascii: "/"), UInt8(ascii: ">"), UInt8(ascii: "="), UInt8(ascii: "<"),
            UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "&"), UInt8(ascii: ";"), UInt8(ascii: "!"),
            UInt8(ascii: "?"):
            return false
        default: return true
        }
    }

    mutating func name() throws(XMLFailure) -> String {
        let start = index
        while !atEnd, Self.isNameByte(bytes[index]) { advance() }
        guard index > start else { throw failure("expected a name") }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// One element, its start tag at the current position.
    mutating func element(depth: Int, namespaces: [String: String]) throws(XMLFailure) -> XMLElement {
        guard depth < Self.maximumDepth else { throw failure("elements nest deeper than \(Self.maximumDepth) levels") }
        let startLine = line
        advance()  // <
        let qualifiedName = try name()
        let (attributes, selfClosing) = try startTagRest(qualifiedName, startLine: startLine)
        var scope = namespaces
        for attribute in attributes {
            if attribute.name == "xmlns" { scope[""] = attribute.value }
            if attribute.name.hasPrefix("xmlns:") { scope[String(attribute.name.dropFirst(6))] = attribute.value }
        }
        let parts = Self.prefixAndName(qualifiedName)
        let prefix = parts.count == 2 ? parts[0] : ""
        guard parts.count == 1 || scope[prefix] != nil else {
            throw failure("namespace prefix \(prefix) of <\(qualifiedName)> is not declared", line: startLine)
        }
        var element = XMLElement(
            namespace: scope[prefix].flatMap { $0.isEmpty ? nil : $0 }, name: parts.last ?? "",
            attributes: attributes.filter { !$0.name.hasPrefix("xmlns") }, children: [], text: "",
            line: startLine)
        if selfClosing { return element }
        var text = ""
        while true {
            guard !atEnd else { throw failure("<\(qualifiedName)> is never closed", line: startLine) }
            if peek("</") {
                advance(2)
                let closing = try name()
                skipWhitespace()
                guard peek(">") else { throw failure("malformed end tag </\(closing)") }
                advance()
                guard closing == qualifiedName else {
                    throw failure("</\(closing)> closes <\(qualifiedName)> opened on line \(startLine)")
                }
                element.text = text
                return element
            } else if peek("<!--") {
                _ = try take(until: "-->", what: "a comment")
            } else if peek("<![CDATA[") {
                advance(9)
                let data = try take(until: "]]>", what: "a CDATA section")
                text += String(decoding: normalizedLineEnds(data), as: UTF8.self)
            } else if peek("<!") {
                throw failure("markup declarations (<!…>) are refused inside the document")
            } else if peek("<?") {
                _ = try take(until: "?>", what: "a processing instruction")
            } else if peek("<") {
                element.children.append(try self.element(depth: depth + 1, namespaces: scope))
            } else {
                let start = index
                skipText()
                text += try decodeText(bytes[start..<index], attribute: false)
            }
        }
    }

    /// The attributes of a start tag whose name was read, up to its `>` or `/>` (whether it closes itself).
    mutating func startTagRest(
        _ qualifiedName: String, startLine: Int
    ) throws(XMLFailure) -> ([(name: String, value: String)], selfClosing: Bool) {
        var attributes: [(name: String, value: String)] = []
        var attributeNames: Set<String> = []
        while true {
            skipWhitespace()
            guard !atEnd else { throw failure("the start tag <\(qualifiedName)> is never closed", line: startLine) }
            if peek("/>") {
                advance(2)
                return (attributes, true)
            }
            if peek(">") {
                advance()
                return (attributes, false)
            }
            let attributeName = try name()
            skipWhitespace()
            guard peek("=") else { throw failure("attribute \(attributeName) has no value") }
            advance()
            skipWhitespace()
            guard !atEnd, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
                throw failure("attribute \(attributeName)'s value is not quoted")
            }
            var quote = bytes[index]
            advance()
            let raw = try withUnsafePointer(to: &quote) { quote throws(XMLFailure) in
                try take(
                    until: UnsafeBufferPointer(start: quote, count: 1), what: "the value of attribute \(attributeName)")
            }
            if raw.contains(UInt8(ascii: "<")) { throw failure("'<' inside the value of attribute \(attributeName)") }
            let value = try decodeText(raw, attribute: true)
            guard attributeNames.insert(attributeName).inserted else {
                throw failure("attribute \(attributeName) appears twice")
            }
            attributes.append((attributeName, value))
        }
    }

    /// A qualified name's prefix and local name (one part without a prefix), as `split(separator: ":",
    /// maxSplits: 1)` gives them (leading colons skipped, an empty local name dropped), without its generic cost.
    static func prefixAndName(_ qualifiedName: String) -> [String] {
        // On the UTF-8 view: a colon is one byte, so every index found is a character boundary of the string.
        let utf8 = qualifiedName.utf8
        let colon = UInt8(ascii: ":")
        guard let start = utf8.firstIndex(where: { $0 != colon }) else { return [] }
        guard let split = utf8[start...].firstIndex(of: colon) else { return [String(qualifiedName[start...])] }
        let localStart = utf8.index(after: split)
        let prefix = String(qualifiedName[start..<split])
        return localStart == utf8.endIndex ? [prefix] : [prefix, String(qualifiedName[localStart...])]
    }

    /// Moves to the next `<` (or the end), counting the lines passed: character data is most of a CalDAV answer
    /// (every resource's calendar-data), so it is crossed in one loop rather than byte by byte through `advance`.
    mutating func skipText() {
        let (end, lines, lastLineStart) = bytes.withUnsafeBufferPointer { buffer in
            var position = index, lines = 0, lastLineStart = -1
            while position < buffer.count {
                let byte = buffer[position]
                if byte == UInt8(ascii: "<") { break }
                if byte == 0x0A { (lines, lastLineStart) = (lines + 1, position + 1) }
                position += 1
            }
            return (position, lines, lastLineStart)
        }
        index = end
        line += lines
        if lastLineStart >= 0 { lineStart = lastLineStart }
    }

    /// XML's end-of-line handling: CR LF and lone CR become LF.
    func normalizedLineEnds(_ raw: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var previousCR = false
        for byte in raw {
            if byte == 0x0D { out.append(0x0A); previousCR = true; continue }
            if byte == 0x0A, previousCR { previousCR = false; continue }
            previousCR = false
            out.append(byte)
        }
        return out
    }

    /// Character data with line ends normalised and references resolved; only the five predefined entities and
    /// numeric character references exist. Byte by byte, with no string made per reference: a CalDAV answer holds
    /// hundreds of thousands of them (every CR of calendar-data as `&#13;`).
    func decodeText(_ raw: ArraySlice<UInt8>, attribute: Bool) throws(XMLFailure) -> String {
        let ampersand = UInt8(ascii: "&")
        if !attribute, !raw.contains(ampersand), !raw.contains(0x0D) { return String(decoding: raw, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var i = raw.startIndex
        while i < raw.endIndex {
            // Plain bytes are copied as a run up to the next one that needs a look.
            let end = raw.withUnsafeBufferPointer { buffer in
                var offset = i - raw.startIndex
                while offset < buffer.count {
                    let byte = buffer[offset]
                    if byte == ampersand || byte == 0x0D || attribute && (byte == 0x0A || byte == 0x09) { break }
                    offset += 1
                }
                return raw.startIndex + offset
            }
            if end > i {
                out.append(contentsOf: raw[i..<end])
                i = end
                continue
            }
            let byte = raw[i]
            guard byte == ampersand else {
                // A CR (with the LF after it, if any) is one line end, LF; in an attribute it, LF and tab are a space.
                let crlf = byte == 0x0D && i + 1 < raw.endIndex && raw[i + 1] == 0x0A
                out.append(attribute ? 0x20 : 0x0A)
                i += crlf ? 2 : 1
                continue
            }
            guard let end = raw[i...].prefix(40).firstIndex(of: UInt8(ascii: ";")) else {
                throw failure("'&' that starts no reference; write &amp;")
            }
            let name = raw[(i + 1)..<end]
            if name.first == UInt8(ascii: "#"), let code = Self.characterCode(name.dropFirst()) {
                guard Self.isXMLCharacter(code), let scalar = Unicode.Scalar(code) else {
                    throw failure("&\(String(decoding: name, as: UTF8.self)); is not a character XML allows")
                }
                UTF8.encode(scalar) { out.append($0) }
            } else if name.first == UInt8(ascii: "#") {
                throw failure("&\(String(decoding: name, as: UTF8.self)); is not a character XML allows")
            } else if let predefined = Self.predefinedEntity(name) {
                out.append(predefined)
            } else {
                throw failure(
                    "entity &\(String(decoding: name, as: UTF8.self)); is refused: only XML's predefined entities "
                        + "are read, none is expanded")
            }
            i = end + 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The byte of `lt`, `gt`, `amp`, `quot` or `apos`.
    static func predefinedEntity(_ name: ArraySlice<UInt8>) -> UInt8? {
        if name.elementsEqual("lt".utf8) { return UInt8(ascii: "<") }
        if name.elementsEqual("gt".utf8) { return UInt8(ascii: ">") }
        if name.elementsEqual("amp".utf8) { return UInt8(ascii: "&") }
        if name.elementsEqual("quot".utf8) { return UInt8(ascii: "\"") }
        if name.elementsEqual("apos".utf8) { return UInt8(ascii: "'") }
        return nil
    }

    /// The code point of a numeric reference's digits (`13`, `x0D`); nil when they are not a number below 0x110000.
    static func characterCode(_ digits: ArraySlice<UInt8>) -> UInt32? {
        var digits = digits
        let radix: UInt32 = digits.first == UInt8(ascii: "x") ? 16 : 10
        if radix == 16 { digits = digits.dropFirst() }
        guard !digits.isEmpty else { return nil }
        var code: UInt32 = 0
        for byte in digits {
            let value: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: value = UInt32(byte - UInt8(ascii: "a")) + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: value = UInt32(byte - UInt8(ascii: "A")) + 10
            default: return nil
            }
            code = code * radix + value
            if code >= 0x11_0000 { return nil }
        }
        return code
    }
}

/// Writes XML (and HTML) text with the escapes character data and attribute values need.
package enum XMLEscaping {
    /// Escapes `&`, `<`, `>` and, for attributes, `"`; CR is written as a reference so it survives a reader's
    /// line-end normalisation, and the C0 controls XML 1.0 forbids are dropped.
    package static func escape(_ text: String, attribute: Bool = false) -> String {
        // Most text (hrefs, names, summaries) has nothing to escape or drop: the bytes that could need it are
        // markup characters, controls, and 0xEF, which starts U+FFFE and U+FFFF.
        let plain = text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), 0x0D, 0xEF: return false
            case UInt8(ascii: "\""): return !attribute
            case 0x09, 0x0A: return true
            default: return byte >= 0x20
            }
        }
        if plain { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where attribute: out += "&quot;"
            case "\r": out += "&#13;"
            case "\t", "\n": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
