import Foundation

/// Runs a scenario: replays the track and the virtual clock through the
/// geofence, calendar and interval triggers and the notification center, and
/// returns the timeline.
///
/// ```swift
/// let timeline = try Simulation(scenario).run()   // the scenario's medicine app (import TrigsimMedicineApp)
/// print(timeline.canonicalText)
/// ```
///
/// The run is a discrete-event simulation. Fixes are read one at a time; the
/// boundary crossings of the path from the previous fix are queued as events,
/// then every queued event up to the new fix's instant is handled in
/// `(instant, phase, rank, sequence)` order (see `EventPhase`). Nothing reads
/// the wall clock or a random source, so identical input gives an identical
/// timeline.
///
/// Entries go to a `TimelineEntrySink` as they are made: `run()` and
/// `report()` collect them in a `Timeline`; `run(into:)` hands them to any
/// sink, so a caller that writes them out holds none. Every run is bounded
/// by the scenario's `limits` (`RunLimits`).
public struct Simulation {
  public let scenario: Scenario
  /// The app under test: a team's app, or the scenario's medicine app
  /// (`MedicineReminderApp` in `TrigsimMedicineApp`, which `Simulation(scenario)` runs).
  public let app: HostedApp

  /// Runs `scenario` with `app`, a team's app or the scenario's medicine app
  /// (`HostedApp`): the scenario's world, device and patient, and the app's
  /// own code against the simulated device (the manual, "Your app in the loop").
  public init(_ scenario: Scenario, app: HostedApp) {
    self.scenario = scenario
    self.app = app
  }

  /// A scenario written for a Swift app (`appUnderTest: swift`) runs only with one, not the scenario's medicine app.
  static func checkAppUnderTest(of scenario: Scenario, app: HostedApp) throws {
    guard scenario.appUnderTest == .swift, app.isScenarioMedicineApp else { return }
    throw InputError(
      Diagnostic(
        at: scenario.appUnderTestOrigin ?? InputLocation(file: scenario.name, line: 1, column: 1),
        "this scenario is written for a team's Swift app ('appUnderTest: swift'); the scenario's medicine app cannot run it",
        notes: [
          "run it from Swift: Simulation(scenario, app: HostedApp { device in YourApp(device) }), or with the TrigsimTesting helpers (the manual, \"Your app in the loop\")"
        ]))
  }

  /// Runs the scenario from `clock.start` to `clock.end` inclusive.
  ///
  /// - Throws: `InputError` when the track file has bad input.
  public func run() throws -> Timeline {
    try report().timeline
  }

  /// Runs the scenario and returns the timeline with its summary: every
  /// dose's outcome and the pending-slot accounting.
  ///
  /// - Throws: `InputError` when the track file has bad input, when a
  ///   scripted user action names a notification that is not in Notification
  ///   Center at its instant (every such action is reported at once), or
  ///   when the run exceeds one of the scenario's `limits`.
  public func report() throws -> SimulationReport {
    try report(variation: nil)
  }

  /// Runs trial `index` of a trial run seeded with `seed` (see
  /// `TrialRunner`): the timeline behind one line of a trial report, to see
  /// why a dose was missed in that trial.
  public func report(trial index: Int, seed: UInt64) throws -> SimulationReport {
    try report(variation: TrialRunner.variation(trial: index, seed: seed, profile: scenario.platform.location))
  }

  /// Runs the scenario, handing each entry to `sink` as it is made, and
  /// returns what is known only at the end: the header (it counts the fixes
  /// read) and the summary. The entries `sink` received, with this header,
  /// are the timeline `report()` returns.
  ///
  /// - Throws: as `report()`, and any error `sink` throws (the run stops at
  ///   once). Entries already appended stay in `sink`.
  public func run<Sink: TimelineEntrySink>(into sink: inout Sink) throws -> StreamedReport {
    try run(variation: nil, into: &sink)
  }

  /// Runs trial `index` of a trial run seeded with `seed`, handing each
  /// entry to `sink` as it is made (see `run(into:)` and `report(trial:seed:)`).
  public func run<Sink: TimelineEntrySink>(trial index: Int, seed: UInt64, into sink: inout Sink) throws -> StreamedReport {
    try run(variation: TrialRunner.variation(trial: index, seed: seed, profile: scenario.platform.location), into: &sink)
  }

