/// The names of properties, parameters and value types: what RFC 5545 allows, and what other writers use.
extension ContentLineScanner {
    /// Whether text is an iana-token (letters, digits and `-`), as property, parameter and type names must be.
    static func isValidName(_ name: String) -> Bool {
        var name = name
        return !name.isEmpty && name.withUTF8 { isValidName($0) }
    }

    static func isValidName(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        name.allSatisfy { byte in
            let upper = byte & 0xDF
            return (upper >= UInt8(ascii: "A") && upper <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
        }
    }

    /// A name some writers use though it is not an iana-token: a letter, then printable ASCII other than the
    /// characters that end a name (`;`, `:`, `"`, `,`; no space or control), such as `X-LOTUS-CHILD_UID`.
    static func isLenientName(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = name.first, (first & 0xDF) >= UInt8(ascii: "A"), (first & 0xDF) <= UInt8(ascii: "Z") else {
            return false
        }
        return name.allSatisfy { byte in
            byte > 0x20 && byte < 0x7F
                && ![UInt8(ascii: ";"), UInt8(ascii: ":"), UInt8(ascii: "\""), UInt8(ascii: ",")]
                    .contains(byte)
        }
    }

    /// Where the next value of a parameter's list starts when `index` is at its comma, or at spaces around a comma
    /// between quoted values (`MEMBER="mailto:a", "mailto:b"`: Outlook and hand edits write them); nil when no
    /// list goes on there. Spaces count only next to a quote: in an unquoted value they are the value's own.
    static func listSeparatorEnd(_ bytes: UnsafeBufferPointer<UInt8>, after index: Int) -> Int? {
        func isBlank(_ at: Int) -> Bool { at < bytes.count && (bytes[at] == 0x20 || bytes[at] == 0x09) }
        var comma = index
        let afterQuote = index > 0 && bytes[index - 1] == UInt8(ascii: "\"")
        if afterQuote { while isBlank(comma) { comma += 1 } }
        guard comma < bytes.count, bytes[comma] == UInt8(ascii: ",") else { return nil }
        var next = comma + 1
        while isBlank(next) { next += 1 }
        let beforeQuote = next < bytes.count && bytes[next] == UInt8(ascii: "\"")
        return beforeQuote ? next : comma + 1
    }
}
