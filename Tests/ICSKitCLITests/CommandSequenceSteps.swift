import CalendarModel
import Foundation
import ICSKitTestSupport
import XCTest

/// The commands of `CommandSequenceCLITests`, each with what the model expects of it.
extension SequenceRun {
    var home: String { model.calendarNames.contains("House") ? "House" : "Home" }

    /// A title no other item has: a word of `words` and a number.
    func title() -> String {
        counter += 1
        return pick(Self.words)!.capitalized + " \(counter)"
    }

    /// An item's handle as a person gives it: its UID, or the short handle a listing printed.
    func handle(_ item: CommandModel.Item) -> String {
        if let short = handles[item.uid], chance(50) { return "id:" + short }
        return item.uid
    }

    func perform(_ kind: String) throws -> CLI.Run? {
        // In an order a seed decides (UIDs `add` makes are random; titles are the run's own).
        let all = model.items.values.sorted {
            ($0.calendar, $0.summary, $0.start, $0.uid) < ($1.calendar, $1.summary, $1.start, $1.uid)
        }
        let series = all.filter { $0.isSeries && $0.excluded.count < $0.count! }
        switch kind {
        case "add event", "add todo": return try add(todo: kind == "add todo")
        case "edit":
            guard let item = pick(all) else { return nil }
            if chance(50) {
                let summary = title()
                return try changing(["edit", handle(item), "--summary", summary]) {
                    $0.update(item) { $0.summary = summary }
                }
            }
            let place = pick(Self.places)!
            return try changing(["edit", handle(item), "--location", place]) { $0.update(item) { $0.location = place } }
        case "edit instance":
            guard let item = pick(series), let index = pick(item.instances) else { return nil }
            let summary = title()
            return try changing([
                "edit", handle(item), "--instance", CommandModel.day(item.start + index * 1440), "--summary", summary,
                "--tz", "UTC",
            ]) { model in
                // A changed instance keeps its own place (none included); a new one takes the series'.
                model.update(item) {
                    let place = $0.overrides[index].map(\.location) ?? $0.location
                    $0.overrides[index] = CommandModel.Override(summary: summary, location: place)
                }
            }
        case "edit start":
            guard let item = pick(all.filter { !$0.isSeries && !$0.isTodo }) else { return nil }
            let start =
                Int.random(in: 0..<14, using: &random) * 1440 + 8 * 60 + 30 * Int.random(in: 0..<20, using: &random)
            return try changing(["edit", handle(item), "--start", CommandModel.typed(start), "--tz", "UTC"]) {
                $0.update(item) { $0.start = start }
            }
        case "done":
            guard let item = pick(all.filter { $0.isTodo && !$0.completed && !$0.isSeries }) else { return nil }
            return try changing(["done", handle(item)]) { $0.update(item) { $0.completed = true } }
        case "rm":
            guard let item = pick(all) else { return nil }
            return try changing(["rm", handle(item), "--yes"]) { model in
                model.items = model.items.filter { $0.value.uid != item.uid }
            }
        case "rm instance":
            guard let item = pick(series), let index = pick(item.instances) else { return nil }
            return try changing([
                "rm", handle(item), "--instance", CommandModel.day(item.start + index * 1440), "--tz", "UTC",
            ]) { model in
                model.update(item) {
                    $0.excluded.insert(index)
                    $0.overrides[index] = nil
                }
            }
        case "search":
            let word = pick(Self.words + Self.places.map { $0.lowercased() })!
            guard chance(50) else { return try icskit(["search", word, "--tz", "UTC"]) }
            let run = try icskit(["search", word, "--json"])
            let rows = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]] ?? []
            let found = Set(rows.map { [$0["uid"] as? String ?? "", $0["recurrence_id"] as? String ?? ""] })
            XCTAssertEqual(found, model.search(word), "icskit search \(word)")
            return nil
        case "show":
            guard let item = pick(all) else { return nil }
            let run = try icskit(["show", handle(item), "--tz", "UTC"])
            XCTAssertEqual(run.stdout.split(separator: "\n").first.map(String.init), item.summary, run.stdout)
            return run
        case "agenda": return try agenda()
        case "todo":
            let run = try icskit(["todo", "--json", "--tz", "UTC"])
            let rows = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]] ?? []
            let open = rows.filter { $0["completed"] as? Bool == false }.compactMap { $0["summary"] as? String }
            XCTAssertEqual(open.sorted(), model.openTodos, "todo")
            return nil
        case "remind":
            let now = Int.random(in: 0..<(16 * 1440), using: &random)
            let run = try icskit(["remind", "--within", "1d", "--now", CommandModel.iso(now), "--tz", "UTC"])
            let lines = run.stdout.split(separator: "\n").filter { $0.hasPrefix("2026-") || $0.hasPrefix("2027-") }
            XCTAssertEqual(lines.count, model.reminders(now: now), "remind at \(CommandModel.iso(now)): \(run.stdout)")
            return run
        case "undo":
            let run = try icskit(["undo"])
            if let before = undoable.popLast() {
                XCTAssertTrue(run.stdout.hasPrefix("undone: "), run.stdout)
                // A calendar bound to a sync partner stays, so that the next sync carries the undo there.
                model = before
                model.calendarNames.formUnion(bound)
            } else {
                XCTAssertEqual(run.stdout, "nothing to undo\n")
            }
            return run
        case "import":
            return try changing(
                ["import", scratch.appendingPathComponent("club.ics").path, "--calendar", "Club", "-q"],
                observed: ["Club"]
            ) { $0.calendarNames.insert("Club") }
        case "merge":
            guard model.calendarNames.contains("Club") else { return nil }
            return try changing(
                ["merge", scratch.appendingPathComponent("club-changed.ics").path, "--into", "Club", "-q"],
                observed: ["Club"])
        case "export":
            guard let calendar = pick(model.calendarNames.sorted()) else { return nil }
            try compareItems(of: calendar)
            return nil
        case "calendars": return try calendars()
        case "invite": return try invite()
        case "sync vdir":
            let run = try changing(["sync", "Work", "--vdir", vdir]) { $0.calendarNames.insert("Work") }
            if run.status == 0 { bound.insert("Work") }
            let files = try FileManager.default.contentsOfDirectory(atPath: vdir).filter { $0.hasSuffix(".ics") }
            XCTAssertEqual(files.count, Set(model.items.values.filter { $0.calendar == "Work" }.map(\.uid)).count)
            return run
        case "sync radicale":
            // A life as long as the run may take (half a second a step), bounded all the same.
            if server == nil { server = try DAVServer(.radicale, folder: scratch, lifetime: max(600, steps / 2)) }
            let run = try changing(["sync", "Personal", "--caldav", server!.collection, "--user", DAVServer.user]) {
                $0.calendarNames.insert("Personal")
            }
            if run.status == 0 { bound.insert("Personal") }
            return run
        default:  // a mistake: the documented status, and nothing changed
            if let item = pick(all), chance(50) { return try icskit(["edit", item.uid], status: 2) }
            return try icskit(["show", "no-such-item-\(counter)"], status: 1)
        }
    }

    func add(todo: Bool) throws -> CLI.Run {
        let summary = title()
        let start = Int.random(in: 0..<14, using: &random) * 1440 + 8 * 60 + 30 * Int.random(in: 0..<20, using: &random)
        let calendar = pick(["Personal", "Work", home])!
        var item = CommandModel.Item(
            uid: "", calendar: calendar, isTodo: todo, summary: summary, location: nil, start: start, count: nil)
        var arguments = [
            "add", todo ? "todo" : "event", summary, todo ? "--due" : "--start", CommandModel.typed(start),
        ]
        arguments += ["--tz", "UTC", "--calendar", calendar]
        if !todo, chance(40) {
            item.count = Int.random(in: 2...5, using: &random)
            arguments += ["--repeat", "daily", "--count", String(item.count!)]
        }
        if chance(30) {
            item.hasAlarm = true
            arguments += ["--alarm", "-15m"]
        }
        if chance(40) {
            item.location = pick(Self.places)
            arguments += ["--location", item.location!]
        }
        return try changing(arguments) { model, run in
            item.uid = run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            model.put(item)
            model.calendarNames.insert(calendar)
        }
    }

    func agenda() throws -> CLI.Run? {
        let from = Int.random(in: 0..<14, using: &random), days = Int.random(in: 1...7, using: &random)
        let window = ["agenda", "--from", CommandModel.day(from * 1440), "--to", "+\(days)d", "--tz", "UTC"]
        guard chance(50) else {
            let run = try icskit(window)
            for line in run.stdout.split(separator: "\n") {
                guard let range = line.range(of: "id:") else { continue }
                let short = String(line[range.upperBound...].prefix { !$0.isWhitespace })
                if let item = model.items.values.first(where: { $0.uid.hasPrefix(short) }) {
                    handles[item.uid] = short
                }
            }
            return run
        }
        let run = try icskit(window + ["--json", "--component", "event"])
        let rows = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]] ?? []
        let listed = rows.map {
            CommandModel.Instance(
                uid: $0["uid"] as? String ?? "", start: $0["start"] as? String ?? "",
                summary: $0["summary"] as? String ?? "", location: $0["location"] as? String)
        }.sorted()
        XCTAssertEqual(listed, model.agenda(from: from * 1440, to: (from + days) * 1440), window.joined(separator: " "))
        return nil
    }

    func calendars() throws -> CLI.Run? {
        let names = model.calendarNames.sorted()
        switch Int.random(in: 0..<3, using: &random) {
        case 0:
            guard let name = pick(names) else { return nil }
            return try changing(["calendars", name, "--set-color", pick(["#3366FF", "#E15759", "none"])!])
        case 1:
            guard names.contains(home) else { return nil }
            let from = home, to = home == "Home" ? "House" : "Home"
            return try changing(["calendars", from, "--rename", to]) { model in
                for (key, item) in model.items where key.calendar == from {
                    model.items[key] = nil
                    var moved = item
                    moved.calendar = to
                    model.put(moved)
                }
                model.calendarNames.remove(from)
                model.calendarNames.insert(to)
            }
        default:
            guard names.contains(home) else { return nil }
            let gone = home
            return try changing(["calendars", gone, "--remove", "--yes"]) { model in
                model.items = model.items.filter { $0.key.calendar != gone }
                model.calendarNames.remove(gone)
            }
        }
    }

    func invite() throws -> CLI.Run? {
        let me = ["--me", "b@example.com"]
        let conference = "calsrv.example.com-873970198738777@example.com"
        if model.items.values.contains(where: { $0.uid == conference }), chance(60) {
            let answer = pick(["--accept", "--decline", "--tentative"])!
            return try changing(["reply", conference, answer] + me, observed: ["Invitations"])
        }
        let file = CLI.fixture("itip/" + pick(["group-request.ics", "group-update.ics"])!)
        return try changing(["invite", file] + me, observed: ["Invitations"]) { $0.calendarNames.insert("Invitations") }
    }

    // MARK: Comparisons

    /// The store's items of every calendar equal the model's, and so do its calendars.
    func compareItems() throws {
        let listed = try icskit(["calendars", "--json"])
        let rows = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]] ?? []
        XCTAssertEqual(Set(rows.compactMap { $0["name"] as? String }), model.calendarNames, "calendars")
        for calendar in model.calendarNames.sorted() { try compareItems(of: calendar) }
    }

    func compareItems(of calendar: String) throws {
        let export = try icskit(["export", "--calendar", calendar])
        let stored = CommandModel.items(fromExport: export.stdout, calendar: calendar).sorted { $0.uid < $1.uid }
        let expected = model.items.values.filter { $0.calendar == calendar }.sorted { $0.uid < $1.uid }
        XCTAssertEqual(stored, expected, "the items of \(calendar)")
    }

    /// `agenda` of the store equals recurring-ical-events' expansion of what `export` writes.
    func compareWithRecurringICalEvents() throws {
        let file = scratch.appendingPathComponent("all.ics").path
        let export = try icskit(["export", "-o", file])
        guard export.status == 0 else { return }
        let run = try icskit([
            "agenda", "--from", "2026-12-01", "--to", "2026-12-22", "--tz", "UTC", "--json", "-q", "--component",
            "event",
        ])
        let rows = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]] ?? []
        let ours = rows.map { "\($0["component"]!) \($0["start"]!) \($0["summary"] as? String ?? "")" }.sorted()
        XCTAssertEqual(ours, try CLI.recurringICalEventsLines(file, from: "2026-12-01", to: "2026-12-22"))
    }
}

extension CommandModel.Item {
    /// The instances not taken out, by index.
    var instances: [Int] { (0..<(count ?? 1)).filter { !excluded.contains($0) } }
}

extension CommandModel {
    /// Changes every copy of an item's UID (one, as the run makes them).
    mutating func update(_ item: Item, _ change: (inout Item) -> Void) {
        for (key, value) in items where value.uid == item.uid {
            var changed = value
            change(&changed)
            items[key] = changed
        }
    }
}
