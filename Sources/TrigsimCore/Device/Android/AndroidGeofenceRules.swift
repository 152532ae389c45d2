import Foundation

/// A transition an Android geofence reports (`Geofence.GEOFENCE_TRANSITION_*`).
public enum GeofenceTransition: String, Sendable, CaseIterable {
  case enter, exit, dwell
}

/// What the app asked for one geofence (`Geofence.Builder`): which
/// transitions it wants, the loitering delay for DWELL, and the
/// notification responsiveness. The defaults are ENTER and EXIT, no
/// loitering delay (the rules' `loiteringDelay` then applies to DWELL) and
/// best-effort responsiveness (0).
public struct GeofenceOptions: Sendable, Equatable {
  /// `setTransitionTypes`: only these transitions are reported.
  public var transitions: Set<GeofenceTransition>
  /// `setLoiteringDelay`: how long the device must stay inside before DWELL; nil: the rules' default.
  public var loiteringDelay: SimulationDuration?
  /// `setNotificationResponsiveness`: latency the app accepts to save power (0: best effort).
  public var responsiveness: SimulationDuration

  public init(
    transitions: Set<GeofenceTransition> = [.enter, .exit], loiteringDelay: SimulationDuration? = nil,
    responsiveness: SimulationDuration = .zero
  ) {
    self.transitions = transitions
    self.loiteringDelay = loiteringDelay
    self.responsiveness = responsiveness
  }
}

/// The geofencing rules of the `android` profile (`GeofencingClient`,
/// Google Play services). Each is a named setting with its default and
/// source in the manual (`AndroidGeofencing.md`); a scenario overrides them
/// under `android: { geofencing: { ... } }`.
///
/// **The overlap rule.** Android reports an entry when enough of the fix's
/// accuracy circle lies inside the geofence circle and an exit when little
/// enough does: the fraction of the accuracy circle's area inside the
/// geofence (exact circle–circle intersection) must be at least
/// `enterOverlap` to enter and at most `exitOverlap` to exit, with
/// hysteresis between. A geofence whose radius is below `smallRadius` uses
/// `smallEnterOverlap` / `smallExitOverlap`.
public struct AndroidGeofenceRules: Sendable, Equatable {
  /// The most geofences an app may register per device user; past it
  /// `addGeofences` fails with `GEOFENCE_TOO_MANY_GEOFENCES` (geofencing guide).
  public var limit: Int = 100
  /// `GeofencingRequest.Builder.setInitialTrigger`: what a geofence added
  /// while the device is inside reports at once (ENTER) or after the
  /// loitering delay (DWELL). The default is the builder's documented
  /// default, `INITIAL_TRIGGER_ENTER | INITIAL_TRIGGER_DWELL`.
  public var initialTrigger: Set<GeofenceTransition> = [.enter, .dwell]
  /// The loitering delay used when the app asks for DWELL without setting
  /// one (Android has no default: the app must set it; 5 minutes is the
  /// guide's example).
  public var loiteringDelay: SimulationDuration = .minutes(5)
  /// The notification responsiveness used when the app sets none: 0, best effort (`Geofence.Builder`).
  public var responsiveness: SimulationDuration = .zero
  /// Latency of a transition while the app is not in the foreground, the
  /// median of the log-normal trials draw. The geofencing guide: "Usually
  /// the latency is less than 2 minutes"; "If Background Location Limits
  /// are in effect, the latency is about 2-3 minutes on average"; up to 6
  /// minutes for a device stationary a long time. 90 s (with `latencySpread`
  /// 0.5) is fitted so that the calibration probe of a walk into a 100 m
  /// geofence meets all three: median below 2 minutes, mean 2 to 3 minutes,
  /// 99th percentile below 6 (the manual, "Calibration"). A deterministic run uses this value.
  public var backgroundLatency: SimulationDuration = .seconds(90)
  /// Latency while the app is in the foreground: "tens of seconds" (battery
  /// page); 30 s, the centre of that reading.
  public var foregroundLatency: SimulationDuration = .seconds(30)
  /// Enter when at least this fraction of the accuracy circle is inside a geofence (large geofences).
  public var enterOverlap: Double = 0.85
  /// Exit when at most this fraction of the accuracy circle is inside a geofence (large geofences).
  public var exitOverlap: Double = 0.15
  /// The enter fraction for small geofences.
  public var smallEnterOverlap: Double = 0.75
  /// The exit fraction for small geofences.
  public var smallExitOverlap: Double = 0.25
  /// A geofence with a radius below this is small, metres. The guide
  /// recommends 100–150 m at least; below 100 m is small.
  public var smallRadius: Double = 100
  /// Horizontal accuracy assumed for fixes whose file gives none, metres.
  public var assumedAccuracy: Double = 10
  /// The accuracy of positions while the app is not in the foreground,
  /// metres: the geofencing guide's "assume that Wi-Fi location accuracy is about 50 meters".
  public var backgroundAccuracy: Double = 50
  /// Whether transitions while the app is not visible need the background
  /// location permission (`ACCESS_BACKGROUND_LOCATION`, "Allow all the time",
  /// Android 10+). The permission itself is app state; the engine consults this rule.
  public var backgroundLocationRequired: Bool = true
  /// Trials only: the standard deviation of ln(latency), a log-normal whose
  /// median is the latency: 0.5, fitted with `backgroundLatency` (above) to
  /// the guide's median, mean and six-minute figures.
  public var latencySpread: Double = 0.5
  /// Trials only: the correlation time of GPS position error (as for iOS).
  public var errorCorrelation: SimulationDuration = .seconds(60)

  public init() {}