  private func report(variation: DeviceVariation?) throws -> SimulationReport {
    var timeline = Timeline()
    let end = try run(variation: variation, into: &timeline)
    timeline.header = end.header
    return SimulationReport(timeline: timeline, summary: end.summary)
  }

  private func run<Sink: TimelineEntrySink>(variation: DeviceVariation?, into sink: inout Sink) throws -> StreamedReport {
    try Self.checkAppUnderTest(of: scenario, app: app)
    var run = SimulationRun(
      scenario, variation: variation, sink: sink, appLayer: HostedAppLayer.make(app, for: scenario), patientLayer: TrialRunner.patient(of: variation))
    // The run holds the sink it was given: always a `Sink`.
    defer { sink = run.sink as! Sink }
    try run.execute()
    var summary = run.summary()
    summary.firstFixAt = run.replay.firstFixInstant
    summary.regionsInsideAtFirstFix = run.replay.regionsInsideAtFirstFix
    summary.coverageWarnings = run.replay.coverageWarnings
    summary.perceptions = run.layers.phone.attention.perceptions
    summary.channelAttempts = run.layers.server.channelAttempts
    summary.badgeHistory = run.layers.phone.attention.badgeHistory
    summary.waitingDosesHistory = run.layers.phone.attention.waitingDosesHistory
    summary.consultedAssumptions = run.layers.assumptionLog.inRegistryOrder
    return StreamedReport(header: run.header(), summary: summary, entryCount: run.entryCount)
  }
}

extension Simulation {
  /// Every event the run handles, in order, one line each: the instant in
  /// milliseconds, the phase, the rank and the event (its kind and values).
  /// Some events write no timeline entry (a dose check, a stale delivery), so
  /// this sees what the timeline cannot; it does not see the entries an event
  /// writes or their order, so it complements the timeline for a refactoring
  /// that must not change behaviour. For tests.
  func eventTrace() throws -> [String] {
    try Self.checkAppUnderTest(of: scenario, app: app)
    final class Lines { var lines: [String] = [] }
    let trace = Lines()
    var run = SimulationRun(scenario, variation: nil, sink: Timeline(), appLayer: HostedAppLayer.make(app, for: scenario))
    run.eventObserver = { event in
      // A layer's event prints as its own (`look(wake)`), as it did when it was one of the engine's kinds.
      let kind = switch event.kind {
      case .patient(let patientEvent): "\(patientEvent)"
      case .ledger(let ledgerEvent): "\(ledgerEvent)"
      case .phone(let phoneEvent): "\(phoneEvent)"
      case .android(let androidEvent): "\(androidEvent)"
      default: "\(event.kind)"
      }
      trace.lines.append("\(event.instant.millisecondsSinceEpoch) \(event.phase.traceName) \(event.rank) \(kind)")
    }
    try run.execute()
    return trace.lines
  }
}

/// The end of a run whose entries went to a sink: the timeline's header and
/// the run's summary, both known only once the run is over.
public struct StreamedReport: Sendable {
  /// The timeline header (scenario, zone, clock, platform, regions, track).
  public var header: [TimelineField]
  public var summary: RunSummary
  /// How many entries the sink received.
  public var entryCount: Int
}

/// The mutable state of one run; entries go to `sink`.
///
/// Not generic over the sink: the engine would then run as unspecialized
/// generic code when the sink's type is another module's (the command
/// line's writer), about a third slower on every fix. One dynamic call per
/// entry costs nothing beside making the entry.
struct SimulationRun {
  let scenario: Scenario
  let calendarEvaluator: CalendarTriggerEvaluator
  var queue = EventQueue()
  var deviceTimeZone: TimeZone
  /// When the device last changed zones (nil: never yet): an instant before it
  /// is written in the zone in force then (`format`).
  var deviceZoneChangedAt: SimulationInstant?
  var sink: any TimelineEntrySink
  /// Entries handed to `sink` so far (bounded by `scenario.limits.timelineEntries`).
  var entryCount = 0
  /// Why the run stopped before the clock's end (a limit, or the sink
  /// failed): no event is handled and no entry made after it; `execute()` throws it.
  var stopReason: (any Error)?

