import CalendarModel
import Foundation
import XCTest

/// `Invitation`: the iTIP messages a user sends and what a received one does, as functions of items alone.
final class InvitationTests: XCTestCase {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func items(_ lines: String) throws -> [CalendarComponent] {
        let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\n" + lines + "END:VCALENDAR\r\n"
        let calendar = try XCTUnwrap(ICS.read(Array(text.utf8)).calendars.first)
        return calendar.components.filter(\.isItem)
    }

    func meeting(organizer: String? = "me@example.com", sequence: Int = 0, start: String = "20270105T090000Z")
        throws -> [CalendarComponent]
    {
        let organizerLine = organizer.map { "ORGANIZER:mailto:\($0)\r\n" } ?? ""
        return try items(
            "BEGIN:VEVENT\r\nUID:m1\r\nDTSTAMP:20270101T000000Z\r\nDTSTART:\(start)\r\nDURATION:PT1H\r\n"
                + "SUMMARY:Planning\r\nSEQUENCE:\(sequence)\r\n\(organizerLine)"
                + "ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:ann@example.com\r\nEND:VEVENT\r\n")
    }

    func sent(_ components: [CalendarComponent], method: String = "REQUEST", stamp: Int64) -> SchedulingState.Message {
        SchedulingState.Message(
            method: method, key: "", sequence: components[0].core?.sequence ?? 0, stamp: stamp, digest: "d",
            item: components[0], content: "c")
    }

    func testARequestInvitesNewPeopleOnceAndSetsOrganizerAndStamp() throws {
        let (items, request) = try Invitation.request(
            meeting(organizer: nil), zones: [], organizer: "MAILTO:Me@Example.com",
            inviting: ["ann@example.com", "bob@example.com", "me@example.com"], kept: [], now: now)
        let core = try XCTUnwrap(items.first?.core)
        XCTAssertEqual(core.organizer.map { CalendarUser.comparable($0.address) }, "me@example.com")
        XCTAssertEqual(
            core.attendees.map { CalendarUser.comparable($0.address) }, ["ann@example.com", "bob@example.com"])
        XCTAssertEqual(core.attendees[1].participationStatus, "NEEDS-ACTION")
        XCTAssertEqual(core.stamp, CalendarDate.utc(now))
        XCTAssertEqual(request.recipients, ["ann@example.com", "bob@example.com"])
        XCTAssertEqual(request.method, "REQUEST")
        XCTAssertTrue(request.text.contains("METHOD:REQUEST"))
    }

    func testARescheduleRaisesTheSequenceAboveTheLastRequestSent() throws {
        let before = try meeting()
        let kept = [sent(before, stamp: 1_900_000_000)]
        let moved = try meeting(start: "20270106T090000Z")
        let (items, _) = try Invitation.request(moved, zones: [], organizer: "me@example.com", kept: kept, now: now)
        XCTAssertEqual(items[0].core?.sequence, 1)
        // Later than every message kept, though `now` is earlier.
        XCTAssertEqual(items[0].core?.stamp, CalendarDate.utc(Date(timeIntervalSince1970: 1_900_000_001)))
        // Only a summary changed: the SEQUENCE stays.
        var renamed = try meeting()
        renamed[0].core?.summary = "Planning (room 2)"
        let (same, _) = try Invitation.request(renamed, zones: [], organizer: "me@example.com", kept: kept, now: now)
        XCTAssertEqual(same[0].core?.sequence, 0)
    }

    func testSomeoneElsesItemIsNotMineToSend() throws {
        XCTAssertThrowsError(
            try Invitation.request(
                meeting(organizer: "boss@example.com"), zones: [], organizer: "me@example.com", kept: [], now: now)
        ) { error in
            XCTAssertEqual("\(error)", "m1 is organized by boss@example.com, not by you")
        }
        XCTAssertNil(
            Invitation.cancellation(
                try meeting(organizer: "boss@example.com"), zones: [], addresses: ["me@example.com"], now: now))
        XCTAssertNil(Invitation.organizer(of: try meeting(organizer: "boss@example.com")[0], me: ["me@example.com"]))
        XCTAssertEqual(Invitation.organizer(of: try meeting()[0], me: ["me@example.com"]), "me@example.com")
    }

