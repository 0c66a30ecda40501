import CalendarModel
import XCTest

/// `SchedulingTrust`: who may change an item by a scheduling message, on small hand-made items.
final class SchedulingTrustTests: XCTestCase {
    func core(
        _ summary: String, organizer: String? = nil, attendees: [String] = [], sentBy: String? = nil
    ) -> ItemCore {
        var core = ItemCore()
        core.uid = "u1"
        core.summary = summary
        if let organizer {
            var user = CalendarUser(address: "mailto:" + organizer)
            if let sentBy { user.parameters.append(Parameter("SENT-BY", "mailto:" + sentBy)) }
            core.organizer = user
        }
        core.attendees = attendees.map { CalendarUser(address: "mailto:" + $0) }
        return core
    }

    func refusal(
        _ method: String, _ message: ItemCore, _ stored: [ItemCore], origin: SchedulingOrigin = .file
    ) -> SchedulingTrust.Refusal? {
        SchedulingTrust.refusal(method: method, message: message, stored: stored, origin: origin)
    }

    func testOnlyTheItemsOrganizerChangesIt() {
        let mine = core("Dentist")
        let forged = core("Pwned", organizer: "mallory@evil.example", attendees: ["me@example.com"])
        for method in ["REQUEST", "CANCEL", "ADD"] {
            XCTAssertEqual(refusal(method, forged, [mine])?.rule, .madeHere, method)
        }
        XCTAssertEqual(
            refusal("REQUEST", forged, [mine])?.reason,
            "\"Dentist\" has no organizer (it was made here); a REQUEST from mallory@evil.example does not change it")

        let invitation = core("Review", organizer: "Alice@Example.com", attendees: ["me@example.com"])
        XCTAssertEqual(refusal("REQUEST", forged, [invitation])?.rule, .notOrganizer)
        XCTAssertEqual(
            refusal("CANCEL", forged, [invitation])?.reason,
            "mallory@evil.example is not the organizer of \"Review\" (alice@example.com is)")
        // The organizer, in another spelling of the same address: applied.
        XCTAssertNil(refusal("REQUEST", core("Review", organizer: "alice@EXAMPLE.com"), [invitation]))
        // A new item: anyone may invite me.
        XCTAssertNil(refusal("REQUEST", forged, []))
        // Nothing changes an item made here, a message without an organizer neither; one received without an
        // organizer (a booking system's) is updated by its like, not by a message with one.
        XCTAssertEqual(refusal("PUBLISH", core("Dentist, moved"), [mine])?.rule, .madeHere)
        XCTAssertEqual(refusal("REQUEST", core("Dentist, moved"), [mine])?.rule, .madeHere)
        let booking = core("Flight")
        XCTAssertNil(
            SchedulingTrust.refusal(
                method: "REQUEST", message: core("Flight, gate 4"), stored: [booking], received: true, origin: .file))
        XCTAssertEqual(
            SchedulingTrust.refusal(
                method: "CANCEL", message: forged, stored: [booking], received: true, origin: .file)?.reason,
            "mallory@evil.example is not the organizer of \"Flight\" (it has none)")
    }

    func testAReplyCountsOnlyForAnInvitedAttendee() {
        let event = core("Review", organizer: "me@example.com", attendees: ["ana@example.com"])
        XCTAssertNil(
            refusal("REPLY", core("Review", organizer: "me@example.com", attendees: ["ana@example.com"]), [event]))
        let crasher = core("Review", organizer: "me@example.com", attendees: ["eve@evil.example"])
        XCTAssertEqual(refusal("REPLY", crasher, [event])?.rule, .notInvited)
        let elsewhere = core("Review", organizer: "bob@example.com", attendees: ["ana@example.com"])
        XCTAssertEqual(refusal("REPLY", elsewhere, [event])?.rule, .notAnAnswer)
        XCTAssertEqual(refusal("REPLY", core("Review", organizer: "me@example.com"), [event])?.rule, .notAnAnswer)
        XCTAssertEqual(refusal("REPLY", crasher, [core("Mine")])?.rule, .madeHere)

        // An instance's own attendee answers for that instance.
        var instance = core("Review", organizer: "me@example.com", attendees: ["ana@example.com", "guest@example.com"])
        let start = LocalDateTime(wallSeconds: 1_800_000_000).calendarDate(.utc)
        instance.recurrenceID = RecurrenceID(start)
        let guest = core("Review", attendees: ["guest@example.com"])
        XCTAssertNil(
            SchedulingTrust.refusal(
                method: "REPLY", message: guest, stored: [event, instance], instance: start.icsValue, origin: .file))
        XCTAssertEqual(refusal("REPLY", guest, [event, instance])?.rule, .notInvited)
    }

    func testAMailIsFromWhomItSpeaksFor() {
        let invitation = core("Review", organizer: "alice@example.com", attendees: ["me@example.com"])
        let update = core("Review", organizer: "alice@example.com", sentBy: "assistant@example.com")
        XCTAssertNil(
            refusal("REQUEST", update, [invitation], origin: .mail(sender: "Alice@example.com", trusted: false)))
        XCTAssertNil(
            refusal("REQUEST", update, [invitation], origin: .mail(sender: "assistant@example.com", trusted: false)))
        let other = refusal("REQUEST", update, [invitation], origin: .mail(sender: "eve@evil.example", trusted: false))
        XCTAssertEqual(other?.rule, .unverifiedSender)
        XCTAssertEqual(
            other?.reason,
            "unverified: the mail is from eve@evil.example, not from its ORGANIZER alice@example.com or whom it "
                + "sends by; --trust-sender applies it")
        XCTAssertNil(refusal("REQUEST", update, [invitation], origin: .mail(sender: "eve@evil.example", trusted: true)))
        XCTAssertEqual(
            refusal("REQUEST", update, [], origin: .mail(sender: nil, trusted: false))?.rule, .unverifiedSender)
        // A REPLY comes from its attendee; an unverified answer does not wait for an invitation.
        let mine = core("Review", organizer: "me@example.com", attendees: ["ana@example.com"])
        let answer = core("Review", organizer: "me@example.com", attendees: ["ana@example.com"])
        XCTAssertNil(refusal("REPLY", answer, [mine], origin: .mail(sender: "ana@example.com", trusted: false)))
        let crasher = core("Review", organizer: "me@example.com", attendees: ["eve@evil.example"])
        XCTAssertEqual(
            refusal("REPLY", crasher, [mine], origin: .mail(sender: "ana@example.com", trusted: false))?.rule,
            .unverifiedSender)
    }

    func testTheSenderOfAMail() {
        func sender(_ from: String) -> String? {
            MIMEMessage.sender(Array("\(from)\r\nMIME-Version: 1.0\r\nContent-Type: text/plain\r\n\r\nbody\r\n".utf8))
        }
        XCTAssertEqual(sender("From: Alice Example <Alice@Example.com>"), "alice@example.com")
        XCTAssertEqual(sender("From: \"Doe, Jo <x@y>\" <jo@example.org>"), "jo@example.org")
        XCTAssertEqual(sender("From: bob@example.net (Bob)"), "bob@example.net")
        XCTAssertNil(sender("From: a@example.com, b@example.com"))
        XCTAssertNil(sender("From: nobody"))
        XCTAssertNil(sender("Subject: no sender"))
        XCTAssertNil(sender("From: a@example.com\r\nFrom: b@example.com"))
    }
}
