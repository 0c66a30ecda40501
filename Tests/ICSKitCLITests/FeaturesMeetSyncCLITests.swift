import Foundation
import ICSKitTestSupport
import XCTest

/// Where features meet (issue 45), the classes that involve someone else: invitations answered after local edits,
/// a server that refuses one resource, a password over plain HTTP.
final class FeaturesMeetSyncCLITests: StoreCLITestCase {
    func itip(_ name: String) -> String { CLI.fixture("itip/" + name) }

    // MARK: 5. Invitations write correct text and answer the organizer

    func testAReplyEscapesItsCommentAndAnswersTheOrganizersSequence() throws {
        let me = ["--me", "b@example.com"]
        try icskit(["invite", itip("group-request.ics")] + me)
        // A local edit raises the store's SEQUENCE; the REPLY still answers the organizer's (0).
        try icskit(["edit", "Conference", "--start", "1997-07-01 22:00", "--tz", "UTC"] + me)
        let reply = try icskit(
            ["reply", "Conference", "--accept", "--comment", "files in C:\\new, see; you"] + me
        ).stdout
        XCTAssertTrue(reply.contains("COMMENT:files in C:\\\\new\\, see\\; you\r\n"), reply)
        XCTAssertTrue(reply.contains("SEQUENCE:0\r\n"), reply)
        // python icalendar reads the comment back as it was typed.
        let read = CLI.python(
            [
                "-c",
                "import sys, icalendar; c = icalendar.Calendar.from_ical(sys.stdin.read()); "
                    + "print([str(e['COMMENT']) for e in c.walk('VEVENT')][0])",
            ], stdin: Data(reply.utf8))
        XCTAssertEqual(read.stdout, "files in C:\\new, see; you\n", read.stderr)
    }

    func testAReplyToAnInvitationWithoutOrganizerIsRefused() throws {
        let request = try String(contentsOfFile: itip("group-request.ics"), encoding: .utf8)
            .components(separatedBy: "\r\n").filter { !$0.hasPrefix("ORGANIZER") }.joined(separator: "\r\n")
        try request.write(toFile: path("no-organizer.ics"), atomically: true, encoding: .utf8)
        try icskit(["invite", path("no-organizer.ics"), "--me", "b@example.com"])
        let run = try icskit(["reply", "Conference", "--accept", "--mime", "--me", "b@example.com"], status: 1)
        XCTAssertTrue(run.stdout.isEmpty, run.stdout)
        XCTAssertTrue(run.stderr.contains("names no ORGANIZER"), run.stderr)
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
    }

