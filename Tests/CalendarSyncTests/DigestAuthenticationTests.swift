import Foundation
import XCTest

@testable import CalendarSync

/// Digest authentication's arithmetic against RFC 2617's own example (§3.5), MD5 against RFC 1321's test suite, and
/// the client's handshake over a transport that answers without a server.
final class DigestAuthenticationTests: XCTestCase {
    func testMD5MatchesRFC1321() {
        XCTAssertEqual(MD5.hex(""), "d41d8cd98f00b204e9800998ecf8427e")
        XCTAssertEqual(MD5.hex("abc"), "900150983cd24fb0d6963f7d28e17f72")
        XCTAssertEqual(MD5.hex("message digest"), "f96b697d7cb7938d525a2f31aaf161d0")
        XCTAssertEqual(
            MD5.hex("12345678901234567890123456789012345678901234567890123456789012345678901234567890"),
            "57edf4a22be3c955ac49da2e2107b67a")
    }

    func testTheAnswerToRFC2617sExample() throws {
        let challenge = try XCTUnwrap(
            DigestChallenge(
                header: #"Digest realm="testrealm@host.com", qop="auth,auth-int", "#
                    + #"nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", opaque="5ccc069c403ebaf9f0171e9517f40e41""#))
        let header = challenge.authorization(
            user: "Mufasa", password: "Circle Of Life", method: "GET", target: "/dir/index.html", count: 1,
            clientNonce: "0a4f113b")
        XCTAssertTrue(header.contains(#"response="6629fae49393a05397450978507c4ef1""#), header)
        XCTAssertTrue(header.contains("nc=00000001"), header)
        XCTAssertTrue(header.contains(#"opaque="5ccc069c403ebaf9f0171e9517f40e41""#), header)
        XCTAssertNil(DigestChallenge(header: #"Basic realm="x""#))
        XCTAssertNil(DigestChallenge(header: #"Digest realm="x", nonce="n", algorithm=SHA-512-256"#))
    }

    /// A transport that asks for Digest the first time and checks the answer after: the client answers the
    /// challenge once, then sends Digest at once for the later requests to that origin, never to another.
    final class Challenging: HTTPTransport, @unchecked Sendable {
        var seen: [(url: String, authorization: String?)] = []
        func exchange(_ request: HTTPRequest, deadline: Date) throws -> HTTPResponse {
            let authorization = request.headers.first { $0.name == "Authorization" }?.value
            seen.append((request.url.absoluteString, authorization))
            let ok = authorization?.hasPrefix("Digest username=\"ana\"") == true
            let headers =
                ok ? [:] : ["www-authenticate": #"Digest realm="r", nonce="abc", qop="auth", algorithm=MD5"#]
            return HTTPResponse(status: ok ? 200 : 401, headers: headers, body: [], url: request.url, redirects: [])
        }
    }

    func testTheClientAnswersAChallengeOnceAndKeepsItForTheOrigin() throws {
        let transport = Challenging()
        let client = HTTPClient(timeout: 5, retries: 0, credentials: ("ana", "pw"), transport: transport)
        let url = URL(string: "http://cal.example/dav/a%20b.ics")!
        XCTAssertEqual(try client.send(HTTPRequest("GET", url)).status, 200)
        XCTAssertEqual(try client.send(HTTPRequest("GET", url)).status, 200)
        XCTAssertEqual(transport.seen.count, 3, "one challenge, then Digest straight away")
        XCTAssertNil(transport.seen[0].authorization, "plain http: no password before the server asks for one")
        XCTAssertTrue(transport.seen[2].authorization?.contains("nc=00000002") == true)
        XCTAssertTrue(transport.seen[2].authorization?.contains(#"uri="/dav/a%20b.ics""#) == true)
        // A client without credentials answers no challenge.
        let other = HTTPClient(timeout: 5, retries: 0, transport: transport)
        XCTAssertEqual(try other.send(HTTPRequest("GET", URL(string: "http://other.example/")!)).status, 401)
        XCTAssertNil(transport.seen.last?.authorization)
    }

    /// A transport that wants Basic: 401 with a Basic challenge until it has it.
    final class WantsBasic: HTTPTransport, @unchecked Sendable {
        var seen: [String?] = []
        func exchange(_ request: HTTPRequest, deadline: Date) throws -> HTTPResponse {
            let authorization = request.headers.first { $0.name == "Authorization" }?.value
            seen.append(authorization)
            let ok = authorization?.hasPrefix("Basic ") == true
            return HTTPResponse(
                status: ok ? 200 : 401, headers: ok ? [:] : ["www-authenticate": #"Basic realm="r""#], body: [],
                url: request.url, redirects: [])
        }
    }

    /// Over https the password goes with the first request; over plain http only once the origin asked (a 401),
    /// then with every request to it, and a person hears once that it travels unencrypted.
    func testBasicGoesToPlainHTTPOnlyOnceAsked() throws {
        let warnings = Warnings()
        let secure = WantsBasic()
        let client = HTTPClient(
            timeout: 5, retries: 0, credentials: ("ana", "pw"), transport: secure, warn: { warnings.add($0) })
        XCTAssertEqual(try client.send(HTTPRequest("GET", URL(string: "https://cal.example/a")!)).status, 200)
        XCTAssertEqual(secure.seen.count, 1)
        XCTAssertTrue(warnings.all.isEmpty)

        let plain = WantsBasic()
        let second = HTTPClient(
            timeout: 5, retries: 0, credentials: ("ana", "pw"), transport: plain, warn: { warnings.add($0) })
        for _ in 0..<2 {
            XCTAssertEqual(try second.send(HTTPRequest("GET", URL(string: "http://cal.example/a")!)).status, 200)
        }
        XCTAssertEqual(plain.seen.map { $0 != nil }, [false, true, true])
        XCTAssertEqual(warnings.all.count, 1)
        XCTAssertTrue(warnings.all[0].contains("sent unencrypted"), warnings.all[0])
    }

    final class Warnings: @unchecked Sendable {
        private let lock = NSLock()
        private var said: [String] = []
        func add(_ text: String) { lock.withLock { said.append(text) } }
        var all: [String] { lock.withLock { said } }
    }
}
