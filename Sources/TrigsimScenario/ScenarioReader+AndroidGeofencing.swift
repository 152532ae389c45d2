import Foundation
import TrigsimCore
import Yams

/// `android: { geofencing: { ... } }`: the geofencing rules of the `android`
/// profile (`AndroidGeofenceRules`). See the manual, "Android geofencing".
extension ScenarioReader {
  /// The keys of `android.geofencing`, each a rule of `AndroidGeofenceRules`.
  static let androidGeofencingKeys = [
    "limit", "initialTrigger", "loiteringDelay", "responsiveness", "backgroundLatency", "foregroundLatency",
    "enterOverlap", "exitOverlap", "smallEnterOverlap", "smallExitOverlap", "smallRadius",
    "assumedAccuracy", "backgroundAccuracy", "backgroundLocation", "latencySpread", "errorCorrelation",
  ]
  /// The most geofences a scenario may allow per app (Android's own limit is 100).
  static let largestGeofenceLimit = 100_000

  /// Reads the value of `geofencing:` under `android:`; every rule not
  /// written keeps its default. nil (with diagnostics) when it is not a mapping.
  func readAndroidGeofencing(_ node: Node) -> AndroidGeofenceRules? {
    guard let fields = document.mapping(node, what: "'geofencing'", keys: Self.androidGeofencingKeys) else { return nil }
    var rules = AndroidGeofenceRules()
    if let node = fields["limit"], let value = document.integer(node, what: "limit", range: 1...Self.largestGeofenceLimit) {
      rules.limit = value
    }
    if let node = fields["initialTrigger"], let value = initialTrigger(node) { rules.initialTrigger = value }
    func span(_ key: String) -> SimulationDuration? {
      guard let node = fields[key], let value = duration(node, what: key) else { return nil }
      if value.milliseconds > 86_400_000 {
        document.error(node, "\(key) must be at most a day, not \(value)", notes: ["Android reports geofence transitions within minutes; e.g. \(key): 2m"])
        return nil
      }
      return value
    }
    if let value = span("loiteringDelay") { rules.loiteringDelay = value }
    if let value = span("responsiveness") { rules.responsiveness = value }
    if let value = span("backgroundLatency") { rules.backgroundLatency = value }
    if let value = span("foregroundLatency") { rules.foregroundLatency = value }
    if let value = span("errorCorrelation") { rules.errorCorrelation = value }
    func metres(_ key: String) -> Double? {
      guard let node = fields[key], let value = document.double(node, what: key) else { return nil }
      guard (0...100_000).contains(value) else {
        document.error(node, "\(key) must be between 0 and 100000 metres, not \(value)")
        return nil
      }
      return value
    }
    if let value = metres("smallRadius") { rules.smallRadius = value }
    if let value = metres("assumedAccuracy") { rules.assumedAccuracy = value }
    if let value = metres("backgroundAccuracy") { rules.backgroundAccuracy = value }
    let enter = overlap(fields, "enterOverlap", entering: true)
    let exit = overlap(fields, "exitOverlap", entering: false)
    let smallEnter = overlap(fields, "smallEnterOverlap", entering: true)
    let smallExit = overlap(fields, "smallExitOverlap", entering: false)
    if let enter { rules.enterOverlap = enter }
    if let exit { rules.exitOverlap = exit }
    if let smallEnter { rules.smallEnterOverlap = smallEnter }
    if let smallExit { rules.smallExitOverlap = smallExit }
    // A value already reported is not compared again.
    if (fields["enterOverlap"] == nil || enter != nil) && (fields["exitOverlap"] == nil || exit != nil) {
      checkHysteresis(fields, enter: rules.enterOverlap, exit: rules.exitOverlap, enterKey: "enterOverlap", exitKey: "exitOverlap")
    }
    if (fields["smallEnterOverlap"] == nil || smallEnter != nil) && (fields["smallExitOverlap"] == nil || smallExit != nil) {
      checkHysteresis(
        fields, enter: rules.smallEnterOverlap, exit: rules.smallExitOverlap, enterKey: "smallEnterOverlap", exitKey: "smallExitOverlap")
    }
    if let node = fields["backgroundLocation"],
      let value = document.choice(node, what: "backgroundLocation rule", [("required", true), ("not-required", false)])
    {
      rules.backgroundLocationRequired = value
    }
    if let node = fields["latencySpread"], let value = document.double(node, what: "latencySpread") {
      if (0...5).contains(value) { rules.latencySpread = value } else {
        document.error(node, "latencySpread must be between 0 and 5 (the standard deviation of ln latency), not \(value)")
      }
    }
    return rules
  }

  /// `initialTrigger: [enter, dwell]` (`[]`: none). EXIT is no initial trigger.
  private func initialTrigger(_ node: Node) -> Set<GeofenceTransition>? {
    guard let items = document.sequence(node, what: "'initialTrigger'", example: "e.g. initialTrigger: [enter, dwell], or [] for none") else {
      return nil
    }
    var result: Set<GeofenceTransition> = []
    var valid = true
    for item in items {
      guard let value = document.choice(item, what: "initial trigger", [("enter", GeofenceTransition.enter), ("dwell", .dwell)]) else {
        valid = false
        continue
      }
      if result.contains(value) {
        document.error(item, "initial trigger '\(value.rawValue)' appears twice", notes: ["remove one of them"])
        valid = false
      }
      result.insert(value)
    }
    return valid ? result : nil
  }

  /// A fraction of the accuracy circle: `0.85` or `85%`. An enter fraction
  /// must be above 0 (at most 1), an exit fraction below 1 (at least 0).
  private func overlap(_ fields: MappingFields, _ key: String, entering: Bool) -> Double? {
    guard let node = fields[key], let text = document.string(node, what: key) else { return nil }
    let isPercent = text.hasSuffix("%")
    let number = isPercent ? String(text.dropLast()).trimmingCharacters(in: .whitespaces) : text
    guard case .success(let parsed) = DecimalNumber.parse(number) else {
      document.error(node, "\(key) must be a fraction or a percentage, not '\(Diagnostic.excerpt(text))'", notes: ["e.g. \(key): \(entering ? "85%" : "15%") (or \(entering ? "0.85" : "0.15"))"])
      return nil
    }
    let value = isPercent ? parsed / 100 : parsed
    let valid = entering ? (value > 0 && value <= 1) : (value >= 0 && value < 1)
    guard valid else {
      document.error(
        node, "\(key) must be \(entering ? "above 0% and at most 100%" : "at least 0% and below 100%"), not \(Diagnostic.excerpt(text))",
        notes: [entering
          ? "the share of the accuracy circle inside the geofence needed to enter, e.g. 85% (a percentage or a fraction such as 0.85)"
          : "the share of the accuracy circle inside the geofence at or below which the device exits, e.g. 15%"])
      return nil
    }
    return value
  }

  /// The exit fraction must not exceed the enter fraction: between them the device keeps its side.
  private func checkHysteresis(_ fields: MappingFields, enter: Double, exit: Double, enterKey: String, exitKey: String) {
    guard exit > enter, let node = fields[exitKey] ?? fields[enterKey] else { return }
    let key = fields[exitKey] != nil ? exitKey : enterKey
    func percent(_ value: Double) -> String {
      let p = value * 100
      return p == p.rounded() ? "\(Int64(p))%" : "\(p)%"
    }
    document.error(
      node, "\(key) makes \(exitKey) (\(percent(exit))) larger than \(enterKey) (\(percent(enter)))",
      notes: ["the device enters at or above \(enterKey) and exits at or below \(exitKey): \(exitKey) must not be larger"])
  }
}
