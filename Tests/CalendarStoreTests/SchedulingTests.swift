import CalendarModel
import ICSKitTestSupport
import XCTest

@testable import CalendarStore

/// Receiving scheduling messages (`receiveScheduling`) is idempotent and order-independent: for random streams of
/// REQUEST, ADD, REPLY and CANCEL messages of one series (updates, rescheduled series, instance overrides,
/// cancelled instances, answers, copies re-sent), every order the stream can arrive in leaves the same items: 1,000
/// streams in every order through the rules that make the item (`SchedulingState`), and streams in three orders
/// and twice over through whole stores (60 by default, a store per order costs; `ICSKIT_ITIP_STREAMS=1000` runs
/// more).
final class SchedulingTests: XCTestCase {
    static let uid = "series@example.org"
    static let days = ["20270104", "20270111", "20270118", "20270125", "20270201"]

    /// One message of one series, as a calendar file.
    static func message(_ random: inout SeededGenerator) -> String {
        let sequence = Int.random(in: 0...3, using: &random)
        let stamp = "202612\(String(format: "%02d", Int.random(in: 1...4, using: &random)))T100000Z"
        let day = days.randomElement(using: &random)!
        let hour = 9 + sequence, moved = String(format: "%02d", 14 + sequence)
        let people =
            "ORGANIZER:mailto:olga@example.org\r\nATTENDEE;PARTSTAT=ACCEPTED:mailto:olga@example.org\r\n"
            + "ATTENDEE;RSVP=TRUE:mailto:ana@example.org\r\nATTENDEE;RSVP=TRUE:mailto:ben@example.org\r\n"
        let method: String
        var body = "UID:\(uid)\r\nSEQUENCE:\(sequence)\r\nDTSTAMP:\(stamp)\r\n"
        switch Int.random(in: 0..<8, using: &random) {
        case 0, 1:
            method = "REQUEST"
            body +=
                people
                + "DTSTART:20270104T\(String(format: "%02d", hour))0000Z\r\nDURATION:PT1H\r\nRRULE:FREQ=WEEKLY;COUNT=5\r\n"
            body += "SUMMARY:Planning v\(sequence)\(Bool.random(using: &random) ? " (room B)" : "")\r\n"
        case 2:
            method = "REQUEST"
            body +=
                people + "RECURRENCE-ID:\(day)T\(String(format: "%02d", hour))0000Z\r\nDTSTART:\(day)T\(moved)0000Z\r\n"
            body += "DURATION:PT1H\r\nSUMMARY:Planning moved\r\n"
        case 3, 4:
            method = "REPLY"
            let who = Bool.random(using: &random) ? "ana" : "ben"
            let answer = ["ACCEPTED", "DECLINED", "TENTATIVE"].randomElement(using: &random)!
            body += "ORGANIZER:mailto:olga@example.org\r\nATTENDEE;PARTSTAT=\(answer):mailto:\(who)@example.org\r\n"
            if Int.random(in: 0..<3, using: &random) == 0 {
                body += "RECURRENCE-ID:\(day)T\(String(format: "%02d", hour))0000Z\r\n"
            }
        case 5:
            method = "CANCEL"
            body += people + "STATUS:CANCELLED\r\n"
        case 6:
            method = "CANCEL"
            body += people + "RECURRENCE-ID:\(day)T\(String(format: "%02d", hour))0000Z\r\nSTATUS:CANCELLED\r\n"
        default:
            method = "ADD"
            body +=
                people
                + "DTSTART:20270206T\(String(format: "%02d", hour))0000Z\r\nDURATION:PT2H\r\nSUMMARY:Planning extra\r\n"
        }
        return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nMETHOD:\(method)\r\nBEGIN:VEVENT\r\n" + body
            + "END:VEVENT\r\nEND:VCALENDAR\r\n"
    }

    /// Stores used again from stream to stream (a new one costs its migrations), emptied by removing the calendar.
    var stores: [CalendarStore] = []

    /// The items a store without this calendar holds after receiving the messages one by one, in this order.
    func received(_ messages: [String], in slot: Int = 0) throws -> [String] {
        while stores.count <= slot { stores.append(try CalendarStore.inMemory()) }
        let store = stores[slot]
        if try store.hasCalendar(named: "Invitations") { _ = try store.removeCalendar("Invitations") }
        for message in messages {
            _ = try store.receiveScheduling(ICS.read(Array(message.utf8)).calendars, calendar: "Invitations")
        }
        return try store.itemContents(calendar: "Invitations", uid: Self.uid)
    }

    func testEveryOrderOfAStreamLeavesTheSameItems() throws {
        var (random, seed, count) = SeededGenerator.start(
            "scheduling order test", seedVariable: "ICSKIT_ITIP_SEED", countVariable: "ICSKIT_ITIP_STREAMS",
            defaultCount: 60, unit: "streams")
        var changedStates = 0
        for stream in 0..<count {
            var messages = (0..<Int.random(in: 2...7, using: &random)).map { _ in Self.message(&random) }
            // Copies re-sent, as mail does.
            if Bool.random(using: &random), let copy = messages.randomElement(using: &random) { messages.append(copy) }
            let first = try received(messages)
            if Set(first).count > 1 || first.contains(where: { $0.contains("CANCELLED") }) { changedStates += 1 }
            var orders = [Array(messages.reversed())]
            orders.append(messages.shuffled(using: &random))
            for (slot, order) in orders.enumerated() {
                XCTAssertEqual(
                    try received(order, in: slot + 1), first,
                    "seed \(seed), stream \(stream): \(messages.joined(separator: "\n---\n"))")
            }
            // Receiving everything again changes nothing (idempotent).
            XCTAssertEqual(try received(messages + messages, in: 3), first)
        }
        // The streams made overrides, cancellations and series, not only empty stores.
        XCTAssertGreaterThan(changedStates, count / 5)
    }

