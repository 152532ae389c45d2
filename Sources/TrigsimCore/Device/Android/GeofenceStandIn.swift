// STAND-IN until the geofencing service lands (deleted at merge).
public enum GeofenceTransition: String, Sendable, CaseIterable { case enter, exit, dwell }
public struct GeofenceOptions: Sendable, Equatable {
  public var transitions: Set<GeofenceTransition>
  public var loiteringDelay: SimulationDuration?
  public var responsiveness: SimulationDuration
  public init(transitions: Set<GeofenceTransition> = [.enter, .exit], loiteringDelay: SimulationDuration? = nil, responsiveness: SimulationDuration = .zero) {
    self.transitions = transitions
    self.loiteringDelay = loiteringDelay
    self.responsiveness = responsiveness
  }
}
extension AndroidGeofenceRules {
  public var limit: Int { 100 }
  public var summary: String { "geofence-limit=100" }
}
