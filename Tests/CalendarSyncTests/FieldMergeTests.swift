import CalendarModel
import XCTest

@testable import CalendarSync

final class FieldMergeTests: XCTestCase {
    func component(_ lines: [String], alarm: String? = nil) -> Component {
        var text = "BEGIN:VTODO\r\n" + lines.map { $0 + "\r\n" }.joined()
        if let alarm {
            text += "BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:\(alarm)\r\nTRIGGER:-PT15M\r\nEND:VALARM\r\n"
        }
        text += "END:VTODO\r\n"
        return ICS.read(Array(text.utf8)).components[0]
    }

    func testChangesToDifferentPropertiesAreBothKept() throws {
        let base = component(
            ["UID:t@test", "DTSTAMP:20260101T000000Z", "SUMMARY:Call", "STATUS:NEEDS-ACTION"], alarm: "a")
        let local = component(
            ["UID:t@test", "DTSTAMP:20260102T000000Z", "SUMMARY:Call", "STATUS:COMPLETED", "CATEGORIES:Home"],
            alarm: "a")
        let external = component(
            ["UID:t@test", "DTSTAMP:20260103T000000Z", "SEQUENCE:2", "SUMMARY:Call Ana", "STATUS:NEEDS-ACTION"],
            alarm: "b")
        let merged = try XCTUnwrap(FieldMerge.merge(base: base, local: local, external: external))
        XCTAssertEqual(
            merged.properties.map(\.contentLine),
            [
                "UID:t@test", "SUMMARY:Call Ana", "STATUS:COMPLETED", "CATEGORIES:Home", "DTSTAMP:20260103T000000Z",
                "SEQUENCE:2",
            ])
        XCTAssertEqual(merged.components.first?.property("DESCRIPTION")?.value, "b", "their alarm change")
    }

    func testTheSamePropertyChangedDifferentlyIsAConflict() {
        let base = component(["UID:t@test", "SUMMARY:Call"])
        let local = component(["UID:t@test", "SUMMARY:Call Bo"])
        let external = component(["UID:t@test", "SUMMARY:Call Ana"])
        XCTAssertNil(FieldMerge.merge(base: base, local: local, external: external))
        // Changed the same way on both sides: no conflict.
        XCTAssertNotNil(FieldMerge.merge(base: base, local: external, external: external))
        // Alarms changed differently on both sides: a conflict too.
        XCTAssertNil(
            FieldMerge.merge(
                base: component(["UID:t@test"], alarm: "a"), local: component(["UID:t@test"], alarm: "b"),
                external: component(["UID:t@test"], alarm: "c")))
    }
}
