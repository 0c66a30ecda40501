import Foundation

/// Reads iCalendar bytes into `Component` trees: unfolds lines, keeps their line numbers, repairs encodings,
/// checks BEGIN/END structure, and says what it found and what it did about it.
///
/// libical's parser does none of this: it has no line numbers, drops a whole file with a missing END and accepts
/// `END:VTODO` closing a VEVENT. So the syntax is ours; values are handed to libical (see `LibicalValues`).
struct ContentLineScanner {
    var log: DiagnosticLog
    var top: [Component] = []
    var stack: [Component] = []
    /// Lines repaired or flagged, summed up at the end of the input (`finish`).
    var tallies = Tallies()
    /// What the whole input is: valid UTF-8 (the usual case: lines need no validation of their own), holding a
    /// control character other than tab and line ends or a noncharacter (rare: only then are lines searched for
    /// them). Until it is found, every line is validated.
    var input = InputFlags(isUTF8: false)
    /// How many BEGINs deep the scanner is inside a component it skips for nesting too deep; 0 when not skipping.
    var skippedDepth = 0
    /// Whether the input ended inside a component: a missing END, a download cut off in the middle.
    var endedInsideComponent = false
    /// A line that starts a property and has no colon, kept until the next line says whether it continues it
    /// (ContentLineFolds.swift).
    var heldLine: (bytes: [UInt8], line: Int)?

    /// Properties whose value is prose, where an unescaped newline in the middle is a common exporter bug.
    private static let freeText: Set<String> = ["DESCRIPTION", "SUMMARY", "COMMENT", "LOCATION"]
    /// Properties whose values are one unbroken word (identifiers, addresses, links): a line with no colon and no
    /// space after one is the rest of its value, whose fold lost its leading space (Exchange and mail gateways).
    private static let unbrokenValues: Set<String> = [
        "UID", "ATTENDEE", "ORGANIZER", "URL", "RELATED-TO", "TZID", "TZURL", "CONTACT", "ATTACH", "SOURCE",
    ]

    /// Components that may only stand directly inside VCALENDAR: a BEGIN of one of these inside another such
    /// component means the previous one lost its END.
    static let calendarChildren: Set<String> = [
        "VEVENT", "VTODO", "VJOURNAL", "VFREEBUSY", "VTIMEZONE",
        "VAVAILABILITY",
    ]

    /// What scanning one input gave: its top-level components, and whether the input ended inside a component
    /// (then it holds part of a calendar at most, and merges must not read what it lacks as deleted).
    struct Result {
        var components: [Component]
        var isTruncated: Bool
        /// When the input was read in parts: the calendar's components already decoded on the parts' threads,
        /// with what decoding them reported (in component order), for `ICalendar` to take instead of decoding
        /// them again.
        var decodedChildren: (components: [CalendarComponent], log: DiagnosticLog)?
    }

    /// Scans the input; a large one of a simple shape in parts on every core (`ScanPlan`). `splitting` sets when
    /// that happens: nil never, else the least input size and the number of parts (tests split small inputs).
    /// `decoding` lets the parts decode the calendar's components too (`Result.decodedChildren`), making the
    /// checks that change nothing read when `checking` (`DecodeContext.checks`).
    static func scan(
        _ bytes: [UInt8], log: inout DiagnosticLog,
        splitting: (minimumBytes: Int, pieces: Int)? = ScanPlan.defaultSplitting, decoding: Bool = true,
        checking: Bool = true
    ) -> Result {
        var scanner = ContentLineScanner(log: log)
        let split: Result? = bytes.withUnsafeBufferPointer { buffer in
            scanner.input = InputFlags.inParts(buffer)
            if let splitting, buffer.count >= splitting.minimumBytes, scanner.input.isUTF8,
                !scanner.input.hasControls, !scanner.input.hasNoncharacters,
                let plan = ScanPlan(buffer, pieces: splitting.pieces)
            {
                return scanner.scanInParts(buffer, plan, decoding: decoding, checking: checking)
            }
            scanner.scanLines(buffer)
            return nil
        }
        if let split {
            log = scanner.log
            return split
        }
        scanner.finish()
        log = scanner.log
        return Result(components: scanner.top, isTruncated: scanner.endedInsideComponent)
    }

