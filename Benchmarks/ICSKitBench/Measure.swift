import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One timed thing: its median wall time over the runs and the largest peak RSS seen.
struct Measurement {
    var name: String
    var seconds: [Double]
    var peakKB: Int

    var median: Double {
        let sorted = seconds.sorted()
        return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
    }
}

enum Measure {
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Times a closure in this process.
    static func inProcess(_ name: String, runs: Int, _ body: () -> Void) -> Measurement {
        var seconds: [Double] = []
        for _ in 0..<runs {
            let start = now()
            body()
            seconds.append(now() - start)
        }
        return Measurement(name: name, seconds: seconds, peakKB: selfPeakKB())
    }

    /// Runs each command `runs` times, taking turns (A B C A B C …) so that a machine that speeds up or slows down
    /// during the run affects every command alike. Wall time from spawn to exit; peak RSS from the child's rusage.
    static func processes(_ commands: [(name: String, arguments: [String], runs: Int)]) throws -> [Measurement] {
        try processes(commands.map { ($0.name, $0.arguments, $0.runs, Set([0])) })
    }

    /// As above; `accepted` lists the exit statuses that count as success (calcurse exits 1 when it skipped items).
    static func processes(_ commands: [(name: String, arguments: [String], runs: Int, accepted: Set<Int32>)])
        throws -> [Measurement]
    {
        var measurements = commands.map { Measurement(name: $0.name, seconds: [], peakKB: 0) }
        for round in 0..<(commands.map(\.runs).max() ?? 0) {
            for (index, command) in commands.enumerated() where round < command.runs {
                let start = now()
                let (status, usage) = try spawnAndWait(command.arguments)
                measurements[index].seconds.append(now() - start)
                guard command.accepted.contains(status) else {
                    throw BenchError("\(command.arguments.joined(separator: " ")) exited \(status)")
                }
                measurements[index].peakKB = max(measurements[index].peakKB, Int(usage.ru_maxrss))
            }
        }
        return measurements
    }

    /// GNU time (Debian's `time`), when installed: it forks each command from its own small process, so the peak
    /// memory it reports is the command's own. A child spawned straight from this process starts with this
    /// process's peak as its own (Linux keeps the larger across exec), which the in-process phases make large.
    static let gnuTime = FileManager.default.isExecutableFile(atPath: "/usr/bin/time") ? "/usr/bin/time" : nil

    /// Runs a command to its end: its exit status and its resource use, peak memory from GNU time when installed.
    static func spawnAndWait(_ arguments: [String]) throws -> (Int32, rusage) {
        guard let gnuTime else { return try spawnDirectly(arguments) }
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("icskit-bench-peak-\(getpid())")
        defer { try? FileManager.default.removeItem(at: report) }
        var (status, usage) = try spawnDirectly([gnuTime, "-q", "-f", "%M", "-o", report.path] + arguments)
        if let text = try? String(contentsOf: report, encoding: .utf8),
            let kilobytes = text.split(separator: "\n").last.flatMap({ Int($0) })
        {
            usage.ru_maxrss = kilobytes
        }
        return (status, usage)
    }

    private static func spawnDirectly(_ arguments: [String]) throws -> (Int32, rusage) {
        var pid: pid_t = 0
        var fileActions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&fileActions)
        defer { posix_spawn_file_actions_destroy(&fileActions) }
        posix_spawn_file_actions_addopen(&fileActions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&fileActions, 1, "/dev/null", O_WRONLY, 0)
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let result = posix_spawnp(&pid, arguments[0], &fileActions, nil, argv, environ)
        guard result == 0 else {
            throw BenchError("cannot start \(arguments[0]): \(String(cString: strerror(result)))")
        }
        var status: Int32 = 0
        var usage = rusage()
        _ = wait4(pid, &status, 0, &usage)
        let exitCode = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return (exitCode, usage)
    }

    static func selfPeakKB() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Int(usage.ru_maxrss)
    }

    /// Output of a command, for version strings; nil when it cannot run.
    static func output(_ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
