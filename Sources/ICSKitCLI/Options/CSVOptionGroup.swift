import ArgumentParser
import CalendarModel

/// `--columns` and `--tz` for CSV input and output; other formats ignore them.
struct CSVOptionGroup: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "CSV: map headers to fields, e.g. \"Title=summary,When=start,Notes=description\".",
            discussion: "Fields: " + CSVField.allCases.map(\.rawValue).joined(separator: ", ")
                + ". Google's, Outlook's and ICSKit's own headers are recognised without it."))
    var columns: String?

    @Option(
        name: .customLong("tz"),
        help: ArgumentHelp(
            "CSV: the time zone of the times (reading: naive times are in it, else floating; writing: times are "
                + "written in it, else each in its own zone). --for google: the zone floating times are given."))
    var zone: String?

    @Flag(
        name: .customLong("raw-cells"),
        help: ArgumentHelp(
            "CSV: write and read cells exactly as they are. Without it, a cell starting with =, +, -, @, tab or CR "
                + "(which a spreadsheet would run as a formula) is written with a ' before it, and reading takes it off."
        ))
    var rawCells = false

    func validate() throws {
        if let columns, case .failure(let problem) = CSVOptions.columns(columns) {
            throw ValidationError("--columns: \(problem)")
        }
    }

    /// An unknown zone is a runtime error (exit 1, one line), as `--tz` is for every other command; the commands
    /// with CSV options call this first thing in `run()`.
    func checkZone() throws {
        if let zone, ZoneClock(identifier: zone) == nil {
            throw CommandFailure("--tz: \(zone) is not a time zone (an IANA name such as Europe/Berlin)")
        }
    }

    var options: CSVOptions {
        let mapping = columns.flatMap { try? CSVOptions.columns($0).get() } ?? [:]
        return CSVOptions(columns: mapping, zone: zone, rawCells: rawCells)
    }
}