    /// 1,000 streams of two to six messages (and a copy re-sent) in every order they can arrive in: the item the
    /// rules make is the same.
    func testEveryPermutationOfAStreamMakesTheSameItem() throws {
        var (random, seed, count) = SeededGenerator.start(
            "scheduling permutation test", seedVariable: "ICSKIT_ITIP_SEED", countVariable: "ICSKIT_ITIP_RULE_STREAMS",
            defaultCount: 1_000, unit: "streams")
        let time = CalendarTime(calendar: ICalendar(), viewerZone: "UTC")
        var orders = 0
        for stream in 0..<count {
            var texts = (0..<Int.random(in: 2...6, using: &random)).map { _ in Self.message(&random) }
            if Bool.random(using: &random), let copy = texts.randomElement(using: &random) { texts.append(copy) }
            // Kept once each, as the store keeps them (a copy again is the same message).
            var seen: Set<String> = []
            let messages = texts.compactMap { text -> SchedulingState.Message? in
                let calendar = ICS.read(Array(text.utf8)).calendars[0]
                let item = calendar.components[0]
                let message = SchedulingState.message(
                    item.keyed.component, item: item, method: calendar.method!, time: time)
                return seen.insert(message.method + message.content).inserted ? message : nil
            }
            let first = SchedulingState.components(of: messages)
            // Six messages at most (a copy is the same message): every one of their orders.
            for order in Self.permutations(messages) {
                XCTAssertEqual(SchedulingState.components(of: order), first, "seed \(seed), stream \(stream)")
                orders += 1
            }
            // Message by message (an answer applied alone where it can be) makes the same item as all at once.
            for order in [messages, messages.reversed()] {
                var derivation = SchedulingState.Derivation([])
                for message in order { _ = derivation.add(message) }
                XCTAssertEqual(derivation.components, first, "seed \(seed), stream \(stream), one by one")
            }
        }
        XCTAssertGreaterThan(orders, count * 50)
    }

    static func permutations<T>(_ items: [T]) -> [[T]] {
        guard items.count > 1 else { return [items] }
        return items.indices.flatMap { index in
            var rest = items
            let first = rest.remove(at: index)
            return permutations(rest).map { [first] + $0 }
        }
    }

    /// The rules on one small case each: a newer REQUEST wins in any order; an override older than a rescheduled
    /// series goes; a REPLY older than the series' SEQUENCE does not count.
    func testNewestVersionsWinAndStaleAnswersDoNot() throws {
        func request(_ sequence: Int, _ summary: String, stamp: String = "20261201T100000Z", extra: String = "")
            -> String
        {
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nMETHOD:REQUEST\r\nBEGIN:VEVENT\r\nUID:\(Self.uid)\r\n"
                + "SEQUENCE:\(sequence)\r\nDTSTAMP:\(stamp)\r\nDTSTART:20270104T090000Z\r\nSUMMARY:\(summary)\r\n"
                + "ORGANIZER:mailto:olga@example.org\r\nATTENDEE:mailto:ana@example.org\r\n\(extra)"
                + "END:VEVENT\r\nEND:VCALENDAR\r\n"
        }
        let older = request(1, "Old"), newer = request(2, "New")
        XCTAssertTrue(try received([older, newer])[0].contains("SUMMARY:New"))
        XCTAssertTrue(try received([newer, older])[0].contains("SUMMARY:New"))
        // Same SEQUENCE: the later DTSTAMP wins.
        let later = request(2, "Later", stamp: "20261202T100000Z")
        XCTAssertTrue(try received([later, newer])[0].contains("SUMMARY:Later"))

        let reply = { (sequence: Int) in
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nMETHOD:REPLY\r\nBEGIN:VEVENT\r\nUID:\(Self.uid)\r\n"
                + "SEQUENCE:\(sequence)\r\nDTSTAMP:20261203T100000Z\r\nORGANIZER:mailto:olga@example.org\r\n"
                + "ATTENDEE;PARTSTAT=ACCEPTED:mailto:ana@example.org\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        }
        XCTAssertTrue(try received([newer, reply(2)])[0].contains("PARTSTAT=ACCEPTED:mailto:ana@example.org"))
        XCTAssertFalse(try received([newer, reply(1)])[0].contains("PARTSTAT=ACCEPTED"), "a stale answer")

        let override =
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nMETHOD:REQUEST\r\nBEGIN:VEVENT\r\nUID:\(Self.uid)\r\n"
            + "SEQUENCE:1\r\nDTSTAMP:20261201T100000Z\r\nRECURRENCE-ID:20270111T090000Z\r\n"
            + "DTSTART:20270111T150000Z\r\nSUMMARY:Moved\r\nORGANIZER:mailto:olga@example.org\r\nEND:VEVENT\r\n"
            + "END:VCALENDAR\r\n"
        let series = request(1, "Weekly", extra: "RRULE:FREQ=WEEKLY;COUNT=3\r\n")
        XCTAssertEqual(try received([series, override]).count, 2)
        let rescheduled = request(2, "Weekly", extra: "RRULE:FREQ=WEEKLY;COUNT=3\r\n")
        XCTAssertEqual(try received([series, override, rescheduled]).count, 1, "the old override goes")
    }
}
