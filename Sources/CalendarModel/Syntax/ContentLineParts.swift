import Foundation

/// The scanner's parts (a file scanned in pieces on every core, put together again) and its helpers.
extension ContentLineScanner {
    // MARK: Parts

    /// Scans one run of whole components of a calendar (a part `ScanPlan` or the streaming reader cut) on a
    /// scanner of its own. What is summed up at the end of the input is handed back for `absorb`, not reported.
    static func scanPart(
        _ buffer: UnsafeBufferPointer<UInt8>, firstLine: Int, file: String?,
        flags: InputFlags? = nil
    ) -> ScannedPart {
        var scanner = ContentLineScanner(log: DiagnosticLog(file: file))
        scanner.input = flags ?? InputFlags(buffer)
        scanner.scanLines(buffer, firstLine: firstLine)
        scanner.closeOpen()
        return ScannedPart(components: scanner.top, log: scanner.log, tallies: scanner.tallies)
    }

    /// Takes in what a part's scan found, in input order: its diagnostics now, its repairs for `finish`.
    mutating func absorb(_ part: ScannedPart) {
        log.append(part.log)
        tallies.add(part.tallies)
    }

    /// Starts a scanner for a calendar read in parts: its header (BEGIN:VCALENDAR and its properties) is scanned
    /// now, its parts are absorbed as they come, its trailer is scanned by `finishTrailer`.
    static func header(_ buffer: UnsafeBufferPointer<UInt8>, file: String?) -> ContentLineScanner {
        var scanner = ContentLineScanner(log: DiagnosticLog(file: file))
        scanner.input = InputFlags(buffer)
        scanner.scanLines(buffer)
        return scanner
    }

    /// The calendar component as its header made it: its name, line and properties, no components yet.
    var openCalendar: Component? { stack.first }

    /// Scans END:VCALENDAR and what follows it (line `firstLine` on), then ends the input.
    mutating func finishTrailer(_ buffer: UnsafeBufferPointer<UInt8>, firstLine: Int) {
        input = InputFlags(buffer)
        scanLines(buffer, firstLine: firstLine)
        finish()
    }

    // MARK: Helpers

    static func hasLowercase(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        UnsafeBufferPointer(rebasing: bytes[range]).contains { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }
    }

    static func upperASCII(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        let slice = UnsafeBufferPointer(rebasing: bytes[range])
        if !slice.contains(where: { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }) {
            return String(decoding: slice, as: UTF8.self)
        }
        return String(
            decoding: slice.map { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") ? $0 - 32 : $0 },
            as: UTF8.self)
    }

    /// Reports backslash escapes in a parameter value; the line is then written back as it was read.
    mutating func backslashEscapes(_ property: String, _ name: String, line: Int, canonical: inout Bool) {
        canonical = false
        log.warning(
            line,
            "\(property) parameter \(name) escapes ';', ',' or ':' with a backslash, which parameter values do not "
                + "have (RFC 5545 quotes such values); read without the backslash, as python icalendar reads it, and "
                + "kept as written", code: "backslash-in-parameter")
    }

    /// Whether a parameter value holds `\;`, `\,` or `\:`.
    static func hasBackslashEscape(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        guard range.count > 1 else { return false }
        for index in range.lowerBound..<(range.upperBound - 1) where bytes[index] == UInt8(ascii: "\\") {
            if [UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":")].contains(bytes[index + 1]) { return true }
        }
        return false
    }

    /// RFC 6868: `^n` is a newline, `^'` a double quote, `^^` a caret; with `backslashes`, `\;` `\,` `\:` are the
    /// character alone.
    static func decodeCaret(
        _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, backslashes: Bool = false
    ) -> String {
        let slice = UnsafeBufferPointer(rebasing: bytes[range])
        guard backslashes || slice.contains(UInt8(ascii: "^")) else { return String(decoding: slice, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(slice.count)
        var index = 0
        while index < slice.count {
            let byte = slice[index]
            if backslashes, byte == UInt8(ascii: "\\"), index + 1 < slice.count,
                [UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":")].contains(slice[index + 1])
            {
                out.append(slice[index + 1])
                index += 2
                continue
            }
            if byte == UInt8(ascii: "^"), index + 1 < slice.count {
                switch slice[index + 1] {
                case UInt8(ascii: "n"), UInt8(ascii: "N"): out.append(0x0A); index += 2; continue
                case UInt8(ascii: "'"): out.append(UInt8(ascii: "\"")); index += 2; continue
                case UInt8(ascii: "^"): out.append(byte); index += 2; continue
                default: break
                }
            }
            out.append(byte)
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func excerpt(_ text: String) -> String {
        let printable = String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
        return printable.count > 60 ? String(printable.prefix(60)) + "…" : printable
    }
}

extension Optional where Wrapped == [Int] {
    /// Appends in place (no copy of the whole array), creating the array on first use.
    mutating func append(_ value: Int, orCreate: Bool) {
        if self == nil { self = [] }
        self!.append(value)
    }
}

/// What one part of a calendar's scan gave (see `ContentLineScanner.scanPart`).
struct ScannedPart: Sendable {
    var components: [Component]
    var log: DiagnosticLog
    var tallies: ContentLineScanner.Tallies
}