  /// Where the replay of the track stands (`TrackReplay`).
  var replay: TrackReplay

  /// The simulated world's layers, each owning its state (`SimulationLayers`).
  let layers: SimulationLayers
  /// Sees every event as it is handled, in the queue's order (the tests'
  /// event-trace oracle, `Simulation.eventTrace()`); nil in every real run.
  var eventObserver: ((ScheduledEvent) -> Void)?
  /// The trial's seed (`DeviceVariation.seed`), nil in a single run.
  let trialSeed: UInt64?

  init(
    _ scenario: Scenario, variation: DeviceVariation? = nil, sink: any TimelineEntrySink = Timeline(),
    appLayer: any AppLayer, patientLayer: any PatientLayer = ScriptedPatient(), serverLayer: (any ServerLayer)? = nil
  ) {
    self.scenario = scenario
    self.sink = sink
    self.trialSeed = variation?.seed
    let calendarEvaluator = CalendarTriggerEvaluator(
      dstGapPolicy: scenario.platform.dstGapPolicy, repeatedTimePolicy: scenario.platform.repeatedTimePolicy,
      impossibleDatePolicy: scenario.platform.impossibleDatePolicy, calendar: scenario.platform.calendar)
    self.calendarEvaluator = calendarEvaluator
    self.layers = SimulationLayers(
      phone: Phone(scenario, variation: variation, calendar: calendarEvaluator), app: appLayer, patient: patientLayer,
      server: serverLayer ?? scenario.server.makeServerLayer(), ledger: DoseLedger(),
      assumptionLog: AssumptionLog(stated: scenario.statedAssumptions))
    self.deviceTimeZone = scenario.clock.timeZone
    self.replay = TrackReplay(scenario)
  }

  var end: SimulationInstant { scenario.clock.end }

  /// The scenario's app section: its app-state changes, medicine changes and scripted actions.
  var medicineApp: MedicineApp { scenario.medicineApp }
  /// The scenario's `policy:` (its identifier templates name the requests the dose ledger attributes).
  var policy: AppPolicy { medicineApp.policy }

  /// Queues the scenario's app-state changes and the patient's medicine changes.
  mutating func scheduleAppAndMedicineChanges() {
    for (index, change) in medicineApp.appChanges.enumerated() where change.instant <= end {
      queue.schedule(.phone(.appChange(index)), at: change.instant, phase: .appChange, rank: index)
    }
    let rawActions = scenario.actions.count
    for (index, change) in medicineApp.medicineChanges.enumerated() where change.instant <= end {
      queue.schedule(.medicineChange(index), at: change.instant, phase: .appAction, rank: rawActions + index)
    }
  }

  mutating func execute() throws {
    if let problem = scenario.limits.clockSpanProblem(scenario.clock) { throw InputError(problem) }
    for (index, change) in scenario.clock.timeZoneChanges.enumerated() where change.instant <= end {
      queue.schedule(.timeZoneChange(index), at: change.instant, phase: .timeZoneChange, rank: index)
    }
    layers.phone.scheduler = scenario.platform.makePhoneScheduler(startingIn: self)
    let scheduler = layers.phone.scheduler
    if !scenario.actions.isEmpty, let refusal = scheduler.scenarioRequestsRefusal {
      record(.warning, "notifications", at: scenario.clock.start, [TimelineField("reason", refusal)])
    } else {
      for (index, action) in scenario.actions.enumerated() where action.instant <= end {
        queue.schedule(.phone(.appAction(index)), at: action.instant, phase: .appAction, rank: index)
      }
    }
    scheduler.runStarts(in: &self)
    let layer = layers.app
    layer.scheduleEvents(in: &self)
    let patient = layers.patient
    patient.scheduleEvents(in: &self)
    let server = layers.server
    server.scheduleEvents(in: &self)
    let phone = layers.phone
    phone.scheduleDeviceEvents(in: &self)
    for warning in layers.phone.locationService.regionWarnings {
      record(.warning, scenario.regions[warning.region].id.rawValue, at: scenario.clock.start, [TimelineField("reason", warning.reason)])
    }
    if let track = scenario.track {
      if replay.usesQuietStretches, replay.recordedGeometry != nil, let blocks = track as? any SampleBlockSource {
        try blocks.readSampleBlocks { replay(block: $0) }
      } else {
        try track.readSamples { replayAndHandle($0) }
      }
    }
    if let stopReason { throw stopReason }
    warnTrackEndsEarly()
    if let lastFix = replay.previousFix {
      while let restart = layers.phone.takeMonitoringRestart(upTo: end) { layers.phone.locationService.restartMonitoring(at: restart, into: &layers.phone.reportBuffer) }
      layers.phone.locationService.finish(last: lastFix, until: end, into: &layers.phone.reportBuffer)
      layers.phone.queueDeviceReports(in: &self)
    }
    handleEvents(notAfter: end)
    layer.runEnded(in: &self)
    layers.patient.runEnded(in: &self)
    if let stopReason { throw stopReason }
    let rejectedActions = layers.patient.rejectedActions
    if !rejectedActions.isEmpty { throw InputError(rejectedActions) }
  }

