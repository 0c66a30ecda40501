/// The one mailbox an address header names, read by RFC 5322 §3.4 (with §3.2.2's comments and §3.2.4's quoted
/// strings), as the iMIP sender check needs it (RFC 6047 §3):
///
/// ```
/// from         = "From:" mailbox-list CRLF
/// mailbox      = name-addr / addr-spec
/// name-addr    = [display-name] angle-addr
/// angle-addr   = [CFWS] "<" addr-spec ">" [CFWS]
/// addr-spec    = local-part "@" domain
/// comment      = "(" *([FWS] ccontent) [FWS] ")"        ; ccontent may be a nested comment
/// ```
///
/// A comment says nothing of who sent a mail (`mallory@evil.example (Alice <alice@example.com>)` is from Mallory),
/// nor does a display name (`"alice@example.com" <mallory@evil.example>`). Anything this reader cannot tell for
/// certain — two mailboxes, a group, an unclosed comment, quote or bracket, a quoted local part, a domain literal —
/// names no sender, and the mail counts as unverified.
package enum MailAddress {
    /// The address of the single mailbox `header` (the value after `From:`) names, lower-cased; nil when it names
    /// none, several, or one this reader cannot tell for certain.
    package static func single(in header: String) -> String? {
        guard let text = withoutComments(header) else { return nil }
        var outside = ""  // the text outside quoted strings, where separators and brackets count
        var angles: [String] = []
        var angle: String?
        var quoted = false
        var escaped = false
        for character in text {
            if quoted {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    quoted = false
                }
                continue
            }
            switch character {
            case "\"" where angle == nil: quoted = true
            case "<":
                guard angle == nil else { return nil }
                angle = ""
            case ">":
                guard let inside = angle else { return nil }
                angles.append(inside)
                angle = nil
            case ",", ";", ":":
                guard angle != nil else { return nil }  // a second mailbox, or a group
                angle?.append(character)
            default:
                if angle != nil { angle?.append(character) } else { outside.append(character) }
            }
        }
        guard !quoted, angle == nil, angles.count <= 1 else { return nil }
        if let inside = angles.first {
            return addrSpec(inside)
        }
        return addrSpec(outside)
    }

    /// The text with its comments removed (each becomes a space, as folding whitespace); nil when one is unclosed.
    /// Quoted strings keep their parentheses; a backslash quotes the next character in both.
    static func withoutComments(_ text: String) -> String? {
        var out = ""
        var depth = 0
        var quoted = false
        var escaped = false
        for character in text {
            if escaped {
                escaped = false
                if depth == 0 { out.append(character) }
                continue
            }
            switch character {
            case "\\":
                escaped = true
                if depth == 0 { out.append(character) }
            case "\"" where depth == 0:
                quoted.toggle()
                out.append(character)
            case "(" where !quoted:
                if depth == 0 { out.append(" ") }
                depth += 1
            case ")" where !quoted:
                guard depth > 0 else { return nil }
                depth -= 1
            default:
                if depth == 0 { out.append(character) }
            }
        }
        return depth == 0 && !quoted && !escaped ? out : nil
    }

    /// `local@domain` as a dot-atom on both sides (RFC 5322 §3.4.1), lower-cased; nil for anything else.
    static func addrSpec(_ text: String) -> String? {
        let address = text.trimmingCharacters(in: .whitespaces)
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, isDotAtom(parts[0]), isDotAtom(parts[1]) else { return nil }
        return address.lowercased()
    }

    /// atext (RFC 5322 §3.2.3) with single dots between, none at either end.
    private static func isDotAtom(_ text: Substring) -> Bool {
        guard !text.isEmpty, text.first != ".", text.last != ".", !text.contains("..") else { return false }
        return text.unicodeScalars.allSatisfy { scalar in
            scalar.value >= 0x80 || (scalar.value > 0x20 && scalar.value < 0x7F && !specials.contains(scalar))
        }
    }

    /// The ASCII graphic characters atext leaves out, the dot aside.
    private static let specials = Set("()<>[]:;@\\,\"".unicodeScalars)
}
