/// A circle on the WGS84 ellipsoid: every point whose geodesic distance from
/// `center` is at most `radius` metres (the boundary counts as inside).
///
/// **Crossings.** The device path between fixes is the one `DevicePath`
/// defines (linear in time along the geodesic). A crossing is reported at
/// the first whole millisecond in `(a.instant, b.instant]` at which
/// `contains(path.position(at: t))` differs from the state at the previous
/// millisecond, so the crossings agree exactly with sampling the path at every
/// millisecond:
/// - both ends outside and the path dips inside: an entry, then an exit;
/// - both ends inside: nothing (a geodesic disc of this size is convex);
/// - a graze that is not inside at any whole millisecond: nothing.
///
/// When the fixes share an instant, or `b` starts a new recorded segment
/// (`startsSegment`), there is no interpolation: a change of side is reported
/// at `b.instant`.
///
/// **Cost.** Most segments are far from the boundary. They are rejected with
/// `Geodesic.DistanceBounds` (no trigonometry, no allocation), with a 1 cm
/// safety margin that covers the floating-point error of `Geodesic`, so a
/// rejection never disagrees with the exact predicate. Segments near the
/// boundary get an exact search over whole milliseconds: bisection when the
/// ends are on different sides, and for two outside ends a ternary search for
/// the closest approach followed by a bisection on each side.
///
/// Radii are meant to be region-sized (metres to kilometres); anything below
/// about 19,000 km is handled exactly, and readers refuse more than
/// `maximumRadius`.
public final class CircularRegion: RegionShape {
  public let center: Coordinate
  /// Metres.
  public let radius: Double

  /// The boundary and its crossing search (shared with the device's offset circles).
  package let boundary: CircleBoundary

  /// Absolute safety margin for the cheap bounds, metres. It covers the
  /// error of Vincenty's formulae (well under 1 mm) and of double rounding.
  static let margin = CircleBoundary.margin

  /// The largest radius a circle may have, in metres: 10,000 km, a quarter
  /// of the Earth's circumference. A larger circle describes no place a
  /// reminder is about, and the crossing search is exact only below about
  /// 19,000 km. Every reader (the scenario's `radius`, a GeoJSON `radius`
  /// property, a places CSV's radius column) refuses more through
  /// `radiusProblem`, so no circle beyond it reaches the engine or a picture.
  public static let maximumRadius = 10_000_000.0

  /// Why a circle cannot have `radius`, as the end of a message about the
  /// value ("radius must be …"); nil when it can.
  public enum RadiusProblem: Equatable, Sendable {
    case notPositive
    case tooLarge

    /// The message, e.g. `radius must be greater than 0 metres`.
    public var message: String {
      switch self {
      case .notPositive: "radius must be greater than 0 metres"
      case .tooLarge: "radius must be at most 10000000 metres (10,000 km)"
      }
    }

    /// What to do about it.
    public var notes: [String] {
      switch self {
      case .notPositive: ["a circle's radius is in metres, e.g. 100"]
      case .tooLarge: ["a circle's radius is in metres (100 is a house, 2000 a neighbourhood); check the value for a typo"]
      }
    }
  }

  /// The rule every reader applies to a circle's radius: finite, greater
  /// than 0 and at most `maximumRadius` metres.
  public static func radiusProblem(_ radius: Double) -> RadiusProblem? {
    guard radius > 0 else { return .notPositive }  // NaN included
    guard radius <= maximumRadius else { return .tooLarge }  // infinity included
    return nil
  }

  /// - Precondition: `center.isValid`, `radius` finite and ≥ 0 (the
  ///   scenario loader reports bad values as located diagnostics first).
  public init(center: Coordinate, radius: Double) {
    precondition(center.isValid, "invalid circle centre \(center)")
    precondition(radius.isFinite && radius >= 0, "invalid circle radius \(radius)")
    self.center = center
    self.radius = radius
    self.boundary = CircleBoundary(
      radius: radius, bounds: Geodesic.DistanceBounds(center: center, reach: 4 * radius + 10_000))
  }