  // MARK: - Track replay

  /// One fix: its position events, then every event due by its instant.
  /// Returns whether the run goes on.
  mutating func replayAndHandle(_ sample: TrackSample) -> Bool {
    replay(sample)
    if layers.phone.observesFixes {
      let layer = layers.app
      layer.observe(sample, in: &self)
    }
    handleEvents(notAfter: min(sample.instant, end))
    // Said once the events before the first fix are in the timeline.
    if let first = replay.firstFixToWarn {
      replay.firstFixToWarn = nil
      warnTrackStartsLate(first)
    }
    return sample.instant < end && stopReason == nil
  }

  /// A run of fixes (a trial replaying the recorded geometry). Most fixes of
  /// a day are quiet: no crossing, nothing due, the device's fast path. The
  /// location service takes each stretch of them in one call
  /// (`advanceQuietly`); the rest go fix by fix. The events and entries are
  /// those of `replayAndHandle` for every fix (the property tests compare).
  mutating func replay(block: ArraySlice<TrackSample>) -> Bool {
    var position = block.startIndex
    while position < block.endIndex {
      let quiet = quietFixes(in: block[position...])
      guard quiet > 0 else {
        guard replayAndHandle(block[position]) else { return false }
        position += 1
        continue
      }
      let taken = layers.phone.locationService.advanceQuietly(
        from: replay.previousFix!, through: block[position..<position + quiet], appInForeground: layers.phone.installedApp.state == .foreground,
        into: &layers.phone.reportBuffer)
      let last = block[position + taken - 1]
      replay.fixesRead += taken
      replay.quietStretchFixes += taken
      replay.lastFixInstant = last.instant
      replay.previousFix = last
      position += taken
      if !layers.phone.reportBuffer.isEmpty {
        layers.phone.queueDeviceReports(in: &self)
        handleEvents(notAfter: last.instant)
        guard stopReason == nil else { return false }
      }
    }
    return true
  }

  /// How many of the leading `fixes` are quiet for the engine: the recorded
  /// geometry has no crossing and no gap at them, and each comes before the
  /// next queued event, the next monitoring restart and the clock's end (so
  /// replaying them fix by fix would hand nothing but the fix to the location
  /// service and handle no event). None before the first fix is replayed, or
  /// while the app hears every fix (`observesFixes`: a location service it started).
  func quietFixes(in fixes: ArraySlice<TrackSample>) -> Int {
    guard replay.previousFix != nil, replay.firstFixToWarn == nil, stopReason == nil, !layers.phone.observesFixes,
      let recordedGeometry = replay.recordedGeometry
    else { return 0 }
    var limit = min(queue.nextInstant ?? end, end)
    if layers.phone.nextMonitoringRestart < layers.phone.monitoringRestarts.count { limit = min(limit, layers.phone.monitoringRestarts[layers.phone.nextMonitoringRestart]) }
    // Instants do not decrease: the fixes before `limit` are a prefix.
    var low = fixes.startIndex, high = fixes.startIndex + min(recordedGeometry.quietSteps(from: replay.fixesRead), fixes.count)
    while low < high {
      let middle = (low + high) / 2
      if fixes[middle].instant < limit { low = middle + 1 } else { high = middle }
    }
    return low - fixes.startIndex
  }

