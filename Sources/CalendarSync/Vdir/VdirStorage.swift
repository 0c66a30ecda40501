import CalendarMerge
import CalendarModel
import Foundation

/// A vdir (the format of khal, todoman and vdirsyncer): a directory with one `.ics` file per item, plus optional
/// `color` and `displayname` files. A file's version token is its modification time, size and inode, as vdirsyncer
/// reads them; writes go to a temporary file first and are then renamed (updates) or hard-linked (creates, which
/// must not replace a file another program made meanwhile), so a reader never sees half a file.
public struct VdirStorage: SyncStorage {
    public let directory: URL

    /// A vdir at `path`, created when missing (0700: calendars are private, as the store is; files are written
    /// 0600).
    public init(path: String) throws {
        directory = URL(fileURLWithPath: path).standardizedFileURL
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw SyncStorageError.failed("\(path) is not a directory") }
        } else {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
    }

    public var identity: String { "vdir:" + directory.path }

    public func list() throws -> [(href: String, etag: String)] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        removeStaleTemporaries(names)
        return names.compactMap { name in
            guard name.hasSuffix(".ics"), !name.hasPrefix("."), let etag = etag(of: name) else { return nil }
            return (name, etag)
        }
    }

    /// A sync killed between writing a temporary file and renaming it leaves the file behind: one untouched for ten
    /// minutes belongs to no sync still running (each lives for the moment of one write), and goes.
    private func removeStaleTemporaries(_ names: [String], now: Date = Date()) {
        for name in names where name.hasPrefix(".icskit-") && name.hasSuffix(".tmp") {
            var info = stat()
            guard lstat(path(name), &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
                now.timeIntervalSince1970 - TimeInterval(info.st_mtim.tv_sec) > 600
            else { continue }
            unlink(path(name))
        }
    }

    public func fetch(_ hrefs: [String]) throws -> [(href: String, etag: String, bytes: [UInt8])] {
        hrefs.compactMap { href in
            // Stat, read, stat again: a file rewritten during the read is read again.
            for _ in 0..<3 {
                guard let before = etag(of: href),
                    let data = FileManager.default.contents(atPath: path(href)),
                    let after = etag(of: href)
                else { return nil }
                if before == after { return (href, after, Array(data)) }
            }
            return nil
        }
    }

    public func create(_ href: String, _ bytes: [UInt8]) throws -> String {
        let temporary = try writeTemporary(bytes)
        defer { unlink(temporary) }
        guard link(temporary, path(href)) == 0 else {
            if errno == EEXIST { throw SyncStorageError.changed(href) }
            throw SyncStorageError.failed("cannot create \(path(href)): \(String(cString: strerror(errno)))")
        }
        return try etagOrFail(href)
    }

    public func update(_ href: String, _ bytes: [UInt8], ifMatch expected: String) throws -> String {
        guard etag(of: href) == expected else { throw SyncStorageError.changed(href) }
        let temporary = try writeTemporary(bytes)
        guard rename(temporary, path(href)) == 0 else {
            unlink(temporary)
            throw SyncStorageError.failed("cannot replace \(path(href)): \(String(cString: strerror(errno)))")
        }
        return try etagOrFail(href)
    }

    public func delete(_ href: String, ifMatch expected: String) throws {
        guard etag(of: href) == expected else { throw SyncStorageError.changed(href) }
        guard unlink(path(href)) == 0 || errno == ENOENT else {
            throw SyncStorageError.failed("cannot delete \(path(href)): \(String(cString: strerror(errno)))")
        }
    }

    public func href(forUID uid: String) -> String { resourceName(forUID: uid) }

    /// Writes every item of the calendars as one file per UID with its overrides and the VTIMEZONEs it uses (a file
    /// of the same name is replaced, atomically; files of other UIDs stay), and the `displayname` and `color` files
    /// when the vdir has none. Returns how many files were written and how many already held the same.
    public func export(_ calendars: [ICalendar], displayName: String?, color: String?) throws -> (
        written: Int, same: Int
    ) {
        var written = 0, same = 0
        for calendar in calendars {
            let (items, _) = CalendarMerger.items(of: [calendar])
            let zones = Dictionary(calendar.timeZones.compactMap { zone in zone.tzid.map { ($0, zone) } }) { a, _ in a }
            var resources = ResourceWriter(zones: zones)
            var byUID: [String: [MergeItem]] = [:]
            for item in items.values { byUID[item.key.uid, default: []].append(item) }
            for (uid, group) in byUID.sorted(by: { $0.key < $1.key }) {
                let href = href(forUID: uid)
                let bytes = resources.write(group)
                if let etag = etag(of: href) {
                    if FileManager.default.contents(atPath: path(href)).map(Array.init) == bytes {
                        same += 1
                        continue
                    }
                    _ = try update(href, bytes, ifMatch: etag)
                } else {
                    _ = try create(href, bytes)
                }
                written += 1
            }
        }
        let existing = metadata()
        try setMetadata(
            displayName: existing.displayName == nil ? displayName : nil, color: existing.color == nil ? color : nil)
        return (written, same)
    }

    /// The vdir's `displayname` and `color` files, when present.
    public func metadata() -> (displayName: String?, color: String?) {
        func read(_ name: String) -> String? {
            (try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines).nonEmpty
        }
        return (read("displayname"), read("color"))
    }

    /// Writes the `displayname` and `color` files (atomically) where a value is given.
    public func setMetadata(displayName: String?, color: String?) throws {
        for (name, value) in [("displayname", displayName), ("color", color)] {
            guard let value else { continue }
            let temporary = try writeTemporary(Array((value + "\n").utf8))
            guard rename(temporary, directory.appendingPathComponent(name).path) == 0 else {
                unlink(temporary)
                throw SyncStorageError.failed("cannot write \(name) in \(directory.path)")
            }
        }
    }

    // MARK: Files

    func path(_ href: String) -> String { directory.appendingPathComponent(href).path }

    func etag(of href: String) -> String? {
        var info = stat()
        guard stat(path(href), &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return "\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)-\(info.st_size)-\(info.st_ino)"
    }

    private func etagOrFail(_ href: String) throws -> String {
        guard let etag = etag(of: href) else { throw SyncStorageError.changed(href) }
        return etag
    }

    /// A new hidden file in the vdir holding `bytes`, flushed to disk.
    private func writeTemporary(_ bytes: [UInt8]) throws -> String {
        let temporary = directory.appendingPathComponent(".icskit-\(UUID().uuidString).tmp").path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else {
            throw SyncStorageError.failed("cannot write in \(directory.path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else {
                unlink(temporary)
                throw SyncStorageError.failed("cannot write in \(directory.path): \(String(cString: strerror(errno)))")
            }
            written += count
        }
        fsync(descriptor)
        return temporary
    }
}

extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}
