/// Where a run consults the registry (`AssumptionRegistry`): each decision
/// whose outcome depends on a setting no source settles.
extension SimulationRun {
  /// The run took a decision that `id`'s reading could change. Recorded only
  /// when the scenario does not state the setting itself: a stated setting is
  /// the scenario's choice, not trigsim's assumption.
  mutating func consult(_ id: AssumptionID) {
    guard !scenario.statedAssumptions.contains(id) else { return }
    consultedAssumptions.insert(id)
  }

  /// A location request that notifies on entry starts monitoring its region
  /// (its add, or the first fix for one added before it) while the device
  /// believes it is inside: Core Location reports no entry, and nothing
  /// documents what `UNLocationNotificationTrigger` does (`locationAlreadyInside`).
  /// Under `entered` the device reports an entry for this request alone.
  mutating func monitoringStartsInside(_ request: NotificationRequest, at now: SimulationInstant) {
    guard case .region(let trigger) = request.trigger, trigger.notifyOnEntry, firstFixInstant != nil,
      phone.installedApp.regionMonitoringBlockedReason == nil,
      let region = scenario.regions.firstIndex(where: { $0.id == trigger.region }), phone.locationService.believesInside(region)
    else { return }
    consult(.locationAlreadyInside)
    guard scenario.platform.locationAlreadyInside == .entered else { return }
    var report = phone.locationService.entryForMonitoringStartedInside(region, at: now)
    report.onlyRequest = request.id
    phone.reportBuffer.append(report)
    phone.queueDeviceReports(in: &self)
  }

  /// The first fix: every pending entry request whose region the device is inside.
  mutating func monitoringStartsInsideAtFirstFix(at now: SimulationInstant) {
    for (index, region) in scenario.regions.enumerated() where phone.locationService.believesInside(index) {
      for pending in phone.center.regionRequests(for: region.id, entering: true) { monitoringStartsInside(pending.request, at: now) }
    }
  }
}
