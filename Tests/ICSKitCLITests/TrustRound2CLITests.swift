import Foundation
import XCTest

/// Issue 59's probes, each as it was made: mails whose sender check was bypassed (a SENT-BY the message names, a
/// comment in From:, a plain mail and an mbox message read as plain calendars), messages against an event I
/// organize, and REPLYs that answered for others, pinned an answer or added an instance. Mail headers have the
/// shapes mail programs write (Postfix's mbox `From ` line and Return-Path, a plain RFC 5322 message with no MIME).
final class TrustRound2CLITests: StoreCLITestCase {
    let me = ["--me", "b@example.com"]
    let conference = "calsrv.example.com-873970198738777@example.com"

    func write(_ text: String, _ name: String) throws -> String {
        try text.write(toFile: path(name), atomically: true, encoding: .utf8)
        return path(name)
    }

    func fixture(_ name: String) throws -> String {
        try String(contentsOfFile: CLI.fixture("itip/" + name), encoding: .utf8)
    }

    /// The store's export, folded lines joined.
    func exported() throws -> String {
        try icskit(["export"]).stdout.replacingOccurrences(of: "\r\n ", with: "")
    }

    /// Alice's (a@example.com) invitation in my (b@example.com) store, from her own mail.
    func receiveInvitation() throws {
        let mail = try write(
            "From: A <a@example.com>\r\nTo: b@example.com\r\nSubject: Conference\r\nMIME-Version: 1.0\r\n"
                + "Content-Type: text/calendar; method=REQUEST; charset=UTF-8\r\n\r\n" + fixture("group-request.ics"),
            "invite.eml")
        XCTAssertTrue(try icskit(["invite", mail] + me).stdout.contains(": added \"Conference\""))
    }

    /// The organizer's update, its SUMMARY changed so that applying it shows.
    func forgedUpdate(sentBy: String? = nil, organizer: String = "a@example.com") throws -> String {
        var text = try fixture("group-update.ics").replacingOccurrences(
            of: "SUMMARY:Conference", with: "SUMMARY:Moved by Mallory")
        let line =
            sentBy.map { "ORGANIZER;SENT-BY=\"mailto:\($0)\":mailto:\(organizer)" } ?? "ORGANIZER:mailto:\(organizer)"
        text = text.replacingOccurrences(of: "ORGANIZER:mailto:a@example.com", with: line)
        XCTAssertTrue(text.contains("Moved by Mallory"))
        return text
    }

    func testASentByOnlyTheMessageNamesDoesNotVouchForItsSender() throws {
        try receiveInvitation()
        let before = try exported()
        let mail = try write(
            "From: Mallory <mallory@evil.example>\r\nTo: b@example.com\r\nSubject: Update\r\nMIME-Version: 1.0\r\n"
                + "Content-Type: text/calendar; method=REQUEST\r\n\r\n"
                + forgedUpdate(sentBy: "mallory@evil.example"), "sentby.eml")
        let run = try icskit(["invite", mail] + me, status: 1)
        XCTAssertTrue(run.stdout.contains("unverified: the mail is from mallory@evil.example"), run.stdout)
        XCTAssertEqual(try exported(), before)
    }

    func testACommentInFromIsNotTheSender() throws {
        try receiveInvitation()
        let before = try exported()
        let mail = try write(
            "From: mallory@evil.example (Alice <a@example.com>)\r\nTo: b@example.com\r\nSubject: Update\r\n"
                + "MIME-Version: 1.0\r\nContent-Type: text/calendar; method=REQUEST\r\n\r\n" + forgedUpdate(),
            "comment.eml")
        let run = try icskit(["invite", mail] + me, status: 1)
        XCTAssertTrue(run.stdout.contains("unverified: the mail is from mallory@evil.example"), run.stdout)
        XCTAssertEqual(try exported(), before)
    }

