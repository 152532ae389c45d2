import TrigsimCore
import Yams
// STAND-IN until the alarm and geofencing readers land (deleted at merge).
extension ScenarioReader {
  func readAndroidGeofencing(_ node: Node, into rules: inout AndroidGeofenceRules) {}
}
