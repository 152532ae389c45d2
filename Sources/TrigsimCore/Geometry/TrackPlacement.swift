/// Places instants on a track as its fixes stream by: the position of the
/// device's true path at each instant.
///
/// The rule, the same for every writer that draws events on a map:
/// - between two fixes of one segment, the point of `DevicePath` between
///   them at the instant;
/// - at a fix's instant, that fix;
/// - between a segment's last fix and the next segment's first fix, the last
///   fix (the path is not interpolated across a break);
/// - after the track's last fix, that fix (the device stays there);
/// - before the first fix, unknown (`nil`), and unknown for every instant
///   when there is no track.
///
/// Memory is one optional coordinate per instant; the track is never held.
public struct TrackPlacement: Sendable {
  /// The instants to place, in non-decreasing order.
  public let instants: [SimulationInstant]
  /// The position at each instant, once `finish()` has run (`nil`: unknown).
  public private(set) var positions: [Coordinate?]
  private var next = 0
  private var previous: TrackSample?

  /// - Precondition: `instants` is in non-decreasing order.
  public init(instants: [SimulationInstant]) {
    self.instants = instants
    positions = Array(repeating: nil, count: instants.count)
  }

  /// Takes the track's next fix (fixes in time order).
  public mutating func consume(_ sample: TrackSample) {
    if let previous {
      // The path between the two fixes is computed (a geodesic inverse) only when an instant falls on it.
      guard next < instants.count, instants[next] <= sample.instant else {
        self.previous = sample
        return
      }
      let path = sample.startsSegment ? nil : DevicePath(from: previous, to: sample)
      while next < instants.count, instants[next] <= sample.instant {
        let instant = instants[next]
        positions[next] = instant == sample.instant ? sample.coordinate : (path?.position(at: instant) ?? previous.coordinate)
        next += 1
      }
    } else {
      // Before the first fix the position is unknown.
      while next < instants.count, instants[next] < sample.instant { next += 1 }
      while next < instants.count, instants[next] == sample.instant {
        positions[next] = sample.coordinate
        next += 1
      }
    }
    previous = sample
  }

  /// Ends the track: the instants after its last fix are at that fix.
  public mutating func finish() {
    guard let previous else { return }
    while next < instants.count {
      positions[next] = previous.coordinate
      next += 1
    }
  }
}
