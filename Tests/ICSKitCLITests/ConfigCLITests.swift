import Foundation
import XCTest

/// `icskit config me` (issue 34's identity kept in the store): agenda and show mark invitations by it; --me and
/// $ICSKIT_ME win over it; undo takes a change of it back.
final class ConfigCLITests: StoreCLITestCase {
    func testMyAddressesKeptInTheStoreMarkInvitations() throws {
        try icskit(["import", CLI.fixture("mail/invite.eml"), "--calendar", "Mail", "-q"])
        let day = ["agenda", "--from", "2026-11-27", "--to", "+1d", "--tz", "UTC", "--no-ids"]
        XCTAssertFalse(try icskit(day).stdout.contains("[answer needed]"))
        XCTAssertTrue(try icskit(["config", "me"]).stdout.contains("me: not set"))

        try icskit(["config", "me", "Ana@Example.org, ana.lopez@work.example"])
        XCTAssertEqual(try icskit(["config", "me"]).stdout, "Ana@Example.org, ana.lopez@work.example\n")
        XCTAssertTrue(try icskit(day).stdout.contains("Déjeuner au café [answer needed]"))
        let show = try icskit(["show", "lunch@example.org"]).stdout
        XCTAssertTrue(show.contains("you"), show)

        // --me and $ICSKIT_ME win over the store's.
        XCTAssertFalse(try icskit(day + ["--me", "someone@else.example"]).stdout.contains("[answer needed]"))
        let environment = try CLI.run(day + ["--store", store], environment: ["ICSKIT_ME": "someone@else.example"])
        XCTAssertFalse(environment.stdout.contains("[answer needed]"), environment.stdout)

        try icskit(["undo"])
        XCTAssertTrue(try icskit(["config", "me"]).stdout.contains("me: not set"))
        try icskit(["config", "me", "ana@example.org"])
        try icskit(["config", "me", "--clear"])
        XCTAssertFalse(try icskit(day).stdout.contains("[answer needed]"))

        let wrong = try CLI.run(["config", "me", "not-an-address", "--store", store])
        XCTAssertEqual(wrong.status, 2, wrong.stderr)
        XCTAssertTrue(wrong.stderr.contains("\"not-an-address\" is no mail address"), wrong.stderr)
        let unknown = try CLI.run(["config", "colour", "--store", store])
        XCTAssertEqual(unknown.status, 2, unknown.stderr)
    }
}
