/// Which registry settings (`AssumptionRegistry`) a run's decisions
/// depended on: an observer of the run that changes nothing in the world.
///
/// Each layer tells it at the decision point where a setting's reading
/// could change what happens (`run.layers.assumptionLog.consult(.powerOffCatchUp)`).
/// A setting the scenario states is the scenario's choice, not trigsim's
/// assumption, so it is never logged. One log per run: the run's summary
/// lists what it holds (`RunSummary.consultedAssumptions`).
final class AssumptionLog {
  /// The settings the scenario states (`Scenario.statedAssumptions`).
  let stated: Set<AssumptionID>
  /// The settings consulted so far and not stated.
  private(set) var consulted: Set<AssumptionID> = []

  init(stated: Set<AssumptionID>) { self.stated = stated }

  /// The run took a decision that `id`'s reading could change: logged
  /// unless the scenario states the setting.
  func consult(_ id: AssumptionID) {
    guard !stated.contains(id) else { return }
    consulted.insert(id)
  }

  /// The consulted settings in the registry's order, as the summary lists them.
  var inRegistryOrder: [AssumptionID] { AssumptionRegistry.inRegistryOrder(consulted) }
}
