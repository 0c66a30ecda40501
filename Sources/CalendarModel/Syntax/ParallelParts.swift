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

    /// Work cut into batches of positions, derived on helper threads (`claim`, `put`) and taken in order on one
    /// thread (`take`), which derives the next batch itself rather than wait while one is late: a pipeline for work
    /// whose results must be consumed in order (the store writes an import's rows in file order).
    /// `@unchecked Sendable`: every access goes through `condition`.
    package final class Batches<Result: Sendable>: @unchecked Sendable {
        private let condition = NSCondition()
        private let items: Int
        private let batchSize: Int
        /// How many batches there are.
        package let count: Int
        private var claimed = 0
        private var taken = 0
        private var done: [Int: Result] = [:]

        package init(items: Int, batchSize: Int) {
            self.items = items
            self.batchSize = batchSize
            count = (items + batchSize - 1) / batchSize
        }

        /// The item positions of the next batch to derive; nil when every batch was claimed.
        package func claim() -> Range<Int>? {
            condition.withLock {
                guard claimed < count else { return nil }
                defer { claimed += 1 }
                return (claimed * batchSize)..<min(items, (claimed + 1) * batchSize)
            }
        }

        package func put(_ rows: Result, for batch: Range<Int>) {
            condition.withLock {
                done[batch.lowerBound / batchSize] = rows
                condition.broadcast()
            }
        }

        /// The next batch in order; nil once all were taken. While it is not ready, the caller derives the next
        /// unclaimed batch itself with `derive`, and waits only when every batch is claimed.
        package func take(deriving derive: (Range<Int>) -> Result) -> Result? {
            while true {
                condition.lock()
                guard taken < count else {
                    condition.unlock()
                    return nil
                }
                if let ready = done.removeValue(forKey: taken) {
                    taken += 1
                    condition.unlock()
                    return ready
                }
                guard claimed < count else {
                    condition.wait()
                    condition.unlock()
                    continue
                }
                let batch = (claimed * batchSize)..<min(items, (claimed + 1) * batchSize)
                claimed += 1
                condition.unlock()
                put(derive(batch), for: batch)
            }
        }
    }
}