  /// Queues the position events between the previous fix and `fix`: the
  /// geometric crossings (`PathGeometry`) and, after a gap, a `gap` event,
  /// and hands the fix and the crossings to the location service. The first
  /// fix of the track sets the sides and reports nothing (a device already
  /// inside a region gets no entry).
  mutating func replay(_ fix: TrackSample) {
    let index = replay.fixesRead
    replay.fixesRead += 1
    if replay.firstFixInstant == nil { replay.firstFixInstant = fix.instant }
    replay.lastFixInstant = fix.instant
    defer { replay.previousFix = fix }
    if !replay.stepCrossings.isEmpty { replay.stepCrossings.removeAll(keepingCapacity: true) }
    // Not `recordedGeometry.map { … }`: that copies the recording at every fix, and its replay cursor would not move.
    let step = replay.recordedGeometry != nil ? replay.recordedGeometry!.step(index, into: &replay.stepCrossings) : replay.geometry.step(to: fix, into: &replay.stepCrossings)
    if !replay.segmentCrossings.isEmpty { replay.segmentCrossings.removeAll(keepingCapacity: true) }
    let foreground = layers.phone.installedApp.state == .foreground
    switch step {
    case .first(let inside):
      replay.firstFixToWarn = fix.instant
      for (region, isInside) in zip(scenario.regions, inside) where isInside { replay.regionsInsideAtFirstFix.append(region.id) }
      layers.phone.locationService.start(at: fix, geometricInside: inside)
      while layers.phone.takeMonitoringRestart(upTo: fix.instant) != nil {}  // the first fix sets the sides anyway
      layers.phone.monitoringStartsInsideAtFirstFix(in: &self, at: fix.instant)
    case .gap(let since):
      queue.schedule(
        .trackGap(since: since, newSegmentAt: fix.startsSegment ? fix.instant : nil), at: fix.instant, phase: .position, rank: -1)
      for crossing in replay.stepCrossings { queueCrossing(crossing.region, entering: crossing.entering, afterGap: true, at: crossing.instant) }
      // Monitoring that starts again during the gap starts where the device was last known.
      var restartsAtFix = false
      while let restart = layers.phone.takeMonitoringRestart(upTo: fix.instant) {
        if restart < fix.instant { layers.phone.locationService.restartMonitoring(at: restart, into: &layers.phone.reportBuffer) } else { restartsAtFix = true }
      }
      layers.phone.locationService.resume(after: replay.previousFix!, at: fix, crossings: replay.segmentCrossings, appInForeground: foreground, into: &layers.phone.reportBuffer)
      if restartsAtFix { layers.phone.locationService.restartMonitoring(at: fix.instant, into: &layers.phone.reportBuffer) }
      layers.phone.queueDeviceReports(in: &self)
    case .segment:
      for crossing in replay.stepCrossings { queueCrossing(crossing.region, entering: crossing.entering, afterGap: false, at: crossing.instant) }
      if layers.phone.nextMonitoringRestart < layers.phone.monitoringRestarts.count && layers.phone.monitoringRestarts[layers.phone.nextMonitoringRestart] <= fix.instant {
        layers.phone.advanceLocationService(from: replay.previousFix!, to: fix, appInForeground: foreground, in: &self)
      } else {
        // No restart in this segment (almost every fix): no copy of the crossings.
        layers.phone.locationService.advance(from: replay.previousFix!, to: fix, crossings: replay.segmentCrossings, appInForeground: foreground, into: &layers.phone.reportBuffer)
      }
      if !layers.phone.reportBuffer.isEmpty { layers.phone.queueDeviceReports(in: &self) }
    }
  }

  /// Queues a geometric crossing with its visit number and hands it to the
  /// location service. Visits are counted from the clock's start; an exit
  /// with no entry seen since then ends the visit the device was already on: visit 1.
  mutating func queueCrossing(_ index: Int, entering: Bool, afterGap: Bool, at instant: SimulationInstant) {
    if instant >= scenario.clock.start {
      if entering { replay.visits[index] += 1 } else if replay.visits[index] == 0 { replay.visits[index] = 1 }
    }
    let visit = replay.visits[index]
    queue.schedule(
      .regionCrossing(region: index, entering: entering, afterGap: afterGap, visit: visit), at: instant, phase: .position,
      rank: index)
    replay.segmentCrossings.append(GeometricCrossing(region: index, entering: entering, instant: instant, visit: visit))
  }

