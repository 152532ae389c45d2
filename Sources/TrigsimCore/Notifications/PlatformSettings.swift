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
  /// The calendar the phone is set to (`platform: { calendar: hebrew }`):
  /// the app's calendar and the one calendar triggers are read in. Default Gregorian.
  public var calendar: PhoneCalendar = .gregorian
  /// Whether a location request whose region the device is already inside
  /// when monitoring starts reports an entry (an assumption: the manual, "Assumptions").
  public var locationAlreadyInside: LocationAlreadyInside = .silent
  /// How the device detects region crossings. The default is the realistic
  /// `ios` profile; `ideal` reports every geometric crossing at its instant.
  public var location: LocationProfile = .ios(RegionMonitoringRules())
  /// What the device does between a delivery and the patient: power-off
  /// catch-up, boot time, the push service's rules.
  public var attention = AttentionRules()
  /// The significant-change location service's rules (used by apps that
  /// monitor the nearest places of a set; printed in the header's `region set` line).
  public var significantChange = SignificantChangeRules()
  /// The `android` profile's rules; nil: the device is an iPhone (`ios`).
  public var android: AndroidSettings?

  public init() {}

  /// Changes the rules of the `ios` location profile; nothing under `ideal`,
  /// whose crossings have no rules to change.
  public mutating func setRegionMonitoringRules(_ change: (inout RegionMonitoringRules) -> Void) {
    guard case .ios(var rules) = location else { return }
    change(&rules)
    location = .ios(rules)
  }

  /// Which phone the device is.
  public var name: PlatformName { android == nil ? .ios : .android }

  /// The location service of this platform: region monitoring (iOS, or the
  /// `location` profile), or Android's geofencing.
  func makeLocationService(regions: [MonitoredRegion], variation: DeviceVariation?) -> any LocationService {
    if let android { return GeofencingService(rules: android.geofencing, regions: regions, variation: variation) }
    return location.makeService(regions: regions, variation: variation)
  }

  /// The presenter of this platform: what becomes of a delivered notification.
  func makePresenter() -> any NotificationPresenter {
    if let android { return AndroidPresenter(rules: android.notifications) }
    return IOSPresenter()
  }

  /// How this platform's pushes reach the app: APNs, or Firebase Cloud Messaging on Android.
  func makePushTransport() -> any PushTransport {
    if android != nil { return FCMTransport() }
    return APNsTransport()
  }

  /// The phone a `summary` describes (its first word on Android is
  /// `device=android`): for texts that carry only the summary, as a trial
  /// report merged from partial files does.
  public static func platform(ofSummary summary: String) -> PlatformName {
    summary.hasPrefix(androidSummaryPrefix) ? .android : .ios
  }

  static let androidSummaryPrefix = "device=android "

  /// `pending-limit=64 retention=last-added …`, for the timeline header.
  public var summary: String {
    // The Android device has none of the iPhone's notification-center and region-monitoring rules.
    if let android { return Self.androidSummaryPrefix + "gap-limit=\(trackGapLimit) " + android.summary }
    return "pending-limit=\(pendingLimit) retention=\(retention.rawValue) region-limit=\(monitoredRegionLimit) "
      + "dst-gap=\(dstGapPolicy.rawValue) repeated-time=\(repeatedTimePolicy.rawValue) "
      + "impossible-date=\(impossibleDatePolicy.rawValue) gap-limit=\(trackGapLimit) terminated-actions=\(terminatedActions.rawValue) "
      // Printed only when set, so that headers made before the setting existed stay as they were.
      + (forceQuitLocationLaunch == .notLaunched ? "" : "force-quit-location=\(forceQuitLocationLaunch.rawValue) ")
      + (locationAlreadyInside == .silent ? "" : "already-inside=\(locationAlreadyInside.rawValue) ")
      + (calendar == .gregorian ? "" : "calendar=\(calendar.rawValue) ")
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

/// Whether a force-quit app is launched for its region events and
/// significant-change updates.
public enum ForceQuitLocationLaunch: String, Sendable, CaseIterable {
  /// Not launched: a developer report of iOS 26 (Apple Developer Forums
  /// thread 826964). The default.
  case notLaunched = "not-launched"
  /// Launched in the background, as the same report says iOS 18 and earlier did.
  case launched
}

/// What a location request reports when the device is already inside its
/// region as monitoring starts: at the request's add, or at the first fix
/// for requests added before it.
public enum LocationAlreadyInside: String, Sendable, CaseIterable {
  /// No entry until the device leaves and enters again (Core Location's
  /// documented rule for region monitoring). The default.
  case silent
  /// The device reports an entry, after the profile's usual latency
  /// (undocumented for `UNLocationNotificationTrigger`; what Android's
  /// geofencing does with its initial trigger).
  case entered
}

/// What happens to a notification action while the app is terminated.
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
  /// What becomes of calendar and interval deliveries due while the phone is
  /// off. Sources conflict, so the default is `never`: nothing that came due
  /// while off is counted as delivered (the manual, "Assumptions").
  public var powerOffCatchUp = PowerOffCatchUp.never
  /// How long a reboot keeps the phone off.
  public var bootDuration: SimulationDuration = .seconds(60)
  /// Most background pushes the system hands the app per rolling hour;
  /// more are not delivered (Apple: "not more than two or three per hour").
  public var backgroundPushesPerHour = 2
  /// How long the push service keeps a push without `apns-expiration` while
  /// the device is unreachable (Apple: up to 30 days).
  public var pushStorageLimit: SimulationDuration = .seconds(30 * 86_400)
  /// What the push service does, in a single run, with a push of
  /// `apns-priority` 5 or 1 that shows something (alert, sound or badge).
  /// Apple: such pushes are sent "based on power considerations", "might get
  /// grouped and delivered in bursts", are "throttled, and in some cases …
  /// not delivered" ("Sending notification requests to APNs"). No delay or
  /// rate is published, so the default is the reading under which nothing
  /// relies on one: `dropped`.
  public var priority5Alerts = LowPriorityPushDelivery.dropped
  /// Trials only: the chance that such a push is delivered at all (no
  /// published figure; 0.5 says "as likely as not").
  public var priority5DeliveryProbability = 0.5
  /// Trials only: a delivered one arrives after a delay drawn uniformly from
  /// zero to this (no published figure).
  public var priority5MaxDelay: SimulationDuration = .hours(1)
  /// Which push the push service keeps, in a single run, when several are
  /// sent while the device is unreachable. Apple: "In most cases, the latest
  /// notification is stored. However, this behavior isn't always guaranteed";
  /// Apple DTS (forum thread 775455): chosen "in a non-deterministic way".
  /// Trials draw it uniformly whatever this says.
  public var storedPush = StoredPushChoice.latest
  /// Whether a Focus that a later one replaced comes back when the later one
  /// ends (undocumented; resuming holds more, the default).
  public var focusResumes = FocusResumption.resumes
  /// The "Time Sensitive Notifications" switch of a Focus whose scenario
  /// entry does not state it (Apple documents no default; silenced holds more).
  public var focusTimeSensitiveDefault = FocusTimeSensitiveDefault.silenced
  /// How a catch-up delivery after the phone comes on is presented.
  public var catchUpPresentation = CatchUpPresentation.listed
  /// Whether a look at the phone during a Focus sees what that Focus silenced.
  public var focusSilencedOnLockScreen = FocusSilencedOnLockScreen.hidden

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

  /// `power-off-catch-up=none boot=1m background-pushes=2/h`, then each rule
  /// added later only when it differs from its default (so older headers stay).
  public var summary: String {
    let defaults = AttentionRules()
    var words = ["power-off-catch-up=\(powerOffCatchUp.description) boot=\(bootDuration) background-pushes=\(backgroundPushesPerHour)/h"]
    if priority5Alerts != defaults.priority5Alerts { words.append("priority-5-alerts=\(priority5Alerts)") }
    if priority5DeliveryProbability != defaults.priority5DeliveryProbability {
      words.append("priority-5-trial-delivery=\(priority5DeliveryProbability)")
    }
    if priority5MaxDelay != defaults.priority5MaxDelay { words.append("priority-5-trial-max-delay=\(priority5MaxDelay)") }
    if storedPush != defaults.storedPush { words.append("stored-push=\(storedPush.rawValue)") }
    if focusResumes != defaults.focusResumes { words.append("focus-resumes=\(focusResumes.rawValue)") }
    if focusTimeSensitiveDefault != defaults.focusTimeSensitiveDefault {
      words.append("focus-time-sensitive-default=\(focusTimeSensitiveDefault.rawValue)")
    }
    if catchUpPresentation != defaults.catchUpPresentation { words.append("catch-up=\(catchUpPresentation.rawValue)") }
    if focusSilencedOnLockScreen != defaults.focusSilencedOnLockScreen {
      words.append("focus-silenced=\(focusSilencedOnLockScreen.rawValue)")
    }
    if deliveryBeforeFirstUnlock != defaults.deliveryBeforeFirstUnlock { words.append("before-first-unlock=\(deliveryBeforeFirstUnlock.rawValue)") }
    if lowPowerRegionMonitoring != defaults.lowPowerRegionMonitoring { words.append("low-power-regions=\(lowPowerRegionMonitoring.rawValue)") }
    return words.joined(separator: " ")
  }
}