  /// Every rule at zero: no latency, point fixes, overlap 50/50. The
  /// property tests check that this reports exactly the geometric crossings.
  public static var exact: AndroidGeofenceRules {
    var rules = AndroidGeofenceRules()
    rules.backgroundLatency = .zero
    rules.foregroundLatency = .zero
    rules.responsiveness = .zero
    rules.enterOverlap = 0.5
    rules.exitOverlap = 0.5
    rules.smallEnterOverlap = 0.5
    rules.smallExitOverlap = 0.5
    rules.assumedAccuracy = 0
    rules.backgroundAccuracy = 0
    return rules
  }

  /// The enter and exit fractions for a geofence of `radius` metres.
  public func overlaps(radius: Double) -> (enter: Double, exit: Double) {
    radius < smallRadius ? (smallEnterOverlap, smallExitOverlap) : (enterOverlap, exitOverlap)
  }

  /// The latency of a transition for the app's state, before responsiveness.
  public func latency(appInForeground: Bool) -> SimulationDuration {
    appInForeground ? foregroundLatency : backgroundLatency
  }

  /// Whether an app that has registered `count` geofences may add one more.
  public func admitsGeofence(registered count: Int) -> Bool { count < limit }

  /// `geofence-limit=100 initial-trigger=enter,dwell ...`, every rule, for the
  /// timeline header (rules added later are printed only when not default).
  public var summary: String {
    func metres(_ value: Double) -> String {
      value == value.rounded() && abs(value) < 1e15 ? "\(Int64(value))m" : "\(value)m"
    }
    func percent(_ value: Double) -> String {
      let p = value * 100
      return p == p.rounded() ? "\(Int64(p))%" : "\(p)%"
    }
    let trigger = GeofenceTransition.allCases.filter { initialTrigger.contains($0) }.map(\.rawValue)
    return "geofence-limit=\(limit) initial-trigger=\(trigger.isEmpty ? "none" : trigger.joined(separator: ",")) "
      + "loitering-delay=\(loiteringDelay) responsiveness=\(responsiveness) "
      + "background-latency=\(backgroundLatency) foreground-latency=\(foregroundLatency) "
      + "enter-overlap=\(percent(enterOverlap)) exit-overlap=\(percent(exitOverlap)) "
      + "small-enter-overlap=\(percent(smallEnterOverlap)) small-exit-overlap=\(percent(smallExitOverlap)) small-radius=\(metres(smallRadius)) "
      + "assumed-accuracy=\(metres(assumedAccuracy)) background-accuracy=\(metres(backgroundAccuracy)) "
      + "background-location=\(backgroundLocationRequired ? "required" : "not-required")"
  }
}

/// The geometry of the overlap rule: what fraction of an accuracy circle
/// lies inside a geofence circle, and the distances from the geofence's
/// centre at which that fraction reaches a threshold.
enum GeofenceOverlap {
  /// The area of the intersection of two circles of radii `r` and `R` whose centres are `d` apart (exact).
  static func intersectionArea(d: Double, r: Double, R: Double) -> Double {
    if r <= 0 || R <= 0 { return 0 }
    if d >= r + R { return 0 }
    if d <= abs(R - r) { return Double.pi * min(r, R) * min(r, R) }
    let alpha = acos(max(-1, min(1, (d * d + r * r - R * R) / (2 * d * r))))
    let beta = acos(max(-1, min(1, (d * d + R * R - r * r) / (2 * d * R))))
    let kite = 0.5 * ((-d + r + R) * (d + r - R) * (d - r + R) * (d + r + R)).squareRoot()
    return r * r * alpha + R * R * beta - kite
  }

  /// The fraction of an accuracy circle of radius `r`, centred `d` from the
  /// centre of a geofence of radius `R`, inside the geofence. A point fix
  /// (r = 0) is all inside or all outside (the boundary counts as inside).
  static func fraction(d: Double, accuracy r: Double, radius R: Double) -> Double {
    if r <= 0 { return d <= R ? 1 : 0 }
    return min(1, intersectionArea(d: d, r: r, R: R) / (Double.pi * r * r))
  }

  /// The largest distance from the geofence centre at which the fraction is
  /// at least `threshold` (the fraction falls as the distance grows); -1
  /// when not even a fix at the centre reaches it.
  static func enterDistance(threshold: Double, accuracy r: Double, radius R: Double) -> Double {
    if r <= 0 { return threshold <= 1 && threshold > 0 ? R : (threshold <= 0 ? .infinity : -1) }
    if threshold <= 0 { return .infinity }
    if fraction(d: 0, accuracy: r, radius: R) < threshold { return -1 }
    return boundary(accuracy: r, radius: R) { $0 >= threshold }.low
  }

  /// The smallest distance from the geofence centre at which the fraction is at most `threshold`.
  static func exitDistance(threshold: Double, accuracy r: Double, radius R: Double) -> Double {
    if r <= 0 { return threshold >= 0 && threshold < 1 ? R : (threshold >= 1 ? 0 : .infinity) }
    if threshold >= 1 || fraction(d: 0, accuracy: r, radius: R) <= threshold { return 0 }
    return boundary(accuracy: r, radius: R) { !($0 <= threshold) }.high
  }

  /// The distance in [0, r + R] where `holds(fraction)` stops holding, by
  /// bisection to a tenth of a millimetre: it holds at `low`, not at `high`.
  private static func boundary(accuracy r: Double, radius R: Double, holds: (Double) -> Bool) -> (low: Double, high: Double) {
    var low = 0.0, high = r + R
    for _ in 0..<80 where high - low > 1e-4 {
      let middle = (low + high) / 2
      if holds(fraction(d: middle, accuracy: r, radius: R)) { low = middle } else { high = middle }
    }
    return (low, high)
  }
}
