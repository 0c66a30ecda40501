import Foundation

/// Where a redirect may lead, decided from the two URLs alone before any connection to the next one opens:
///
/// - only to `http` or `https`, and never from `https` down to `http`;
/// - never to a link-local address (169.254.0.0/16, the cloud metadata range; fe80::/10);
/// - from a public address, never to loopback (127.0.0.0/8, ::1, `localhost`), private (10/8, 172.16/12,
///   192.168/16, 100.64/10, fc00::/7) or unspecified ones; a request that starts on loopback or a private address
///   (a local server, a test) may go on to others of those.
///
/// Hosts are judged by what they name literally, in any form a resolver reads as an address (`2852039166`,
/// `0xa9.0xfe.0xa9.0xfe`, `[::ffff:169.254.169.254]`), IPv6 addresses that carry an IPv4 one (NAT64, 6to4,
/// IPv4-translated) as the address they carry; a host name other than `localhost` counts as public (what
/// it resolves to is not looked up here: SECURITY.md).
package enum RedirectPolicy {
    /// The kinds of address a host names.
    package enum Reach: String, Sendable {
        case loopback, privateNetwork = "private", linkLocal = "link-local", unspecified, `public`
    }

    /// Why a redirect from a request that started at `start` to `next` is refused; nil when it may be followed.
    /// `current` is the URL that answered with the redirect.
    package static func refusal(start: URL, current: URL, next: URL) -> String? {
        let scheme = next.scheme?.lowercased() ?? ""
        guard scheme == "http" || scheme == "https" else {
            return "a redirect to \(next.absoluteString), which is not http(s), refused"
        }
        if current.scheme?.lowercased() == "https", scheme == "http" {
            return "a redirect from https to plain http (\(next.absoluteString)) refused"
        }
        let to = reach(next.host ?? "")
        if to == .linkLocal {
            return "a redirect to the link-local address of \(next.absoluteString) refused"
        }
        if reach(start.host ?? "") == .public, to != .public {
            return "a redirect from \(start.host ?? "") to the \(to.rawValue) address of \(next.absoluteString) refused"
        }
        return nil
    }

    /// What a host names: an IPv4 or IPv6 address in any form a resolver reads, `localhost`, or a public name.
    package static func reach(_ host: String) -> Reach {
        var name = host.lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if name.hasSuffix(".") { name.removeLast() }
        if name == "localhost" || name.hasSuffix(".localhost") { return .loopback }
        if let v4 = ipv4(name) { return reach(v4) }
        if let v6 = ipv6(name) { return reach(v6) }
        return .public
    }

    static func reach(_ address: UInt32) -> Reach {
        let (a, b) = (address >> 24, (address >> 16) & 0xFF)
        switch true {
        case a == 127: return .loopback
        case a == 0: return .unspecified
        case a == 169 && b == 254: return .linkLocal
        case a == 10, a == 172 && (16...31).contains(b), a == 192 && b == 168, a == 100 && (64...127).contains(b):
            return .privateNetwork
        default: return .public
        }
    }

    static func reach(_ address: [UInt16]) -> Reach {
        if address.allSatisfy({ $0 == 0 }) { return .unspecified }
        if address.dropLast().allSatisfy({ $0 == 0 }), address.last == 1 { return .loopback }
        let last = UInt32(address[6]) << 16 | UInt32(address[7])
        // An IPv4 address mapped (::ffff:a.b.c.d), compatible (::a.b.c.d) or translated (::ffff:0:a.b.c.d, RFC 2765):
        // judged as that address.
        if address[0..<5].allSatisfy({ $0 == 0 }), address[5] == 0xFFFF || address[5] == 0 { return reach(last) }
        if address[0..<4].allSatisfy({ $0 == 0 }), address[4] == 0xFFFF, address[5] == 0 { return reach(last) }
        // NAT64 (64:ff9b::/96, RFC 6052; 64:ff9b:1::/48, RFC 8215) and 6to4 (2002::/16, RFC 3056) carry an IPv4
        // address a gateway reaches for them: judged as that one when it is not public.
        var embedded: UInt32?
        if address[0] == 0x64, address[1] == 0xFF9B, address[2..<6].allSatisfy({ $0 == 0 }) || address[2] == 1 {
            embedded = last
        } else if address[0] == 0x2002 {
            embedded = UInt32(address[1]) << 16 | UInt32(address[2])
        }
        if let embedded, reach(embedded) != .public { return reach(embedded) }
        if address[0] & 0xFFC0 == 0xFE80 { return .linkLocal }
        if address[0] & 0xFE00 == 0xFC00 { return .privateNetwork }
        return .public
    }

    /// IPv4 as `inet_aton` reads it: one to four parts, each decimal, octal (`0…`) or hexadecimal (`0x…`), the last
    /// filling the bytes left.
    static func ipv4(_ text: String) -> UInt32? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...4).contains(parts.count) else { return nil }
        var values: [UInt64] = []
        for part in parts {
            let lower = part.lowercased()
            let value: UInt64?
            if lower.hasPrefix("0x") {
                value = lower.count > 2 ? UInt64(lower.dropFirst(2), radix: 16) : 0
            } else if lower.hasPrefix("0"), lower.count > 1 {
                value = UInt64(lower.dropFirst(), radix: 8)
            } else {
                value = lower.isEmpty ? nil : UInt64(lower, radix: 10)
            }
            guard let value, value <= UInt64(UInt32.max) else { return nil }
            values.append(value)
        }
        var address: UInt64 = 0
        for (index, value) in values.dropLast().enumerated() {
            guard value <= 0xFF else { return nil }
            address |= value << (8 * (3 - UInt64(index)))
        }
        let last = values[values.count - 1]
        guard last < (UInt64(1) << (8 * (5 - UInt64(values.count)))) else { return nil }
        return UInt32(address | last)
    }

    /// IPv6 as eight 16-bit groups (`::` compression, a trailing IPv4 part, a `%zone`); nil when it is not one.
    static func ipv6(_ text: String) -> [UInt16]? {
        var text = Substring(text)
        if let zone = text.firstIndex(of: "%") { text = text[..<zone] }
        guard text.contains(":") else { return nil }
        func groups(_ part: Substring) -> [UInt16]? {
            if part.isEmpty { return [] }
            var out: [UInt16] = []
            let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            for (index, piece) in pieces.enumerated() {
                if index == pieces.count - 1, piece.contains("."), let v4 = ipv4(String(piece)),
                    piece.split(separator: ".").count == 4
                {
                    out += [UInt16(v4 >> 16), UInt16(v4 & 0xFFFF)]
                } else {
                    guard (1...4).contains(piece.count), let value = UInt16(piece, radix: 16) else { return nil }
                    out.append(value)
                }
            }
            return out
        }
        let halves = text.components(separatedBy: "::")
        guard halves.count <= 2, let head = groups(Substring(halves[0])) else { return nil }
        if halves.count == 1 { return head.count == 8 ? head : nil }
        guard let tail = groups(Substring(halves[1])), head.count + tail.count < 8 else { return nil }
        return head + Array(repeating: 0, count: 8 - head.count - tail.count) + tail
    }
}
