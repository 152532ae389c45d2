import TrigsimCore

/// Where the device is between two fixes, for polygon regions.
///
/// **Chord rule.** Polygon edges are straight lines in (longitude, latitude),
/// the GeoJSON convention, so for polygon crossings the device path between
/// fixes `a` and `b` is the straight (longitude, latitude) chord from `a` to
/// `b`, traversed linearly in time: at instant `t` the position is
/// `a + (b − a) × (t − a.instant) / (b.instant − a.instant)`, component-wise.
/// Before `a.instant` it is exactly `a`, from `b.instant` on exactly `b`.
///
/// **Error against the geodesic.** The chord is not the geodesic that
/// `DevicePath` follows (circles use that). The largest distance between the
/// chord position and the geodesic position at the same instant is about
/// 0.145 · L² · tan|φ| / R (L the segment length, φ the latitude, R = 6371 km):
/// for L = 100 m it is 0.13 mm at 30°, 0.23 mm at 45°, 0.39 mm at 60° and
/// 1.3 mm at 80°; for L = 10 m it is 100 times smaller; for L = 1 km it is
/// 23 mm at 45°. These figures were computed with GeographicLib (72 headings ×
/// 49 fractions per case); `PolygonRegionTests` rechecks 100 m at 45° and 60°.
///
/// **No interpolation** (the position is `a` until `b.instant`, then `b`) when
/// the fixes share an instant, when `b` starts a new recorded segment, or when
/// the chord would span more than 180° of longitude (it crosses the
/// antimeridian; the straight (longitude, latitude) line would run the long
/// way round the world).
public struct ChordPath: Sendable {
  public let start: Coordinate
  public let end: Coordinate
  public let startInstant: SimulationInstant
  public let endInstant: SimulationInstant
  /// False when the rule above says the device jumps from `start` to `end` at `endInstant`.
  public let interpolates: Bool

  public init(from a: TrackSample, to b: TrackSample) {
    start = a.coordinate
    end = b.coordinate
    startInstant = a.instant
    endInstant = b.instant
    interpolates =
      b.instant > a.instant && !b.startsSegment && abs(b.coordinate.longitude - a.coordinate.longitude) <= 180
  }

  /// The fraction of the chord covered at `instant`, in [0, 1].
  public func fraction(at instant: SimulationInstant) -> Double {
    let t = instant.millisecondsSinceEpoch
    let t0 = startInstant.millisecondsSinceEpoch, t1 = endInstant.millisecondsSinceEpoch
    if t >= t1 { return 1 }
    if t <= t0 || !interpolates { return 0 }
    return Double(t - t0) / Double(t1 - t0)
  }

  /// The position at `instant` under the chord rule.
  public func position(at instant: SimulationInstant) -> Coordinate {
    let t = instant.millisecondsSinceEpoch
    if t >= endInstant.millisecondsSinceEpoch { return end }
    if t <= startInstant.millisecondsSinceEpoch || !interpolates { return start }
    let f = fraction(at: instant)
    return Coordinate(
      latitude: start.latitude + (end.latitude - start.latitude) * f,
      longitude: start.longitude + (end.longitude - start.longitude) * f)
  }
}
