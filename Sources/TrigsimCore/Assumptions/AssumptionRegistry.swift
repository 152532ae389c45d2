/// Every setting whose default rests on no source or on conflicting ones,
/// in the order the assumption report and the manual list them
/// (the manual, "Assumptions"; a test checks that its table lists exactly these).
///
/// Adding an entry takes two steps:
/// 1. an `Assumption` in `entries` (its `id` is the setting's `platform:` key;
///    the scenario reader then records when a scenario states it), and
/// 2. `consult(.yourSetting)` in the engine (`SimulationRun`) at the decision
///    point where the reading could change what happens.
public enum AssumptionRegistry {
  public static let entries: [Assumption] = [
    Assumption(
      .powerOffCatchUp,
      question: "What becomes of calendar and interval deliveries that come due while the phone is off?",
      defaultReading: .init("none") { $0.attention.powerOffCatchUp = .never },
      alternatives: [
        .init("all") { $0.attention.powerOffCatchUp = .all },
        .init("recent 15m") { $0.attention.powerOffCatchUp = .recent(.minutes(15)) },
      ],
      sources: [
        "flutter_local_notifications #1696 and #2263 (all delivered at power-on; maintainer: native behaviour)",
        "skillify.blogspot.com, 2015, iOS 8.3 (only those less than 15 minutes late)",
        "zo0r/react-native-push-notification #469 (none delivered)",
      ],
      whyDefault: "the reports conflict and Apple documents nothing; 'none' is the only reading under which no dose is reported notified that a real phone could have lost"),
    Assumption(
      .locationAlreadyInside,
      question: "Does a location request whose region the device is already inside when it starts monitoring (the request's add, or the first fix) report an entry?",
      defaultReading: .init("silent") { $0.locationAlreadyInside = .silent },
      alternatives: [.init("entered") { $0.locationAlreadyInside = .entered }],
      sources: [
        "Apple, archived Location and Maps Programming Guide, \"Region Monitoring\" (no entry event for a device already inside a region when monitoring starts)",
        "Apple, UNLocationNotificationTrigger (silent on a device already inside)",
        "Android, developer.android.com \"Create and monitor geofences\" (INITIAL_TRIGGER_ENTER: the other platform reports it)",
      ],
      whyDefault: "Core Location reports no entry; nothing documents the notification trigger differently, and 'silent' never reports a dose the phone could have lost"),
    Assumption(
      .forceQuitLocation,
      question: "Does the system launch a force-quit app for its own region events and significant-change updates?",
      defaultReading: .init("not-launched") { $0.forceQuitLocationLaunch = .notLaunched },
      alternatives: [.init("launched") { $0.forceQuitLocationLaunch = .launched }],
      sources: ["Apple Developer Forums thread 826964 (iOS 26: not launched; iOS 18 and earlier: launched)"],
      whyDefault: "the one report says current iOS does not; an app that posts from its region callback then reminds no one"),
    Assumption(
      .catchUpPresentation,
      question: "Do the deliveries a phone catches up on when it comes on alert, or are they listed silently?",
      defaultReading: .init("listed") { $0.attention.catchUpPresentation = .listed },
      alternatives: [.init("alert") { $0.attention.catchUpPresentation = .alert }],
      sources: [
        "MaikuB/flutter_local_notifications #1696 and #2263 (they arrive at power-on; nothing about sound)",
        "no source describes a burst of alerts at boot",
      ],
      whyDefault: "no source says they alert, and a silent listing is seen at the patient's next look, never earlier than an alert"),
    Assumption(
      .focusSilencedOnLockScreen,
      question: "Does a look at the phone during a Focus show the notifications that Focus silenced?",
      defaultReading: .init("hidden") { $0.attention.focusSilencedOnLockScreen = .hidden },
      alternatives: [.init("shown") { $0.attention.focusSilencedOnLockScreen = .shown }],
      sources: [
        "Apple Support, Focus options \"Show On Lock Screen\" and \"Dim Lock Screen\" (what each Focus starts with is not documented)",
        "invertase/notifee #840 (silenced reminders listed in Notification Center under the Focus)",
      ],
      whyDefault: "seeing them would take opening Notification Center; 'hidden' never reports a dose seen that a patient could have missed"),
    Assumption(
      .priority5Alerts,
      question: "What does the push service do with an alert push of apns-priority 5 or 1?",
      defaultReading: .init("dropped") { $0.attention.priority5Alerts = .dropped },
      alternatives: [.init("delayed 1h") { $0.attention.priority5Alerts = .delayed(.hours(1)) }, .init("at-once") { $0.attention.priority5Alerts = .atOnce }],
      sources: [
        "Apple, \"Sending notification requests to APNs\" (priority 5 and 1: sent based on power considerations, grouped and delivered in bursts, throttled, in some cases not delivered)"
      ],
      whyDefault: "Apple says such a push may never arrive and publishes no delay, so no dose may rely on one"),
    Assumption(
      .storedPush,
      question: "Which push does the push service keep of several sent while the device is unreachable?",
      defaultReading: .init("latest") { $0.attention.storedPush = .latest },
      alternatives: [.init("earliest") { $0.attention.storedPush = .earliest }],
      sources: [
        "Apple, \"Sending notification requests to APNs\" (in most cases the latest; not guaranteed)",
        "Apple DTS, Apple Developer Forums thread 775455 (chosen non-deterministically)",
      ],
      whyDefault: "the latest is Apple's documented 'most cases'; every such choice is marked uncertain in the timeline, and trials draw it"),
    Assumption(
      .focusResumes,
      question: "When a Focus replaces another and then ends, does the earlier Focus come back?",
      defaultReading: .init("yes") { $0.attention.focusResumes = .resumes },
      alternatives: [.init("no") { $0.attention.focusResumes = .doesNotResume }],
      sources: ["Apple Support, \"Allow or silence notifications for a Focus\" (one Focus at a time; nothing on resuming)"],
      whyDefault: "undocumented; resuming holds more notifications back"),
    Assumption(
      .focusTimeSensitiveDefault,
      question: "Is the \"Time Sensitive Notifications\" switch of a Focus that the scenario does not describe on or off?",
      defaultReading: .init("silenced") { $0.attention.focusTimeSensitiveDefault = .silenced },
      alternatives: [.init("allowed") { $0.attention.focusTimeSensitiveDefault = .allowed }],
      sources: [
        "Apple engineer, Apple Developer Forums thread 690081, and invertase/notifee #840 (the switch exists; no default stated)"
      ],
      whyDefault: "Apple states no default; silenced holds more notifications back"),
    Assumption(
      .deliveryBeforeFirstUnlock,
      question: "Are calendar and interval deliveries (and the power-off catch-up) made between switch-on and the first unlock, or held until it?",
      defaultReading: .init("held") { $0.attention.deliveryBeforeFirstUnlock = .held },
      alternatives: [.init("delivered") { $0.attention.deliveryBeforeFirstUnlock = .delivered }],
      sources: [
        "nothing documents it for local notifications",
        "Apple, \"Monitoring the user's proximity to geographic regions\", and twocanoes, \"iOS Region Monitoring after iPhone Restart\" (region monitoring waits for the first unlock)",
        "element-hq/element-x-ios PR 5054, vector-im/element-ios PR 3353 (notification service extensions have no data before the first unlock)",
      ],
      whyDefault: "undocumented; the neighbouring rules wait for the first unlock, and holding never reports a dose reached earlier than a phone could"),
    Assumption(
      .lowPowerRegionMonitoring,
      question: "Does region monitoring go on while Low Power Mode is on?",
      defaultReading: .init("paused") { $0.attention.lowPowerRegionMonitoring = .paused },
      alternatives: [.init("unaffected") { $0.attention.lowPowerRegionMonitoring = .unaffected }],
      sources: [
        "Apple, Energy Efficiency Guide for iOS Apps, \"React to Low Power Mode\" (Low Power Mode turns Background App Refresh off)",
        "Apple, archived Location and Maps Programming Guide, \"Determining the Availability of Region Monitoring\" (unavailable when Background App Refresh is disabled; the system-delivered location trigger is not mentioned)",
      ],
      whyDefault: "the guide ties region monitoring to Background App Refresh, which Low Power Mode turns off; paused never reports an arrival a phone could miss"),
    Assumption(
      .locationLatency,
      question: "How long after the device's condition holds (margin and dwell) does an iOS region event reach the app?",
      defaultReading: .init("1m") { $0.setRegionMonitoringRules { $0.latency = .minutes(1) } },
      alternatives: [.init("10s") { $0.setRegionMonitoringRules { $0.latency = .seconds(10) } }],
      sources: [
        "Apple, CLLocationManager.startMonitoring(for:) (\"within 3 to 5 minutes on average, if not sooner\")",
        "Radius Networks, \"Geofence Performance Testing on iOS\", 2015 (both apps triggered nearly every time within 30 seconds)",
      ],
      whyDefault: "Apple's documented average is the stronger evidence: with 1 minute the calibration probe of an hour in a 100 m circle is notified at a mean of about 4½ minutes (the manual, \"Calibration\"); the field test's 30 seconds is the alternative"),
    Assumption(
      .locationBackgroundAccuracy,
      question: "How accurate, in metres, are the positions iOS region monitoring learns while the app is not in the foreground (Wi-Fi and cell)?",
      defaultReading: .init("50") { $0.setRegionMonitoringRules { $0.backgroundAccuracy = 50 } },
      alternatives: [
        .init("65") { $0.setRegionMonitoringRules { $0.backgroundAccuracy = 65 } },
        .init("20") { $0.setRegionMonitoringRules { $0.backgroundAccuracy = 20 } },
      ],
      sources: [
        "Apple documents no figure",
        "Android Developers, \"Create and monitor geofences\" (Wi-Fi accuracy usually 20 to 50 m; \"assume that Wi-Fi location accuracy is about 50 meters\")",
        "Zandbergen, \"Accuracy of iPhone Locations\", Transactions in GIS 13(s1), 2009 (iPhone 3G Wi-Fi positions: median error 74 m)",
        "transistorsoft/flutter_background_geolocation #399, #510 (iOS reports its Wi-Fi fixes at ±65 m)",
      ],
      whyDefault: "Apple documents no figure; Google's operating figure for the same Wi-Fi positioning is 50 m, and with it the calibration probe reproduces Apple's 3 to 5 minutes; iOS's own reported ±65 m and the better end of Google's range are the alternatives"),
  ]

