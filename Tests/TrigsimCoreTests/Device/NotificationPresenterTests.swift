import Testing

@testable import TrigsimCore

/// One test per documented rule of `IOSPresenter` (the manual, "From fired to seen").
@Suite struct NotificationPresenterTests {
  let presenter = IOSPresenter()
  let active = DeliveryAttributes(interruptionLevel: .active, sound: true)
  let sleep = ActiveFocus(name: "Sleep", allowsApp: false, allowsTimeSensitive: true, until: SimulationInstant(millisecondsSinceEpoch: 7_200_000))

  func context(
    _ authorization: NotificationPermission = .granted, settings: AppNotificationSettings = AppNotificationSettings(),
    entitlements: AppEntitlements = AppEntitlements(), focus: ActiveFocus? = nil, nextSummary: SimulationInstant? = nil
  ) -> AttentionContext {
    AttentionContext(authorization: authorization, settings: settings, entitlements: entitlements, focus: focus, nextSummary: nextSummary)
  }

  func level(_ level: InterruptionLevel, sound: Bool = true) -> DeliveryAttributes {
    DeliveryAttributes(interruptionLevel: level, sound: sound)
  }

  @Test func anActiveDeliveryIsAFullAlertOnAnIdealPhone() {
    #expect(presenter.perception(of: active, in: context()) == .alert(.full, note: nil))
  }

  @Test func deniedAndNotDeterminedShowNothing() {
    #expect(presenter.perception(of: active, in: context(.denied)) == .notShown(reason: "notification permission denied: the platform shows nothing", cause: .permission))
    guard case .notShown(let why, let cause) = presenter.perception(of: active, in: context(.notDetermined)) else {
      Issue.record("not determined must show nothing")
      return
    }
    #expect(why.contains("not determined"))
    #expect(cause == .permission)
  }

  @Test func provisionalDeliversQuietlyEvenForTimeSensitive() {
    for level in InterruptionLevel.allCases {
      guard case .quiet(let why) = presenter.perception(of: self.level(level), in: context(.provisional)) else {
        Issue.record("provisional \(level) must be quiet")
        continue
      }
      #expect(why.hasPrefix("provisional authorization"))
    }
  }

  @Test func ephemeralIsAsAuthorized() {
    #expect(presenter.perception(of: active, in: context(.ephemeral)) == .alert(.full, note: nil))
  }

  @Test func passiveNeverAlerts() {
    guard case .quiet = presenter.perception(of: level(.passive), in: context()) else {
      Issue.record("passive must be quiet")
      return
    }
  }

  @Test func aFocusThatDoesNotAllowTheAppHoldsActive() {
    guard case .heldByFocus(let focus, let why) = presenter.perception(of: active, in: context(focus: sleep)) else {
      Issue.record("active must be held by Sleep")
      return
    }
    #expect(focus == sleep)
    #expect(why.contains("only time-sensitive and critical notifications break through"))
  }

  @Test func aFocusThatAllowsTheAppHoldsNothing() {
    var allowing = sleep
    allowing.allowsApp = true
    #expect(presenter.perception(of: active, in: context(focus: allowing)) == .alert(.full, note: nil))
  }

