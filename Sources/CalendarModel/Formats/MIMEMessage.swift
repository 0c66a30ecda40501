import Foundation

/// The calendars in a mail message (RFC 5322 with MIME, RFC 2045–2049): what a saved `.eml` or a mail client's pipe
/// holds when an invitation arrives (iMIP, RFC 6047). Its `text/calendar` and `application/ics` parts are found in
/// any multipart nesting, their transfer encoding (base64, quoted-printable) undone and their charset made UTF-8.
/// The same calendar sent twice (as the text/calendar alternative and again as an attachment, as CalConnect's iMIP
/// guide advises) is read once.
package enum MIMEMessage {
    /// One calendar part: its bytes as UTF-8, and the `method` its Content-Type names (iMIP's REQUEST, REPLY …).
    package struct CalendarPart: Sendable, Hashable {
        /// The calendar, UTF-8.
        package var bytes: [UInt8]
        /// The Content-Type's `method` parameter, upper-cased (nil when it has none).
        package var method: String?
    }

    /// Whether these bytes are a mail message rather than a calendar. Anything that starts with header lines is a
    /// mail, so that a message cannot pass for a plain calendar (which has no sender to check): an mbox message's
    /// `From ` line; or a first line `Name: value` (RFC 5322 §2.2) whose name is no iCalendar name, or a header block
    /// (up to the first empty line) that holds a field only mail has (From, Received, MIME-Version …), whatever
    /// other lines it holds. A calendar file starts with `BEGIN:`, or with a stray property or broken bytes before it.
    package static func isMessage(_ bytes: [UInt8]) -> Bool {
        // Every calendar file is asked: decide on its first line, and on at most the first 64 KB.
        let start = bytes.drop { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        if start.starts(with: Array("From ".utf8)) { return true }
        guard let colon = start.prefix(1_000).firstIndex(of: 0x3A), colon > start.startIndex,
            start[..<colon].allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        else { return false }
        let name = String(decoding: start[..<colon], as: UTF8.self).uppercased()
        if name == "BEGIN" || name == "END" { return false }
        // A name as mail programs write them (letters, digits, '-'); other bytes are a broken calendar's.
        let isFieldName =
            name.first?.isLetter == true && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        if isFieldName, !isCalendarName(name) { return true }
        let head = headerBlock(start.prefix(1 << 16)).lines
        return head.contains { line in
            line.split(separator: ":", maxSplits: 1).first.map { mailFields.contains($0.lowercased()) } ?? false
        }
    }

    /// Fields of a mail's header that no calendar has (RFC 5322 §3.6, RFC 2045, RFC 5321 §4.4).
    private static let mailFields: Set<String> = [
        "from", "sender", "reply-to", "to", "cc", "bcc", "subject", "date", "message-id", "in-reply-to", "references",
        "received", "return-path", "delivered-to", "mime-version", "content-type", "content-transfer-encoding",
        "dkim-signature", "authentication-results", "x-mailer", "user-agent",
    ]

    /// A name a calendar file may start with by mistake: a property RFC 5545 defines, or an X- name.
    private static func isCalendarName(_ name: String) -> Bool {
        PropertyDesign.table[name] != nil || name.hasPrefix("X-")
    }

    /// Every calendar part of the message, in order, each once.
    package static func calendarParts(_ bytes: [UInt8]) -> [CalendarPart] {
        var parts: [CalendarPart] = []
        collect(messageStart(bytes), depth: 0, into: &parts)
        var seen: Set<[UInt8]> = []
        return parts.filter { seen.insert($0.bytes).inserted }
    }

    /// The address the message's `From:` header names (`Alice <alice@example.com>` → `alice@example.com`, read by
    /// RFC 5322 with comments removed: `MailAddress`): who sent it, as far as a mail says (iMIP's sender check,
    /// RFC 6047 §3). Nil when it names none, more than one mailbox, or has more than one `From:`.
    package static func sender(_ bytes: [UInt8]) -> String? {
        let lines = headerBlock(messageStart(bytes).prefix(1 << 16)).lines
        let from = lines.filter { $0.lowercased().hasPrefix("from:") }
        guard from.count == 1 else { return nil }
        return MailAddress.single(in: String(from[0].dropFirst(5)))
    }

    /// Where the message's header starts: after leading blank lines and a byte-order mark, and after an mbox
    /// message's `From ` line (the envelope sender, which the mail's own header does not vouch for).
    static func messageStart(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        var start = bytes.drop { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        if start.starts(with: Array("From ".utf8)) {
            start = start[((start.firstIndex(of: 0x0A) ?? start.endIndex - 1) + 1)...]
        }
        return start
    }

    // MARK: Entities

    /// An entity's header lines (folded lines joined) and where its body starts.
    static func headerBlock(_ bytes: ArraySlice<UInt8>) -> (lines: [String], body: ArraySlice<UInt8>) {
        var lines: [String] = []
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let end = bytes[index...].firstIndex(of: 0x0A) ?? bytes.endIndex
            var line = bytes[index..<end]
            if line.last == 0x0D { line = line.dropLast() }
            index = min(end + 1, bytes.endIndex)
            if line.isEmpty { return (lines, bytes[index...]) }
            let text = String(decoding: line, as: UTF8.self)
            if let first = line.first, first == 0x20 || first == 0x09, !lines.isEmpty {
                lines[lines.count - 1] += " " + text.trimmingCharacters(in: .whitespaces)
            } else {
                lines.append(text)
            }
        }
        return (lines, bytes[bytes.endIndex...])
    }

    /// A header's value and parameters: `text/calendar; method=REQUEST; charset="UTF-8"`.
    struct HeaderValue {
        var value = ""
        var parameters: [String: String] = [:]

        init(_ text: String?) {
            guard let text else { return }
            var pieces: [String] = []
            var current = ""
            var quoted = false
            for character in text {
                if character == "\"" { quoted.toggle() }
                if character == ";", !quoted {
                    pieces.append(current)
                    current = ""
                } else {
                    current.append(character)
                }
            }
            pieces.append(current)
            value = pieces[0].trimmingCharacters(in: .whitespaces).lowercased()
            for piece in pieces.dropFirst() {
                let pair = piece.split(separator: "=", maxSplits: 1).map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
                guard pair.count == 2 else { continue }
                parameters[pair[0].lowercased()] = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
        }
    }

    private static func collect(_ bytes: ArraySlice<UInt8>, depth: Int, into parts: inout [CalendarPart]) {
        guard depth < 16 else { return }  // hostile nesting
        let (lines, body) = headerBlock(bytes)
        func header(_ name: String) -> String? {
            lines.first { $0.lowercased().hasPrefix(name + ":") }.map { String($0.dropFirst(name.count + 1)) }
        }
        let type = HeaderValue(header("content-type") ?? "text/plain")
        if type.value.hasPrefix("multipart/"), let boundary = type.parameters["boundary"], !boundary.isEmpty {
            for part in split(body, boundary: boundary) { collect(part, depth: depth + 1, into: &parts) }
            return
        }
        let disposition = HeaderValue(header("content-disposition"))
        let name = (type.parameters["name"] ?? disposition.parameters["filename"] ?? "").lowercased()
        // A plain mail (no MIME header, RFC 5322 alone) whose text is a calendar, as some scripts send invitations.
        let plainCalendar =
            depth == 0 && header("content-type") == nil
            && body.drop(while: { [0x20, 0x09, 0x0A, 0x0D].contains($0) }).prefix(15).map { $0 | 0x20 }
                == Array("begin:vcalendar".utf8)
        guard
            ["text/calendar", "application/ics", "text/x-vcalendar"].contains(type.value)
                || (["application/octet-stream", "text/plain"].contains(type.value) && name.hasSuffix(".ics"))
                || plainCalendar
        else { return }
        let encoding = HeaderValue(header("content-transfer-encoding")).value
        var decoded: [UInt8]
        switch encoding {
        case "base64": decoded = base64(body)
        case "quoted-printable": decoded = quotedPrintable(body)
        default: decoded = Array(body)
        }
        decoded = utf8(decoded, charset: type.parameters["charset"])
        parts.append(CalendarPart(bytes: decoded, method: type.parameters["method"]?.uppercased()))
    }

    /// The parts of a multipart body: what lies between `--boundary` lines, up to `--boundary--`.
    static func split(_ body: ArraySlice<UInt8>, boundary: String) -> [ArraySlice<UInt8>] {
        let delimiter = Array(("--" + boundary).utf8)
        var parts: [ArraySlice<UInt8>] = []
        var start: Int?
        var index = body.startIndex
        while index < body.endIndex {
            let end = body[index...].firstIndex(of: 0x0A) ?? body.endIndex
            let line = body[index..<end]
            if line.starts(with: delimiter) {
                if let start {
                    // The line break before a delimiter belongs to it.
                    var stop = index
                    if stop > start, body[stop - 1] == 0x0A { stop -= 1 }
                    if stop > start, body[stop - 1] == 0x0D { stop -= 1 }
                    parts.append(body[start..<stop])
                }
                if line.dropFirst(delimiter.count).starts(with: [0x2D, 0x2D]) { return parts }
                start = min(end + 1, body.endIndex)
            }
            index = min(end + 1, body.endIndex)
        }
        if let start, start < body.endIndex { parts.append(body[start...]) }  // no closing delimiter
        return parts
    }

    // MARK: Transfer encodings and charsets

    static func base64(_ body: ArraySlice<UInt8>) -> [UInt8] {
        let text = String(decoding: body.filter { !$0.isASCIIWhitespace }, as: UTF8.self)
        let padded = text + String(repeating: "=", count: (4 - text.count % 4) % 4)
        return Data(base64Encoded: padded).map { Array($0) } ?? []
    }

    static func quotedPrintable(_ body: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(body.count)
        var index = body.startIndex
        func hex(_ byte: UInt8) -> UInt8? {
            switch byte {
            case 0x30...0x39: byte - 0x30
            case 0x41...0x46: byte - 0x37
            case 0x61...0x66: byte - 0x57
            default: nil
            }
        }
        while index < body.endIndex {
            let byte = body[index]
            guard byte == 0x3D else {
                out.append(byte)
                index += 1
                continue
            }
            let next = body.index(after: index)
            if next < body.endIndex, body[next] == 0x0A {  // a soft line break
                index = next + 1
            } else if next + 1 < body.endIndex, body[next] == 0x0D, body[next + 1] == 0x0A {
                index = next + 2
            } else if next + 1 < body.endIndex, let high = hex(body[next]), let low = hex(body[next + 1]) {
                out.append(high << 4 | low)
                index = next + 2
            } else {
                out.append(byte)  // a lone `=`, kept as written
                index += 1
            }
        }
        return out
    }

    /// The bytes as UTF-8 from the part's charset: UTF-8 and ASCII as they are, Latin-1 and Windows-1252 byte by
    /// byte, others through Foundation; an unknown charset leaves the bytes to the reader (which takes UTF-8, else
    /// Windows-1252).
    static func utf8(_ bytes: [UInt8], charset: String?) -> [UInt8] {
        switch charset?.lowercased() {
        case nil, "utf-8", "utf8", "us-ascii", "ascii": return bytes
        case "iso-8859-1", "latin1", "windows-1252", "cp1252":
            return bytes.withUnsafeBufferPointer { Windows1252.utf8(from: $0) }
        case "utf-16": return String(data: Data(bytes), encoding: .utf16).map { Array($0.utf8) } ?? bytes
        case "utf-16le": return String(data: Data(bytes), encoding: .utf16LittleEndian).map { Array($0.utf8) } ?? bytes
        case "utf-16be": return String(data: Data(bytes), encoding: .utf16BigEndian).map { Array($0.utf8) } ?? bytes
        case "iso-8859-2": return String(data: Data(bytes), encoding: .isoLatin2).map { Array($0.utf8) } ?? bytes
        default: return bytes
        }
    }
}

extension UInt8 {
    fileprivate var isASCIIWhitespace: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0D }
}
