import Foundation

extension PhoneCore {
  /// The device reported a region event: a detection delivers the region's
  /// pending location requests of that kind (when location authorization
  /// lets the platform monitor regions); a crossing it did not detect is
  /// explained. Reports about regions no pending location request monitors
  /// add nothing.
  ///
  /// A detection whose condition held while location authorization blocked
  /// region monitoring delivers nothing (`suppressed`), even once it is allowed again.
  ///
  /// A request monitors its region from its add on: a detection delivers
  /// only the requests added at or before its condition instant (the device
  /// already past the margin when monitoring starts gets no entry, as at the
  /// first fix), so a condition before the clock's start delivers nothing.
  func handleDeviceReport(_ report: DeviceRegionReport, in run: inout SimulationRun, at now: SimulationInstant) {
    // A crossing before the clock's start (visit 0) is not explained, even when the explanation
    // comes after the start (behind a detection still on its way): the timeline starts at the start.
    if report.kind == .undetected && report.visit == 0 { return }
    let region = run.scenario.regions[report.region]
    let condition = report.kind == .detected ? report.conditionInstant : nil
    var requests = center.regionRequests(for: region.id, entering: report.entering, addedAtOrBefore: condition)
    // A DWELL (Android) is not a crossing: it delivers no location trigger and settles no dose.
    let dwell = report.transition == .dwell
    if dwell { requests = [] }
    if let only = report.onlyRequest { requests.removeAll { $0.request.id != only } }
    // A detection is shown for any region monitored at its condition (it
    // changes the device's side); an undetected crossing only where a request
    // of its kind, or of either kind when it changes what the next crossing
    // means, is pending.
    let monitored = report.kind == .detected || report.concernsBothKinds
      ? center.monitors(region.id, addedAtOrBefore: condition) || run.layers.app.monitorsRegion(region.id, addedAtOrBefore: condition)
      : !requests.isEmpty
    // Blocked now, or when the device decided: then the platform was monitoring nothing.
    let blockedReason = installedApp.regionMonitoringBlockedReason ?? deviceSchedule.monitoringBlockedReason(at: now)
      ?? condition.flatMap { condition in
        regionMonitoringBlockedReason(at: condition).map { "the device's condition held at \(run.format(condition)), while \($0)" }
      }
    if monitored && blockedReason == nil && !report.coincidesWithCrossing {
      var fields = [TimelineField("event", report.transition?.rawValue ?? (report.entering ? "enter" : "exit"))]
      if let visit = report.visit { fields.append(TimelineField("visit", String(visit))) }
      if let crossing = report.crossingInstant, report.kind == .detected {
        fields.append(TimelineField("after", crossing.duration(to: now).description))
      }
      if let reason = report.reason { fields.append(TimelineField("reason", reason)) }
      run.record(report.kind == .detected ? .detected : .undetected, region.id.rawValue, at: now, fields)
      for id in locationService.reportAssumptions { run.layers.assumptionLog.consult(id) }
    }
    switch report.kind {
    case .undetected:
      if let reason = report.reason, let visit = report.visit, monitored {
        run.layers.ledger.noteUndetectedLocationDoses(region: report.region, entering: report.entering, visit: visit, reason: "the device did not detect the \(report.entering ? "entry" : "exit") of visit \(visit): \(reason)")
      }
    case .detected:
      // The device now holds the other side: a dose opened ahead of the true path on this one was a false firing.
      if run.trialSeed != nil && !run.layers.ledger.provisionalLocationDoses.isEmpty {
        for side in run.layers.ledger.provisionalLocationDoses.keys where side.region == report.region && side.entering != report.entering {
          run.layers.ledger.dropProvisional(side)
        }
      }
      var shown: Set<NotificationID> = []
      locationReportContext = (report.region, report.visit, report.entering)
      defer { locationReportContext = nil }
      for pending in requests {
        if let blockedReason {
          run.record(.suppressed, pending.request.id.rawValue, at: now,
                 [TimelineField("trigger", pending.request.trigger.summary), TimelineField("cause", SuppressionCause.regionMonitoring.rawValue),
                  TimelineField("reason", blockedReason)])
          run.layers.ledger.requestLost(pending.request.id, "not delivered at \(run.format(now)): \(blockedReason)")
          continue
        }
        if deliver(pending, in: &run, at: now, next: nil) {
          shown.insert(pending.request.id)
          locationLog?.deliveries.append(
            LocationDelivery(
              request: pending.request.id, region: report.region, entering: report.entering, visit: report.visit,
              crossing: report.crossingInstant, at: now))
        }
      }
      // An entry reported for one request that started monitoring inside is not the app's region event.
      if blockedReason == nil && report.onlyRequest == nil {
        let layer = run.layers.app
        layer.regionDetected(report.region, entering: report.entering, transition: report.transition, condition: condition, in: &run, at: now)
      }
      if !dwell, !run.layers.ledger.medicines.isEmpty, let visit = report.visit { run.layers.ledger.settleLocationDoses(region: report.region, entering: report.entering, visit: visit, in: run, at: now) }
    }
  }

