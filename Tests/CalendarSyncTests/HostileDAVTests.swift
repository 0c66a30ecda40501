import CalendarModel
import CalendarStore
import Foundation
import XCTest

@testable import CalendarSync

/// A CalDAV server that names resources outside the collection it serves (issue 46): they are never fetched,
/// written or deleted, whatever the server lists; the ones inside sync as ever. The server is written here as a
/// transport that answers in memory, so that no request leaves the process, whatever the client makes of an href.
final class HostileDAVTests: XCTestCase {
    static let collection = "http://127.0.0.1:5232/ana/cal/"

    /// Answers PROPFIND and sync-collection with its listing, calendar-multiget with the resources' data, and
    /// PUT and DELETE with success; keeps every request it was sent.
    final class HostileServer: HTTPTransport, @unchecked Sendable {
        let lock = NSLock()
        var requests: [(method: String, url: String)] = []
        let listed: [String]

        init(listing: [String]) { listed = listing }

        func exchange(_ request: HTTPRequest, deadline: Date) throws -> HTTPResponse {
            lock.withLock { requests.append((request.method, request.url.absoluteString)) }
            switch request.method {
            case "PROPFIND", "REPORT":
                let multiget = String(decoding: request.body ?? [], as: UTF8.self).contains("calendar-multiget")
                let responses = listed.map { href in
                    "<d:response><d:href>\(href)</d:href><d:propstat><d:prop><d:getetag>\"e1\"</d:getetag>"
                        + "<d:resourcetype/>"
                        + (multiget ? "<c:calendar-data>\(Self.event(href))</c:calendar-data>" : "")
                        + "</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>"
                }
                let body =
                    "<?xml version=\"1.0\"?><d:multistatus xmlns:d=\"DAV:\" xmlns:c=\"urn:ietf:params:xml:ns:caldav\">"
                    + responses.joined() + "</d:multistatus>"
                return HTTPResponse(
                    status: 207, headers: [:], body: Array(body.utf8), url: request.url, redirects: [])
            case "PUT":
                return HTTPResponse(
                    status: 201, headers: ["etag": "\"e2\""], body: [], url: request.url, redirects: [])
            default:
                return HTTPResponse(status: 204, headers: [:], body: [], url: request.url, redirects: [])
            }
        }

        /// The event a resource holds: its UID is the href's last segment.
        static func event(_ href: String) -> String {
            let uid = href.split(separator: "/").last.map(String.init) ?? href
            return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//h//EN\r\nBEGIN:VEVENT\r\nUID:\(uid)\r\n"
                + "DTSTAMP:20261101T000000Z\r\nDTSTART:20261201T090000Z\r\nSUMMARY:\(uid)\r\nEND:VEVENT\r\n"
                + "END:VCALENDAR\r\n"
        }
    }

    let outside = [
        "../../other/x1.ics", "/ana/other/x2.ics", "/bob/cal/x3.ics", "https://other.invalid/ana/cal/x4.ics",
        "http://127.0.0.2:5232/ana/cal/x5.ics", "http://127.0.0.1:5233/ana/cal/x6.ics",
        "//other.invalid/ana/cal/x7.ics",
        "/ana/cal/../secret/x8.ics", "/ana/calendar-of-someone/x9.ics",
    ]

