import Foundation

/// Answers that depend on nothing but their key, remembered across reads and threads: a CalDAV download reads
/// thousands of resources that each repeat the same VTIMEZONE with the same RRULEs and TZIDs, and asks the same
/// question of each copy. Bounded: emptied when it holds `limit` keys (an input of distinct keys then costs what it
/// would cost without it). `@unchecked Sendable`: every access goes through `lock`.
final class Remembered<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Key: Value] = [:]
    private let limit: Int

    init(limit: Int) { self.limit = limit }

    /// The value remembered for `key`, else `make()`'s, remembered when `keep` says so.
    func value(for key: Key, keep: (Value) -> Bool = { _ in true }, _ make: () -> Value) -> Value {
        if let known = lock.withLock({ values[key] }) { return known }
        let value = make()
        guard keep(value) else { return value }
        lock.withLock {
            if values.count >= limit { values.removeAll(keepingCapacity: true) }
            values[key] = value
        }
        return value
    }
}
