import CalendarModel
import Foundation

/// `--only jscalendar`: `gen_ics.py 20000` to JSCalendar and back, against the same trips through jCal — whole
/// `icskit convert` processes taking turns, and the writers and readers in this process.
enum JSCalendarBench {
    static func run(icskit: String, input: String, runs: Int, scratch: URL, command: String) throws -> String {
        let out = { (name: String) in scratch.appendingPathComponent(name).path }
        let convert = { (from: String, to: String, format: String) in
            [icskit, "convert", "-q", from, "--to", format, "-o", out(to)]
        }
        // The files read back are written first.
        _ = try Measure.spawnAndWait(convert(input, "calendar.jscal.json", "jscalendar"))
        _ = try Measure.spawnAndWait(convert(input, "calendar.jcal.json", "jcal"))
        let measured = try Measure.processes([
            ("icskit convert ics → JSCalendar", convert(input, "out.jscal.json", "jscalendar"), runs),
            ("icskit convert ics → jCal", convert(input, "out.jcal.json", "jcal"), runs),
            ("icskit convert JSCalendar → ics", convert(out("calendar.jscal.json"), "back1.ics", "ics"), runs),
            ("icskit convert jCal → ics", convert(out("calendar.jcal.json"), "back2.ics", "ics"), runs),
        ])
        let calendars = try ICS.read(contentsOf: input).calendars
        let jscalendar = CalendarFormat.jscalendar.write(calendars), jcal = CalendarFormat.jcal.write(calendars)
        let phases = [
            Measure.inProcess("model → JSCalendar", runs: runs) { _ = CalendarFormat.jscalendar.write(calendars) },
            Measure.inProcess("model → jCal", runs: runs) { _ = CalendarFormat.jcal.write(calendars) },
            Measure.inProcess("JSCalendar → model", runs: runs) {
                _ = CalendarFormat.jscalendar.read(jscalendar, file: nil)
            },
            Measure.inProcess("jCal → model", runs: runs) { _ = CalendarFormat.jcal.read(jcal, file: nil) },
        ]
        func size(_ name: String) -> Int {
            ((try? FileManager.default.attributesOfItem(atPath: out(name))[.size]) as? Int ?? 0) / 1_048_576
        }
        var lines = [
            "### JSCalendar: gen_ics.py 20000 to JSCalendar and back, against jCal", "",
            "- date: \(ISO8601DateFormatter().string(from: Date()))", "- machine: \(Report.machine)",
            "- command: `\(command)`; whole processes interleaved, median of \(runs) runs", "",
            "| whole process | median s | peak RSS MB | vs the same through jCal |", "|---|---:|---:|---:|",
        ]
        for (index, measurement) in measured.enumerated() {
            let base = measured[index % 2 == 0 ? index + 1 : index]
            lines.append(
                "| \(measurement.name) | \(Report.format(measurement.median)) | \(measurement.peakKB / 1024) | "
                    + "\(Report.ratio(measurement.median, base.median)) |")
        }
        lines += ["", "| in process | median s | vs jCal |", "|---|---:|---:|"]
        for (index, phase) in phases.enumerated() {
            let base = phases[index % 2 == 0 ? index + 1 : index]
            lines.append(
                "| \(phase.name) | \(Report.format(phase.median)) | \(Report.ratio(phase.median, base.median)) |")
        }
        lines += [
            "",
            "- Output: \(size("calendar.jscal.json")) MB of JSCalendar (indented), \(size("calendar.jcal.json")) MB "
                + "of jCal, from a 10 MB file.",
            "- `convert --to jscalendar` streams a series at a time (`JSCalendarStream`: each run's series written "
                + "as JSON on every core, 1,024 series kept open for their overrides), as jCal streams a component "
                + "at a time; in process, the model is written whole. `convert` from a JSCalendar Group file reads "
                + "it an entry at a time (`JSCalendarStreamRead`: the Group's members, then each entry parsed and "
                + "written alone); the in-process row parses the whole document and locates every value for its "
                + "diagnostics.",
        ]
        return lines.joined(separator: "\n")
    }
}
