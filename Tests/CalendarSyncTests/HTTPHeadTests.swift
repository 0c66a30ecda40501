import Foundation
import XCTest

@testable import CalendarSync

/// The status line and header fields of an answer, read as bytes.
final class HTTPHeadTests: XCTestCase {
    let url = URL(string: "http://127.0.0.1/x")!

    func head(_ text: String) throws -> HTTPResponse {
        let bytes = Array(text.utf8)
        return try HTTP1.parseHead(bytes[...], url: url)
    }

    func testFieldsAreReadAnyCaseWithSpacesAndTabsDropped() throws {
        let answer = try head(
            "HTTP/1.1 207 Multi-Status\r\nContent-Type:  text/xml; charset=utf-8 \r\nETAG:\t\"a b\"\t\r\n"
                + "X-Empty:\r\nno colon here\r\n")
        XCTAssertEqual(answer.status, 207)
        XCTAssertTrue(answer.isHTTP11)
        XCTAssertEqual(answer[header: "content-type"], "text/xml; charset=utf-8")
        XCTAssertEqual(answer[header: "ETag"], "\"a b\"", "inner spaces stay")
        XCTAssertEqual(answer[header: "x-empty"], "")
        XCTAssertEqual(answer.headers.count, 3, "a line without a colon is no field")
    }

    func testRepeatedFieldsAreJoinedWithCommas() throws {
        let answer = try head("HTTP/1.1 200 OK\r\nDAV: 1, 2\r\nDAV: calendar-access\r\n")
        XCTAssertEqual(answer[header: "DAV"], "1, 2, calendar-access")
    }

    func testBareLineFeedsEndLinesToo() throws {
        let answer = try head("HTTP/1.1 304 Not Modified\nETag: \"7\"\nConnection: close\n")
        XCTAssertEqual(answer.status, 304)
        XCTAssertEqual(answer[header: "ETag"], "\"7\"")
        XCTAssertEqual(answer[header: "Connection"], "close")
    }

    func testHTTP10IsToldApartAndOtherStatusLinesAreRefused() throws {
        XCTAssertFalse(try head("HTTP/1.0 200 OK\r\n").isHTTP11)
        XCTAssertEqual(try head("HTTP/1.1 404\r\n").status, 404, "the reason phrase may be missing")
        for bad in ["", "ICY 200 OK\r\n", "HTTP/1.1 OK\r\n", "HTTP/2 200\r\n", "<html>\r\n"] {
            XCTAssertThrowsError(try head(bad), bad) { error in
                XCTAssertTrue(String(describing: error).contains("not an HTTP answer"), "\(error)")
            }
        }
    }

    func testListTokensAreMatchedWholeInAnyCase() {
        XCTAssertTrue(HTTP1.hasToken("close", "close"))
        XCTAssertTrue(HTTP1.hasToken(" Keep-Alive ,\tCLOSE ", "close"))
        XCTAssertTrue(HTTP1.hasToken("gzip, Chunked", "chunked"))
        XCTAssertFalse(HTTP1.hasToken(nil, "close"))
        XCTAssertFalse(HTTP1.hasToken("", "close"))
        XCTAssertFalse(HTTP1.hasToken("keep-alive", "close"))
        XCTAssertFalse(HTTP1.hasToken("closed", "close"), "a longer word is another token")
        XCTAssertFalse(HTTP1.hasToken("not-chunked", "chunked"))
        XCTAssertFalse(HTTP1.hasToken("cl\u{0F}se", "close"))
    }
}
