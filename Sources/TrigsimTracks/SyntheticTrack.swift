import Foundation
import TrigsimCore

/// A seeded, deterministic daily routine, for fixtures and benchmarks.
///
/// Each day starts at `start` plus whole days, at the first stop. The device
/// stays at each stop for its dwell (varied by up to ±10 % per visit), then
/// moves in a straight line (linear in latitude and longitude, fine for
/// town-sized distances) to the next stop, and after the last stop goes back
/// to the first and stays there until the next day starts (at once, if the
/// round took longer than a day). Legs shorter than 2 km are walked at
/// 1.2–1.6 m/s; longer ones are driven at 8–14 m/s.
///
/// Fixes come every `1 / sampleRate` seconds from `start` for `days` days
/// (the end is exclusive), with GPS-like error: a slowly wandering offset
/// (first-order autoregressive, standard deviation 8 m at a stop, 4 m on the
/// move) and a matching `horizontalAccuracy`.
///
/// Randomness comes only from `seed` (a SplitMix64 generator inside the
/// library; no system randomness), and samples are produced one at a time
/// in constant memory: the same arguments always give the same samples.
public struct SyntheticTrack: Sequence, TrackSource, Sendable {
  /// A place the routine visits.
  public struct Stop: Hashable, Sendable {
    public var name: String
    public var coordinate: Coordinate
    /// How long the device stays before moving on (before variation).
    public var dwell: SimulationDuration

    public init(name: String, coordinate: Coordinate, dwell: SimulationDuration) {
      self.name = name
      self.coordinate = coordinate
      self.dwell = dwell
    }
  }

  public var start: SimulationInstant
  public var days: Int
  /// Fixes per second (1 = one fix a second, 0.1 = one every 10 s).
  public var sampleRate: Double
  public var seed: UInt64
  public var stops: [Stop]

  public var name: String { "synthetic track (seed \(seed))" }

  /// The longest dwell a stop may have: 366 days.
  public static let maximumDwell = SimulationDuration(milliseconds: 366 * 86_400_000)
  /// The highest sample rate: 1000 fixes a second (one a millisecond).
  public static let maximumSampleRate = 1000.0

  /// Why these arguments make no track, or nil when they make one. A track
  /// needs at least one stop, valid coordinates, each dwell within
  /// 0...`maximumDwell`, a rate in (0, `maximumSampleRate`], and `days ≥ 0`
  /// days that end by the year 9999 (the instants track readers accept).
  /// Within these bounds no instant the routine computes can overflow.
  public static func problem(start: SimulationInstant, days: Int, sampleRate: Double, stops: [Stop]) -> String? {
    if stops.isEmpty { return "a synthetic track needs at least one stop" }
    guard sampleRate > 0, sampleRate <= maximumSampleRate else {
      return "the sample rate must be greater than 0 and at most \(Int(maximumSampleRate)) fixes per second"
    }
    guard days >= 0 else { return "the number of days must not be negative" }
    let latest = TrackNormalizer.instants.upperBound
    guard TrackNormalizer.instants.contains(start.millisecondsSinceEpoch),
      Int64(days) <= (latest - start.millisecondsSinceEpoch) / 86_400_000
    else {
      return "\(days) days from \(start) would end after the year 9999"
    }
    for stop in stops {
      guard stop.coordinate.isValid else { return "stop '\(stop.name)' has no valid latitude and longitude" }
      guard stop.dwell >= .zero, stop.dwell <= maximumDwell else {
        return "stop '\(stop.name)' stays \(stop.dwell): a dwell must lie within 0s...\(maximumDwell)"
      }
    }
    return nil
  }

  /// Traps when `SyntheticTrack.problem` finds a problem: check input with it first.
  public init(start: SimulationInstant, days: Int, sampleRate: Double, seed: UInt64, stops: [Stop]) {
    if let problem = SyntheticTrack.problem(start: start, days: days, sampleRate: sampleRate, stops: stops) {
      preconditionFailure(problem)
    }
    self.start = start
    self.days = days
    self.sampleRate = sampleRate
    self.seed = seed
    self.stops = stops
  }

  /// How many fixes the track has: one per sampling interval in `days` days.
  public var sampleCount: Int64 { Int64((Double(days) * 86_400 * sampleRate).rounded(.down)) }

  public func makeIterator() -> Iterator { Iterator(self) }

  public func readSamples(_ consume: (TrackSample) throws -> Bool) throws {
    for sample in self where try !consume(sample) { return }
  }

  /// Produces the fixes one at a time.
  public struct Iterator: IteratorProtocol, Sendable {
    private let track: SyntheticTrack
    private var random: RoutineRandom
    private var index: Int64 = 0
    private let count: Int64

