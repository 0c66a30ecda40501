import Foundation

/// A small deterministic generator (SplitMix64) for the random tests: a printed seed replays a run exactly.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    var state: UInt64

    /// A generator that starts from `seed`.
    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The seed a random test runs with: `variable` from the environment when set (to replay a run), else a fresh
    /// one; the test prints it.
    public static func seed(from variable: String) -> UInt64 {
        ProcessInfo.processInfo.environment[variable].flatMap(UInt64.init) ?? UInt64.random(in: 1...1_000_000)
    }

    /// A property test's start: its seed (`seedVariable`, else fresh) and how many cases it runs (`countVariable`,
    /// else `defaultCount`), printed so that a failure can be replayed.
    public static func start(
        _ test: String, seedVariable: String, countVariable: String, defaultCount: Int, unit: String
    ) -> (generator: SeededGenerator, seed: UInt64, count: Int) {
        let seed = seed(from: seedVariable)
        let count = ProcessInfo.processInfo.environment[countVariable].flatMap(Int.init) ?? defaultCount
        print("\(test): seed \(seed) (\(seedVariable) replays it), \(count) \(unit)")
        return (SeededGenerator(seed: seed), seed, count)
    }
}
