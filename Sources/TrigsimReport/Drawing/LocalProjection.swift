import Foundation
import TrigsimCore

/// A local map projection: metres east and north of a centre, from the
/// length of a degree of latitude and of longitude on the WGS 84 ellipsoid
/// at the centre's latitude (an equirectangular projection scaled for that
/// latitude).
///
/// Within a few kilometres of the centre, the scale of a city walk or a
/// drive, distances on the map are exact to well under 1 %; over hundreds of
/// kilometres (a flight) the map is still faithful in shape but its scale bar
/// holds only near the centre. Longitudes are taken as they are: a drawing
/// across the 180th meridian is not supported.
///
/// The degree lengths are the usual series in the latitude φ (metres):
/// latitude 111132.92 − 559.82 cos 2φ + 1.175 cos 4φ − 0.0023 cos 6φ,
/// longitude 111412.84 cos φ − 93.5 cos 3φ + 0.118 cos 5φ.
public struct LocalProjection: Sendable {
  public let center: Coordinate
  /// Metres per degree of latitude at the centre.
  public let metresPerDegreeLatitude: Double
  /// Metres per degree of longitude at the centre.
  public let metresPerDegreeLongitude: Double

  public init(center: Coordinate) {
    self.center = center
    let phi = center.latitude * .pi / 180
    metresPerDegreeLatitude = 111_132.92 - 559.82 * cos(2 * phi) + 1.175 * cos(4 * phi) - 0.0023 * cos(6 * phi)
    // Never zero, so that a drawing at a pole still has a width.
    metresPerDegreeLongitude = max(111_412.84 * cos(phi) - 93.5 * cos(3 * phi) + 0.118 * cos(5 * phi), 1)
  }

  /// Metres east (`x`) and north (`y`) of the centre.
  public func project(_ coordinate: Coordinate) -> PlanePoint {
    PlanePoint(
      x: (coordinate.longitude - center.longitude) * metresPerDegreeLongitude,
      y: (coordinate.latitude - center.latitude) * metresPerDegreeLatitude)
  }
}

/// A point on a plane, in metres (a projection) or pixels (a drawing).
public struct PlanePoint: Hashable, Sendable {
  public var x: Double
  public var y: Double
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }
}

/// A rectangle in latitude and longitude that grows to hold what it is shown.
struct CoordinateBounds {
  private(set) var south = Double.infinity, north = -Double.infinity
  private(set) var west = Double.infinity, east = -Double.infinity

  var isEmpty: Bool { south > north }

  mutating func include(_ coordinate: Coordinate) {
    south = min(south, coordinate.latitude)
    north = max(north, coordinate.latitude)
    west = min(west, coordinate.longitude)
    east = max(east, coordinate.longitude)
  }

  var center: Coordinate { Coordinate(latitude: (south + north) / 2, longitude: (west + east) / 2) }
}

/// Where the projected plane goes on the picture: a uniform scale (so that
/// north stays up and circles stay round) and a shift that centres the
/// drawn extent inside the margins. `y` grows downward on the picture.
struct Viewport {
  let scale: Double  // pixels per metre
  let offsetX: Double, offsetY: Double
  /// The picture's height, chosen from the extent's shape (the width is the caller's).
  let height: Double

  /// Fits the extent `minX…maxX` × `minY…maxY` (metres) into `width`, with
  /// a height chosen from the extent's shape between `minHeight` and
  /// `maxHeight`, leaving `margin` pixels on every side. An extent of no
  /// size (one point) is drawn as 200 m across.
  init(minX: Double, maxX: Double, minY: Double, maxY: Double, width: Double, minHeight: Double, maxHeight: Double, margin: Double) {
    let spanX = max(maxX - minX, 200), spanY = max(maxY - minY, 200)
    let innerWidth = width - 2 * margin
    let wantedHeight = innerWidth * spanY / spanX + 2 * margin
    let height = min(max(wantedHeight, minHeight), maxHeight)
    let scale = min(innerWidth / spanX, (height - 2 * margin) / spanY)
    self.scale = scale
    self.height = height
    offsetX = width / 2 - (minX + maxX) / 2 * scale
    offsetY = height / 2 + (minY + maxY) / 2 * scale
  }

  /// The picture position of a projected point.
  func pixel(_ point: PlanePoint) -> PlanePoint { PlanePoint(x: offsetX + point.x * scale, y: offsetY - point.y * scale) }
}
