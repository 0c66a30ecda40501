import Foundation

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
            guard let length = sequenceLength(bytes, at: index) else { return index }
            index += length
        }
        return nil
    }
}

extension UTF8Check {
    /// The length of the valid UTF-8 sequence starting at `index` (1 for ASCII), nil when none starts there.
    static func sequenceLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        let lead = bytes[index]
        if lead < 0x80 { return 1 }
        let (length, low, high) = expectation(lead)
        guard length > 1, index + length <= bytes.count, (low...high).contains(bytes[index + 1]) else { return nil }
        for offset in 2..<max(2, length) where bytes[index + offset] & 0xC0 != 0x80 { return nil }
        return length
    }

    /// How many bytes from `index` begin a UTF-8 sequence that is cut short (Unicode's "maximal subpart": a lead
    /// byte and the continuation bytes that fit it); 1 for a byte that begins nothing.
    static func brokenSequenceLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        let (length, low, high) = expectation(bytes[index])
        guard length > 1, index + 1 < bytes.count, (low...high).contains(bytes[index + 1]) else { return 1 }
        var end = index + 2
        while end < min(bytes.count, index + length), bytes[end] & 0xC0 == 0x80 { end += 1 }
        return end - index
    }

    /// The sequence length a lead byte announces and the range its second byte must be in (length 0: not a lead
    /// byte). No overlong forms, surrogates or code points above U+10FFFF.
    private static func expectation(_ lead: UInt8) -> (length: Int, low: UInt8, high: UInt8) {
        switch lead {
        case 0xC2...0xDF: return (2, 0x80, 0xBF)
        case 0xE0: return (3, 0xA0, 0xBF)
        case 0xED: return (3, 0x80, 0x9F)
        case 0xE1...0xEF: return (3, 0x80, 0xBF)
        case 0xF0: return (4, 0x90, 0xBF)
        case 0xF4: return (4, 0x80, 0x8F)
        case 0xF1...0xF3: return (4, 0x80, 0xBF)
        default: return (0, 0, 0)
        }
    }
}

/// Repairs a line that is not valid UTF-8, one byte sequence at a time: valid UTF-8 stays as it is; a sequence cut
/// short (a lead byte with some of its continuation bytes, or a stray continuation byte after UTF-8 text) becomes
/// one U+FFFD; a lone byte among ASCII text is read as Windows-1252 (`Caf\xE9`). A line with no valid multi-byte
/// UTF-8 at all is legacy text, read entirely as Windows-1252.
enum UTF8Repair {
    struct Result {
        var bytes: [UInt8]
        /// Bytes read as Windows-1252.
        var windows1252 = 0
        /// Broken sequences replaced with U+FFFD.
        var replaced = 0
        /// Whether the line held valid multi-byte UTF-8 (else it was read as Windows-1252 throughout).
        var isUTF8Text = false
    }

    static func repair(_ bytes: UnsafeBufferPointer<UInt8>) -> Result {
        var hasMultibyte = false
        var index = 0
        while index < bytes.count {
            if let length = UTF8Check.sequenceLength(bytes, at: index) {
                if length > 1 { hasMultibyte = true; break }
                index += length
            } else {
                index += 1
            }
        }
        guard hasMultibyte else {
            return Result(
                bytes: Windows1252.utf8(from: bytes), windows1252: bytes.filter { $0 >= 0x80 }.count)
        }
        var result = Result(bytes: [], isUTF8Text: true)
        result.bytes.reserveCapacity(bytes.count + 8)
        var afterMultibyte = false  // the previous character was multi-byte UTF-8 (or a replacement)
        index = 0
        while index < bytes.count {
            if let length = UTF8Check.sequenceLength(bytes, at: index) {
                result.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<(index + length)]))
                afterMultibyte = length > 1
                index += length
                continue
            }
            let broken = UTF8Check.brokenSequenceLength(bytes, at: index)
            let byte = bytes[index]
            if broken > 1 || (afterMultibyte && byte & 0xC0 == 0x80) {
                result.bytes += [0xEF, 0xBF, 0xBD]
                result.replaced += 1
                afterMultibyte = true
                index += broken
                // Further stray continuation bytes belong to the same broken character.
                while index < bytes.count, bytes[index] & 0xC0 == 0x80,
                    UTF8Check.sequenceLength(bytes, at: index) == nil
                {
                    index += 1
                }
            } else {
                result.bytes += Windows1252.utf8(from: UnsafeBufferPointer(rebasing: bytes[index..<(index + 1)]))
                result.windows1252 += 1
                afterMultibyte = false
                index += 1
            }
        }
        return result
    }
}