/// What the push service does with a push of `apns-priority` 5 or 1 that
/// shows something, in a single run (trials draw instead: see
/// `AttentionRules.priority5DeliveryProbability`).
public enum LowPriorityPushDelivery: Sendable, Equatable, CustomStringConvertible {
  /// Never delivered: Apple says such pushes are "in some cases … not
  /// delivered", so a reminder must not rely on one. The default.
  case dropped
  /// Delivered this long after it is sent (or after the device is reachable again).
  case delayed(SimulationDuration)
  /// Delivered at once, like priority 10 (trigsim's rule before the audit of 2026-11-26).
  case atOnce

  /// `dropped`, `delayed-30m`, `at-once`.
  public var description: String {
    switch self {
    case .dropped: "dropped"
    case .delayed(let span): "delayed-\(span)"
    case .atOnce: "at-once"
    }
  }

  /// How a scenario writes it (`delayed 30m`).
  public var scenarioSpelling: String {
    if case .delayed(let span) = self { return "delayed \(span)" }
    return description
  }
}

/// Which push the push service keeps when several are sent while the device
/// is unreachable (it keeps one per app).
public enum StoredPushChoice: String, Sendable, CaseIterable {
  /// The latest sent: what Apple's documentation says happens "in most cases". The default.
  case latest
  /// The first sent (and not expired): what a developer saw with the phone
  /// switched off (the question "Weird Apple Push Notification behaviour
  /// when the receiving iPhone is turned off", mirrored on itecnotes.com: of
  /// B and C sent while off, B was delivered and C never).
  case earliest
}

