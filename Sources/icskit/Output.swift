import CalendarModel
import Foundation

/// Writing results where the user asked, never leaving a half-written file behind.
enum Output {
    /// Writes to a temporary file beside the destination, then renames it over the destination, so readers see
    /// the old file or the new one and never a part of it.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        let temporary = directory + "/." + url.lastPathComponent + ".icskit-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(bytes)) else {
            throw OutputError(path: path, reason: "cannot create a file in \(directory)")
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw OutputError(path: path, reason: reason)
        }
    }

    /// Writes to a file atomically, or to standard output when the destination is `-`.
    static func emit(_ bytes: [UInt8], to destination: String) throws {
        if destination == "-" {
            writeStandardOutput(bytes)
        } else {
            try writeAtomically(bytes, to: destination)
        }
    }

    /// Writes bytes to standard output as they are (no copy into `Data`), retrying short writes.
    static func writeStandardOutput(_ bytes: [UInt8]) {
        fflush(nil)
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(1, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return  // a closed pipe: nothing more to do
                }
                offset += written
            }
        }
    }

    static func standardError(_ line: String) {
        fflush(nil)  // flush every C stream, so what `print` buffered comes before this line
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Reads a path, or standard input for `-`.
    static func readInput(_ path: String) throws -> [UInt8] {
        if path == "-" { return [UInt8](FileHandle.standardInput.readDataToEndOfFile()) }
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }
}

struct OutputError: Error, CustomStringConvertible {
    var path: String
    var reason: String
    var description: String { "cannot write \(path): \(reason)" }
}

extension Diagnostic {
    var json: JSONValue {
        .object([("line", .int(line)), ("severity", .string(severity.rawValue)), ("message", .string(message))])
    }
}

/// Counts of components, by name, over calendars and everything nested in them.
func componentCounts(_ calendars: [ICalendar]) -> [(key: String, value: JSONValue)] {
    var counts: [String: Int] = [:]
    for calendar in calendars { counts.merge(calendar.componentCounts, uniquingKeysWith: +) }
    return counts.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) }
}

/// Values a command reads once and holds until it ends: the operating system takes their memory back when icskit
/// exits, while releasing a parsed 20,000-event calendar object by object first costs about 0.2 s (compilers skip
/// that final free for the same reason).
enum ProcessLifetime {
    private final class Holder<Value> {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    static func keepUntilExit<Value>(_ value: Value) {
        _ = Unmanaged.passRetained(Holder(value))
    }
}
