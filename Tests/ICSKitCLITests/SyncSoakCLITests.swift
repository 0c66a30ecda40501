import Foundation
import ICSKitTestSupport
import XCTest

/// Two clients on one collection, round after round, against the real Radicale and Xandikos: each round python
/// caldav changes some fields of some items (SUMMARY, DESCRIPTION) and `icskit edit` changes others of the same
/// items here (LOCATION, PRIORITY, the start); some syncs are killed (SIGKILL) at a random moment and run again.
/// After every round the server and the store hold the same items, and every field each side set holds its value.
///
/// `ICSKIT_SOAK_ROUNDS` sets the rounds per server (100 by default); `ICSKIT_SOAK_SEED` the seed, which is printed.
final class SyncSoakCLITests: XCTestCase {
    var scratch: URL!
    var store: String { scratch.appendingPathComponent("store.sqlite").path }

    override func setUpWithError() throws { scratch = try CLI.temporaryDirectory() }
    override func tearDownWithError() throws { if let scratch { try? FileManager.default.removeItem(at: scratch) } }

    func testRadicale() throws { try soak(.radicale) }
    func testXandikos() throws { try soak(.xandikos) }

    func icskit(_ arguments: [String], timeout: TimeInterval = 120) throws -> CLI.Run {
        try CLI.run(
            arguments + ["--store", store], timeout: timeout, environment: ["ICSKIT_PASSWORD": DAVServer.password])
    }

    static let fields = ["SUMMARY", "DESCRIPTION", "LOCATION", "PRIORITY", "DTSTART"]

    func soak(_ kind: DAVServer.Kind) throws {
        let environment = ProcessInfo.processInfo.environment
        let rounds = environment["ICSKIT_SOAK_ROUNDS"].flatMap(Int.init) ?? 100
        let seed = SeededGenerator.seed(from: "ICSKIT_SOAK_SEED")
        print("\(kind.rawValue) soak: \(rounds) rounds, seed \(seed) (ICSKIT_SOAK_SEED=\(seed) replays the choices)")
        var random = SeededGenerator(seed: seed)
        let server = try DAVServer(kind, folder: scratch)
        defer { server.stop() }

        let uids = (0..<8).map { "soak-\($0)@test" }
        var calendar = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//soak//EN\r\n"
        for (index, uid) in uids.enumerated() {
            calendar +=
                "BEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTAMP:20261101T000000Z\r\nDTSTART:202612\(10 + index)T090000Z\r\n"
                + "DURATION:PT1H\r\nSUMMARY:Item \(index)\r\nEND:VEVENT\r\n"
        }
        let file = scratch.appendingPathComponent("soak.ics")
        try (calendar + "END:VCALENDAR\r\n").write(to: file, atomically: true, encoding: .utf8)
        XCTAssertEqual(try icskit(["import", file.path, "--calendar", "Work", "-q"]).status, 0)
        let bind = try icskit(["sync", "Work", "--caldav", server.collection, "--user", DAVServer.user, "-q"])
        XCTAssertEqual(bind.status, 0, bind.stderr)

        let peer = try SoakPeer(collection: server.collection)
        defer { peer.stop() }
        // What each side set last, field by field: both sides must end up holding it.
        var expected: [String: [String: String]] = [:]
        var killed = 0, merged = 0
        for round in 0..<rounds {
            for uid in uids.shuffled(using: &random).prefix(Int.random(in: 1...3, using: &random)) {
                let theirs = ["SUMMARY", "DESCRIPTION"].randomElement(using: &random)!
                let value = "P\(round) \(theirs.lowercased())"
                try peer.set(uid, theirs, value)
                expected[uid, default: [:]][theirs] = value
                var edit = ["edit", uid]
                switch Int.random(in: 0..<3, using: &random) {
                case 0:
                    edit += ["--location", "Room \(round)"]
                    expected[uid, default: [:]]["LOCATION"] = "Room \(round)"
                case 1:
                    let priority = Int.random(in: 1...9, using: &random)
                    edit += ["--priority", String(priority)]
                    expected[uid, default: [:]]["PRIORITY"] = String(priority)
                default:
                    let hour = Int.random(in: 8...17, using: &random)
                    edit += ["--start", String(format: "2026-12-20 %02d:00", hour), "--tz", "UTC"]
                    expected[uid, default: [:]]["DTSTART"] = String(format: "20261220T%02d0000Z", hour)
                }
                let edited = try icskit(edit)
                XCTAssertEqual(edited.status, 0, edited.stderr)
            }
            if Int.random(in: 0..<3, using: &random) == 0 {
                let interrupted = try icskit(["sync", "-q"], timeout: Double.random(in: 0.01...0.2, using: &random))
                if interrupted.timedOut { killed += 1 }
            }
            let sync = try icskit(["sync", "--json"])
            XCTAssertEqual(sync.status, 0, "round \(round): \(sync.stdout) \(sync.stderr)")
            merged += ((try CLI.syncReport(sync)["pulled"] as? [String: Any])?["merged"] as? Int) ?? 0
            let there = try peer.dump()
            let here = try storedFields()
            guard there == here else {
                return XCTFail("round \(round) (seed \(seed)): the server holds \(there)\nthe store holds \(here)")
            }
            for (uid, values) in expected {
                for (field, value) in values where here[uid]?[field] != value {
                    return XCTFail(
                        "round \(round) (seed \(seed)): \(uid) \(field) should be \(value), is \(here[uid]?[field] ?? "absent")"
                    )
                }
            }
        }
        print(
            "\(kind.rawValue) soak: \(rounds) rounds, \(killed) syncs killed, \(merged) items merged field by field, "
                + "both sides equal after each")
        // Most rounds change the same items on both sides; a sync killed after its pull leaves less to merge.
        XCTAssertGreaterThan(merged, rounds / 2)
        XCTAssertEqual(try icskit(["check-store"]).status, 0)
    }

