import Foundation
import ICSKitTestSupport
import XCTest

/// `subscribe` and `refresh` against scripts/feed_server.py: a feed that gets its validators right, and each way
/// feeds get them wrong.
final class FeedCLITests: FeedServerTestCase {
    static func calendar(_ events: [(uid: String, summary: String, start: String)], header: String = "") -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//ICSKit tests//feed//EN"]
        if !header.isEmpty { lines.append(header) }
        for event in events {
            lines += [
                "BEGIN:VEVENT", "UID:\(event.uid)", "DTSTAMP:20261101T000000Z", "DTSTART:\(event.start)",
                "SUMMARY:\(event.summary)", "END:VEVENT",
            ]
        }
        lines.append("END:VCALENDAR")
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    @discardableResult
    func icskit(_ arguments: [String]) throws -> CLI.Run {
        try CLI.run(arguments + ["--store", store], timeout: 60)
    }

    /// The store calendar's events as `UID SUMMARY`, sorted.
    func stored(_ calendar: String) throws -> [String] {
        let run = try CLI.run(["export", "--calendar", calendar, "--store", store])
        XCTAssertEqual(run.status, 0, run.stderr)
        let events = run.stdout.components(separatedBy: "BEGIN:VEVENT").dropFirst()
        return events.map { block in
            let lines = block.components(separatedBy: "\r\n")
            let uid = lines.first { $0.hasPrefix("UID:") }?.dropFirst(4) ?? ""
            let summary = lines.first { $0.hasPrefix("SUMMARY:") }?.dropFirst(8) ?? ""
            return "\(uid) \(summary)"
        }.sorted()
    }

