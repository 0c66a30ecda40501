/// A problem found in calendar data, located by file and line, saying what was done about it.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How serious a diagnostic is. Errors make `validate` fail; warnings only with `--strict`.
    public enum Severity: String, Sendable, Hashable, Comparable {
        case warning
        case error

        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs == .warning && rhs == .error }
    }

    public var severity: Severity
    /// The file the data came from, or nil for data that did not come from a file.
    public var file: String?
    /// 1-based line of the content line (the first physical line when folded); 0 when not tied to a line.
    public var line: Int
    /// One sentence: what is wrong and what was done about it.
    public var message: String

    public init(_ severity: Severity, file: String?, line: Int, _ message: String) {
        self.severity = severity
        self.file = file
        self.line = line
        self.message = message
    }

    /// `path:line: severity: message`, the format compilers use, so editors can jump to it.
    public var description: String {
        "\(file ?? "<input>"):\(line): \(severity.rawValue): \(message)"
    }
}

/// Collects diagnostics while one input is read.
struct DiagnosticLog: Sendable {
    let file: String?
    private(set) var entries: [Diagnostic] = []

    init(file: String?) { self.file = file }

    mutating func error(_ line: Int, _ message: String) {
        entries.append(Diagnostic(.error, file: file, line: line, message))
    }

    mutating func warning(_ line: Int, _ message: String) {
        entries.append(Diagnostic(.warning, file: file, line: line, message))
    }
}
