import CalendarModel
import ICSKitTestSupport
import XCTest

/// INTEGER values read from outside are 32-bit (RFC 5545 §3.3.8), on generated numbers: within the range, read as
/// written and quiet; beyond it (any length of digits, either sign), an error on their line and read as the bound,
/// so that no increment of a value read (SEQUENCE + 1) can overflow.
final class IntegerBoundsTests: XCTestCase {
    func testIntegersBeyondThirtyTwoBitsAreAnErrorAndReadAsTheirBound() {
        var (random, _, count) = SeededGenerator.start(
            "integer bounds", seedVariable: "ICSKIT_BOUNDS_SEED", countVariable: "ICSKIT_BOUNDS_COUNT",
            defaultCount: 2_000, unit: "numbers")
        for _ in 0..<count {
            let digits = Int.random(in: 1...40, using: &random)
            var text = String(Int.random(in: 1...9, using: &random))
            for _ in 1..<digits { text += String(Int.random(in: 0...9, using: &random)) }
            let sign = ["", "+", "-"].randomElement(using: &random)!
            let written = sign + text
            let inRange = digits <= 10 && Int32(written.dropFirst(sign == "+" ? 1 : 0)) != nil
            let property = ["SEQUENCE", "PRIORITY"].randomElement(using: &random)!
            let file = """
                BEGIN:VCALENDAR\r
                VERSION:2.0\r
                PRODID:-//t//EN\r
                BEGIN:VTODO\r
                UID:n\r
                DTSTAMP:20260101T000000Z\r
                \(property):\(written)\r
                PERCENT-COMPLETE:\(written)\r
                BEGIN:VALARM\r
                ACTION:DISPLAY\r
                TRIGGER:-PT5M\r
                DESCRIPTION:x\r
                REPEAT:\(written)\r
                DURATION:PT1M\r
                END:VALARM\r
                END:VTODO\r
                END:VCALENDAR\r

                """
            let read = ICS.read(Array(file.utf8))
            let todo = read.calendars.first?.todos.first
            let value = property == "SEQUENCE" ? todo?.core.sequence : todo?.core.priority
            let bound = sign == "-" ? Int(Int32.min) : Int(Int32.max)
            let expected = inRange ? Int(Int32(written.dropFirst(sign == "+" ? 1 : 0))!) : bound
            XCTAssertEqual(value, expected, "\(property):\(written)")
            XCTAssertEqual(todo?.percentComplete, expected, "PERCENT-COMPLETE:\(written)")
            XCTAssertEqual(todo?.alarms.first?.repeatCount, expected, "REPEAT:\(written)")
            let errors = read.diagnostics.filter {
                $0.severity == .error && $0.message.contains("outside an INTEGER's range")
            }
            XCTAssertEqual(errors.map(\.line), inRange ? [] : [7, 8, 13], "\(written): \(read.diagnostics)")
            // Every increment of a value read stays in range.
            XCTAssertLessThanOrEqual(ItemCore.sequence(after: value ?? 0), Int(Int32.max))
        }
    }

    /// A REPEAT read as 2^31-1 fires an alarm at most 101 times an instance (SECURITY.md): the first and 100 repeats.
    func testAnAlarmRepeatsAHundredTimesAtMost() throws {
        let file = """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//t//EN\r
            BEGIN:VEVENT\r
            UID:r\r
            DTSTAMP:20260101T000000Z\r
            DTSTART:20261201T100000Z\r
            BEGIN:VALARM\r
            ACTION:DISPLAY\r
            TRIGGER:-PT5M\r
            DESCRIPTION:x\r
            REPEAT:9223372036854775807\r
            DURATION:PT1M\r
            END:VALARM\r
            END:VEVENT\r
            END:VCALENDAR\r

            """
        let calendar = try XCTUnwrap(ICS.read(Array(file.utf8)).calendars.first)
        var options = ExpansionOptions()
        options.viewerZone = .utc
        let occurrence = try XCTUnwrap(
            calendar.occurrences(
                from: Date(timeIntervalSince1970: 1_796_000_000), to: Date(timeIntervalSince1970: 1_800_000_000),
                options: options
            ).occurrences.first)
        let firings = occurrence.alarmFirings(time: CalendarTime(calendar: calendar, viewerZone: "UTC"))
        XCTAssertEqual(firings.count, 101)
    }
}
