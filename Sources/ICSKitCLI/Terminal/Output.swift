import CalendarModel
import Foundation

/// Writing results where the user asked: never a half-written file, never a device or pipe replaced by a file, and
/// never a failed write passed over in silence.
enum Output {
    /// Writes to a file, or to standard output when the destination is `-`.
    static func emit(_ bytes: [UInt8], to destination: String) throws {
        let sink = try Sink(destination)
        try sink.write(bytes)
        try sink.commit()
    }

    /// A destination written piece by piece, the way its kind asks for:
    /// - `-`: standard output, after the text printed before;
    /// - a regular file, or a path that does not exist yet: a temporary file beside it, renamed over it by `commit`,
    ///   so readers see the old file or the new one and never a part of it (`discard`, or any failure, removes it);
    ///   an existing file keeps its permission bits (and, where allowed, its owner);
    /// - a symbolic link to a regular file: the same, at the file it points to (the link stays a link);
    /// - `/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`: that descriptor, as `-` does;
    /// - a device, FIFO or socket: written in place (renaming a file over `/dev/null` would replace the device).
    final class Sink {
        private enum Kind {
            case standardOutput
            case descriptor(Int32)
            case inPlace(Int32)
            case temporary(Int32, temporary: String, target: String)
        }

        private let path: String
        private var kind: Kind?

        init(_ destination: String) throws {
            path = destination
            if destination == "-" {
                try standardOutput.flush()
                kind = .standardOutput
                return
            }
            if let descriptor = descriptorPath(destination) {
                kind = .descriptor(descriptor)
                return
            }
            var info = stat()
            guard lstat(destination, &info) == 0 else {
                guard errno == ENOENT else { throw OutputError(path: destination, reason: lastError()) }
                kind = try Self.temporary(for: destination, keeping: nil)
                return
            }
            switch info.st_mode & S_IFMT {
            case S_IFREG:
                kind = try Self.temporary(for: destination, keeping: info)
            case S_IFDIR:
                throw OutputError(path: destination, reason: "it is a directory")
            case S_IFLNK:
                var target = stat()
                if stat(destination, &target) == 0, target.st_mode & S_IFMT == S_IFREG, !isSystemPath(destination),
                    let resolved = resolvedPath(destination)
                {
                    kind = try Self.temporary(for: resolved, keeping: target, shownAs: destination)
                } else {
                    kind = try Self.inPlace(destination)
                }
            default:
                kind = try Self.inPlace(destination)
            }
        }

        deinit { discard() }

        /// Writes every byte, retrying short and interrupted writes; any other failure is an error.
        func write(_ bytes: [UInt8]) throws {
            switch kind {
            case .standardOutput: try standardOutput.write(bytes)
            case .descriptor(let descriptor), .inPlace(let descriptor), .temporary(let descriptor, _, _):
                try writeAll(bytes, to: descriptor, path: path)
            case nil: throw OutputError(path: path, reason: "already closed")
            }
        }

        /// Makes what was written appear: syncs and renames a temporary file over the destination.
        func commit() throws {
            defer { kind = nil }
            switch kind {
            case .temporary(let descriptor, let temporary, let target):
                defer { close(descriptor) }
                guard fsync(descriptor) == 0 else {
                    let reason = lastError()
                    unlink(temporary)
                    throw OutputError(path: path, reason: reason)
                }
                guard rename(temporary, target) == 0 else {
                    let reason = lastError()
                    unlink(temporary)
                    throw OutputError(path: path, reason: reason)
                }
            case .inPlace(let descriptor): close(descriptor)
            case .standardOutput, .descriptor, nil: break
            }
        }

        /// Leaves the destination as it was (a temporary file is removed); what went to a device or standard
        /// output stays there.
        func discard() {
            switch kind {
            case .temporary(let descriptor, let temporary, _):
                close(descriptor)
                unlink(temporary)
            case .inPlace(let descriptor): close(descriptor)
            case .standardOutput, .descriptor, nil: break
            }
            kind = nil
        }

        /// A temporary file in the destination's folder.
        private static func temporary(for path: String, keeping original: stat?, shownAs: String? = nil) throws
            -> Kind
        {
            let url = URL(fileURLWithPath: path)
            let directory = url.deletingLastPathComponent().path
            let temporary =
                directory + "/." + url.lastPathComponent
                + ".icskit-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
            let shown = shownAs ?? path
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            guard descriptor >= 0 else {
                throw OutputError(path: shown, reason: "cannot create a temporary file in \(directory): \(lastError())")
            }
            if let original {
                // The file keeps its permission bits (a 0600 calendar stays private) and, where allowed, its owner.
                guard fchmod(descriptor, original.st_mode & 0o7777) == 0 else {
                    let reason = lastError()
                    close(descriptor)
                    unlink(temporary)
                    throw OutputError(path: shown, reason: reason)
                }
                _ = fchown(descriptor, original.st_uid, original.st_gid)
            }
            return .temporary(descriptor, temporary: temporary, target: path)
        }

