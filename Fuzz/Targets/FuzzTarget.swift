import CalendarMerge
import CalendarModel
import CalendarServe
import CalendarStore
import Foundation

/// The readers ICSKit exposes to hostile input, each as one function of a byte string that also checks what must
/// hold of any input: the run never crashes, never hangs, and everything ICSKit writes reads back in a strict
/// reader of its format. A violated check traps, which libFuzzer reports as a finding (the same as a crash).
///
/// The libFuzzer binary (`Fuzz/Driver`, built by `make fuzz`) calls these; the test suite runs every seed and
/// every regression input under `Fixtures/fuzz-regressions/<target>/` through them too.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// The content-line scanner and the model reader, then every writer; and the same input read in parts on
    /// several threads (as large files are) and streamed from a file a component at a time (as `convert` and
    /// `validate` read files) must read and write exactly as in one piece.
    case ics
    /// The jCal reader (strict JSON), then the writers.
    case jcal
    /// The JSCalendar reader (strict JSON, RFC 8984 and 2.0 draft names, patches), then the writers; what it reads
    /// written as JSCalendar must read back as the same components.
    case jscalendar
    /// The xCal reader (strict XML), then the writers.
    case xcal
    /// The CSV reader, then the writers.
    case csv
    /// The RRULE parser and the expansion of one bounded window.
    case rrule
    /// An import of one file into an in-memory store, twice, and a merge of it.
    case store
    /// A mail message's calendar parts (multipart nesting, base64, quoted-printable, charsets), read as iCalendar,
    /// then the writers.
    case mime
    /// A request head to `icskit serve` (its target, query, If-None-Match, If-Modified-Since, Accept-Encoding) and
    /// the answer: one of the statuses the server gives, the feed only for the share's own token.
    case serve

    public func run(_ bytes: [UInt8]) {
        switch self {
        case .ics:
            let whole = ICS.read(bytes, file: "fuzz.ics", splitting: nil)
            Self.checkWriters(whole)
            let parts = ICS.read(bytes, file: "fuzz.ics", splitting: (minimumBytes: 0, pieces: 3))
            Self.check(
                parts.components == whole.components && parts.calendars == whole.calendars
                    && parts.diagnostics == whole.diagnostics && parts.isTruncated == whole.isTruncated,
                "reading in parts differs from reading in one piece")
            Self.checkStreaming(bytes, whole)
            Self.checkLeavingOut(bytes, whole)
        case .jcal: Self.checkWriters(CalendarFormat.jcal.read(bytes, file: "fuzz.json"))
        case .jscalendar:
            let read = CalendarFormat.jscalendar.read(bytes, file: "fuzz.json")
            Self.checkWriters(read)
            Self.checkJSCalendar(read.calendars)
            Self.checkJSCalendarStreaming(bytes, read)
        case .xcal: Self.checkWriters(CalendarFormat.xcal.read(bytes, file: "fuzz.xml"))
        case .csv: Self.checkWriters(CSVCalendar.read(bytes, file: "fuzz.csv"))
        case .rrule: Self.expandRule(bytes)
        case .store: Self.importTwice(bytes)
        case .mime:
            _ = MIMEMessage.calendarParts(bytes)
            Self.checkWriters(CalendarFormat.ics.read(bytes, file: "fuzz.eml"))
        case .serve: Self.answerRequest(bytes)
        }
    }

    /// The input in a temporary file of this process (the caller removes it); nil, said, when it cannot be written.
    static func temporaryFile(_ bytes: [UInt8], suffix: String) -> String? {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("icskit-fuzz-\(getpid()).\(suffix)")
            .path
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            check(false, "cannot write \(path)")
            return nil
        }
        return path
    }

    /// A Group read an entry at a time (`JSCalendarStreamRead`) writes the bytes and says the diagnostics the whole
    /// reader gives, or falls back to it.
    static func checkJSCalendarStreaming(_ bytes: [UInt8], _ whole: ICS.ReadResult) {
        guard let path = temporaryFile(bytes, suffix: "json") else { return }
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = CalendarStreamWriter(format: .ics)!
        var (written, calendar, index) = ([UInt8](), ICalendar(), 0)
        do {
            let diagnostics = try JSCalendarStreamRead.read(
                contentsOf: path, file: "fuzz.json",
                opening: {
                    calendar = $0
                    written += writer.opening($0)
                },
                run: {
                    written += writer.run($0, index: index)
                    index += 1
                })
            written += writer.closing(calendar)
            check(
                diagnostics == whole.diagnostics && written == ICS.write(whole.calendars),
                "reading JSCalendar an entry at a time differs from reading it whole")
        } catch is JSCalendarStreamRead.Fallback {
            return
        } catch {
            check(false, "reading JSCalendar an entry at a time threw \(error)")
        }
    }

    /// JSCalendar written of what was read, in both vocabularies, reads back into the same number of components.
    static func checkJSCalendar(_ calendars: [ICalendar]) {
        guard !calendars.isEmpty else { return }
        for version in [JSCalendarVersion.rfc8984, .draft2] {
            let json = CalendarFormat.jscalendar.write(calendars, csv: CSVOptions(), jscalendar: version)
            let again = CalendarFormat.jscalendar.read(json, file: nil)
            check(!again.calendars.isEmpty, "JSCalendar output does not read back")
            check(
                componentCounts(again.calendars) == componentCounts(calendars),
                "JSCalendar output reads back into other components")
        }
    }

    /// Every format ICSKit writes reads back in its strict reader, and iCalendar output reads back into the same
    /// components.
    static func checkWriters(_ result: ICS.ReadResult) {
        let calendars = result.calendars
        let ics = ICS.write(calendars)
        let again = ICS.read(ics)
        check(componentCounts(again.calendars) == componentCounts(calendars), "iCalendar output reads back differently")
        let json = CalendarFormat.jcal.write(calendars)
        check((try? JSONValue.parse(json)) != nil, "jCal output is not valid JSON")
        if !calendars.isEmpty {
            check((try? JCalReader.read(json)) != nil, "jCal output does not read back as jCal")
        }
        let xml = CalendarFormat.xcal.write(calendars)
        check((try? XCalReader.read(xml)) != nil, "xCal output does not read back as xCal")
        let csv = CSVCalendar.write(calendars).text
        _ = CSVCalendar.read(Array(csv.utf8), file: nil)
        // Time: zones normalised, `--repair`, and a month of instances (the rrule target expands at length).
        for calendar in calendars.prefix(2) {
            _ = calendar.normalizingTimeZones()
            _ = calendar.repairedForPeers()
            var options = ExpansionOptions()
            options.components = Set(ItemKind.allCases)
            options.limitPerSeries = 200
            options.budget = InstanceBudget(limit: 500)
            _ = calendar.occurrences(
                from: Date(timeIntervalSince1970: 1_767_225_600),  // 2026-01-01
                to: Date(timeIntervalSince1970: 1_769_904_000), options: options)
        }
    }

    /// The first line is an RRULE value; the next bytes choose DTSTART's form and zone. The instances of one
    /// window come out sorted, inside it, and within the budget.
    static func expandRule(_ bytes: [UInt8]) {
        let newline = bytes.firstIndex(of: 0x0A) ?? bytes.count
        let rule = String(decoding: bytes[..<newline], as: UTF8.self)
        let selector = newline + 1 < bytes.count ? Int(bytes[newline + 1]) : 0
        guard case .success(let parsed) = RecurrenceRule.parse(rule) else { return }
        let forms = [
            "DTSTART:20260105T093000Z", "DTSTART:20260105T093000", "DTSTART;VALUE=DATE:20260105",
            "DTSTART;TZID=Europe/Berlin:20260329T023000", "DTSTART;TZID=America/New_York:20261101T013000",
        ]
        let start = forms[selector % forms.count]
        let text =
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:fuzz\r\nBEGIN:VEVENT\r\nUID:fuzz\r\nDTSTAMP:20260101T000000Z"
            + "\r\n\(start)\r\nDURATION:PT1H\r\nRRULE:\(parsed.icsValue)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        guard let calendar = ICS.read(Array(text.utf8)).calendars.first else { return }
        var options = ExpansionOptions()
        options.limitPerSeries = 5_000
        options.budget = InstanceBudget(limit: 5_000)
        let from = Date(timeIntervalSince1970: 1_767_225_600), to = Date(timeIntervalSince1970: 1_830_297_600)
        let instances = calendar.occurrences(from: from, to: to, options: options).occurrences
        check(instances.count <= 5_000, "more instances than the budget")
        check(zip(instances, instances.dropFirst()).allSatisfy { $0.startDate <= $1.startDate }, "instances unsorted")
        check(instances.allSatisfy { $0.endDate > from || $0.startDate >= from }, "an instance before the window")
        check(instances.allSatisfy { $0.startDate < to }, "an instance after the window")
        if let date = calendar.events.first?.start {
            _ = parsed.instances(from: date, limit: 500)
        }
    }

    /// Importing the same file twice changes nothing the second time; merging it twice likewise.
    static func importTwice(_ bytes: [UInt8]) {
        let read = ICS.read(bytes, file: "fuzz.ics")
        guard let store = try? CalendarStore.inMemory() else { return check(false, "no in-memory store") }
        do {
            _ = try store.importCalendars(read.calendars, into: "Fuzz", file: "fuzz.ics")
            let again = try store.importCalendars(read.calendars, into: "Fuzz", file: "fuzz.ics")
            check(again.added == 0 && again.updated == 0, "a second import of the same file changed the store")
            _ = try store.loadCalendars()
            var options = MergeOptions()
            options.isTruncated = read.isTruncated
            _ = try CalendarMerger.merge(
                read.calendars, into: "Merged", source: "fuzz", storage: store, options: options)
            let second = try CalendarMerger.merge(
                read.calendars, into: "Merged", source: "fuzz", storage: store,
                options: options)
            check(!second.applied, "a second merge of the same file changed the store")
            // Reading less (what the base knows is left out of decoding) decides what reading all decides.
            _ = try CalendarMerger.merge(
                icsBytes: bytes, file: "fuzz.ics", into: "Less", source: "fuzz", storage: store, options: options)
            let less = try CalendarMerger.merge(
                icsBytes: bytes, file: "fuzz.ics", into: "Less", source: "fuzz", storage: store, options: options)
            check(less.result.actions == second.actions, "a merge reading less decided otherwise than one reading all")
            check(try store.integrityCheck() == ["ok"], "the store fails its integrity check")
        } catch is MergeRefusal {
            // A guard refusing is an answer, not a finding.
        } catch {
            check(false, "the store failed: \(error)")
        }
    }

    /// Streams the input from a temporary file, each component a run of its own: either it is left to the
    /// whole-file reading, or it gives the same calendar, diagnostics and iCalendar bytes.
    static func checkStreaming(_ bytes: [UInt8], _ whole: ICS.ReadResult) {
        guard let path = temporaryFile(bytes, suffix: "ics") else { return }
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = CalendarStreamWriter(format: .ics)!
        var components: [CalendarComponent] = []
        var written: [UInt8] = []
        do {
            guard
                var streamed = try ICS.stream(
                    contentsOf: path, file: "fuzz.ics", runBytes: 1, opening: { written += writer.opening($0) },
                    transform: { components, run in (components, writer.run(components, index: run)) },
                    consume: { made, bytes in
                        components += made
                        written += bytes
                    })
            else { return }
            written += writer.closing(streamed.calendar)
            let header = streamed.calendar
            streamed.calendar.components = components
            check(
                [streamed.calendar] == whole.calendars && streamed.diagnostics == whole.diagnostics
                    && header.components.isEmpty && written == ICS.write(whole.calendars),
                "streaming differs from reading in one piece")
        } catch {
            check(false, "streaming failed: \(error)")
        }
    }

    /// Reads the input leaving out every item on an even line that can be keyed from its lines: the rest is
    /// decoded as a full read decodes it, and each item left out decodes to the full read's item of that line.
    static func checkLeavingOut(_ bytes: [UInt8], _ whole: ICS.ReadResult) {
        let (read, unread) = ICS.read(bytes, file: "fuzz.ics") { component, calendar in
            component.line % 2 == 0
                ? component.keyAsRead(wrTimeZone: calendar.property("X-WR-TIMEZONE") != nil).map { _ in true } : nil
        }
        check(read.isTruncated == whole.isTruncated, "reading less differs in truncation")
        guard !unread.isEmpty else {
            return check(read.calendars == whole.calendars, "reading nothing less differs from reading all")
        }
        check(read.calendars.count == whole.calendars.count, "reading less gives other calendars")
        for (index, calendar) in whole.calendars.enumerated() where index < read.calendars.count {
            let left = unread.filter { $0.item.calendarIndex == index }
            check(
                read.calendars[index].components.count + left.count == calendar.components.count,
                "reading less lost components")
            let byLine = Dictionary(calendar.components.map { ($0.line, $0) }) { first, _ in first }
            for (item, _) in left {
                check(byLine[item.component.line] == item.decoded, "an item left out decodes otherwise")
            }
        }
    }

    static func componentCounts(_ calendars: [ICalendar]) -> [String: Int] {
        calendars.reduce(into: [:]) { counts, calendar in counts.merge(calendar.componentCounts, uniquingKeysWith: +) }
    }

    /// A violated expectation: a finding for the fuzzer, a failure for the tests.
    static func check(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fatalError("fuzz check failed: " + message()) }
    }

    /// The share every `serve` input is answered against: its token, and a feed of one event.
    struct ServeSource: FeedSource {
        static let token = "ZnV6ei10b2tlbi1mb3ItdGhlLXNlcnZlLXRhcmdldC0"
        func liveShares() throws -> [FeedShare] {
            [FeedShare(name: "fuzz", tokenHash: FeedToken.hash(Self.token), version: "1")]
        }
        func feed(of share: FeedShare, now: Date) throws -> [UInt8] {
            Array("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:fuzz\r\nEND:VCALENDAR\r\n".utf8)
        }
        func freeBusy(of share: FeedShare, from: Date, to: Date) throws -> [UInt8] {
            check(from < to && to.timeIntervalSince(from) <= 366 * 86_400, "a free/busy span the server should refuse")
            return Array("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n".utf8)
        }
    }

    /// A request head answered as `serve` answers it: a status it gives, and a body only when it should have one.
    static func answerRequest(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        let (status, body) = FeedService.answer(
            head: text, source: ServeSource(), now: Date(timeIntervalSince1970: 1_795_000_000))
        check([200, 304, 400, 404, 405].contains(status), "serve answered \(status)")
        check(status != 304 || body == 0, "a 304 with a body")
        if status == 200 {
            check(text.contains(ServeSource.token), "a feed for a request without the share's token")
        }
    }
}
