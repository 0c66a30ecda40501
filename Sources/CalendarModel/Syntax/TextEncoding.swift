/// Windows-1252, the encoding Outlook and old web exporters write when they do not write UTF-8.
enum Windows1252 {
    /// Code points for bytes 0x80–0x9F; the other bytes map to the same Unicode code point (Latin-1).
    private static let high: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D,
        0x017D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A,
        0x0153, 0x9D, 0x017E, 0x0178,
    ]

    /// Decodes bytes that failed UTF-8 validation, byte by byte, and returns them as UTF-8.
    static func utf8(from bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var scalars = String.UnicodeScalarView()
        for byte in bytes {
            let value = (0x80...0x9F).contains(byte) ? high[Int(byte) - 0x80] : UInt32(byte)
            scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
        }
        return Array(String(scalars).utf8)
    }
}

/// UTF-8 validation that allocates nothing (Swift's `String(validating:)` copies the whole input to check it).
enum UTF8Check {
    static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool { firstInvalid(bytes) == nil }

    /// The index of the first byte that does not start a valid UTF-8 sequence (no overlong forms, surrogates or
    /// code points above U+10FFFF), nil when all of it is valid.
    static func firstInvalid(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        var index = 0
        while index < count {
            // Eight ASCII bytes at a time: the common case.
            while index + 8 <= count,
                UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0
            {
                index += 8
            }
            guard index < count else { break }
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF  // allowed range of the second byte
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: (length, low) = (3, 0xA0)  // no overlong forms
            case 0xED: (length, high) = (3, 0x9F)  // no surrogates
            case 0xE1...0xEF: length = 3
            case 0xF0: (length, low) = (4, 0x90)
            case 0xF4: (length, high) = (4, 0x8F)  // nothing above U+10FFFF
            case 0xF1...0xF3: length = 4
            default: return index
            }
            guard index + length <= count, (low...high).contains(bytes[index + 1]) else { return index }
            for offset in 2..<max(2, length) where bytes[index + offset] & 0xC0 != 0x80 { return index }
            index += length
        }
        return nil
    }
}

/// The control characters RFC 5545 §3.1 keeps out of content lines (every CTL but HTAB), which terminals would
/// obey and XML cannot hold: the readers replace each with U+FFFD.
enum ControlCharacters {
    /// Whether a byte inside a line is such a control character (line ends have been taken off by then).
    static func isForbiddenInLine(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D) || byte == 0x7F
    }

    /// The bytes with each such control character replaced by U+FFFD.
    static func replacing(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 8)
        for byte in bytes {
            if isForbiddenInLine(byte) { out += [0xEF, 0xBF, 0xBD] } else { out.append(byte) }
        }
        return out
    }

    /// Text with every control character but tab and line feed replaced by U+FFFD, for values that arrive as
    /// strings (jCal, xCal, code) rather than as content lines.
    static func replacing(in text: String) -> String {
        guard text.utf8.contains(where: { isForbiddenInLine($0) || $0 == 0x0D }) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let value = scalar.value
            let forbidden = (value < 0x20 && value != 0x09 && value != 0x0A) || value == 0x7F
            scalars.append(forbidden ? "\u{FFFD}" : scalar)
        }
        return String(scalars)
    }
}