    // The current phase: staying at `from` (when `from == to`) or moving.
    private var from: Coordinate
    private var to: Coordinate
    private var phaseStart: Int64
    private var phaseEnd: Int64
    private var moving = false
    /// Stop the device is at or heading to.
    private var stopIndex = 0
    private var day: Int64 = 0
    /// The wandering GPS error, metres east and north.
    private var errorEast = 0.0
    private var errorNorth = 0.0
    private var previousMoving: Bool?

    init(_ track: SyntheticTrack) {
      self.track = track
      self.random = RoutineRandom(seed: track.seed)
      self.count = track.sampleCount
      let first = track.stops[0]
      from = first.coordinate
      to = first.coordinate
      phaseStart = track.start.millisecondsSinceEpoch
      phaseEnd = phaseStart
      phaseEnd = track.stops.count == 1 ? .max : phaseStart + varied(first.dwell)
    }

    private mutating func varied(_ dwell: SimulationDuration) -> Int64 {
      Int64(Double(dwell.milliseconds) * random.uniform(0.9, 1.1))
    }

    /// Moves to the phase after the current one.
    private mutating func nextPhase() {
      let stops = track.stops
      phaseStart = phaseEnd
      if stops.count == 1 {
        phaseEnd = .max  // a single stop: stay there
        return
      }
      if moving {
        // Arrived: dwell. Back at the first stop, stay until the next day starts.
        moving = false
        from = to
        if stopIndex == 0 {
          day += 1
          let nextDay = track.start.millisecondsSinceEpoch + day * 86_400_000
          phaseEnd = Swift.max(phaseStart, nextDay) + varied(stops[0].dwell)
        } else {
          phaseEnd = phaseStart + varied(stops[stopIndex].dwell)
        }
        return
      }
      // Leave for the next stop.
      stopIndex = (stopIndex + 1) % stops.count
      to = stops[stopIndex].coordinate
      let metres = Geodesic.distance(from, to)
      let speed = metres < 2_000 ? random.uniform(1.2, 1.6) : random.uniform(8, 14)
      moving = true
      phaseEnd = phaseStart + Swift.max(1_000, Int64(metres / speed * 1000))
    }

    public mutating func next() -> TrackSample? {
      guard index < count else { return nil }
      let instant = track.start.millisecondsSinceEpoch + Int64((Double(index) * 1000 / track.sampleRate).rounded(.down))
      index += 1
      while instant >= phaseEnd { nextPhase() }
      var position = from
      if moving {
        let fraction = Double(instant - phaseStart) / Double(phaseEnd - phaseStart)
        position.latitude += (to.latitude - from.latitude) * fraction
        position.longitude += (to.longitude - from.longitude) * fraction
      }
      // GPS error: AR(1) with correlation 0.95 per fix.
      let sigma = moving ? 4.0 : 8.0
      let keep = 0.95
      let fresh = sigma * (1 - keep * keep).squareRoot()
      if previousMoving == nil {
        errorEast = random.normal() * sigma
        errorNorth = random.normal() * sigma
      } else {
        errorEast = keep * errorEast + fresh * random.normal()
        errorNorth = keep * errorNorth + fresh * random.normal()
      }
      previousMoving = moving
      let metresPerDegree = 111_320.0
      position.latitude = Swift.min(90, Swift.max(-90, position.latitude + errorNorth / metresPerDegree))
      let cosine = Swift.max(0.01, cos(position.latitude * .pi / 180))
      var longitude = position.longitude + errorEast / (metresPerDegree * cosine)
      if longitude > 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
      position.longitude = longitude
      let accuracy = ((sigma * 1.5 + random.uniform(0, 3)) * 10).rounded() / 10
      return TrackSample(
        instant: SimulationInstant(millisecondsSinceEpoch: instant), coordinate: position,
        horizontalAccuracy: accuracy, line: 0, startsSegment: index == 1)
    }
  }
}

/// SplitMix64 (Steele, Lea and Flood 2014), with the few distributions the
/// routine needs, built from arithmetic only.
struct RoutineRandom: Sendable {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// Uniform in [0, 1), from the top 53 bits.
  mutating func unit() -> Double { Double(next() >> 11) * 0x1.0p-53 }

  mutating func uniform(_ low: Double, _ high: Double) -> Double { low + (high - low) * unit() }

  /// Approximately standard normal: the sum of four uniforms, centred and scaled
  /// (Irwin–Hall), which needs no logarithms or sines.
  mutating func normal() -> Double {
    (unit() + unit() + unit() + unit() - 2) * 3.0.squareRoot()
  }
}
