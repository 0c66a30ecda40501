import Foundation
import ICSKitTestSupport
import XCTest

/// `icskit invite` (and `import`) on the scheduling scenarios of RFC 5546 section 4 (Fixtures/itip, written from
/// the RFC's examples): a group event requested, answered, moved, countered, refreshed and cancelled; a recurring
/// event with an instance moved, one cancelled, one added, and the series cancelled; and an invitation mail.
final class InviteCLITests: StoreCLITestCase {
    func itip(_ name: String) -> String { CLI.fixture("itip/" + name) }

    let conference = "calsrv.example.com-873970198738777@example.com"

    /// The attendee's side (b@example.com): added and waiting for an answer; the same message again changes
    /// nothing; the move (SEQUENCE 1) applies; an older copy is ignored and says why; a counter and its decline are
    /// shown, not applied; the cancellation marks it cancelled, and it no longer waits for an answer.
    func testAnAttendeeReceivesARequestItsUpdateAndItsCancellation() throws {
        let me = ["--me", "b@example.com"]
        let added = try icskit(["invite", itip("group-request.ics")] + me).stdout
        XCTAssertEqual(
            added, "REQUEST \(conference): added \"Conference\" in Invitations: your answer is needed\n")
        let day = ["agenda", "--from", "1997-07-01", "--to", "+1d", "--tz", "UTC", "--no-ids"] + me
        XCTAssertTrue(try icskit(day).stdout.contains("20:00–21:00  Conference [answer needed]  (Invitations)"))
        XCTAssertTrue(try icskit(["invite", itip("group-request.ics")] + me).stdout.contains(": repeated"))
        XCTAssertTrue(try icskit(["invite", itip("group-update.ics")] + me).stdout.contains(": updated"))
        XCTAssertTrue(try icskit(day).stdout.contains("21:00–22:00  Conference [answer needed]"))

        // An older copy of the first request (another DTSTAMP, SEQUENCE 0): ignored, with the reason.
        let older = try String(contentsOfFile: itip("group-request.ics"), encoding: .utf8)
            .replacingOccurrences(of: "DTSTAMP:19970611T190000Z", with: "DTSTAMP:19970611T200000Z")
        try older.write(toFile: path("older.ics"), atomically: true, encoding: .utf8)
        let ignored = try icskit(["invite", path("older.ics")] + me).stdout
        XCTAssertTrue(ignored.contains(": ignored \"Conference\" — the store has SEQUENCE 1"), ignored)
        XCTAssertTrue(try icskit(day).stdout.contains("21:00–22:00  Conference"))

        let counter = try icskit(["invite", itip("group-counter-c.ics"), itip("group-declinecounter.ics")] + me)
        XCTAssertTrue(
            counter.stdout.contains(
                "COUNTER \(conference): counter \"Conference\" — c@example.com proposes starting 19970701T190000Z: "
                    + "Earlier suits me better"), counter.stdout)
        XCTAssertTrue(counter.stdout.contains("DECLINECOUNTER \(conference): counter"), counter.stdout)
        XCTAssertTrue(try icskit(day).stdout.contains("21:00–22:00  Conference [answer needed]"))

        XCTAssertTrue(try icskit(["invite", itip("group-cancel.ics")] + me).stdout.contains(": cancelled"))
        let cancelled = try icskit(day).stdout
        XCTAssertTrue(cancelled.contains("21:00–22:00  Conference [cancelled]  (Invitations)"), cancelled)
        // One transaction per run: undo takes the cancellation back.
        try icskit(["undo"])
        XCTAssertTrue(try icskit(day).stdout.contains("Conference [answer needed]"))
    }

