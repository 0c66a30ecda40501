import ArgumentParser
import CalendarModel
import Foundation

/// `icskit validate FILE…`: report every problem with its file and line.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check iCalendar or jCal files and report problems as path:line: severity: message.",
        discussion: """
            Exit status: 0 when no errors were found (warnings allowed unless --strict), 1 when there are \
            errors (or warnings with --strict), 2 on usage errors.

            Examples:
              icskit validate calendar.ics
              icskit validate --strict --json exports/*.ics
              icskit validate ~/.calendars/
              icskit validate --ignore missing-dtstamp google.ics
              icskit validate --for outlook export.ics
            """
    )

    @Argument(
        help: """
            Files to check (.ics, jCal .json, xCal .xml or .csv), or folders (every .ics file in them, \
            recursively); - reads standard input.
            """)
    var files: [String]

    @Flag(help: "Treat warnings as errors.")
    var strict = false

    @OptionGroup var target: ForAppOption

    @Flag(help: "Print one JSON object with every file's diagnostics instead of text lines.")
    var json = false

    @Option(
        name: .customLong("ignore"),
        help: ArgumentHelp(
            "Leave out diagnostics of this code (repeatable); --json shows each one's code.",
            valueName: "code"))
    var ignoredCodes: [String] = []

    @OptionGroup var zoneRules: ZonesOption

    func run() throws {
        var failed = false
        var reports: [JSONValue] = []
        var errorCount = 0, warningCount = 0
        let batch = try BatchInputs(files)
        for folder in batch.emptyFolders {
            Output.standardError("icskit: \(folder): no .ics file in this folder")
            failed = true
        }
        for path in batch.inputs.map(\.path) {
            let name = path == "-" ? "<stdin>" : path
            var diagnostics = diagnosticsOf(path, name: name)
            diagnostics.removeAll { ignoredCodes.contains($0.code) }
            let errors = diagnostics.filter { $0.severity == .error }.count
            let warnings = diagnostics.count - errors
            errorCount += errors
            warningCount += warnings
            let fileFailed = errors > 0 || (strict && warnings > 0)
            failed = failed || fileFailed
            if json {
                reports.append(
                    .object([
                        ("path", .string(name)), ("ok", .bool(!fileFailed)), ("errors", .int(errors)),
                        ("warnings", .int(warnings)), ("diagnostics", .array(diagnostics.map(\.json))),
                    ]))
            } else {
                for diagnostic in diagnostics {
                    var shown = diagnostic
                    if strict { shown.severity = .error }
                    Output.print(shown.description)
                }
            }
        }
        if json {
            Output.print(
                JSONValue.object([
                    ("ok", .bool(!failed)), ("errors", .int(errorCount)),
                    ("warnings", .int(warningCount)), ("files", .array(reports)),
                ])
                .serialized(pretty: true))
        } else {
            let files = batch.inputs.count.counted("file")
            Output.standardError("\(errorCount.counted("error")), \(warningCount.counted("warning")) in \(files)")
        }
        if failed { throw ExitCode(1) }
    }

    /// What is wrong with one file (or standard input): read streamed where it can be, whole otherwise (with
    /// `--for APP`, also the app's findings); a file that cannot be read is one error.
    private func diagnosticsOf(_ path: String, name: String) -> [Diagnostic] {
        do {
            if target.app == nil, let streamed = try Self.streamed(path) { return streamed }
            let bytes = try Output.readInput(path)
            let format = CalendarFormat(pathExtension: path) ?? CalendarFormat(sniffing: bytes)
            let read = format.read(bytes, file: name)
            guard let app = target.app else { return read.diagnostics }
            return read.diagnostics + read.calendars.flatMap { $0.findings(for: app, file: name) }
        } catch {
            return [
                Diagnostic(
                    .error, file: name, line: 0, ErrorText.line(error, subject: name, doing: "read"),
                    code: "unreadable-file")
            ]
        }
    }

    /// The diagnostics of an iCalendar file read a run of components at a time, in bounded memory (`ICS.stream`);
    /// nil for standard input and for files streaming does not take (they are read whole).
    private static func streamed(_ path: String) throws -> [Diagnostic]? {
        guard path != "-", (CalendarFormat(pathExtension: path) ?? .ics) == .ics else { return nil }
        return try ICS.stream(
            contentsOf: path, opening: { _ in }, transform: { _, _ in () }, consume: { _ in }
        )?.diagnostics
    }
}
