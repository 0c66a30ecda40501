import Foundation
import ICSKitTestSupport
import XCTest

@testable import CalendarModel

/// TEXT escaping (RFC 5545 §3.3.11) over generated strings: what python icalendar's replacements give (backslash
/// first, then `;` and `,`, every line break one `\n`), and unescaping gives the text back. JSON strings: `"`,
/// `\\`, C0, DEL and C1 controls escaped scalar by scalar, and parsing gives the text back.
final class TextEscapingTests: XCTestCase {
    func testEscapingIsTheReplacementsAndUnescapingUndoesIt() {
        var (random, seed, count) = SeededGenerator.start(
            "text escaping", seedVariable: "ICSKIT_ESCAPE_SEED", countVariable: "ICSKIT_ESCAPE_COUNT",
            defaultCount: 2_000, unit: "strings")
        let pieces = ["a", "Z", " ", "\\", ";", ",", "\n", "\r", "\r\n", "é", "\u{301}", "😀", ":", "\"", "N"]
        for _ in 0..<count {
            let text = (0..<Int.random(in: 0...12, using: &random)).map { _ in pieces.randomElement(using: &random)! }
                .joined()
            // By Unicode scalars, as python replaces (a combining mark after `,` leaves the comma a comma).
            var (expected, lines) = ("", "")
            var afterCR = false
            for scalar in text.unicodeScalars {
                defer { afterCR = scalar == "\r" }
                switch scalar {
                case "\\", ";", ",": expected += "\\" + String(scalar)
                case "\n" where afterCR: continue
                case "\r", "\n":
                    expected += "\\n"
                    lines.unicodeScalars.append("\n")
                    continue
                default: expected.unicodeScalars.append(scalar)
                }
                lines.unicodeScalars.append(scalar)
            }
            XCTAssertEqual(TextEscaping.escape(text), expected, "seed \(seed): \(text.debugDescription)")
            XCTAssertEqual(TextEscaping.unescape(TextEscaping.escape(text)), lines, "seed \(seed)")
        }
    }

    func testJSONStringsEscapeControlsAndReadBack() throws {
        var (random, seed, count) = SeededGenerator.start(
            "JSON strings", seedVariable: "ICSKIT_ESCAPE_SEED", countVariable: "ICSKIT_ESCAPE_COUNT",
            defaultCount: 2_000, unit: "strings")
        let pieces = [
            "a", "\"", "\\", "\n", "\r", "\t", "\u{0}", "\u{1F}", "\u{7F}", "\u{80}", "\u{85}", "\u{9F}", "\u{A0}", "é",
            "\u{301}", "😀", "Â", "/", "sixteen plain bytes and more, read sixteen at a time",
        ]
        for _ in 0..<count {
            let text = (0..<Int.random(in: 0...16, using: &random)).map { _ in pieces.randomElement(using: &random)! }
                .joined()
            var expected = "\""
            for scalar in text.unicodeScalars {
                switch scalar.value {
                case 0x22, 0x5C: expected += "\\" + String(scalar)
                case 0x0A: expected += "\\n"
                case 0x0D: expected += "\\r"
                case 0x09: expected += "\\t"
                case 0..<0x20, 0x7F...0x9F: expected += String(format: "\\u%04x", scalar.value)
                default: expected.unicodeScalars.append(scalar)
                }
            }
            expected += "\""
            var out: [UInt8] = []
            JSONWriter.quote(text, into: &out)
            XCTAssertEqual(String(decoding: out, as: UTF8.self), expected, "seed \(seed): \(text.debugDescription)")
            XCTAssertEqual(try JSONValue.parse(out).stringValue, text, "seed \(seed)")
        }
    }

    /// Pretty JSON indents each line two spaces a level, past the 32 levels its line breaks are copied from too.
    func testPrettyJSONIndentsEveryLevel() throws {
        for depth in [1, 2, 31, 32, 33, 40] {
            var writer = JSONWriter(pretty: true)
            for _ in 0..<depth { writer.beginArray() }
            writer.int(1)
            for _ in 0..<depth { writer.endArray() }
            let lines = String(decoding: writer.bytes, as: UTF8.self).split(separator: "\n")
            let expected =
                (0..<depth).map { String(repeating: " ", count: 2 * $0) + "[" }
                + [String(repeating: " ", count: 2 * depth) + "1"]
                + (0..<depth).reversed().map { String(repeating: " ", count: 2 * $0) + "]" }
            XCTAssertEqual(lines.map(String.init), expected, "depth \(depth)")
            XCTAssertNotNil(try? JSONValue.parse(writer.bytes), "depth \(depth)")
        }
    }

    /// `isCanonical` answers in one pass what escaping the unescaped text again says (JSCalendar maps a TEXT value
    /// only when it comes back as written), for a value and for a list cut at every comma; `canonicalUnescaped`
    /// gives the unescaped text exactly then.
    func testCanonicalTextIsWhatEscapingAgainGivesBack() {
        var (random, seed, count) = SeededGenerator.start(
            "canonical text", seedVariable: "ICSKIT_ESCAPE_SEED", countVariable: "ICSKIT_ESCAPE_COUNT",
            defaultCount: 5_000, unit: "strings")
        let pieces = [
            "a", " ", #"\\"#, ";", ",", #"\n"#, #"\N"#, #"\,"#, #"\;"#, #"\x"#, #"\:"#, #"\"#, "\n", "\r", "é", ":",
        ]
        var canonical = 0
        for _ in 0..<count {
            let text = (0..<Int.random(in: 0...8, using: &random)).map { _ in pieces.randomElement(using: &random)! }
                .joined()
            let again = TextEscaping.escape(TextEscaping.unescape(text)) == text
            XCTAssertEqual(TextEscaping.isCanonical(text), again, "seed \(seed): \(text.debugDescription)")
            XCTAssertEqual(
                TextEscaping.canonicalUnescaped(text), again ? TextEscaping.unescape(text) : nil,
                "seed \(seed): \(text.debugDescription) unescaped")
            let parts = ValueSyntax.split(text, on: ",").map(TextEscaping.unescape).map(TextEscaping.escape)
            XCTAssertEqual(
                TextEscaping.isCanonical(text, list: true), parts.joined(separator: ",") == text,
                "seed \(seed): \(text.debugDescription) as a list")
            if again { canonical += 1 }
        }
        // Both answers come up.
        XCTAssertGreaterThan(canonical, count / 20)
        XCTAssertLessThan(canonical, count - count / 20)
    }
}