  /// The entry for `id`, if the registry has one.
  public static func entry(_ id: AssumptionID) -> Assumption? { entries.first { $0.id == id } }

  /// `ids` in registry order (unknown ones left out).
  public static func inRegistryOrder(_ ids: some Sequence<AssumptionID>) -> [AssumptionID] {
    let set = Set(ids)
    return entries.map(\.id).filter { set.contains($0) }
  }
}

extension AssumptionID {
  /// `platform.powerOffCatchUp` (`AttentionRules.powerOffCatchUp`).
  public static let powerOffCatchUp = AssumptionID("powerOffCatchUp")
  /// `platform.locationAlreadyInside` (`PlatformSettings.locationAlreadyInside`).
  public static let locationAlreadyInside = AssumptionID("locationAlreadyInside")
  /// `platform.forceQuitLocation` (`PlatformSettings.forceQuitLocationLaunch`).
  public static let forceQuitLocation = AssumptionID("forceQuitLocation")
  /// `platform.catchUpPresentation` (`AttentionRules.catchUpPresentation`).
  public static let catchUpPresentation = AssumptionID("catchUpPresentation")
  /// `platform.focusSilencedOnLockScreen` (`AttentionRules.focusSilencedOnLockScreen`).
  public static let focusSilencedOnLockScreen = AssumptionID("focusSilencedOnLockScreen")
  /// `platform.priority5Alerts` (`AttentionRules.priority5Alerts`).
  public static let priority5Alerts = AssumptionID("priority5Alerts")
  /// `platform.storedPush` (`AttentionRules.storedPush`).
  public static let storedPush = AssumptionID("storedPush")
  /// `platform.focusResumes` (`AttentionRules.focusResumes`).
  public static let focusResumes = AssumptionID("focusResumes")
  /// `platform.focusTimeSensitiveDefault` (`AttentionRules.focusTimeSensitiveDefault`).
  public static let focusTimeSensitiveDefault = AssumptionID("focusTimeSensitiveDefault")
  /// `platform.deliveryBeforeFirstUnlock` (`AttentionRules.deliveryBeforeFirstUnlock`).
  public static let deliveryBeforeFirstUnlock = AssumptionID("deliveryBeforeFirstUnlock")
  /// `platform.lowPowerRegionMonitoring` (`AttentionRules.lowPowerRegionMonitoring`).
  public static let lowPowerRegionMonitoring = AssumptionID("lowPowerRegionMonitoring")
  /// `platform.location.latency` (`RegionMonitoringRules.latency`).
  public static let locationLatency = AssumptionID("location.latency")
  /// `platform.location.backgroundAccuracy` (`RegionMonitoringRules.backgroundAccuracy`).
  public static let locationBackgroundAccuracy = AssumptionID("location.backgroundAccuracy")
}
