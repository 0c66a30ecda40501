import Foundation
import ICSKitTestSupport
import XCTest

@testable import CalendarModel

/// `InputFlags` finds in one pass what three checks found one after the other (valid UTF-8, a control character, a
/// noncharacter), sixteen bytes at a time where it can: the same answers on random bytes drawn from the values each
/// check turns on, and the same in parts as whole.
final class InputFlagsTests: XCTestCase {
    /// Bytes each check decides on (line ends, tab, NUL and other controls, DEL, lead and continuation bytes of every
    /// length, the bytes of noncharacters, bytes that begin nothing), and plain ASCII.
    static let telling: [UInt8] = [
        0x09, 0x0A, 0x0D, 0x00, 0x01, 0x1F, 0x7F, 0x20, 0x7E, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xAF, 0xB7, 0xBE, 0xBF,
        0xC0, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF1, 0xF4, 0xF5, 0xFF,
    ]

    /// Noncharacters as UTF-8 (U+FFFE, U+FDD0, U+10FFFF), and a pattern past the last code point.
    static let sequences: [[UInt8]] = [
        [0xEF, 0xBF, 0xBE], [0xEF, 0xB7, 0x90], [0xF4, 0x8F, 0xBF, 0xBF], [0xF4, 0x9F, 0xBF, 0xBF],
    ]

    func random(_ count: Int, _ generator: inout SeededGenerator) -> [UInt8] {
        // Dense or sparse: a sparse input has runs of sixteen plain bytes and more, which the fast path passes whole,
        // and line ends and tabs among them.
        let oneIn = Bool.random(using: &generator) ? 4 : 40
        var bytes = (0..<count).map { _ in
            Int.random(in: 0..<oneIn, using: &generator) == 0
                ? Self.telling.randomElement(using: &generator)! : UInt8.random(in: 0x20...0x7E, using: &generator)
        }
        if Int.random(in: 0..<8, using: &generator) == 0 {
            bytes.insert(
                contentsOf: Self.sequences.randomElement(using: &generator)!,
                at: Int.random(in: 0...bytes.count, using: &generator))
        }
        return bytes
    }

    func separately(_ bytes: UnsafeBufferPointer<UInt8>) -> InputFlags {
        InputFlags(
            isUTF8: UTF8Check.isValid(bytes), hasControls: bytes.contains(where: ControlCharacters.isForbiddenInLine),
            hasNoncharacters: Noncharacters.first(in: bytes) != nil)
    }

    func testOnePassFindsWhatTheThreeChecksFind() {
        var (generator, seed, count) = SeededGenerator.start(
            "InputFlags", seedVariable: "ICSKIT_FLAGS_SEED", countVariable: "ICSKIT_FLAGS_CASES", defaultCount: 20_000,
            unit: "inputs")
        var seen = (invalid: 0, controls: 0, noncharacters: 0)
        for _ in 0..<count {
            let bytes = random(Int.random(in: 0...96, using: &generator), &generator)
            bytes.withUnsafeBufferPointer { buffer in
                let flags = InputFlags(buffer)
                XCTAssertEqual(flags, separately(buffer), "\(bytes) (seed \(seed))")
                seen.invalid += flags.isUTF8 ? 0 : 1
                seen.controls += flags.hasControls ? 1 : 0
                seen.noncharacters += flags.hasNoncharacters ? 1 : 0
            }
        }
        // Every answer was given both ways many times.
        XCTAssertGreaterThan(seen.invalid, count / 10)
        XCTAssertGreaterThan(seen.controls, count / 10)
        XCTAssertGreaterThan(seen.noncharacters, count / 50)
        XCTAssertLessThan(seen.invalid, count)
    }

    func testFlagsFoundInPartsAreTheFlagsOfTheWhole() {
        var (generator, seed, _) = SeededGenerator.start(
            "InputFlags in parts", seedVariable: "ICSKIT_FLAGS_SEED", countVariable: "ICSKIT_FLAGS_CASES",
            defaultCount: 0, unit: "inputs")
        let noncharacter: [UInt8] = [0xEF, 0xBF, 0xBE]
        for round in 0..<300 {
            // Long printable lines with one telling byte or sequence somewhere, or none.
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 1...40, using: &generator) {
                bytes +=
                    (0..<Int.random(in: 0...90, using: &generator)).map { _ in
                        UInt8.random(in: 0x20...0x7E, using: &generator)
                    } + [0x0D, 0x0A]
            }
            let at = Int.random(in: 0...bytes.count, using: &generator)
            switch round % 4 {
            case 0: bytes.insert(contentsOf: noncharacter, at: at)
            case 1: bytes.insert(Self.telling.randomElement(using: &generator)!, at: at)
            case 2: bytes.insert(contentsOf: [0xC3, 0xA9], at: at)
            default: break
            }
            bytes.withUnsafeBufferPointer { buffer in
                XCTAssertEqual(
                    InputFlags.inParts(buffer, minimumBytes: 0), InputFlags(buffer), "round \(round) (seed \(seed))")
            }
        }
    }

    /// A byte pattern past U+10FFFF (F4 EF BF BE begins no code point) no longer hides the noncharacter after it.
    func testANoncharacterAfterAPatternPastTheLastCodePointIsFound() {
        let bytes: [UInt8] = [0x61, 0xF4, 0xEF, 0xBF, 0xBE, 0x62]
        bytes.withUnsafeBufferPointer { buffer in
            XCTAssertEqual(Noncharacters.first(in: buffer), "\u{FFFE}")
            XCTAssertEqual(InputFlags(buffer), InputFlags(isUTF8: false, hasNoncharacters: true))
        }
    }
}
