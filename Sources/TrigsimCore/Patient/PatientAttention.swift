/// When the patient looks at the phone (the scenario's `patient:`).
///
/// An alert with sound or a banner is perceived when it arrives; a
/// notification listed without one (held by a Focus, in a Scheduled Summary,
/// delivered quietly to Notification Center, a silent catch-up after the
/// phone comes on) is perceived only at the patient's next look. With no
/// looks given, the patient never looks: the reading under which no dose is
/// reported as reached that a real patient could have missed.
///
/// Looks come from three places: scripted instants (`looks:`), every unlock
/// of the phone (`device: power: unlock`: unlocking is looking), and a daily
/// routine (`day:`): a look on waking, then pickups while awake, evenly
/// spaced in a single run and a Poisson process at the same rate in trials.
public struct PatientAttention: Sendable, Equatable {
  /// Scripted looks, in time order.
  public var looks: [ScriptedLook] = []
  /// The daily routine of looks, if any.
  public var day: DailyRoutine?

  public init(looks: [ScriptedLook] = [], day: DailyRoutine? = nil) {
    self.looks = looks
    self.day = day
  }

  /// No look at all: the default.
  public var isEmpty: Bool { looks.isEmpty && day == nil }
}

/// A look at the phone at a given instant.
public struct ScriptedLook: Sendable, Equatable {
  public var instant: SimulationInstant
  public var origin: InputLocation?

  public init(instant: SimulationInstant, origin: InputLocation? = nil) {
    self.instant = instant
    self.origin = origin
  }
}

/// A patient's day: awake from `wake` to `sleep` (device-local wall-clock
/// times, following the device's zone), looking at the phone on waking and
/// `pickupsPerDay` times while awake.
public struct DailyRoutine: Sendable, Equatable {
  public var wake: DailyTime
  public var sleep: DailyTime
  /// Looks per waking day, the look on waking included.
  public var pickupsPerDay: Int

  /// 76 pickups a day: dscout's 2016 "Mobile Touches" study logged 94 users'
  /// phones for five days, 76 sessions a day on average, the central of the
  /// published figures (the manual, "Calibration"): Deloitte's 2018 survey
  /// says 52 (self-reported, which Andrews et al., PLoS ONE 2015, found to
  /// be less than half of logged use), Andrews et al. logged about 85, and
  /// Asurion's 2019 survey says 96. A scenario about a patient who rarely
  /// looks states it (`day: { pickups: 30 }`).
  public static let defaultPickupsPerDay = 76

  public init(wake: DailyTime, sleep: DailyTime, pickupsPerDay: Int = DailyRoutine.defaultPickupsPerDay) {
    self.wake = wake
    self.sleep = sleep
    self.pickupsPerDay = pickupsPerDay
  }
}

/// Why the patient looked.
public enum LookCause: Sendable, Equatable, CustomStringConvertible {
  /// A scripted look (index into `PatientAttention.looks`).
  case scripted(Int)
  /// The patient unlocked the phone.
  case unlock
  /// The patient woke (the routine's first look of the day).
  case wake
  /// A pickup while awake.
  case pickup

  public var description: String {
    switch self {
    case .scripted: "scripted"
    case .unlock: "unlock"
    case .wake: "wake"
    case .pickup: "pickup"
    }
  }
}