  // MARK: - Events

  mutating func handleEvents(notAfter horizon: SimulationInstant) {
    while stopReason == nil, let event = queue.popNext(notAfter: horizon) {
      eventObserver?(event)
      handle(event)
      if layers.phone.tracksBadge { layers.phone.trackWaitingDoses(in: self, at: event.instant) }
    }
  }

  mutating func handle(_ event: ScheduledEvent) {
    let now = event.instant
    switch event.kind {
    case .timeZoneChange(let index):
      let previous = deviceTimeZone
      changeTimeZone(to: scenario.clock.timeZoneChanges[index].timeZone, at: now)
      let layer = layers.app
      layer.timeZoneChanged(from: previous, in: &self, at: now)
    case .trackGap(let since, let newSegmentAt):
      let duration = since.duration(to: now)
      let longGap = duration > scenario.platform.trackGapLimit
      let reason = newSegmentAt == now ? (longGap ? "new track segment after no fix for \(duration)" : "new track segment") : "no fix for \(duration)"
      record(.gap, "track", at: now, [TimelineField("since", format(since)), TimelineField("reason", reason)])
    case .regionCrossing(let index, let entering, let afterGap, let visit):
      crossRegion(index, entering: entering, afterGap: afterGap, visit: visit, at: now)
    case .medicineChange(let index):
      let layer = layers.app
      layer.medicineChanged(index, in: &self, at: now)
    case .appLaunch:
      let layer = layers.app
      layer.launch(in: &self, at: now)
    case .significantLocationChange(let position):
      let layer = layers.app
      layer.significantLocationChange(position, in: &self, at: now)
    case .timeChange(let cause, let token):
      let layer = layers.app
      layer.timeChangeDue(cause, token: token, in: &self, at: now)
    case .locationUpdate(let position, let service):
      let layer = layers.app
      layer.locationUpdate(position, service: service, in: &self, at: now)
    case .patient(let event):
      let layer = layers.patient
      layer.eventDue(event, in: &self, at: now)
    case .ledger(let event):
      let ledger = layers.ledger
      layers.ledger.eventDue(event, in: &self, at: now)
    case .android(let event):
      let scheduler = layers.phone.scheduler
      scheduler.eventDue(event, in: &self, at: now)
    case .server(let event):
      let layer = layers.server
      layer.eventDue(event, in: &self, at: now)
    case .phone(let event):
      let phone = layers.phone
      phone.handle(event, in: &self, at: now)
    }
  }

  /// The true path crossed a region's boundary: the `enter`/`exit` entry,
  /// and the location doses this crossing makes due.
  mutating func crossRegion(_ index: Int, entering: Bool, afterGap: Bool, visit: Int, at now: SimulationInstant) {
    let region = scenario.regions[index]
    var fields = [TimelineField("visit", String(visit))]
    if afterGap { fields.append(TimelineField("cause", "position known again after a gap")) }
    record(entering ? .enter : .exit, region.id.rawValue, at: now, fields)
    if !layers.ledger.medicines.isEmpty { layers.ledger.regionCrossed(index, visit: visit, entering: entering, at: now) }
    if layers.phone.locationLog != nil && now >= scenario.clock.start {
      for pending in layers.phone.center.regionRequests(for: region.id, entering: entering) {
        layers.phone.locationLog!.opportunities.append(
          LocationOpportunity(request: pending.request.id, region: index, entering: entering, visit: visit, crossing: now))
      }
    }
    if !layers.ledger.medicines.isEmpty { layers.ledger.openLocationDoses(region: index, entering: entering, visit: visit, in: self, at: now) }
    if !scenario.placeSets.isEmpty && !layers.ledger.medicines.isEmpty {
      layers.ledger.openPlaceSetDoses(region: index, entering: entering, visit: visit, in: self, at: now)
    }
  }