    func refreshJSON(_ arguments: [String]) throws -> (run: CLI.Run, feeds: [[String: Any]]) {
        let run = try icskit(["refresh", "--json"] + arguments)
        let object = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], run.stdout + run.stderr)
        return (run, try XCTUnwrap(object["feeds"] as? [[String: Any]]))
    }

    func testACorrectFeedIsAskedWithItsValidatorsAndMergedWhenItChanges() throws {
        let subscribe = try icskit(["subscribe", server.feed("correct"), "--into", "Events"])
        XCTAssertEqual(subscribe.status, 0, subscribe.stderr)
        XCTAssertTrue(subscribe.stdout.contains("Events: 2 added"), subscribe.stdout)
        XCTAssertEqual(try stored("Events"), ["a@feed Opening", "b@feed Talk"])

        let quiet = try refreshJSON([])
        XCTAssertEqual(quiet.run.status, 0, quiet.run.stderr)
        XCTAssertEqual(quiet.feeds.first?["outcome"] as? String, "not-modified")
        let asked = try server.log()
        XCTAssertEqual(asked.map(\.status), [200, 304])
        XCTAssertNotNil(asked[1].ifNoneMatch)
        XCTAssertNotNil(asked[1].ifModifiedSince)

        try server.serve(
            Self.calendar([
                ("a@feed", "Opening (moved)", "20261201T100000Z"), ("c@feed", "Closing", "20261203T090000Z"),
            ]))
        let changed = try refreshJSON([])
        XCTAssertEqual(changed.run.status, 0, changed.run.stderr)
        let merge = try XCTUnwrap(changed.feeds.first?["merge"] as? [String: Any])
        XCTAssertEqual(merge["added"] as? Int, 1)
        XCTAssertEqual(merge["updated"] as? Int, 1)
        XCTAssertEqual(merge["deleted"] as? Int, 1)
        XCTAssertEqual(try stored("Events"), ["a@feed Opening (moved)", "c@feed Closing"])
        // The update names what it changed, as merge and sync do.
        let update = try XCTUnwrap(
            (merge["actions"] as? [[String: Any]])?.first { $0["action"] as? String == "update" })
        let changes = try XCTUnwrap(update["changes"] as? [[String: Any]])
        XCTAssertEqual(changes.map { $0["name"] as? String }, ["DTSTART", "SUMMARY"])
        XCTAssertEqual(changes[0]["from"] as? String, "09:00")
        XCTAssertEqual(changes[0]["to"] as? String, "10:00")
        XCTAssertEqual(changes[1]["from"] as? String, "\"Opening\"")
        XCTAssertEqual(changes[1]["to"] as? String, "\"Opening (moved)\"")
        XCTAssertEqual(changes[1]["side"] as? String, "external")
    }

    func testAFeedWithoutValidatorsIsNotMergedAgainWhenItsBodyIsTheSame() throws {
        XCTAssertEqual(try icskit(["subscribe", server.feed("none"), "--into", "Plain"]).status, 0)
        let again = try icskit(["refresh", "Plain"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(again.stdout, "Plain: unchanged\n")
        XCTAssertEqual(try server.log().map(\.ifNoneMatch), [nil, nil])
    }

    func testAFeedThatIgnoresIfModifiedSinceIsNoticed() throws {
        XCTAssertEqual(try icskit(["subscribe", server.feed("ignore-ims"), "--into", "Sloppy"]).status, 0)
        let again = try icskit(["refresh", "Sloppy"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(again.stdout, "Sloppy: unchanged\n")
        XCTAssertTrue(again.stderr.contains("its validators do not work"), again.stderr)
        XCTAssertNotNil(try server.log().last?.ifModifiedSince)
    }

    func testAFeedThatAlwaysAnswers304IsReadInFullWhenForced() throws {
        XCTAssertEqual(try icskit(["subscribe", server.feed("always-304"), "--into", "Stuck"]).status, 0)
        try server.serve(Self.calendar([("a@feed", "Opening", "20261201T090000Z")]))
        XCTAssertEqual(try icskit(["refresh", "Stuck"]).stdout, "Stuck: not modified\n")
        let forced = try icskit(["refresh", "Stuck", "--force"])
        XCTAssertEqual(forced.status, 0, forced.stderr)
        XCTAssertTrue(forced.stdout.contains("1 deleted"), forced.stdout)
        XCTAssertEqual(try stored("Stuck"), ["a@feed Opening"])
        XCTAssertNil(try server.log().last?.ifNoneMatch, "--force asks unconditionally")
    }

    func testAFeedThatRegeneratesUIDsIsMatchedByContent() throws {
        XCTAssertEqual(try icskit(["subscribe", server.feed("regen"), "--into", "Regen"]).status, 0)
        let first = try stored("Regen")
        XCTAssertEqual(first.count, 2)
        let again = try refreshJSON(["Regen"])
        XCTAssertEqual(again.run.status, 0, again.run.stderr)
        let merge = try XCTUnwrap(again.feeds.first?["merge"] as? [String: Any])
        XCTAssertEqual([merge["added"], merge["deleted"], merge["unchanged"]] as? [Int], [0, 0, 2])
        XCTAssertTrue(again.run.stderr.contains("2 matched by content"), again.run.stderr)
        XCTAssertEqual(try stored("Regen"), first, "the items keep the UIDs they were stored with")
    }

    func testATruncatedOrEmptyFeedDeletesNothing() throws {
        try server.setMode("cut", "correct")
        XCTAssertEqual(try icskit(["subscribe", server.feed("cut"), "--into", "Cut"]).status, 0)
        try server.setMode("cut", "truncated")
        let cut = try icskit(["refresh", "Cut"])
        XCTAssertEqual(cut.status, 1, cut.stdout)
        XCTAssertTrue(cut.stderr.contains("ended early"), cut.stderr)
        XCTAssertEqual(try stored("Cut"), ["a@feed Opening", "b@feed Talk"])

        try server.setMode("cut", "correct")
        try server.serve(Self.calendar([]))
        let empty = try icskit(["refresh", "Cut"])
        XCTAssertEqual(empty.status, 1, empty.stdout)
        XCTAssertTrue(empty.stderr.contains("merge refused"), empty.stderr)
        XCTAssertEqual(try stored("Cut"), ["a@feed Opening", "b@feed Talk"])
        // The refused body was not taken as merged: the next refresh asks again in full and tries again.
        XCTAssertEqual(try icskit(["refresh", "Cut"]).status, 1)
        XCTAssertEqual(try icskit(["refresh", "Cut", "--force-delete"]).status, 0)
        XCTAssertEqual(try stored("Cut"), [])
    }

    func testAServerErrorIsRetriedAndAnHTMLPageIsRefused() throws {
        let flaky = try icskit(["subscribe", server.feed("flaky"), "--into", "Flaky"])
        XCTAssertEqual(flaky.status, 0, flaky.stderr)
        XCTAssertTrue(flaky.stderr.contains("HTTP 500; trying again"), flaky.stderr)
        XCTAssertEqual(try stored("Flaky").count, 2)

        let html = try icskit(["subscribe", server.feed("html"), "--into", "Login"])
        XCTAssertEqual(html.status, 1)
        XCTAssertTrue(html.stderr.contains("not a calendar (text/html); nothing merged"), html.stderr)
        XCTAssertFalse(try icskit(["calendars"]).stdout.contains("Login"))
    }

    func testPermanentRedirectsAreRememberedAndTemporaryOnesAreNot() throws {
        let moved = try refreshJSON([])
        XCTAssertEqual(moved.feeds.count, 0)
        XCTAssertEqual(try icskit(["subscribe", server.feed("moved"), "--into", "Moved"]).status, 0)
        XCTAssertEqual(try icskit(["subscribe", server.feed("temporary"), "--into", "Temporary"]).status, 0)
        let again = try refreshJSON([])
        let byName = Dictionary(uniqueKeysWithValues: again.feeds.map { ($0["calendar"] as? String ?? "", $0) })
        XCTAssertEqual(byName["Moved"]?["location"] as? String, server.feed("correct"))
        XCTAssertTrue(byName["Temporary"]?["location"] is NSNull)
        let paths = try server.log().map(\.path)
        // Moved: 301 then the new place; Temporary: 302 then the new place, twice each way; Moved's refresh goes
        // straight to the new place.
        XCTAssertEqual(paths.filter { $0 == "/feed/moved.ics" }.count, 1, "\(paths)")
        XCTAssertEqual(paths.filter { $0 == "/feed/temporary.ics" }.count, 2, "\(paths)")
    }

    func testThePasswordIsNotSentWhereARedirectLeadsToAnotherOrigin() throws {
        let run = try CLI.run(
            ["subscribe", server.feed("offsite"), "--into", "Offsite", "--user", "ana", "--store", store], timeout: 60,
            environment: ["ICSKIT_PASSWORD": "secret"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let asked = try server.log()
        XCTAssertEqual(asked.map(\.host), ["127.0.0.1:\(server.port)", "localhost:\(server.port)"])
        // Over plain http the password goes only where a 401 asks for it: neither origin asked.
        XCTAssertEqual(asked.map(\.authorized), [false, false])
        XCTAssertEqual(try stored("Offsite").count, 2)
    }

    func testARefreshIntervalIsTheLeastTimeBetweenFetches() throws {
        try server.serve(
            Self.calendar([("a@feed", "Opening", "20261201T090000Z")], header: "REFRESH-INTERVAL;VALUE=DURATION:PT1H"))
        XCTAssertEqual(try icskit(["subscribe", server.feed("correct"), "--into", "Hourly"]).status, 0)
        let soon = try refreshJSON(["Hourly"])
        XCTAssertEqual(soon.feeds.first?["outcome"] as? String, "not-due")
        XCTAssertEqual(try server.log().count, 1, "asked nothing")
        let forced = try refreshJSON(["Hourly", "--force"])
        XCTAssertEqual(forced.feeds.first?["outcome"] as? String, "unchanged")
        XCTAssertEqual(try server.log().count, 2)
    }

    func testHTTPSVerifiesTheCertificateAndTheHostName() throws {
        let secure = try FeedServer(tls: true, serving: CLI.fixture("hand/recurring-todos.ics"))
        defer { secure.stop() }
        let untrusted = try icskit(["subscribe", secure.feed("correct"), "--into", "Secure"])
        XCTAssertEqual(untrusted.status, 1)
        XCTAssertTrue(untrusted.stderr.contains("is not trusted"), untrusted.stderr)
        XCTAssertFalse(try icskit(["calendars"]).stdout.contains("Secure"), "a first subscribe that failed is not kept")
        // Trusting the test's own certificate ($SSL_CERT_FILE, as OpenSSL-based tools read it), by IP address and
        // by name.
        let trust = ["SSL_CERT_FILE": CLI.fixture("tls/localhost-cert.pem")]
        let trusted = try CLI.run(
            ["subscribe", secure.feed("correct"), "--into", "Secure", "--store", store], timeout: 60,
            environment: trust)
        XCTAssertEqual(trusted.status, 0, trusted.stderr)
        XCTAssertEqual(try stored("Secure").count, 1, "the one VEVENT of the fixture")
        let byName = try CLI.run(
            ["subscribe", secure.feed("correct", host: "localhost"), "--into", "ByName", "--store", store],
            timeout: 60, environment: trust)
        XCTAssertEqual(byName.status, 0, byName.stderr)
    }

    /// `--ca-file` trusts a private CA: its certificate for this host is taken, its certificate for another host
    /// name is refused, and a file that holds no certificate is an error that says so.
    func testAPrivateCAIsTrustedWithCAFileButNotForAnotherHostName() throws {
        let ca = CLI.fixture("tls/ca-cert.pem")
        let signed = try FeedServer(
            tls: true, certificate: "private-localhost", serving: CLI.fixture("hand/recurring-todos.ics"))
        defer { signed.stop() }
        let without = try icskit(["subscribe", signed.feed("correct"), "--into", "Private"])
        XCTAssertEqual(without.status, 1)
        XCTAssertTrue(without.stderr.contains("is not trusted"), without.stderr)
        let with = try icskit(["subscribe", signed.feed("correct"), "--into", "Private", "--ca-file", ca])
        XCTAssertEqual(with.status, 0, with.stderr)
        XCTAssertEqual(try stored("Private").count, 1)

        let wrong = try FeedServer(
            tls: true, certificate: "wrong-host", serving: CLI.fixture("hand/recurring-todos.ics"))
        defer { wrong.stop() }
        let refused = try icskit(["subscribe", wrong.feed("correct"), "--into", "Wrong", "--ca-file", ca])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("for another host name"), refused.stderr)
        XCTAssertFalse(refused.stderr.contains("trying again"), "refused at once, not retried: \(refused.stderr)")
        XCTAssertFalse(try icskit(["calendars"]).stdout.contains("Wrong"))

        let notPEM = try icskit(["refresh", "Private", "--ca-file", CLI.fixture("hand/recurring-todos.ics")])
        XCTAssertEqual(notPEM.status, 1)
        XCTAssertTrue(notPEM.stderr.contains("recurring-todos.ics"), notPEM.stderr)
    }

    func testUsageErrors() throws {
        let bad = try icskit(["subscribe", "ftp://example.com/a.ics", "--into", "X"])
        XCTAssertEqual(bad.status, 2, bad.stderr)
        let unknown = try icskit(["refresh", "Nothing"])
        XCTAssertEqual(unknown.status, 1)
        XCTAssertTrue(unknown.stderr.contains("no subscription feeds Nothing"), unknown.stderr)
        XCTAssertEqual(try icskit(["subscribe", server.feed("correct"), "--into", "Twice", "--no-fetch"]).status, 0)
        let clash = try icskit(["subscribe", server.feed("none"), "--into", "Twice"])
        XCTAssertEqual(clash.status, 1)
        XCTAssertTrue(clash.stderr.contains("already subscribed"), clash.stderr)
        XCTAssertEqual(try icskit(["unsubscribe", "Twice"]).status, 0)
        XCTAssertEqual(try icskit(["unsubscribe", "Twice"]).status, 1)
    }

    // MARK: Secrets in URLs

    static let secret = "s3cr3t-Pa55"

    /// Whether any file of the store (the database, its WAL and index when present) holds `text`.
    func storeHolds(_ text: String) -> Bool {
        [store, store + "-wal", store + "-shm"].contains { path in
            guard let bytes = FileManager.default.contents(atPath: path) else { return false }
            return bytes.range(of: Data(text.utf8)) != nil
        }
    }

    /// `http://ana:SECRET@127.0.0.1:PORT/feed/private.ics`
    var privateFeedWithPassword: String {
        server.feed("private").replacingOccurrences(of: "http://", with: "http://ana:\(Self.secret)@")
    }

    func testAPasswordInAURLIsUsedForThatRunButNeverStoredOrShown() throws {
        let subscribed = try icskit(["subscribe", privateFeedWithPassword, "--into", "Private"])
        XCTAssertEqual(subscribed.status, 0, subscribed.stderr)
        XCTAssertEqual(try stored("Private").count, 2, "the URL's credentials fetched the feed")
        XCTAssertTrue(subscribed.stderr.contains("used for this run only"), subscribed.stderr)
        XCTAssertTrue(subscribed.stderr.contains("--user ana"), subscribed.stderr)
        // Later runs take the password from where passwords come from; the user name was kept from the URL.
        let refreshed = try CLI.run(
            ["refresh", "--json", "--force", "--store", store], timeout: 60,
            environment: ["ICSKIT_PASSWORD": Self.secret])
        XCTAssertEqual(refreshed.status, 0, refreshed.stderr)
        XCTAssertTrue(refreshed.stdout.contains(server.feed("private")), refreshed.stdout)
        let listed = try icskit(["check-store"])
        let misspelt = try icskit(["subscribe", "ftp://ana:\(Self.secret)@example.com/a.ics", "--into", "X"])
        XCTAssertEqual(misspelt.status, 2)
        XCTAssertTrue(misspelt.stderr.contains("ftp://ana:***@example.com/a.ics"), misspelt.stderr)
        let discover = try icskit(["sync", "--discover", "ftp://ana:\(Self.secret)@example.com/"])
        XCTAssertEqual(discover.status, 2)
        for run in [subscribed, refreshed, listed, misspelt, discover] {
            XCTAssertFalse((run.stdout + run.stderr).contains(Self.secret), run.stdout + run.stderr)
        }
        XCTAssertFalse(storeHolds(Self.secret))
        XCTAssertFalse(storeHolds("ana:"))
    }

    /// A feed whose password is not at hand is skipped with its reason; the other feeds are still asked (issue 46).
    func testAFeedWithoutItsPasswordDoesNotStopTheOthers() throws {
        let run = try CLI.run(
            ["subscribe", server.feed("private"), "--into", "Private", "--user", "ana", "--store", store],
            timeout: 60, environment: ["ICSKIT_PASSWORD": Self.secret])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try icskit(["subscribe", server.feed("correct"), "--into", "Public"]).status, 0)
        let asked = try server.log().count
        let refreshed = try icskit(["refresh", "--force"])
        XCTAssertEqual(refreshed.status, 1, refreshed.stderr)
        XCTAssertTrue(
            refreshed.stderr.contains("icskit: Private: skipped: no password for ana at 127.0.0.1"), refreshed.stderr)
        XCTAssertTrue(refreshed.stdout.contains("Public: unchanged"), refreshed.stdout)
        let log = try server.log().dropFirst(asked)
        XCTAssertEqual(log.map(\.path), ["/feed/correct.ics"])
    }

    /// A feed larger than --max-size is not read and changes nothing; the default limit takes it (issue 46).
    func testAFeedLargerThanItsLimitChangesNothing() throws {
        let events = (0..<12_000).map { ("big-\($0)@feed", "Event number \($0) of a large feed", "20261201T090000Z") }
        let calendar = Self.calendar(events)
        XCTAssertGreaterThan(calendar.utf8.count, 1 << 20)
        try server.serve(calendar)
        XCTAssertEqual(try icskit(["subscribe", server.feed("correct"), "--into", "Big", "-q"]).status, 0)
        XCTAssertEqual(try stored("Big").count, 12_000)
        try server.serve(Self.calendar(events.map { ($0.0, $0.1 + " (moved)", $0.2) }))
        let refused = try icskit(["refresh", "Big", "--force", "--max-size", "1"])
        XCTAssertEqual(refused.status, 1, refused.stderr)
        XCTAssertTrue(
            refused.stderr.contains("larger than 1 MB; not read (--max-size MB raises the limit)"), refused.stderr)
        XCTAssertFalse(try stored("Big").contains { $0.hasSuffix("(moved)") })
    }

    /// A CalDAV URL that leads to a web sign-in page is named as one, for binding and for discovery (issue 46).
    func testACalDAVURLThatAnswersWithALoginPageIsNamedAsOne() throws {
        let url = "http://127.0.0.1:\(server.port)/login/cal/"
        try icskit(["add", "event", "Standup", "--start", "2026-12-01 09:00", "--calendar", "Work"])
        for arguments in [["sync", "Work", "--caldav", url], ["sync", "--discover", url]] {
            let run = try CLI.run(
                arguments + ["--user", "ana", "--store", store], timeout: 60, environment: ["ICSKIT_PASSWORD": "pw"])
            XCTAssertEqual(run.status, 1, run.stderr)
            XCTAssertTrue(run.stderr.contains("with a web page (a login screen?), not CalDAV"), run.stderr)
        }
    }

    /// `subscribe --dry-run` registers nothing; a first subscribe whose feed cannot be fetched keeps neither the
    /// subscription nor the calendar it made (issue 46).
    func testAFailedOrDryFirstSubscribeLeavesNothingBehind() throws {
        let dry = try icskit(["subscribe", server.feed("correct"), "--into", "Dry", "--dry-run"])
        XCTAssertEqual(dry.status, 0, dry.stderr)
        XCTAssertTrue(dry.stdout.contains("Dry"), dry.stdout)
        let missing = try icskit(["subscribe", server.feed("missing"), "--into", "Gone"])
        XCTAssertEqual(missing.status, 1, missing.stderr)
        XCTAssertTrue(
            missing.stderr.contains("Gone: not subscribed, since the feed could not be fetched"), missing.stderr)
        XCTAssertEqual(
            try CLI.sqlite(store, "SELECT count(*) FROM subscription; SELECT count(*) FROM calendar;"), "0\n0\n")
        // A calendar that was there before stays, without the subscription.
        try icskit(["add", "event", "Mine", "--start", "2026-12-01 09:00", "--calendar", "Kept"])
        XCTAssertEqual(try icskit(["subscribe", server.feed("missing"), "--into", "Kept"]).status, 1)
        XCTAssertEqual(
            try CLI.sqlite(store, "SELECT count(*) FROM subscription; SELECT name FROM calendar;"), "0\nKept\n")
    }

    func testAStoreThatKeptAPasswordFromAURLIsCleanedWhenOpened() throws {
        let run = try CLI.run(
            ["subscribe", server.feed("private"), "--into", "Private", "--user", "ana", "--store", store],
            timeout: 60, environment: ["ICSKIT_PASSWORD": Self.secret])
        XCTAssertEqual(run.status, 0, run.stderr)
        // What an icskit before schema v12 kept: the URL as given, in the subscription, the calendar's source and
        // every merge base row, and no user name of its own.
        let clean = server.feed("private"), dirty = privateFeedWithPassword
        try CLI.sqlite(
            store,
            """
            UPDATE subscription SET url = '\(dirty)', user = NULL;
            UPDATE syncState SET source = 'feed:\(dirty)' WHERE source = 'feed:\(clean)';
            UPDATE syncSource SET source = 'feed:\(dirty)' WHERE source = 'feed:\(clean)';
            UPDATE calendar SET source = '\(dirty)';
            DELETE FROM grdb_migrations WHERE identifier LIKE 'v12:%';
            """)
        XCTAssertTrue(storeHolds(Self.secret), "the old store as made")
        let refreshed = try CLI.run(
            ["refresh", "--json", "--force", "--store", store], timeout: 60,
            environment: ["ICSKIT_PASSWORD": Self.secret])
        XCTAssertEqual(refreshed.status, 0, refreshed.stderr)
        XCTAssertFalse((refreshed.stdout + refreshed.stderr).contains(Self.secret))
        // The merge base still belongs to the feed: nothing was added again.
        XCTAssertTrue(
            refreshed.stdout.contains("\"added\" : 0") || refreshed.stdout.contains("unchanged"), refreshed.stdout)
        XCTAssertEqual(try stored("Private").count, 2)
        XCTAssertFalse(storeHolds(Self.secret))
        XCTAssertEqual(try CLI.sqlite(store, "SELECT user || ' ' || url FROM subscription;"), "ana \(clean)\n")
    }
}