/// Whether a Focus replaced by a later one comes back when the later one ends.
public enum FocusResumption: String, Sendable, CaseIterable {
  /// It comes back for the rest of its span (it holds more: the default).
  case resumes = "yes"
  /// It does not: it ended when the later one began.
  case doesNotResume = "no"

  /// Focus occurrence `started` begins while `inForce` (ascending: the last is
  /// the one on) are in force: the occurrences in force afterwards, and those
  /// it ends for good. Occurrences are numbered in order of start (ties in
  /// scenario order) and begin in that order, so every one in force began
  /// before `started`.
  func start(_ started: Int, inForce: [Int]) -> (inForce: [Int], replaced: [Int]) {
    switch self {
    case .resumes:
      var result = inForce
      result.insert(started, at: result.partitioningIndex { $0 >= started })
      return (result, [])
    case .doesNotResume:
      return ([started], inForce)
    }
  }
}

/// The "Time Sensitive Notifications" switch of a Focus that a scenario does
/// not state.
public enum FocusTimeSensitiveDefault: String, Sendable, CaseIterable {
  /// Off: time-sensitive notifications are silenced like active ones (the default).
  case silenced
  /// On: they break through.
  case allowed
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

/// How the deliveries the phone catches up on when it comes on are
/// presented. Reports say they arrive at power-on
/// (MaikuB/flutter_local_notifications #1696, #2263) and none says whether
/// they sound; a burst of eleven sounds at boot is not reported either.
public enum CatchUpPresentation: String, Sendable, CaseIterable {
  /// Listed on the lock screen without sound: seen at the patient's next
  /// look. The default: no source says they alert, and a silent listing is
  /// never seen earlier than an alert.
  case listed
  /// Presented as they would have been when due (sound and banner as the settings say).
  case alert
}

/// Whether a look at the phone during a Focus shows the notifications that
/// Focus silenced. Apple's Focus options offer "Show On Lock Screen" (silenced
/// notifications on the Lock Screen rather than only in Notification Center)
/// and "Dim Lock Screen"; what each Focus starts with is not documented.
public enum FocusSilencedOnLockScreen: String, Sendable, CaseIterable {
  /// Not seen at a look while the Focus lasts; listed on the lock screen from
  /// its end. The default: the patient would have to open Notification Center.
  case hidden
  /// Seen at any look from the delivery on (the Focus shows silenced notifications on the Lock Screen).
  case shown
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