    func testACancellationOfOneInstanceNamesThatInstanceAlone() throws {
        var series = try meeting(sequence: 2)
        series[0].core?.recurrenceRules = [try RecurrenceRule.parse("FREQ=WEEKLY;COUNT=4").get()]
        let instance = try CalendarDate.parse("20270112T090000Z", tzid: nil).get()
        let cancel = try XCTUnwrap(
            Invitation.cancellation(series, zones: [], addresses: ["me@example.com"], instance: instance, now: now))
        XCTAssertEqual(cancel.method, "CANCEL")
        XCTAssertEqual(cancel.recipients, ["ann@example.com"])
        XCTAssertTrue(cancel.text.contains("RECURRENCE-ID:20270112T090000Z"))
        XCTAssertTrue(cancel.text.contains("STATUS:CANCELLED"))
        XCTAssertTrue(cancel.text.contains("SEQUENCE:3"))
        XCTAssertFalse(cancel.text.contains("RRULE"))
    }

    func testAReplyCarriesOnlyMyAnswerAfterTheLastOne() throws {
        let (component, reply) = try Invitation.reply(
            to: meeting(organizer: "boss@example.com", sequence: 4), zones: [], uid: "m1",
            addresses: ["ann@example.com"], answer: "ACCEPTED", comment: "see you", organizerSequence: 3,
            lastAnswer: 1_900_000_000, now: now)
        let core = try XCTUnwrap(component.core)
        XCTAssertEqual(core.attendees.count, 1)
        XCTAssertEqual(core.attendees[0].participationStatus, "ACCEPTED")
        XCTAssertEqual(core.sequence, 3)
        XCTAssertEqual(core.stamp, CalendarDate.utc(Date(timeIntervalSince1970: 1_900_000_001)))
        XCTAssertEqual(reply.organizer, "boss@example.com")
        XCTAssertTrue(reply.text.contains("METHOD:REPLY"))
        XCTAssertTrue(reply.text.contains("COMMENT:see you"))
        XCTAssertThrowsError(
            try Invitation.reply(
                to: meeting(organizer: "boss@example.com"), zones: [], uid: "m1", addresses: ["zed@example.com"],
                answer: "ACCEPTED", now: now))
        XCTAssertThrowsError(
            try Invitation.reply(
                to: meeting(organizer: nil), zones: [], uid: "m1", addresses: ["ann@example.com"], answer: "DECLINED",
                now: now))
    }

    func testADecisionReadsTheStoreOnlyForMethodsThatChangeItems() throws {
        let item = try meeting(organizer: "boss@example.com")[0]
        var reads = 0
        func decide(_ method: String, stored: [ItemCore]) -> Invitation.Decision {
            Invitation.decision(
                method: method, item: item, component: item.keyed.component, origin: .file, me: ["me@example.com"]
            ) { () -> (item: SchedulingTrust.StoredItem, received: Bool)? in
                reads += 1
                return stored.isEmpty ? nil : (SchedulingTrust.StoredItem(stored), true)
            }
        }
        XCTAssertEqual(decide("REFRESH", stored: []), .answer)
        XCTAssertEqual(decide("FROB", stored: []), .unknown("METHOD:FROB is not a scheduling method ICSKit knows"))
        guard case .show(let proposal) = decide("COUNTER", stored: []) else { return XCTFail("a counter is shown") }
        XCTAssertTrue(proposal.hasPrefix("ann@example.com proposes starting"))
        XCTAssertEqual(reads, 0)
        XCTAssertEqual(decide("REQUEST", stored: []), .apply)
        var mine = try XCTUnwrap(item.core)
        mine.organizer = CalendarUser(address: "mailto:me@example.com")
        guard case .refuse(let refusal) = decide("REQUEST", stored: [mine]) else {
            return XCTFail("a message does not change what I organize")
        }
        XCTAssertEqual(refusal.rule, .organizedByMe)
        XCTAssertEqual(reads, 2)
    }
}
