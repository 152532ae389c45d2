import TrigsimCore
import Yams
// STAND-IN until the alarm and geofencing readers land (deleted at merge).
extension ScenarioReader {
  static let androidAlarmKeys: [String] = []
  func readAndroidAlarms(_ fields: MappingFields, into settings: inout AndroidSettings) {}
  func readAndroidGeofencing(_ node: Node, into rules: inout AndroidGeofenceRules) {}
}