    /// The organizer's side (a@example.com): the reply sets b's answer in the organizer's copy; a REFRESH is
    /// answered with the current REQUEST, which python icalendar reads.
    func testTheOrganizerReadsRepliesAndAnswersARefresh() throws {
        let me = ["--me", "a@example.com"]
        let run = try icskit(["invite", itip("group-request.ics"), itip("group-reply-b.ics")] + me).stdout
        XCTAssertTrue(run.contains("REPLY \(conference): replied \"Conference\" — b@example.com accepted"), run)
        let content = try CLI.sqlite(store, "SELECT content FROM item")
        XCTAssertTrue(content.contains("PARTSTAT=ACCEPTED:mailto:b@example.com"), content)
        XCTAssertFalse(content.contains("PARTSTAT=ACCEPTED:mailto:c@example.com"), content)
        // The reply again, and before the request in another store: the same copy either way.
        try icskit(["invite", itip("group-reply-b.ics")] + me)
        let other = path("other.sqlite")
        _ = try CLI.run(["invite", itip("group-reply-b.ics"), itip("group-request.ics"), "--store", other] + me)
        XCTAssertEqual(try CLI.sqlite(other, "SELECT content FROM item"), content)

        let refresh = try icskit(["invite", itip("group-refresh-d.ics")] + me).stdout
        XCTAssertTrue(refresh.contains("REFRESH \(conference): refresh"), refresh)
        let request = String(refresh[refresh.range(of: "BEGIN:VCALENDAR")!.lowerBound...])
        XCTAssertTrue(request.contains("METHOD:REQUEST"), request)
        try request.write(toFile: path("answer.ics"), atomically: true, encoding: .utf8)
        let read = CLI.python([
            "-c",
            "import icalendar,sys; c=icalendar.Calendar.from_ical(open(sys.argv[1],'rb').read()); "
                + "e=c.walk('VEVENT')[0]; print(c['METHOD'], e['UID'], len(e.get('ATTENDEE')))",
            path("answer.ics"),
        ])
        XCTAssertEqual(read.stdout, "REQUEST \(conference) 4\n", read.stderr)
    }

    /// A recurring event in its own time zone: an instance moved (its override), one cancelled (gone), one added
    /// (an ADD); then the whole series cancelled.
    func testARecurringSeriesWithAMovedACancelledAndAnAddedInstance() throws {
        let me = ["--me", "b@example.com"]
        try icskit(["invite", itip("series-request.ics")] + me)
        let weeks = ["agenda", "--from", "2026-01-01", "--to", "2026-03-01", "--tz", "America/New_York", "--no-ids"]
        XCTAssertEqual(try icskit(weeks).stdout.components(separatedBy: "IETF Calendaring").count - 1, 6)
        let run = try icskit(
            ["invite", itip("series-modify-instance.ics"), itip("series-cancel-instance.ics"), itip("series-add.ics")]
                + me
        ).stdout
        XCTAssertTrue(run.contains("(instance 20260112T120000): updated"), run)
        XCTAssertTrue(run.contains("(instance 20260119T120000): instance cancelled"), run)
        XCTAssertTrue(run.contains("ADD 123456789@example.com: updated"), run)
        let listed = try icskit(weeks).stdout
        XCTAssertTrue(
            listed.contains("Mon 2026-01-12\n  15:00–16:00  IETF Calendaring Working Group Meeting (afternoon)"))
        XCTAssertFalse(listed.contains("Mon 2026-01-19"), listed)
        XCTAssertTrue(
            listed.contains("Sat 2026-02-21\n  12:00–15:00  IETF Calendaring Working Group Meeting (Saturday"))
        XCTAssertEqual(listed.components(separatedBy: "IETF Calendaring").count - 1, 6)
        try icskit(["invite", itip("series-cancel.ics")] + me)
        let cancelled = try icskit(weeks).stdout
        XCTAssertEqual(cancelled.components(separatedBy: "[cancelled]").count - 1, 6, cancelled)
    }

