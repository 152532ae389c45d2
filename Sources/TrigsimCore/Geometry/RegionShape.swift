/// A boundary crossing of the device path: the first whole millisecond at
/// which the device is on the new side of a region's boundary.
public struct BoundaryCrossing: Hashable, Sendable {
  public var instant: SimulationInstant
  /// True for an entry (outside → inside), false for an exit.
  public var entering: Bool

  public init(instant: SimulationInstant, entering: Bool) {
    self.instant = instant
    self.entering = entering
  }
}

/// The geometry of a monitored region: what is inside, and where a moving
/// device crosses the boundary.
///
/// The device path between two fixes `a` and `b` is continuous: the position
/// at instant `t` is interpolated linearly in time between them (see
/// `DevicePath`). A crossing is reported at the first whole millisecond in
/// `(a.instant, b.instant]` at which the interpolated position is on the new
/// side, so sampling the path at every millisecond agrees with the crossings
/// exactly. A path that passes through the region between two fixes gives an
/// entry and an exit.
public protocol RegionShape: AnyObject {
  /// Whether `coordinate` is inside the region (the boundary counts as inside).
  func contains(_ coordinate: Coordinate) -> Bool

  /// Appends the crossings of the path from `a` to `b`, in time order.
  ///
  /// `insideAtStart` is `contains(a.coordinate)`, which the caller already
  /// knows. Called once per fix and region, so implementations reject
  /// segments far from the boundary cheaply and allocate nothing then.
  func appendCrossings(
    from a: TrackSample, to b: TrackSample, insideAtStart: Bool, into crossings: inout [BoundaryCrossing])

  /// A lower bound, in metres, on the distance from `coordinate` to the
  /// region's boundary: a device that moves less than this along any path
  /// stays on the same side. 0 means "unknown"; the engine then asks
  /// `appendCrossings` about every segment.
  func boundaryClearance(from coordinate: Coordinate) -> Double

  /// A short description for the timeline header: `circle [55.6761, 12.5683] r=100m`.
  var summary: String { get }

  /// The shape for use on another thread: `self` when the shape is
  /// immutable (the default), a fresh copy when it holds state that must not
  /// be shared between threads (a GEOS context). Trials give every worker
  /// thread its own copies.
  func copyForAnotherThread() -> any RegionShape
}

extension RegionShape {
  public func boundaryClearance(from coordinate: Coordinate) -> Double { 0 }
  public func copyForAnotherThread() -> any RegionShape { self }
}
