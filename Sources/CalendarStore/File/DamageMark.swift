import Foundation

/// A store SQLite's integrity check found damaged is marked by a file beside it (`store.sqlite.damaged`, 0600,
/// holding what the check said): a damaged b-tree that takes more writes can lose more than it already has, so
/// commands that change the store refuse to open it while the mark is there, and commands that read still work,
/// for an export of what can be read. The next `check-store` that passes (a backup put back in its place) takes the
/// mark away. Checking on every write would cost as much as a merge (a tenth of a second on 20,000 items).
///
/// The file itself carries the mark too, as an extended attribute (`user.icskit.damaged`) where its file system
/// keeps them: another hard link to the same file (another name, any folder) finds it there, where no file beside
/// that name says so.
enum DamageMark {
    /// The extended attribute the store file itself carries while it is marked.
    static let attribute = "user.icskit.damaged"

    /// Beside the store's file itself, whatever link named it.
    static func path(store: String) -> String { PrivateFiles.resolved(store) + ".damaged" }

    /// Records the check's findings, when the store's folder can be written (a read-only store takes no writes).
    static func record(_ findings: [String], store: String) {
        guard store != ":memory:" else { return }
        let text =
            "icskit check-store found this store damaged on \(ISO8601DateFormatter().string(from: Date())):\n"
            + findings.prefix(20).joined(separator: "\n") + "\n"
        _ = FileManager.default.createFile(
            atPath: path(store: store), contents: Data(text.utf8), attributes: [.posixPermissions: 0o600])
        FileAttributes.set(attribute, Array(text.utf8.prefix(4_000)), path: PrivateFiles.resolved(store))
    }

    static func clear(store: String) {
        guard store != ":memory:" else { return }
        unlink(path(store: store))
        FileAttributes.remove(attribute, path: PrivateFiles.resolved(store))
    }

    /// What the check said, from the mark beside the file or the one the file carries; nil when it is not marked.
    static func findings(store: String) -> String? {
        if let text = try? String(contentsOfFile: path(store: store), encoding: .utf8) { return text }
        return FileAttributes.get(attribute, path: PrivateFiles.resolved(store)).map {
            String(decoding: $0, as: UTF8.self)
        }
    }

    /// Throws when the store is marked damaged, saying what the check found and what to do.
    static func refuseWrites(store: String) throws {
        guard (PrivateFiles.size(store) ?? 0) > 0, let text = findings(store: store) else { return }
        let finding =
            text.split(separator: "\n").dropFirst().first { !$0.hasPrefix("***") }.map { String($0.prefix(160)) }
            ?? "damaged"
        throw StoreError(
            "the store \(store) failed its integrity check (\(finding)); it takes no writes until `icskit "
                + "check-store` passes: put a backup in its place, or rebuild what SQLite can still read with "
                + "`sqlite3 \(store) .recover | sqlite3 NEW.sqlite` and use NEW.sqlite (`icskit export` still reads "
                + "the calendars the damage does not touch)")
    }
}
