import Foundation

/// The scanner's structure: BEGIN and END lines nest components, and what is left open at the end is closed.
extension ContentLineScanner {

    mutating func begin(_ value: String, line: Int) {
        let name = value.uppercased()
        if stack.count >= Component.maximumDepth {
            // Real calendars nest four levels at most (VCALENDAR, VEVENT, VALARM, an X- component). Deeper input
            // is skipped rather than built, so nothing that walks the tree can be made to recurse without bound.
            log.error(
                line,
                "BEGIN:\(Self.excerpt(name)) nests deeper than \(Component.maximumDepth) components; it is "
                    + "skipped with everything inside it up to its END", code: "too-deep")
            skippedDepth = 1
            return
        }
        if name.isEmpty {
            log.error(line, "BEGIN with no component name; read as an unnamed component", code: "begin-without-name")
        }
        if Self.calendarChildren.contains(name),
            let open = stack.last, open.name != "VCALENDAR",
            Self.calendarChildren.contains(open.name)
                || ["VALARM", "STANDARD", "DAYLIGHT"].contains(open.name)
        {
            // A VEVENT cannot open inside a VEVENT: the one before lost its END.
            while let open = stack.last, open.name != "VCALENDAR" {
                log.error(
                    open.line, "BEGIN:\(open.name) has no END before BEGIN:\(name) at line \(line); closed there",
                    code: "missing-end")
                closeTop()
            }
        }
        var component = Component(name)
        component.line = line
        if value != name { component.sourceName = value }
        stack.append(component)
    }

    mutating func end(_ value: String, line: Int) {
        let name = value.uppercased()
        guard let open = stack.last else {
            log.error(line, "END:\(name) without a matching BEGIN; ignored", code: "end-without-begin")
            return
        }
        if open.name == name {
            if value != open.sourceName ?? open.name { stack[stack.count - 1].sourceEndName = value }
            closeTop()
        } else if let index = stack.lastIndex(where: { $0.name == name }) {
            while stack.count > index + 1 {
                let inner = stack[stack.count - 1]
                log.error(
                    inner.line, "BEGIN:\(inner.name) has no END before END:\(name) at line \(line); closed there",
                    code: "missing-end")
                closeTop()
            }
            closeTop()
        } else if isUnterminatedLastLine, open.name.hasPrefix(name) {
            // `END:VCALEND` with no line end: the file was cut inside the END line, so it ends inside the component.
            log.error(
                line, "the file ends inside END:\(open.name) (it is cut short); the component is not closed",
                code: "cut-short")
        } else {
            log.error(
                line,
                "END:\(name) does not match BEGIN:\(open.name) at line \(open.line); "
                    + "read as END:\(open.name)", code: "end-mismatch")
            closeTop()
        }
    }

    private mutating func closeTop() {
        var closed = stack.removeLast()
        if let layout = closed.sourceLayout, layout.allSatisfy({ $0 == closed.properties.count }) {
            closed.sourceLayout = nil
        }
        guard !stack.isEmpty else { return top.append(closed) }
        let parent = stack.count - 1
        // Remember how many properties came before this child, for parents that mix the two.
        stack[parent].sourceLayout.append(stack[parent].properties.count, orCreate: true)
        stack[parent].components.append(closed)
    }

    /// A line inside a component skipped for nesting too deep: only BEGIN and END count, to find its end.
    mutating func skipLine(_ bytes: UnsafeBufferPointer<UInt8>) {
        let upper = bytes.prefix(6).map { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") ? $0 - 32 : $0 }
        if upper.starts(with: Array("BEGIN:".utf8)) {
            skippedDepth += 1
        } else if upper.starts(with: Array("END:".utf8)) {
            skippedDepth -= 1
        }
    }

    /// Ends the input: closes what is still open and sums up the lines repaired or flagged.
    mutating func finish() {
        closeOpen()
        warnOnce(tallies.nonUTF8, code: "not-utf8") { "bytes that are not UTF-8\($0); decoded as Windows-1252" }
        let repaired = tallies.repaired
        for (index, repair) in repaired.first.enumerated() {
            if index == Tallies.listed {
                log.warning(
                    repair.line,
                    "\(repaired.count - Tallies.listed) more UTF-8 lines with broken bytes, repaired alike",
                    code: "broken-utf8")
                break
            }
            let (windows1252, replaced) = repair.detail
            var what: [String] = []
            if replaced > 0 {
                what.append("\(replaced) broken UTF-8 sequence\(replaced == 1 ? "" : "s") replaced with U+FFFD")
            }
            if windows1252 > 0 {
                what.append("\(windows1252) byte\(windows1252 == 1 ? "" : "s") read as Windows-1252")
            }
            log.warning(
                repair.line,
                "UTF-8 text with bytes that are not UTF-8: \(what.joined(separator: ", ")); the rest of the line "
                    + "is kept as it is", code: "broken-utf8")
        }
        let noncharacters = tallies.noncharacters
        for (index, found) in noncharacters.first.enumerated() {
            if index == Tallies.listed {
                log.warning(
                    found.line, "\(noncharacters.count - Tallies.listed) more lines with Unicode noncharacters",
                    code: "noncharacter")
                break
            }
            let code = String(found.detail.value, radix: 16, uppercase: true)
            log.warning(
                found.line,
                "U+\(String(repeating: "0", count: max(0, 4 - code.count)))\(code) is a Unicode noncharacter; kept, "
                    + "but servers that store calendars as XML reject it", code: "noncharacter")
        }
        warnOnce(tallies.splitFolds, code: "fold-splits-character") {
            "a fold splits a UTF-8 character (RFC 5545 §3.1 folds between characters)\($0); read joined, but readers "
                + "that decode each line first see broken text"
        }
        warnOnce(tallies.nulPadding, code: "nul-padding") {
            "values padded with NUL bytes (Exchange pads TZIDs so)\($0); the padding removed"
        }
        warnOnce(tallies.controls, code: "control-character") {
            "control characters, which a content line may not hold\($0); each replaced with U+FFFD"
        }
    }

    /// One warning for a kind of line, at the first: `message` gets " (and N more lines)" when there are more.
    private mutating func warnOnce<Detail>(
        _ tally: LineTally<Detail>, code: String, _ message: (String) -> String
    ) {
        guard let first = tally.first.first else { return }
        log.warning(first.line, message(tally.count > 1 ? " (and \(tally.count - 1) more lines)" : ""), code: code)
    }

    /// Closes the components still open at the end of the input (a missing END, a download cut off).
    mutating func closeOpen() {
        endedInsideComponent = !stack.isEmpty
        while let open = stack.last {
            log.error(
                open.line, "BEGIN:\(open.name) has no END (the file ends first); closed at the end of the file",
                code: "missing-end")
            stack[stack.count - 1].isCutOff = true
            closeTop()
        }
    }
}
