import Foundation
import ICSKitTestSupport
import XCTest

/// INTEGER properties at the edges (±2^31, ±2^63, 20 digits, signs, leading zeros, and random lengths) through every
/// command that reads or merges them — import, edit, merge, vdir sync, feed refresh, invite — with no crash, and
/// nothing beyond 32 bits written back (issue 59: SEQUENCE 9223372036854775807 made `merge` trap on every later run).
final class IntegerEdgesCLITests: FeedServerTestCase {
    static let edges = [
        "2147483647", "2147483648", "-2147483648", "-2147483649", "9223372036854775807", "9223372036854775808",
        "-9223372036854775808", "-9223372036854775809", "99999999999999999999", "+2147483647", "+9223372036854775807",
        "-0", "+0", "0000000000000000000042", "-00000000002147483649", "18446744073709551616",
    ]

    /// The edges and `extra` random integers of 1 to 40 digits with a random sign.
    static func values(_ random: inout SeededGenerator, extra: Int) -> [String] {
        edges
            + (0..<extra).map { _ in
                let digits = (0..<Int.random(in: 1...40, using: &random)).map { _ in
                    String(Int.random(in: 0...9, using: &random))
                }
                return ["", "+", "-"].randomElement(using: &random)! + digits.joined()
            }
    }

    /// One event and one todo (with an alarm) per value, every INTEGER property set to it; `summary` tells runs apart.
    static func items(_ values: [String], summary: String, method: String? = nil) -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//edges//EN"] + (method.map { ["METHOD:" + $0] } ?? [])
        for (index, value) in values.enumerated() {
            lines += [
                "BEGIN:VEVENT", "UID:e\(index)@edges", "DTSTAMP:20261101T000000Z", "SEQUENCE:\(value)",
                "PRIORITY:\(value)", "DTSTART:20261201T\(String(format: "%02d", index % 24))0000Z", "DURATION:PT1H",
                "SUMMARY:\(summary) \(index)", "ORGANIZER:mailto:org@edges.example", "ATTENDEE:mailto:me@edges.example",
                "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT5M", "DESCRIPTION:x", "REPEAT:\(value)",
                "DURATION:PT1M", "END:VALARM", "END:VEVENT",
                "BEGIN:VTODO", "UID:t\(index)@edges", "DTSTAMP:20261101T000000Z", "SEQUENCE:\(value)",
                "PERCENT-COMPLETE:\(value)", "PRIORITY:\(value)", "SUMMARY:\(summary) todo \(index)", "END:VTODO",
            ]
        }
        return (lines + ["END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n"
    }

    func run(_ arguments: [String], stdin: Data? = nil) throws -> CLI.Run {
        let run = try CLI.run(arguments + ["--store", store], stdin: stdin, timeout: 120)
        XCTAssertTrue(
            [0, 1].contains(run.status), "icskit \(arguments.joined(separator: " ")): \(run.status)\n\(run.stderr)")
        XCTAssertFalse(run.stderr.contains("crashed"), run.stderr)
        return run
    }

    func write(_ text: String, _ name: String) throws -> String {
        let path = scratch.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Every INTEGER value the store holds, as exported.
    func exportedIntegers() throws -> [String] {
        try run(["export"]).stdout.split(separator: "\r\n").compactMap { line in
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, ["SEQUENCE", "PRIORITY", "PERCENT-COMPLETE", "REPEAT"].contains(parts[0]) else {
                return nil
            }
            return String(parts[1])
        }
    }

    func testIntegersAtTheEdgesThroughEveryCommand() throws {
        var (random, seed, count) = SeededGenerator.start(
            "integer edges", seedVariable: "ICSKIT_EDGES_SEED", countVariable: "ICSKIT_EDGES_COUNT", defaultCount: 16,
            unit: "random values beside the edges")
        let values = Self.values(&random, extra: count)
        let first = try write(Self.items(values, summary: "First"), "first.ics")
        _ = try run(["import", first, "--calendar", "Edges", "-q"])
        for index in values.indices.prefix(6) {
            _ = try run(["edit", "e\(index)@edges", "--location", "Room \(index)"])
        }
        _ = try run(["merge", try write(Self.items(values, summary: "Second"), "second.ics"), "--into", "Edges", "-q"])
        // The same items changed on both sides: the merge raises SEQUENCE above both.
        _ = try run(["merge", try write(Self.items(values, summary: "Third"), "third.ics"), "--into", "Edges", "-q"])

        let vdir = scratch.appendingPathComponent("vdir")
        _ = try run(["sync", "Edges", "--vdir", vdir.path])
        try Self.items(values, summary: "From the vdir").write(
            to: vdir.appendingPathComponent("edges.ics"), atomically: true, encoding: .utf8)
        _ = try run(["sync", "Edges"])

        try server.serve(Self.items(values, summary: "Feed"))
        _ = try run(["subscribe", server.feed("correct"), "--into", "Feed", "-q"])
        try server.serve(Self.items(values, summary: "Feed again"))
        _ = try run(["refresh", "Feed", "--force", "-q"])

        _ = try run(
            [
                "invite", try write(Self.items(values, summary: "Invited", method: "REQUEST"), "request.ics"), "--me",
                "me@edges.example",
            ])
        let replies = values.indices.map { index in
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//edges//EN\r\nMETHOD:REPLY\r\nBEGIN:VEVENT\r\nUID:e\(index)@edges\r\n"
                + "DTSTAMP:20261102T000000Z\r\nSEQUENCE:\(values[index])\r\nORGANIZER:mailto:org@edges.example\r\n"
                + "ATTENDEE;PARTSTAT=ACCEPTED:mailto:me@edges.example\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        }
        _ = try run(["invite", try write(replies.joined(), "replies.ics")])
        // Each command again, now that the store holds what the first runs wrote.
        _ = try run(["merge", first, "--into", "Edges", "-q"])
        _ = try run(["sync", "Edges"])
        _ = try run(["refresh", "Feed", "--force", "-q"])

        let written = try exportedIntegers()
        XCTAssertGreaterThan(written.count, values.count * 4, "seed \(seed)")
        for value in written {
            XCTAssertNotNil(Int32(value.hasPrefix("+") ? String(value.dropFirst()) : value), "seed \(seed): \(value)")
        }
        for file in try FileManager.default.contentsOfDirectory(atPath: vdir.path) where file.hasSuffix(".ics") {
            let text = try String(contentsOf: vdir.appendingPathComponent(file), encoding: .utf8)
            XCTAssertFalse(text.contains("9223372036854775807"), "seed \(seed): \(file)")
        }
    }
}
