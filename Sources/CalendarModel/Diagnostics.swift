/// A problem found in calendar data, located by file and line, saying what was done about it.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible, Codable {
    /// How serious a diagnostic is. Errors make `validate` fail; warnings only with `--strict`.
    public enum Severity: String, Sendable, Hashable, Comparable, Codable {
        /// Something was read past or repaired; the data is usable.
        case warning
        /// Something could not be read as written; what was done about it is in the message.
        case error

        /// Warnings sort before errors.
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs == .warning && rhs == .error }
    }

    /// Error or warning.
    public var severity: Severity
    /// The file the data came from, or nil for data that did not come from a file.
    public var file: String?
    /// 1-based line of the content line (the first physical line when folded); 0 when not tied to a line.
    public var line: Int
    /// 1-based column (in characters) where a syntax error was found, for formats read character by character
    /// (jCal, xCal); nil for iCalendar's content lines.
    public var column: Int?
    /// One sentence: what is wrong and what was done about it.
    public var message: String
    /// The kind of finding, a stable name to filter on (`missing-uid`, `end-before-start`, `repair-added-dtstamp`):
    /// the message's words may change between releases, the code does not. docs/DIAGNOSTICS.md lists them all.
    public var code: String
    /// Whether it is a finding about the file's time zones (a VTIMEZONE that disagrees with tzdata, a TZID
    /// mapped or unknown): said once where the file is read, not on every listing of what a store keeps of it.
    package var isAboutZones = false

    private enum CodingKeys: String, CodingKey { case severity, file, line, column, message, code }

    /// A diagnostic at a place in a file (line 0: the file as a whole), of the kind `code` names.
    public init(_ severity: Severity, file: String?, line: Int, column: Int? = nil, _ message: String, code: String) {
        self.code = code
        self.severity = severity
        self.file = file
        self.line = line
        self.column = column
        self.message = Self.oneLine(message)
    }

    /// A message as one line: line breaks from the data it quotes (a TZID of `^n`, a value with `\r`) as `\n` and
    /// `\r`, other control characters as `\xNN`, so that no quoted text can start a line of its own (posing as
    /// `file:99: error: …`) or steer a terminal.
    static func oneLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: Self.isControl) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case _ where isControl(scalar): out += "\\x" + String(scalar.value, radix: 16, uppercase: true)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t") || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}"
            || scalar == "\u{2029}"
    }

    /// `path:line: severity: message` (`path:line:column: …` when there is a column), the format compilers
    /// use, so editors can jump to it.
    public var description: String {
        "\(file ?? "<input>"):\(line)\(column.map { ":\($0)" } ?? ""): \(severity.rawValue): \(message)"
    }
}

/// Collects diagnostics while one input is read.
struct DiagnosticLog: Sendable {
    let file: String?
    private(set) var entries: [Diagnostic] = []

    init(file: String?) { self.file = file }

    mutating func error(_ line: Int, _ message: String, code: String) {
        entries.append(Diagnostic(.error, file: file, line: line, message, code: code))
    }

    mutating func warning(_ line: Int, _ message: String, code: String) {
        entries.append(Diagnostic(.warning, file: file, line: line, message, code: code))
    }

    /// Adds what another log of the same input found (a part read on another thread).
    mutating func append(_ other: DiagnosticLog) { entries += other.entries }

    /// The entries in line order (a stable sort: what one line gave stays in the order it was found).
    var sortedByLine: [Diagnostic] { entries.sortedByLine }
}

extension [Diagnostic] {
    /// In line order (a stable sort: what one line gave stays in the order it was found).
    var sortedByLine: [Diagnostic] {
        enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }.map(\.element)
    }
}

extension Int {
    /// The number with its noun, singular for one: `1 item`, `3 items`, `1 entry` / `2 entries` (`plural` given).
    package func counted(_ noun: String, plural: String? = nil) -> String {
        "\(self) \(self == 1 ? noun : plural ?? noun + "s")"
    }
}
