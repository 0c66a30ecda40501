import Foundation

/// A property parameter (`TZID=Europe/Berlin`, `MEMBER="a","b"`): its name and its values, unquoted and with
/// RFC 6868 caret escapes decoded.
public struct Parameter: Sendable, Hashable, Codable {
    /// The parameter name, upper-cased.
    public var name: String
    /// The values; most parameters have one.
    public var values: [String]

    /// A parameter with several values.
    public init(_ name: String, _ values: [String]) {
        self.name = name.uppercased()
        // A parameter value may hold a line break (RFC 6868 writes it as ^n), never another control character.
        self.values = values.map(ControlCharacters.replacing(in:))
    }

    /// A parameter with one value.
    public init(_ name: String, _ value: String) { self.init(name, [value]) }

    /// The first value, which is the only one for almost every parameter.
    public var value: String { values.first ?? "" }
}

/// One content line: `NAME;PARAM=VALUE:value`. The value is kept in its iCalendar text form (escapes intact),
/// so nothing is lost whether or not ICSKit knows the property.
public struct Property: Sendable {
    /// The property name, upper-cased.
    public var name: String { didSet { sourcePrefix = nil } }
    /// Its parameters, in order.
    public var parameters: [Parameter] { didSet { sourcePrefix = nil } }
    /// The value exactly as it stands after the colon (iCalendar escaping intact). A content line cannot hold a
    /// line break, so one set here (from code or jCal) becomes the `\n` escape; other control characters, which
    /// no content line may hold, become U+FFFD.
    public var value: String { didSet { value = Self.withoutLineBreaks(value) } }
    /// The line the property was read from (first physical line when folded), 0 when built in code.
    package internal(set) var line: Int
    /// Name and parameters as read (everything before the value's colon), kept only when they were not written
    /// canonically (`dtstart;tzid="x"`), so the line is written back as it was while they stay unchanged.
    var sourcePrefix: String?

    /// A property with a raw (escaped) value.
    public init(_ name: String, parameters: [Parameter] = [], value: String) {
        self.name = name.uppercased()
        self.parameters = parameters
        self.value = Self.withoutLineBreaks(value)
        self.line = 0
        self.sourcePrefix = nil
    }

    /// A property whose value is TEXT (RFC 5545 §3.3.11), given as plain text: `\`, `;`, `,` and line breaks are
    /// escaped here, the one escaping every writer of text uses.
    public init(_ name: String, parameters: [Parameter] = [], text: String) {
        self.init(name, parameters: parameters, value: TextEscaping.escape(text))
    }

    init(name: String, parameters: [Parameter], value: String, line: Int, sourcePrefix: String?) {
        self.name = name
        self.parameters = parameters
        self.value = value
        self.line = line
        self.sourcePrefix = sourcePrefix
    }

    /// The first value of the named parameter, if present: `property["TZID"]`.
    public subscript(name: String) -> String? {
        parameters.first { $0.name == name }?.values.first
    }

    /// Sets, replaces or (with nil) removes a single-valued parameter.
    public mutating func setParameter(_ name: String, _ value: String?) {
        let key = name.uppercased()
        if let index = parameters.firstIndex(where: { $0.name == key }) {
            if let value { parameters[index].values = [value] } else { parameters.remove(at: index) }
        } else if let value {
            parameters.append(Parameter(key, value))
        }
    }

    /// The content line as it will be written: name and parameters as read while unchanged, canonical otherwise.
    public var contentLine: String { (sourcePrefix ?? canonicalPrefix) + ":" + value }

    /// The canonical form: upper-case names, parameter values quoted where RFC 5545 requires it.
    package var canonicalContentLine: String { canonicalPrefix + ":" + value }

    /// Name and parameters in canonical form.
    var canonicalPrefix: String {
        guard !parameters.isEmpty else { return name }
        var line = name
        for parameter in parameters {
            line += ";" + parameter.name
            if parameter.values.isEmpty { continue }  // a malformed `;NAME` with no '=' is kept as it was
            line += "=" + parameter.values.map(Self.quotedParameterValue).joined(separator: ",")
        }
        return line
    }

    /// The value with any line break written as the `\n` escape and other control characters as U+FFFD.
    static func withoutLineBreaks(_ value: String) -> String {
        guard value.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { return value }
        let broken = value.replacingOccurrences(of: "\r\n", with: "\\n").replacingOccurrences(of: "\n", with: "\\n")
            .replacingOccurrences(of: "\r", with: "\\n")
        return ControlCharacters.replacing(in: broken)
    }

    /// Quotes a parameter value when it holds `:`, `;` or `,` (RFC 5545 §3.2) and caret-escapes what a quoted
    /// string cannot hold (RFC 6868).
    static func quotedParameterValue(_ raw: String) -> String {
        var needsQuotes = false
        var needsCaret = false
        for byte in raw.utf8 {
            switch byte {
            case UInt8(ascii: ":"), UInt8(ascii: ";"), UInt8(ascii: ","): needsQuotes = true
            case UInt8(ascii: "\""), UInt8(ascii: "\n"), UInt8(ascii: "^"): needsCaret = true
            default: break
            }
        }
        var text = raw
        if needsCaret {
            text = ""
            for character in raw {
                switch character {
                case "^": text += "^^"
                case "\n", "\r\n": text += "^n"
                case "\"": text += "^'"
                default: text.append(character)
                }
            }
        }
        return needsQuotes ? "\"" + text + "\"" : text
    }
}

extension Property: Equatable, Hashable {
    /// Properties are equal when name, parameters and value are; where they were read does not matter.
    public static func == (lhs: Property, rhs: Property) -> Bool {
        lhs.name == rhs.name && lhs.value == rhs.value && lhs.parameters == rhs.parameters
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(value)
        hasher.combine(parameters)
    }
}