    /// A saved invitation mail goes through `import` too: recognised by its METHOD, applied by the same rules.
    func testImportRecognisesAnInvitationMail() throws {
        let run = try icskit(["import", CLI.fixture("mail/invite.eml"), "--me", "ana@example.org"]).stdout
        XCTAssertTrue(run.contains("scheduling messages, applied as icskit invite applies them"), run)
        XCTAssertTrue(
            run.contains("REQUEST lunch@example.org: added \"Déjeuner au café\" in Invitations: your answer is needed"),
            run)
        XCTAssertEqual(
            try CLI.sqlite(store, "SELECT count(*) FROM schedulingMessage").trimmingCharacters(
                in: .whitespacesAndNewlines),
            "1")
    }

    /// `reply`: the REPLY carries only my ATTENDEE with the answer, the item's UID and SEQUENCE, and python
    /// icalendar reads it without errors; my answer is set in the store and survives an update of the same
    /// SEQUENCE; the --mime mail parses with Python's email package into the parts RFC 6047 and CalConnect's iMIP
    /// guide describe.
    func testReplyWritesAREPLYAndAMailAndSetsMyAnswer() throws {
        let me = ["--me", "B@Example.com"]
        try icskit(["invite", itip("group-request.ics")] + me)
        let reply = try icskit(
            ["reply", "Conference", "--accept", "--comment", "Gern dabei", "-o", path("reply.ics")] + me)
        XCTAssertEqual(reply.stdout, "")
        let check = CLI.python([
            "-c",
            """
            import icalendar, sys
            c = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read())
            assert not c.errors, c.errors
            e = c.walk('VEVENT')[0]
            assert not e.errors, e.errors
            a = e.get('ATTENDEE')
            assert not isinstance(a, list), a
            print(c['METHOD'], e['UID'], e['SEQUENCE'], a, a.params['PARTSTAT'], e['COMMENT'], e['ORGANIZER'])
            """,
            path("reply.ics"),
        ])
        XCTAssertEqual(
            check.stdout,
            "REPLY \(conference) 0 mailto:b@example.com ACCEPTED Gern dabei mailto:a@example.com\n", check.stderr)
        let day = ["agenda", "--from", "1997-07-01", "--to", "+1d", "--tz", "UTC", "--no-ids"] + me
        XCTAssertTrue(try icskit(day).stdout.contains("20:00–21:00  Conference  (Invitations)"))
        // The organizer sends the same SEQUENCE again with a new DTSTAMP: my answer stays.
        let resent = try String(contentsOfFile: itip("group-request.ics"), encoding: .utf8)
            .replacingOccurrences(of: "DTSTAMP:19970611T190000Z", with: "DTSTAMP:19970611T210000Z")
            .replacingOccurrences(of: "SUMMARY:Conference", with: "SUMMARY:Conference (room 2)")
        try resent.write(toFile: path("resent.ics"), atomically: true, encoding: .utf8)
        XCTAssertTrue(try icskit(["invite", path("resent.ics")] + me).stdout.contains(": updated"))
        XCTAssertTrue(try icskit(day).stdout.contains("Conference (room 2)  (Invitations)"))

        try icskit(["reply", "Conference", "--decline", "--mime", "-o", path("reply.eml")] + me)
        let mail = CLI.python([
            "-c",
            """
            import email, email.policy, icalendar, sys
            m = email.message_from_bytes(open(sys.argv[1], 'rb').read(), policy=email.policy.default)
            parts = [p.get_content_type() for p in m.walk()]
            alternative = m.get_payload()[0]
            calendar = alternative.get_payload()[1]
            attached = m.get_payload()[1]
            c = icalendar.Calendar.from_ical(calendar.get_content())
            print(m['From'], m['To'], m['Subject'])
            print(parts)
            print(calendar.get_param('method'), calendar.get_content_charset(), attached.get_filename(),
                  attached.get_content_disposition())
            print(len(c.walk('VEVENT')[0].get('ATTENDEE').params), c.walk('VEVENT')[0]['ATTENDEE'].params['PARTSTAT'])
            print(attached.get_content() == calendar.get_content().encode() or attached.get_content().decode() == calendar.get_content())
            """,
            path("reply.eml"),
        ])
        XCTAssertEqual(
            mail.stdout,
            """
            b@example.com a@example.com Declined: Conference (room 2)
            ['multipart/mixed', 'multipart/alternative', 'text/plain', 'text/calendar', 'application/ics']
            REPLY utf-8 reply.ics attachment
            2 DECLINED
            True

            """, mail.stderr)
        XCTAssertTrue(try icskit(day).stdout.contains("Conference (room 2) [declined]"))
    }

