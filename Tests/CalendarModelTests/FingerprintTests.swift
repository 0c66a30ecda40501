import CalendarModel
import Foundation
import XCTest

/// Stores keep fingerprints across versions, so the fingerprint must stay FNV-1a over the component's canonical
/// lines (DTSTAMP and LAST-MODIFIED left out), each followed by a line feed.
final class FingerprintTests: XCTestCase {
    func testFingerprintIsFNVOfTheCanonicalLines() throws {
        func reference(_ component: Component) -> String {
            var text = ""
            func visit(_ component: Component) {
                text += "BEGIN:" + component.name + "\n"
                for property in component.properties where !["DTSTAMP", "LAST-MODIFIED"].contains(property.name) {
                    text += property.canonicalContentLine + "\n"
                }
                component.components.forEach(visit)
                text += "END:" + component.name + "\n"
            }
            visit(component)
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325
            for byte in text.utf8 {
                hash ^= UInt64(byte)
                hash &*= 0x0000_0100_0000_01B3
            }
            let hex = String(hash, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }
        var checked = 0
        for file in try Oracle.load().parsedByPython {
            for component in try readCorpus(file.path).result.components.flatMap({ $0.walk() }) {
                XCTAssertEqual(component.fingerprint, reference(component), "\(file.path): \(component.name)")
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 1000)
        // A value that needs quoting and caret escapes in a parameter counts as written canonically.
        let property = Property(
            "ATTENDEE", parameters: [Parameter("CN", "Doe, \"J\""), Parameter("X-A", ["1", "2"])],
            value: "mailto:j@example.com")
        let component = Component("VEVENT", properties: [property])
        XCTAssertEqual(component.fingerprint, reference(component))
    }
}
