import Foundation

/// The layers of the simulated world that a run drives, each a type that
/// owns its state: the phone, the app under test, the patient, the reminder
/// server, and the observers (the dose ledger and the assumption log).
///
/// The engine (`SimulationRun`) holds them as one value and knows none of
/// them by role: it hands each event to the layer it is addressed to and
/// collects the entries they make. A layer reaches another only through the
/// protocol the other is held by here (the run hands itself to each call),
/// never through another layer's state.
struct SimulationLayers {
  /// The phone the app runs on, of the scenario's platform (`SimulatedPhone`:
  /// its core, with the notification model, location service, power and
  /// attention, and what only its platform does).
  let phone: any SimulatedPhone
  /// The phone's core (`phone.core`, the same object), held here so the
  /// engine hands each fix to the location service without a call through
  /// the protocol: that call and its retain cost 1 % of a 1-day iPhone run.
  let phoneCore: PhoneCore
  /// The app under test, behind the app seam (`AppLayer`).
  let app: any AppLayer
  /// The patient who perceives and acts (`PatientLayer`).
  let patient: any PatientLayer
  /// The app's reminder server (`server:`), an actor of the world beside the clock and the track (`ServerLayer`).
  let server: any ServerLayer
  /// The prescription and what became of each dose, whichever app runs (an observer: `DoseLedgerLayer`).
  let ledger: any DoseLedgerLayer
  /// The registry settings the run's decisions depended on (an observer: `AssumptionLog`).
  let assumptionLog: AssumptionLog

  /// The layers given, each made already.
  init(
    phone: any SimulatedPhone, app: any AppLayer, patient: any PatientLayer, server: any ServerLayer, ledger: any DoseLedgerLayer,
    assumptionLog: AssumptionLog
  ) {
    self.phone = phone
    self.phoneCore = phone.core
    self.app = app
    self.patient = patient
    self.server = server
    self.ledger = ledger
    self.assumptionLog = assumptionLog
  }
}

extension SimulationLayers {
  /// The layers of a run of `scenario`: its platform's phone unless another
  /// is given (a third platform's `SimulatedPhone`), the app under test,
  /// the scenario's patient unless another is given, its server unless
  /// another is given, and fresh observers.
  init(
    _ scenario: Scenario, variation: DeviceVariation?, app: any AppLayer, patient: any PatientLayer = ScriptedPatient(),
    server: (any ServerLayer)? = nil, phone: (any SimulatedPhone)? = nil
  ) {
    self.init(
      phone: phone ?? scenario.platform.makePhone(scenario, variation: variation, calendar: CalendarTriggerEvaluator(scenario.platform)), app: app,
      patient: patient, server: server ?? scenario.server.makeServerLayer(), ledger: DoseLedger(),
      assumptionLog: AssumptionLog(stated: scenario.statedAssumptions))
  }
}

// MARK: - What the engine tells the layers

extension SimulationLayers {
  /// The run starts: the scenario's own notification requests are queued
  /// (unless this phone has no notification triggers), and each layer
  /// queues its inputs, in the order the phone's platform (its own
  /// scheduling), the app, the patient, the server, then the phone's device
  /// events; the location service's warnings on regions are said.
  static func start(in run: inout SimulationRun) {
    let phone = run.layers.phone
    if !run.scenario.actions.isEmpty, let refusal = phone.scenarioRequestsRefusal {
      run.record(.warning, "notifications", at: run.scenario.clock.start, [TimelineField("reason", refusal)])
    } else {
      for (index, action) in run.scenario.actions.enumerated() where action.instant <= run.end {
        run.queue.schedule(.phone(.appAction(index)), at: action.instant, phase: .appAction, rank: index)
      }
    }
    phone.runStarts(in: &run)
    let app = run.layers.app
    app.scheduleEvents(in: &run)
    let patient = run.layers.patient
    patient.scheduleEvents(in: &run)
    let server = run.layers.server
    server.scheduleEvents(in: &run)
    phone.core.scheduleDeviceEvents(in: &run)
    for warning in phone.core.locationService.regionWarnings {
      run.record(.warning, run.scenario.regions[warning.region].id.rawValue, at: run.scenario.clock.start, [TimelineField("reason", warning.reason)])
    }
  }

  /// The clock reached its end: the app and the patient say what they left
  /// undone. Throws why the run stopped early, if it did, else the patient's
  /// scripted actions that could not be made (every one at once).
  static func finish(in run: inout SimulationRun) throws {
    let app = run.layers.app
    app.runEnded(in: &run)
    let patient = run.layers.patient
    patient.runEnded(in: &run)
    if let stopReason = run.stopReason { throw stopReason }
    let rejectedActions = patient.rejectedActions
    if !rejectedActions.isEmpty { throw InputError(rejectedActions) }
  }

