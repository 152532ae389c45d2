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
}
