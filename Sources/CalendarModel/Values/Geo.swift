/// A GEO value (RFC 5545 §3.8.1.6): latitude and longitude in degrees.
///
/// ```
/// geovalue = float ";" float     ; latitude, longitude
/// ```
public struct Geo: Sendable, Hashable, Codable {
    /// Degrees north (negative: south).
    public var latitude: Double
    /// Degrees east (negative: west).
    public var longitude: Double

    /// A position.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// As iCalendar writes it: `latitude;longitude`.
    public var icsValue: String { "\(latitude);\(longitude)" }

    /// Reads `latitude;longitude`, each a float in range.
    public static func parse(_ text: String) -> Result<Geo, ValueError> {
        let parts = text.split(separator: ";", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ Double($0) != nil }), let geo = LibicalValues.geo(text),
            (-90...90).contains(geo.latitude), (-180...180).contains(geo.longitude)
        else {
            return .failure(ValueError("\"\(text)\" is not a GEO value (latitude;longitude)"))
        }
        return .success(Geo(latitude: geo.latitude, longitude: geo.longitude))
    }
}