  /// A layer's own event is due: handed to the layer that queued it.
  static func handle(_ event: LayerEvent, in run: inout SimulationRun, at now: SimulationInstant) {
    switch event {
    case .app(let event):
      let app = run.layers.app
      switch event {
      case .medicineChange(let index): app.medicineChanged(index, in: &run, at: now)
      case .appLaunch: app.launch(in: &run, at: now)
      case .significantLocationChange(let position): app.significantLocationChange(position, in: &run, at: now)
      case .timeChange(let cause, let token): app.timeChangeDue(cause, token: token, in: &run, at: now)
      case .locationUpdate(let position, let service): app.locationUpdate(position, service: service, in: &run, at: now)
      }
    case .phone(let event):
      let phone = run.layers.phoneCore
      phone.handle(event, in: &run, at: now)
    case .android(let event):
      let phone = run.layers.phone
      phone.eventDue(event, in: &run, at: now)
    case .patient(let event):
      let patient = run.layers.patient
      patient.eventDue(event, in: &run, at: now)
    case .ledger(let event):
      let ledger = run.layers.ledger
      ledger.eventDue(event, in: &run, at: now)
    case .server(let event):
      let server = run.layers.server
      server.eventDue(event, in: &run, at: now)
    }
  }

  /// An event was handled: the phone keeps its badge and waiting-dose histories (when a badge can change).
  @inline(__always)
  static func eventHandled(in run: SimulationRun, at instant: SimulationInstant) {
    let phone = run.layers.phoneCore
    if phone.tracksBadge { phone.trackWaitingDoses(in: run, at: instant) }
  }

  /// The device's zone changed from `previous` (recorded already): the
  /// phone re-evaluates its floating calendar requests, the ledger warns of
  /// reminders the move leaves behind, then the app's time-change callback runs.
  static func timeZoneChanged(from previous: TimeZone, in run: inout SimulationRun, at now: SimulationInstant) {
    let phone = run.layers.phoneCore
    phone.rescheduleFloatingRequests(for: run.deviceTimeZone, in: &run, at: now)
    let ledger = run.layers.ledger
    if !ledger.doseClocks.isEmpty { ledger.warnMovedReminders(in: &run, at: now) }
    let app = run.layers.app
    app.timeZoneChanged(from: previous, in: &run, at: now)
  }

  /// The true path crossed region `index` (recorded already): the ledger
  /// counts the visit, a trial's location log notes the requests the
  /// crossing could deliver, and the location doses it makes due are opened.
  static func regionCrossed(_ index: Int, entering: Bool, visit: Int, in run: inout SimulationRun, at now: SimulationInstant) {
    let ledger = run.layers.ledger, phone = run.layers.phone.core
    let region = run.scenario.regions[index]
    if !ledger.medicines.isEmpty { ledger.regionCrossed(index, visit: visit, entering: entering, at: now) }
    if phone.locationLog != nil && now >= run.scenario.clock.start {
      for pending in phone.center.regionRequests(for: region.id, entering: entering) {
        phone.locationLog!.opportunities.append(
          LocationOpportunity(request: pending.request.id, region: index, entering: entering, visit: visit, crossing: now))
      }
    }
    if !ledger.medicines.isEmpty { ledger.openLocationDoses(region: index, entering: entering, visit: visit, in: run, at: now) }
    if !run.scenario.placeSets.isEmpty && !ledger.medicines.isEmpty {
      ledger.openPlaceSetDoses(region: index, entering: entering, visit: visit, in: run, at: now)
    }
  }

  /// The run's summary, as the dose ledger builds it from what it is handed (`DoseLedgerLayer.summary(of:)`).
  static func summary(of run: SimulationRun) -> RunSummary { run.layers.ledger.summary(of: run) }

  /// The timeline header: the scenario, zone, clock, platform rules, the
  /// phone's and the app's settings, the server, regions, day labels, and
  /// the track with the fixes read (known once the run is over).
  static func header(of run: SimulationRun) -> [TimelineField] {
    let scenario = run.scenario
    var header = [
      TimelineField("scenario", scenario.name),
      TimelineField("time zone", scenario.clock.name(of: scenario.clock.timeZone)),
      TimelineField("clock", "\(InstantFormatter(timeZone: scenario.clock.timeZone).string(for: scenario.clock.start)) to \(InstantFormatter(timeZone: scenario.clock.timeZone).string(for: scenario.clock.end)) (end inclusive)"),
      TimelineField("platform", scenario.platform.summary),
    ]
    if let deviceHeader = run.layers.phone.core.deviceHeader(in: run) { header.append(deviceHeader) }
    if !scenario.medicineApp.policy.isDefault { header.append(TimelineField("app", scenario.medicineApp.policy.summary)) }
    if scenario.server.isActive { header.append(TimelineField("server", scenario.server.summary)) }
    // A place set's regions are summed up in one line each (`placeSetHeader`).
    for region in scenario.regions.prefix(scenario.placeSetRegions.first?.lowerBound ?? scenario.regions.count) {
      header.append(TimelineField("region \(region.id)", region.shape.summary))
    }
    header += run.placeSetHeader()
    // `+N` day labels are explained before the first entry that carries one.
    let legends = run.layers.ledger.doseClocks.flatMap { clock in
      clock.doses.filter { $0.due >= scenario.clock.start && $0.due <= run.end }.compactMap { clock.key($0).dayLabelLegend }
    }
    if !legends.isEmpty { header.append(TimelineField("day labels", legends.joined(separator: "; "))) }
    if let label = scenario.trackLabel {
      let fixesRead = run.replay.fixesRead
      var track = "\(label), \(fixesRead) \(fixesRead == 1 ? "fix" : "fixes") read"
      if let first = run.replay.firstFixInstant, let last = run.replay.lastFixInstant {
        track += " from \(InstantFormatter.utc.string(for: first)) to \(InstantFormatter.utc.string(for: last))"
      }
      header.append(TimelineField("track", track))
    }
    return header
  }
}
