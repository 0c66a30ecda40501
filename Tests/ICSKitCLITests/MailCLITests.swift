import Foundation
import XCTest

/// Invitation mails read as calendars (issue 34's "reading mail"): a saved message's text/calendar and
/// application/ics parts, in any multipart nesting, base64 or quoted-printable, in their charset; the same calendar
/// sent as the alternative and again as an attachment is read once. The fixtures were made by Python's `email`
/// package.
final class MailCLITests: StoreCLITestCase {
    func testAnInvitationMailIsReadForItsCalendar() throws {
        let invite = CLI.fixture("mail/invite.eml")
        let validate = try CLI.run(["validate", invite])
        XCTAssertEqual(validate.status, 0, validate.stdout)
        XCTAssertTrue(validate.stderr.hasSuffix("0 errors, 0 warnings in 1 file\n"), validate.stdout + validate.stderr)
        let agenda = try CLI.run(["agenda", invite, "--from", "2026-11-27", "--to", "+1d", "--tz", "UTC", "--json"])
        XCTAssertEqual(agenda.status, 0, agenda.stderr)
        let instances = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(agenda.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(instances.count, 1, "the attached copy is the same calendar: \(agenda.stdout)")
        XCTAssertEqual(instances.first?["summary"] as? String, "Déjeuner au café")
        XCTAssertEqual(instances.first?["start"] as? String, "2026-11-27T12:00:00Z")

        // Into the store, and waiting for an answer there.
        try icskit(["import", invite, "--calendar", "Mail", "-q"])
        let listed = try icskit(
            ["agenda", "--from", "2026-11-27", "--to", "+1d", "--tz", "UTC", "--me", "ana@example.org", "--no-ids"])
        XCTAssertTrue(listed.stdout.contains("12:00–13:00  Déjeuner au café [answer needed]  (Mail)"), listed.stdout)
    }

    func testQuotedPrintableLatinOneIsReadAndAMailWithoutACalendarIsAnError() throws {
        let run = try CLI.run(
            ["agenda", CLI.fixture("mail/qp.eml"), "--from", "2026-11-27", "--to", "+1d", "--tz", "UTC", "--no-ids"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("12:00–13:00  Réunion à Zürich  (qp)"), run.stdout)
        XCTAssertEqual(run.stderr, "")

        let plain = try CLI.run(["validate", CLI.fixture("mail/plain.eml")])
        XCTAssertEqual(plain.status, 1, plain.stdout + plain.stderr)
        XCTAssertTrue(
            plain.stdout.contains(
                "plain.eml:1: error: a mail message without a text/calendar or application/ics part; nothing read"),
            plain.stdout)
    }
}
