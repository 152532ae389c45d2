/// How the device turns the path it travels into the region events the
/// platform reports: the `platform.location` setting of a scenario.
///
/// The geometry (the `enter` and `exit` entries) is always exact: it is the
/// truth of where the patient was. The profile decides what the device
/// *detects*, and only detections deliver location requests.
public enum LocationProfile: Sendable, Equatable {
  /// Every geometric crossing is detected at its own instant: no hysteresis,
  /// dwell, latency or accuracy. What the ideal phone would do.
  case ideal
  /// iOS region monitoring: a minimum effective radius, hysteresis (a margin
  /// past the boundary held for a dwell time), fix accuracy, coarse updates
  /// while the app is not in the foreground, and delivery latency.
  case ios(RegionMonitoringRules)

  /// The fixed names the scenario and QA scripts use.
  public var name: String {
    switch self {
    case .ideal: "ideal"
    case .ios: "ios"
    }
  }

  /// `location=ideal`, or `location=ios` followed by every rule, for the timeline header.
  public var summary: String {
    switch self {
    case .ideal: "location=ideal"
    case .ios(let rules): "location=ios \(rules.summary)"
    }
  }

  /// The location service this profile provides to a run.
  func makeService(regions: [MonitoredRegion], variation: DeviceVariation?) -> any LocationService {
    switch self {
    case .ideal: IdealLocationService()
    case .ios(let rules): RegionMonitoringService(rules: rules, regions: regions, variation: variation)
    }
  }
}

/// The parameters of the `ios` location profile. Each is documented in the
/// manual with its source; a scenario may override any of them under
/// `platform: { location: ios, ... }`.
public struct RegionMonitoringRules: Sendable, Equatable {
  /// Regions smaller than this behave as circles of this radius, metres
  /// (Home Assistant and OwnTracks reports: iOS monitors at least ~100 m).
  public var minimumRadius: Double = 100
  /// How far inside the (effective) boundary the device must be before an
  /// entry can be reported, metres.
  public var entryMargin: Double = 50
  /// How far outside the boundary the device must be before an exit can be reported, metres.
  public var exitMargin: Double = 50
  /// How long the device must stay past the margin, continuously, before the
  /// crossing is reported (Apple: "at least 20 seconds").
  public var dwell: SimulationDuration = .seconds(20)
  /// Delay between the moment the condition holds and the report, in a
  /// deterministic run; the median of the latency distribution in trials.
  /// No source gives it alone: 1 minute is fitted so that, with the other
  /// rules, the calibration probe of an hour in a 100 m circle is notified
  /// at a mean of about 4½ minutes, inside Apple's "3 to 5 minutes on
  /// average" (the manual, "Calibration"). A field test's 30 seconds is the
  /// registry's alternative (`location.latency`).
  public var latency: SimulationDuration = .minutes(1)
  /// Horizontal accuracy assumed for fixes whose file gives none, metres.
  public var assumedAccuracy: Double = 10
  /// The horizontal accuracy of the positions the device learns while the
  /// app is not in the foreground, metres: a detection judged at a background
  /// update uses the worse of the fix's accuracy and this one, and so does
  /// the GPS error drawn in trials. Background region monitoring locates the
  /// phone by Wi-Fi and cell towers, not GPS. Apple documents no figure;
  /// Google's geofencing guide: "assume that Wi-Fi location accuracy is
  /// about 50 meters". iOS reports its own Wi-Fi fixes at ±65 m
  /// (transistorsoft/flutter_background_geolocation #399, #510): an
  /// alternative in the assumption registry (`location.backgroundAccuracy`).
  public var backgroundAccuracy: Double = 50
  /// How often the device learns its position while the app is in the
  /// foreground; zero means continuously (the interpolated path).
  public var foregroundInterval: SimulationDuration = .zero
  /// How often the device learns its position while the app is in the
  /// background or terminated; zero means continuously.
  public var backgroundInterval: SimulationDuration = .seconds(60)
  /// Trials only: the spread of the latency distribution, the standard
  /// deviation of ln(latency) of a log-normal whose median is `latency`.
  public var latencySpread: Double = 0.5
  /// Trials only: the correlation time of GPS position error (an
  /// Ornstein–Uhlenbeck process per axis).
  public var errorCorrelation: SimulationDuration = .seconds(60)

  public init() {}

  /// Every rule in the zero setting: no minimum radius, margins, dwell,
  /// latency or accuracy, continuous updates. The property tests check that
  /// this reproduces the `ideal` profile for circles of positive radius (a
  /// 0 m circle is never entered: its radius is not larger than the margin).
  public static var exact: RegionMonitoringRules {
    var rules = RegionMonitoringRules()
    rules.minimumRadius = 0
    rules.entryMargin = 0
    rules.exitMargin = 0
    rules.dwell = .zero
    rules.latency = .zero
    rules.assumedAccuracy = 0
    rules.backgroundAccuracy = 0
    rules.foregroundInterval = .zero
    rules.backgroundInterval = .zero
    return rules
  }

  /// `min-radius=100m entry-margin=50m ...`; rules added later
  /// (`background-accuracy`) are printed only when they differ from the default.
  public var summary: String {
    func metres(_ value: Double) -> String {
      value == value.rounded() && abs(value) < 1e15 ? "\(Int64(value))m" : "\(value)m"
    }
    func interval(_ value: SimulationDuration) -> String { value == .zero ? "continuous" : value.description }
    return "min-radius=\(metres(minimumRadius)) entry-margin=\(metres(entryMargin)) exit-margin=\(metres(exitMargin)) "
      + "dwell=\(dwell) latency=\(latency) assumed-accuracy=\(metres(assumedAccuracy)) "
      + "foreground-updates=\(interval(foregroundInterval)) background-updates=\(interval(backgroundInterval))"
      + (backgroundAccuracy == RegionMonitoringRules().backgroundAccuracy ? "" : " background-accuracy=\(metres(backgroundAccuracy))")
  }

  /// The fix as the device uses it: while the app is not in the foreground
  /// its accuracy is at best `backgroundAccuracy`.
  func updated(_ fix: TrackSample, appInForeground: Bool) -> TrackSample {
    guard !appInForeground else { return fix }
    let accuracy = fix.horizontalAccuracy ?? assumedAccuracy
    guard accuracy < backgroundAccuracy else { return fix }
    var degraded = fix
    degraded.horizontalAccuracy = backgroundAccuracy
    return degraded
  }
}

/// What varies from one trial to the next on the device (see `TrialRunner`):
/// GPS error on every observed position, the phase of the coarse update
/// grid, and each report's latency. A deterministic run has none.
public struct DeviceVariation: Sendable {
  /// Offset of the background/foreground update grid, in milliseconds from the first fix.
  public var gridPhase: Int64
  /// The seed of this trial's random stream.
  public var seed: UInt64

  public init(gridPhase: Int64, seed: UInt64) {
    self.gridPhase = gridPhase
    self.seed = seed
  }
}
