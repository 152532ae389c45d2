import TrigsimCore
import Yams

/// The work-scheduling keys of `platform: { device: android, android: { work: { … } } }`
/// (the manual, "Android work scheduling"): when `JobScheduler` runs the app's WorkManager work.
extension ScenarioReader {
  /// The keys of `work:`.
  static let androidWorkKeys = [
    "minPeriodicInterval", "minFlex", "jobWindow", "workingSetJobsEvery", "frequentJobsEvery", "rareJobsEvery", "restrictedJobsEvery",
    "batterySaverJobs",
  ]

  /// `work: { minPeriodicInterval: 15m, minFlex: 5m, jobWindow: 10m, workingSetJobsEvery: 2h, … , batterySaverJobs: deferred }`;
  /// each bad value reported at its line and column.
  func readAndroidWork(_ node: Node) -> AndroidWorkRules {
    var rules = AndroidWorkRules()
    guard let fields = document.mapping(node, what: "'work'", keys: Self.androidWorkKeys) else { return rules }
    if let value = workSpan(fields, "minPeriodicInterval") { rules.minPeriodicInterval = value }
    if let value = workSpan(fields, "minFlex") { rules.minFlex = value }
    if let value = workSpan(fields, "jobWindow") {
      rules.workingSetJobs.window = value
      rules.frequentJobs.window = value
      rules.rareJobs.window = value
    }
    if let value = workSpan(fields, "workingSetJobsEvery") { rules.workingSetJobs.every = value }
    if let value = workSpan(fields, "frequentJobsEvery") { rules.frequentJobs.every = value }
    if let value = workSpan(fields, "rareJobsEvery") { rules.rareJobs.every = value }
    if let value = workSpan(fields, "restrictedJobsEvery") { rules.restrictedJobs.every = value }
    if let value: BatterySaverJobs = choice(fields, "batterySaverJobs", what: "Battery Saver job rule") { rules.batterySaverJobs = value }
    return rules
  }

  /// `fields[key]` as a duration above zero and at most a week.
  private func workSpan(_ fields: MappingFields, _ key: String) -> SimulationDuration? {
    guard let node = fields[key], let value = duration(node, what: key) else { return nil }
    guard value.milliseconds > 0, value <= .hours(7 * 24) else {
      document.error(node, "\(key) must be longer than zero and at most 7 days, not \(value)", notes: ["e.g. \(key): 15m"])
      return nil
    }
    return value
  }
}
