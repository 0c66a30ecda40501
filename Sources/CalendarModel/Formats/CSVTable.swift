import Foundation

/// RFC 4180 tables: cells separated by a delimiter, rows by CRLF (LF and CR alone are read too), a cell quoted
/// with `"` when it holds the delimiter, a quote or a line break, quotes inside doubled.
package struct CSVTable: Sendable, Equatable {
    package struct Row: Sendable, Equatable {
        package var cells: [String]
        /// The physical line the row starts on, from 1.
        package var line: Int

        package init(cells: [String], line: Int = 0) {
            self.cells = cells
            self.line = line
        }
    }

    package var rows: [Row]
    package var delimiter: Character

    package init(rows: [Row], delimiter: Character = ",") {
        self.rows = rows
        self.delimiter = delimiter
    }

    /// What went wrong in reading, by line: a quote never closed is an error (reading stops there); text after a
    /// closing quote or a quote inside an unquoted cell is read as written and warned about.
    package struct Problem: Sendable, Equatable {
        package var line: Int
        package var message: String
        package var isError: Bool
    }

    /// Reads CSV text. A UTF-8 byte-order mark is dropped; a file that is not UTF-8 is read as Windows-1252 (what
    /// Outlook writes on Windows), a UTF-8 file with a few broken bytes is repaired byte sequence by byte sequence
    /// (`UTF8Repair`), each with a warning. The delimiter is the first of `,`, `;` and tab found outside
    /// quotes in the first line, unless given.
    package static func read(_ bytes: [UInt8], delimiter: Character? = nil) -> (table: CSVTable, problems: [Problem]) {
        let (text, problems) = decode(bytes)
        var tokenizer = Tokenizer(
            text: text, separator: delimiter.map { $0.unicodeScalars.first! } ?? sniffDelimiter(text))
        tokenizer.problems = problems
        tokenizer.run()
        return (CSVTable(rows: tokenizer.rows, delimiter: Character(tokenizer.separator)), tokenizer.problems)
    }

    /// The file's text as scalars: a UTF-8 byte-order mark dropped, bytes that are not UTF-8 repaired or read as
    /// Windows-1252, with a warning.
    static func decode(_ bytes: [UInt8]) -> ([Unicode.Scalar], [Problem]) {
        var problems: [Problem] = []
        var body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        let isUTF8 = body.withUnsafeBufferPointer { UTF8Check.isValid($0) }
        if !isUTF8 {
            let repair = body.withUnsafeBufferPointer { UTF8Repair.repair($0) }
            body = repair.bytes
            let message =
                repair.isUTF8Text
                ? "the file is UTF-8 with bytes that are not: \(repair.replaced) broken sequence(s) replaced with "
                    + "U+FFFD, \(repair.windows1252) byte(s) read as Windows-1252"
                : "the file is not UTF-8; read as Windows-1252"
            problems.append(Problem(line: 1, message: message, isError: false))
        }
        return (Array(String(decoding: body, as: UTF8.self).unicodeScalars), problems)
    }

    /// Splits text into rows and cells (RFC 4180 quoting, any line break), noting what it reads past.
    struct Tokenizer {
        let text: [Unicode.Scalar]
        let separator: Unicode.Scalar
        var problems: [Problem] = []
        var rows: [Row] = []
        var cells: [String] = []
        var cell = String.UnicodeScalarView()
        var line = 1, rowLine = 1, index = 0
        var quoted = false  // inside a quoted cell
        var wasQuoted = false  // the current cell began with a quote
        var quoteLine = 1

        init(text: [Unicode.Scalar], separator: Unicode.Scalar) {
            self.text = text
            self.separator = separator
        }

        mutating func run() {
            while index < text.count {
                if quoted { quotedScalar() } else { plainScalar() }
            }
            if quoted {
                problems.append(
                    Problem(
                        line: quoteLine,
                        message: "row \(rows.count + 1), cell \(cells.count + 1): a quoted cell is never closed; the "
                            + "rest of the file (from line \(quoteLine)) is not read",
                        isError: true))
                cells = []
                cell = String.UnicodeScalarView()
            } else if !cell.isEmpty || !cells.isEmpty || wasQuoted {
                endRow()
            }
        }

        /// One scalar inside quotes: a doubled quote is one, a lone quote closes, a CRLF stays in the cell.
        mutating func quotedScalar() {
            let scalar = text[index]
            if scalar == "\"" {
                if next == "\"" {
                    cell.append("\"")
                    index += 2
                    return
                }
                quoted = false
            } else {
                if scalar == "\n" { line += 1 }
                if scalar == "\r" {
                    line += 1
                    if next == "\n" {
                        cell.append("\r")
                        cell.append("\n")
                        index += 2
                        return
                    }
                }
                cell.append(scalar)
            }
            index += 1
        }

        /// One scalar outside quotes.
        mutating func plainScalar() {
            let scalar = text[index]
            switch scalar {
            case separator:
                endCell()
            case "\r", "\n":
                if scalar == "\r", next == "\n" { index += 1 }
                endRow()
                line += 1
                rowLine = line
            case "\"":
                if cell.isEmpty, !wasQuoted {
                    quoted = true
                    wasQuoted = true
                    quoteLine = line
                } else {
                    note("a quote inside an unquoted cell; read as written")
                    cell.append(scalar)
                }
            default:
                if wasQuoted {
                    note("text after the closing quote; read as written")
                    wasQuoted = false
                }
                cell.append(scalar)
            }
            index += 1
        }

        var next: Unicode.Scalar? { index + 1 < text.count ? text[index + 1] : nil }

        mutating func note(_ what: String) {
            problems.append(
                Problem(line: line, message: "row \(rows.count + 1), cell \(cells.count + 1): " + what, isError: false))
        }

        mutating func endCell() {
            cells.append(String(cell))
            cell = String.UnicodeScalarView()
            wasQuoted = false
        }

        mutating func endRow() {
            endCell()
            // A line with nothing on it is no row (trailing newline, blank lines).
            if !(cells.count == 1 && cells[0].isEmpty) { rows.append(Row(cells: cells, line: rowLine)) }
            cells = []
        }
    }

    static func sniffDelimiter(_ text: [Unicode.Scalar]) -> Unicode.Scalar {
        var quoted = false
        var counts: [Unicode.Scalar: Int] = [",": 0, ";": 0, "\t": 0]
        for scalar in text {
            if scalar == "\"" { quoted.toggle() }
            if !quoted, scalar == "\n" || scalar == "\r" { break }
            if !quoted, counts[scalar] != nil { counts[scalar]! += 1 }
        }
        let best = counts.max { $0.value < $1.value || ($0.value == $1.value && $0.key == ",") }
        return best.map { $0.value > 0 ? $0.key : "," } ?? ","
    }

    /// The table as RFC 4180 text: CRLF line ends, cells quoted only when they need it.
    package func text() -> String {
        var out = ""
        for row in rows {
            out += row.cells.map(quote).joined(separator: String(delimiter))
            out += "\r\n"
        }
        return out
    }

    func quote(_ cell: String) -> String {
        let special = delimiter.unicodeScalars.first!
        let needsQuotes =
            cell.unicodeScalars.contains { $0 == special || $0 == "\"" || $0 == "\n" || $0 == "\r" }
            || cell.hasPrefix(" ") || cell.hasSuffix(" ")
        guard needsQuotes else { return cell }
        return "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