/// The control characters RFC 5545 §3.1 keeps out of content lines (every CTL but HTAB), which terminals would
/// obey and XML cannot hold: the readers replace each with U+FFFD.
enum ControlCharacters {
    /// Whether a byte inside a line is such a control character (line ends have been taken off by then).
    static func isForbiddenInLine(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D) || byte == 0x7F
    }

    /// The line without its NUL padding — runs of NUL bytes that end a name, parameter value or value (before `"`,
    /// `;`, `:`, `,` or the line's end) — or nil when it has none. NULs elsewhere are left for `replacing`.
    static func withoutNULPadding(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard bytes.contains(0) else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0, removed = false
        while index < bytes.count {
            guard bytes[index] == 0 else {
                out.append(bytes[index])
                index += 1
                continue
            }
            var end = index
            while end < bytes.count, bytes[end] == 0 { end += 1 }
            let pads = end == bytes.count || [0x22, 0x3B, 0x3A, 0x2C].contains(bytes[end])
            if pads { removed = true } else { out += bytes[index..<end] }
            index = end
        }
        return removed ? out : nil
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

/// Unicode noncharacters (U+FDD0–U+FDEF and the last two code points of every plane, U+FFFE and U+FFFF among them):
/// valid UTF-8, but XML 1.0 cannot hold U+FFFE and U+FFFF, so servers that store calendars as XML reject them.
enum Noncharacters {
    /// The first noncharacter in UTF-8 bytes, if any.
    static func first(in bytes: UnsafeBufferPointer<UInt8>) -> Unicode.Scalar? {
        for index in bytes.indices {
            if let scalar = at(index, in: bytes) { return scalar }
        }
        return nil
    }

    /// The noncharacter whose UTF-8 begins at `index`, if one does.
    static func at(_ index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Unicode.Scalar? {
        let lead = bytes[index], count = bytes.count
        if lead == 0xEF, index + 2 < count {
            let (second, third) = (bytes[index + 1], bytes[index + 2])
            if (second == 0xB7 && (0x90...0xAF).contains(third)) || (second == 0xBF && third >= 0xBE) {
                return Unicode.Scalar(0xF000 | UInt32(second & 0x3F) << 6 | UInt32(third & 0x3F))
            }
        } else if (0xF0...0xF4).contains(lead), index + 3 < count, bytes[index + 1] & 0x0F == 0x0F,
            bytes[index + 2] == 0xBF, bytes[index + 3] >= 0xBE
        {
            // Nil past U+10FFFF (F4 9F BF BF is no code point): the bytes after it are looked at in turn.
            return Unicode.Scalar(
                UInt32(lead & 0x07) << 18 | UInt32(bytes[index + 1] & 0x3F) << 12 | 0xFC0
                    | UInt32(bytes[index + 3] & 0x3F))
        }
        return nil
    }
}

/// What a scanner must know of its whole input before it reads a line: whether it is valid UTF-8 (`UTF8Check`),
/// holds a control character other than tab and line ends (`ControlCharacters`) or a noncharacter
/// (`Noncharacters`). One pass for the three, sixteen bytes at a time through printable ASCII and line ends.
struct InputFlags: Equatable {
    var isUTF8 = true
    var hasControls = false
    var hasNoncharacters = false

    init(isUTF8: Bool = true, hasControls: Bool = false, hasNoncharacters: Bool = false) {
        (self.isUTF8, self.hasControls, self.hasNoncharacters) = (isUTF8, hasControls, hasNoncharacters)
    }

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        let count = bytes.count
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        var index = 0
        let space = SIMD16<UInt8>(repeating: 0x20), printables = SIMD16<UInt8>(repeating: 0x7F - 0x20)
        let tab = SIMD16<UInt8>(repeating: 0x09), lineFeed = SIMD16<UInt8>(repeating: 0x0A)
        let carriageReturn = SIMD16<UInt8>(repeating: 0x0D)
        while index < count {
            // Sixteen bytes that need nothing: printable ASCII, tabs and line ends. A line's end no longer stops the
            // fast path (it did at every line when it took eight printable bytes at a time).
            while index + 16 <= count {
                let bytes = UnsafeRawPointer(base + index).loadUnaligned(as: SIMD16<UInt8>.self)
                let plain = (bytes &- space) .< printables
                let blank = (bytes .== tab) .| (bytes .== lineFeed) .| (bytes .== carriageReturn)
                guard all(plain .| blank) else { break }
                index += 16
            }
            // Eight bytes of 0x20...0x7E: no byte with its high bit set, none below 0x20, none 0x7F (a zero byte
            // once 0x7F is taken off each). A borrow can flag a byte above one that is flagged rightly, never below:
            // the lowest flag is exact, and the bytes before it need no look one at a time (in text with accents,
            // a fifth of gen_ics.py's bytes, they were read one at a time up to each next non-ASCII letter).
            while index + 8 <= count {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                let below = (word &- ones &* 0x20) & ~word
                let delete = word ^ (ones &* 0x7F)
                let flagged = (word | below | ((delete &- ones) & ~delete)) & highs
                guard flagged == 0 else {
                    index += flagged.trailingZeroBitCount >> 3
                    break
                }
                index += 8
            }
            guard index < count else { break }
            let byte = bytes[index]
            if byte < 0x80 {
                hasControls = hasControls || ControlCharacters.isForbiddenInLine(byte)
                index += 1
                continue
            }
            hasNoncharacters = hasNoncharacters || Noncharacters.at(index, in: bytes) != nil
            // A valid sequence's other bytes begin nothing (neither a sequence nor a noncharacter); after a byte
            // that begins no valid sequence, the next one is looked at.
            if let length = UTF8Check.sequenceLength(bytes, at: index) {
                index += length
            } else {
                isUTF8 = false
                index += 1
            }
        }
    }

    /// The flags of a large input found in parts on every core, cut after line ends (no UTF-8 sequence and no
    /// noncharacter holds one); an input below `minimumBytes` in one piece.
    static func inParts(_ bytes: UnsafeBufferPointer<UInt8>, minimumBytes: Int = 1 << 20) -> InputFlags {
        let pieces = ProcessInfo.processInfo.activeProcessorCount
        guard bytes.count >= minimumBytes, pieces > 1 else { return InputFlags(bytes) }
        var cuts = [0]
        for piece in 1..<pieces {
            var cut = max(cuts[cuts.count - 1], bytes.count * piece / pieces)
            while cut < bytes.count, bytes[cut] != 0x0A { cut += 1 }
            cuts.append(min(bytes.count, cut + 1))
        }
        cuts.append(bytes.count)
        let shared = UnsafeSendableBuffer(bytes), bounds = cuts
        return ParallelParts.run(pieces) { piece in
            InputFlags(UnsafeBufferPointer(rebasing: shared.buffer[bounds[piece]..<bounds[piece + 1]]))
        }.reduce(into: InputFlags()) { all, part in
            all.isUTF8 = all.isUTF8 && part.isUTF8
            all.hasControls = all.hasControls || part.hasControls
            all.hasNoncharacters = all.hasNoncharacters || part.hasNoncharacters
        }
    }
}
