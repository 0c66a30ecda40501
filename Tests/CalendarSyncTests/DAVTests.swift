import CalendarModel
import Foundation
import XCTest

@testable import CalendarSync

final class DAVTests: XCTestCase {
    func answer(_ xml: String) -> HTTPResponse {
        HTTPResponse(
            status: 207, headers: [:], body: Array(xml.utf8), url: URL(string: "http://127.0.0.1/cal/")!, redirects: [])
    }

    func testHrefsAreComparedAsDecodedPaths() {
        // Servers encode `@` or not, answer with paths or whole URLs: each names the same resource.
        XCTAssertEqual(DAV.path("/cal/a%40b.example.ics"), "/cal/a@b.example.ics")
        XCTAssertEqual(DAV.path("/cal/a@b.example.ics"), "/cal/a@b.example.ics")
        XCTAssertEqual(DAV.path("/cal/caf%C3%A9.ics"), "/cal/café.ics")
        XCTAssertEqual(DAV.path("http://127.0.0.1:8080/cal/a%40b.ics"), "/cal/a@b.ics")
        XCTAssertEqual(DAV.path("/cal/"), "/cal/")
        XCTAssertEqual(DAV.path("http://127.0.0.1:8080/cal/"), "/cal/")
        // A malformed escape is left to Foundation's reading, which keeps the text.
        XCTAssertEqual(DAV.path("/cal/100%.ics"), "/cal/100%.ics")
        XCTAssertNil(DAV.percentDecoded("/a%4"))
        XCTAssertNil(DAV.percentDecoded("/a%FF"))
    }

    func testHrefsBecomeTheURLsFoundationResolvesThemTo() throws {
        // An absolute path is joined to the collection's origin; anything else is resolved by Foundation. Both give
        // what resolving the encoded href against the collection gives; an href outside the collection gives none.
        for collection in [
            "http://127.0.0.1:5232/user/cal/", "https://u@cal.example.com/dav/calendars/ana/work",
            "http://[::1]:8080/c%C3%A9/",
        ] {
            let storage = CalDAVStorage(collection: URL(string: collection)!, client: HTTPClient())
            let own = storage.collectionPath
            for href in [own + "a b@example.com.ics", own + "caf\u{E9}.ics", "x.ics", own + "sub/y.ics"] {
                let expected = URL(string: DAV.encoded(href), relativeTo: storage.collection)!.absoluteURL
                XCTAssertEqual(try storage.url(href).absoluteString, expected.absoluteString, "\(collection) \(href)")
            }
            for href in ["../other/y.ics", "//elsewhere.example/z.ics", "/", own, "/dav/other/z.ics"] {
                XCTAssertThrowsError(try storage.url(href), "\(collection) \(href)")
            }
        }
    }

    func testPathsAreEncodedAsFoundationEncodesThem() {
        // Every ASCII character, and paths with UTF-8, spaces and escapes, encode as Foundation's `urlPathAllowed`
        // encodes them, and decode back.
        var paths = (0..<128).map { "/cal/x" + String(Character(Unicode.Scalar(UInt8($0)))) + ".ics" }
        paths += ["/cal/café 予定.ics", "/cal/a@b.example.ics", "/cal/100%.ics", "/cal/%41.ics", "/cal/📅;x?y#z.ics", ""]
        for path in paths {
            XCTAssertEqual(DAV.encoded(path), path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed), path)
            XCTAssertEqual(DAV.percentDecoded(DAV.encoded(path)), path, path)
        }
        XCTAssertEqual(DAV.encoded("/cal/café.ics"), "/cal/caf%C3%A9.ics")
    }

    func testAMultistatusGivesItsResponsesAndSyncTokenFromOneReading() throws {
        let (responses, token) = try DAV.multistatus(
            answer(
                """
                <?xml version="1.0"?>
                <d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">
                  <d:response><d:href> /cal/one.ics </d:href><d:propstat><d:prop>
                    <d:getetag>"1"</d:getetag>
                    <c:calendar-data>BEGIN:VCALENDAR&#13;
                END:VCALENDAR&#13;
                </c:calendar-data></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>
                  <d:response><d:href>/cal/gone.ics</d:href><d:status>HTTP/1.1 404 Not Found</d:status></d:response>
                  <d:sync-token>
                    http://example.com/sync/7
                  </d:sync-token>
                </d:multistatus>
                """))
        XCTAssertEqual(token, "http://example.com/sync/7")
        XCTAssertEqual(responses.map(\.href), ["/cal/one.ics", "/cal/gone.ics"])
        XCTAssertEqual(responses[0].etag, "\"1\"")
        // Calendar data keeps its own bytes: CR LF from the references, no trimming.
        XCTAssertEqual(responses[0].calendarData, "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n")
        XCTAssertEqual(responses[1].status, 404)
    }
}
