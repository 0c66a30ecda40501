import CalendarSync
import Foundation
import ICSKitTestSupport
import XCTest

/// The HTTP client's kept connections, against scripts/feed_server.py (an HTTP/1.1 server that keeps connections
/// open): requests one after another share a connection, and a kept connection the server has closed, or closes
/// when the next request comes, costs nothing but a new connection.
final class HTTPConnectionTests: XCTestCase {
    let calendar = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nEND:VCALENDAR\r\n"

    func testRequestsOneAfterAnotherShareAConnection() throws {
        let server = try FeedServer()
        try server.serve(calendar)
        let client = HTTPClient(timeout: 10, retries: 0)
        var etag = ""
        for _ in 0..<3 {
            let answer = try client.send(HTTPRequest("GET", URL(string: server.feed("correct"))!))
            XCTAssertEqual(answer.status, 200)
            XCTAssertEqual(answer.body, Array(calendar.utf8))
            etag = try XCTUnwrap(answer[header: "ETag"])
        }
        // A 304 (no body) leaves the connection usable as well.
        let again = try client.send(
            HTTPRequest("GET", URL(string: server.feed("correct"))!, headers: [("If-None-Match", etag)]))
        XCTAssertEqual(again.status, 304)
        // So does a chunked body read to its end (with a trailer field).
        for _ in 0..<2 {
            let chunked = try client.send(HTTPRequest("GET", URL(string: server.feed("chunked"))!))
            XCTAssertEqual(chunked.status, 200)
            XCTAssertEqual(chunked[header: "Transfer-Encoding"], "chunked")
            XCTAssertEqual(chunked.body, Array(calendar.utf8))
        }
        _ = try client.send(HTTPRequest("GET", URL(string: server.feed("correct"))!))
        let ports = try server.log().map(\.clientPort)
        XCTAssertEqual(ports.count, 7)
        XCTAssertEqual(Set(ports).count, 1, "one connection for all seven requests: \(ports)")

        // Another client has its own connection.
        _ = try HTTPClient(timeout: 10, retries: 0).send(HTTPRequest("GET", URL(string: server.feed("correct"))!))
        XCTAssertEqual(Set(try server.log().map(\.clientPort)).count, 2)
    }

    func testAKeptConnectionTheServerDropsIsReplacedWithoutAFailure() throws {
        let server = try FeedServer()
        try server.serve(calendar)
        // retries: 0, so an answer here is not the retry loop's doing: the request went again over a new connection.
        let client = HTTPClient(timeout: 10, retries: 0)
        for _ in 0..<3 {
            let answer = try client.send(HTTPRequest("GET", URL(string: server.feed("drop-kept"))!))
            XCTAssertEqual(answer.status, 200)
            XCTAssertEqual(answer.body, Array(calendar.utf8))
        }
        let ports = try server.log().map(\.clientPort)
        XCTAssertEqual(ports.count, 3, "each request answered once")
        XCTAssertEqual(Set(ports).count, 3, "each answer over a new connection: \(ports)")
    }

    func testAConnectionClosedByTheServerWhileIdleIsNotUsedAgain() throws {
        let server = try FeedServer()
        try server.serve(calendar)
        let client = HTTPClient(timeout: 10, retries: 0)
        let first = try client.send(HTTPRequest("GET", URL(string: server.feed("correct"))!))
        XCTAssertEqual(first.status, 200)
        // The server closes the connection after this answer, which does not say so: the client keeps a connection
        // that the other end has closed by the time the next request comes.
        let closing = try client.send(HTTPRequest("GET", URL(string: server.feed("quiet-close"))!))
        XCTAssertEqual(closing.status, 200)
        Thread.sleep(forTimeInterval: 0.2)
        let third = try client.send(HTTPRequest("GET", URL(string: server.feed("correct"))!))
        XCTAssertEqual(third.status, 200)
        let ports = try server.log().map(\.clientPort)
        XCTAssertEqual(ports.count, 3)
        XCTAssertEqual(ports[0], ports[1])
        XCTAssertNotEqual(ports[1], ports[2], "a new connection after the server closed the kept one")
    }
}
