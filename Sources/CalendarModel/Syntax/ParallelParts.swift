import Foundation

/// Runs `count` independent pieces of work on every core and returns their results in order.
package enum ParallelParts {
    /// `0..<count` in one range per core when there are at least `minimum` (else in one), for `run`.
    package static func ranges(_ count: Int, from minimum: Int) -> [Range<Int>] {
        let parts = count < minimum ? 1 : max(1, ProcessInfo.processInfo.activeProcessorCount)
        let size = max(1, (count + parts - 1) / parts)
        return (0..<parts).map { min(count, $0 * size)..<min(count, ($0 + 1) * size) }
    }

    package static func run<Result: Sendable>(_ count: Int, _ work: @escaping @Sendable (Int) -> Result) -> [Result] {
        // One piece (a CalDAV resource's one item) runs here: no slots, no lock, no dispatch.
        if count <= 1 { return (0..<count).map(work) }
        let slots = Slots<Result>(count: count)
        DispatchQueue.concurrentPerform(iterations: count) { index in slots.store(work(index), at: index) }
        return slots.results()
    }

    /// As `run`, on at most `jobs` threads, each taking the next piece when it is done with one (pieces of very
    /// different cost, such as whole files, spread evenly).
    package static func run<Result: Sendable>(
        _ count: Int, jobs: Int, _ work: @escaping @Sendable (Int) -> Result
    ) -> [Result] {
        if jobs <= 1 || count <= 1 { return (0..<count).map(work) }
        let slots = Slots<Result>(count: count)
        DispatchQueue.concurrentPerform(iterations: min(jobs, count)) { _ in
            while let index = slots.nextIndex() { slots.store(work(index), at: index) }
        }
        return slots.results()
    }

    /// The results of one run, and the next piece to take. `@unchecked Sendable`: every access goes through `lock`.
    private final class Slots<Result: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [Result?]
        private var next = 0
        init(count: Int) { values = Array(repeating: nil, count: count) }
        func store(_ value: Result, at index: Int) { lock.withLock { values[index] = value } }
        func results() -> [Result] { lock.withLock { values.map { $0! } } }

        func nextIndex() -> Int? {
            lock.withLock {
                guard next < values.count else { return nil }
                defer { next += 1 }
                return next
            }
        }
    }
}