  mutating func changeTimeZone(to zone: TimeZone, at now: SimulationInstant) {
    let previous = deviceTimeZone
    deviceTimeZone = zone
    deviceZoneChangedAt = now
    record(.timezone, scenario.clock.name(of: zone), at: now, [TimelineField("from", scenario.clock.name(of: previous))])
    layers.phone.rescheduleFloatingRequests(for: zone, in: &self, at: now)
    if !layers.ledger.doseClocks.isEmpty {
      let ledger = layers.ledger
      layers.ledger.warnMovedReminders(in: &self, at: now)
    }
  }

  // MARK: - The app's foreground spans

  /// The app's spans in the foreground, known before the run: from each
  /// `app:` change to the foreground to the next change out of it.
  func foregroundSpans() -> [Range<SimulationInstant>] {
    var spans: [Range<SimulationInstant>] = []
    var since: SimulationInstant?
    // In time order (of equal instants, as listed), as the queue applies them.
    let ordered = scenario.medicineApp.appChanges.enumerated().sorted { ($0.element.instant, $0.offset) < ($1.element.instant, $1.offset) }
    for change in ordered.map(\.element) {
      guard let state = change.state else { continue }
      if state == .foreground, since == nil { since = change.instant }
      if state != .foreground, let start = since {
        spans.append(start..<max(start, change.instant))
        since = nil
      }
    }
    if let start = since { spans.append(start..<max(start, end)) }
    return spans
  }

  // MARK: - Device-local time

  /// The first instant at or after `instant` whose device-local wall-clock time is `time`.
  func nextLocal(_ time: DailyTime, atOrAfter instant: SimulationInstant) -> SimulationInstant? {
    calendarEvaluator.nextDelivery(
      of: CalendarTrigger(components: CalendarComponents(hour: time.hour, minute: time.minute), repeats: true),
      after: instant.advanced(byMilliseconds: -1), deviceTimeZone: deviceTimeZone)
  }

  /// The last instant before `instant` whose device-local wall-clock time is `time` (within the day before).
  func previousLocal(_ time: DailyTime, before instant: SimulationInstant) -> SimulationInstant? {
    guard let next = nextLocal(time, atOrAfter: instant.advanced(by: .seconds(-86_400 - 3_600))), next < instant else { return nil }
    var last = next
    while let following = nextLocal(time, atOrAfter: last.advanced(byMilliseconds: 1)), following < instant { last = following }
    return last
  }

  // MARK: - Coverage

  /// The track's first fix comes after the clock's start: until it, the
  /// position is unknown, no region is monitored and no location trigger
  /// can fire. Said at the first fix (or at the clock's end when the track
  /// starts after it).
  mutating func warnTrackStartsLate(_ first: SimulationInstant) {
    guard first > scenario.clock.start, scenario.track != nil else { return }
    if first > end {
      coverage(at: end, "the track starts at \(format(first)), after the clock's end: the position is never known during the run, so no region is entered or left and no location trigger can fire")
    } else {
      coverage(at: first, "the position was unknown from the clock's start (\(format(scenario.clock.start))) to the track's first fix at \(format(first)), \(scenario.clock.start.duration(to: first)) later: no region was monitored and no location trigger could fire before it")
    }
  }

  /// The track ends before the clock does: from its last fix on, the device
  /// stays where it was (see `LocationService.finish`), so no region is
  /// entered or left. Said at the last fix (or at the clock's start when the
  /// track ends before it). Nothing is said without fixes (the reader rejects an empty track).
  mutating func warnTrackEndsEarly() {
    guard let last = replay.lastFixInstant, last < end, let first = replay.firstFixInstant, first <= end else { return }
    if last < scenario.clock.start {
      coverage(at: scenario.clock.start, "the track ends at \(format(last)), before the clock starts: the device stays at its last fix for the whole run, so no region is entered or left")
    } else {
      coverage(at: last, "the track ends at \(format(last)), \(last.duration(to: end)) before the clock's end (\(format(end))): from then on the device stays at its last fix, so no region is entered or left")
    }
  }

  /// A coverage warning: in the timeline (subject `track`) and in the summary, for standard error.
  mutating func coverage(at instant: SimulationInstant, _ reason: String) {
    record(.warning, "track", at: instant, [TimelineField("reason", reason)])
    replay.coverageWarnings.append(reason)
  }

  // MARK: - Recording

