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
        // SENT-BY counts where the stored item carries it, never because the message says so (issue 59).
        let delegated = core(
            "Review", organizer: "alice@example.com", attendees: ["me@example.com"], sentBy: "assistant@example.com")
        XCTAssertNil(
            refusal("REQUEST", update, [delegated], origin: .mail(sender: "assistant@example.com", trusted: false)))
        XCTAssertEqual(
            refusal("REQUEST", update, [invitation], origin: .mail(sender: "assistant@example.com", trusted: false))?
                .rule, .unverifiedSender)
        let mallory = core("Review", organizer: "alice@example.com", sentBy: "mallory@evil.example")
        for method in ["REQUEST", "CANCEL"] {
            XCTAssertEqual(
                refusal(method, mallory, [invitation], origin: .mail(sender: "mallory@evil.example", trusted: false))?
                    .rule, .unverifiedSender, method)
            XCTAssertEqual(
                refusal(method, mallory, [], origin: .mail(sender: "mallory@evil.example", trusted: false))?.rule,
                .unverifiedSender, method)
        }
        let other = refusal("REQUEST", update, [invitation], origin: .mail(sender: "eve@evil.example", trusted: false))
        XCTAssertEqual(other?.rule, .unverifiedSender)
        XCTAssertEqual(
            other?.reason,
            "unverified: the mail is from eve@evil.example, not from its ORGANIZER alice@example.com or whom your "
                + "copy says sends for them (SENT-BY); --trust-sender applies it")
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

    /// What I organize changes here only: no message, from whichever sender, replaces or cancels it (issue 59).
    func testNoMessageChangesAnItemIOrganize() {
        let mine = core("Planning", organizer: "me@example.com", attendees: ["ana@example.com"])
        let forged = core("Planning", organizer: "ME@example.com", sentBy: "mallory@evil.example")
        for method in ["REQUEST", "ADD", "CANCEL", "PUBLISH"] {
            for origin in [SchedulingOrigin.file, .mail(sender: "me@example.com", trusted: true)] {
                let refused = SchedulingTrust.refusal(
                    method: method, message: forged, stored: [mine], origin: origin, me: ["me@example.com"])
                XCTAssertEqual(refused?.rule, .organizedByMe, method)
            }
        }
        XCTAssertEqual(
            SchedulingTrust.refusal(
                method: "CANCEL", message: forged, stored: [mine], origin: .file, me: ["me@example.com"])?.reason,
            "\"Planning\" is organized by you (me@example.com); a CANCEL from a message does not change it "
                + "(icskit edit does)")
        // Answers to it still count.
        let answer = core("Planning", organizer: "me@example.com", attendees: ["ana@example.com"])
        XCTAssertNil(
            SchedulingTrust.refusal(
                method: "REPLY", message: answer, stored: [mine], origin: .file, me: ["me@example.com"]))
    }

    /// One ATTENDEE per REPLY, the one who answers (RFC 5546 §3.2.3): Bob does not answer for Alice (issue 59).
    func testAReplyAnswersForOneAttendee() {
        let event = core("Review", organizer: "me@example.com", attendees: ["alice@example.com", "bob@example.com"])
        let both = core("Review", organizer: "me@example.com", attendees: ["bob@example.com", "alice@example.com"])
        let refused = refusal("REPLY", both, [event])
        XCTAssertEqual(refused?.rule, .notAnAnswer)
        XCTAssertEqual(
            refused?.reason,
            "a REPLY answers for one ATTENDEE, its sender; this one names 2 (bob@example.com, alice@example.com)")
        XCTAssertEqual(
            refusal("REPLY", both, [event], origin: .mail(sender: "bob@example.com", trusted: false))?.rule,
            .notAnAnswer)
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
        // RFC 5322: a comment or a display name says nothing of the address (issue 59).
        XCTAssertEqual(sender("From: mallory@evil.example (Alice <alice@example.com>)"), "mallory@evil.example")
        XCTAssertEqual(sender("From: (Alice <alice@example.com>) mallory@evil.example"), "mallory@evil.example")
        XCTAssertEqual(sender("From: \"alice@example.com\" <mallory@evil.example>"), "mallory@evil.example")
        XCTAssertEqual(
            sender("From: Mallory <mallory@evil.example> (on behalf of <alice@example.com>)"), "mallory@evil.example")
        XCTAssertEqual(sender("From: (nested (comment <a@b.c>)) bob@example.net"), "bob@example.net")
        XCTAssertEqual(sender("From: Bob\r\n <bob@example.net>"), "bob@example.net")
        XCTAssertNil(sender("From: mallory@evil.example (unclosed <alice@example.com>"))
        XCTAssertNil(sender("From: <a@example.com> <b@example.com>"))
        XCTAssertNil(sender("From: undisclosed-recipients:;"))
        XCTAssertNil(sender("From: Team: a@example.com, b@example.com;"))
        XCTAssertNil(sender("From: \"a b\"@example.com"))
        XCTAssertNil(sender("From: a@[192.0.2.1]"))
        XCTAssertNil(sender("From: <@relay.example:a@example.com>"))
        // An mbox message: its envelope line is not the sender; the header after it is.
        XCTAssertEqual(
            MIMEMessage.sender(
                Array("From alice@example.com Sat Nov 28 10:00:00 2026\nFrom: m@evil.example\n\nx".utf8)),
            "m@evil.example")
    }

    /// Anything that starts with header lines is a mail (issue 59): a plain mail without MIME headers, an mbox
    /// message, headers that hide calendar lines among them; a calendar file is not, even one that starts with a
    /// stray property.
    func testWhatIsAMail() {
        func isMail(_ text: String) -> Bool { MIMEMessage.isMessage(Array(text.utf8)) }
        let calendar = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n"
        XCTAssertTrue(isMail("From: a@example.com\r\nSubject: hi\r\n\r\n" + calendar))
        XCTAssertTrue(isMail("Received: from relay\r\nBEGIN: VCALENDAR\r\nFrom: a@b.c\r\n\r\n" + calendar))
        XCTAssertTrue(isMail("From a@example.com Sat Nov 28 10:00:00 2026\nFrom: a@example.com\n\n" + calendar))
        XCTAssertTrue(isMail("Return-Path: <a@b.c>\nX-Mailer: x\n\n" + calendar))
        XCTAssertTrue(isMail("VERSION:2.0\r\nFrom: a@b.c\r\n\r\n" + calendar))
        XCTAssertFalse(isMail(calendar))
        XCTAssertFalse(isMail("\u{FEFF}" + calendar))
        XCTAssertFalse(isMail("VERSION:2.0\r\n" + calendar))
        XCTAssertFalse(isMail("X-WR-CALNAME:Work\r\n" + calendar))
        // The calendar of a plain mail is its text; the header's own lines are never read as one.
        let plain = MIMEMessage.calendarParts(Array(("From: a@b.c\r\nSubject: x\r\n\r\n" + calendar).utf8))
        XCTAssertEqual(plain.map { String(decoding: $0.bytes, as: UTF8.self) }, [calendar])
        XCTAssertEqual(
            MIMEMessage.calendarParts(Array("From: a@b.c\r\nBEGIN: VCALENDAR\r\n\r\nhello\r\n".utf8)).count, 0)
        // Multiparts are followed 16 deep at most (SECURITY.md): no deeper nesting costs recursion.
        func nested(_ depth: Int) -> [UInt8] {
            var body = "Content-Type: text/calendar\r\n\r\n" + calendar
            for level in 0..<depth {
                body =
                    "Content-Type: multipart/mixed; boundary=\"b\(level)\"\r\n\r\n--b\(level)\r\n" + body
                    + "\r\n--b\(level)--\r\n"
            }
            return Array(("From: a@b.c\r\nMIME-Version: 1.0\r\n" + body).utf8)
        }
        XCTAssertEqual(MIMEMessage.calendarParts(nested(15)).count, 1)
        XCTAssertEqual(MIMEMessage.calendarParts(nested(16)).count, 0)
        XCTAssertEqual(MIMEMessage.calendarParts(nested(2_000)).count, 0)
    }
}
