import Foundation
import XCTest

@testable import CalendarSync

/// Where a redirect may lead (issue 46): the decision as a pure function of the URLs, and the client asking it
/// before it sends the next request. The client's network here is an in-memory transport, so that even a wrong
/// decision sends nothing anywhere; hosts outside loopback appear only as text.
final class RedirectPolicyTests: XCTestCase {
    func url(_ text: String) -> URL { URL(string: text)! }

    func testAddressesAreJudgedInEveryFormAResolverReads() {
        let cases: [(String, RedirectPolicy.Reach)] = [
            ("127.0.0.1", .loopback), ("127.1", .loopback), ("0x7f.1", .loopback), ("2130706433", .loopback),
            ("localhost", .loopback), ("LocalHost.", .loopback), ("api.localhost", .loopback), ("[::1]", .loopback),
            ("169.254.169.254", .linkLocal), ("2852039166", .linkLocal), ("0xa9.0xfe.0xa9.0xfe", .linkLocal),
            ("0251.0376.0251.0376", .linkLocal), ("169.254.43518", .linkLocal), ("[fe80::1%25eth0]", .linkLocal),
            ("[::ffff:169.254.169.254]", .linkLocal), ("[::ffff:a9fe:a9fe]", .linkLocal),
            ("10.1.2.3", .privateNetwork), ("172.16.0.1", .privateNetwork), ("172.31.255.255", .privateNetwork),
            ("192.168.1.1", .privateNetwork), ("100.64.0.1", .privateNetwork), ("[fd00::1]", .privateNetwork),
            ("0.0.0.0", .unspecified), ("[::]", .unspecified), ("172.32.0.1", .public), ("8.8.8.8", .public),
            ("calendar.example.org", .public), ("[2001:db8::1]", .public), ("1.2.3.4.5", .public),
            ("256.1.1.1", .public), ("[1::2::3]", .public),
            // IPv6 spellings that carry an IPv4 address a gateway reaches (issue 59): NAT64, 6to4, IPv4-translated.
            ("[64:ff9b::169.254.169.254]", .linkLocal), ("[64:ff9b::a9fe:a9fe]", .linkLocal),
            ("[64:ff9b::10.0.0.1]", .privateNetwork), ("[64:ff9b:1::7f00:1]", .loopback),
            ("[2002:a9fe:a9fe::1]", .linkLocal), ("[2002:c0a8:0101::]", .privateNetwork),
            ("[::ffff:0:169.254.169.254]", .linkLocal), ("[::ffff:0:7f00:1]", .loopback),
            ("[64:ff9b::8.8.8.8]", .public), ("[2002:0808:0808::1]", .public),
        ]
        for (host, expected) in cases { XCTAssertEqual(RedirectPolicy.reach(host), expected, host) }
    }

    func testWhereARedirectMayLead() {
        func refusal(_ start: String, _ next: String) -> String? {
            RedirectPolicy.refusal(start: url(start), current: url(start), next: url(next))
        }
        let feed = "https://calendar.example.org/feed.ics"
        XCTAssertNil(refusal(feed, "https://cdn.example.net/feed.ics"))
        XCTAssertEqual(
            refusal(feed, "http://169.254.169.254/latest/meta-data/"),
            "a redirect from https to plain http (http://169.254.169.254/latest/meta-data/) refused")
        XCTAssertEqual(
            refusal("http://calendar.example.org/f.ics", "http://169.254.169.254/latest/meta-data/"),
            "a redirect to the link-local address of http://169.254.169.254/latest/meta-data/ refused")
        XCTAssertEqual(
            refusal(feed, "https://127.0.0.1:8080/admin"),
            "a redirect from calendar.example.org to the loopback address of https://127.0.0.1:8080/admin refused")
        XCTAssertNotNil(refusal(feed, "https://192.168.1.1/router"))
        XCTAssertNotNil(refusal(feed, "https://localhost/"))
        XCTAssertNotNil(refusal(feed, "https://[::1]/"))
        XCTAssertNotNil(refusal(feed, "file:///etc/passwd"))
        // A feed that starts on loopback or a private address may stay there; link-local stays refused.
        XCTAssertNil(refusal("http://127.0.0.1:5232/f.ics", "http://localhost:5232/g.ics"))
        XCTAssertNil(refusal("http://192.168.1.5/f.ics", "http://10.0.0.2/g.ics"))
        XCTAssertNotNil(refusal("http://127.0.0.1:5232/f.ics", "http://169.254.169.254/"))
        XCTAssertNotNil(refusal("http://127.0.0.1:5232/f.ics", "http://[fe80::1]/"))
    }

    /// Answers the first request with a redirect to `location`, every later one with 200; keeps what it was sent.
    final class Redirecting: HTTPTransport, @unchecked Sendable {
        let location: String
        let lock = NSLock()
        var sent: [String] = []
        init(to location: String) { self.location = location }

        func exchange(_ request: HTTPRequest, deadline: Date) throws -> HTTPResponse {
            let first = lock.withLock {
                sent.append(request.url.absoluteString)
                return sent.count == 1
            }
            return HTTPResponse(
                status: first ? 302 : 200, headers: first ? ["location": location] : [:], body: [], url: request.url,
                redirects: [])
        }
    }

    func testTheClientAsksBeforeItFollows() throws {
        let metadata = Redirecting(to: "http://169.254.169.254/latest/meta-data/")
        let client = HTTPClient(timeout: 5, retries: 0, transport: metadata)
        XCTAssertThrowsError(try client.send(HTTPRequest("GET", url("http://calendar.example.org/f.ics")))) { error in
            XCTAssertEqual(
                "\(error)",
                "GET http://calendar.example.org/f.ics: a redirect to the link-local address of "
                    + "http://169.254.169.254/latest/meta-data/ refused")
        }
        XCTAssertEqual(metadata.sent, ["http://calendar.example.org/f.ics"], "nothing sent to the metadata address")

        let local = Redirecting(to: "http://localhost:5232/g.ics")
        let followed = try HTTPClient(timeout: 5, retries: 0, transport: local).send(
            HTTPRequest("GET", url("http://127.0.0.1:5232/f.ics")))
        XCTAssertEqual(followed.status, 200)
        XCTAssertEqual(local.sent, ["http://127.0.0.1:5232/f.ics", "http://localhost:5232/g.ics"])
    }

    /// A server that redirects forever: at most ten redirects are followed (SECURITY.md), then the request fails.
    func testTenRedirectsAtMost() throws {
        final class Loop: HTTPTransport, @unchecked Sendable {
            let lock = NSLock()
            var sent = 0
            func exchange(_ request: HTTPRequest, deadline: Date) throws -> HTTPResponse {
                let count = lock.withLock {
                    sent += 1
                    return sent
                }
                return HTTPResponse(
                    status: 302, headers: ["location": "http://127.0.0.1:5232/\(count).ics"], body: [],
                    url: request.url, redirects: [])
            }
        }
        let loop = Loop()
        XCTAssertThrowsError(
            try HTTPClient(timeout: 5, retries: 0, transport: loop).send(
                HTTPRequest("GET", url("http://127.0.0.1:5232/0.ics")))
        ) { error in XCTAssertTrue("\(error)".hasSuffix("more than 10 redirects"), "\(error)") }
        XCTAssertEqual(loop.sent, 11)
    }
}
