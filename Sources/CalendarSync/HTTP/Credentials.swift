import Foundation

/// Where a password for HTTP authentication comes from: the environment (`ICSKIT_PASSWORD`), then `~/.netrc` (the
/// `machine` entry for the host, with the given login or any); the CLI asks on a terminal when neither has one.
/// Passwords are never printed and never stored.
public enum Credentials {
    /// The login and password for a host, when the environment or the netrc file has them.
    public static func lookUp(
        host: String, user: String?, environment: [String: String] = ProcessInfo.processInfo.environment,
        netrcPath: String? = nil
    ) -> (user: String, password: String)? {
        if let user, let password = environment["ICSKIT_PASSWORD"] { return (user, password) }
        let path =
            netrcPath ?? environment["NETRC"]
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.netrc"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        for entry in netrcEntries(text) where entry.machine == nil || entry.machine == host.lowercased() {
            guard let login = entry.login, let password = entry.password else { continue }
            if user == nil || user == login { return (login, password) }
        }
        return nil
    }

    /// The entries of a netrc file (`machine HOST login USER password SECRET`, or `default …`), in file order
    /// with `default` last; `macdef` bodies are skipped.
    static func netrcEntries(_ text: String) -> [(machine: String?, login: String?, password: String?)] {
        var entries: [(machine: String?, login: String?, password: String?)] = []
        var fallback: (machine: String?, login: String?, password: String?)?
        var current: (machine: String?, login: String?, password: String?)?
        var isDefault = false
        func close() {
            guard let entry = current else { return }
            if isDefault { fallback = entry } else { entries.append(entry) }
            current = nil
        }
        var tokens = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).map(
            String.init)[...]
        while let token = tokens.popFirst() {
            switch token {
            case "machine":
                close()
                isDefault = false
                current = (tokens.popFirst()?.lowercased(), nil, nil)
            case "default":
                close()
                isDefault = true
                current = (nil, nil, nil)
            case "login": current?.login = tokens.popFirst()
            case "password": current?.password = tokens.popFirst()
            case "account": _ = tokens.popFirst()
            case "macdef":
                // A macro's body holds no credentials: what follows is ignored up to the next machine or default.
                close()
                _ = tokens.popFirst()
            default: break
            }
        }
        close()
        return entries + (fallback.map { [$0] } ?? [])
    }
}
