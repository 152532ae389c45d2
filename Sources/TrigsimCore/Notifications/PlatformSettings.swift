/// The platform rules a run uses. Every value is printed in the timeline
/// header, so a baseline records the rules it was produced under.
///
/// Defaults follow what current iOS versions were observed to do; see the
/// the manual's "Platform model" section for the sources.
public struct PlatformSettings: Sendable {
  /// Most pending requests the notification center keeps (iOS: 64).
  public var pendingLimit: Int = 64
  /// Which requests survive when an add goes over `pendingLimit`.
  public var retention: PendingRetentionPolicy = .lastAdded
  /// Most distinct regions that pending location triggers may monitor (iOS: 20).
  public var monitoredRegionLimit: Int = 20
  /// DST-gap rule for calendar triggers.
  public var dstGapPolicy: DSTGapPolicy = .nextTimePreservingSmallerComponents
  /// Repeated-hour rule for calendar triggers.
  public var repeatedTimePolicy: RepeatedTimeChoice = .first
  /// Rule for calendar dates no month has (31 June).
  public var impossibleDatePolicy: ImpossibleDatePolicy = .rollOver
  /// Longest span between two fixes over which the device path is
  /// interpolated; over it the position is unknown and no crossing is
  /// interpolated.
  public var trackGapLimit: SimulationDuration = .minutes(5)
  /// Whether an action on a notification reaches the app's handler while
  /// the app is terminated. The platform documents that it launches the app
  /// in the background; users report handlers that never ran.
  public var terminatedActions: TerminatedActionDelivery = .handled
  /// Whether the system launches a force-quit app for its own region events
  /// and significant-change updates (a team's app, `HostedApp`). Reports
  /// differ by iOS version; the default is the one under which no reminder
  /// is reported that a real phone could lose (the manual, "Your app in the loop").
  public var forceQuitLocationLaunch: ForceQuitLocationLaunch = .notLaunched
  /// How the device detects region crossings. The default is the realistic
  /// `ios` profile; `ideal` reports every geometric crossing at its instant.
  public var location: LocationProfile = .ios(RegionMonitoringRules())
  /// What the device does between a delivery and the patient: power-off
  /// catch-up, boot time, the push service's rules.
  public var attention = AttentionRules()
  /// The significant-change location service's rules (used by apps that
  /// monitor the nearest places of a set; printed in the header's `region set` line).
  public var significantChange = SignificantChangeRules()

  public init() {}

  /// The presenter of this platform: what becomes of a delivered notification.
  func makePresenter() -> any NotificationPresenter { IOSPresenter() }

  /// `pending-limit=64 retention=last-added …`, for the timeline header.
  public var summary: String {
    "pending-limit=\(pendingLimit) retention=\(retention.rawValue) region-limit=\(monitoredRegionLimit) "
      + "dst-gap=\(dstGapPolicy.rawValue) repeated-time=\(repeatedTimePolicy.rawValue) "
      + "impossible-date=\(impossibleDatePolicy.rawValue) gap-limit=\(trackGapLimit) terminated-actions=\(terminatedActions.rawValue) "
      // Printed only when set, so that headers made before the setting existed stay as they were.
      + (forceQuitLocationLaunch == .notLaunched ? "" : "force-quit-location=\(forceQuitLocationLaunch.rawValue) ")
      + location.summary
  }
}

/// Which pending requests the notification center keeps when an add would
/// exceed the pending limit. Every request dropped is reported in the timeline.
public enum PendingRetentionPolicy: String, Sendable, CaseIterable {
  /// Keep the most recently added requests: the oldest-added pending request
  /// is dropped (iOS 11.2 and later, and an iOS 18.5 probe).
  case lastAdded = "last-added"
  /// Keep the requests that deliver soonest: the one whose next delivery is
  /// latest is dropped; location requests (no delivery date) count as latest,
  /// and among equals the most recently added is dropped (the documented
  /// `UILocalNotification` rule, iOS 10).
  case soonest
}

/// What happens to a notification action while the app is terminated.
/// Whether a force-quit app is launched for its region events and
/// significant-change updates.
public enum ForceQuitLocationLaunch: String, Sendable, CaseIterable {
  /// Not launched: a developer report of iOS 26 (Apple Developer Forums
  /// thread 826964). The default.
  case notLaunched = "not-launched"
  /// Launched in the background, as the same report says iOS 18 and earlier did.
  case launched
}