    func testAPlainMailAndAnMboxMessageAreMails() throws {
        try receiveInvitation()
        let before = try exported()
        let plain =
            "Return-Path: <mallory@evil.example>\r\nFrom: mallory@evil.example\r\nTo: b@example.com\r\n"
            + "Subject: Update\r\nDate: Sat, 28 Nov 2026 10:00:00 +0000\r\n\r\n" + (try forgedUpdate())
        // `icskit invite - < message.eml`, the documented path.
        let piped = try CLI.run(["invite", "-", "--store", store] + me, stdin: Data(plain.utf8))
        XCTAssertEqual(piped.status, 1, piped.stdout + piped.stderr)
        XCTAssertTrue(piped.stdout.contains("unverified: the mail is from mallory@evil.example"), piped.stdout)
        let mbox =
            "From mallory@evil.example Sat Nov 28 10:00:00 2026\nFrom: Mallory <mallory@evil.example>\n"
            + "To: b@example.com\nSubject: Update\nMIME-Version: 1.0\nContent-Type: text/calendar; method=REQUEST\n\n"
            + (try forgedUpdate())
        let run = try icskit(["invite", try write(mbox, "message.mbox")] + me, status: 1)
        XCTAssertTrue(run.stdout.contains("unverified: the mail is from mallory@evil.example"), run.stdout)
        // A mail whose sender cannot be read (two mailboxes) is unverified.
        let two = try write(
            "From: a@example.com, mallory@evil.example\r\nSubject: x\r\n\r\n" + (try forgedUpdate()), "two.eml")
        XCTAssertTrue(
            try icskit(["invite", two] + me, status: 1).stdout.contains(
                "unverified: the mail names no single sender (From:) that can be read"))
        XCTAssertEqual(try exported(), before)
        // The organizer's own plain mail is read for its calendar and applied.
        let own = "From: a@example.com\r\nSubject: Update\r\n\r\n" + (try forgedUpdate())
        let applied = try CLI.run(["invite", "-", "--store", store] + me, stdin: Data(own.utf8))
        XCTAssertEqual(applied.status, 0, applied.stdout + applied.stderr)
        XCTAssertTrue(try exported().contains("SUMMARY:Moved by Mallory"))
    }

