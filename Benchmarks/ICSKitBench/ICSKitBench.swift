import CalendarModel
import Foundation

/// `make bench` / `swift run -c release ICSKitBench [--runs N] [--input FILE] [--write BENCHMARKS.md]`
///
/// Measures ICSKit on `gen_ics.py 20000` output against libical alone (C) and python icalendar, and prints every
/// figure as a ratio against those baselines.
@main
struct ICSKitBench {
    static func main() {
        do {
            try run(Options(CommandLine.arguments.dropFirst()))
        } catch {
            FileHandle.standardError.write(Data("ICSKitBench: \(error)\n".utf8))
            exit(1)
        }
    }

    struct Options {
        var runs = 5
        var input = "bench-data/bench-20000.ics"
        var write: String?

        init(_ arguments: ArraySlice<String>) throws {
            var arguments = arguments
            while let flag = arguments.popFirst() {
                guard let value = arguments.popFirst() else { throw BenchError("\(flag) needs a value") }
                switch flag {
                case "--runs": runs = Int(value) ?? runs
                case "--input": input = value
                case "--write": write = value
                default: throw BenchError("unknown option \(flag)")
                }
            }
        }
    }

    static func run(_ options: Options) throws {
        let products = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent()
        let icskit = products.appendingPathComponent("icskit").path
        let baseline = products.appendingPathComponent("libical-baseline").path
        guard FileManager.default.isExecutableFile(atPath: baseline) else {
            throw BenchError("\(baseline) is missing: `make bench` builds it")
        }
        let input = options.input
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("icskit-bench-\(getpid())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let out = { (name: String) in scratch.appendingPathComponent(name).path }
        let runs = options.runs

        // Whole processes first: a spawned child starts with this process's peak RSS as its own, so this
        // process must still be small when they run.
        var commands: [(name: String, arguments: [String], runs: Int)] = [
            ("icskit convert ics → ics", [icskit, "convert", "-q", input, "-o", out("o.ics")], runs),
            ("icskit convert ics → jCal", [icskit, "convert", "-q", input, "-o", out("o.json")], runs),
            ("libical C: read, parse, serialize, write", [baseline, input, out("c.ics")], runs),
        ]
        if Measure.output(["python3", "-c", "import icalendar"]) != nil {
            let script = "import sys, icalendar; data = open(sys.argv[1], 'rb').read(); "
                + "cal = icalendar.Calendar.from_ical(data); open(sys.argv[2], 'wb').write(cal.to_ical())"
            commands.append(("python icalendar from_ical + to_ical", ["python3", "-c", script, input, out("p.ics")],
                             min(runs, 3)))
        }
        let measured = try Measure.processes(commands)
        let (convert, toJCal, cBaseline) = (measured[0], measured[1], measured[2])
        let python = measured.count > 3 ? measured[3] : nil

        // In-process phases.
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: input)))
        var result = ICS.read(bytes, file: input)
        let events = result.calendars.reduce(0) { $0 + $1.events.count }
        let parse = Measure.inProcess("parse → model", runs: runs) { result = ICS.read(bytes, file: input) }
        var written: [UInt8] = []
        let serialize = Measure.inProcess("model → ICS", runs: runs) { written = ICS.write(result.calendars) }
        let jcal = Measure.inProcess("model → jCal", runs: runs) { _ = CalendarFormat.jcal.write(result.calendars) }
        precondition(!written.isEmpty)

        let report = Report(input: input, bytes: bytes.count, events: events, runs: runs,
                            phases: [parse, serialize, jcal], convert: convert, toJCal: toJCal,
                            baseline: cBaseline, python: python)
        print(report.markdown)
        if let path = options.write { try report.write(into: path) }
    }
}
