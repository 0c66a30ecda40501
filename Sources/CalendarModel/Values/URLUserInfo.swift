import Foundation

/// The user information of a URL (`https://ana:secret@host/cal.ics`): a password written there would otherwise be
/// stored with every item's merge base and printed with every message that names the URL. A URL is taken apart
/// when it is given, before anything keeps or prints it: the rest is what is kept, the user name and password are
/// that run's credentials. RFC 3986 §3.2.1 deprecates passwords in URLs for this reason.
package struct URLUserInfo: Sendable, Equatable {
    /// The URL without user information, otherwise as given.
    package var url: String
    /// The user name it held, percent-decoded.
    package var user: String?
    /// The password it held, percent-decoded.
    package var password: String?

    /// Takes `text` apart: scheme, `//`, then the authority up to the first `/`, `?` or `#`; user information is
    /// what comes before the authority's last `@`, the user name up to its first `:`.
    package init(_ text: String) {
        url = text
        guard let range = Self.userInfoRange(in: text) else { return }
        let userInfo = text[range]
        url = String(text[..<range.lowerBound]) + text[text.index(after: range.upperBound)...]
        if let colon = userInfo.firstIndex(of: ":") {
            user = Self.decoded(userInfo[..<colon])
            password = Self.decoded(userInfo[userInfo.index(after: colon)...])
        } else {
            user = Self.decoded(userInfo)
        }
    }

    /// The user name and password, when the URL held both (an empty user name counts as none).
    package var credentials: (user: String, password: String)? {
        guard let user, !user.isEmpty, let password else { return nil }
        return (user, password)
    }

    /// `text` with the password of every URL in it written as `***`, for messages that quote what a user typed.
    package static func redacting(_ text: String) -> String {
        var result = "", rest = Substring(text)
        while let scheme = rest.range(of: "://") {
            let tail = rest[scheme.upperBound...]
            let authorityEnd = tail.firstIndex { "/?#".contains($0) || $0.isWhitespace } ?? tail.endIndex
            let authority = tail[..<authorityEnd]
            guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else {
                result += rest[..<authorityEnd]
                rest = rest[authorityEnd...]
                continue
            }
            result += rest[...colon] + "***"
            rest = rest[at...]
        }
        return result + rest
    }

    /// The range of the user information of a URL with an authority (`scheme://…`, also inside a name made of
    /// one, as `feed:https://…`), without its `@`.
    private static func userInfoRange(in text: String) -> Range<String.Index>? {
        guard let scheme = text.range(of: "://"),
            let last = text[..<scheme.lowerBound].last, last.isLetter || last.isNumber
        else { return nil }
        let tail = text[scheme.upperBound...]
        let authority = tail[..<(tail.firstIndex { "/?#".contains($0) } ?? tail.endIndex)]
        guard let at = authority.lastIndex(of: "@") else { return nil }
        return authority.startIndex..<at
    }

    private static func decoded(_ text: Substring) -> String {
        String(text).removingPercentEncoding ?? String(text)
    }
}
