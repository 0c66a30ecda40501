/// Folds that lost their leading space. Exchange 2007 and others fold a long line by a bare line break, so the rest
/// of `ORGANIZER;CN=Danie` comes on a line of its own (`l Latham;CUTYPE=INDIVIDUAL:mailto:dl@example.com`) that
/// reads as nothing. A line that starts a property and has no colon is held; when the next line cannot start a
/// property (what stands before its first `;` or `:` is empty, no name, or a name no property has — `E` of a cut
/// `RSVP=TRU`/`E:mailto:…`), the two are one line.
extension ContentLineScanner {
    /// A line with no colon: held when it may be cut short, else no content line (or the rest of the text above).
    mutating func lineWithoutColon(
        _ bytes: UnsafeBufferPointer<UInt8>, name: String, nameEnd: Int, line: Int, source: String?
    ) {
        if source == nil, holds(bytes, name: name, nameEnd: nameEnd, line: line) { return }
        notAProperty(source ?? String(decoding: bytes, as: UTF8.self), line: line, why: "has no colon")
    }

    /// Holds a line with no colon that starts a property with parameters (`ATTENDEE;CN=…`) of a known or X- name.
    mutating func holds(_ bytes: UnsafeBufferPointer<UInt8>, name: String, nameEnd: Int, line: Int) -> Bool {
        guard heldLine == nil, nameEnd < bytes.count, bytes[nameEnd] == UInt8(ascii: ";"),
            PropertyDesign.table[name] != nil || name.hasPrefix("X-")
        else { return false }
        heldLine = (Array(bytes), line)
        return true
    }

    /// Reads the held line and `bytes` as one line when `bytes` continues it; else reads the held line as it is
    /// and returns false, so that `bytes` is read on its own.
    mutating func joinsHeldLine(_ bytes: UnsafeBufferPointer<UInt8>, line: Int) -> Bool {
        guard let held = heldLine else { return false }
        var nameEnd = 0
        while nameEnd < bytes.count, bytes[nameEnd] != UInt8(ascii: ";"), bytes[nameEnd] != UInt8(ascii: ":") {
            nameEnd += 1
        }
        let name = UnsafeBufferPointer(rebasing: bytes[..<nameEnd])
        let startsProperty =
            nameEnd > 0 && (Self.isValidName(name) || Self.isLenientName(name))
            && Self.isPropertyName(Self.upperASCII(bytes, 0..<nameEnd))
        guard !startsProperty else {
            releaseHeldLine()
            return false
        }
        heldLine = nil
        log.warning(
            held.line,
            "the line is cut short and line \(line) holds its rest (a fold that lost its leading space); read as "
                + "one line", code: "lost-fold")
        (held.bytes + Array(bytes)).withUnsafeBufferPointer { contentLine($0, line: held.line) }
        return true
    }

    /// A name a property has: RFC 5545's and its extensions' (RFC 7986, 9073, 9074, 9253, VPOLL), BEGIN and END,
    /// and X- names.
    static func isPropertyName(_ name: String) -> Bool {
        PropertyDesign.table[name] != nil || otherPropertyNames.contains(name) || name.hasPrefix("X-")
    }

    private static let otherPropertyNames: Set<String> = [
        "BEGIN", "END", "ACKNOWLEDGED", "TZUNTIL", "TZID-ALIAS-OF", "BUSYTYPE", "STRUCTURED-DATA",
        "STYLED-DESCRIPTION", "LOCATION-TYPE", "PARTICIPANT-TYPE", "CALENDAR-ADDRESS", "RESOURCE-TYPE", "VOTER",
        "POLL-ITEM-ID", "POLL-MODE", "POLL-PROPERTIES", "POLL-WINNER", "REPLY-URL", "ACCEPT-RESPONSE", "PROXIMITY",
        "CONCEPT", "LINK", "REFID", "GEO", "COMPLETED",
    ]

    /// Reads a held line as what it is: no content line, or the rest of the text above it.
    mutating func releaseHeldLine() {
        guard let held = heldLine else { return }
        heldLine = nil
        let text = String(decoding: held.bytes, as: UTF8.self)
        held.bytes.withUnsafeBufferPointer { contentLine($0, line: held.line, source: text) }
    }
}
