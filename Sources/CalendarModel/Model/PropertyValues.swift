/// An ORGANIZER or ATTENDEE: a calendar address (usually `mailto:`) with its parameters (CN, ROLE, PARTSTAT …).
public struct CalendarUser: Sendable, Hashable {
    /// The calendar address, usually `mailto:…`.
    public var address: String
    /// Every parameter in the order read, unknown ones included.
    public var parameters: [Parameter]

    /// A user by address, with a display name (CN) if given.
    public init(address: String, commonName: String? = nil) {
        self.address = address
        self.parameters = commonName.map { [Parameter("CN", $0)] } ?? []
    }

    init(address: String, parameters: [Parameter]) {
        self.address = address
        self.parameters = parameters
    }

    /// CN: the display name.
    public var commonName: String? { self["CN"] }
    /// ROLE (CHAIR, REQ-PARTICIPANT, OPT-PARTICIPANT, NON-PARTICIPANT).
    public var role: String? { self["ROLE"] }
    /// PARTSTAT (NEEDS-ACTION, ACCEPTED, DECLINED, TENTATIVE …).
    public var participationStatus: String? { self["PARTSTAT"] }
    /// RSVP=TRUE: a reply is expected.
    public var rsvp: Bool { self["RSVP"]?.uppercased() == "TRUE" }
    /// The address without its `mailto:` scheme.
    public var email: String? {
        address.lowercased().hasPrefix("mailto:") ? String(address.dropFirst(7)) : nil
    }

    /// The first value of a parameter, by upper-case name.
    public subscript(name: String) -> String? { parameters.first { $0.name == name }?.values.first }
}

/// A category name, with the colour an application gives it. iCalendar carries no per-category colour, so the
/// colour comes from the store, not from the file.
public struct Category: Sendable, Hashable, ExpressibleByStringLiteral {
    /// The category's name.
    public var name: String
    /// Its colour (`#RRGGBB`) where one is known.
    public var color: String?

    /// A category by name.
    public init(_ name: String, color: String? = nil) {
        self.name = name
        self.color = color
    }

    /// A category by name, written as a string literal.
    public init(stringLiteral value: String) { self.init(value) }
}

/// RELATED-TO: the UID of another component and how it relates (PARENT by default, CHILD, SIBLING …).
public struct Relation: Sendable, Hashable {
    /// The related item's UID.
    public var uid: String
    /// RELTYPE and any other parameters, as read.
    public var parameters: [Parameter]

    /// A relation to a UID, of a RELTYPE (PARENT when none is given).
    public init(uid: String, type: String? = nil) {
        self.uid = uid
        self.parameters = type.map { [Parameter("RELTYPE", $0.uppercased())] } ?? []
    }

    init(uid: String, parameters: [Parameter]) {
        self.uid = uid
        self.parameters = parameters
    }

    /// RELTYPE, PARENT when absent (RFC 5545 §3.2.15).
    public var type: String { parameters.first { $0.name == "RELTYPE" }?.value.uppercased() ?? "PARENT" }
}

/// RECURRENCE-ID: which instance of a series an override replaces, and whether it also replaces the later ones.
public struct RecurrenceID: Sendable, Hashable {
    /// The original start of the instance this override replaces.
    public var date: CalendarDate
    /// RANGE=THISANDFUTURE.
    public var thisAndFuture: Bool

    /// A recurrence ID, for one instance or (RANGE=THISANDFUTURE) it and those after it.
    public init(_ date: CalendarDate, thisAndFuture: Bool = false) {
        self.date = date
        self.thisAndFuture = thisAndFuture
    }
}

/// An RDATE entry: a date, a date-time, or a period.
public enum RecurrenceDate: Sendable, Hashable {
    /// An instance starting at this date or date-time.
    case date(CalendarDate)
    /// An instance with its own start and end (VALUE=PERIOD).
    case period(Period)

    /// When this RDATE instance starts.
    public var start: CalendarDate {
        switch self {
        case .date(let date): return date
        case .period(let period): return period.start
        }
    }
}

/// When an alarm goes off: relative to the start (or end) of its component, or at a fixed UTC time.
public enum Trigger: Sendable, Hashable {
    /// This long before (negative) or after the start, or the end when `relatedToEnd` (RELATED=END).
    case relative(Duration, relatedToEnd: Bool)
    /// At this UTC time (VALUE=DATE-TIME).
    case absolute(CalendarDate)
}
