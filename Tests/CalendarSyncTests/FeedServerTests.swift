import CalendarServe
import CalendarSync
import Foundation
import NIOConcurrencyHelpers
import XCTest

/// The feed server in process, with a source that counts: a feed is built once per version however many ask at
/// once, and a revoked share answers 404 from the next request on.
final class FeedServerTests: XCTestCase {
    /// One share whose version a test moves, counting how often its feed is built.
    final class CountingSource: FeedSource {
        let token = FeedToken.make()
        private let state = NIOLockedValueBox((version: 1, live: true, builds: 0))

        var builds: Int { state.withLockedValue { $0.builds } }
        func change() { state.withLockedValue { $0.version += 1 } }
        func revoke() { state.withLockedValue { $0.live = false } }

        func liveShares() throws -> [FeedShare] {
            let (version, live, _) = state.withLockedValue { $0 }
            return live ? [FeedShare(name: "s", tokenHash: FeedToken.hash(token), version: String(version))] : []
        }

        func feed(of share: FeedShare, now: Date) throws -> [UInt8] {
            state.withLockedValue { $0.builds += 1 }
            Thread.sleep(forTimeInterval: 0.05)  // a build takes a while: others arrive meanwhile
            return Array("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nX-V:\(share.version)\r\nEND:VCALENDAR\r\n".utf8)
        }

        func freeBusy(of share: FeedShare, from: Date, to: Date) throws -> [UInt8] { [] }
    }

    func testAThousandSubscribersCostOneBuild() throws {
        let source = CountingSource()
        let server = try FeedServer.start(source: source, host: "127.0.0.1", port: 0)
        defer {
            server.stop()
            try? server.waitUntilClosed()
        }
        let url = URL(string: "http://127.0.0.1:\(server.address.port)/feeds/\(source.token).ics")!
        let failures = NIOLockedValueBox(0)
        DispatchQueue.concurrentPerform(iterations: 50) { _ in
            let client = HTTPClient(timeout: 20, retries: 0)
            for _ in 0..<20 {
                let answer = try? client.send(HTTPRequest("GET", url))
                if answer?.status != 200 || answer?.body.count ?? 0 < 20 { failures.withLockedValue { $0 += 1 } }
            }
        }
        XCTAssertEqual(failures.withLockedValue { $0 }, 0)
        XCTAssertEqual(source.builds, 1, "one build for a thousand requests")
        XCTAssertEqual(server.feedsBuilt, 1)

        source.change()
        let client = HTTPClient(timeout: 20, retries: 0)
        XCTAssertTrue(String(decoding: try client.send(HTTPRequest("GET", url)).body, as: UTF8.self).contains("X-V:2"))
        XCTAssertEqual(try client.send(HTTPRequest("GET", url)).status, 200)
        XCTAssertEqual(source.builds, 2, "one more build for the change, not one per request")

        source.revoke()
        XCTAssertEqual(try client.send(HTTPRequest("GET", url)).status, 404)
    }

    func testTokensAreLongRandomAndOnlyTheirHashIsCompared() {
        let tokens = (0..<1000).map { _ in FeedToken.make() }
        XCTAssertEqual(Set(tokens).count, 1000)
        XCTAssertTrue(tokens.allSatisfy { FeedToken.isWellFormed(Substring($0)) })
        XCTAssertEqual(FeedToken.hash("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertTrue(FeedToken.equal("abcd", "abcd"))
        XCTAssertFalse(FeedToken.equal("abcd", "abce"))
        XCTAssertFalse(FeedToken.equal("abcd", "abc"))
        let hasher = FeedToken.uidHasher(key: FeedToken.makeKey())
        XCTAssertEqual(hasher("uid-1"), hasher("uid-1"), "stable: an update stays an update")
        XCTAssertNotEqual(hasher("uid-1"), hasher("uid-2"))
        XCTAssertNotEqual(hasher("uid-1"), FeedToken.uidHasher(key: FeedToken.makeKey())("uid-1"), "keyed per share")
        XCTAssertFalse(hasher("secret-booking-42").contains("secret"))
    }
}