    /// The store's events, field by field, as the peer dumps the server's.
    func storedFields() throws -> [String: [String: String]] {
        let run = try icskit(["export", "--calendar", "Work"])
        XCTAssertEqual(run.status, 0, run.stderr)
        var items: [String: [String: String]] = [:]
        for block in run.stdout.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "BEGIN:VEVENT")
            .dropFirst()
        {
            var values: [String: String] = [:]
            for line in block.components(separatedBy: "\r\n") {
                guard let colon = line.firstIndex(of: ":") else { continue }
                let name = String(line[..<colon].prefix { $0 != ";" })
                if Self.fields.contains(name) || name == "UID" {
                    values[name] = String(line[line.index(after: colon)...])
                }
            }
            if let uid = values.removeValue(forKey: "UID") { items[uid] = values }
        }
        return items
    }
}

/// scripts/caldav_soak_peer.py, kept running: one command a line, one answer.
final class SoakPeer {
    let process = Process()
    let input = Pipe(), output = Pipe()
    var buffer = Data()

    init(collection: String) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "timeout", "900", CLI.pythonExecutable,
            CLI.package.appendingPathComponent("scripts/caldav_soak_peer.py").path, collection, DAVServer.user,
            DAVServer.password,
        ]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    func line() throws -> String {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                return line
            }
            let more = output.fileHandleForReading.availableData
            if more.isEmpty {
                throw NSError(domain: "SoakPeer", code: 1, userInfo: [NSLocalizedDescriptionKey: "the peer ended"])
            }
            buffer.append(more)
        }
    }

    func send(_ command: String) { input.fileHandleForWriting.write(Data((command + "\n").utf8)) }

    func set(_ uid: String, _ field: String, _ value: String) throws {
        send("set \(uid) \(field) \(value)")
        XCTAssertEqual(try line(), "ok")
    }

    /// UID → field → value, of every event on the server.
    func dump() throws -> [String: [String: String]] {
        send("dump")
        let json = try line()
        XCTAssertEqual(try line(), "end")
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: [String: Any]])
        return object.mapValues { $0.compactMapValues { $0 as? String } }
    }
}
