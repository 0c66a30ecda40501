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
}
