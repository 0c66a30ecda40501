import CalendarModel
import CalendarStore
import Foundation
import ICSKitTestSupport
import XCTest

/// Every command after every other (issue 45): random sequences of the commands a person uses — add, edit (also
/// one instance), done, rm (also one instance), search, show, agenda, todo, remind, undo, import, merge, export,
/// calendars, invite and reply, sync with a vdir and with Radicale — run with the built binary and checked against
/// `CommandModel`. After every step: the exit status is the documented one, no library text reaches standard error,
/// `check-store` is clean, a search finds exactly the items whose text holds its word, every handle printed resolves
/// with `show`; every 25 steps the store's items equal the model's; every 50 steps and at the end `agenda` equals
/// recurring-ical-events' expansion of `export`.
///
/// Two runs of 1,000 steps each (two test methods, so that `make test`'s two workers can take one each), seeds
/// apart by one; `ICSKIT_SEQUENCE_SEED` replays a run, `ICSKIT_SEQUENCE_STEPS` sets each one's length;
/// `ICSKIT_SEQUENCE_RADICALE=0` leaves Radicale out (the long recorded runs of TESTING.md).
final class CommandSequenceCLITests: StoreCLITestCase {
    func testRandomCommandSequencesKeepTheModelAndEveryPromise() throws { try sequence(offset: 0) }

    func testASecondSequenceOfAnotherSeed() throws { try sequence(offset: 1) }

    func sequence(offset: UInt64) throws {
        var (generator, seed, steps) = SeededGenerator.start(
            "command sequences", seedVariable: "ICSKIT_SEQUENCE_SEED", countVariable: "ICSKIT_SEQUENCE_STEPS",
            defaultCount: 1_000, unit: "steps")
        if offset > 0 {
            seed += offset
            generator = SeededGenerator(seed: seed)
            print("command sequences: this run's seed is \(seed)")
        }
        let radicale = ProcessInfo.processInfo.environment["ICSKIT_SEQUENCE_RADICALE"] != "0"
        let run = try SequenceRun(test: self, random: generator, radicale: radicale, steps: steps)
        defer { run.stop() }
        for step in 0..<steps {
            let failures = testRun?.totalFailureCount ?? 0
            try run.step(step)
            if step % 25 == 24 { try run.compareItems() }
            if step % 50 == 49 || step == steps - 1 { try run.compareWithRecurringICalEvents() }
            if step % 1000 == 999 { print("command sequences: seed \(seed): \(step + 1) steps clean so far") }
            if (testRun?.totalFailureCount ?? 0) > failures {
                XCTFail(
                    "step \(step) of seed \(seed) (ICSKIT_SEQUENCE_SEED=\(seed) replays it); the last commands:\n"
                        + run.history.suffix(40).joined(separator: "\n"))
                return
            }
        }
        print("command sequences: \(steps) steps clean; \(run.tally.sorted { $0.key < $1.key })")
    }
}

/// One random run: the store, the model, the undo steps the model expects, and the files and partners it uses.
final class SequenceRun {
    let test: StoreCLITestCase
    var random: SeededGenerator
    var model = CommandModel()
    /// The model before each command the store can undo, newest last (as many as the store keeps).
    var undoable: [CommandModel] = []
    var history: [String] = []
    var tally: [String: Int] = [:]
    var counter = 0
    /// Handles the last listings printed, by UID.
    var handles: [String: String] = [:]
    let vdir: String
    var server: DAVServer?
    var bound: Set<String> = []
    let radicale: Bool
    let scratch: URL
    /// How many steps the run takes.
    let steps: Int

    static let words = ["tea", "budget", "piano", "river", "sprint", "garden", "dentist", "yoga", "kiosk", "lunar"]
    static let places = ["Harbour", "Attic", "Meadow", "Studio"]

    init(test: StoreCLITestCase, random: SeededGenerator, radicale: Bool, steps: Int) throws {
        self.test = test
        self.steps = steps
        self.random = random
        self.radicale = radicale
        scratch = try CLI.temporaryDirectory()
        vdir = scratch.appendingPathComponent("work-vdir").path
        try Self.club(["Yoga 1", "Yoga 2", "Kiosk 3"], days: [2, 3, 4]).write(
            to: scratch.appendingPathComponent("club.ics"), atomically: true, encoding: .utf8)
        try Self.club(["Yoga 1", "Garden 2", "Kiosk 3"], days: [2, 3, 5]).write(
            to: scratch.appendingPathComponent("club-changed.ics"), atomically: true, encoding: .utf8)
    }

    func stop() {
        server?.stop()
        try? FileManager.default.removeItem(at: scratch)
    }

