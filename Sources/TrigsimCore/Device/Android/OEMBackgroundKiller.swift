/// A phone maker's own background killer, on top of stock Android: Xiaomi
/// (MIUI battery saver, autostart), Samsung ("Sleeping apps", Device care),
/// Huawei (PowerGenie) and others stop apps in the background, and their
/// alarms and receivers with them, unless the patient exempts the app
/// (dontkillmyapp.com, cited by invertase/react-native-notifee #126;
/// BlackyHawky/Clock #388 and #394 on Xiaomi; zo0r/react-native-push-notification
/// #1574 on Samsung). No maker publishes when it kills: `after` is a
/// proposal, and the killing is modelled as the pessimistic reading, a force
/// stop (the app's alarms are gone and nothing reaches it until the patient
/// opens it again).
public struct OEMBackgroundKiller: Sendable, Equatable {
  /// Which preset the phone has.
  public var preset = OEMKillerPreset.none
  /// How long the app may stay out of the foreground before it is killed
  /// (10 minutes: a proposal; dontkillmyapp.com's reports speak of "a few
  /// minutes" with the screen off).
  public var after: SimulationDuration = .minutes(10)
  /// Whether the patient exempted the app (autostart allowed, battery
  /// optimisation off, "Never sleeping apps"): then the killer leaves it alone.
  public var exempt = false

  public init() {}

  /// `oem-killer=aggressive oem-kill-after=10m oem-exempt=no`, for the header.
  public var summary: String {
    "oem-killer=\(preset.rawValue) oem-kill-after=\(after) oem-exempt=\(exempt ? "yes" : "no")"
  }

  /// Whether this killer stops the app.
  public var kills: Bool { preset != .none && !exempt }
}

/// The phone maker's background killing.
public enum OEMKillerPreset: String, Sendable, CaseIterable {
  /// Stock Android (Pixel, Android One): nothing beyond Doze and App Standby.
  case none
  /// Xiaomi, Samsung, Huawei, OnePlus and others as dontkillmyapp.com ranks
  /// them: the app is stopped once it has been out of the foreground for `after`.
  case aggressive
}
