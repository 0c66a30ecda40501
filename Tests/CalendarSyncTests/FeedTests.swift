import CalendarModel
import CalendarStore
import CalendarStoreSync
import CalendarSync
import XCTest

final class FeedTests: XCTestCase {
    func testWebcalIsHTTPS() {
        XCTAssertEqual(Feed.httpURL("webcal://example.com/a.ics")?.absoluteString, "https://example.com/a.ics")
        XCTAssertEqual(Feed.httpURL("WEBCALS://example.com/a.ics")?.absoluteString, "https://example.com/a.ics")
        XCTAssertEqual(Feed.httpURL("http://127.0.0.1:8080/x")?.absoluteString, "http://127.0.0.1:8080/x")
        XCTAssertNil(Feed.httpURL("ftp://example.com/a.ics"))
        XCTAssertNil(Feed.httpURL("not a url"))
    }

    func testValidatorsAreSentOnlyWhileTheLastFullAnswerIsYoung() {
        var subscription = Subscription(calendar: "C", url: "https://example.com/a.ics")
        var options = Feed.Options()
        options.now = 1_000_000
        XCTAssertTrue(Feed.conditionalHeaders(subscription, options: options).isEmpty, "never fetched")
        subscription.etag = "\"v1\""
        subscription.lastModified = "Mon, 23 Nov 2026 10:00:00 GMT"
        subscription.fetchedAt = options.now - 3600
        XCTAssertEqual(
            Feed.conditionalHeaders(subscription, options: options).map { "\($0.name): \($0.value)" },
            ["If-None-Match: \"v1\"", "If-Modified-Since: Mon, 23 Nov 2026 10:00:00 GMT"])
        // A feed that keeps answering 304 is read in full once the last full answer is a day old.
        subscription.fetchedAt = options.now - 86_400
        XCTAssertTrue(Feed.conditionalHeaders(subscription, options: options).isEmpty)
        subscription.fetchedAt = options.now - 10
        options.force = true
        XCTAssertTrue(Feed.conditionalHeaders(subscription, options: options).isEmpty)
    }

    func testTheRefreshIntervalHoldsOffAskingUnlessForced() {
        var subscription = Subscription(calendar: "C", url: "https://example.com/a.ics")
        var options = Feed.Options()
        options.now = 10_000
        XCTAssertNil(Feed.nextAllowed(subscription, options: options))
        subscription.checkedAt = 9_000
        subscription.minimumInterval = 3_600
        XCTAssertEqual(Feed.nextAllowed(subscription, options: options), 12_600)
        options.now = 12_600
        XCTAssertNil(Feed.nextAllowed(subscription, options: options))
        options.now = 10_000
        options.force = true
        XCTAssertNil(Feed.nextAllowed(subscription, options: options))
    }

    func testNetrcGivesTheHostsLogin() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("netrc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("netrc").path
        try """
        machine other.example login x password nope
        machine Cal.Example.com
          login ana
          password s3cret
        macdef init
        login mallory password fake

        default login anon password guest
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let none: [String: String] = [:]
        XCTAssertEqual(
            Credentials.lookUp(host: "cal.example.com", user: nil, environment: none, netrcPath: path).map {
                "\($0.user):\($0.password)"
            }, "ana:s3cret")
        XCTAssertEqual(
            Credentials.lookUp(host: "cal.example.com", user: "bob", environment: none, netrcPath: path).map {
                "\($0.user):\($0.password)"
            }, nil)
        XCTAssertEqual(
            Credentials.lookUp(host: "elsewhere.example", user: nil, environment: none, netrcPath: path).map {
                "\($0.user):\($0.password)"
            }, "anon:guest")
        XCTAssertEqual(
            Credentials.lookUp(
                host: "cal.example.com", user: "bob", environment: ["ICSKIT_PASSWORD": "env"], netrcPath: path
            ).map { "\($0.user):\($0.password)" }, "bob:env")
    }

    func testSubscriptionsAreKeptInTheStore() throws {
        let store = try CalendarStore.inMemory()
        var subscription = Subscription(calendar: "Holidays", url: "webcal://example.com/h.ics")
        subscription.etag = "\"1\""
        subscription.minimumInterval = 86_400
        subscription.user = "ana"
        try store.save(subscription)
        XCTAssertEqual(try store.subscription(calendar: "Holidays"), subscription)
        subscription.location = "https://example.org/h.ics"
        try store.save(subscription)
        XCTAssertEqual(try store.subscriptions(), [subscription])
        XCTAssertEqual(subscription.fetchURL, "https://example.org/h.ics")
        XCTAssertTrue(try store.hasCalendar(named: "Holidays"))
        XCTAssertTrue(try store.removeSubscription(calendar: "Holidays"))
        XCTAssertEqual(try store.subscriptions(), [])
        XCTAssertTrue(try store.hasCalendar(named: "Holidays"), "the calendar stays")
    }
}