    /// A club's three events (UIDs club-1…3@test), 18:00 on the days given after 2026-12-01.
    static func club(_ titles: [String], days: [Int]) -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//ICSKit tests//EN"]
        for (index, title) in titles.enumerated() {
            lines += [
                "BEGIN:VEVENT", "UID:club-\(index + 1)@test", "DTSTAMP:20261101T000000Z",
                "DTSTART:" + CommandModel.basic(days[index] * 1440 + 18 * 60), "DURATION:PT1H", "SUMMARY:\(title)",
                "END:VEVENT",
            ]
        }
        return (lines + ["END:VCALENDAR", ""]).joined(separator: "\r\n")
    }

    // MARK: Running

    /// Runs icskit on the run's store; `status` is the one expected (nil: any).
    @discardableResult
    func icskit(_ arguments: [String], status: Int32? = 0) throws -> CLI.Run {
        history.append("icskit " + arguments.map { $0.contains(" ") ? "'\($0)'" : $0 }.joined(separator: " "))
        let run = try CLI.run(
            arguments + ["--store", test.store], timeout: 120,
            environment: ["ICSKIT_PASSWORD": DAVServer.password, "NO_COLOR": "1"])
        if let status { XCTAssertEqual(run.status, status, "\(history.last!): \(run.stderr)") }
        FeaturesMeetCLITests.assertNoRawErrorText(run.stderr, history.last!)
        return run
    }

    func pick<T>(_ values: [T]) -> T? {
        values.isEmpty ? nil : values[Int.random(in: 0..<values.count, using: &random)]
    }

    func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

    /// The newest undo step's id, read from the store file.
    func newestStep() throws -> Int64? {
        guard FileManager.default.fileExists(atPath: test.store) else { return nil }
        return try CalendarStore(path: test.store, access: .readOnly).undoSteps().first?.id
    }

    /// Runs a command that changes the store as the model says (`change`), or (`observed`) one whose result the
    /// model takes from the store afterwards; either way its undo step is expected when the store made one.
    func changing(
        _ arguments: [String], observed calendars: [String] = [], _ change: (inout CommandModel) -> Void = { _ in }
    ) throws -> CLI.Run {
        try changing(arguments, observed: calendars) { model, _ in change(&model) }
    }

    func changing(
        _ arguments: [String], observed calendars: [String] = [], _ change: (inout CommandModel, CLI.Run) -> Void
    ) throws -> CLI.Run {
        let before = model, stepBefore = try newestStep()
        let run = try icskit(arguments)
        guard run.status == 0 else { return run }
        change(&model, run)
        for calendar in calendars { try observe(calendar) }
        if try newestStep() != stepBefore {
            undoable.append(before)
            if undoable.count > 20 { undoable.removeFirst() }
        }
        return run
    }

    /// The model's items of a calendar as the store holds them (for what merges and invitations decide).
    func observe(_ calendar: String) throws {
        let export = try icskit(["export", "--calendar", calendar], status: nil)
        model.items = model.items.filter { $0.key.calendar != calendar }
        guard export.status == 0 else { return }
        for item in CommandModel.items(fromExport: export.stdout, calendar: calendar) { model.put(item) }
    }

    func step(_ index: Int) throws {
        let kinds: [(String, Int)] = [
            ("add event", 14), ("add todo", 6), ("edit", 10), ("edit instance", 5), ("edit start", 3), ("done", 4),
            ("rm", 4), ("rm instance", 4), ("search", 8), ("show", 4), ("agenda", 8), ("todo", 3), ("remind", 3),
            ("undo", 5), ("import", 2), ("merge", 2), ("export", 2), ("calendars", 3), ("invite", 2),
            ("sync vdir", 3), ("sync radicale", radicale ? 1 : 0), ("mistake", 2),
        ]
        var roll = Int.random(in: 0..<kinds.map(\.1).reduce(0, +), using: &random)
        let kind = kinds.first {
            roll -= $0.1; return roll < 0
        }!.0
        tally[kind, default: 0] += 1
        let run = try perform(kind)
        try checkAfter(run, step: index)
    }

    // MARK: After every step

    /// The store's integrity and a search of a random word, through the calls `check-store` and `search` make
    /// (in this process: a process each would double the run's time; every tenth step runs `check-store` itself,
    /// and `search` is one of the steps), then every handle the step printed.
    func checkAfter(_ run: CLI.Run?, step: Int) throws {
        let word = pick(Self.words + Self.places.map { $0.lowercased() })!
        history.append("(check-store; search \(word))")
        if FileManager.default.fileExists(atPath: test.store) {
            let store = try CalendarStore(path: test.store)
            XCTAssertEqual(try store.integrityCheck(), ["ok"], "check-store")
            let found = Set(try store.search(SearchQuery(word)).map { [$0.uid, $0.recurrenceID] })
            XCTAssertEqual(found, model.search(word), "search \(word)")
        }
        if step % 10 == 0 {
            let check = try icskit(["check-store"])
            XCTAssertTrue(check.stdout.contains("integrity: ok"), check.stdout)
        }
        // Every handle printed resolves.
        guard let run else { return }
        let printed = Set(
            run.stdout.components(separatedBy: "id:").dropFirst().map { String($0.prefix { !$0.isWhitespace }) })
        for handle in printed.sorted().prefix(4) { try icskit(["show", "id:" + handle]) }
    }
}
