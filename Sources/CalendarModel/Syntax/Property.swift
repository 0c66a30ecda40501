import Foundation

/// A property parameter (`TZID=Europe/Berlin`, `MEMBER="a","b"`): its name and its values, unquoted and with
/// RFC 6868 caret escapes decoded.
public struct Parameter: Sendable, Hashable {
    /// The parameter name, upper-cased.
    public var name: String
    /// The values; most parameters have one.
    public var values: [String]

    public init(_ name: String, _ values: [String]) {
        self.name = name.uppercased()
        self.values = values
    }

    public init(_ name: String, _ value: String) { self.init(name, [value]) }

    /// The first value, which is the only one for almost every parameter.
    public var value: String { values.first ?? "" }
}

/// One content line: `NAME;PARAM=VALUE:value`. The value is kept in its iCalendar text form (escapes intact),
/// so nothing is lost whether or not ICSKit knows the property.
public struct Property: Sendable {
    /// The property name, upper-cased.
    public var name: String { didSet { source = nil } }
    public var parameters: [Parameter] { didSet { source = nil } }
    /// The value exactly as it stands after the colon (iCalendar escaping intact).
    public var value: String { didSet { source = nil } }
    /// The line the property was read from (first physical line when folded), 0 when built in code.
    public internal(set) var line: Int
    /// The unfolded content line as read; written back as it was while the property is unchanged.
    var source: String?

    public init(_ name: String, parameters: [Parameter] = [], value: String) {
        self.name = name.uppercased()
        self.parameters = parameters
        self.value = value
        self.line = 0
        self.source = nil
    }

    init(name: String, parameters: [Parameter], value: String, line: Int, source: String?) {
        self.name = name
        self.parameters = parameters
        self.value = value
        self.line = line
        self.source = source
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

    /// The content line as it will be written: as read when unchanged, canonical otherwise.
    public var contentLine: String { source ?? canonicalContentLine }

    /// The canonical form: upper-case names, parameter values quoted where RFC 5545 requires it.
    public var canonicalContentLine: String {
        var line = name
        for parameter in parameters {
            line += ";" + parameter.name + "="
            line += parameter.values.map(Self.quotedParameterValue).joined(separator: ",")
        }
        return line + ":" + Self.withoutLineBreaks(value)
    }

    /// A content line cannot hold a line break; one that reached a value (from code or jCal) is written as the
    /// `\n` escape rather than breaking the file.
    static func withoutLineBreaks(_ value: String) -> String {
        guard value.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) else { return value }
        return value.replacingOccurrences(of: "\r\n", with: "\\n").replacingOccurrences(of: "\n", with: "\\n")
            .replacingOccurrences(of: "\r", with: "\\n")
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

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(value)
        hasher.combine(parameters)
    }
}
