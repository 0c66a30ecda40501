/// TEXT values (RFC 5545 §3.3.11): backslash escapes, and lists separated by unescaped commas.
package enum TextEscaping {
    /// `a\,b\nc` → "a,b" newline "c". A backslash before a letter that is no escape (`C:\Temp`, `\x`) is the
    /// text's own, kept with the letter (as python icalendar and ical.js read it); before other characters
    /// (`\:`, `\"`) it is dropped. Works on UTF-8 bytes: every escape is ASCII, so no character boundary is split.
    package static func unescape(_ text: String) -> String {
        var copy = text
        return copy.withUTF8 { utf8 in
            // Most values have no escape: hand back the same string, sharing its storage.
            guard let first = utf8.firstIndex(of: UInt8(ascii: "\\")) else { return text }
            var out = [UInt8](utf8[..<first])
            out.reserveCapacity(utf8.count)
            var index = first
            while index < utf8.count {
                let byte = utf8[index]
                if byte == UInt8(ascii: "\\"), index + 1 < utf8.count {
                    let next = utf8[index + 1]
                    if next == UInt8(ascii: "n") || next == UInt8(ascii: "N") {
                        out.append(0x0A)
                    } else {
                        let isLetter = (next | 0x20) >= UInt8(ascii: "a") && (next | 0x20) <= UInt8(ascii: "z")
                        if isLetter { out.append(byte) }
                        out.append(next)
                    }
                    index += 2
                } else {
                    out.append(byte)
                    index += 1
                }
            }
            return String(decoding: out, as: UTF8.self)
        }
    }

    /// "a,b" newline "c" → `a\,b\nc` (CR LF, CR and LF each one `\n`). Works on UTF-8 bytes, as `unescape` does.
    package static func escape(_ text: String) -> String {
        var copy = text
        return copy.withUTF8 { bytes in
            // Most values need no escape: hand back the same string, sharing its storage.
            var first = 0
            scan: while first < bytes.count {
                switch bytes[first] {
                case 0x5C, 0x3B, 0x2C, 0x0A, 0x0D: break scan
                default: first += 1
                }
            }
            guard first < bytes.count else { return text }
            var out = [UInt8](bytes[..<first])
            out.reserveCapacity(bytes.count + 8)
            var previous: UInt8 = 0
            for byte in bytes[first...] {
                defer { previous = byte }
                switch byte {
                case 0x5C, 0x3B, 0x2C:
                    out.append(0x5C)
                    out.append(byte)
                case 0x0A where previous == 0x0D: continue  // CR LF: one line break, written at its CR
                case 0x0A, 0x0D:
                    out.append(0x5C)
                    out.append(UInt8(ascii: "n"))
                default: out.append(byte)
                }
            }
            return String(decoding: out, as: UTF8.self)
        }
    }

    /// Whether `escape(unescape(text)) == text`, found in one pass without making either: every backslash starts
    /// `\\`, `\;`, `\,` or `\n`, and no `;`, `,`, CR or LF stands unescaped. With `list`, whether that holds for
    /// each part of the text split at every comma (escaped or not, as `ValueSyntax.split` cuts a CATEGORIES line).
    package static func isCanonical(_ text: String, list: Bool = false) -> Bool {
        var copy = text
        return copy.withUTF8 { bytes in
            var index = 0
            while index < bytes.count {
                switch bytes[index] {
                case 0x5C:
                    guard index + 1 < bytes.count else { return false }
                    switch bytes[index + 1] {
                    case 0x2C where list: return false
                    case 0x5C, 0x3B, 0x2C, UInt8(ascii: "n"): index += 2
                    default: return false
                    }
                case 0x2C where list: index += 1
                case 0x3B, 0x2C, 0x0A, 0x0D: return false
                default: index += 1
                }
            }
            return true
        }
    }

    /// `unescape(text)` when `isCanonical(text)` (escaping it again gives `text` back), else nil, in one pass over
    /// the bytes: a text without escapes comes back sharing its storage (JSCalendar's `exactText`, once a property).
    package static func canonicalUnescaped(_ text: String) -> String? {
        var copy = text
        var out: [UInt8] = []
        var escaped = false
        let canonical = copy.withUTF8 { bytes in
            var index = 0
            var plainStart = 0
            while index < bytes.count {
                switch bytes[index] {
                case 0x5C:
                    guard index + 1 < bytes.count else { return false }
                    let next = bytes[index + 1]
                    switch next {
                    case 0x5C, 0x3B, 0x2C, UInt8(ascii: "n"): break
                    default: return false
                    }
                    if !escaped { out.reserveCapacity(bytes.count) }
                    escaped = true
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plainStart..<index]))
                    out.append(next == UInt8(ascii: "n") ? 0x0A : next)
                    index += 2
                    plainStart = index
                case 0x3B, 0x2C, 0x0A, 0x0D: return false
                default: index += 1
                }
            }
            if escaped { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plainStart..<bytes.count])) }
            return true
        }
        guard canonical else { return nil }
        return escaped ? String(decoding: out, as: UTF8.self) : text
    }

    /// Splits a raw list value on the commas that are not escaped; each part stays escaped.
    package static func splitList(_ raw: String, separator: Character = ",") -> [Substring] {
        var parts: [Substring] = []
        var start = raw.startIndex
        var index = raw.startIndex
        var escaped = false
        while index < raw.endIndex {
            let character = raw[index]
            if escaped {
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == separator {
                parts.append(raw[start..<index])
                start = raw.index(after: index)
            }
            index = raw.index(after: index)
        }
        parts.append(raw[start...])
        return parts
    }
}
