/// A phone maker's own background killer, on top of stock Android: Xiaomi
/// (MIUI battery saver, autostart), Samsung ("Sleeping apps", Device care),
/// Huawei (PowerGenie) and others stop apps in the background, and their
/// alarms and receivers with them, unless the patient exempts the app
/// (dontkillmyapp.com, cited by invertase/react-native-notifee #126;
/// BlackyHawky/Clock #388 and #394 on Xiaomi; zo0r/react-native-push-notification
/// #1574 on Samsung).
///
/// Killing is modelled as the pessimistic reading, a force stop: the app's
/// alarms are gone and nothing reaches it until the patient opens it again.
/// Samsung documents its two stages (developer.samsung.com, "Samsung
/// Application Management"): an app unused for about 3 days is put to sleep
/// (the restricted App Standby bucket: jobs and alarms restricted) and one
/// unused for 16 days to deep sleep (it runs only while the patient has it
/// open). The other makers publish no figure: `aggressive`'s `after` is a proposal.
public struct OEMBackgroundKiller: Sendable, Equatable {
  /// Which preset the phone has.
  public var preset = OEMKillerPreset.none
  /// How long the app may stay out of the foreground before it is stopped
  /// (`aggressive`: 10 minutes, a proposal; dontkillmyapp.com's reports speak
  /// of "a few minutes" with the screen off; `samsung`: 16 days, deep sleep).
  public var after: SimulationDuration = .minutes(10)
  /// How long the app may stay out of the foreground before the maker puts it
  /// in the restricted standby bucket (`samsung`: 3 days, "sleeping apps");
  /// nil: never.
  public var sleepAfter: SimulationDuration?
  /// Whether the patient exempted the app (autostart allowed, battery
  /// optimisation off, "Never sleeping apps"): then the killer leaves it alone.
  public var exempt = false

  public init() {}

  /// The preset's own settings: `aggressive` stops the app 10 minutes out of
  /// the foreground; `samsung` puts it to sleep after 3 days and to deep sleep after 16.
  public static func preset(_ preset: OEMKillerPreset) -> OEMBackgroundKiller {
    var killer = OEMBackgroundKiller()
    killer.preset = preset
    if preset == .samsung {
      killer.after = .hours(16 * 24)
      killer.sleepAfter = .hours(3 * 24)
    }
    return killer
  }

  /// `oem-killer=aggressive oem-kill-after=10m oem-exempt=no`, for the header
  /// (`oem-sleep-after=3d` when the maker puts apps to sleep).
  public var summary: String {
    "oem-killer=\(preset.rawValue) oem-kill-after=\(after) oem-exempt=\(exempt ? "yes" : "no")"
      + (sleepAfter.map { " oem-sleep-after=\($0)" } ?? "")
  }

  /// Why the app stopped, for the timeline.
  public var killReason: String {
    if preset == .samsung {
      return "not opened for \(after): the phone maker put the app into deep sleep; its alarms are gone and it runs only when the patient opens it (developer.samsung.com, \"Samsung Application Management\")"
    }
    return "the phone maker's background killer stopped the app after \(after) out of the foreground: its alarms are gone and nothing reaches it until the patient opens it (dontkillmyapp.com)"
  }

  /// Whether this killer stops the app.
  public var kills: Bool { preset != .none && !exempt }

  /// The spans in which the maker keeps the app asleep (in the restricted
  /// bucket): from `sleepAfter` after it left the foreground (or the run's
  /// start, when it starts out of it) until the patient opens it again.
  /// - Parameters:
  ///   - start: the run's start (the app counts as last used then, when it starts out of the foreground).
  ///   - end: the run's end (the last span ends there).
  ///   - foreground: the app's spans in the foreground, in time order.
  public func sleepingSpans(start: SimulationInstant, end: SimulationInstant, foreground: [Range<SimulationInstant>]) -> [Range<SimulationInstant>] {
    guard kills, let sleepAfter else { return [] }
    var spans: [Range<SimulationInstant>] = []
    var outSince: SimulationInstant? = start
    for span in foreground {
      if let since = outSince, since < span.lowerBound {
        let asleep = since.advanced(by: sleepAfter)
        if asleep < span.lowerBound { spans.append(asleep..<span.lowerBound) }
      }
      outSince = span.upperBound
    }
    if let since = outSince {
      let asleep = since.advanced(by: sleepAfter)
      if asleep < end { spans.append(asleep..<end) }
    }
    return spans
  }
}

/// The phone maker's background killing.
public enum OEMKillerPreset: String, Sendable, CaseIterable {
  /// Stock Android (Pixel, Android One): nothing beyond Doze and App Standby.
  case none
  /// Xiaomi, Huawei, OnePlus and others as dontkillmyapp.com ranks them: the
  /// app is stopped once it has been out of the foreground for `after`.
  case aggressive
  /// Samsung's documented app management: sleeping (restricted bucket) after
  /// 3 days unused, deep sleeping (stopped until opened) after 16.
  case samsung
}
