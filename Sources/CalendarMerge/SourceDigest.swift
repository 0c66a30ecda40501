/// A digest of a file's bytes: two independent 64-bit hashes and the length, to tell a file that is byte for byte
/// the one merged last time (not meant to resist a forger: the store is the user's own).
public enum SourceDigest {
    public static func of(_ bytes: [UInt8]) -> String {
        var fnv: UInt64 = 0xCBF2_9CE4_8422_2325
        var mixed: UInt64 = 0x9E37_79B9_7F4A_7C15
        for byte in bytes {
            fnv = (fnv ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            mixed = (mixed &+ UInt64(byte)) &* 0xBF58_476D_1CE4_E5B9
            mixed ^= mixed >> 29
        }
        func hex(_ value: UInt64) -> String {
            let text = String(value, radix: 16)
            return String(repeating: "0", count: 16 - text.count) + text
        }
        return hex(fnv) + hex(mixed) + "-" + String(bytes.count)
    }
}
