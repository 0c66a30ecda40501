import Foundation

/// One comparison in BENCHMARKS.md: ICSKit's whole-process runs against a C baseline and python, as ratios.
struct Report {
    var key: String
    var title: String
    var command: String
    var runs: Int
    var subjects: [Measurement]
    var baseline: Measurement
    var python: Measurement?
    var inProcess: [Measurement] = []
    /// ICSKit's first subject must stay within this many times the baseline …
    var maxVsBaseline: Double
    /// … and be at least this many times faster than python.
    var minVsPython: Double
    var notes: [String] = []

    var markdown: String {
        var lines = [
            "### \(title)", "",
            "- date: \(ISO8601DateFormatter().string(from: Date()))",
            "- machine: \(Self.machine)",
            "- command: `\(command)`; whole processes interleaved, median of \(runs) runs (python: "
                + "\(python?.seconds.count ?? 0))", "",
            "| whole process | median s | peak RSS MB | vs libical C | vs python |", "|---|---:|---:|---:|---:|",
        ]
        for measurement in subjects + [baseline] + (python.map { [$0] } ?? []) {
            lines.append(
                "| \(measurement.name) | \(Self.format(measurement.median)) | \(measurement.peakKB / 1024) | "
                    + "\(Self.ratio(measurement.median, baseline.median)) | "
                    + "\(python.map { Self.ratio(measurement.median, $0.median) } ?? "not installed") |")
        }
        if !inProcess.isEmpty {
            lines += ["", "| in process | median s | vs libical C whole process |", "|---|---:|---:|"]
            for phase in inProcess {
                lines.append(
                    "| \(phase.name) | \(Self.format(phase.median)) | \(Self.ratio(phase.median, baseline.median)) |")
            }
        }
        let subject = subjects[0]
        let ratio = subject.median / baseline.median
        lines.append("")
        lines.append(
            "- \(subject.name) takes **\(Self.format(ratio))×** the time of the libical C baseline "
                + "(goal ≤ \(Self.format(maxVsBaseline))×): \(ratio <= maxVsBaseline ? "met" : "NOT met").")
        if let python {
            let speedup = python.median / subject.median
            lines.append(
                "- It is **\(Self.format(speedup))×** faster than python (goal ≥ \(Self.format(minVsPython))×): "
                    + "\(speedup >= minVsPython ? "met" : "NOT met").")
        } else {
            lines.append("- python is not installed (`pip install icalendar==7.3.0 recurring-ical-events==3.8.2`).")
        }
        lines.append(
            "- Peak memory: \(subject.peakKB / 1024) MB against \(baseline.peakKB / 1024) MB for libical "
                + "(\(Self.ratio(Double(subject.peakKB), Double(baseline.peakKB))))"
                + (python.map { ", \($0.peakKB / 1024) MB for python" } ?? "") + ".")
        lines += notes.map { "- " + $0 }
        return lines.joined(separator: "\n")
    }

    func write(into path: String) throws { try Self.write(section: markdown, key: key, into: path) }

    /// Replaces the section `key` of the file (or appends it), leaving the rest alone.
    static func write(section markdown: String, key: String, into path: String) throws {
        let begin = "<!-- icskit-bench:\(key):begin -->", end = "<!-- icskit-bench:\(key):end -->"
        let section = begin + "\n" + markdown + "\n" + end
        var text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? "# Benchmarks\n"
        if let start = text.range(of: begin), let stop = text.range(of: end) {
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
        let python =
            Measure.output([
                "python3", "-c",
                "import platform; from importlib.metadata import version as v; "
                    + "print('python', platform.python_version(), 'icalendar', v('icalendar'), "
                    + "'recurring-ical-events', v('recurring-ical-events'))",
            ]) ?? "no python icalendar"
        return "\(cpu ?? "unknown CPU"), \(cores) cores, \(memory) GiB; "
            + "\(ProcessInfo.processInfo.operatingSystemVersionString); \(swift); libical \(libical); \(python)"
    }
}
