import Foundation

/// A calendar is private data: the folders the store creates are 0700 (as the XDG base directory specification
/// asks of `$XDG_DATA_HOME`) and a new store file 0600, whatever the umask. SQLite gives the store's `-wal` and
/// `-shm` files the permissions of the store file itself.
enum PrivateFiles {
    /// Creates `folder` and any missing folder above it, each 0700; folders that exist are left as they are.
    static func makeFolders(_ folder: String, for store: String) throws {
        var missing: [String] = []
        var current = URL(fileURLWithPath: folder).standardizedFileURL
        while !FileManager.default.fileExists(atPath: current.path), current.path != "/" {
            missing.append(current.path)
            current = current.deletingLastPathComponent()
        }
        for created in missing.reversed() {
            if mkdir(created, 0o700) != 0, errno != EEXIST {
                throw StoreError(
                    "cannot create the folder of the store \(store): \(created): \(String(cString: strerror(errno)))")
            }
            _ = chmod(created, 0o700)  // the umask may have taken bits off
        }
    }

    /// Creates an empty store file readable and writable by its owner only, unless one exists (SQLite takes an
    /// empty file for an empty database). Where it cannot be created (read-only media, no permission), SQLite's
    /// own attempt right after says why.
    static func makeFile(_ path: String) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }
        DamageMark.clear(store: path)  // a mark left by a store that was at this path before
        _ = fchmod(descriptor, 0o600)
        close(descriptor)
    }

    /// The file a store path names: symbolic links followed (a dangling one to where it points, so that the store
    /// is made there, 0600) and the folder's own links resolved, so that one store has one path whatever the links
    /// to it (its damage mark sits beside the file itself). A loop of links stops after 40.
    static func resolved(_ path: String) -> String {
        guard path != ":memory:" else { return path }
        var current = URL(fileURLWithPath: path).standardizedFileURL
        for _ in 0..<40 {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: current.path) else { break }
            current = URL(fileURLWithPath: target, relativeTo: current.deletingLastPathComponent()).standardizedFileURL
        }
        let folder = current.deletingLastPathComponent()
        guard FileManager.default.fileExists(atPath: folder.path) else { return current.path }
        return folder.resolvingSymlinksInPath().appendingPathComponent(current.lastPathComponent).path
    }

    /// The size of a file in bytes, nil when it cannot be read.
    static func size(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue
    }
}
