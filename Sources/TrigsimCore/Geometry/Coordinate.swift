/// A position on the WGS84 ellipsoid, in degrees.
public struct Coordinate: Hashable, Sendable, CustomStringConvertible {
  /// Geodetic latitude in degrees, -90...90.
  public var latitude: Double
  /// Longitude in degrees, -180...180.
  public var longitude: Double

  public init(latitude: Double, longitude: Double) {
    self.latitude = latitude
    self.longitude = longitude
  }

  /// Whether both values are finite and within their ranges.
  public var isValid: Bool {
    latitude.isFinite && longitude.isFinite && (-90...90).contains(latitude) && (-180...180).contains(longitude)
  }

  public var description: String { "[\(latitude), \(longitude)]" }
}
