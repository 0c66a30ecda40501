import Foundation

/// HTTP Digest authentication (RFC 7616 with MD5, the algorithm Apache's mod_auth_digest and SabreDAV servers such as
/// Baïkal use): the answer to a server's `WWW-Authenticate: Digest` challenge, so the password itself never crosses
/// the wire. One challenge serves every later request to its origin (the nonce count goes up), until the server says
/// the nonce is stale.
struct DigestChallenge: Sendable {
    var realm: String
    var nonce: String
    var opaque: String?
    /// Whether the server offers `qop=auth` (else the RFC 2069 answer without cnonce and nonce count).
    var offersAuth: Bool

    /// The Digest challenge among a `WWW-Authenticate` header's, if the server offers one this client can answer.
    init?(header: String) {
        guard let start = header.range(of: "digest ", options: [.caseInsensitive]) else { return nil }
        let parameters = Self.parameters(String(header[start.upperBound...]))
        guard let realm = parameters["realm"], let nonce = parameters["nonce"] else { return nil }
        let algorithm = parameters["algorithm"]?.uppercased() ?? "MD5"
        guard algorithm == "MD5" else { return nil }
        self.realm = realm
        self.nonce = nonce
        opaque = parameters["opaque"]
        offersAuth =
            parameters["qop"].map {
                $0.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == "auth" }
            }
            ?? false
    }

    /// `name=value` and `name="quoted value"` pairs, names lower-cased; stops at a second scheme (`, Basic …`).
    static func parameters(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        var rest = Substring(text)
        while true {
            rest = rest.drop { $0 == " " || $0 == "," || $0 == "\t" }
            guard let equals = rest.firstIndex(of: "=") else { break }
            let name = rest[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            guard !name.contains(" ") else { break }  // another scheme's token
            rest = rest[rest.index(after: equals)...]
            var value = ""
            if rest.first == "\"" {
                rest = rest.dropFirst()
                var escaped = false
                while let character = rest.first {
                    rest = rest.dropFirst()
                    if escaped {
                        value.append(character)
                        escaped = false
                    } else if character == "\\" {
                        escaped = true
                    } else if character == "\"" {
                        break
                    } else {
                        value.append(character)
                    }
                }
            } else {
                let end = rest.firstIndex(of: ",") ?? rest.endIndex
                value = rest[..<end].trimmingCharacters(in: .whitespaces)
                rest = rest[end...]
            }
            result[name] = value
        }
        return result
    }

    /// The `Authorization` header for a request, the `count`th answered with this challenge.
    func authorization(
        user: String, password: String, method: String, target: String, count: Int, clientNonce: String
    ) -> String {
        let first = MD5.hex("\(user):\(realm):\(password)")
        let second = MD5.hex("\(method):\(target)")
        let counted = String(format: "%08x", count)
        let response =
            offersAuth
            ? MD5.hex("\(first):\(nonce):\(counted):\(clientNonce):auth:\(second)")
            : MD5.hex("\(first):\(nonce):\(second)")
        func quoted(_ text: String) -> String {
            "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        var header =
            "Digest username=\(quoted(user)), realm=\(quoted(realm)), nonce=\(quoted(nonce)), uri=\(quoted(target)), "
            + "algorithm=MD5, response=\"\(response)\""
        if offersAuth { header += ", qop=auth, nc=\(counted), cnonce=\"\(clientNonce)\"" }
        if let opaque { header += ", opaque=\(quoted(opaque))" }
        return header
    }
}

/// MD5 (RFC 1321), for Digest authentication only: what the protocol asks for, not a protection of its own.
enum MD5 {
    static func hex(_ text: String) -> String {
        digest(Array(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    private static let shifts: [UInt32] = [
        7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14,
        20,
        4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10,
        15,
        21,
    ]
    /// floor(abs(sin(i + 1)) × 2^32)
    private static let constants: [UInt32] = (0..<64).map {
        UInt32(truncatingIfNeeded: Int64(abs(sin(Double($0 + 1))) * 4_294_967_296))
    }

    static func digest(_ message: [UInt8]) -> [UInt8] {
        var bytes = message
        let bitLength = UInt64(message.count) &* 8
        bytes.append(0x80)
        while bytes.count % 64 != 56 { bytes.append(0) }
        for shift in stride(from: 0, to: 64, by: 8) {
            bytes.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        var state: (UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476)
        for chunk in stride(from: 0, to: bytes.count, by: 64) {
            var words = [UInt32](repeating: 0, count: 16)
            for index in 0..<16 {
                let at = chunk + index * 4
                words[index] =
                    UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3])
                    << 24
            }
            var (a, b, c, d) = state
            for round in 0..<64 {
                var f: UInt32
                let g: Int
                switch round {
                case 0..<16: (f, g) = ((b & c) | (~b & d), round)
                case 16..<32: (f, g) = ((d & b) | (~d & c), (5 * round + 1) % 16)
                case 32..<48: (f, g) = (b ^ c ^ d, (3 * round + 5) % 16)
                default: (f, g) = (c ^ (b | ~d), (7 * round) % 16)
                }
                f = f &+ a &+ constants[round] &+ words[g]
                (a, d, c) = (d, c, b)
                b = b &+ (f << shifts[round] | f >> (32 - shifts[round]))
            }
            state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d)
        }
        return [state.0, state.1, state.2, state.3].flatMap { word in
            (0..<4).map { UInt8(truncatingIfNeeded: word >> (8 * UInt32($0))) }
        }
    }
}
