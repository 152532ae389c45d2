import TrigsimCore

/// How fast the device was moving, in the bands the map colours the track by.
public enum SpeedBand: Int, CaseIterable, Sendable, Comparable {
  /// Under about 0.5 m/s: standing, sitting, GPS drift at home; and every
  /// stop the map collapses (see `TrackBuilder`).
  case still
  /// About 0.5 to 2.5 m/s: walking.
  case walking
  /// About 2.5 to 8 m/s: running, cycling, slow traffic.
  case fast
  /// Over about 8 m/s (29 km/h): a car, a train, a plane.
  case vehicle

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

  /// The word in the picture's legend and its `data-speed` attribute.
  public var name: String {
    switch self {
    case .still: "still"
    case .walking: "walking"
    case .fast: "fast"
    case .vehicle: "vehicle"
    }
  }

  /// The legend's range.
  var range: String {
    switch self {
    case .still: "< 0.5 m/s, or a stop"
    case .walking: "0.5–2.5 m/s"
    case .fast: "2.5–8 m/s"
    case .vehicle: "≥ 8 m/s"
    }
  }

  /// The speed (m/s) above which the band above this one starts, and
  /// below which this band gives way to the one under it: the band changes
  /// only 0.2 m/s (or 0.5 m/s at vehicle speed) past a boundary, so GPS
  /// noise on a boundary does not cut the line into many pieces.
  fileprivate var upper: Double? { [0.7, 2.7, 8.5, nil][rawValue] }
  fileprivate var lower: Double? { [nil, 0.3, 2.3, 7.5][rawValue] }

  /// The band for `speed` when the band was `current`: it moves only past
  /// the hysteresis thresholds.
  static func next(after current: SpeedBand, speed: Double) -> SpeedBand {
    var band = current
    while let upper = band.upper, speed > upper, let up = SpeedBand(rawValue: band.rawValue + 1) { band = up }
    while let lower = band.lower, speed < lower, let down = SpeedBand(rawValue: band.rawValue - 1) { band = down }
    return band
  }
}

/// The device's speed along the track, measured over at least `window`
/// (30 seconds by default) so that GPS error, which wanders by several
/// metres in ten seconds while the device stands still, does not read as
/// movement: the distance from the newest fix at least that much older
/// to this one, over the time between them. Until a segment has such a fix
/// there is no measurement (`nil`); `provisionalBand` then measures over
/// what the segment has.
struct SpeedMeter {
  let window: Int64
  /// Recent fixes of this segment: (milliseconds, position in metres), from `head`.
  private var recent: [(Int64, PlanePoint)] = []
  private var head = 0
  private(set) var band = SpeedBand.still

  init(window: SimulationDuration = .seconds(30)) { self.window = window.milliseconds }

  /// Starts a new segment: speed history forgotten, the band kept (it is
  /// where the next measurement's hysteresis starts).
  mutating func restart() {
    recent.removeAll(keepingCapacity: true)
    head = 0
  }

  /// Takes the next fix and returns the band it moves in, or nil while the
  /// segment has no fix `window` older than it.
  mutating func band(at instant: SimulationInstant, _ point: PlanePoint) -> SpeedBand? {
    let now = instant.millisecondsSinceEpoch
    // Keep the newest fix at least `window` old, and what is newer.
    while recent.count - head >= 2, now - recent[head + 1].0 >= window { head += 1 }
    if head > 64 {
      recent.removeFirst(head)
      head = 0
    }
    var measured: SpeedBand?
    if head < recent.count, now - recent[head].0 >= window {
      band = SpeedBand.next(after: band, speed: speed(from: recent[head], to: (now, point)))
      measured = band
    }
    recent.append((now, point))
    return measured
  }

  /// The band over the whole of a segment too short to measure: from its
  /// first fix to its last (the band so far when it has one fix).
  var provisionalBand: SpeedBand {
    guard head < recent.count, let last = recent.last, last.0 > recent[head].0 else { return band }
    return SpeedBand.next(after: band, speed: speed(from: recent[head], to: last))
  }

  private func speed(from a: (Int64, PlanePoint), to b: (Int64, PlanePoint)) -> Double {
    let dx = b.1.x - a.1.x, dy = b.1.y - a.1.y
    return (dx * dx + dy * dy).squareRoot() / (Double(b.0 - a.0) / 1000)
  }
}
