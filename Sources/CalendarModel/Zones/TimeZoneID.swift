import Foundation

/// The zone a zoned time names in its TZID parameter, spelt as the file spells it (`Europe/Berlin`,
/// `W. Europe Standard Time`, or a name only the file's own VTIMEZONE defines).
///
/// A TZID is checked where it is made: from a ``CalendarZone``, from a name a zone database knows, or from a name a
/// calendar's VTIMEZONE defines. A misspelt name is an error, never a floating time:
///
/// ```swift
/// let berlin = TimeZoneID(try CalendarZone("Europe/Berlin"))
/// let outlook = try TimeZoneID("W. Europe Standard Time")      // kept as written, maps to Europe/Berlin
/// let custom = try TimeZoneID("Office Time", definedIn: calendar)
/// let typo = try? TimeZoneID("Europe/Berln")                   // nil
/// ```
///
/// Values read from a file keep the TZIDs the file wrote, known or not: a reader reports an unknown one (ICS1xx
/// warnings), and `CalendarDate.zone` is nil for it.
public struct TimeZoneID: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The name as the TZID parameter writes it.
    public let name: String

    /// The TZID of a zone: its IANA name.
    public init(_ zone: CalendarZone) { name = zone.identifier }

    /// A TZID by name; throws when no zone database or Windows/Outlook mapping knows the name (use
    /// `init(_:definedIn:)` for a zone a calendar defines itself).
    public init(_ name: String) throws {
        _ = try CalendarZone(name)
        self.name = name
    }

    /// A TZID by name that a zone database knows or that one of the calendar's VTIMEZONE components defines.
    public init(_ name: String, definedIn calendar: ICalendar) throws {
        guard calendar.timeZones.contains(where: { $0.tzid == name }) || (try? CalendarZone(name)) != nil else {
            throw ValueError("\"\(name)\" is no time zone known here and no VTIMEZONE of the calendar defines it")
        }
        self.name = name
    }

    /// A TZID as a file wrote it, checked (or reported) by whoever read the file.
    package init(unchecked name: String) { self.name = name }

    /// The zone the name stands for (a Windows or Outlook name mapped to its IANA zone); nil for a name only a
    /// file's VTIMEZONE defines.
    public var zone: CalendarZone? { try? CalendarZone(name) }

    /// The name.
    public var description: String { name }

    /// The key of a decoder's `userInfo` under which a `Set<String>` of TZIDs a calendar defines may be given, so
    /// that values naming them decode; any other name must be one a zone database knows.
    public static let definedNamesKey = CodingUserInfoKey(rawValue: "ICSKit.TimeZoneID.definedNames")!

    /// The TZIDs the VTIMEZONEs of the calendar being decoded define (`ICalendar.init(from:)` sets them).
    @TaskLocal static var definedWhileDecoding: Set<String> = []

    /// Decodes the name as one JSON string and checks it as `init(_:)` does; a name the VTIMEZONEs of the calendar
    /// being decoded define, or one in the decoder's `userInfo[definedNamesKey]`, is accepted too.
    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        let given = decoder.userInfo[Self.definedNamesKey] as? Set<String> ?? []
        if given.contains(name) || Self.definedWhileDecoding.contains(name) {
            self.init(unchecked: name)
            return
        }
        do {
            try self.init(name)
        } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "\"\(name)\" is no time zone known here"))
        }
    }

    /// Encodes the name as one JSON string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}
