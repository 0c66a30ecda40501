import Foundation
import XCTest

/// Issue 46's "who may change my calendar": a stranger's REQUEST, CANCEL and REPLY against an event I made, against
/// someone else's invitation (Fixtures/itip, RFC 5546's group scenario) and against one I organize; and mails whose
/// sender is not whom they speak for. What may not be applied changes nothing, is kept aside and said.
final class TrustCLITests: StoreCLITestCase {
    let conference = "calsrv.example.com-873970198738777@example.com"

    /// A scheduling message for `uid` as iCalendar text.
    func message(
        _ method: String, uid: String, organizer: String, attendee: String = "mailto:b@example.com",
        summary: String = "Pwned", sequence: Int = 5, extra: String = ""
    ) -> String {
        """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//Mallory//EN\r
        METHOD:\(method)\r
        BEGIN:VEVENT\r
        UID:\(uid)\r
        DTSTAMP:20261126T120000Z\r
        SEQUENCE:\(sequence)\r
        DTSTART:19970701T200000Z\r
        DTEND:19970701T210000Z\r
        SUMMARY:\(summary)\r
        ORGANIZER:\(organizer)\r
        ATTENDEE;PARTSTAT=ACCEPTED:\(attendee)\r
        \(extra)END:VEVENT\r
        END:VCALENDAR\r

        """
    }

    func write(_ text: String, _ name: String) throws -> String {
        try text.write(toFile: path(name), atomically: true, encoding: .utf8)
        return path(name)
    }

    /// The store's export, its folded lines unfolded.
    func exported() throws -> String {
        try icskit(["export"]).stdout.replacingOccurrences(of: "\r\n ", with: "").replacingOccurrences(
            of: "\n ", with: "")
    }

    func testAStrangersRequestAndCancelLeaveMyOwnEventAlone() throws {
        let uid = try icskit(["add", "event", "Dentist", "--start", "2026-12-01 10:00", "--location", "Main St"])
            .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let before = try exported()
        for method in ["REQUEST", "CANCEL"] {
            let file = try write(message(method, uid: uid, organizer: "mailto:mallory@evil.example"), method + ".ics")
            let run = try icskit(["invite", file], status: 1)
            XCTAssertEqual(
                run.stdout,
                "\(method) \(uid): not applied \"Dentist\" — \"Dentist\" has no organizer (it was made here); a "
                    + "\(method) from mallory@evil.example does not change it\n")
            XCTAssertEqual(
                run.stderr, "icskit: 1 scheduling message not applied, kept aside (icskit invite --held lists them)\n")
            // `import` applies invitations by the same rules.
            try icskit(["import", file, "-q"], status: 1)
        }
        XCTAssertEqual(try exported(), before)
        let held = try icskit(["invite", "--held"]).stdout.split(separator: "\n")
        XCTAssertEqual(held.count, 2, held.joined(separator: "\n"))
        XCTAssertTrue(held[0].hasPrefix("REQUEST \(uid) \"Dentist\" — \"Dentist\" has no organizer"), String(held[0]))
    }

    func testOnlyTheOrganizerChangesSomeoneElsesInvitation() throws {
        let me = ["--me", "b@example.com"]
        try icskit(["invite", CLI.fixture("itip/group-request.ics")] + me)
        let forged = try write(message("REQUEST", uid: conference, organizer: "mailto:mallory@evil.example"), "f.ics")
        let run = try icskit(["invite", forged] + me, status: 1)
        XCTAssertTrue(
            run.stdout.contains(
                "not applied \"Conference\" — mallory@evil.example is not the organizer of \"Conference\" "
                    + "(a@example.com is)"), run.stdout)
        let cancel = try write(message("CANCEL", uid: conference, organizer: "mailto:mallory@evil.example"), "c.ics")
        try icskit(["invite", cancel] + me, status: 1)
        let stored = try exported()
        XCTAssertTrue(stored.contains("SUMMARY:Conference"), stored)
        XCTAssertTrue(stored.contains("ORGANIZER:mailto:a@example.com"), stored)
        XCTAssertFalse(stored.contains("CANCELLED"), stored)
        // The organizer's own update still applies, and so does the organizer's cancellation.
        XCTAssertTrue(try icskit(["invite", CLI.fixture("itip/group-update.ics")] + me).stdout.contains(": updated"))
        XCTAssertTrue(try icskit(["invite", CLI.fixture("itip/group-cancel.ics")] + me).stdout.contains(": cancelled"))
    }

