import ArgumentParser
import CalendarModel
import CalendarStore
import Foundation

/// `icskit search TEXT`: the store's items whose text holds every word.
struct SearchCommand: ParsableCommand, ChecksWhatIsGiven {
    static let configuration = CommandConfiguration(
        commandName: "search", abstract: "Find items in the store by their words.",
        discussion: """
            Every word must appear, as a word or the start of one, in the summary, location, description, the \
            organizer's or an attendee's name or address, or a category; case and accents do not matter \
            ("cafe" finds "Café"). Without a window each matching item is listed once (a series at its first \
            start, ⟳ marked); with --from/--to, --today, --week or --month its instances in that window are, \
            as agenda lists them.

            Examples:
              icskit search dentist
              icskit search "budget review" --calendar Work --month this
              icskit search priya --component event,todo --json
            """)

    @Argument(help: "The words to look for.")
    var words: [String]

    @Option(help: "Only in this store calendar (repeat for several).", completion: CalendarCompletion.kind)
    var calendar: [String] = []

    @Option(
        name: .customLong("component"),
        help: ArgumentHelp("Which items: event, todo, journal, comma-separated. Default: all.", valueName: "KINDS"))
    var components: ComponentKinds?

    @OptionGroup var window: WindowOptions

    @Flag(help: "Print one JSON array.")
    var json = false

    @Flag(name: .customLong("no-ids"), help: "Leave out each line's handle (id:…).")
    var noIDs = false

    @OptionGroup var store: StoreOption

    func checkGiven() throws {
        guard words.contains(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) else {
            throw ValidationError("give at least one word to search for")
        }
    }

    func run() throws {
        let path = try store.resolvedPath()
        // The index is brought up to date as the search runs, which needs write access (one connection: opening
        // writes nothing itself); with no store yet there is nothing to find, and nothing is created.
        // A missing or empty file is no store yet: a search does not make it one.
        // A store that cannot be opened for writing is searched read-only, with its index as it stands.
        let opened =
            try (FileManager.default.size(path) > 0 ? try? store.open(.readWriteAlone) : nil) ?? store.open(.readOnly)
        for name in calendar { try CalendarFiles.requireCalendar(name, in: opened) }
        var query = SearchQuery(words.joined(separator: " "))
        query.calendars = calendar
        query.kinds = components?.kinds ?? []
        let hits: [SearchHit]
        do { hits = try opened.search(query) } catch { throw CommandFailure("search failed: " + ErrorText.line(error)) }
        let zone = try window.zone()
        if window.isGiven {
            try listInstances(of: hits, in: opened, zone: zone)
        } else {
            try list(hits, handles: noIDs ? [:] : opened.shortHandles(for: Set(hits.map(\.uid))), zone: zone)
        }
    }

    /// One line (or JSON object) per matching item.
    private func list(_ hits: [SearchHit], handles: [String: String], zone: ZoneClock) throws {
        if json {
            var writer = JSONWriter(pretty: true)
            writer.beginArray()
            for hit in hits {
                writer.beginObject()
                writer.key("uid"); writer.string(hit.uid)
                writer.key("recurrence_id"); hit.recurrenceID.isEmpty ? writer.null() : writer.string(hit.recurrenceID)
                writer.key("calendar"); writer.string(hit.calendar)
                writer.key("component"); writer.string(hit.kind.componentName)
                writer.key("summary"); hit.summary.map { writer.string($0) } ?? writer.null()
                writer.key("start"); start(of: hit, zone: zone).map { writer.string($0) } ?? writer.null()
                writer.key("recurring"); writer.bool(hit.isRecurring)
                writer.endObject()
            }
            writer.endArray()
            try Output.writeStandardOutput(writer.takeBytes() + [0x0A])
            return
        }
        guard !hits.isEmpty else {
            Output.print("no item holds \(words.joined(separator: " ").debugDescription)")
            return
        }
        let width = hits.map { (start(of: $0, zone: zone) ?? "").count }.max() ?? 0
        for hit in hits {
            let when = (start(of: hit, zone: zone) ?? "").padding(toLength: width, withPad: " ", startingAt: 0)
            let marks = hit.isRecurring ? " ⟳" : hit.recurrenceID.isEmpty ? "" : " ⟳ changed"
            let handle = handles[hit.uid].map { "  id:" + $0 } ?? ""
            Output.line("\(when)  \(hit.summary ?? "(no summary)")\(marks)  (\(hit.calendar))\(handle)")
        }
    }

    /// When an item starts (or is due) in the zone shown: a date alone for an all-day item, the wall-clock time as
    /// written for a floating one.
    private func start(of hit: SearchHit, zone: ZoneClock) -> String? {
        guard let seconds = hit.when else { return nil }
        if let value = hit.startValue, value.count >= 8, hit.startTZID == nil, !value.hasSuffix("Z") {
            let digits = Array(value.filter(\.isNumber))
            guard digits.count >= 8 else { return nil }
            let date = "\(String(digits[0..<4]))-\(String(digits[4..<6]))-\(String(digits[6..<8]))"
            guard digits.count >= 12 else { return date }
            return date + " \(String(digits[8..<10])):\(String(digits[10..<12]))"
        }
        return zone.wallClock(at: Date(timeIntervalSince1970: TimeInterval(seconds))).minuteText
    }

    /// The matching items' instances in the window, as `agenda` prints them.
    private func listInstances(of hits: [SearchHit], in store: CalendarStore, zone: ZoneClock) throws {
        let (from, to) = try window.window(in: zone)
        var matched: [String: Set<MergeKeyText>] = [:]
        for hit in hits { matched[hit.calendar, default: []].insert(MergeKeyText(hit.uid, hit.recurrenceID)) }
        var options = ExpansionOptions()
        options.components = components?.kinds ?? Set(ItemKind.allCases)
        options.viewerZoneName = zone.identifier
        var rows: [(occurrence: Occurrence, calendar: String)] = []
        for (name, keys) in matched.sorted(by: { $0.key < $1.key }) {
            let calendar = try store.loadItems(calendar: name, uids: Set(keys.map(\.uid)))
            let expansion = calendar.occurrences(
                from: zone.date(of: from), to: zone.date(of: to), options: options, file: store.path)
            for occurrence in expansion.occurrences {
                let key = MergeKeyText(
                    occurrence.core.uid ?? "", occurrence.core.recurrenceID?.date.icsValue ?? "")
                if keys.contains(key) { rows.append((occurrence, name)) }
            }
        }
        rows.sort { ($0.occurrence.startDate, $0.calendar) < ($1.occurrence.startDate, $1.calendar) }
        let format = InstanceFormat(zone: zone)
        if json {
            var writer = JSONWriter(pretty: true)
            writer.beginArray()
            for row in rows { format.write(row.occurrence, calendar: row.calendar, to: &writer) }
            writer.endArray()
            try Output.writeStandardOutput(writer.takeBytes() + [0x0A])
        } else {
            let uids = Set(rows.compactMap(\.occurrence.uid))
            format.printDays(
                ListedRows(rows: rows), from: from, to: to,
                handles: .byUID(noIDs ? [:] : try store.shortHandles(for: uids)))
        }
    }

    /// A UID and RECURRENCE-ID as the store keeps them.
    struct MergeKeyText: Hashable {
        let uid: String
        let recurrenceID: String
        init(_ uid: String, _ recurrenceID: String) { (self.uid, self.recurrenceID) = (uid, recurrenceID) }
    }
}
