/// Where the device is between two fixes.
///
/// **Rule.** Between fixes `a` and `b` the device moves along the geodesic
/// from `a` to `b` (the shortest path on the WGS84 ellipsoid) at constant
/// speed: at instant `t` it is `distance × (t − a.instant) / (b.instant −
/// a.instant)` metres from `a` along that geodesic. Before `a.instant` it is
/// exactly at `a`, from `b.instant` on exactly at `b` (so the end of one
/// segment is bit-for-bit the start of the next). When both fixes share an
/// instant there is nothing to interpolate and the position is `b` at that
/// instant.
///
/// The geodesic is solved once, in `init`; each `position(at:)` is one
/// `Geodesic.destination`.
public struct DevicePath: Sendable {
  public let start: Coordinate
  public let end: Coordinate
  public let startInstant: SimulationInstant
  public let endInstant: SimulationInstant
  /// Length of the geodesic from `start` to `end`, metres.
  public let distance: Double
  /// Direction of travel at `start`, degrees clockwise from north.
  public let azimuth: Double

  public init(from a: TrackSample, to b: TrackSample) {
    start = a.coordinate
    end = b.coordinate
    startInstant = a.instant
    endInstant = b.instant
    let solution = Geodesic.inverse(a.coordinate, b.coordinate)
    distance = solution.distance
    azimuth = solution.initialAzimuth
  }

  /// The interpolated position at `instant` (see the rule above).
  public func position(at instant: SimulationInstant) -> Coordinate {
    let t = instant.millisecondsSinceEpoch
    let t0 = startInstant.millisecondsSinceEpoch, t1 = endInstant.millisecondsSinceEpoch
    if t >= t1 { return end }
    if t <= t0 { return start }
    let fraction = Double(t - t0) / Double(t1 - t0)
    return Geodesic.destination(from: start, azimuth: azimuth, distance: distance * fraction)
  }
}
