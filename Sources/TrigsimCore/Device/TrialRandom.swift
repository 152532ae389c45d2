import Foundation

/// A seeded pseudo-random stream for trials: SplitMix64 (Steele, Lea and
/// Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014).
/// The same seed gives the same stream on every machine; nothing else in
/// trigsim draws random numbers.
public struct TrialRandom: RandomNumberGenerator, Sendable {
  private var state: UInt64
  private var spareGaussian: Double?

  public init(seed: UInt64) { state = seed }

  @inline(__always)
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// Uniform in [0, 1), 53 bits.
  @inline(__always)
  public mutating func nextUnit() -> Double { Double(next() >> 11) * 0x1.0p-53 }

  /// Uniform in `0..<bound` (bound > 0), without modulo bias worth naming at 64 bits.
  public mutating func next(below bound: Int64) -> Int64 {
    precondition(bound > 0)
    return Int64(next() % UInt64(bound))
  }

  /// Standard normal, by the polar Box–Muller method (pairs, the spare kept).
  public mutating func nextGaussian() -> Double {
    if let spare = spareGaussian {
      spareGaussian = nil
      return spare
    }
    while true {
      let u = 2 * nextUnit() - 1, v = 2 * nextUnit() - 1
      let s = u * u + v * v
      if s > 0 && s < 1 {
        let factor = (-2 * log(s) / s).squareRoot()
        spareGaussian = v * factor
        return u * factor
      }
    }
  }

  /// The seed of trial `index` of a run seeded with `seed`: a SplitMix64
  /// step from both, so trials are independent of each other and of the
  /// order in which worker threads run them.
  public static func trialSeed(_ seed: UInt64, trial index: Int) -> UInt64 {
    var mixer = TrialRandom(seed: seed ^ (UInt64(truncatingIfNeeded: index) &* 0xD1B5_4A32_D192_ED03))
    return mixer.next()
  }
}

/// GPS position error: per axis (east, north), a unit Ornstein–Uhlenbeck
/// process, scaled at each fix by that fix's accuracy. Errors of fixes `dt`
/// apart are correlated by `exp(−dt / τ)`, so the observed track wanders
/// smoothly instead of jumping independently at every fix.
struct PositionError {
  private var east = 0.0
  private var north = 0.0
  private var started = false

  /// Horizontal accuracy is read as the 68 % radius (Android's documented
  /// definition for `Location.getAccuracy`; Apple gives none). For a
  /// circular normal error, 68 % of fixes fall within 1.51 σ of the truth.
  static let accuracyPerSigma = 1.51

  /// The unit errors after `dt` more milliseconds (infinite at the first fix).
  mutating func advance(by dt: Double, correlationMilliseconds tau: Double, random: inout TrialRandom) -> (Double, Double) {
    let rho = started && tau > 0 && dt.isFinite ? exp(-dt / tau) : 0
    let fresh = (1 - rho * rho).squareRoot()
    east = rho * east + fresh * random.nextGaussian()
    north = rho * north + fresh * random.nextGaussian()
    started = true
    return (east, north)
  }

  /// `coordinate` moved `east` and `north` metres (a local flat-earth step,
  /// accurate to far better than the error itself at GPS scales).
  static func offset(_ coordinate: Coordinate, east: Double, north: Double) -> Coordinate {
    let metresPerDegreeLatitude = 111_320.0
    let cosine = max(cos(coordinate.latitude * .pi / 180), 1e-6)
    var latitude = coordinate.latitude + north / metresPerDegreeLatitude
    latitude = min(90, max(-90, latitude))
    var longitude = coordinate.longitude + east / (metresPerDegreeLatitude * cosine)
    if longitude > 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
    return Coordinate(latitude: latitude, longitude: longitude)
  }
}

/// Report latency: the fixed `latency` in a deterministic run; in a trial a
/// log-normal draw whose median is `latency` and whose log has standard
/// deviation `latencySpread`.
struct LatencySampler {
  let median: Int64
  let spread: Double
  var random: TrialRandom?

  init(rules: RegionMonitoringRules, random: TrialRandom?) {
    median = rules.latency.milliseconds
    spread = rules.latencySpread
    self.random = random
  }

  mutating func next() -> Int64 {
    guard random != nil, median > 0, spread > 0 else { return median }
    return Int64((Double(median) * exp(spread * random!.nextGaussian())).rounded())
  }
}