  /// Whether the geodesic distance from `center` to `coordinate` is at most `radius`.
  public func contains(_ coordinate: Coordinate) -> Bool { boundary.contains(coordinate) }

  /// How far `coordinate` is at least from the boundary circle, from the
  /// cheap bounds less the safety margin (0 when they cannot tell).
  public func boundaryClearance(from coordinate: Coordinate) -> Double { boundary.clearance(from: coordinate) }

  /// `circle [55.6761, 12.5683] r=100m`.
  public var summary: String { "circle \(center) r=\(radiusText)m" }

  /// The radius in metres as every text shows it: a whole number of metres
  /// below 10¹⁵ as an integer (`100`), anything else in Swift's shortest
  /// form (`12.5`, `9.2e+18`); never a conversion that could trap.
  public var radiusText: String {
    radius == radius.rounded() && abs(radius) < 1e15 ? String(Int64(radius)) : String(radius)
  }

  public func appendCrossings(
    from a: TrackSample, to b: TrackSample, insideAtStart: Bool, into crossings: inout [BoundaryCrossing]
  ) {
    boundary.appendCrossings(from: a, to: b, insideAtStart: insideAtStart, into: &crossings)
  }

  @inline(__always)
  package func boundState(from a: Coordinate, to b: Coordinate) -> Bool? { boundary.boundState(from: a, to: b) }
}

