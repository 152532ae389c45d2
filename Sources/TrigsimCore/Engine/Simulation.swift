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
    summary.firstFixAt = run.firstFixInstant
    summary.regionsInsideAtFirstFix = run.regionsInsideAtFirstFix
    summary.coverageWarnings = run.coverageWarnings
    summary.perceptions = run.attention.perceptions
    summary.channelAttempts = run.server.attempts
    summary.badgeHistory = run.attention.badgeHistory
    summary.waitingDosesHistory = run.attention.waitingDosesHistory
    summary.consultedAssumptions = AssumptionRegistry.inRegistryOrder(run.consultedAssumptions)
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
      trace.lines.append("\(event.instant.millisecondsSinceEpoch) \(event.phase) \(event.rank) \(event.traceText)")
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
  var center: NotificationCenterModel
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

  // Track replay.
  var previousFix: TrackSample?
  /// The exact geometry of the true path, computed as the fixes come...
  var geometry: PathGeometry
  /// ... or replayed from a recording (trials: the same track in every trial).
  var recordedGeometry: RecordedPathGeometry?
  /// Off, a replayed recording goes fix by fix too (the reference the property tests compare with).
  var usesQuietStretches = true
  /// Fixes replayed in quiet stretches (for the tests: proof that they ran).
  private(set) var quietStretchFixes = 0
  var stepCrossings: [StepCrossing] = []
  var fixesRead = 0
  var firstFixInstant: SimulationInstant?
  /// The regions the device was inside at the first fix (no `enter` is recorded for them).
  var regionsInsideAtFirstFix: [RegionID] = []
  var lastFixInstant: SimulationInstant?
  /// What the track does not cover of the clock (`coverage(at:_:)`), in the order said.
  var coverageWarnings: [String] = []
  /// The first fix, until its coverage warning is said.
  var firstFixToWarn: SimulationInstant?
  var visits: [Int]
  /// The registry settings consulted so far (`consult(_:)`).
  var consultedAssumptions: Set<AssumptionID> = []

  // Device: the location service and the presenter the platform profile provides.
  var locationService: any LocationService
  let presenter: any NotificationPresenter
  /// Geometric crossings of the segment being replayed, for the location service.
  var segmentCrossings: [GeometricCrossing] = []
  var reportBuffer: [DeviceRegionReport] = []
  /// Reports waiting in the queue, by the index their event carries.
  var deviceReports: [Int: DeviceRegionReport] = [:]
  var nextReportIndex = 0
  /// When location authorization lets region monitoring start again after
  /// blocking it, in handling order; the location service is restarted at
  /// each (the segment split there), `nextMonitoringRestart` being the next.
  let monitoringRestarts: [SimulationInstant]
  var nextMonitoringRestart = 0
  /// The spans during which region monitoring was blocked, with the reason.
  var monitoringBlockedSpans: [(from: SimulationInstant, until: SimulationInstant?, reason: String)] = []
  /// The report whose detection is being delivered: which visit a location
  /// dose belongs to (none for a detection of a side the true path did not reach).
  var locationReportContext: (region: Int, visit: Int?, entering: Bool)?
  /// What a trial needs to know about location requests (nil outside trials: nothing is kept).
  var locationLog: LocationRequestLog?

  /// The app under test, behind the app seam (`AppLayer`).
  let appLayer: any AppLayer
  /// The patient who perceives and acts (`PatientLayer`).
  let patientLayer: any PatientLayer
  /// Whether the app layer sees every fix (a location service the app started: significant-change or standard updates).
  var observesFixes = false
  /// Sees every event as it is handled, in the queue's order (the tests'
  /// event-trace oracle, `Simulation.eventTrace()`); nil in every real run.
  var eventObserver: ((ScheduledEvent) -> Void)?
  /// The device's record of the app under test: its state and permissions.
  var installedApp = InstalledAppState()
  /// The prescription and what became of each dose, whichever app runs.
  var ledger = DoseLedger()
  /// The patient's response-rule steps and refused scripted actions.
  var patient = PatientState()
  var pendingPeak = 0
  var pendingPeakAt: SimulationInstant?
  var droppedByPendingLimit: [(id: NotificationID, at: SimulationInstant)] = []
  /// What each request of `droppedByPendingLimit` was to the app when it was dropped (nil: no dose attribution).
  var droppedRequestRoles: [MedicineRequestInfo?] = []

  // Attention: between a delivery and the patient (see SimulationRun+Attention.swift).
  let deviceSchedule: DeviceSchedule
  var attention = AttentionState()
  /// The push service between the app's server and the device (what it stores, when it hands over).
  var pushService: PushService
  /// How pushes reach the app on this platform (APNs or FCM).
  let pushTransport: any PushTransport
  /// Every push the app's server sends in this run: the scenario's scripted
  /// `pushes:`, then those the reminder server (`server:`) sends as it goes.
  /// Push events and the push service name pushes by their index here.
  var remotePushes: [RemotePush]
  /// The app's reminder server (`server:`), an actor of the world beside the clock and the track.
  let serverLayer: any ServerLayer
  /// What the reminder server knows and has sent (see `SimulationRun+Server.swift`).
  var server = ServerState()
  /// Set while a catch-up delivery after power-on is made: when it came due.
  var catchUpDue: SimulationInstant?
  /// With `catchUpDue`: whether it came due while the phone was off (else
  /// after switch-on, before the first unlock).
  var catchUpWhileOff = true
  /// Whether the run keeps the badge and waiting-dose histories (a badge can change).
  let tracksBadge: Bool
  /// The phone's own scheduling of the app (`PhoneScheduler`): none until
  /// the run starts, then the platform's.
  var phoneScheduler: any PhoneScheduler = IPhoneScheduler()
  /// The trial's seed (`DeviceVariation.seed`), nil in a single run.
  let trialSeed: UInt64?

  init(
    _ scenario: Scenario, variation: DeviceVariation? = nil, sink: any TimelineEntrySink = Timeline(),
    appLayer: any AppLayer, patientLayer: any PatientLayer = ScriptedPatient()
  ) {
    self.scenario = scenario
    self.appLayer = appLayer
    self.patientLayer = patientLayer
    self.sink = sink
    self.locationService = scenario.platform.makeLocationService(regions: scenario.regions, variation: variation)
    self.presenter = scenario.platform.makePresenter()
    self.pushService = PushService(rules: scenario.platform.attention, trialSeed: variation?.seed)
    self.pushTransport = scenario.platform.makePushTransport()
    self.remotePushes = scenario.pushes.pushes
    self.serverLayer = scenario.server.makeServerLayer()
    self.trialSeed = variation?.seed
    self.calendarEvaluator = CalendarTriggerEvaluator(
      dstGapPolicy: scenario.platform.dstGapPolicy, repeatedTimePolicy: scenario.platform.repeatedTimePolicy,
      impossibleDatePolicy: scenario.platform.impossibleDatePolicy, calendar: scenario.platform.calendar)
    self.center = NotificationCenterModel(settings: scenario.platform)
    self.deviceTimeZone = scenario.clock.timeZone
    self.visits = Array(repeating: 0, count: scenario.regions.count)
    self.geometry = PathGeometry(shapes: scenario.regions.map(\.shape), gapLimit: scenario.platform.trackGapLimit)
    self.deviceSchedule = DeviceSchedule(scenario: scenario, calendar: calendarEvaluator)
    self.monitoringRestarts = DeviceSchedule.monitoringRestarts(
      appChanges: scenario.medicineApp.appChanges, powerBlocked: deviceSchedule.monitoringBlocked, until: scenario.clock.end)
    self.tracksBadge = scenario.medicineApp.badge != .none || scenario.pushes.pushes.contains { $0.badge != nil }
      || scenario.actions.contains { if case .add(let request) = $0.action { request.badge != nil } else { false } }
    stepCrossings.reserveCapacity(8)
  }

  var end: SimulationInstant { scenario.clock.end }

  mutating func execute() throws {
    if let problem = scenario.limits.clockSpanProblem(scenario.clock) { throw InputError(problem) }
    for (index, change) in scenario.clock.timeZoneChanges.enumerated() where change.instant <= end {
      queue.schedule(.timeZoneChange(index), at: change.instant, phase: .timeZoneChange, rank: index)
    }
    phoneScheduler = scenario.platform.makePhoneScheduler(startingIn: self)
    let phone = phoneScheduler
    if !scenario.actions.isEmpty, let refusal = phone.scenarioRequestsRefusal {
      record(.warning, "notifications", at: scenario.clock.start, [TimelineField("reason", refusal)])
    } else {
      for (index, action) in scenario.actions.enumerated() where action.instant <= end {
        queue.schedule(.appAction(index), at: action.instant, phase: .appAction, rank: index)
      }
    }
    phone.runStarts(in: &self)
    let layer = appLayer
    layer.scheduleEvents(in: &self)
    let patientLayer = patientLayer
    patientLayer.scheduleEvents(in: &self)
    let serverLayer = serverLayer
    serverLayer.scheduleEvents(in: &self)
    scheduleDeviceEvents()
    for warning in locationService.regionWarnings {
      record(.warning, scenario.regions[warning.region].id.rawValue, at: scenario.clock.start, [TimelineField("reason", warning.reason)])
    }
    if let track = scenario.track {
      if usesQuietStretches, recordedGeometry != nil, let blocks = track as? any SampleBlockSource {
        try blocks.readSampleBlocks { replay(block: $0) }
      } else {
        try track.readSamples { replayAndHandle($0) }
      }
    }
    if let stopReason { throw stopReason }
    warnTrackEndsEarly()
    if let lastFix = previousFix {
      while let restart = takeMonitoringRestart(upTo: end) { locationService.restartMonitoring(at: restart, into: &reportBuffer) }
      locationService.finish(last: lastFix, until: end, into: &reportBuffer)
      queueDeviceReports()
    }
    handleEvents(notAfter: end)
    layer.runEnded(in: &self)
    patientLayer.runEnded(in: &self)
    if let stopReason { throw stopReason }
    if !patient.actionProblems.isEmpty { throw InputError(patient.actionProblems) }
  }

  // MARK: - Track replay

  /// One fix: its position events, then every event due by its instant.
  /// Returns whether the run goes on.
  mutating func replayAndHandle(_ sample: TrackSample) -> Bool {
    replay(sample)
    if observesFixes {
      let layer = appLayer
      layer.observe(sample, in: &self)
    }
    handleEvents(notAfter: min(sample.instant, end))
    // Said once the events before the first fix are in the timeline.
    if let first = firstFixToWarn {
      firstFixToWarn = nil
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
      let taken = locationService.advanceQuietly(
        from: previousFix!, through: block[position..<position + quiet], appInForeground: installedApp.state == .foreground,
        into: &reportBuffer)
      let last = block[position + taken - 1]
      fixesRead += taken
      quietStretchFixes += taken
      lastFixInstant = last.instant
      previousFix = last
      position += taken
      if !reportBuffer.isEmpty {
        queueDeviceReports()
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
    guard previousFix != nil, firstFixToWarn == nil, stopReason == nil, !observesFixes,
      let recordedGeometry
    else { return 0 }
    var limit = min(queue.nextInstant ?? end, end)
    if nextMonitoringRestart < monitoringRestarts.count { limit = min(limit, monitoringRestarts[nextMonitoringRestart]) }
    // Instants do not decrease: the fixes before `limit` are a prefix.
    var low = fixes.startIndex, high = fixes.startIndex + min(recordedGeometry.quietSteps(from: fixesRead), fixes.count)
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
    let index = fixesRead
    fixesRead += 1
    if firstFixInstant == nil { firstFixInstant = fix.instant }
    lastFixInstant = fix.instant
    defer { previousFix = fix }
    if !stepCrossings.isEmpty { stepCrossings.removeAll(keepingCapacity: true) }
    // Not `recordedGeometry.map { … }`: that copies the recording at every fix, and its replay cursor would not move.
    let step = recordedGeometry != nil ? recordedGeometry!.step(index, into: &stepCrossings) : geometry.step(to: fix, into: &stepCrossings)
    if !segmentCrossings.isEmpty { segmentCrossings.removeAll(keepingCapacity: true) }
    let foreground = installedApp.state == .foreground
    switch step {
    case .first(let inside):
      firstFixToWarn = fix.instant
      for (region, isInside) in zip(scenario.regions, inside) where isInside { regionsInsideAtFirstFix.append(region.id) }
      locationService.start(at: fix, geometricInside: inside)
      while takeMonitoringRestart(upTo: fix.instant) != nil {}  // the first fix sets the sides anyway
      monitoringStartsInsideAtFirstFix(at: fix.instant)
    case .gap(let since):
      queue.schedule(
        .trackGap(since: since, newSegmentAt: fix.startsSegment ? fix.instant : nil), at: fix.instant, phase: .position, rank: -1)
      for crossing in stepCrossings { queueCrossing(crossing.region, entering: crossing.entering, afterGap: true, at: crossing.instant) }
      // Monitoring that starts again during the gap starts where the device was last known.
      var restartsAtFix = false
      while let restart = takeMonitoringRestart(upTo: fix.instant) {
        if restart < fix.instant { locationService.restartMonitoring(at: restart, into: &reportBuffer) } else { restartsAtFix = true }
      }
      locationService.resume(after: previousFix!, at: fix, crossings: segmentCrossings, appInForeground: foreground, into: &reportBuffer)
      if restartsAtFix { locationService.restartMonitoring(at: fix.instant, into: &reportBuffer) }
      queueDeviceReports()
    case .segment:
      for crossing in stepCrossings { queueCrossing(crossing.region, entering: crossing.entering, afterGap: false, at: crossing.instant) }
      if nextMonitoringRestart < monitoringRestarts.count && monitoringRestarts[nextMonitoringRestart] <= fix.instant {
        advanceLocationService(from: previousFix!, to: fix, appInForeground: foreground)
      } else {
        // No restart in this segment (almost every fix): no copy of the crossings.
        locationService.advance(from: previousFix!, to: fix, crossings: segmentCrossings, appInForeground: foreground, into: &reportBuffer)
      }
      if !reportBuffer.isEmpty { queueDeviceReports() }
    }
  }

  /// Hands the segment to the location service, split at each instant region
  /// monitoring starts again: the service is restarted where the device is then.
  mutating func advanceLocationService(from previous: TrackSample, to fix: TrackSample, appInForeground: Bool) {
    var from = previous
    var crossings = segmentCrossings
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

  /// The next instant region monitoring starts again, if it is at or before `instant`.
  mutating func takeMonitoringRestart(upTo instant: SimulationInstant) -> SimulationInstant? {
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

  /// Queues a geometric crossing with its visit number and hands it to the
  /// location service. Visits are counted from the clock's start; an exit
  /// with no entry seen since then ends the visit the device was already on: visit 1.
  mutating func queueCrossing(_ index: Int, entering: Bool, afterGap: Bool, at instant: SimulationInstant) {
    if instant >= scenario.clock.start {
      if entering { visits[index] += 1 } else if visits[index] == 0 { visits[index] = 1 }
    }
    let visit = visits[index]
    queue.schedule(
      .regionCrossing(region: index, entering: entering, afterGap: afterGap, visit: visit), at: instant, phase: .position,
      rank: index)
    segmentCrossings.append(GeometricCrossing(region: index, entering: entering, instant: instant, visit: visit))
  }

  /// Queues what the location service reported, each at its instant.
  mutating func queueDeviceReports() {
    guard !reportBuffer.isEmpty else { return }
    for report in reportBuffer where report.instant <= end {
      deviceReports[nextReportIndex] = report
      queue.schedule(.deviceReport(nextReportIndex), at: report.instant, phase: .position, rank: report.region)
      nextReportIndex += 1
    }
    reportBuffer.removeAll(keepingCapacity: true)
  }

  // MARK: - Events

  mutating func handleEvents(notAfter horizon: SimulationInstant) {
    while stopReason == nil, let event = queue.popNext(notAfter: horizon) {
      eventObserver?(event)
      handle(event)
      if tracksBadge { trackWaitingDoses(at: event.instant) }
    }
  }

  mutating func handle(_ event: ScheduledEvent) {
    let now = event.instant
    switch event.kind {
    case .timeZoneChange(let index):
      let previous = deviceTimeZone
      changeTimeZone(to: scenario.clock.timeZoneChanges[index].timeZone, at: now)
      let layer = appLayer
      layer.timeZoneChanged(from: previous, in: &self, at: now)
    case .appAction(let index):
      perform(scenario.actions[index].action, at: now)
    case .trackGap(let since, let newSegmentAt):
      let duration = since.duration(to: now)
      let longGap = duration > scenario.platform.trackGapLimit
      let reason = newSegmentAt == now ? (longGap ? "new track segment after no fix for \(duration)" : "new track segment") : "no fix for \(duration)"
      record(.gap, "track", at: now, [TimelineField("since", format(since)), TimelineField("reason", reason)])
    case .regionCrossing(let index, let entering, let afterGap, let visit):
      crossRegion(index, entering: entering, afterGap: afterGap, visit: visit, at: now)
    case .deviceReport(let index):
      if let report = deviceReports.removeValue(forKey: index) { handleDeviceReport(report, at: now) }
    case .timeTriggerDue(let id, let token):
      deliverTimeTrigger(id, token: token, at: now)
    case .appChange(let index):
      changeApp(scenario.medicineApp.appChanges[index], at: now)
    case .medicineChange(let index):
      let layer = appLayer
      layer.medicineChanged(index, in: &self, at: now)
    case .appLaunch:
      let layer = appLayer
      layer.launch(in: &self, at: now)
    case .significantLocationChange(let position):
      let layer = appLayer
      layer.significantLocationChange(position, in: &self, at: now)
    case .timeChange(let cause, let token):
      let layer = appLayer
      layer.timeChangeDue(cause, token: token, in: &self, at: now)
    case .locationUpdate(let position, let service):
      let layer = appLayer
      layer.locationUpdate(position, service: service, in: &self, at: now)
    case .userAction(let index):
      let layer = patientLayer
      layer.scriptedActionDue(index, in: &self, at: now)
    case .ruleResponse(let plan):
      let layer = patientLayer
      layer.ruleResponseDue(plan: plan, in: &self, at: now)
    case .look(let cause):
      let layer = patientLayer
      layer.lookDue(cause, in: &self, at: now)
    case .doseDue(let clock, let token):
      doseDue(clock: clock, token: token, at: now)
    case .deviceChange(let index):
      applyDeviceChange(index, at: now)
    case .pushSent(let index):
      sendPush(index, at: now)
    case .pushDelayed(let index):
      let transport = pushTransport
      transport.heldPushDue(index, in: &self, at: now)
    case .summaryDue:
      deliverSummary(at: now)
    case .android(let event):
      let phone = phoneScheduler
      phone.eventDue(event, in: &self, at: now)
    case .server(let event):
      let layer = serverLayer
      layer.eventDue(event, in: &self, at: now)
    }
  }

  mutating func perform(_ action: AppAction, at now: SimulationInstant) {
    switch action {
    case .add(let request):
      // A raw request counts for a medicine's doses when its identifier has
      // the form of one of the app's (its identifier templates).
      ledger.requestInfo[request.id] = rawRequestInfo(request.id)
      add(request, at: now)
    case .removePending(let id):
      if let removed = center.removePending(id) {
        record(.removed, id.rawValue, at: now, [TimelineField("trigger", removed.request.trigger.summary)])
      } else {
        record(
          .warning, id.rawValue, at: now,
          [TimelineField("reason", "remove ignored: no pending request has this identifier (already delivered, dropped or never added)")])
      }
    }
  }

  /// `add(_:)` as the platform handles it; returns whether the request is pending afterwards.
  @discardableResult
  mutating func add(_ request: NotificationRequest, at now: SimulationInstant, reason: String? = nil) -> Bool {
    if installedApp.permission == .denied {
      let why = "notification permission denied: add() succeeds but the platform keeps nothing"
      record(.dropped, request.id.rawValue, at: now, [TimelineField("trigger", request.trigger.summary), TimelineField("reason", why)])
      ledger.requestLost(request.id, "not kept: \(why) (\(format(now)))")
      return false
    }
    var firstDelivery: SimulationInstant?
    switch request.trigger {
    case .calendar(let trigger):
      firstDelivery = calendarEvaluator.nextDelivery(of: trigger, after: now, deviceTimeZone: deviceTimeZone)
      if firstDelivery == nil {
        if let replaced = center.removePending(request.id) {
          record(.replaced, request.id.rawValue, at: now, [TimelineField("previous", replaced.request.trigger.summary)])
        }
        record(
          .warning, request.id.rawValue, at: now,
          [TimelineField("trigger", request.trigger.summary),
           TimelineField("reason", "never delivers: no date after this instant matches; the platform accepts the request silently and does not keep it pending")])
        ledger.requestLost(request.id, "never delivers: no date after \(format(now)) matches")
        return false
      }
    case .interval(let trigger):
      firstDelivery = now.advanced(by: trigger.interval)
    case .posted:
      firstDelivery = now
    case .region:
      firstDelivery = nil
    }
    let outcome = center.add(request, firstDelivery: firstDelivery, at: now, appMonitored: appLayer.appMonitoredRegions)

    if let replaced = outcome.replaced {
      record(.replaced, request.id.rawValue, at: now, [TimelineField("previous", replaced.request.trigger.summary)])
    }
    if let reason = outcome.rejectedReason {
      record(.dropped, request.id.rawValue, at: now, [TimelineField("trigger", request.trigger.summary), TimelineField("reason", reason)])
      ledger.requestLost(request.id, "dropped at \(format(now)): \(reason)")
      if reason == center.pendingLimitReason { notePendingLimitDrop(request.id, at: now) }
      return false
    }
    var fields = [TimelineField("trigger", request.trigger.summary), TimelineField("title", request.title)]
    if let firstDelivery { fields.append(TimelineField("next", format(firstDelivery))) }
    if !request.trigger.repeats { fields.append(TimelineField("repeats", "no")) }
    if request.interruptionLevel != .active { fields.append(TimelineField("level", request.interruptionLevel.rawValue)) }
    if let badge = request.badge { fields.append(TimelineField("badge", String(badge))) }
    fields += request.userInfo
    if let reason { fields.append(TimelineField("reason", reason)) }
    record(.scheduled, request.id.rawValue, at: now, fields)
    ledger.requestPending(request.id)
    if case .region = request.trigger, let blocked = installedApp.regionMonitoringBlockedReason {
      warnNeverFires(request, reason: blocked, at: now)
    }
    if case .region = request.trigger { monitoringStartsInside(request, at: now) }
    if let added = outcome.added, let firstDelivery { scheduleDelivery(of: added, at: firstDelivery) }
    for dropped in outcome.dropped {
      record(.dropped, dropped.request.id.rawValue, at: now,
             [TimelineField("trigger", dropped.request.trigger.summary), TimelineField("reason", center.pendingLimitReason)])
      ledger.requestLost(dropped.request.id, "dropped at \(format(now)): \(center.pendingLimitReason)")
      notePendingLimitDrop(dropped.request.id, at: now)
    }
    if center.pending.count > pendingPeak {
      pendingPeak = center.pending.count
      pendingPeakAt = now
    }
    return true
  }

  mutating func scheduleDelivery(of pending: PendingRequest, at instant: SimulationInstant) {
    guard instant <= end else { return }
    queue.schedule(.timeTriggerDue(pending.request.id, token: pending.token), at: instant, phase: .timeTrigger, rank: pending.addOrdinal)
  }

  mutating func deliverTimeTrigger(_ id: NotificationID, token: Int, at now: SimulationInstant) {
    guard let pending = center.pending[id], pending.token == token else { return }  // replaced or removed since
    var next: SimulationInstant?
    defer {
      if let next, let updated = center.reschedule(id, nextDelivery: next) { scheduleDelivery(of: updated, at: next) }
    }
    if pending.request.trigger.repeats {
      switch pending.request.trigger {
      case .calendar(let trigger):
        next = calendarEvaluator.nextDelivery(of: trigger, after: now, deviceTimeZone: deviceTimeZone)
      case .interval(let trigger):
        next = now.advanced(by: trigger.interval)
      case .region, .posted:
        next = nil
      }
    }
    guard attention.phoneOn else {
      holdWhileOff(pending, at: now, next: next)
      return
    }
    if attention.lockedSinceStart { consult(.deliveryBeforeFirstUnlock) }
    if attention.lockedSinceStart && scenario.platform.attention.deliveryBeforeFirstUnlock == .held {
      holdUntilFirstUnlock(pending, at: now)
      return
    }
    deliver(pending, at: now, next: next)
  }

  /// Delivers a pending request. Returns whether it was shown (not suppressed).
  @discardableResult
  mutating func deliver(_ pending: PendingRequest, at now: SimulationInstant, next: SimulationInstant?) -> Bool {
    let request = pending.request
    var fields = [TimelineField("trigger", request.trigger.summary), TimelineField("title", request.title)]
    if let body = request.body { fields.append(TimelineField("body", body)) }
    // A repeating time request stays pending while it has a next date; a
    // repeating location request stays pending with no date.
    let staysPending: Bool
    if case .region = request.trigger { staysPending = request.trigger.repeats } else { staysPending = next != nil }
    if let next {
      fields.append(TimelineField("next", format(next)))
    } else if request.trigger.repeats && !staysPending {
      fields.append(TimelineField("next", "none"))  // e.g. a repeating trigger pinned to a year that has ended
    }
    if !request.trigger.repeats && !request.trigger.isPosted { fields.append(TimelineField("repeats", "no")) }
    if let channel = request.channel { fields.append(TimelineField("channel", channel)) }
    let delivery = DeliveryAttributes(
      interruptionLevel: request.interruptionLevel, sound: request.sound, channel: request.channel, category: request.androidCategory)
    let perception = presenter.perception(of: delivery, in: attentionContext(at: now))
    if case .notShown(let why, let cause) = perception {
      recordNotShown(request, why, cause: cause, at: now)
      center.markDelivered(request.id, at: now, keepPending: staysPending, shown: false)
      return false
    }
    if request.interruptionLevel != .active { fields.append(TimelineField("level", request.interruptionLevel.rawValue)) }
    if let catchUpDue {
      let cause = catchUpWhileOff ? "came due while the phone was off" : "came due after switch-on, before the first unlock"
      fields += [TimelineField("due", format(catchUpDue)), TimelineField("cause", cause)]
    }
    fields += request.userInfo
    let dose = doseOfDelivery(request.id, at: now)
    if let dose, ledger.requestInfo[request.id]?.role.isMain == true {
      fields.append(TimelineField("dose", dose.occurrenceLabel))
    }
    if ledger.requestInfo[request.id] != nil { fields.append(TimelineField("app", installedApp.state.rawValue)) }
    record(.fired, request.id.rawValue, at: now, fields)
    forgetHeld(request.id)  // a new delivery replaces the one shown
    guard let shown = center.markDelivered(request.id, at: now, keepPending: staysPending) else { return false }
    if let dose { ledger.notificationShown(request.id, dose: dose) }
    let layer = appLayer
    let presentation = layer.delivered(shown, request: request, dose: dose, perception: perception, in: &self, at: now)
    // The app's code may have removed or replaced this notification meanwhile.
    guard center.delivered[request.id]?.serial == shown.serial else { return false }
    if presentation.appliesBadge, let badge = request.badge { setBadge(badge, by: "delivery of \(request.id)", at: now) }
    if case .notShown(let why, let cause) = presentation.perception {
      // The app's foreground will-present asked for no presentation: the platform shows nothing.
      center.removeDelivered(request.id)
      ledger.notificationGone(request.id)
      recordNotShown(request, why, cause: cause, at: now)
      if let dose { ledger.deliveryNotShown(request.id, dose: dose) }
      return false
    }
    present(
      .local(request.id, serial: shown.serial), subject: request.id.rawValue, delivery: delivery, perception: presentation.perception, at: now)
    if !presentation.staysListed {
      // A banner without `list`: once shown, nothing of it stays in Notification Center.
      center.removeDelivered(request.id)
      forgetHeld(request.id)
      ledger.notificationLeft(request.id, "shown as a banner only at \(format(now)) (will-present options without list)")
    }
    return true
  }

  /// A delivery the device does not show: the `suppressed` entry and the request's loss reason.
  mutating func recordNotShown(_ request: NotificationRequest, _ why: String, cause: SuppressionCause, at now: SimulationInstant) {
    record(
      .suppressed, request.id.rawValue, at: now,
      [TimelineField("trigger", request.trigger.summary), TimelineField("cause", cause.rawValue), TimelineField("reason", why)])
    ledger.requestLost(request.id, "not shown at \(format(now)): \(why)")
  }

  /// The true path crossed a region's boundary: the `enter`/`exit` entry,
  /// and the location doses this crossing makes due.
  mutating func crossRegion(_ index: Int, entering: Bool, afterGap: Bool, visit: Int, at now: SimulationInstant) {
    let region = scenario.regions[index]
    var fields = [TimelineField("visit", String(visit))]
    if afterGap { fields.append(TimelineField("cause", "position known again after a gap")) }
    record(entering ? .enter : .exit, region.id.rawValue, at: now, fields)
    if !ledger.medicines.isEmpty {
      let key = DoseLedger.RegionVisit(region: index, visit: visit)
      if entering {
        ledger.visitEntered[key] = now
      } else if let entered = ledger.visitEntered[key] {
        ledger.visitStays[key] = entered.duration(to: now)
      }
    }
    if locationLog != nil && now >= scenario.clock.start {
      for pending in center.regionRequests(for: region.id, entering: entering) {
        locationLog!.opportunities.append(
          LocationOpportunity(request: pending.request.id, region: index, entering: entering, visit: visit, crossing: now))
      }
    }
    if !ledger.medicines.isEmpty { openLocationDoses(region: index, entering: entering, visit: visit, at: now) }
    if !scenario.placeSets.isEmpty && !ledger.medicines.isEmpty { openPlaceSetDoses(region: index, entering: entering, visit: visit, at: now) }
  }

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
  mutating func handleDeviceReport(_ report: DeviceRegionReport, at now: SimulationInstant) {
    // A crossing before the clock's start (visit 0) is not explained, even when the explanation
    // comes after the start (behind a detection still on its way): the timeline starts at the start.
    if report.kind == .undetected && report.visit == 0 { return }
    let region = scenario.regions[report.region]
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
      ? center.monitors(region.id, addedAtOrBefore: condition) || appLayer.monitorsRegion(region.id, addedAtOrBefore: condition)
      : !requests.isEmpty
    // Blocked now, or when the device decided: then the platform was monitoring nothing.
    let blockedReason = installedApp.regionMonitoringBlockedReason ?? deviceSchedule.monitoringBlockedReason(at: now)
      ?? condition.flatMap { condition in
        regionMonitoringBlockedReason(at: condition).map { "the device's condition held at \(format(condition)), while \($0)" }
      }
    if monitored && blockedReason == nil && !report.coincidesWithCrossing {
      var fields = [TimelineField("event", report.transition?.rawValue ?? (report.entering ? "enter" : "exit"))]
      if let visit = report.visit { fields.append(TimelineField("visit", String(visit))) }
      if let crossing = report.crossingInstant, report.kind == .detected {
        fields.append(TimelineField("after", crossing.duration(to: now).description))
      }
      if let reason = report.reason { fields.append(TimelineField("reason", reason)) }
      record(report.kind == .detected ? .detected : .undetected, region.id.rawValue, at: now, fields)
      for id in locationService.reportAssumptions { consult(id) }
    }
    switch report.kind {
    case .undetected:
      if let reason = report.reason, let visit = report.visit, monitored {
        noteUndetectedLocationDoses(region: report.region, entering: report.entering, visit: visit, reason: "the device did not detect the \(report.entering ? "entry" : "exit") of visit \(visit): \(reason)")
      }
    case .detected:
      // The device now holds the other side: a dose opened ahead of the true path on this one was a false firing.
      if trialSeed != nil && !ledger.provisionalLocationDoses.isEmpty {
        for side in ledger.provisionalLocationDoses.keys where side.region == report.region && side.entering != report.entering {
          ledger.dropProvisional(side)
        }
      }
      var shown: Set<NotificationID> = []
      locationReportContext = (report.region, report.visit, report.entering)
      defer { locationReportContext = nil }
      for pending in requests {
        if let blockedReason {
          record(.suppressed, pending.request.id.rawValue, at: now,
                 [TimelineField("trigger", pending.request.trigger.summary), TimelineField("cause", SuppressionCause.regionMonitoring.rawValue),
                  TimelineField("reason", blockedReason)])
          ledger.requestLost(pending.request.id, "not delivered at \(format(now)): \(blockedReason)")
          continue
        }
        if deliver(pending, at: now, next: nil) {
          shown.insert(pending.request.id)
          locationLog?.deliveries.append(
            LocationDelivery(
              request: pending.request.id, region: report.region, entering: report.entering, visit: report.visit,
              crossing: report.crossingInstant, at: now))
        }
      }
      // An entry reported for one request that started monitoring inside is not the app's region event.
      if blockedReason == nil && report.onlyRequest == nil {
        let layer = appLayer
        layer.regionDetected(report.region, entering: report.entering, transition: report.transition, condition: condition, in: &self, at: now)
      }
      if !dwell, !ledger.medicines.isEmpty, let visit = report.visit { settleLocationDoses(region: report.region, entering: report.entering, visit: visit, at: now) }
    }
  }

  mutating func changeTimeZone(to zone: TimeZone, at now: SimulationInstant) {
    let previous = deviceTimeZone
    deviceTimeZone = zone
    deviceZoneChangedAt = now
    record(.timezone, scenario.clock.name(of: zone), at: now, [TimelineField("from", scenario.clock.name(of: previous))])
    let justBefore = now.advanced(byMilliseconds: -1)
    for pending in center.floatingCalendarRequests() {
      guard case .calendar(let trigger) = pending.request.trigger else { continue }
      let next = calendarEvaluator.nextDelivery(of: trigger, after: justBefore, deviceTimeZone: zone)
      guard next != pending.nextDelivery else { continue }
      guard let next else {
        // In the new zone no date matches any more (a one-shot whose local time has passed).
        _ = center.removePending(pending.request.id)
        record(.warning, pending.request.id.rawValue, at: now,
               [TimelineField("trigger", pending.request.trigger.summary),
                TimelineField("reason", "never delivers: after the time-zone change no date matches; the platform drops it silently")])
        continue
      }
      if let updated = center.reschedule(pending.request.id, nextDelivery: next) {
        record(.rescheduled, pending.request.id.rawValue, at: now,
               [TimelineField("next", format(next)), TimelineField("previous", pending.nextDelivery.map(format) ?? "none")])
        scheduleDelivery(of: updated, at: next)
      }
    }
    if !ledger.doseClocks.isEmpty { warnMovedReminders(at: now) }
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
    guard let last = lastFixInstant, last < end, let first = firstFixInstant, first <= end else { return }
    if last < scenario.clock.start {
      coverage(at: scenario.clock.start, "the track ends at \(format(last)), before the clock starts: the device stays at its last fix for the whole run, so no region is entered or left")
    } else {
      coverage(at: last, "the track ends at \(format(last)), \(last.duration(to: end)) before the clock's end (\(format(end))): from then on the device stays at its last fix, so no region is entered or left")
    }
  }

  /// A coverage warning: in the timeline (subject `track`) and in the summary, for standard error.
  mutating func coverage(at instant: SimulationInstant, _ reason: String) {
    record(.warning, "track", at: instant, [TimelineField("reason", reason)])
    coverageWarnings.append(reason)
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

  /// The timeline header: the scenario, zone, clock, platform rules,
  /// regions, and the track with the fixes read (known once the run is over).
  func header() -> [TimelineField] {
    var header = [
      TimelineField("scenario", scenario.name),
      TimelineField("time zone", scenario.clock.name(of: scenario.clock.timeZone)),
      TimelineField("clock", "\(InstantFormatter(timeZone: scenario.clock.timeZone).string(for: scenario.clock.start)) to \(InstantFormatter(timeZone: scenario.clock.timeZone).string(for: scenario.clock.end)) (end inclusive)"),
      TimelineField("platform", scenario.platform.summary),
    ]
    if let deviceHeader { header.append(deviceHeader) }
    if !scenario.medicineApp.policy.isDefault { header.append(TimelineField("app", scenario.medicineApp.policy.summary)) }
    if scenario.server.isActive { header.append(TimelineField("server", scenario.server.summary)) }
    // A place set's regions are summed up in one line each (`placeSetHeader`).
    for region in scenario.regions.prefix(scenario.placeSetRegions.first?.lowerBound ?? scenario.regions.count) {
      header.append(TimelineField("region \(region.id)", region.shape.summary))
    }
    header += placeSetHeader()
    // `+N` day labels are explained before the first entry that carries one.
    let legends = ledger.doseClocks.flatMap { clock in
      clock.doses.filter { $0.due >= scenario.clock.start && $0.due <= end }.compactMap { clock.key($0).dayLabelLegend }
    }
    if !legends.isEmpty { header.append(TimelineField("day labels", legends.joined(separator: "; "))) }
    if let label = scenario.trackLabel {
      var track = "\(label), \(fixesRead) \(fixesRead == 1 ? "fix" : "fixes") read"
      if let first = firstFixInstant, let last = lastFixInstant {
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