    /// An answer for one instance of a series makes that instance an override with my answer; the others still
    /// wait for one.
    func testReplyToOneInstance() throws {
        let me = ["--me", "b@example.com"]
        try icskit(["invite", itip("series-request.ics")] + me)
        try icskit(["reply", "123456789", "--decline", "--instance", "2026-01-19", "--tz", "America/New_York"] + me)
        let weeks =
            ["agenda", "--from", "2026-01-01", "--to", "2026-03-01", "--tz", "America/New_York", "--no-ids"] + me
        let listed = try icskit(weeks).stdout
        XCTAssertTrue(
            listed.contains("Mon 2026-01-19\n  12:00–13:00  IETF Calendaring Working Group Meeting [declined]"), listed)
        XCTAssertEqual(listed.components(separatedBy: "[answer needed]").count - 1, 5, listed)
    }

    /// Real invitations: Outlook 2010's and Exchange 2010's REQUESTs and a Lotus Notes REQUEST for one instance
    /// without its series (from the shared corpus), and invitations in the shapes Google Calendar, Apple Calendar
    /// and Thunderbird send: each is added (the one instance kept and shown), waits for the invited address's
    /// answer, and keeps its producer's X- properties; Google's CANCEL applies; a reply to Apple's weekly series
    /// carries its VTIMEZONE and one ATTENDEE.
    func testRealInvitationsFromGoogleAppleThunderbirdOutlookExchangeAndNotes() throws {
        let me = ["--me", "ana@example.org,iCalParticipant@coffeebean.com"]
        for (file, uid) in [
            ("itip/google-request.ics", "5m0ql7v3k1s8abcdg2h3j4k5l6@google.com"),
            ("itip/apple-request.ics", "8A7B6C5D-4E3F-2A1B-9C8D-7E6F5A4B3C2D"),
            ("itip/thunderbird-request.ics", "f1e2d3c4-b5a6-4798-8a9b-0c1d2e3f4a5b"),
            ("corpus-copies/lotus-request.ics", "6BA1ECA4D58B306C85256FDB0071B664-Lotus_Notes_Generated"),
        ] {
            let run = try icskit(["invite", CLI.fixture(file)] + me).stdout
            XCTAssertTrue(
                run.contains("\(uid)") && run.contains(": added ") && run.hasSuffix("your answer is needed\n"), run)
        }
        for file in ["corpus-copies/outlook-2010.ics", "corpus-copies/exchange-request.ics"] {
            XCTAssertTrue(try icskit(["invite", CLI.fixture(file)] + me).stdout.contains(": added "))
        }
        let stored = try CLI.sqlite(store, "SELECT content FROM item")
        for kept in [
            "X-GOOGLE-CONFERENCE:https://meet.google.com/abc-defg-hij", "X-APPLE-TRAVEL-ADVISORY-BEHAVIOR:AUTOMATIC",
            "X-MOZ-SEND-INVITATIONS:TRUE", "X-MICROSOFT-CDO-BUSYSTATUS",
        ] {
            XCTAssertTrue(stored.contains(kept), kept)
        }
        let notes = try icskit(["agenda", "--from", "2005-04-26", "--to", "+1d", "--tz", "UTC", "--no-ids"] + me).stdout
        XCTAssertTrue(notes.contains("More complicated stream (5 day recurring) [answer needed]"), notes)

        // The pages mark what waits for an answer (week and month).
        for window in [["--week", "2026-W49"], ["--month", "2026-12"]] {
            try icskit(["export", "--format", "html", "--tz", "Europe/Berlin", "-o", path("page.html")] + window + me)
            let page = try String(contentsOfFile: path("page.html"), encoding: .utf8)
            XCTAssertTrue(page.contains(" needs-answer\""), window.joined())
            XCTAssertTrue(page.contains("Budget review · 10:00–10:30 · waiting for your answer"), window.joined())
        }
        XCTAssertTrue(
            try icskit(["invite", itip("google-cancel.ics")] + me).stdout.contains(": cancelled \"Budget review\""))
        let december = ["agenda", "--from", "2026-12-03", "--to", "+8d", "--tz", "Europe/Berlin", "--no-ids"] + me
        XCTAssertTrue(try icskit(december).stdout.contains("10:00–10:30  Budget review [cancelled]"))

        try icskit(["reply", "Chorale", "--accept", "-o", path("chorale.ics")] + me)
        let read = CLI.python([
            "-c",
            "import icalendar,sys; c=icalendar.Calendar.from_ical(open(sys.argv[1],'rb').read()); "
                + "e=c.walk('VEVENT')[0]; a=e.get('ATTENDEE'); "
                + "print([str(z['TZID']) for z in c.walk('VTIMEZONE')], a, a.params['PARTSTAT'], a.params['CN'])",
            path("chorale.ics"),
        ])
        XCTAssertEqual(read.stdout, "['Europe/Paris'] mailto:ana@example.org ACCEPTED Ana\n", read.stderr)
        XCTAssertTrue(try icskit(december).stdout.contains("18:00–20:00  Chorale ⟳ ⏰  (Invitations)"))
    }

