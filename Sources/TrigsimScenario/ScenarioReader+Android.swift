import TrigsimCore
import Yams

/// The `android` device profile in a scenario: `platform: android`, or
/// `platform: { device: android, android: { ... } }` with the Android rules
/// (each rule group read by its own part: alarms and Doze, notifications,
/// geofencing).
extension ScenarioReader {
  static let androidKeys = androidAlarmKeys + ["notifications", "geofencing"]

  /// The phone named by `platform:` (a scalar) or its `device:` key.
  func readDeviceName(_ node: Node) -> PlatformName? {
    document.choice(node, what: "device", PlatformName.allCases.map { ($0.rawValue, $0) })
  }

  /// The `android:` mapping of `platform:`.
  func readAndroidSettings(_ node: Node) -> AndroidSettings {
    var settings = AndroidSettings()
    guard let fields = document.mapping(node, what: "'android'", keys: Self.androidKeys) else { return settings }
    (settings.alarms, settings.doze) = readAndroidAlarms(fields)
    if let node = fields["notifications"] { settings.notifications = readAndroidNotifications(node) }
    if let node = fields["geofencing"], let rules = readAndroidGeofencing(node) { settings.geofencing = rules }
    return settings
  }

  /// `notifications: { dnd: priority-only, dndAllows: [alarm, reminder], policyAccess: true }`.
  func readAndroidNotifications(_ node: Node) -> AndroidNotificationRules {
    var rules = AndroidNotificationRules()
    guard let fields = document.mapping(node, what: "'notifications'", keys: ["dnd", "dndAllows", "policyAccess"]) else { return rules }
    if let mode: DoNotDisturbMode = choice(fields, "dnd", what: "Do Not Disturb mode") { rules.dndMode = mode }
    if let list = fields["dndAllows"], let items = document.sequence(list, what: "'dndAllows'", example: "dndAllows: [alarm, reminder]") {
      var allowed = Set<AndroidNotificationCategory>()
      for item in items {
        if let category = document.choice(item, what: "notification category", AndroidNotificationCategory.allCases.map { ($0.rawValue, $0) }) {
          allowed.insert(category)
        }
      }
      rules.dndAllowedCategories = allowed
    }
    if let node = fields["policyAccess"], let value = document.bool(node, what: "policyAccess") { rules.notificationPolicyAccess = value }
    return rules
  }
}