    /// Scans a calendar cut where `plan` says: its header and trailer on this scanner, its runs of components on
    /// every core, each with its own scanner and log; the components go back into the calendar in order and the
    /// logs into this one. The result is what one scan of the whole input gives (ICSKitTests check it on the
    /// corpus): every line is read by the same code with the same line number, and the plan admits only inputs
    /// where no line's reading depends on another part.
    private mutating func scanInParts(
        _ buffer: UnsafeBufferPointer<UInt8>, _ plan: ScanPlan, decoding: Bool, checking: Bool
    ) -> Result {
        let file = log.file
        let flags = input
        let base = UnsafeSendableBuffer(buffer)
        struct PartResult: Sendable {
            var scanned: ScannedPart
            var decoded: [CalendarComponent]
            var decodeLog: DiagnosticLog
        }
        let results = ParallelParts.run(plan.parts.count) { index -> PartResult in
            let part = plan.parts[index]
            let scanned = ContentLineScanner.scanPart(
                UnsafeBufferPointer(rebasing: base.buffer[part.range]), firstLine: part.firstLine, file: file,
                flags: flags)
            // Decoding a component needs nothing outside it (the calendar-wide checks come later, in order).
            var context = DecodeContext(log: DiagnosticLog(file: file))
            context.checks = checking
            let decoded = decoding ? scanned.components.map { CalendarComponent(decoding: $0, &context) } : []
            return PartResult(scanned: scanned, decoded: decoded, decodeLog: context.log)
        }
        // In input order, as one scan reports: the header, the parts, the trailer, then what is summed up.
        scanLines(UnsafeBufferPointer(rebasing: buffer[plan.header.range]), firstLine: plan.header.firstLine)
        var decodeLog = DiagnosticLog(file: file)
        for result in results {
            absorb(result.scanned)
            decodeLog.append(result.decodeLog)
        }
        scanLines(UnsafeBufferPointer(rebasing: buffer[plan.trailer.range]), firstLine: plan.trailer.firstLine)
        finish()
        top[0].components = results.flatMap(\.scanned.components)
        return Result(
            components: top, isTruncated: endedInsideComponent,
            decodedChildren: decoding ? (results.flatMap(\.decoded), decodeLog) : nil)
    }

    /// Whether the line being read is the file's last and has no line end.
    var isUnterminatedLastLine = false

    init(log: DiagnosticLog) { self.log = log }

    // MARK: Physical lines → logical (unfolded) lines

