import Dispatch
import Foundation

/// Runs independent work items on up to `jobs` threads and returns their results in input order.
enum ParallelMap {
    static func run<Result: Sendable>(
        _ count: Int, jobs: Int,
        _ work: @escaping @Sendable (Int) -> Result
    ) -> [Result] {
        if jobs <= 1 || count <= 1 { return (0..<count).map(work) }
        let box = ResultBox<Result>(count: count)
        DispatchQueue.concurrentPerform(iterations: min(jobs, count)) { _ in
            while let index = box.nextIndex() { box.store(work(index), at: index) }
        }
        return box.results()
    }
}

/// Shared state of one parallel run. `@unchecked Sendable`: every access goes through `lock`.
private final class ResultBox<Result: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Result?]
    private var next = 0

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func nextIndex() -> Int? {
        lock.withLock {
            guard next < slots.count else { return nil }
            defer { next += 1 }
            return next
        }
    }

    func store(_ result: Result, at index: Int) { lock.withLock { slots[index] = result } }

    func results() -> [Result] { lock.withLock { slots.map { $0! } } }
}

/// A one-line progress display on a terminal: `[3/120] path`, redrawn in place.
final class Progress: @unchecked Sendable {
    // `@unchecked Sendable`: `done` is only touched under `lock`.
    private let lock = NSLock()
    private let total: Int
    private let enabled: Bool
    private var done = 0

    init(total: Int, enabled: Bool) {
        self.total = total
        self.enabled = enabled
    }

    func step(_ item: String) {
        guard enabled else { return }
        lock.withLock {
            done += 1
            FileHandle.standardError.write(Data("\r\u{1B}[K[\(done)/\(total)] \(item)".utf8))
        }
    }

    func finish() {
        if enabled { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