    func testAnswersCountOnlyFromInvitedPeopleAndForMe() throws {
        let me = ["--me", "me@example.com"]
        let uid = try icskit(["add", "event", "Review", "--start", "2026-12-02 15:00"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        try icskit(["invite", uid, "--to", "ana@example.com"] + me)
        // Ana answers: applied. Eve was not invited: kept aside, until I invite her.
        let ana = try write(
            message(
                "REPLY", uid: uid, organizer: "mailto:me@example.com", attendee: "mailto:ana@example.com",
                summary: "Review", sequence: 0), "ana.ics")
        XCTAssertTrue(
            try icskit(["invite", ana] + me).stdout.contains("replied \"Review\" — ana@example.com accepted"))
        let eve = try write(
            message(
                "REPLY", uid: uid, organizer: "mailto:me@example.com", attendee: "mailto:eve@evil.example",
                summary: "Review", sequence: 0), "eve.ics")
        let crashed = try icskit(["invite", eve] + me, status: 1).stdout
        XCTAssertTrue(
            crashed.contains("eve@evil.example is not invited to \"Review\"; the answer is kept aside"), crashed)
        XCTAssertFalse(try exported().contains("eve@evil.example"))
        // A REPLY addressed to another organizer is no answer to my invitation.
        let elsewhere = try write(
            message(
                "REPLY", uid: uid, organizer: "mailto:bob@example.com", attendee: "mailto:ana@example.com",
                summary: "Review", sequence: 0
            ).replacingOccurrences(of: "ACCEPTED", with: "DECLINED"), "bob.ics")
        try icskit(["invite", elsewhere] + me, status: 1)
        XCTAssertTrue(try exported().contains("PARTSTAT=ACCEPTED:mailto:ana@example.com"))
        // Invited now: her answer, kept aside, counts.
        try icskit(["invite", uid, "--to", "eve@evil.example"] + me)
        let stored = try exported()
        XCTAssertTrue(stored.contains("PARTSTAT=ACCEPTED:mailto:eve@evil.example"), stored)
        let held = try icskit(["invite", "--held", "--json"]).stdout
        XCTAssertFalse(held.contains("eve@evil.example"), held)
        XCTAssertTrue(held.contains("bob@example.com"), held)
    }

    /// A mail (iMIP) whose From: is the organizer, or whom it sends by, applies; another sender's is kept aside
    /// unless the user vouches for it.
    func testAMailIsAppliedWhenItsSenderIsTheOrganizer() throws {
        let request = try String(contentsOfFile: CLI.fixture("itip/group-request.ics"), encoding: .utf8)
        func mail(from: String, _ calendar: String) throws -> String {
            let text =
                "From: \(from)\r\nTo: b@example.com\r\nSubject: Conference\r\nMIME-Version: 1.0\r\n"
                + "Content-Type: text/calendar; method=REQUEST; charset=UTF-8\r\n\r\n" + calendar
            return try write(text, "mail-\(abs(from.hashValue)).eml")
        }
        let me = ["--me", "b@example.com"]
        let eve = try mail(from: "Eve <eve@evil.example>", request)
        let refused = try icskit(["invite", eve] + me, status: 1).stdout
        XCTAssertTrue(
            refused.contains(
                "unverified: the mail is from eve@evil.example, not from its ORGANIZER a@example.com or whom your "
                    + "copy says sends for them (SENT-BY); --trust-sender applies it"), refused)
        XCTAssertFalse(try exported().contains("Conference"))
        XCTAssertTrue(try icskit(["invite", eve, "--trust-sender"] + me).stdout.contains(": added \"Conference\""))
        try icskit(["undo"])
        XCTAssertTrue(
            try icskit(["invite", try mail(from: "A <A@example.com>", request)] + me).stdout.contains(": added"))
        // SENT-BY: an assistant sends the organizer's update — once the organizer's own invitation said so; a
        // SENT-BY only the message names proves nothing (issue 59).
        let update = try String(contentsOfFile: CLI.fixture("itip/group-update.ics"), encoding: .utf8)
            .replacingOccurrences(
                of: "ORGANIZER:mailto:a@example.com",
                with: "ORGANIZER;SENT-BY=\"mailto:pa@example.com\":mailto:a@example.com")
        XCTAssertTrue(update.contains("SENT-BY"))
        try icskit(["invite", try mail(from: "pa@example.com", update)] + me, status: 1)
        try icskit(["undo"])
        try icskit(["undo"])
        let delegated = request.replacingOccurrences(
            of: "ORGANIZER:mailto:a@example.com",
            with: "ORGANIZER;SENT-BY=\"mailto:pa@example.com\":mailto:a@example.com")
        XCTAssertTrue(
            try icskit(["invite", try mail(from: "a@example.com", delegated)] + me).stdout.contains(": added"))
        XCTAssertTrue(
            try icskit(["invite", try mail(from: "pa@example.com", update)] + me).stdout.contains(": updated"))
    }

    /// `show --raw` on a terminal (a pseudo-terminal through util-linux `script`) escapes the C1 control U+009B
    /// (a CSI that could clear the screen); into a pipe it writes the text as kept.
    func testRawTextOnATerminalHasItsControlsEscaped() throws {
        let file = try write(
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:csi@t\r\nDTSTAMP:20260101T000000Z\r\n"
                + "DTSTART:20261201T090000Z\r\nSUMMARY:clear \u{9B}2J here\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
            "csi.ics")
        try icskit(["import", file, "-q"])
        XCTAssertTrue(try icskit(["show", "csi@t", "--raw"]).stdout.contains("SUMMARY:clear \u{9B}2J here\r\n"))
        let command = [CLI.binary, "show", "csi@t", "--raw", "--store", store].joined(separator: " ")
        let terminal = try CLI.run(
            ["-qc", command, path("typescript")], executable: "/usr/bin/script", timeout: 30)
        XCTAssertEqual(terminal.status, 0, terminal.stderr)
        XCTAssertTrue(terminal.stdout.contains("SUMMARY:clear \\x9B2J here"), terminal.stdout)
        XCTAssertFalse(terminal.stdout.contains("\u{9B}"), terminal.stdout)
    }

    /// A calendar name with a line break (X-WR-CALNAME) becomes one line, and so does a category's, so that neither
    /// prints as a line of its own in `import`, `check-store` or `categories` (issue 46).
    func testNamesFromAFilePrintAsOneLine() throws {
        let file = try write(
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nX-WR-CALNAME:Evil\\nicskit: all good\r\n"
                + "BEGIN:VEVENT\r\nUID:n@t\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20261201T090000Z\r\nSUMMARY:s\r\n"
                + "CATEGORIES:a\\nb\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n", "name.ics")
        XCTAssertEqual(
            try icskit(["import", file]).stdout, "Evil icskit: all good: 1 added, 0 updated, 0 unchanged, 0 skipped\n")
        XCTAssertTrue(try icskit(["check-store"]).stdout.contains("\n  Evil icskit: all good: 1 item\n"))
        XCTAssertEqual(try icskit(["categories"]).stdout, "a\\nb  -  1 item\n")
    }

    /// Local files (issue 46): a store named by a dangling link is made where the link points, 0600 whatever the
    /// umask; an empty file stays empty through reading commands; a damage mark beside the file holds for a link.
    func testAStorePathIsResolvedOnceAndReadingMakesNoStore() throws {
        let link = path("link.sqlite"), target = path("target.sqlite")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "target.sqlite")
        let made = try CLI.run(["add", "event", "X", "--start", "2026-12-01 10:00", "--store", link])
        XCTAssertEqual(made.status, 0, made.stderr)
        let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: target)[.posixPermissions] as? Int)
        XCTAssertEqual(mode & 0o777, 0o600)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link), "target.sqlite")

        let empty = path("empty.sqlite")
        XCTAssertTrue(FileManager.default.createFile(atPath: empty, contents: Data()))
        for command in [["agenda"], ["search", "x"], ["todo"], ["remind", "--within", "1d"]] {
            let run = try CLI.run(command + ["--store", empty])
            XCTAssertEqual(run.status, 0, "\(command): \(run.stderr)")
        }
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: empty)[.size] as? Int, 0)
        // Reached through a link, the empty file stays empty too (issue 59).
        let linked = path("linked.sqlite")
        try FileManager.default.createSymbolicLink(atPath: linked, withDestinationPath: "empty.sqlite")
        for command in [["agenda"], ["search", "x"], ["todo"], ["remind", "--within", "1d"]] {
            XCTAssertEqual(try CLI.run(command + ["--store", linked]).status, 0, "\(command)")
        }
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: empty)[.size] as? Int, 0)

        try "icskit check-store found this store damaged:\n*** in database main ***\npage 7 is never used\n".write(
            toFile: target + ".damaged", atomically: true, encoding: .utf8)
        let refused = try CLI.run(["add", "event", "Y", "--start", "2026-12-01 11:00", "--store", link])
        XCTAssertEqual(refused.status, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("failed its integrity check (page 7 is never used)"), refused.stderr)
    }

    /// Reading never needs to write (issue 46): when the store refuses the instance cache's writes (as a full disk
    /// does; here a trigger stands for the disk), `agenda` and `remind` list from the items, as a store that takes the
    /// writes lists.
    func testListingsReadWhenTheStoreTakesNoWrites() throws {
        let fixture = CLI.fixture("hand/agenda-marks.ics")
        try icskit(["import", fixture, "--calendar", "Marks", "-q"])
        let other = path("other.sqlite")
        XCTAssertEqual(try CLI.run(["import", fixture, "--calendar", "Marks", "-q", "--store", other]).status, 0)
        try CLI.sqliteScript(
            store,
            "CREATE TRIGGER full BEFORE INSERT ON instanceMonth BEGIN SELECT RAISE(FAIL, 'database or disk is full'); END;"
        )
        for command in [
            ["agenda", "--from", "2026-01-01", "--to", "2027-01-01", "--tz", "UTC", "--no-ids"],
            ["remind", "--within", "400d", "--tz", "UTC"],
        ] {
            let refused = try icskit(command)
            XCTAssertEqual(refused.stderr, "")
            XCTAssertEqual(refused.stdout, try CLI.run(command + ["--store", other]).stdout, "\(command)")
        }
    }

    /// A first `sync --caldav` that cannot reach the server does not leave the calendar bound; a binding that synced
    /// before stays when a later sync fails (issue 46).
    func testAFirstBindThatFailsIsTakenBack() throws {
        try icskit(["add", "event", "Tea", "--start", "2026-12-01 16:00", "--calendar", "Work"])
        let unreachable = "http://127.0.0.1:1/cal/"
        let run = try icskit(["sync", "Work", "--caldav", unreachable, "--timeout", "5"], status: 1)
        XCTAssertTrue(
            run.stderr.contains("icskit: Work: not bound to \(unreachable), since it could not be reached"), run.stderr)
        XCTAssertFalse(try icskit(["calendars"]).stdout.contains("syncs with"))
        // Bound to a vdir that synced: a failing sync later leaves the binding.
        let vdir = path("vdir")
        try icskit(["sync", "Work", "--vdir", vdir])
        try FileManager.default.removeItem(atPath: vdir)
        try "not a folder".write(toFile: vdir, atomically: true, encoding: .utf8)
        try icskit(["sync", "Work"], status: 1)
        XCTAssertTrue(try icskit(["calendars"]).stdout.contains("syncs with vdir"))
    }

    /// `search` on a store that takes no writes (here a trigger refuses the index's bookkeeping, as a full disk or
    /// read-only media would) searches the index as it stands and reads the items it lacks: no SQLite text, exit 0
    /// (issue 46), and an item added since the index was last brought up to date is found (issue 59).
    func testSearchOnAStoreThatTakesNoWrites() throws {
        try icskit(["add", "event", "Budget review", "--start", "2026-12-01 10:00"])
        XCTAssertTrue(try icskit(["search", "budget", "--no-ids"]).stdout.contains("Budget review"))
        try icskit(["add", "event", "Budget plan", "--start", "2026-12-02 10:00"])
        try CLI.sqliteScript(
            store,
            "CREATE TRIGGER refuse BEFORE UPDATE ON itemSearchState BEGIN SELECT RAISE(FAIL, 'disk full'); END; "
                + "CREATE TRIGGER refuse2 BEFORE INSERT ON itemSearchState BEGIN SELECT RAISE(FAIL, 'disk full'); END;")
        let run = try icskit(["search", "budget", "--no-ids"])
        XCTAssertEqual(run.stderr, "")
        XCTAssertTrue(run.stdout.contains("Budget review"), run.stdout)
        XCTAssertTrue(run.stdout.contains("Budget plan"), run.stdout)
        XCTAssertEqual(try icskit(["search", "plan", "--no-ids"]).stdout.components(separatedBy: "\n").count, 2)
        XCTAssertTrue(try icskit(["search", "nothing-like-it"]).stdout.hasPrefix("no item holds"))
        // Changed since it was indexed: found by its new text, not by its old.
        try CLI.sqliteScript(store, "DROP TRIGGER refuse; DROP TRIGGER refuse2;")
        try icskit(["search", "budget"])
        try CLI.sqliteScript(
            store,
            "CREATE TRIGGER refuse BEFORE UPDATE ON itemSearchState BEGIN SELECT RAISE(FAIL, 'disk full'); END;")
        try icskit(["edit", "Budget plan", "--summary", "Café plan"])
        XCTAssertTrue(try icskit(["search", "cafe", "--no-ids"]).stdout.contains("Café plan"))
        XCTAssertFalse(try icskit(["search", "budget", "--no-ids"]).stdout.contains("plan"))
    }

    /// Undo of `calendars X --remove` gives the calendar back bound to its partner, and the next sync pairs its items
    /// with the partner's again instead of writing them twice (issue 46).
    func testUndoingACalendarsRemovalKeepsItsBinding() throws {
        try icskit(["add", "event", "Tea", "--start", "2026-12-01 16:00", "--calendar", "Work"])
        let vdir = path("vdir")
        try icskit(["sync", "Work", "--vdir", vdir])
        try icskit(["calendars", "Work", "--remove", "--yes"])
        try icskit(["undo"])
        XCTAssertTrue(try icskit(["calendars"]).stdout.contains("Work  1 item"))
        XCTAssertTrue(try icskit(["calendars"]).stdout.contains("syncs with vdir"))
        let synced = try icskit(["sync"]).stdout
        XCTAssertTrue(synced.contains("Work: vdir: 0 created, 0 updated, 0 deleted"), synced)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: vdir).filter { $0.hasSuffix(".ics") }.count, 1)
    }
}
