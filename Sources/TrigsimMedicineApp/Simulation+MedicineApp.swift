import TrigsimCore

extension Simulation {
  /// Runs `scenario` with the scenario's own medicine app (`medicines:`,
  /// `policy:`): `MedicineReminderApp.hosted(for: scenario)`, what
  /// `trigsim run` runs. A scenario written for a team's app
  /// (`appUnderTest: swift`) is refused when it runs.
  public init(_ scenario: Scenario) {
    self.init(scenario, app: MedicineReminderApp.hosted(for: scenario))
  }
}

extension TrialRunner {
  /// Trials of `scenario` with the scenario's own medicine app, as `trigsim trials` runs them.
  public init(_ scenario: Scenario) {
    self.init(scenario, app: MedicineReminderApp.hosted(for: scenario))
  }
}
