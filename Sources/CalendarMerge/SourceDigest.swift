import CalendarModel

/// A digest of a file's bytes: two independent 64-bit hashes and the length, to tell a file that is byte for byte
/// the one merged last time (not meant to resist a forger: the store is the user's own).
public enum SourceDigest {
    /// The digest of these bytes: two 64-bit hashes in hex, then the length.
    public static func of(_ bytes: [UInt8]) -> String {
        var fnv = FNV1a()
        fnv.add(bytes)
        var mixed: UInt64 = 0x9E37_79B9_7F4A_7C15
        for byte in bytes {
            mixed = (mixed &+ UInt64(byte)) &* 0xBF58_476D_1CE4_E5B9
            mixed ^= mixed >> 29
        }
        return fnv.hex + FNV1a.hex(mixed) + "-" + String(bytes.count)
    }
}
