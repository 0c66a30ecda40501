/// TEXT values (RFC 5545 §3.3.11): backslash escapes, and lists separated by unescaped commas.
public enum TextEscaping {
    /// `a\,b\nc` → "a,b" newline "c". Unknown escapes keep the character after the backslash.
    public static func unescape(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "\\")) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var escaped = false
        for character in text {
            if escaped {
                out.append(character == "n" || character == "N" ? "\n" : character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                out.append(character)
            }
        }
        if escaped { out.append("\\") }
        return out
    }

    /// "a,b" newline "c" → `a\,b\nc`.
    public static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: { [0x5C, 0x3B, 0x2C, 0x0A, 0x0D].contains($0) }) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for character in text {
            switch character {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\n", "\r\n", "\r": out += "\\n"
            default: out.append(character)
            }
        }
        return out
    }

    /// Splits a raw list value on the commas that are not escaped; each part stays escaped.
    public static func splitList(_ raw: String, separator: Character = ",") -> [Substring] {
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
