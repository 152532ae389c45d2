/// Android 13 and later: what becomes of a posted notification, in the
/// platform's order: the runtime permission, the channel (it must exist; a
/// blocked channel shows nothing), Do Not Disturb, then the channel's
/// importance. Sources are in the manual ("Android profile").
///
/// Do Not Disturb reuses the scenario's `focus:` periods: a notification it
/// silences is in the shade now and is perceived at the patient's next look
/// (held like a Focus, listed when Do Not Disturb ends).
struct AndroidPresenter: NotificationPresenter {
  let rules: AndroidNotificationRules

  func perception(of delivery: DeliveryAttributes, in context: AttentionContext) -> Perception {
    switch context.authorization {
    case .denied:
      return .notShown(reason: "notification permission denied (POST_NOTIFICATIONS): Android shows nothing", cause: .permission)
    case .notDetermined:
      return .notShown(
        reason: "notification permission never granted: on Android 13 and later a fresh install shows nothing until the app asks (POST_NOTIFICATIONS) and the patient allows", cause: .permission)
    case .granted, .provisional, .ephemeral:
      break
    }
    guard let channelID = delivery.channel else {
      return .notShown(reason: "posted without a notification channel: Android 8 and later do not show it", cause: .channel)
    }
    guard let channel = context.channels[channelID] else {
      return .notShown(reason: "posted to channel '\(channelID)', which the app never created: Android 8 and later do not show it", cause: .channel)
    }
    if channel.importance == .none {
      return .notShown(reason: "channel '\(channel.id)' is blocked (importance none): Android shows nothing", cause: .settings)
    }
    if let dnd = context.focus, !dnd.allowsApp, let silenced = silencedByDoNotDisturb(delivery, channel) {
      return .heldByFocus(dnd, reason: "Do Not Disturb (\(rules.dndMode.rawValue)): \(silenced); in the shade, seen when the patient looks")
    }
    var notes: [String] = []
    if let dnd = context.focus, !dnd.allowsApp { notes.append(breakthroughNote(delivery, channel)) }
    // From Android 8 the channel owns the sound: a notification's own sound
    // setting is ignored, and high and default importance make sound
    // (`NotificationChannel` reference; `NotificationManager.IMPORTANCE_HIGH`,
    // `IMPORTANCE_DEFAULT`: "makes noise").
    if !delivery.sound {
      notes.append("the notification names no sound of its own: on Android 8 and later channel '\(channel.id)' decides, and its importance makes sound")
    }
    switch channel.importance {
    case .high:
      return .alert(AlertStyle(banner: true, lockScreen: true, sound: true), note: notes.isEmpty ? nil : notes.joined(separator: "; "))
    case .default:
      notes.append("channel '\(channel.id)' importance default: sound, no heads-up banner")
      return .alert(AlertStyle(banner: false, lockScreen: true, sound: true), note: notes.joined(separator: "; "))
    case .low:
      return .quiet(reason: "channel '\(channel.id)' importance low: in the shade and status bar without a sound")
    case .min:
      return .quiet(reason: "channel '\(channel.id)' importance min: collapsed in the shade, no sound or status bar icon")
    case .none:
      return .notShown(reason: "channel '\(channel.id)' is blocked", cause: .settings)
    }
  }

  /// Why Do Not Disturb silences this notification, or nil when it breaks through.
  func silencedByDoNotDisturb(_ delivery: DeliveryAttributes, _ channel: AndroidChannel) -> String? {
    switch rules.dndMode {
    case .totalSilence:
      return "total silence lets nothing through"
    case .alarmsOnly:
      return delivery.category == .alarm ? nil : "alarms only lets only CATEGORY_ALARM through"
    case .priorityOnly:
      if channel.bypassDnd && rules.notificationPolicyAccess { return nil }
      if let category = delivery.category, rules.dndAllowedCategories.contains(category) { return nil }
      let category = delivery.category.map { "category \($0.rawValue) is not allowed by the patient's policy" } ?? "the notification has no category the policy allows"
      let bypass = channel.bypassDnd
        ? "channel '\(channel.id)' asks to bypass it but the app has no notification policy access"
        : "channel '\(channel.id)' does not bypass it"
      return "\(category) and \(bypass)"
    }
  }

  func breakthroughNote(_ delivery: DeliveryAttributes, _ channel: AndroidChannel) -> String {
    if channel.bypassDnd && rules.notificationPolicyAccess { return "breaks through Do Not Disturb: channel '\(channel.id)' bypasses it" }
    return "breaks through Do Not Disturb: category \(delivery.category?.rawValue ?? "none") is allowed"
  }
}
