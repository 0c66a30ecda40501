/// Literal-form checks that libical skips (it reads `20240230` and `T250000` as valid, `INTEGER:x` as 0). They
/// work on contiguous UTF-8 so they cost next to nothing on the hot path.
enum ValueSyntax {
    static func isDigits(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        !bytes.isEmpty && bytes.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// Runs a check on the text's UTF-8 bytes.
    static func withBytes(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        var text = text
        return text.withUTF8(body)
    }

    /// `YYYYMMDD`, `YYYYMMDDTHHMMSS` or `YYYYMMDDTHHMMSSZ`.
    static func isDateOrDateTime(_ text: String) -> Bool {
        withBytes(text) { bytes in
            switch bytes.count {
            case 8: return isDigits(bytes)
            case 15, 16:
                return isDigits(UnsafeBufferPointer(rebasing: bytes[0..<8])) && bytes[8] == UInt8(ascii: "T")
                    && isDigits(UnsafeBufferPointer(rebasing: bytes[9..<15]))
                    && (bytes.count == 15 || bytes[15] == UInt8(ascii: "Z"))
            default: return false
            }
        }
    }

    static func isInteger(_ text: String) -> Bool {
        withBytes(text) { bytes in
            guard let first = bytes.first else { return false }
            let signed = first == UInt8(ascii: "+") || first == UInt8(ascii: "-")
            return isDigits(UnsafeBufferPointer(rebasing: bytes[(signed ? 1 : 0)...]))
        }
    }

    /// `+HHMM` or `+HHMMSS` (RFC 5545 §3.3.14).
    static func isUTCOffset(_ text: String) -> Bool {
        withBytes(text) { bytes in
            guard let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"),
                bytes.count == 5 || bytes.count == 7
            else { return false }
            return isDigits(UnsafeBufferPointer(rebasing: bytes[1...]))
        }
    }

    /// `HHMM` or `HHMMSS` without the sign RFC 5545 §3.3.14 requires (Apple iCal 1.5 wrote `TZOFFSETTO:0100`).
    static func isUnsignedUTCOffset(_ text: String) -> Bool {
        withBytes(text) { bytes in (bytes.count == 4 || bytes.count == 6) && isDigits(bytes) }
    }

    /// Splits on an ASCII separator byte, without walking characters.
    static func split(_ text: String, on separator: Character) -> [String] {
        let byte = separator.asciiValue ?? 0
        var text = text
        return text.withUTF8 { bytes in
            bytes.split(separator: byte, omittingEmptySubsequences: false).map {
                String(decoding: UnsafeBufferPointer(rebasing: $0), as: UTF8.self)
            }
        }
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
