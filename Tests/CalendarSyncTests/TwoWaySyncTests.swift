import CalendarMerge
import CalendarModel
import CalendarStore
import CalendarStoreSync
import CalendarSync
import XCTest

/// The sync engine over a real vdir and an in-memory store, with a storage that lets another writer in between
/// the listing and the write.
final class TwoWaySyncTests: XCTestCase {
    /// A vdir whose first update is preceded by someone else's edit of the same file (a 412 for CalDAV).
    struct Interfering: SyncStorage {
        let inner: VdirStorage
        let edit: (String) -> Void
        let interfered = Flag()

        final class Flag: @unchecked Sendable {
            var isSet = false
        }

        var identity: String { inner.identity }
        func list() throws -> [(href: String, etag: String)] { try inner.list() }
        func fetch(_ hrefs: [String]) throws -> [(href: String, etag: String, bytes: [UInt8])] {
            try inner.fetch(hrefs)
        }
        func create(_ href: String, _ bytes: [UInt8]) throws -> String { try inner.create(href, bytes) }
        func update(_ href: String, _ bytes: [UInt8], ifMatch etag: String) throws -> String {
            if !interfered.isSet {
                interfered.isSet = true
                edit(href)
            }
            return try inner.update(href, bytes, ifMatch: etag)
        }
        func delete(_ href: String, ifMatch etag: String) throws { try inner.delete(href, ifMatch: etag) }
        func href(forUID uid: String) -> String { inner.href(forUID: uid) }
    }

    func event(_ uid: String, _ summary: String, sequence: Int = 0) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VEVENT\r\nUID:\(uid)\r\n"
            + "DTSTAMP:20261101T000000Z\r\nSEQUENCE:\(sequence)\r\nDTSTART:20261201T090000Z\r\nSUMMARY:\(summary)\r\n"
            + "END:VEVENT\r\nEND:VCALENDAR\r\n"
    }

    func testAWriteThatMeetsAnotherWritersChangeIsMergedAndWrittenAgainInTheSameSync() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vdir-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try CalendarStore.inMemory()
        let vdir = try VdirStorage(path: folder.path)
        _ = try vdir.create("a@test.ics", Array(event("a@test", "Original").utf8))
        XCTAssertEqual(try TwoWaySync.sync(calendar: "C", storage: vdir, store: store).pulled.added, 1)

        // Here: a new summary. There, just before the write: a newer one (higher SEQUENCE), which must not be lost.
        var local = try XCTUnwrap(store.item(uid: "a@test")?.component)
        guard case .event(var edited) = local else { return XCTFail("not an event") }
        edited.summary = "Edited here"
        local = .event(edited)
        try store.add(local, to: "C")
        let interfering = Interfering(inner: vdir) { href in
            let path = folder.appendingPathComponent(href).path
            try? self.event("a@test", "Edited there", sequence: 5).write(
                toFile: path, atomically: true, encoding: .utf8)
            // A file system's clock may not tick between two writes: the change is dated later, so it shows in the
            // file's version whatever the clock did.
            try? FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: path)
        }
        let report = try TwoWaySync.sync(calendar: "C", storage: interfering, store: store)
        XCTAssertTrue(interfering.interfered.isSet)
        XCTAssertEqual(report.deferred, [], "the second round merged it")
        XCTAssertEqual(report.pulled.conflicts, 1, "both sides had changed it")
        guard case .event(let result)? = try store.item(uid: "a@test")?.component else { return XCTFail("gone") }
        XCTAssertEqual(result.summary, "Edited there", "the newer SEQUENCE wins; nothing was overwritten unseen")
        let file = try String(contentsOf: folder.appendingPathComponent("a@test.ics"), encoding: .utf8)
        XCTAssertTrue(file.contains("SUMMARY:Edited there"))
        XCTAssertTrue(try TwoWaySync.sync(calendar: "C", storage: vdir, store: store).wasIdle)
    }
}
