import CalendarModel

/// A digest of a file's bytes: two independent 64-bit hashes and the length, to tell a file that is byte for byte
/// the one merged last time (not meant to resist a forger: the store is the user's own).
public enum SourceDigest {
    /// The digest of these bytes: two 64-bit hashes in hex, then the length. The hashes take eight bytes a step
    /// (a multiply per word rather than per byte: a 10 MB file in a few milliseconds), each over the same words
    /// with its own constants, and a large input in two halves side by side.
    public static func of(_ bytes: [UInt8]) -> String {
        let middle = bytes.count / 16 * 8
        let halves: [Lanes]
        if bytes.count < 1 << 20 {
            halves = [Lanes(bytes, 0..<bytes.count)]
        } else {
            halves = ParallelParts.run(2) { Lanes(bytes, $0 == 0 ? 0..<middle : middle..<bytes.count) }
        }
        var total = Lanes(seed: UInt64(bytes.count))
        for half in halves { total.absorb(half) }
        return FNV1a.hex(total.first) + FNV1a.hex(total.second) + "-" + String(bytes.count)
    }

    /// The two running hashes.
    struct Lanes {
        var first: UInt64 = 0x9E37_79B9_7F4A_7C15
        var second: UInt64 = 0xC2B2_AE3D_27D4_EB4F

        init(seed: UInt64) {
            first ^= seed
            second ^= seed &* 0x1656_67B1_9E37_79F9
        }

        /// The hashes of `range` of `bytes`: little-endian words, then the bytes that are left one by one.
        init(_ bytes: [UInt8], _ range: Range<Int>) {
            var index = range.lowerBound
            while index + 8 <= range.upperBound {
                var word: UInt64 = 0
                for offset in 0..<8 { word |= UInt64(bytes[index + offset]) << (8 * UInt64(offset)) }
                add(word)
                index += 8
            }
            while index < range.upperBound {
                add(UInt64(bytes[index]) | 0x100)
                index += 1
            }
        }

        @inline(__always)
        mutating func add(_ word: UInt64) {
            first = (first ^ word) &* 0xBF58_476D_1CE4_E5B9
            first ^= first >> 29
            second = (second &+ word) &* 0x94D0_49BB_1331_11EB
            second ^= second >> 31
        }

        /// Folds another part's hashes in after this one's.
        mutating func absorb(_ part: Lanes) {
            add(part.first)
            add(part.second)
        }
    }
}
