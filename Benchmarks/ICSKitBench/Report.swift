import Foundation

/// The figures of one benchmark run, as Markdown with ratios against the baselines.
struct Report {
    var input: String
    var bytes: Int
    var events: Int
    var runs: Int
    var phases: [Measurement]
    var convert: Measurement
    var toJCal: Measurement
    var baseline: Measurement
    var python: Measurement?

    static let begin = "<!-- icskit-bench:convert:begin -->"
    static let end = "<!-- icskit-bench:convert:end -->"

    var markdown: String {
        var lines: [String] = []
        lines.append("### Convert: `gen_ics.py 20000` (\(events) events, \(bytes / 1_000_000) MB)")
        lines.append("")
        lines.append("- date: \(ISO8601DateFormatter().string(from: Date()))")
        lines.append("- machine: \(Self.machine)")
        lines.append("- command: `make bench` (= `swift build -c release` + `.build/release/ICSKitBench --runs \(runs)`), "
            + "median of \(runs) runs")
        lines.append("")
        lines.append("| whole process | median s | peak RSS MB | vs libical C | vs python icalendar |")
        lines.append("|---|---:|---:|---:|---:|")
        for measurement in [convert, toJCal, baseline] + (python.map { [$0] } ?? []) {
            lines.append("| \(measurement.name) | \(Self.format(measurement.median)) | \(measurement.peakKB / 1024) | "
                + "\(Self.ratio(measurement.median, baseline.median)) | "
                + "\(python.map { Self.ratio(measurement.median, $0.median) } ?? "not installed") |")
        }
        lines.append("")
        lines.append("| in process | median s | vs libical C whole process |")
        lines.append("|---|---:|---:|")
        for phase in phases {
            lines.append("| \(phase.name) | \(Self.format(phase.median)) | \(Self.ratio(phase.median, baseline.median)) |")
        }
        lines.append("")
        let cRatio = convert.median / baseline.median
        lines.append("- `icskit convert` ics → ics takes **\(Self.format(cRatio))×** the time of libical alone "
            + "(goal ≤ 1.5×): \(cRatio <= 1.5 ? "met" : "NOT met").")
        if let python {
            let speedup = python.median / convert.median
            lines.append("- It is **\(Self.format(speedup))×** faster than python icalendar from_ical + to_ical "
                + "(goal ≥ 20×): \(speedup >= 20 ? "met" : "NOT met").")
        } else {
            lines.append("- python icalendar is not installed (`pip install icalendar==7.3.0`): no second baseline.")
        }
        lines.append("- Peak memory: icskit \(convert.peakKB / 1024) MB, libical C \(baseline.peakKB / 1024) MB "
            + "(\(Self.ratio(Double(convert.peakKB), Double(baseline.peakKB))))"
            + (python.map { ", python \($0.peakKB / 1024) MB" } ?? "") + "; the input is \(bytes / 1_000_000) MB.")
        return lines.joined(separator: "\n")
    }

    /// Replaces this benchmark's section of the file (or appends it), leaving the rest alone.
    func write(into path: String) throws {
        let section = Self.begin + "\n" + markdown + "\n" + Self.end
        var text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? "# Benchmarks\n"
        if let start = text.range(of: Self.begin), let stop = text.range(of: Self.end) {
            text.replaceSubrange(start.lowerBound..<stop.upperBound, with: section)
        } else {
            text += "\n" + section + "\n"
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    static func format(_ value: Double) -> String { String(format: value < 10 ? "%.2f" : "%.1f", value) }

    static func ratio(_ value: Double, _ base: Double) -> String { format(value / base) + "×" }

    static var machine: String {
        let cpu = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?.split(separator: "\n")
            .first { $0.hasPrefix("model name") }?.split(separator: ":").last?.trimmingCharacters(in: .whitespaces)
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let memory = ProcessInfo.processInfo.physicalMemory / 1_073_741_824
        let swift = Measure.output(["swift", "--version"])?.split(separator: "\n").first.map(String.init) ?? "swift ?"
        let libical = Measure.output(["pkg-config", "--modversion", "libical"]) ?? "?"
        let python = Measure.output(["python3", "-c", "import icalendar, platform; "
            + "print('python', platform.python_version(), 'icalendar', icalendar.__version__)"]) ?? "no python icalendar"
        return "\(cpu ?? "unknown CPU"), \(cores) cores, \(memory) GiB; Linux \(ProcessInfo.processInfo.operatingSystemVersionString); "
            + "\(swift); libical \(libical); \(python)"
    }
}