    /// An event I organize: no message replaces or cancels it, not even one naming my address with a SENT-BY, nor
    /// a plain file with my address as ORGANIZER.
    func testNoMessageChangesAnEventIOrganize() throws {
        let mine = ["--me", "me@example.com"]
        let uid = try icskit(["add", "event", "Planning", "--start", "2026-12-02 15:00"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        try icskit(["invite", uid, "--to", "ana@example.com"] + mine)
        let before = try exported()
        let request = """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//Mallory//EN\r
            METHOD:REQUEST\r
            BEGIN:VEVENT\r
            UID:\(uid)\r
            DTSTAMP:20261127T120000Z\r
            SEQUENCE:9\r
            DTSTART:20261202T230000Z\r
            SUMMARY:Cancelled, see you never\r
            ORGANIZER;SENT-BY="mailto:mallory@evil.example":mailto:me@example.com\r
            ATTENDEE:mailto:ana@example.com\r
            END:VEVENT\r
            END:VCALENDAR\r

            """
        let mail = try write(
            "From: Mallory <mallory@evil.example>\r\nMIME-Version: 1.0\r\n"
                + "Content-Type: text/calendar; method=REQUEST\r\n\r\n" + request, "request.eml")
        let viaMail = try icskit(["invite", mail] + mine, status: 1).stdout
        XCTAssertTrue(viaMail.contains("is organized by you (me@example.com)"), viaMail)
        for method in ["REQUEST", "CANCEL"] {
            let file = try write(request.replacingOccurrences(of: "METHOD:REQUEST", with: "METHOD:" + method), method)
            let run = try icskit(["invite", file] + mine, status: 1).stdout
            XCTAssertTrue(
                run.contains(
                    "\"Planning\" is organized by you (me@example.com); a \(method) from a message does not change "
                        + "it (icskit edit does)"), run)
            try icskit(["import", file, "-q"] + mine, status: 1)
        }
        XCTAssertEqual(try exported(), before)
    }

    /// A REPLY answers for its one ATTENDEE; a huge SEQUENCE does not pin an answer; a RECURRENCE-ID that is no
    /// instance adds none.
    func testAReplyChangesOnlyItsSendersAnswer() throws {
        let mine = ["--me", "me@example.com"]
        let uid = try icskit(
            ["add", "event", "Standup", "--start", "2026-12-01 10:00", "--repeat", "weekly", "--tz", "Europe/Berlin"]
        ).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try icskit(["invite", uid, "--to", "alice@example.com,bob@example.com"] + mine)
        func reply(_ attendees: [(String, String)], sequence: String = "0", stamp: String, extra: String = "")
            throws -> String
        {
            let lines = attendees.map { "ATTENDEE;PARTSTAT=\($0.1):mailto:\($0.0)\r\n" }.joined()
            return try write(
                "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nMETHOD:REPLY\r\nBEGIN:VEVENT\r\nUID:\(uid)\r\n"
                    + "DTSTAMP:\(stamp)\r\nSEQUENCE:\(sequence)\r\nORGANIZER:mailto:me@example.com\r\n\(lines)\(extra)"
                    + "END:VEVENT\r\nEND:VCALENDAR\r\n", "reply-\(stamp)-\(attendees.count).ics")
        }
        // Bob answers for Alice as well: neither answer counts.
        let both = try reply(
            [("bob@example.com", "DECLINED"), ("alice@example.com", "DECLINED")], stamp: "20261128T100000Z")
        let refused = try icskit(["invite", both] + mine, status: 1).stdout
        XCTAssertTrue(refused.contains("a REPLY answers for one ATTENDEE, its sender; this one names 2"), refused)
        XCTAssertFalse(try exported().contains("DECLINED"))
        // A huge SEQUENCE does not outrank Alice's own later answer.
        try icskit(
            [
                "invite",
                try reply(
                    [("alice@example.com", "DECLINED")], sequence: "9223372036854775807", stamp: "20261128T110000Z"),
            ]
                + mine)
        XCTAssertTrue(try exported().contains("PARTSTAT=DECLINED:mailto:alice@example.com"))
        try icskit(["invite", try reply([("alice@example.com", "ACCEPTED")], stamp: "20261128T120000Z")] + mine)
        let answered = try exported()
        XCTAssertTrue(answered.contains("PARTSTAT=ACCEPTED:mailto:alice@example.com"), answered)
        XCTAssertFalse(answered.contains("2147483647"), answered)
        // 10:30 is no instance of a 10:00 series: no occurrence is added.
        let stray = try reply(
            [("bob@example.com", "ACCEPTED")], stamp: "20261128T130000Z",
            extra: "RECURRENCE-ID;TZID=Europe/Berlin:20261208T103000\r\n")
        XCTAssertTrue(
            try icskit(["invite", stray] + mine).stdout.contains(
                "the REPLY answers for 20261208T103000, which is no instance of the series: nothing changed"))
        XCTAssertFalse(try exported().contains("RECURRENCE-ID"))
        let days = ["agenda", "--from", "2026-12-08", "--to", "+1d", "--tz", "Europe/Berlin", "--no-ids"]
        XCTAssertEqual(try icskit(days).stdout.components(separatedBy: "Standup").count, 2)
        // The same instant in UTC names the 10:00 instance: Bob's answer for it counts there.
        let instance = try reply(
            [("bob@example.com", "TENTATIVE")], stamp: "20261128T140000Z",
            extra: "RECURRENCE-ID:20261208T090000Z\r\n")
        XCTAssertTrue(try icskit(["invite", instance] + mine).stdout.contains("replied"))
        let exported = try exported()
        XCTAssertTrue(exported.contains("RECURRENCE-ID"), exported)
        XCTAssertTrue(exported.contains("PARTSTAT=TENTATIVE:mailto:bob@example.com"), exported)
    }
}
