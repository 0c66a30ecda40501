import Foundation

/// A one-line progress display on standard error when it is a terminal: `[3/120] path` for a batch, or a phase
/// with a count (`Work: 12000 of 20000 items written`), redrawn in place and cleared at the end. Not a terminal, or
/// `-q`/`--json`: nothing at all. Counts are redrawn at most ten times a second; a new phase and a count's last step
/// are always drawn.
final class Progress: @unchecked Sendable {
    // `@unchecked Sendable`: `done`, `lastDraw` and `drawn` are only touched under `lock`.
    private let lock = NSLock()
    private let total: Int
    private let enabled: Bool
    private var done = 0
    private var lastDraw = Date.distantPast
    private var drawn = false

    init(total: Int = 0, enabled: Bool) {
        self.total = total
        self.enabled = enabled
    }

    /// Shown only on a terminal, and not when the command was asked to be quiet or to print JSON.
    static func onTerminal(quiet: Bool) -> Progress { Progress(enabled: !quiet && isatty(STDERR_FILENO) == 1) }

    /// One more item of a batch of `total`.
    func step(_ item: String) {
        guard enabled else { return }
        lock.withLock {
            done += 1
            draw("[\(done)/\(total)] \(item)")
        }
    }

    /// A new phase ("reading big.ics"): always drawn.
    func phase(_ text: String) {
        guard enabled else { return }
        lock.withLock { draw(text) }
    }

    /// A count within a phase: drawn when a tenth of a second has passed since the last line, and at its end.
    func count(_ done: Int, of total: Int, _ what: String) {
        guard enabled else { return }
        lock.withLock {
            guard done >= total || Date().timeIntervalSince(lastDraw) >= 0.1 else { return }
            draw("\(what): \(done) of \(total)")
        }
    }

    private func draw(_ text: String) {
        FileHandle.standardError.write(Data("\r\u{1B}[K\(text)".utf8))
        lastDraw = Date()
        drawn = true
    }

    /// Clears the line, so that what the command prints next starts on a clean one.
    func finish() {
        guard enabled else { return }
        lock.withLock {
            if drawn { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            drawn = false
        }
    }
}
