/// An enumerated property value (STATUS, CLASS, TRANSP, ACTION) that also keeps values it does not know. Codable
/// as its token, one JSON string.
public protocol TokenValue: RawRepresentable, Sendable, Hashable, Codable where RawValue == String {
    /// Any token, known or not: reading one never fails.
    init(rawValue: String)
}

/// STATUS of an event (TENTATIVE, CONFIRMED, CANCELLED), todo (NEEDS-ACTION, COMPLETED, IN-PROCESS, CANCELLED)
/// or journal (DRAFT, FINAL, CANCELLED).
public struct Status: TokenValue, CustomStringConvertible {
    /// The token as written, upper-case.
    public var rawValue: String
    /// Any token, upper-cased (IANA and X- values included).
    public init(rawValue: String) { self.rawValue = rawValue.uppercased() }
    /// The token.
    public var description: String { rawValue }

    /// Events: not yet confirmed.
    public static let tentative = Status(rawValue: "TENTATIVE")
    /// Events: confirmed.
    public static let confirmed = Status(rawValue: "CONFIRMED")
    /// Events, todos, journals: cancelled.
    public static let cancelled = Status(rawValue: "CANCELLED")
    /// Todos: still to do.
    public static let needsAction = Status(rawValue: "NEEDS-ACTION")
    /// Todos: done.
    public static let completed = Status(rawValue: "COMPLETED")
    /// Todos: under way.
    public static let inProcess = Status(rawValue: "IN-PROCESS")
    /// Journals: a draft.
    public static let draft = Status(rawValue: "DRAFT")
    /// Journals: final.
    public static let final = Status(rawValue: "FINAL")
}

/// CLASS: PUBLIC, PRIVATE, CONFIDENTIAL or another token.
public struct Classification: TokenValue {
    /// The token as written, upper-case.
    public var rawValue: String
    /// Any token, upper-cased.
    public init(rawValue: String) { self.rawValue = rawValue.uppercased() }

    /// Visible to everyone (the default).
    public static let `public` = Classification(rawValue: "PUBLIC")
    /// Visible to the owner only.
    public static let `private` = Classification(rawValue: "PRIVATE")
    /// Shown as busy without details.
    public static let confidential = Classification(rawValue: "CONFIDENTIAL")
}

/// TRANSP: whether an event blocks time (OPAQUE) or not (TRANSPARENT).
public struct Transparency: TokenValue {
    /// The token as written, upper-case.
    public var rawValue: String
    /// Any token, upper-cased.
    public init(rawValue: String) { self.rawValue = rawValue.uppercased() }

    /// Blocks time (busy).
    public static let opaque = Transparency(rawValue: "OPAQUE")
    /// Does not block time (free).
    public static let transparent = Transparency(rawValue: "TRANSPARENT")
}

/// ACTION of an alarm: AUDIO, DISPLAY, EMAIL or another token.
public struct AlarmAction: TokenValue {
    /// The token as written, upper-case.
    public var rawValue: String
    /// Any token, upper-cased.
    public init(rawValue: String) { self.rawValue = rawValue.uppercased() }

    /// Plays a sound.
    public static let audio = AlarmAction(rawValue: "AUDIO")
    /// Shows a message.
    public static let display = AlarmAction(rawValue: "DISPLAY")
    /// Sends an email.
    public static let email = AlarmAction(rawValue: "EMAIL")
}
