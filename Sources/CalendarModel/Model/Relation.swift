/// RELATED-TO: the UID of another component and how it relates (PARENT by default, CHILD, SIBLING …).
///
/// ```
/// related = "RELATED-TO" relparam ":" text CRLF      ; RFC 5545 §3.8.4.5, RELTYPE = PARENT / CHILD / SIBLING / …
/// ```
public struct Relation: Sendable, Hashable, Codable {
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
