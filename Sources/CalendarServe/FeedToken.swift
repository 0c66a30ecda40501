import Crypto
import Foundation

/// The secret in a shared feed's address, and what is kept of it: 256 random bits as URL-safe base64 (43
/// characters), of which the store keeps only the SHA-256; and the keyed hash a feed gives UIDs below the full level.
package enum FeedToken {
    /// A new token: 32 bytes from the system's secure generator, URL-safe base64 without padding.
    package static func make() -> String { base64URL(randomBytes(32)) }

    /// A new key for a share's UID hash (32 random bytes, hex).
    package static func makeKey() -> String { randomBytes(32).map { String(format: "%02x", $0) }.joined() }

    /// The SHA-256 of a token, lower-case hex: what the store keeps.
    package static func hash(_ token: String) -> String { hex(Array(SHA256.hash(data: Array(token.utf8)))) }

    /// Whether `token` has a token's shape (43 URL-safe base64 characters): anything else is no token at all.
    package static func isWellFormed(_ token: Substring) -> Bool {
        token.utf8.count == 43
            && token.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || byte == 0x2D || byte == 0x5F
            }
    }

    /// Whether two hashes are equal, in a time that does not depend on where they differ.
    package static func equal(_ a: String, _ b: String) -> Bool {
        let (x, y) = (Array(a.utf8), Array(b.utf8))
        var difference = UInt8(x.count == y.count ? 0 : 1)
        for index in 0..<max(x.count, y.count) {
            difference |= (index < x.count ? x[index] : 0) ^ (index < y.count ? y[index] : 0)
        }
        return difference == 0
    }

    /// The keyed hash of a UID (HMAC-SHA256 under the share's key, 128 bits as hex, `@shared`): stable for a share,
    /// so an update stays an update, and telling nothing of the UID.
    package static func uidHasher(key: String) -> @Sendable (String) -> String {
        let keyBytes = SymmetricKey(data: bytes(hex: key))
        return { uid in
            let code = HMAC<SHA256>.authenticationCode(for: Array(uid.utf8), using: keyBytes)
            return hex(Array(code).prefix(16)) + "@shared"
        }
    }

    private static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    private static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    static func hex<S: Sequence>(_ bytes: S) -> String where S.Element == UInt8 {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    private static func bytes(hex: String) -> [UInt8] {
        var out: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex, let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex) {
            if let byte = UInt8(hex[index..<next], radix: 16) { out.append(byte) }
            index = next
        }
        return out
    }
}
