import TrigsimCore
import Yams

/// `android: fcm:`: how Firebase Cloud Messaging delivers the scenario's
/// pushes on the Android phone (`FCMRules`; the manual, "Android pushes").
extension ScenarioReader {
  static let androidFCMKeys = [
    "normalPriorityInDoze", "frequentHighPriorityPerDay", "rareHighPriorityPerDay", "restrictedHighPriorityPerDay", "bucketQuotas",
    "deprioritizeAfterUnnotified", "deprioritizationWindow", "timeToLive", "storedMessageLimit", "storedCollapseKeys",
    "storedCollapseKeysKept",
  ]

  /// `fcm: { normalPriorityInDoze: maintenance-window, rareHighPriorityPerDay: 5, … }`.
  func readAndroidFCM(_ node: Node) -> FCMRules {
    var rules = FCMRules()
    guard let fields = document.mapping(node, what: "'fcm'", keys: Self.androidFCMKeys) else { return rules }
    if let value: FCMNormalPriorityInDoze = choice(fields, "normalPriorityInDoze", what: "normal-priority rule in Doze") {
      rules.normalPriorityInDoze = value
    }
    if let value = fcmCount(fields, "frequentHighPriorityPerDay", range: 0...10_000) { rules.frequentHighPriorityPerDay = value }
    if let value = fcmCount(fields, "rareHighPriorityPerDay", range: 0...10_000) { rules.rareHighPriorityPerDay = value }
    if let value = fcmCount(fields, "restrictedHighPriorityPerDay", range: 0...10_000) { rules.restrictedHighPriorityPerDay = value }
    if let value: FCMCollapseKeysKept = choice(fields, "storedCollapseKeysKept", what: "collapse keys kept") { rules.collapseKeysKept = value }
    if let value: BucketAlarmLimitScope = choice(fields, "bucketQuotas", what: "bucket-quota scope") { rules.bucketQuotaScope = value }
    if let value = fcmCount(fields, "deprioritizeAfterUnnotified", range: 0...10_000) { rules.deprioritizeAfterUnnotified = value }
    if let value = fcmSpan(fields, "deprioritizationWindow") { rules.deprioritizationWindow = value }
    if let value = fcmSpan(fields, "timeToLive") { rules.defaultTimeToLive = value }
    if let value = fcmCount(fields, "storedMessageLimit", range: 1...10_000) { rules.storedMessageLimit = value }
    if let value = fcmCount(fields, "storedCollapseKeys", range: 1...100) { rules.storedCollapseKeys = value }
    return rules
  }

  private func fcmCount(_ fields: MappingFields, _ key: String, range: ClosedRange<Int>) -> Int? {
    fields[key].flatMap { document.integer($0, what: key, range: range) }
  }

  /// A span above zero and at most FCM's longest time to live (28 days).
  private func fcmSpan(_ fields: MappingFields, _ key: String) -> SimulationDuration? {
    guard let node = fields[key], let value = duration(node, what: key) else { return nil }
    guard value.milliseconds > 0, value <= .hours(24 * 28) else {
      document.error(node, "\(key) must be longer than zero and at most 28d (FCM's longest time to live), not \(value)", notes: ["e.g. \(key): 7d"])
      return nil
    }
    return value
  }
}
