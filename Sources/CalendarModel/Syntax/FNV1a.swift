/// The 64-bit FNV-1a hash, for fingerprints and digests that must stay the same between runs and versions (Swift's
/// `Hasher` is seeded per process). Not meant to resist a forger.
package struct FNV1a {
    package private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

    package init() {}

    @inline(__always)
    package mutating func add(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }

    package mutating func add(_ text: String) {
        // A native string's bytes are contiguous: hashed from its buffer, not through the UTF-8 view's index.
        let hashed: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in
            var value = self.value
            for byte in bytes { value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            self.value = value
        }
        if hashed == nil { for byte in text.utf8 { add(byte) } }
    }

    package mutating func add(_ bytes: [UInt8]) {
        for byte in bytes { add(byte) }
    }

    /// The value as 16 lowercase hex digits.
    package var hex: String { Self.hex(value) }

    /// A 64-bit value as 16 lowercase hex digits.
    package static func hex(_ value: UInt64) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }
}
