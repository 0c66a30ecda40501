import CalendarModel

/// A digest of a file's bytes: two independent 64-bit hashes and the length, to tell a file that is byte for byte
/// the one merged last time (not meant to resist a forger: the store is the user's own).
public enum SourceDigest {
    /// The digest of these bytes: two 64-bit hashes in hex, then the length. Each hash is one chain of
    /// multiplications over every byte; a large input has the two computed side by side.
    public static func of(_ bytes: [UInt8]) -> String {
        let hashes = ParallelParts.run(bytes.count < 1 << 20 ? 0 : 2) { index in
            index == 0 ? fnv(bytes) : mixed(bytes)
        }
        let (first, second) = hashes.isEmpty ? (fnv(bytes), mixed(bytes)) : (hashes[0], hashes[1])
        return FNV1a.hex(first) + FNV1a.hex(second) + "-" + String(bytes.count)
    }

    private static func fnv(_ bytes: [UInt8]) -> UInt64 {
        var fnv = FNV1a()
        fnv.add(bytes)
        return fnv.value
    }

    private static func mixed(_ bytes: [UInt8]) -> UInt64 {
        var mixed: UInt64 = 0x9E37_79B9_7F4A_7C15
        for byte in bytes {
            mixed = (mixed &+ UInt64(byte)) &* 0xBF58_476D_1CE4_E5B9
            mixed ^= mixed >> 29
        }
        return mixed
    }
}