  @Test func timeSensitiveBreaksThroughAFocusThatAllowsTimeSensitive() {
    #expect(presenter.perception(of: level(.timeSensitive), in: context(focus: sleep))
      == .alert(.full, note: "time-sensitive: breaks through Focus 'Sleep'"))
  }

  @Test func timeSensitiveIsHeldByAFocusThatSilencesTimeSensitive() {
    var strict = sleep
    strict.allowsTimeSensitive = false
    guard case .heldByFocus(_, let why) = presenter.perception(of: level(.timeSensitive), in: context(focus: strict)) else {
      Issue.record("time-sensitive must be held when the Focus silences it")
      return
    }
    #expect(why == "Focus 'Sleep' does not allow time-sensitive notifications")
  }

  @Test func timeSensitiveWithoutTheCapabilityOrTheSettingIsActive() {
    let noCapability = presenter.perception(of: level(.timeSensitive), in: context(entitlements: AppEntitlements(timeSensitive: false), focus: sleep))
    guard case .heldByFocus(_, let why) = noCapability else {
      Issue.record("without the capability time-sensitive is active and held")
      return
    }
    #expect(why.hasPrefix("time-sensitive without the Time Sensitive Notifications capability: presented as active"))
    var settings = AppNotificationSettings()
    settings.timeSensitive = false
    guard case .heldByFocus = presenter.perception(of: level(.timeSensitive), in: context(settings: settings, focus: sleep)) else {
      Issue.record("with the setting off time-sensitive is active and held")
      return
    }
  }

  @Test func criticalNeedsTheEntitlement() {
    // Without it (the default), critical is active: held by the Focus.
    guard case .heldByFocus(_, let why) = presenter.perception(of: level(.critical), in: context(focus: sleep)) else {
      Issue.record("critical without the entitlement must be held as active")
      return
    }
    #expect(why.hasPrefix("critical without the critical-alerts entitlement"))
    let entitled = context(entitlements: AppEntitlements(criticalAlerts: true), focus: sleep)
    #expect(presenter.perception(of: level(.critical), in: entitled) == .alert(.full, note: "critical alert: breaks through Focus 'Sleep'"))
  }

  @Test func criticalPlaysItsSoundWithSoundsOffAndIsNotHeldForTheSummary() {
    var settings = AppNotificationSettings()
    settings.sounds = false
    let perception = presenter.perception(
      of: level(.critical), in: context(settings: settings, entitlements: AppEntitlements(criticalAlerts: true), nextSummary: sleep.until))
    #expect(perception == .alert(.full, note: "critical alert: plays its sound although sounds are off"))
  }

  @Test func scheduledSummaryHoldsActiveButNotTimeSensitive() {
    let at = SimulationInstant(millisecondsSinceEpoch: 3_600_000)
    guard case .heldForSummary(let when, _) = presenter.perception(of: active, in: context(nextSummary: at)) else {
      Issue.record("active must wait for the summary")
      return
    }
    #expect(when == at)
    #expect(presenter.perception(of: level(.timeSensitive), in: context(nextSummary: at))
      == .alert(.full, note: "time-sensitive: not held by Scheduled Summary"))
  }

  @Test func settingsShapeTheAlert() {
    var settings = AppNotificationSettings()
    settings.sounds = false
    settings.banners = false
    #expect(presenter.perception(of: active, in: context(settings: settings))
      == .alert(AlertStyle(banner: false, lockScreen: true, sound: false), note: "sounds are off in Settings; banners are off in Settings"))
    #expect(presenter.perception(of: level(.active, sound: false), in: context())
      == .alert(AlertStyle(banner: true, lockScreen: true, sound: false), note: "the notification has no sound"))
  }

  @Test func hiddenPreviewsAreSaidButStillAlert() {
    var settings = AppNotificationSettings()
    settings.previews = .never
    #expect(presenter.perception(of: active, in: context(settings: settings))
      == .alert(.full, note: "previews never: only the app's name is shown, not the title or body"))
  }

  @Test func onlyNotificationCenterIsQuietAndNoAlertStyleIsNotShown() {
    var listOnly = AppNotificationSettings()
    listOnly.lockScreen = false
    listOnly.banners = false
    guard case .quiet = presenter.perception(of: active, in: context(settings: listOnly)) else {
      Issue.record("Notification Center only must be quiet")
      return
    }
    var none = listOnly
    none.notificationCenter = false
    guard case .notShown(_, .settings) = presenter.perception(of: active, in: context(settings: none)) else {
      Issue.record("no alert style must show nothing, for a reason in Settings")
      return
    }
    var off = AppNotificationSettings()
    off.allow = false
    #expect(presenter.perception(of: active, in: context(settings: off)) == .notShown(reason: "notifications for the app are off in Settings", cause: .settings))
  }
}
