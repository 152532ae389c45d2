import TrigsimCore
import Yams

/// The `android` device profile in a scenario: `platform: android`, or
/// `platform: { device: android, android: { ... } }` with the Android rules
/// (each rule group read by its own part: alarms and Doze, notifications,
/// geofencing).
extension ScenarioReader {
  static let androidKeys = androidAlarmKeys + ["notifications", "geofencing", "oemKiller", "fcm", "work"]

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
    if let node = fields["oemKiller"] { settings.oemKiller = readOEMKiller(node) }
    if let node = fields["fcm"] { settings.fcm = readAndroidFCM(node) }
    if let node = fields["work"] { settings.work = readAndroidWork(node) }
    return settings
  }

  /// `oemKiller: aggressive`, or `oemKiller: { preset: samsung, after: 16d, sleepAfter: 3d, exempt: false }`
  /// (a preset's own settings unless the mapping gives others).
  func readOEMKiller(_ node: Node) -> OEMBackgroundKiller {
    let presets = OEMKillerPreset.allCases.map { ($0.rawValue, $0) }
    if node.scalar != nil {
      guard let preset = document.choice(node, what: "OEM killer preset", presets) else { return OEMBackgroundKiller() }
      return OEMBackgroundKiller.preset(preset)
    }
    guard let fields = document.mapping(node, what: "'oemKiller'", keys: ["preset", "after", "sleepAfter", "exempt"]) else { return OEMBackgroundKiller() }
    var killer = OEMBackgroundKiller()
    if let value: OEMKillerPreset = choice(fields, "preset", what: "OEM killer preset") { killer = OEMBackgroundKiller.preset(value) }
    if let value = killerSpan(fields, "after") { killer.after = value }
    if let value = killerSpan(fields, "sleepAfter") { killer.sleepAfter = value }
    if let node = fields["exempt"], let value = document.bool(node, what: "exempt") { killer.exempt = value }
    return killer
  }

  /// A killer's span: above zero, at most 60 days.
  private func killerSpan(_ fields: MappingFields, _ key: String) -> SimulationDuration? {
    guard let node = fields[key], let value = duration(node, what: key) else { return nil }
    guard value.milliseconds > 0, value <= .hours(60 * 24) else {
      document.error(node, "\(key) must be longer than zero and at most 60 days", notes: ["e.g. \(key): \(key == "after" ? "10m" : "3d")"])
      return nil
    }
    return value
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