    func testHrefsOutsideTheCollectionAreNeverFetchedWrittenOrDeleted() throws {
        let inside = ["/ana/cal/in1.ics", "in2.ics", "http://127.0.0.1:5232/ana/cal/in3.ics", "/ana/cal/./in4.ics"]
        let server = HostileServer(listing: ["/ana/cal/"] + inside + outside)
        let warnings = Warnings()
        let client = HTTPClient(timeout: 5, retries: 0, transport: server, warn: { warnings.add($0) })
        let storage = CalDAVStorage(collection: URL(string: Self.collection)!, client: client)
        XCTAssertEqual(
            try storage.list().map(\.href).sorted(),
            ["/ana/cal/in1.ics", "/ana/cal/in2.ics", "/ana/cal/in3.ics", "/ana/cal/in4.ics"])
        XCTAssertEqual(warnings.all.count, 1)
        XCTAssertTrue(
            warnings.all.first?.contains("named \(outside.count) resources outside the collection") == true,
            "\(warnings.all)")

        // A sync pulls what is inside; then every item removed here is deleted there: only inside.
        let store = try CalendarStore.inMemory()
        let report = try TwoWaySync.sync(calendar: "C", storage: storage, store: store)
        XCTAssertEqual(report.pulled.added, 4)
        for uid in ["in1.ics", "in2.ics", "in3.ics", "in4.ics"] { _ = try store.delete(uid: uid, calendar: "C") }
        _ = try TwoWaySync.sync(calendar: "C", storage: storage, store: store)
        let written = server.requests.filter { ["PUT", "DELETE"].contains($0.method) }
        XCTAssertEqual(written.count, 4, "\(written)")
        for request in server.requests {
            XCTAssertTrue(request.url.hasPrefix(Self.collection), "\(request.method) \(request.url)")
        }
        // Asked directly for an href outside, the storage sends nothing.
        let before = server.requests.count
        for href in outside {
            XCTAssertThrowsError(try storage.delete(href, ifMatch: "\"e1\""), href)
            XCTAssertThrowsError(try storage.update(href, [], ifMatch: "\"e1\""), href)
        }
        XCTAssertEqual(server.requests.count, before)
    }

    /// A listing of more resources than allowed syncs nothing, and asks for no resource; it also asks the
    /// transport for no more than 2 kB a resource.
    func testAListingOfMoreResourcesThanAllowedSyncsNothing() throws {
        let server = HostileServer(listing: ["/ana/cal/"] + (0..<1_001).map { "/ana/cal/r\($0).ics" })
        var storage = CalDAVStorage(
            collection: URL(string: Self.collection)!, client: HTTPClient(timeout: 5, retries: 0, transport: server))
        storage.maxResources = 1_000
        XCTAssertEqual(storage.listingLimit, 2_048_000)
        XCTAssertThrowsError(try storage.list()) { error in
            XCTAssertTrue("\(error)".contains("lists 1001 resources, more than the limit of 1000"), "\(error)")
        }
        let store = try CalendarStore.inMemory()
        XCTAssertThrowsError(try TwoWaySync.sync(calendar: "C", storage: storage, store: store))
        XCTAssertEqual(try store.item(uid: "r1.ics")?.component.core?.summary, nil)
        XCTAssertFalse(server.requests.contains { $0.method != "PROPFIND" && $0.method != "REPORT" })
        storage.maxResources = 1_001
        XCTAssertEqual(try storage.list().count, 1_001)
    }

    func testDotSegmentsAreResolvedBeforeTheCollectionIsCompared() {
        let containment = HrefContainment(
            collection: URL(string: Self.collection)!, collectionPath: DAV.path(URL(string: Self.collection)!))
        XCTAssertEqual(containment.path(of: "/ana/cal/sub/../a.ics"), "/ana/cal/a.ics")
        XCTAssertEqual(containment.path(of: "HTTP://127.0.0.1:5232/ana/cal/b.ics"), "/ana/cal/b.ics")
        XCTAssertEqual(containment.path(of: "c%20d.ics"), "/ana/cal/c d.ics")
        XCTAssertNil(containment.path(of: "/ana/cal/"))
        XCTAssertNil(containment.path(of: "/ana/cal/.."))
        XCTAssertNil(containment.path(of: "/ana/cal/%2e%2e/x.ics"))
        XCTAssertEqual(HrefContainment.removingDotSegments("/a/b/../../../c"), "/c")
        XCTAssertEqual(HrefContainment.removingDotSegments("/a/./b/."), "/a/b/")
        for href in outside { XCTAssertNil(containment.path(of: href), href) }
    }

    final class Warnings: @unchecked Sendable {
        let lock = NSLock()
        var list: [String] = []
        func add(_ text: String) { lock.withLock { list.append(text) } }
        var all: [String] { lock.withLock { list } }
    }
}
