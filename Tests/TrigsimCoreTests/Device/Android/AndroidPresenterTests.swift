import Testing

@testable import TrigsimCore

/// The Android presenter's rules, one test each (sources in the manual, "Android profile").
@Suite struct AndroidPresenterTests {
  static let doses = AndroidChannel(id: "doses", name: "Dose reminders", importance: .high)
  static let dnd = ActiveFocus(name: "Do Not Disturb", allowsApp: false, allowsTimeSensitive: false, until: nil)

  static func context(
    _ permission: NotificationPermission = .granted, channels: [AndroidChannel] = [doses], dnd: ActiveFocus? = nil
  ) -> AttentionContext {
    AttentionContext(
      authorization: permission, settings: AppNotificationSettings(), entitlements: AppEntitlements(), focus: dnd, nextSummary: nil,
      channels: Dictionary(uniqueKeysWithValues: channels.map { ($0.id, $0) }))
  }

  static func delivery(channel: String? = "doses", category: AndroidNotificationCategory? = .reminder, sound: Bool = true) -> DeliveryAttributes {
    DeliveryAttributes(interruptionLevel: .active, sound: sound, channel: channel, category: category)
  }

  /// Android 8 and later: the channel owns the sound (developer.android.com, "Create and manage
  /// notification channels"; `IMPORTANCE_HIGH`, `IMPORTANCE_DEFAULT` make noise), so a
  /// notification that names no sound of its own (an FCM message without `sound`) still sounds
  /// on a high or default channel, and a low one stays silent whatever the notification says.
  @Test func theChannelOwnsTheSoundSoANotificationWithoutOneSoundsOnAHighOrDefaultChannel() {
    let presenter = AndroidPresenter(rules: AndroidNotificationRules())
    func perception(_ importance: ChannelImportance, sound: Bool) -> Perception {
      var channel = Self.doses
      channel.importance = importance
      return presenter.perception(of: Self.delivery(sound: sound), in: Self.context(channels: [channel]))
    }
    let note = "the notification names no sound of its own: on Android 8 and later channel 'doses' decides, and its importance makes sound"
    #expect(perception(.high, sound: false) == .alert(AlertStyle(banner: true, lockScreen: true, sound: true), note: note))
    #expect(perception(.default, sound: false)
      == .alert(AlertStyle(banner: false, lockScreen: true, sound: true), note: note + "; channel 'doses' importance default: sound, no heads-up banner"))
    guard case .quiet = perception(.low, sound: true) else {
      Issue.record("a low-importance channel sounds because the notification asks")
      return
    }
  }

  @Test func aNotificationWithoutThePostNotificationsPermissionIsNotShown() {
    let presenter = AndroidPresenter(rules: AndroidNotificationRules())
    for permission in [NotificationPermission.notDetermined, .denied] {
      guard case .notShown(let why, let cause) = presenter.perception(of: Self.delivery(), in: Self.context(permission)) else {
        Issue.record("\(permission): shown")
        continue
      }
      #expect(why.contains("POST_NOTIFICATIONS"))
      #expect(cause == .permission)
    }
  }

  @Test func aNotificationPostedToAChannelTheAppNeverCreatedIsNotShown() {
    let presenter = AndroidPresenter(rules: AndroidNotificationRules())
    guard case .notShown(let why, let cause) = presenter.perception(of: Self.delivery(channel: "other"), in: Self.context()) else {
      Issue.record("shown")
      return
    }
    #expect(why.contains("'other', which the app never created"))
    #expect(cause == .channel)
    guard case .notShown = presenter.perception(of: Self.delivery(channel: nil), in: Self.context()) else {
      Issue.record("shown without a channel")
      return
    }
  }

  @Test func channelImportanceDecidesTheAlert() {
    let presenter = AndroidPresenter(rules: AndroidNotificationRules())
    func perception(_ importance: ChannelImportance) -> Perception {
      var channel = Self.doses
      channel.importance = importance
      return presenter.perception(of: Self.delivery(), in: Self.context(channels: [channel]))
    }
    #expect(perception(.high) == .alert(AlertStyle(banner: true, lockScreen: true, sound: true), note: nil))
    guard case .alert(let style, _) = perception(.default) else {
      Issue.record("default importance does not alert")
      return
    }
    #expect(style == AlertStyle(banner: false, lockScreen: true, sound: true))
    guard case .quiet = perception(.low), case .quiet = perception(.min), case .notShown = perception(.none) else {
      Issue.record("low, min or none alert")
      return
    }
  }

  @Test func doNotDisturbPriorityOnlyHoldsAReminderUnlessThePolicyAllowsReminders() {
    var rules = AndroidNotificationRules()
    let held = AndroidPresenter(rules: rules).perception(of: Self.delivery(), in: Self.context(dnd: Self.dnd))
    guard case .heldByFocus(_, let why) = held else {
      Issue.record("a reminder breaks through the default policy: \(held)")
      return
    }
    #expect(why.contains("category reminder is not allowed"))
    rules.dndAllowedCategories = [.alarm, .reminder]
    #expect(AndroidPresenter(rules: rules).perception(of: Self.delivery(), in: Self.context(dnd: Self.dnd)).alertsNow)
  }

  @Test func anAlarmCategoryBreaksThroughAlarmsOnlyAndNothingBreaksTotalSilence() {
    var rules = AndroidNotificationRules()
    rules.dndMode = .alarmsOnly
    #expect(AndroidPresenter(rules: rules).perception(of: Self.delivery(category: .alarm), in: Self.context(dnd: Self.dnd)).alertsNow)
    #expect(!AndroidPresenter(rules: rules).perception(of: Self.delivery(category: .reminder), in: Self.context(dnd: Self.dnd)).alertsNow)
    rules.dndMode = .totalSilence
    #expect(!AndroidPresenter(rules: rules).perception(of: Self.delivery(category: .alarm), in: Self.context(dnd: Self.dnd)).alertsNow)
  }

  @Test func aChannelBypassesDoNotDisturbOnlyWithNotificationPolicyAccess() {
    var channel = Self.doses
    channel.bypassDnd = true
    var rules = AndroidNotificationRules()
    let context = Self.context(channels: [channel], dnd: Self.dnd)
    #expect(!AndroidPresenter(rules: rules).perception(of: Self.delivery(category: nil), in: context).alertsNow)
    rules.notificationPolicyAccess = true
    #expect(AndroidPresenter(rules: rules).perception(of: Self.delivery(category: nil), in: context).alertsNow)
  }

  @Test func aFreshInstallOnAndroid13HasNotBeenAskedAndEarlierVersionsAreGranted() {
    #expect(initialNotificationPermission(androidVersion: 14, freshInstall: true) == .notDetermined)
    #expect(initialNotificationPermission(androidVersion: 13, freshInstall: true) == .notDetermined)
    #expect(initialNotificationPermission(androidVersion: 13, freshInstall: false) == .granted)
    #expect(initialNotificationPermission(androidVersion: 12, freshInstall: true) == .granted)
  }
}