        /// Opens an existing device, FIFO or socket to write to it as it is (no truncation, no creation).
        private static func inPlace(_ path: String) throws -> Kind {
            let descriptor = open(path, O_WRONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw OutputError(path: path, reason: lastError()) }
            return .inPlace(descriptor)
        }
    }

    /// Text for a reader on standard output, one line (a line feed is added). Control characters a terminal would
    /// obey (an ESC sequence in a SUMMARY) are shown escaped. Buffered; `flushStandardOutput` writes it out.
    static func print(_ text: String) {
        standardOutput.append(TerminalText.safe(text) + "\n")
    }

    /// Prints one record of a listing (an agenda row, a todo, a merge decision) as one line: a line break inside
    /// it (a SUMMARY may hold one) is written `\n`, so no item's text can pose as a line of the listing.
    static func line(_ text: String) {
        standardOutput.append(TerminalText.safe(text, keepingLineBreaks: false) + "\n")
    }

    /// A piece of a styled line: text (made safe as `line` makes it) or a terminal escape sequence ICSKit wrote
    /// itself (a colour), passed through.
    enum Piece {
        case text(String)
        case code(String)
    }

    /// `line` with colours: only the text pieces are escaped.
    static func line(_ pieces: [Piece]) {
        var out = ""
        for piece in pieces {
            switch piece {
            case .text(let text): out += TerminalText.safe(text, keepingLineBreaks: false)
            case .code(let code): out += code
            }
        }
        standardOutput.append(out + "\n")
    }

    /// Lines built as bytes, for listings of many thousands of lines: text pieces made safe as `line` makes them,
    /// codes ICSKit wrote (colours) passed through; written out in blocks.
    struct Lines {
        private(set) var bytes: [UInt8] = []

        init() { bytes.reserveCapacity(1 << 16) }

        /// Text from an item (a summary, a calendar's name): control characters and line breaks escaped.
        mutating func text(_ text: String) {
            var text = text
            let isPlain = text.withUTF8 { utf8 in
                guard !utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }) else { return false }
                bytes += utf8
                return true
            }
            if !isPlain { bytes += TerminalText.safe(text, keepingLineBreaks: false).utf8 }
        }

        /// Text ICSKit wrote itself (labels, times, escape codes).
        mutating func raw(_ text: String) { bytes += text.utf8 }

        mutating func raw(_ text: StaticString) {
            text.withUTF8Buffer { bytes += $0 }
        }

        /// `HH:MM`.
        mutating func clock(_ time: LocalDateTime) {
            bytes += [
                UInt8(48 + time.hour / 10), UInt8(48 + time.hour % 10), 0x3A, UInt8(48 + time.minute / 10),
                UInt8(48 + time.minute % 10),
            ]
        }

        /// Ends the line, and writes the block out when it is large.
        mutating func end() {
            bytes.append(0x0A)
            if bytes.count >= 1 << 16 { flush() }
        }

        /// Writes the lines so far after what was printed before them (a failed write is recorded and ends the
        /// command when it finishes, as for `print`).
        mutating func flush() {
            guard !bytes.isEmpty else { return }
            standardOutput.append(bytes)
            bytes.removeAll(keepingCapacity: true)
        }
    }

    /// Writes bytes to standard output as they are (no copy into `Data`), after the text printed before them. A
    /// write that fails (a full disk) is an error; a closed pipe ends the process by SIGPIPE first.
    static func writeStandardOutput(_ bytes: [UInt8]) throws {
        try writeStandardOutput(bytes[...])
    }

    /// Writes bytes to standard output at once, after the text printed before them.
    static func writeStandardOutput(_ bytes: ArraySlice<UInt8>) throws {
        try standardOutput.flush()
        try standardOutput.write(bytes)
    }

    /// Writes out the text printed so far; a write that failed, now or earlier, is an error.
    static func flushStandardOutput() throws { try standardOutput.flush() }

    /// One line on standard error (after the text printed to standard output before it), control characters
    /// escaped.
    static func standardError(_ line: String) {
        try? standardOutput.flush()  // a failure stays recorded and ends the command when it finishes
        FileHandle.standardError.write(Data((TerminalText.safe(line) + "\n").utf8))
    }

    fileprivate static let standardOutput = StandardOutput()

    /// Reads a path, or standard input for `-`.
    static func readInput(_ path: String) throws -> [UInt8] {
        if path == "-" { return [UInt8](FileHandle.standardInput.readDataToEndOfFile()) }
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Whether two paths name the same file (after links), for refusing to write over something that is open.
    static func isSameFile(_ first: String, _ second: String) -> Bool {
        var a = stat(), b = stat()
        guard stat(first, &a) == 0, stat(second, &b) == 0 else { return false }
        return a.st_dev == b.st_dev && a.st_ino == b.st_ino
    }

    // MARK: Kinds of destination

    /// The descriptor a path stands for (`/dev/stdout` is 1), if it names one of this process's own.
    fileprivate static func descriptorPath(_ path: String) -> Int32? {
        switch path {
        case "/dev/stdout": return 1
        case "/dev/stderr": return 2
        default:
            for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
                return Int32(path.dropFirst(prefix.count))
            }
            return nil
        }
    }

    /// Paths under /dev and /proc are never replaced by a renamed file.
    fileprivate static func isSystemPath(_ path: String) -> Bool { path.hasPrefix("/dev/") || path.hasPrefix("/proc/") }

    fileprivate static func resolvedPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Writes every byte, retrying short and interrupted writes; any other failure is an error.
    fileprivate static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String) throws {
        try bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw OutputError(path: path, reason: lastError())
                }
                offset += written
            }
        }
    }

    fileprivate static func lastError() -> String { String(cString: strerror(errno)) }
}

