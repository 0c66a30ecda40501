/// An enumerated property value (STATUS, CLASS, TRANSP, ACTION) that also keeps values it does not know.
public protocol TokenValue: RawRepresentable, Sendable, Hashable where RawValue == String {
    init(rawValue: String)
}

/// STATUS of an event (TENTATIVE, CONFIRMED, CANCELLED), todo (NEEDS-ACTION, COMPLETED, IN-PROCESS, CANCELLED)
/// or journal (DRAFT, FINAL, CANCELLED).
public struct Status: TokenValue, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue.uppercased() }
    public var description: String { rawValue }

    public static let tentative = Status(rawValue: "TENTATIVE")
    public static let confirmed = Status(rawValue: "CONFIRMED")
    public static let cancelled = Status(rawValue: "CANCELLED")
    public static let needsAction = Status(rawValue: "NEEDS-ACTION")
    public static let completed = Status(rawValue: "COMPLETED")
    public static let inProcess = Status(rawValue: "IN-PROCESS")
    public static let draft = Status(rawValue: "DRAFT")
    public static let final = Status(rawValue: "FINAL")
}

/// CLASS: PUBLIC, PRIVATE, CONFIDENTIAL or another token.
public struct Classification: TokenValue {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue.uppercased() }

    public static let `public` = Classification(rawValue: "PUBLIC")
    public static let `private` = Classification(rawValue: "PRIVATE")
    public static let confidential = Classification(rawValue: "CONFIDENTIAL")
}

/// TRANSP: whether an event blocks time (OPAQUE) or not (TRANSPARENT).
public struct Transparency: TokenValue {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue.uppercased() }

    public static let opaque = Transparency(rawValue: "OPAQUE")
    public static let transparent = Transparency(rawValue: "TRANSPARENT")
}

/// ACTION of an alarm: AUDIO, DISPLAY, EMAIL or another token.
public struct AlarmAction: TokenValue {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue.uppercased() }

    public static let audio = AlarmAction(rawValue: "AUDIO")
    public static let display = AlarmAction(rawValue: "DISPLAY")
    public static let email = AlarmAction(rawValue: "EMAIL")
}