    /// The organizer's side: `invite HANDLE --to` makes me the ORGANIZER and the addresses ATTENDEEs with RSVP,
    /// the mail goes to them; an edit of the time raises SEQUENCE in the REQUEST `--notify` writes; an attendee's
    /// REPLY sets her answer in my copy; `rm --notify` writes the CANCEL (SEQUENCE up, STATUS:CANCELLED).
    func testAnOrganizerInvitesMovesHearsAnswersAndCancels() throws {
        let me = ["--me", "ana@example.org"]
        let uid = try icskit(
            [
                "add", "event", "Design review", "--start", "2026-12-07 10:00", "--duration", "1h", "--location",
                "Room 1",
                "--calendar", "Work",
            ]
        ).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try icskit(
            [
                "invite", "Design review", "--to", "priya@example.com,Jonas@example.net", "--mime", "-o",
                path("invite.eml"),
            ]
                + me)
        let mail = CLI.python([
            "-c",
            """
            import email, email.policy, icalendar, sys
            m = email.message_from_bytes(open(sys.argv[1], 'rb').read(), policy=email.policy.default)
            part = [p for p in m.walk() if p.get_content_type() == 'text/calendar'][0]
            e = icalendar.Calendar.from_ical(part.get_content()).walk('VEVENT')[0]
            print(m['From'], '|', m['To'], '|', m['Subject'], '|', part.get_param('method'))
            print(e['ORGANIZER'], sorted(str(a) for a in e['ATTENDEE']), e['SEQUENCE'])
            print(sorted(a.params['RSVP'] + a.params['PARTSTAT'] for a in e['ATTENDEE']))
            """,
            path("invite.eml"),
        ])
        XCTAssertEqual(
            mail.stdout,
            """
            ana@example.org | priya@example.com, jonas@example.net | Invitation: Design review | REQUEST
            mailto:ana@example.org ['mailto:jonas@example.net', 'mailto:priya@example.com'] 0
            ['TRUENEEDS-ACTION', 'TRUENEEDS-ACTION']

            """, mail.stderr)

        let moved = try icskit(
            ["edit", "Design review", "--start", "2026-12-07 11:00", "--notify", path("moved.ics")] + me)
        XCTAssertTrue(moved.stdout.hasPrefix("edited: Design review"), moved.stdout)
        let update = try String(contentsOfFile: path("moved.ics"), encoding: .utf8)
        XCTAssertTrue(update.contains("METHOD:REQUEST") && update.contains("SEQUENCE:1\r\n"), update)
        // An edit without --notify says the attendees could be told; the place moved: SEQUENCE 2, so an answer
        // to SEQUENCE 1 is stale.
        let quiet = try icskit(["edit", "Design review", "--location", "Room 2"] + me)
        XCTAssertTrue(quiet.stderr.contains("--notify FILE writes the updated REQUEST"), quiet.stderr)

        let reply = """
            BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nMETHOD:REPLY\r\nBEGIN:VEVENT\r\nUID:\(uid)\r\n\
            SEQUENCE:2\r\nDTSTAMP:20261126T120000Z\r\nORGANIZER:mailto:ana@example.org\r\n\
            ATTENDEE;PARTSTAT=ACCEPTED:mailto:priya@example.com\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n
            """
        try reply.write(toFile: path("reply.ics"), atomically: true, encoding: .utf8)
        XCTAssertTrue(try icskit(["invite", path("reply.ics")] + me).stdout.contains("priya@example.com accepted"))
        let shown = try icskit(["show", "Design review"] + me).stdout
        XCTAssertTrue(shown.contains("priya@example.com  required, accepted"), shown)
        XCTAssertTrue(shown.contains("jonas@example.net  required, no answer yet"), shown)

        // The week's page: my invitation's tooltip lists the answers.
        try icskit(["export", "--format", "html", "--week", "2026-W50", "--tz", "UTC", "-o", path("week.html")] + me)
        let page = try String(contentsOfFile: path("week.html"), encoding: .utf8)
        XCTAssertTrue(page.contains("answers: priya@example.com accepted, jonas@example.net no answer yet"))

        let removed = try icskit(["rm", "Design review", "--notify", path("cancel.ics")] + me)
        XCTAssertTrue(removed.stdout.hasPrefix("removed: Design review"), removed.stdout)
        let cancel = try String(contentsOfFile: path("cancel.ics"), encoding: .utf8)
        XCTAssertTrue(cancel.contains("METHOD:CANCEL") && cancel.contains("STATUS:CANCELLED"), cancel)
        XCTAssertTrue(cancel.contains("SEQUENCE:3\r\n"), cancel)
        // Someone else's item: --notify refuses, nothing is removed.
        try icskit(["invite", itip("google-request.ics")] + me)
        let refused = try icskit(["rm", "Budget review", "--notify", path("no.ics")] + me, status: 1)
        XCTAssertTrue(refused.stderr.contains("you do not organize"), refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("no.ics")))
    }

    /// An invitation that came in a plain calendar file (no METHOD): answered, imported again changed, answered
    /// again: the answer goes on the item as the store has it now.
    func testAnswersGoOnAPlainlyImportedItemAsItIsNow() throws {
        func calendar(_ summary: String) -> String {
            """
            BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:club@example.org\r\n\
            DTSTAMP:20261120T100000Z\r\nDTSTART:20261215T180000Z\r\nSUMMARY:\(summary)\r\n\
            ORGANIZER:mailto:olga@example.org\r\nATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:ana@example.org\r\n\
            END:VEVENT\r\nEND:VCALENDAR\r\n
            """
        }
        let me = ["--me", "ana@example.org"]
        try calendar("Book club").write(toFile: path("club.ics"), atomically: true, encoding: .utf8)
        try icskit(["import", path("club.ics"), "--calendar", "Club", "-q"])
        try icskit(["reply", "club@example.org", "--accept", "-o", path("r1.ics")] + me)
        try calendar("Book club (at Olga's)").write(toFile: path("club.ics"), atomically: true, encoding: .utf8)
        try icskit(["import", path("club.ics"), "--calendar", "Club", "-q"])
        try icskit(["reply", "club@example.org", "--decline", "-o", path("r2.ics")] + me)
        let content = try CLI.sqlite(store, "SELECT content FROM item")
        XCTAssertTrue(content.contains("SUMMARY:Book club (at Olga's)"), content)
        XCTAssertTrue(content.contains("PARTSTAT=DECLINED:mailto:ana@example.org"), content)
    }
}
