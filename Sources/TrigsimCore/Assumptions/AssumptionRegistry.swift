/// Every setting whose default rests on no source or on conflicting ones,
/// in the order the assumption report and the manual list them
/// (the manual, "Assumptions"; a test checks that its table lists exactly these).
///
/// Adding an entry takes two steps:
/// 1. an `Assumption` in `entries` (its `id` is the setting's key in the
///    mapping its `place` names, dotted when deeper;
///    the scenario reader then records when a scenario states it), and
/// 2. `run.layers.assumptionLog.consult(.yourSetting)` (`AssumptionLog`) at the
///    decision point where the reading could change what happens.
public enum AssumptionRegistry {
  public static let entries: [Assumption] = [
    Assumption(
      .powerOffCatchUp,
      question: "What becomes of calendar and interval deliveries that come due while the phone is off?",
      defaultReading: .platform("none") { $0.attention.powerOffCatchUp = .never },
      alternatives: [
        .platform("all") { $0.attention.powerOffCatchUp = .all },
        .platform("recent 15m") { $0.attention.powerOffCatchUp = .recent(.minutes(15)) },
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
      defaultReading: .platform("silent") { $0.locationAlreadyInside = .silent },
      alternatives: [.platform("entered") { $0.locationAlreadyInside = .entered }],
      sources: [
        "Apple, archived Location and Maps Programming Guide, \"Region Monitoring\" (no entry event for a device already inside a region when monitoring starts)",
        "Apple, UNLocationNotificationTrigger (silent on a device already inside)",
        "Android, developer.android.com \"Create and monitor geofences\" (INITIAL_TRIGGER_ENTER: the other platform reports it)",
      ],
      whyDefault: "Core Location reports no entry; nothing documents the notification trigger differently, and 'silent' never reports a dose the phone could have lost"),
    Assumption(
      .forceQuitLocation,
      question: "Does the system launch a force-quit app for its own region events and significant-change updates?",
      defaultReading: .platform("not-launched") { $0.forceQuitLocationLaunch = .notLaunched },
      alternatives: [.platform("launched") { $0.forceQuitLocationLaunch = .launched }],
      sources: ["Apple Developer Forums thread 826964 (iOS 26: not launched; iOS 18 and earlier: launched)"],
      whyDefault: "the one report says current iOS does not; an app that posts from its region callback then reminds no one"),
    Assumption(
      .catchUpPresentation,
      question: "Do the deliveries a phone catches up on when it comes on alert, or are they listed silently?",
      defaultReading: .platform("listed") { $0.attention.catchUpPresentation = .listed },
      alternatives: [.platform("alert") { $0.attention.catchUpPresentation = .alert }],
      sources: [
        "MaikuB/flutter_local_notifications #1696 and #2263 (they arrive at power-on; nothing about sound)",
        "no source describes a burst of alerts at boot",
      ],
      whyDefault: "no source says they alert, and a silent listing is seen at the patient's next look, never earlier than an alert"),
    Assumption(
      .focusSilencedOnLockScreen,
      question: "Does a look at the phone during a Focus show the notifications that Focus silenced?",
      defaultReading: .platform("hidden") { $0.attention.focusSilencedOnLockScreen = .hidden },
      alternatives: [.platform("shown") { $0.attention.focusSilencedOnLockScreen = .shown }],
      sources: [
        "Apple Support, Focus options \"Show On Lock Screen\" and \"Dim Lock Screen\" (what each Focus starts with is not documented)",
        "invertase/notifee #840 (silenced reminders listed in Notification Center under the Focus)",
      ],
      whyDefault: "seeing them would take opening Notification Center; 'hidden' never reports a dose seen that a patient could have missed"),
    Assumption(
      .priority5Alerts,
      question: "What does the push service do with an alert push of apns-priority 5 or 1?",
      defaultReading: .platform("dropped") { $0.attention.priority5Alerts = .dropped },
      alternatives: [.platform("delayed 1h") { $0.attention.priority5Alerts = .delayed(.hours(1)) }, .platform("at-once") { $0.attention.priority5Alerts = .atOnce }],
      sources: [
        "Apple, \"Sending notification requests to APNs\" (priority 5 and 1: sent based on power considerations, grouped and delivered in bursts, throttled, in some cases not delivered)"
      ],
      whyDefault: "Apple says such a push may never arrive and publishes no delay, so no dose may rely on one"),
    Assumption(
      .storedPush,
      question: "Which push does the push service keep of several sent while the device is unreachable?",
      defaultReading: .platform("latest") { $0.attention.storedPush = .latest },
      alternatives: [.platform("earliest") { $0.attention.storedPush = .earliest }],
      sources: [
        "Apple, \"Sending notification requests to APNs\" (in most cases the latest; not guaranteed)",
        "Apple DTS, Apple Developer Forums thread 775455 (chosen non-deterministically)",
      ],
      whyDefault: "the latest is Apple's documented 'most cases'; every such choice is marked uncertain in the timeline, and trials draw it"),
    Assumption(
      .focusResumes,
      question: "When a Focus replaces another and then ends, does the earlier Focus come back?",
      defaultReading: .platform("yes") { $0.attention.focusResumes = .resumes },
      alternatives: [.platform("no") { $0.attention.focusResumes = .doesNotResume }],
      sources: ["Apple Support, \"Allow or silence notifications for a Focus\" (one Focus at a time; nothing on resuming)"],
      whyDefault: "undocumented; resuming holds more notifications back"),
    Assumption(
      .focusTimeSensitiveDefault,
      question: "Is the \"Time Sensitive Notifications\" switch of a Focus that the scenario does not describe on or off?",
      defaultReading: .platform("silenced") { $0.attention.focusTimeSensitiveDefault = .silenced },
      alternatives: [.platform("allowed") { $0.attention.focusTimeSensitiveDefault = .allowed }],
      sources: [
        "Apple engineer, Apple Developer Forums thread 690081, and invertase/notifee #840 (the switch exists; no default stated)"
      ],
      whyDefault: "Apple states no default; silenced holds more notifications back"),
    Assumption(
      .deliveryBeforeFirstUnlock,
      question: "Are calendar and interval deliveries (and the power-off catch-up) made between switch-on and the first unlock, or held until it?",
      defaultReading: .platform("held") { $0.attention.deliveryBeforeFirstUnlock = .held },
      alternatives: [.platform("delivered") { $0.attention.deliveryBeforeFirstUnlock = .delivered }],
      sources: [
        "nothing documents it for local notifications",
        "Apple, \"Monitoring the user's proximity to geographic regions\", and twocanoes, \"iOS Region Monitoring after iPhone Restart\" (region monitoring waits for the first unlock)",
        "element-hq/element-x-ios PR 5054, vector-im/element-ios PR 3353 (notification service extensions have no data before the first unlock)",
      ],
      whyDefault: "undocumented; the neighbouring rules wait for the first unlock, and holding never reports a dose reached earlier than a phone could"),
    Assumption(
      .lowPowerRegionMonitoring,
      question: "Does region monitoring go on while Low Power Mode is on?",
      defaultReading: .platform("paused") { $0.attention.lowPowerRegionMonitoring = .paused },
      alternatives: [.platform("unaffected") { $0.attention.lowPowerRegionMonitoring = .unaffected }],
      sources: [
        "Apple, Energy Efficiency Guide for iOS Apps, \"React to Low Power Mode\" (Low Power Mode turns Background App Refresh off)",
        "Apple, archived Location and Maps Programming Guide, \"Determining the Availability of Region Monitoring\" (unavailable when Background App Refresh is disabled; the system-delivered location trigger is not mentioned)",
      ],
      whyDefault: "the guide ties region monitoring to Background App Refresh, which Low Power Mode turns off; paused never reports an arrival a phone could miss"),
    Assumption(
      .locationLatency,
      question: "How long after the device's condition holds (margin and dwell) does an iOS region event reach the app?",
      defaultReading: .platform("1m") { $0.setRegionMonitoringRules { $0.latency = .minutes(1) } },
      alternatives: [.platform("10s") { $0.setRegionMonitoringRules { $0.latency = .seconds(10) } }],
      sources: [
        "Apple, CLLocationManager.startMonitoring(for:) (\"within 3 to 5 minutes on average, if not sooner\")",
        "Radius Networks, \"Geofence Performance Testing on iOS\", 2015 (both apps triggered nearly every time within 30 seconds)",
      ],
      whyDefault: "Apple's documented average is the stronger evidence: with 1 minute the calibration probe of an hour in a 100 m circle is notified at a mean of about 4½ minutes (the manual, \"Calibration\"); the field test's 30 seconds is the alternative"),
    Assumption(
      .locationBackgroundAccuracy,
      question: "How accurate, in metres, are the positions iOS region monitoring learns while the app is not in the foreground (Wi-Fi and cell)?",
      defaultReading: .platform("50") { $0.setRegionMonitoringRules { $0.backgroundAccuracy = 50 } },
      alternatives: [
        .platform("65") { $0.setRegionMonitoringRules { $0.backgroundAccuracy = 65 } },
        .platform("20") { $0.setRegionMonitoringRules { $0.backgroundAccuracy = 20 } },
      ],
      sources: [
        "Apple documents no figure",
        "Android Developers, \"Create and monitor geofences\" (Wi-Fi accuracy usually 20 to 50 m; \"assume that Wi-Fi location accuracy is about 50 meters\")",
        "Zandbergen, \"Accuracy of iPhone Locations\", Transactions in GIS 13(s1), 2009 (iPhone 3G Wi-Fi positions: median error 74 m)",
        "transistorsoft/flutter_background_geolocation #399, #510 (iOS reports its Wi-Fi fixes at ±65 m)",
      ],
      whyDefault: "Apple documents no figure; Google's operating figure for the same Wi-Fi positioning is 50 m, and with it the calibration probe reproduces Apple's 3 to 5 minutes; iOS's own reported ±65 m and the better end of Google's range are the alternatives"),
    // MARK: Android (`platform: android:`)
    Assumption(
      .exactWhileIdleQuota, place: ["platform", "android"],
      question: "How many exact while-idle alarms (setExactAndAllowWhileIdle) may an app fire in Doze on Android 12 and later?",
      defaultReading: .android("72/h") { $0.alarms.exactWhileIdleReading = .perHour72 },
      alternatives: [
        .android("1/9m") { $0.alarms.exactWhileIdleReading = .oneIn9Minutes },
        .android("1/15m") { $0.alarms.exactWhileIdleReading = .oneIn15Minutes },
      ],
      sources: [
        "developer.android.com/topic/performance/power/power-details (Doze row: exact while-idle alarms limited to 72 per hour)",
        "AOSP AlarmManagerService, Android 12 and later (allow_while_idle_quota 72 in a one-hour window; 1 per 9 minutes only as the compat quota)",
        "developer.android.com/training/monitoring-device-state/doze-standby (once per nine minutes, the Android 6-11 text)",
        "developer.android.com/develop/background-work/services/alarms (a rate limit \"such as 15 minutes\")",
      ],
      whyDefault: "the power-details table is the current page that states the limit, and AOSP's Android 12 constants agree with it; up to Android 11 the nine minutes are documented and not an assumption"),
    Assumption(
      .inexactTiming, place: ["platform", "android"],
      question: "Where in its allowed window does an inexact or window alarm fire in a single run?",
      defaultReading: .android("latest") { $0.alarms.inexactTiming = .latest },
      alternatives: [.android("earliest") { $0.alarms.inexactTiming = .earliest }],
      sources: [
        "developer.android.com/develop/background-work/services/alarms (an inexact alarm fires within an hour after its trigger time on Android 12 and later: only the bound)",
        "AlarmManager.setWindow reference (within the window; no position stated)",
      ],
      whyDefault: "the pages give only the bound; the window's end never reports a reminder earlier than a phone could deliver it (trials draw the position uniformly)"),
    Assumption(
      .bucketLimits, place: ["platform", "android"],
      question: "Do the standby buckets' alarm limits apply on Android 13 and later?",
      defaultReading: .android("all-versions") { $0.alarms.bucketLimitScope = .allVersions },
      alternatives: [.android("before-android-13") { $0.alarms.bucketLimitScope = .beforeAndroid13 }],
      sources: [
        "developer.android.com/topic/performance/power/power-details (the bucket rows are headed \"Prior to Android 13\"; no alarm limits are stated after)",
        "AOSP AlarmManagerService (per-bucket alarm quotas still kept on Android 13 and later)",
      ],
      whyDefault: "the table is silent after Android 13 while AOSP keeps the quotas; applying them never reports an alarm on time that a phone could hold back"),
    // MARK: FCM (`platform: android: fcm:`)
    Assumption(
      .normalPriorityInDoze, place: ["platform", "android", "fcm"],
      question: "Until when does FCM hold a normal-priority message that reaches a dozing phone?",
      defaultReading: .android("doze-end") { $0.fcm.normalPriorityInDoze = .dozeEnd },
      alternatives: [.android("maintenance-window") { $0.fcm.normalPriorityInDoze = .maintenanceWindow }],
      sources: [
        "Firebase, \"Set and manage Android message priority\" (delivery may be delayed until the device exits Doze)",
        "developer.android.com/topic/performance/power/power-details (FCM column: normal priority deferred to a maintenance window)",
      ],
      whyDefault: "the two Google pages disagree; Firebase's own page is the service's documentation, and it is also the later release"),
    Assumption(
      .storedCollapseKeysKept, place: ["platform", "android", "fcm"],
      question: "Which collapse keys does FCM keep when a fifth arrives for an unreachable phone?",
      defaultReading: .android("oldest") { $0.fcm.collapseKeysKept = .oldest },
      alternatives: [.android("newest") { $0.fcm.collapseKeysKept = .newest }],
      sources: ["Firebase, \"Non-collapsible and collapsible messages\" (at most four collapse keys, with no guarantees about which are kept)"],
      whyDefault: "Firebase guarantees nothing; the newest message is about the nearest dose, so losing it is the reading under which no reminder is reported that a phone could lose; every such choice is marked uncertain in the timeline, and trials draw it"),
    // MARK: The server (`server:`)
    Assumption(
      .pushUnregisteredAfter, place: ["server"],
      question: "How long after an app is deleted does the push service keep accepting pushes to its token?",
      defaultReading: .server("14d") { $0.push.unregisteredAfter = .hours(14 * 24) },
      alternatives: [.server("24h") { $0.push.unregisteredAfter = .hours(24) }],
      sources: [
        "jchambers/pushy #824 (accepted two weeks after an uninstall)",
        "sideshow/apns2 #77 (24 hours)",
        "jchambers/pushy #1029 (\"no guarantees as to if or when\")",
        "Apple and Firebase state no span",
      ],
      whyDefault: "the reports disagree and neither service documents a span; the longest keeps the server believing a device took the push, so its push-failed steps wait longest"),
    Assumption(
      .smsLatency, place: ["server"],
      question: "How long does a text take from the server to the patient's phone in a single run?",
      defaultReading: .server("30s") { $0.sms.latency = .seconds(30) },
      alternatives: [.server("5s") { $0.sms.latency = .seconds(5) }, .server("5m") { $0.sms.latency = .minutes(5) }],
      sources: [
        "SMS vendors (\"a few seconds\"; no published distribution)",
        "CLX/Sinch, \"SMS and its Need for Speed\" (transactional SMS expected \"within minutes\")",
      ],
      whyDefault: "the vendors' figure is seconds and 30 s is its late end; \"within minutes\" is an expectation, not a measurement"),
    Assumption(
      .smsCarrierStorage, place: ["server"],
      question: "How long does the carrier keep a text for a phone that cannot receive it?",
      defaultReading: .server("24h") { $0.sms.carrierStorage = .hours(24) },
      alternatives: [.server("72h") { $0.sms.carrierStorage = .hours(72) }],
      sources: [
        "3GPP TS 23.040 (TP-Validity-Period: set by the sender or the operator)",
        "seven.io and ip1sms (operators' defaults of 24 to 72 hours)",
      ],
      whyDefault: "the operators' defaults range from 24 to 72 hours; the shortest loses the most texts"),
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
  /// `platform.android.exactWhileIdleQuota` (`AndroidAlarmRules.exactWhileIdleReading`).
  public static let exactWhileIdleQuota = AssumptionID("exactWhileIdleQuota")
  /// `platform.android.inexactTiming` (`AndroidAlarmRules.inexactTiming`).
  public static let inexactTiming = AssumptionID("inexactTiming")
  /// `platform.android.bucketLimits` (`AndroidAlarmRules.bucketLimitScope`).
  public static let bucketLimits = AssumptionID("bucketLimits")
  /// `platform.android.fcm.normalPriorityInDoze` (`FCMRules.normalPriorityInDoze`).
  public static let normalPriorityInDoze = AssumptionID("normalPriorityInDoze")
  /// `platform.android.fcm.storedCollapseKeysKept` (`FCMRules.collapseKeysKept`).
  public static let storedCollapseKeysKept = AssumptionID("storedCollapseKeysKept")
  /// `server.push.unregisteredAfter` (`PushChannelModel.unregisteredAfter`).
  public static let pushUnregisteredAfter = AssumptionID("push.unregisteredAfter")
  /// `server.sms.latency` (`SMSChannelModel.latency`).
  public static let smsLatency = AssumptionID("sms.latency")
  /// `server.sms.carrierStorage` (`SMSChannelModel.carrierStorage`).
  public static let smsCarrierStorage = AssumptionID("sms.carrierStorage")
  /// `platform.location.latency` (`RegionMonitoringRules.latency`).
  public static let locationLatency = AssumptionID("location.latency")
  /// `platform.location.backgroundAccuracy` (`RegionMonitoringRules.backgroundAccuracy`).
  public static let locationBackgroundAccuracy = AssumptionID("location.backgroundAccuracy")
}