public enum TerminatedActionDelivery: String, Sendable, CaseIterable {
  /// The system launches the app in the background and its handler runs (documented).
  case handled
  /// The handler never runs: the system removes the notification and the
  /// app learns nothing (failure injection for what users report).
  case lost
}

/// The platform rules of the attention model (see the manual, "From fired to
/// seen"). Printed in the timeline header's `device` line.
public struct AttentionRules: Sendable, Equatable {
  /// What becomes of calendar and interval deliveries due while the phone is off.
  public var powerOffCatchUp = PowerOffCatchUp.all
  /// How long a reboot keeps the phone off.
  public var bootDuration: SimulationDuration = .seconds(60)
  /// Most background pushes the system hands the app per rolling hour;
  /// more are not delivered (Apple: "not more than two or three per hour").
  public var backgroundPushesPerHour = 2
  /// How long the push service keeps a push without `apns-expiration` while
  /// the device is unreachable (Apple: up to 30 days).
  public var pushStorageLimit: SimulationDuration = .seconds(30 * 86_400)
  /// What becomes of calendar and interval deliveries (and the power-off
  /// catch-up) between switch-on and the first unlock. Undocumented for local
  /// notifications; region monitoring (Apple's archived Location and Maps
  /// Programming Guide) and notification service extensions (element-hq/element-x-ios
  /// PR 5054, vector-im/element-ios PR 3353) wait for the first unlock: the
  /// pessimistic reading holds them until then.
  public var deliveryBeforeFirstUnlock = DeliveryBeforeFirstUnlock.held
  /// Whether region monitoring runs in Low Power Mode. Apple's archived
  /// guide: region monitoring is unavailable while Background App Refresh is
  /// disabled, and Low Power Mode disables it (Energy Efficiency Guide, "React
  /// to Low Power Mode"); whether the system-delivered location trigger is
  /// affected is undocumented: the pessimistic reading pauses it.
  public var lowPowerRegionMonitoring = LowPowerRegionMonitoring.paused

  public init() {}

  /// `power-off-catch-up=all boot=1m background-pushes=2/h`; rules added later
  /// are printed only when they differ from the default, so older headers stay.
  public var summary: String {
    let defaults = AttentionRules()
    return "power-off-catch-up=\(powerOffCatchUp.description) boot=\(bootDuration) background-pushes=\(backgroundPushesPerHour)/h"
      + (deliveryBeforeFirstUnlock == defaults.deliveryBeforeFirstUnlock ? "" : " before-first-unlock=\(deliveryBeforeFirstUnlock.rawValue)")
      + (lowPowerRegionMonitoring == defaults.lowPowerRegionMonitoring ? "" : " low-power-regions=\(lowPowerRegionMonitoring.rawValue)")
  }
}

/// Calendar and interval deliveries that come due (or catch up) after the
/// phone is switched on and before its first unlock.
public enum DeliveryBeforeFirstUnlock: String, Sendable, CaseIterable {
  /// They wait and deliver at the first unlock (the default: pessimistic).
  case held
  /// They deliver at once, the phone locked (trigsim before issue 23).
  case delivered
}

/// Region monitoring while Low Power Mode is on.
public enum LowPowerRegionMonitoring: String, Sendable, CaseIterable {
  /// No detection is made while it is on; monitoring starts again, silently
  /// taking the side of each region where the device is, when it goes off
  /// (the default: pessimistic).
  case paused
  /// Low Power Mode leaves region monitoring as it is.
  case unaffected
}

/// Calendar and interval deliveries whose instant passes while the phone is
/// off. Public reports disagree; see the manual for the evidence of each.
public enum PowerOffCatchUp: Sendable, Equatable, CustomStringConvertible {
  /// Each request that came due while off delivers once when the phone is
  /// switched on (a repeating one once, however many times it came due).
  case all
  /// As `all`, but only requests that came due within this span before the phone came on.
  case recent(SimulationDuration)
  /// Nothing that came due while off is delivered.
  case never

  public var description: String {
    switch self {
    case .all: "all"
    case .recent(let span): "recent-\(span)"
    case .never: "none"
    }
  }
}
