// STAND-IN until the alarm model lands (deleted at merge).
public enum AndroidAlarmKind: String, Sendable, CaseIterable {
  case exact
  case exactWhileIdle = "exact-while-idle"
  case alarmClock = "alarm-clock"
  case inexact
  case inexactWhileIdle = "inexact-while-idle"
  case window
  public var needsExactPermission: Bool { self == .exact || self == .exactWhileIdle || self == .alarmClock }
}
public struct AndroidAlarm: Sendable, Equatable {
  public var kind: AndroidAlarmKind
  public var triggerAt: SimulationInstant
  public var window: SimulationDuration?
  public var windowPosition: Double?
  public init(kind: AndroidAlarmKind, triggerAt: SimulationInstant, window: SimulationDuration? = nil, windowPosition: Double? = nil) {
    self.kind = kind
    self.triggerAt = triggerAt
    self.window = window
    self.windowPosition = windowPosition
  }
}
public enum StandbyBucket: String, Sendable, CaseIterable { case active, workingSet = "working-set", frequent, rare, restricted }
public struct AlarmPlan: Sendable, Equatable {
  public var instant: SimulationInstant
  public var reason: String?
}
public struct AndroidPowerTimeline: Sendable {
  public init(
    rules: DozeRules, start: SimulationInstant, end: SimulationInstant, screenOn: [SimulationInstant],
    charging: [Range<SimulationInstant>], batterySaver: [Range<SimulationInstant>],
    buckets: [(from: SimulationInstant, bucket: StandbyBucket)], dozeEntryJitter: Double?
  ) {}
}
public struct AlarmDispatcher: Sendable {
  let rules: AndroidAlarmRules
  public init(rules: AndroidAlarmRules, power: AndroidPowerTimeline) { self.rules = rules }
  public func plan(_ alarm: AndroidAlarm, notBefore: SimulationInstant) -> AlarmPlan {
    switch alarm.kind {
    case .inexact, .inexactWhileIdle:
      let late = alarm.triggerAt.advanced(by: .hours(1))
      return AlarmPlan(instant: max(late, notBefore), reason: "inexact alarm: fires at the end of its 1h window")
    default:
      return AlarmPlan(instant: max(alarm.triggerAt, notBefore), reason: nil)
    }
  }
  public mutating func fired(_ alarm: AndroidAlarm, at: SimulationInstant) {}
}
extension AndroidAlarmRules {
  public var androidVersion: Int { 14 }
  public var freshInstall: Bool { true }
  public var initialExactAlarmPermission: Bool { false }
  public var summary: String { "android-version=14 install=fresh exact-alarms=denied" }
}
extension DozeRules {
  public var summary: String { "doze=on" }
}