    /// Reads the physical lines of `buffer`, the first of which is line `firstLine` of the input.
    mutating func scanLines(_ buffer: UnsafeBufferPointer<UInt8>, firstLine: Int = 1) {
        let count = buffer.count
        var index = 0
        if count >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF { index = 3 }
        var lineNumber = firstLine - 1
        var pendingStart = 0, pendingEnd = 0, pendingLine = 0
        var hasPending = false
        var folded: [UInt8] = []
        var isFolded = false

        while index < count {
            lineNumber += 1
            let (end, next) = Self.lineEnd(buffer, from: index)
            let first: UInt8? = index < end ? buffer[index] : nil
            if first == 0x20 || first == 0x09, hasPending {
                if !isFolded {
                    folded.removeAll(keepingCapacity: true)
                    folded.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[pendingStart..<pendingEnd]))
                    isFolded = true
                }
                folded.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[(index + 1)..<end]))
                // RFC 5545 §3.1 folds between characters; some writers fold by bytes, inside one. Joined, the
                // character is whole again: read right, and said.
                if index + 1 < end, buffer[index + 1] & 0xC0 == 0x80 { tallies.splitFolds.add(lineNumber, ()) }
            } else if index == end {
                // An empty line is skipped without ending the line before it: some exporters put blank lines
                // between a line and its continuation.
                log.warning(lineNumber, "empty line; ignored", code: "empty-line")
            } else {
                if hasPending {
                    emit(buffer, pendingStart..<pendingEnd, folded: isFolded ? folded : nil, line: pendingLine)
                }
                isFolded = false
                if first == 0x20 || first == 0x09 {
                    log.warning(
                        lineNumber, "continuation line with no line before it; read as a line of its own",
                        code: "orphan-continuation")
                    while index < end, buffer[index] == 0x20 || buffer[index] == 0x09 { index += 1 }
                }
                (pendingStart, pendingEnd, pendingLine) = (index, end, lineNumber)
                hasPending = index < end
            }
            index = next
        }
        if hasPending {
            // A last line with no line end may be a line the file was cut inside of.
            isUnterminatedLastLine = pendingEnd == count
            emit(buffer, pendingStart..<pendingEnd, folded: isFolded ? folded : nil, line: pendingLine)
        }
        releaseHeldLine()
    }

    /// A line ends at CRLF (RFC 5545), LF (Unix exporters), CR alone (classic Mac OS) or CR CR LF (a file whose
    /// line ends were converted twice): where it ends, and where the next begins.
    @inline(__always)
    static func lineEnd(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> (end: Int, next: Int) {
        let count = buffer.count
        var cursor = start
        while cursor < count, buffer[cursor] != 0x0A, buffer[cursor] != 0x0D { cursor += 1 }
        guard cursor < count, buffer[cursor] == 0x0D else { return (cursor, cursor + 1) }
        if cursor + 1 < count, buffer[cursor + 1] == 0x0A { return (cursor, cursor + 2) }
        if cursor + 2 < count, buffer[cursor + 1] == 0x0D, buffer[cursor + 2] == 0x0A { return (cursor, cursor + 3) }
        return (cursor, cursor + 1)
    }

    /// One logical line read on: the unfolded copy when it was folded, else its bytes where they stand.
    @inline(__always)
    private mutating func emit(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, folded: [UInt8]?, line: Int) {
        if let folded {
            folded.withUnsafeBufferPointer { logicalLine($0, line: line) }
        } else {
            logicalLine(UnsafeBufferPointer(rebasing: buffer[range]), line: line)
        }
    }

    private mutating func logicalLine(_ bytes: UnsafeBufferPointer<UInt8>, line: Int) {
        if input.hasNoncharacters, let scalar = Noncharacters.first(in: bytes) {
            tallies.noncharacters.add(line, scalar)
        }
        if input.hasControls, bytes.contains(where: ControlCharacters.isForbiddenInLine) {
            if let unpadded = ControlCharacters.withoutNULPadding(bytes) {
                tallies.nulPadding.add(line, ())
                return unpadded.withUnsafeBufferPointer { logicalLine($0, line: line) }
            }
            tallies.controls.add(line, ())
            let repaired = ControlCharacters.replacing(bytes)
            return repaired.withUnsafeBufferPointer { decodedLine($0, line: line) }
        }
        decodedLine(bytes, line: line)
    }

    private mutating func decodedLine(_ bytes: UnsafeBufferPointer<UInt8>, line: Int) {
        if input.isUTF8 || UTF8Check.isValid(bytes) {
            contentLine(bytes, line: line)
        } else {
            let repair = UTF8Repair.repair(bytes)
            if repair.isUTF8Text {
                tallies.repaired.add(line, (repair.windows1252, repair.replaced))
            } else {
                tallies.nonUTF8.add(line, ())
            }
            repair.bytes.withUnsafeBufferPointer { contentLine($0, line: line) }
        }
    }

    // MARK: Content line → name, parameters, value

    mutating func contentLine(
        _ bytes: UnsafeBufferPointer<UInt8>, line: Int, repairing: Bool = false,
        source original: String? = nil
    ) {
        if skippedDepth > 0 { return skipLine(bytes) }
        if heldLine != nil, joinsHeldLine(bytes, line: line) { return }
        let count = bytes.count
        var cursor = 0
        while cursor < count, bytes[cursor] != UInt8(ascii: ";"), bytes[cursor] != UInt8(ascii: ":") { cursor += 1 }
        let name = Self.upperASCII(bytes, 0..<cursor)
        let nameEnd = cursor
        guard cursor < count, bytes.contains(UInt8(ascii: ":")) else {
            return lineWithoutColon(bytes, name: name, nameEnd: nameEnd, line: line, source: original)
        }
        let source = { original ?? String(decoding: bytes, as: UTF8.self) }
        if name.isEmpty {
            log.error(
                line, "content line has no property name: \"\(Self.excerpt(source()))\"; line ignored",
                code: "missing-property-name")
            return
        }
        var parameters: [Parameter] = []
        // Whether name and parameters are spelled as the canonical writer would spell them.
        var canonical = !Self.hasLowercase(bytes, 0..<nameEnd)
        while cursor < count, bytes[cursor] == UInt8(ascii: ";") {
            guard
                let (parameter, next) = parseParameter(
                    bytes, from: cursor + 1, line: line, property: name, canonical: &canonical)
            else { return unclosedParameters(bytes, name: name, line: line, repairing: repairing, source: source) }
            parameters.append(parameter)
            cursor = next
        }
        // cursor is at the colon that ends the parameters.
        let value = String(decoding: UnsafeBufferPointer(rebasing: bytes[(cursor + 1)...]), as: UTF8.self)
        // Keep the spelling of name and parameters only where writing them canonically would change it.
        let prefix = canonical ? nil : String(decoding: UnsafeBufferPointer(rebasing: bytes[..<cursor]), as: UTF8.self)
        if !Self.isValidName(UnsafeBufferPointer(rebasing: bytes[..<nameEnd])) {
            let property = Property(name: name, parameters: parameters, value: value, line: line, sourcePrefix: prefix)
            return invalidName(property, UnsafeBufferPointer(rebasing: bytes[..<nameEnd]), source: source)
        }
        switch name {
        case "BEGIN": begin(value, line: line)
        case "END": end(value, line: line)
        default:
            let property = Property(name: name, parameters: parameters, value: value, line: line, sourcePrefix: prefix)
            if stack.isEmpty {
                log.error(
                    line, "property \(name) stands outside any component; ignored", code: "property-outside-component")
            } else {
                stack[stack.count - 1].properties.append(property)
            }
        }
    }

    /// A parameter list without the colon that ends it: read again with a quote closed before the value when one
    /// swallowed it, else the line is ignored; either said.
    private mutating func unclosedParameters(
        _ bytes: UnsafeBufferPointer<UInt8>, name: String, line: Int, repairing: Bool, source: () -> String
    ) {
        guard !repairing, let repaired = Self.quoteClosedAfterValue(bytes) else {
            return log.error(
                line, "\(name) has a parameter list with no closing colon; line ignored",
                code: "unclosed-parameter-list")
        }
        log.warning(
            line,
            "\(name) has a quoted parameter that swallows the value (the closing quote "
                + "comes at the end of the line); read with the quote closed before the last ':'",
            code: "quote-swallows-value")
        let text = source()
        repaired.withUnsafeBufferPointer { contentLine($0, line: line, repairing: true, source: text) }
    }

    /// A property whose name is not RFC 5545's: one other writers use (Lotus Notes' X-LOTUS-CHILD_UID) is kept, as
    /// python icalendar, libical and ical.js keep it, and written back as read (`--repair` renames it); anything
    /// else would make the line unreadable for strict readers written back, and is most often the rest of the line
    /// above (text with a colon in it, a fold that lost its space): read so, or dropped, said.
    private mutating func invalidName(_ property: Property, _ name: UnsafeBufferPointer<UInt8>, source: () -> String) {
        if Self.isLenientName(name), !stack.isEmpty { return keepUnusualName(property) }
        notAProperty(
            source(), line: property.line,
            why: "has no valid property name (\"\(Self.excerpt(property.name))\": letters, digits and '-' only)")
    }

    /// A property whose name holds characters a name may not (`isLenientName`), kept in the open component.
    private mutating func keepUnusualName(_ property: Property) {
        log.warning(
            property.line,
            "property name \(property.name) holds characters RFC 5545 does not allow in a name (letters, digits "
                + "and '-'); kept as written", code: "unusual-property-name")
        stack[stack.count - 1].properties.append(property)
    }

    /// What the rest of an identifier, address or link can hold: letters, digits and `-._~@%/+=?&#` (no space,
    /// quote, colon or semicolon, which would make it the start of something else).
    private static func isValueWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-._~@%/+=?&#".unicodeScalars.contains(scalar)
    }

    /// A line that is not a property (no colon, or no valid name before it). Right after a TEXT property it is almost
    /// always text whose newline the exporter did not escape, so it is kept as the next line of that text; a word
    /// after an identifier or address is the rest of it; anywhere else it is dropped.
    mutating func notAProperty(_ source: String, line: Int, why: String) {
        if let owner = stack.indices.last, let last = stack[owner].properties.indices.last,
            Self.unbrokenValues.contains(stack[owner].properties[last].name),
            !source.isEmpty, source.unicodeScalars.allSatisfy(Self.isValueWordScalar)
        {
            let name = stack[owner].properties[last].name
            stack[owner].properties[last].value += source
            log.warning(
                line,
                "line \(why); read as the rest of the \(name) value above (a fold that lost its leading space)",
                code: "lost-fold")
            return
        }
        if let owner = stack.indices.last, let last = stack[owner].properties.indices.last,
            Self.freeText.contains(stack[owner].properties[last].name)
        {
            let name = stack[owner].properties[last].name
            // The line is the rest of an escaped value: its own escapes (`\n`, `\,`) are read as the value's are.
            stack[owner].properties[last].value += "\\n" + TextEscaping.escape(TextEscaping.unescape(source))
            log.warning(
                line,
                "line \(why); read as a further line of the \(name) text above (an unescaped newline)",
                code: "unescaped-newline")
            return
        }
        let what = why.hasPrefix("has ") ? String(why.dropFirst(4)) : why
        log.error(
            line, "not a content line (\(what)): \"\(Self.excerpt(source))\"; line ignored", code: "not-a-content-line")
    }

    /// Says once per parameter that its quoted values have spaces around their commas.
    private mutating func spacedListSeparators(_ property: String, _ name: String, line: Int, warned: inout Bool) {
        guard !warned else { return }
        warned = true
        log.warning(
            line,
            "\(property) parameter \(name) has spaces around the commas of its quoted values; read as a list of "
                + "values", code: "spaced-parameter-list")
    }

    /// Text after a closing quote: quotes inside a quoted value (`CN="Ann "The Boss" Lee"`), read as part of it
    /// (the line is written back as read). Returns the index of the `;` or `:` after it.
    private mutating func textAfterQuote(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, _ property: String, _ name: String, line: Int,
        values: inout [String]
    ) -> Int? {
        log.warning(
            line, "\(property) parameter \(name) has text after its closing quote; kept", code: "text-after-quote")
        var cursor = start
        while cursor < bytes.count, bytes[cursor] != UInt8(ascii: ";"), bytes[cursor] != UInt8(ascii: ":") {
            cursor += 1
        }
        guard cursor < bytes.count else { return nil }
        if bytes[start - 1] == UInt8(ascii: "\""), let last = values.indices.last {
            var rest = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<cursor]), as: UTF8.self)
            if rest.hasSuffix("\"") { rest.removeLast() }
            values[last] += "\"" + rest
        }
        return cursor
    }

    /// A quoted parameter value from the quote at `quote`: the value and the index after its closing quote. One
    /// whose quote never closes is read unquoted up to the next ';' or ':' (`closed` false), so the line survives;
    /// nil when nothing ends it.
    private mutating func quotedValue(
        _ bytes: UnsafeBufferPointer<UInt8>, at quote: Int, line: Int, property: String, name: String,
        canonical: inout Bool
    ) -> (value: String, next: Int, closed: Bool)? {
        let count = bytes.count
        let valueStart = quote + 1
        var cursor = valueStart
        while cursor < count, bytes[cursor] != UInt8(ascii: "\"") { cursor += 1 }
        let raw = UnsafeBufferPointer(rebasing: bytes[valueStart..<cursor])
        // The writer quotes exactly the values holding ':', ';' or ',' and caret-escapes anew.
        if raw.contains(UInt8(ascii: "^")) || !raw.contains(where: { $0 == 0x3A || $0 == 0x3B || $0 == 0x2C }) {
            canonical = false
        }
        guard cursor < count else {
            canonical = false
            log.warning(
                line,
                "\(property) parameter \(name) opens a quote it never closes; read up to the next ':' instead",
                code: "unclosed-quote")
            cursor = valueStart
            while cursor < count, bytes[cursor] != UInt8(ascii: ";"), bytes[cursor] != UInt8(ascii: ":") { cursor += 1 }
            guard cursor < count else { return nil }
            return (Self.decodeCaret(bytes, valueStart..<cursor), cursor, false)
        }
        let escaped = Self.hasBackslashEscape(bytes, valueStart..<cursor)
        if escaped { backslashEscapes(property, name, line: line, canonical: &canonical) }
        return (Self.decodeCaret(bytes, valueStart..<cursor, backslashes: escaped), cursor + 1, true)
    }

    /// Reads `NAME=value,"quoted value"` starting after a `;`; returns the index of the `;` or `:` after it.
    private mutating func parseParameter(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, line: Int,
        property: String, canonical: inout Bool
    ) -> (Parameter, Int)? {
        let count = bytes.count
        var cursor = start
        while cursor < count, ![UInt8(ascii: "="), UInt8(ascii: ";"), UInt8(ascii: ":")].contains(bytes[cursor]) {
            cursor += 1
        }
        guard cursor < count else { return nil }
        let name = Self.upperASCII(bytes, start..<cursor)
        if Self.hasLowercase(bytes, start..<cursor) { canonical = false }
        guard bytes[cursor] == UInt8(ascii: "=") else {
            log.error(
                line, "\(property) has a parameter \"\(name)\" with no '=' and no value; kept as written",
                code: "parameter-without-value")
            return (Parameter(name, []), cursor)
        }
        if name.isEmpty {
            log.error(line, "\(property) has a parameter with no name; kept as written", code: "parameter-without-name")
        }
        cursor += 1
        var values: [String] = []
        var spacedList = false
        while true {
            if cursor < count, bytes[cursor] == UInt8(ascii: "\"") {
                guard
                    let quoted = quotedValue(
                        bytes, at: cursor, line: line, property: property, name: name, canonical: &canonical)
                else { return nil }
                values.append(quoted.value)
                cursor = quoted.next
                if !quoted.closed { break }
            } else {
                let valueStart = cursor
                let (end, escaped, hasCaret) = Self.unquotedValueEnd(bytes, from: cursor)
                cursor = end
                if hasCaret { canonical = false }
                if escaped { backslashEscapes(property, name, line: line, canonical: &canonical) }
                values.append(Self.decodeCaret(bytes, valueStart..<cursor, backslashes: escaped))
            }
            guard cursor < count else { return nil }
            if let next = Self.listSeparatorEnd(bytes, after: cursor) {
                if next > cursor + 1 { spacedListSeparators(property, name, line: line, warned: &spacedList) }
                cursor = next
                continue
            }
            if bytes[cursor] == UInt8(ascii: ";") || bytes[cursor] == UInt8(ascii: ":") { break }
            canonical = false
            guard let end = textAfterQuote(bytes, from: cursor, property, name, line: line, values: &values) else {
                return nil
            }
            cursor = end
            break
        }
        return (Parameter(name, values), cursor)
    }

    /// Where an unquoted parameter value starting at `start` ends (at the `,`, `;` or `:` after it), whether it
    /// holds backslash escapes and whether a caret. `\;` `\,` `\:` (iOS writes `X-TITLE=Hauptstraße 1-5\; 4041
    /// Linz`): the character is part of the value, as python icalendar reads it; `\:` only while a colon is left for
    /// the value.
    private static func unquotedValueEnd(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int
    ) -> (end: Int, escaped: Bool, hasCaret: Bool) {
        let count = bytes.count
        var cursor = start, escaped = false, hasCaret = false
        while cursor < count, ![UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":")].contains(bytes[cursor]) {
            if bytes[cursor] == UInt8(ascii: "^") { hasCaret = true }
            if bytes[cursor] == UInt8(ascii: "\\"), cursor + 2 < count,
                [UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":")].contains(bytes[cursor + 1]),
                bytes[cursor + 1] != UInt8(ascii: ":") || bytes[(cursor + 2)...].contains(UInt8(ascii: ":"))
            {
                escaped = true
                cursor += 2
                continue
            }
            cursor += 1
        }
        return (cursor, escaped, hasCaret)
    }

    /// `DTSTART;TZID="Zone:20200609T090000"` (an Exchange bug): the last quoted parameter runs to the end of the
    /// line and holds the colon. Returns the line with the quote closed before its last colon, or nil.
    private static func quoteClosedAfterValue(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard let last = bytes.last, last == UInt8(ascii: "\""),
            let open = bytes.dropLast().lastIndex(of: UInt8(ascii: "\"")),
            let colon = bytes[open..<(bytes.count - 1)].lastIndex(of: UInt8(ascii: ":"))
        else { return nil }
        var repaired = Array(bytes[..<colon])
        repaired.append(UInt8(ascii: "\""))
        repaired.append(contentsOf: bytes[colon..<(bytes.count - 1)])
        return repaired
    }
}
