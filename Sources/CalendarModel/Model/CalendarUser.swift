import Foundation

/// An ORGANIZER or ATTENDEE: a calendar address (usually `mailto:`) with its parameters (CN, ROLE, PARTSTAT …).
///
/// ```
/// organizer = "ORGANIZER" orgparam ":" cal-address CRLF      ; RFC 5545 §3.8.4.3
/// attendee  = "ATTENDEE" attparam ":" cal-address CRLF       ; §3.8.4.1
/// ```
public struct CalendarUser: Sendable, Hashable, Codable {
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

    /// An address as people compare them: trimmed, lower-cased, without its `mailto:` (`MAILTO:Ana@X.org ` →
    /// `ana@x.org`), so that aliases in different spellings are one address.
    package static func comparable(_ address: String) -> String {
        var text = address.trimmingCharacters(in: .whitespaces).lowercased()
        if text.hasPrefix("mailto:") { text.removeFirst(7) }
        return text
    }

    /// The first value of a parameter, by upper-case name.
    public subscript(name: String) -> String? { parameters.first { $0.name == name }?.values.first }
}