  /// Hands an entry to the sink, unless it is before the clock's start
  /// (fixes before the start only establish which side of each region the
  /// device is on) or the run has stopped. The entry past
  /// `limits.timelineEntries` is not made: the run stops with that error.
  mutating func record(_ kind: TimelineEntry.Kind, _ subject: String, at instant: SimulationInstant, _ fields: [TimelineField]) {
    guard instant >= scenario.clock.start, stopReason == nil else { return }
    guard entryCount < scenario.limits.timelineEntries else {
      stopReason = InputError(scenario.limits.timelineEntriesProblem(nextEntryAt: format(instant)))
      return
    }
    entryCount += 1
    do {
      try sink.append(
        TimelineEntry(
          instant: instant, utcOffsetSeconds: deviceTimeZone.secondsFromGMT(for: instant.date), kind: kind,
          subject: subject, fields: fields))
    } catch {
      stopReason = error
    }
  }

  /// An instant in a field, reason or remark, device-local. An instant
  /// from before the device's last time-zone change is written in the zone
  /// in force then, as the timeline wrote an entry at it: a time from before
  /// a flight keeps the offset it had, so `06:00+02:00` is never written as
  /// `00:00-04:00` after a flight west. Any later instant (now, or a trigger's
  /// next date) is written in the zone in force now, as the device reckons
  /// it: the device does not know which zone it will be in.
  func format(_ instant: SimulationInstant) -> String {
    if let changed = deviceZoneChangedAt, instant < changed { return scenario.clock.local(instant) }
    return InstantFormatter.format(instant, offsetSeconds: deviceTimeZone.secondsFromGMT(for: instant.date))
  }

  /// The run's summary, as the dose ledger builds it from what it is handed (`DoseLedgerLayer.summary(of:)`).
  func summary() -> RunSummary { layers.ledger.summary(of: self) }

  /// The timeline header: the scenario, zone, clock, platform rules,
  /// regions, and the track with the fixes read (known once the run is over).
  func header() -> [TimelineField] {
    var header = [
      TimelineField("scenario", scenario.name),
      TimelineField("time zone", scenario.clock.name(of: scenario.clock.timeZone)),
      TimelineField("clock", "\(InstantFormatter(timeZone: scenario.clock.timeZone).string(for: scenario.clock.start)) to \(InstantFormatter(timeZone: scenario.clock.timeZone).string(for: scenario.clock.end)) (end inclusive)"),
      TimelineField("platform", scenario.platform.summary),
    ]
    if let deviceHeader = layers.phone.deviceHeader(in: self) { header.append(deviceHeader) }
    if !scenario.medicineApp.policy.isDefault { header.append(TimelineField("app", scenario.medicineApp.policy.summary)) }
    if scenario.server.isActive { header.append(TimelineField("server", scenario.server.summary)) }
    // A place set's regions are summed up in one line each (`placeSetHeader`).
    for region in scenario.regions.prefix(scenario.placeSetRegions.first?.lowerBound ?? scenario.regions.count) {
      header.append(TimelineField("region \(region.id)", region.shape.summary))
    }
    header += placeSetHeader()
    // `+N` day labels are explained before the first entry that carries one.
    let legends = layers.ledger.doseClocks.flatMap { clock in
      clock.doses.filter { $0.due >= scenario.clock.start && $0.due <= end }.compactMap { clock.key($0).dayLabelLegend }
    }
    if !legends.isEmpty { header.append(TimelineField("day labels", legends.joined(separator: "; "))) }
    if let label = scenario.trackLabel {
      var track = "\(label), \(replay.fixesRead) \(replay.fixesRead == 1 ? "fix" : "fixes") read"
      if let first = replay.firstFixInstant, let last = replay.lastFixInstant {
        track += " from \(InstantFormatter.utc.string(for: first)) to \(InstantFormatter.utc.string(for: last))"
      }
      header.append(TimelineField("track", track))
    }
    return header
  }
}

extension SimulationRun {
  /// The header and every entry made, for a run that collects its entries
  /// in a `Timeline` (the default sink).
  func timeline() -> Timeline {
    guard let collected = sink as? Timeline else { preconditionFailure("timeline() needs a run whose sink is a Timeline") }
    return Timeline(header: header(), entries: collected.entries)
  }
}
