/// A category name, with the colour an application gives it. iCalendar has no place for a category's colour; ICSKit
/// carries it in a calendar property (`CategoryColor`), which reading fills `color` from and writing writes.
///
/// ```
/// categories = "CATEGORIES" catparam ":" text *("," text) CRLF   ; RFC 5545 §3.8.1.2
/// ```
public struct Category: Sendable, Hashable, ExpressibleByStringLiteral, Codable {
    /// The category's name.
    public var name: String
    /// Its colour (`#RRGGBB`) where one is known: from the calendar it was read from, or set by the app.
    public var color: String?

    /// A category by name.
    public init(_ name: String, color: String? = nil) {
        self.name = name
        self.color = color
    }

    /// A category by name, written as a string literal.
    public init(stringLiteral value: String) { self.init(value) }
}