/// A geodesic circle's boundary as a value: containment, clearance and the
/// exact crossing search of `CircularRegion`, for any radius around a centre
/// whose `DistanceBounds` are shared. The device model uses it for circles
/// offset from a region's boundary by a margin (see `RegionMonitoringService`).
package struct CircleBoundary: Sendable {
  package let radius: Double
  package let bounds: Geodesic.DistanceBounds
  private let outerLimit: Double  // radius + margin
  private let innerLimit: Double  // radius − margin

  static let margin = 0.01

  /// - Precondition: `radius` finite; a negative radius contains nothing.
  ///   `bounds` must reach at least `4 × radius` past the centre for the
  ///   cheap bounds to stay exact in form.
  package init(radius: Double, bounds: Geodesic.DistanceBounds) {
    self.radius = radius
    self.bounds = bounds
    self.outerLimit = radius + Self.margin
    self.innerLimit = radius - Self.margin
  }

  package var center: Coordinate { bounds.center }

  @inline(__always)
  package func contains(_ coordinate: Coordinate) -> Bool {
    if radius < 0 { return false }
    if bounds.lowerBound(coordinate) > outerLimit { return false }
    if bounds.upperBound(coordinate) < innerLimit { return true }
    return exactDistance(coordinate) <= radius
  }

  @inline(__always)
  package func clearance(from coordinate: Coordinate) -> Double {
    let lower = bounds.lowerBound(coordinate)
    if lower > outerLimit { return lower - outerLimit }
    let upper = bounds.upperBound(coordinate)
    if upper < innerLimit { return innerLimit - upper }
    return 0
  }

  package func appendCrossings(
    from a: TrackSample, to b: TrackSample, insideAtStart: Bool, into crossings: inout [BoundaryCrossing]
  ) {
    let t0 = a.instant.millisecondsSinceEpoch, t1 = b.instant.millisecondsSinceEpoch
    if t1 <= t0 || b.startsSegment {
      if contains(b.coordinate) != insideAtStart {
        crossings.append(BoundaryCrossing(instant: b.instant, entering: !insideAtStart))
      }
      return
    }

    if let inside = boundState(from: a.coordinate, to: b.coordinate) {
      appendConstantState(inside, t0: t0, insideAtStart: insideAtStart, into: &crossings)
      return
    }
    exactCrossings(from: a, to: b, insideAtStart: insideAtStart, into: &crossings)
  }

  /// The side of the whole geodesic path from `a` to `b` when the cheap
  /// bounds settle it (true: all inside, false: all outside), else nil.
  ///
  /// Every point of the path is within s of `a` and within s of `b`, so its
  /// distance from the centre lies in [(g(a) + g(b) − s) / 2, (g(a) + g(b) + s) / 2].
  @inline(__always)
  package func boundState(from a: Coordinate, to b: Coordinate) -> Bool? {
    let length = bounds.segmentUpperBound(a, b)
    if bounds.lowerBound(a) + bounds.lowerBound(b) - length > 2 * outerLimit { return false }
    if bounds.upperBound(a) + bounds.upperBound(b) + length < 2 * innerLimit { return true }
    return nil
  }

  // MARK: - Exact search

  @inline(__always)
  private func exactDistance(_ coordinate: Coordinate) -> Double {
    Geodesic.distance(center, coordinate)
  }

  /// The whole path is on one side: at most one change, at the first millisecond.
  @inline(__always)
  private func appendConstantState(
    _ inside: Bool, t0: Int64, insideAtStart: Bool, into crossings: inout [BoundaryCrossing]
  ) {
    if inside != insideAtStart {
      crossings.append(
        BoundaryCrossing(instant: SimulationInstant(millisecondsSinceEpoch: t0 + 1), entering: inside))
    }
  }

  private func exactCrossings(
    from a: TrackSample, to b: TrackSample, insideAtStart: Bool, into crossings: inout [BoundaryCrossing]
  ) {
    let t0 = a.instant.millisecondsSinceEpoch, t1 = b.instant.millisecondsSinceEpoch
    let path = DevicePath(from: a, to: b)
    func inside(_ t: Int64) -> Bool {
      contains(path.position(at: SimulationInstant(millisecondsSinceEpoch: t)))
    }
    func report(_ t: Int64, entering: Bool) {
      crossings.append(BoundaryCrossing(instant: SimulationInstant(millisecondsSinceEpoch: t), entering: entering))
    }

    let insideAtEnd = contains(b.coordinate)
    switch (insideAtStart, insideAtEnd) {
    case (true, true):
      return
    case (true, false):
      report(firstMillisecond(after: t0, upTo: t1, where: { !inside($0) }), entering: false)
    case (false, true):
      report(firstMillisecond(after: t0, upTo: t1, where: inside), entering: true)
    case (false, false):
      // Exact version of the rejection above, on Vincenty distances.
      let low = exactDistance(a.coordinate) + exactDistance(b.coordinate) - path.distance
      if low > 2 * outerLimit { return }
      guard t1 - t0 >= 2 else { return }
      let closest = closestApproach(in: (t0 + 1)...(t1 - 1)) {
        exactDistance(path.position(at: SimulationInstant(millisecondsSinceEpoch: $0)))
      }
      guard inside(closest) else { return }
      report(firstMillisecond(after: t0, upTo: closest, where: inside), entering: true)
      report(firstMillisecond(after: closest, upTo: t1, where: { !inside($0) }), entering: false)
    }
  }

  /// The first `t` in `(lower, upper]` with `predicate(t)`, given that the
  /// predicate is false at `lower`, true at `upper`, and changes once between.
  private func firstMillisecond(after lower: Int64, upTo upper: Int64, where predicate: (Int64) -> Bool) -> Int64 {
    var low = lower, high = upper  // predicate(low) false, predicate(high) true
    while high - low > 1 {
      let middle = low + (high - low) / 2
      if predicate(middle) { high = middle } else { low = middle }
    }
    return high
  }

  /// The `t` in `range` where the unimodal `distance(t)` is smallest.
  private func closestApproach(in range: ClosedRange<Int64>, distance: (Int64) -> Double) -> Int64 {
    var low = range.lowerBound, high = range.upperBound
    while high - low > 2 {
      let third = (high - low) / 3
      let m1 = low + third, m2 = high - third
      let d1 = distance(m1), d2 = distance(m2)
      if d1 < d2 {
        high = m2 - 1
      } else if d1 > d2 {
        low = m1 + 1
      } else {
        low = m1
        high = m2
      }
    }
    var best = low, bestDistance = distance(low)
    var t = low + 1
    while t <= high {
      let d = distance(t)
      if d < bestDistance {
        best = t
        bestDistance = d
      }
      t += 1
    }
    return best
  }
}