/// Standard output without C stdio: what is printed is buffered here and written with `write(2)`, so that a write
/// that fails (a full disk, `/dev/full`) is seen and ends the command with status 1. A closed pipe (`agenda | head`)
/// ends it by SIGPIPE, as it ends Unix tools (status 141 in a shell).
private final class StandardOutput: @unchecked Sendable {
    // `@unchecked Sendable`: every access goes through `lock`.
    private let lock = NSLock()
    private var buffer: [UInt8] = []
    private var failure: OutputError?

    func append(_ text: String) {
        let full = lock.withLock {
            buffer.append(contentsOf: text.utf8)
            return buffer.count >= 1 << 16
        }
        if full { try? flush() }
    }

    func append(_ bytes: [UInt8]) {
        let full = lock.withLock {
            buffer.append(contentsOf: bytes)
            return buffer.count >= 1 << 16
        }
        if full { try? flush() }
    }

    func flush() throws {
        try lock.withLock {
            if let failure { throw failure }
            guard !buffer.isEmpty else { return }
            defer { buffer.removeAll(keepingCapacity: true) }
            do {
                try write(buffer)
            } catch let error as OutputError {
                failure = error
                throw error
            }
        }
    }

    func write(_ bytes: [UInt8]) throws { try write(bytes[...]) }

    func write(_ bytes: ArraySlice<UInt8>) throws {
        try bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Foundation.write(1, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw OutputError(path: "standard output", reason: String(cString: strerror(errno)))
                }
                offset += written
            }
        }
    }
}

/// Text made safe for a terminal: C0 and C1 control characters other than tab and line feed (ESC above all,
/// which starts the sequences that move the cursor, recolour or retitle a terminal) shown as `\x1B`.
enum TerminalText {
    /// `text` with control characters written as `\xNN` (a line feed as `\n` unless `keepingLineBreaks`). Works on
    /// UTF-8 bytes, in time linear in the text: a C0 control is one byte, a C1 control (U+0080–U+009F) the two
    /// bytes 0xC2 0x80–0x9F, and no other character's encoding holds either.
    static func safe(_ text: String, keepingLineBreaks: Bool = true) -> String {
        // Most text holds no control character at all: a byte scan says so (C1 controls begin with 0xC2).
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }) else { return text }
        let utf8 = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count + 16)
        var changed = false
        var index = 0
        func escape(_ value: UInt8) {
            out += "\\x\(String(value, radix: 16, uppercase: true))".utf8
            changed = true
        }
        while index < utf8.count {
            let byte = utf8[index]
            if byte == 0x0A, !keepingLineBreaks {
                out += [0x5C, UInt8(ascii: "n")]
                changed = true
            } else if (byte < 0x20 && byte != 0x09 && byte != 0x0A) || byte == 0x7F {
                escape(byte)
            } else if byte == 0xC2, index + 1 < utf8.count, (0x80...0x9F).contains(utf8[index + 1]) {
                escape(utf8[index + 1])
                index += 1
            } else {
                out.append(byte)
            }
            index += 1
        }
        return changed ? String(decoding: out, as: UTF8.self) : text
    }
}

/// A write that failed: where, and what the system said.
struct OutputError: Error, CustomStringConvertible {
    var path: String
    var reason: String
    var description: String { "cannot write \(path): \(reason)" }
}

extension Diagnostic {
    var json: JSONValue {
        .object([
            ("line", .int(line)), ("severity", .string(severity.rawValue)), ("code", .string(code)),
            ("message", .string(message)),
        ])
    }
}

/// Counts of components, by name, over calendars and everything nested in them.
func componentCounts(_ calendars: [ICalendar]) -> [(key: String, value: JSONValue)] {
    var counts: [String: Int] = [:]
    for calendar in calendars { counts.merge(calendar.componentCounts, uniquingKeysWith: +) }
    return counts.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) }
}
