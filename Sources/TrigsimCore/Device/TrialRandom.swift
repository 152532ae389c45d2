import Foundation

/// A seeded pseudo-random stream for trials: SplitMix64 (Steele, Lea and
/// Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014).
/// The same seed gives the same stream on every machine; nothing else in
/// trigsim draws random numbers.
public struct TrialRandom: RandomNumberGenerator, Sendable {
  private var state: UInt64

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

  /// Standard normal, by the ziggurat method of Marsaglia and Tsang ("The
  /// Ziggurat Method for Generating Random Variables", Journal of Statistical
  /// Software 5(8), 2000), 128 layers. The layer index and the value come from
  /// different bits of one draw (Doornik, "An Improved Ziggurat Method", 2005,
  /// on the correlation when they share bits).
  ///
  /// Written here because neither the standard library nor swift-numerics
  /// draws normals; it replaced the polar Box–Muller method, whose logarithm
  /// and square root per pair were a tenth of a trial's time.
  @inline(__always)
  public mutating func nextGaussian() -> Double { nextGaussian(Ziggurat.shared) }

  /// `nextGaussian()` with the tables at hand (a caller drawing at every fix fetches them once).
  @inline(__always)
  mutating func nextGaussian(_ table: Ziggurat) -> Double {
    let bits = next()
    let layer = Int(bits & 0x7F)
    let value = Int32(truncatingIfNeeded: bits >> 32)
    if Int64(value).magnitude < table.k[layer] { return Double(value) * table.w[layer] }
    return gaussianSlowPath(value: value, layer: layer, table: table)
  }

  private mutating func gaussianSlowPath(value first: Int32, layer first_: Int, table: Ziggurat) -> Double {
    var value = first, layer = first_
    while true {
      let x = Double(value) * table.w[layer]
      if layer == 0 {
        // The tail beyond r, by Marsaglia's exponential method.
        var tail: Double, y: Double
        repeat {
          tail = -log(1 - nextUnit()) / Ziggurat.r
          y = -log(1 - nextUnit())
        } while y + y < tail * tail
        return value > 0 ? Ziggurat.r + tail : -Ziggurat.r - tail
      }
      if table.f[layer] + nextUnit() * (table.f[layer - 1] - table.f[layer]) < exp(-0.5 * x * x) { return x }
      let bits = next()
      layer = Int(bits & 0x7F)
      value = Int32(truncatingIfNeeded: bits >> 32)
      if Int64(value).magnitude < table.k[layer] { return Double(value) * table.w[layer] }
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

/// The ziggurat's layer tables for the standard normal (see `TrialRandom.nextGaussian`).
///
/// Held in fixed storage of 128 entries each, read without bounds checks: a
/// layer index is 7 bits of a draw, and trials draw two normals at every fix.
/// (`@unchecked Sendable`: the storage is written once, in `init`, and only read after.)
final class Ziggurat: @unchecked Sendable {
  /// The right edge of the base layer, and the area of each layer (128 layers).
  static let r = 3.442_619_855_899
  static let area = 9.912_563_035_262_17e-3
  static let shared = Ziggurat()

  /// Accept `value` in layer i at once when |value| < k[i].
  let k: UnsafePointer<UInt64>
  /// Scale from a 32-bit signed value to x in layer i.
  let w: UnsafePointer<Double>
  /// The density exp(−x²/2) at each layer's edge.
  let f: UnsafePointer<Double>

  private init() {
    let m = 2_147_483_648.0  // 2^31
    var k = [UInt64](repeating: 0, count: 128), w = [Double](repeating: 0, count: 128), f = [Double](repeating: 0, count: 128)
    var d = Self.r, t = Self.r
    let q = Self.area / exp(-0.5 * d * d)
    k[0] = UInt64((d / q) * m)
    k[1] = 0
    w[0] = q / m
    w[127] = d / m
    f[0] = 1
    f[127] = exp(-0.5 * d * d)
    for i in stride(from: 126, through: 1, by: -1) {
      d = (-2 * log(Self.area / d + exp(-0.5 * d * d))).squareRoot()
      k[i + 1] = UInt64((d / t) * m)
      t = d
      f[i] = exp(-0.5 * d * d)
      w[i] = d / m
    }
    self.k = Self.stored(k)
    self.w = Self.stored(w)
    self.f = Self.stored(f)
  }

  deinit {
    k.deallocate()
    w.deallocate()
    f.deallocate()
  }

  private static func stored<Element>(_ values: [Element]) -> UnsafePointer<Element> {
    let storage = UnsafeMutablePointer<Element>.allocate(capacity: values.count)
    storage.initialize(from: values, count: values.count)
    return UnsafePointer(storage)
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
  // Fixes are usually evenly spaced: the step's factors are kept for the last spacing.
  private var lastStep = (dt: -1.0, tau: -1.0, rho: 0.0, fresh: 1.0)
  // cos(latitude) for the flat-earth step, kept while the latitude moves less than 0.01°
  // (a relative change below 2e-4 of a few metres of error: well under a millimetre).
  private var cosineLatitude = (latitude: Double.nan, cosine: 1.0)

  /// Horizontal accuracy is read as the 68 % radius (Android's documented
  /// definition for `Location.getAccuracy`; Apple gives none). For a
  /// circular normal error, 68 % of fixes fall within 1.51 σ of the truth.
  static let accuracyPerSigma = 1.51

  /// The unit errors after `dt` more milliseconds (infinite at the first fix),
  /// drawn with `ziggurat`'s tables (handed in, not stored: the error is then
  /// a plain value, copied without reference counting).
  @inline(__always)
  mutating func advance(
    by dt: Double, correlationMilliseconds tau: Double, random: inout TrialRandom, ziggurat: Ziggurat = .shared
  ) -> (Double, Double) {
    if dt != lastStep.dt || tau != lastStep.tau {
      let rho = tau > 0 && dt.isFinite ? exp(-dt / tau) : 0
      lastStep = (dt, tau, rho, (1 - rho * rho).squareRoot())
    }
    let rho = started ? lastStep.rho : 0
    let fresh = started ? lastStep.fresh : 1
    east = rho * east + fresh * random.nextGaussian(ziggurat)
    north = rho * north + fresh * random.nextGaussian(ziggurat)
    started = true
    return (east, north)
  }

  /// `coordinate` moved `east` and `north` metres (a local flat-earth step,
  /// accurate to far better than the error itself at GPS scales).
  mutating func offset(_ coordinate: Coordinate, east: Double, north: Double) -> Coordinate {
    let metresPerDegreeLatitude = 111_320.0
    if !(abs(coordinate.latitude - cosineLatitude.latitude) < 0.01) {
      cosineLatitude = (coordinate.latitude, max(cos(coordinate.latitude * .pi / 180), 1e-6))
    }
    let cosine = cosineLatitude.cosine
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

  /// The longest latency drawn: 10^15 ms (about 31,700 years, past any
  /// run), so a far tail draw of a large median and spread (a year and 5 are
  /// allowed) is a latency that never arrives, not an Int64 overflow.
  static let longestLatency: Int64 = 1_000_000_000_000_000

  mutating func next() -> Int64 {
    guard random != nil, median > 0, spread > 0 else { return median }
    let drawn = (Double(median) * exp(spread * random!.nextGaussian())).rounded()
    return drawn < Double(Self.longestLatency) ? Int64(drawn) : Self.longestLatency
  }
}