    func testRemovingOneInstanceOfAnOrganizedSeriesWritesItsCancel() throws {
        let me = ["--me", "me@example.com"]
        try icskit([
            "add", "event", "Standup", "--start", "2026-12-01 09:00", "--repeat", "daily", "--count", "5", "--tz",
            "UTC",
        ])
        try icskit(["invite", "Standup", "--to", "bob@example.com"] + me)
        try icskit(["rm", "Standup", "--instance", "2026-12-02", "--notify", path("cancel.ics")] + me)
        let cancel = try String(contentsOfFile: path("cancel.ics"), encoding: .utf8)
        XCTAssertTrue(cancel.contains("METHOD:CANCEL\r\n"), cancel)
        XCTAssertTrue(cancel.contains("RECURRENCE-ID:20261202T090000Z\r\n"), cancel)
        XCTAssertTrue(cancel.contains("STATUS:CANCELLED\r\n"), cancel)
        XCTAssertEqual(cancel.components(separatedBy: "BEGIN:VEVENT").count - 1, 1, "that instance alone")
        XCTAssertTrue(cancel.contains("bob@ex"), cancel)
        let week = try icskit(["agenda", "--from", "2026-12-01", "--to", "+5d", "--tz", "UTC", "--no-ids"]).stdout
        XCTAssertEqual(week.components(separatedBy: "Standup").count - 1, 4, week)
        // Someone else's series: --notify is refused before anything changes.
        try icskit(["rm", "Standup", "--instance", "2026-12-03", "--notify", path("x.ics"), "--me", "c@x"], status: 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("x.ics")))
    }

    /// A SEQUENCE at the top of a 64-bit integer (issue 46) no longer crashes the commands that raise it.
    func testTheLargestSequenceIsRaisedWithoutOverflow() throws {
        try """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//test//EN\r
        BEGIN:VEVENT\r
        UID:huge@example.com\r
        DTSTAMP:20260101T000000Z\r
        DTSTART:20261201T100000Z\r
        SEQUENCE:9223372036854775807\r
        SUMMARY:Huge\r
        ORGANIZER:mailto:a@example.com\r
        ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:b@example.com\r
        END:VEVENT\r
        END:VCALENDAR\r

        """.write(toFile: path("huge.ics"), atomically: true, encoding: .utf8)
        try icskit(["import", path("huge.ics"), "--calendar", "Work", "-q"])
        try icskit(["edit", "huge@example.com", "--start", "2026-12-01 11:00", "--tz", "UTC"])
        try icskit(["reply", "huge@example.com", "--accept", "--me", "b@example.com"])
        try icskit(["merge", path("huge.ics"), "--into", "Work", "-q"])
        XCTAssertTrue(try icskit(["check-store"]).stdout.contains("integrity: ok"))
    }

    /// An ORGANIZER that names two addresses does not put both into a mail's To: (issue 46).
    func testAnOrganizerOfTwoAddressesWritesNoMail() throws {
        let request = try String(contentsOfFile: itip("group-request.ics"), encoding: .utf8)
            .replacingOccurrences(
                of: "ORGANIZER:mailto:a@example.com", with: "ORGANIZER:mailto:a@example.com,eve@evil.example")
        try request.write(toFile: path("two.ics"), atomically: true, encoding: .utf8)
        try icskit(["invite", path("two.ics"), "--me", "b@example.com"])
        let run = try icskit(["reply", "Conference", "--accept", "--mime", "--me", "b@example.com"], status: 1)
        XCTAssertEqual(run.stdout, "")
        XCTAssertTrue(run.stderr.contains("is not one mail address"), run.stderr)
    }

    /// A vCard, a file of some other BEGIN, a folder without calendar files: nothing imported, said, exit 1
    /// (issue 46).
    func testImportOfWhatIsNoCalendarSaysSoAndFails() throws {
        try "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ana\r\nEND:VCARD\r\n".write(
            toFile: path("ana.vcf"), atomically: true, encoding: .utf8)
        try "BEGIN:FOO\r\nX:1\r\nEND:FOO\r\n".write(toFile: path("foo.ics"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: path("notes"), withIntermediateDirectories: true)
        try "hi".write(toFile: path("notes/readme.txt"), atomically: true, encoding: .utf8)
        for input in ["ana.vcf", "foo.ics", "notes"] {
            let run = try icskit(["import", path(input), "--calendar", "X"], status: 1)
            XCTAssertTrue(run.stderr.contains("no calendar data in"), run.stderr)
        }
        XCTAssertEqual(try CLI.sqlite(store, "SELECT count(*) FROM item"), "0\n")
    }

    // MARK: 3. One refused resource does not stop a sync

    func caldav(_ arguments: [String]) throws -> CLI.Run {
        try CLI.run(
            arguments + ["--store", store], timeout: 120, environment: ["ICSKIT_PASSWORD": DAVServer.password])
    }

    /// Radicale stores a Google-style UID of changed instances only (written with its series) and refuses one it
    /// cannot store (instances that mix dates and date-times): reported by title with Radicale's reason, kept, not
    /// sent again until it changes, and every other resource written.
    func testARefusedResourceIsReportedKeptAndNotRetriedWhileUnchanged() throws {
        let scratch = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let server = try DAVServer(.radicale, folder: scratch)
        defer { server.stop() }
        try icskit(["import", CLI.fixture("demo/work.ics"), "--calendar", "Work", "-q"])
        try icskit(["import", CLI.fixture("corpus-copies/khal-recuid-no-master.ics"), "--calendar", "Work", "-q"])
        try icskit(["import", CLI.fixture("hand/lone-overrides-mixed.ics"), "--calendar", "Work", "-q"])
        let first = try caldav(["sync", "Work", "--caldav", server.collection, "--user", DAVServer.user])
        XCTAssertEqual(first.status, 1, first.stderr)
        XCTAssertTrue(
            first.stderr.contains("Work: the server refused \"Mixed one\" (mixed@example.com): HTTP 400"),
            first.stderr)
        XCTAssertTrue(
            first.stdout.contains("created /test/work/abe304dc-f7b1-4f2b-997d-5c8bcfaa7e0b.ics"), first.stdout)
        let created = first.stdout.components(separatedBy: "caldav: created").count - 1
        XCTAssertEqual(created, 10, "every other resource: \(first.stdout)")

        let second = try caldav(["sync"])
        XCTAssertEqual(second.status, 0, "said before, not sent again: the rest of the sync is done")
        XCTAssertTrue(second.stderr.contains("is unchanged since the server refused it"), second.stderr)
        XCTAssertTrue(second.stderr.contains("`icskit sync Work --repair` sends it"), second.stderr)
        XCTAssertFalse(second.stdout.contains("caldav: created"), second.stdout)
        XCTAssertEqual(try CLI.sqlite(store, "SELECT count(*) FROM item WHERE uid = 'mixed@example.com'"), "2\n")

        // Changed here: sent again (and refused again, said as new); removed here: forgotten, and the sync is clean.
        try icskit(["edit", "mixed@example.com", "--location", "Room 2"])
        let third = try caldav(["sync"])
        XCTAssertEqual(third.status, 1)
        XCTAssertTrue(third.stderr.contains("the server refused \"Mixed one\""), third.stderr)
        try icskit(["rm", "mixed@example.com", "--yes"])
        let fourth = try caldav(["sync"])
        XCTAssertEqual(fourth.status, 0, fourth.stderr)
        XCTAssertEqual(try CLI.sqlite(store, "SELECT count(*) FROM syncRefusal"), "0\n")
    }

    /// Issue 65 class 9: Radicale refuses an item strict readers refuse (a quote inside a quoted CN, a date
    /// DTSTAMP); the sync names it and says what mends it, later syncs succeed, and `sync --repair` sends it as
    /// `convert --repair` writes it, which the server takes.
    func testSyncRepairSendsWhatTheServerRefused() throws {
        let scratch = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let server = try DAVServer(.radicale, folder: scratch)
        defer { server.stop() }
        try icskit(["import", CLI.fixture("hand/round4-strict-readers.ics"), "--calendar", "Team", "-q"])
        let first = try caldav(["sync", "Team", "--caldav", server.collection, "--user", DAVServer.user])
        XCTAssertEqual(first.status, 1, first.stderr)
        XCTAssertTrue(
            first.stderr.contains("Team: the server refused \"Weekly review\" (series-override@example.org): HTTP 400"),
            first.stderr)
        XCTAssertTrue(first.stderr.contains("`icskit sync Team --repair` sends it as `convert --repair` writes it"))
        let second = try caldav(["sync"])
        XCTAssertEqual(second.status, 0, second.stderr)
        let repaired = try caldav(["sync", "Team", "--repair"])
        XCTAssertEqual(repaired.status, 0, repaired.stderr)
        XCTAssertFalse(repaired.stderr.contains("refused"), repaired.stderr)
        let clean = try caldav(["sync"])
        XCTAssertEqual(clean.status, 0, clean.stderr)
        XCTAssertFalse(clean.stderr.contains("refused"), clean.stderr)
        XCTAssertEqual(try CLI.sqlite(store, "SELECT count(*) FROM syncRefusal"), "0\n")
        let held = try FileManager.default.subpathsOfDirectory(atPath: scratch.path).filter {
            $0.hasSuffix(".ics") && !$0.contains(".Radicale")
        }
        let texts = try held.map {
            try String(contentsOfFile: scratch.appendingPathComponent($0).path, encoding: .utf8)
        }
        XCTAssertTrue(texts.contains { $0.contains("CN=Ann 'The Boss' Lee") }, "\(held)")
    }

    // MARK: 9. A password over plain HTTP only when asked

    func testBasicCredentialsGoToPlainHTTPOnlyAfterA401AndWithAWarning() throws {
        let server = try FeedServer()
        defer { server.stop() }
        try server.serve(FeedCLITests.calendar([("a@feed", "Opening", "20261201T090000Z")]))
        let environment = ["ICSKIT_PASSWORD": "s3cr3t-Pa55"]
        let open = try CLI.run(
            ["subscribe", server.feed("correct"), "--into", "Open", "--user", "ana", "--store", store],
            environment: environment)
        XCTAssertEqual(open.status, 0, open.stderr)
        XCTAssertFalse(open.stderr.contains("unencrypted"), open.stderr)
        let closed = try CLI.run(
            ["subscribe", server.feed("private"), "--into", "Private", "--user", "ana", "--store", store],
            environment: environment)
        XCTAssertEqual(closed.status, 0, closed.stderr)
        XCTAssertTrue(closed.stderr.contains("asks for a password over plain http: it is sent unencrypted"))
        let log = try server.log()
        XCTAssertFalse(log.filter { $0.path.contains("correct") }.contains { $0.authorized }, "never asked")
        let asked = log.filter { $0.path.contains("private") }
        XCTAssertEqual(asked.map(\.authorized), [false, true], "\(asked)")
    }
}