  /// Queues what the location service reported, each at its instant.
  func queueDeviceReports(in run: inout SimulationRun) {
    guard !reportBuffer.isEmpty else { return }
    for report in reportBuffer where report.instant <= run.end {
      deviceReports[nextReportIndex] = report
      run.queue.schedule(.phone(.deviceReport(nextReportIndex)), at: report.instant, phase: .position, rank: report.region)
      nextReportIndex += 1
    }
    reportBuffer.removeAll(keepingCapacity: true)
  }

  /// The next instant region monitoring starts again, if it is at or before `instant`.
  func takeMonitoringRestart(upTo instant: SimulationInstant) -> SimulationInstant? {
    guard nextMonitoringRestart < monitoringRestarts.count, monitoringRestarts[nextMonitoringRestart] <= instant else { return nil }
    nextMonitoringRestart += 1
    return monitoringRestarts[nextMonitoringRestart - 1]
  }

  /// Why region monitoring was blocked at `instant` (by the app's location
  /// authorization or by the phone's power), if it was.
  func regionMonitoringBlockedReason(at instant: SimulationInstant) -> String? {
    monitoringBlockedSpans.last { $0.from <= instant && $0.until.map { instant < $0 } ?? true }?.reason
      ?? deviceSchedule.monitoringBlockedReason(at: instant)
  }

  /// Hands the segment to the location service, split at each instant region
  /// monitoring starts again: the service is restarted where the device is then.
  func advanceLocationService(from previous: TrackSample, to fix: TrackSample, appInForeground: Bool, in run: inout SimulationRun) {
    var from = previous
    var crossings = run.replay.segmentCrossings
    while let restart = takeMonitoringRestart(upTo: fix.instant) {
      var to = fix
      if restart < fix.instant {
        // Between the fixes the larger stated accuracy applies.
        let accuracy = [previous.horizontalAccuracy, fix.horizontalAccuracy].compactMap { $0 }.max()
        to = TrackSample(instant: restart, coordinate: DevicePath(from: previous, to: fix).position(at: restart), horizontalAccuracy: accuracy)
      }
      locationService.advance(
        from: from, to: to, crossings: crossings.filter { $0.instant <= restart }, appInForeground: appInForeground, into: &reportBuffer)
      crossings.removeAll { $0.instant <= restart }
      locationService.restartMonitoring(at: restart, into: &reportBuffer)
      if restart == fix.instant { return }
      from = to
    }
    locationService.advance(from: from, to: fix, crossings: crossings, appInForeground: appInForeground, into: &reportBuffer)
  }

  /// A location request that notifies on entry starts monitoring its region
  /// (its add, or the first fix for one added before it) while the device
  /// believes it is inside: Core Location reports no entry, and nothing
  /// documents what `UNLocationNotificationTrigger` does (`locationAlreadyInside`).
  /// Under `entered` the device reports an entry for this request alone.
  func monitoringStartsInside(_ request: NotificationRequest, in run: inout SimulationRun, at now: SimulationInstant) {
    guard case .region(let trigger) = request.trigger, trigger.notifyOnEntry, run.replay.firstFixInstant != nil,
      installedApp.regionMonitoringBlockedReason == nil,
      let region = run.scenario.regions.firstIndex(where: { $0.id == trigger.region }), locationService.believesInside(region)
    else { return }
    run.layers.assumptionLog.consult(.locationAlreadyInside)
    guard run.scenario.platform.locationAlreadyInside == .entered else { return }
    var report = locationService.entryForMonitoringStartedInside(region, at: now)
    report.onlyRequest = request.id
    reportBuffer.append(report)
    queueDeviceReports(in: &run)
  }

  /// The first fix: every pending entry request whose region the device is inside.
  func monitoringStartsInsideAtFirstFix(in run: inout SimulationRun, at now: SimulationInstant) {
    for (index, region) in run.scenario.regions.enumerated() where locationService.believesInside(index) {
      for pending in center.regionRequests(for: region.id, entering: true) { monitoringStartsInside(pending.request, in: &run, at: now) }
    }
  }
}
