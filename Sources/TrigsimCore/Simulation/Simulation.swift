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
      scenario, variation: variation, sink: sink,
      layers: SimulationLayers(scenario, variation: variation, app: HostedAppLayer.make(app, for: scenario), patient: TrialRunner.patient(of: variation)))
    // The run holds the sink it was given: always a `Sink`.
    defer { sink = run.sink as! Sink }
    try run.execute()
    var summary = run.summary()
    summary.firstFixAt = run.replay.firstFixInstant
    summary.regionsInsideAtFirstFix = run.replay.regionsInsideAtFirstFix
    summary.coverageWarnings = run.replay.coverageWarnings
    summary.perceptions = run.layers.phone.core.attention.perceptions
    summary.channelAttempts = run.layers.server.channelAttempts
    summary.badgeHistory = run.layers.phone.core.attention.badgeHistory
    summary.waitingDosesHistory = run.layers.phone.core.attention.waitingDosesHistory
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
    var run = SimulationRun(scenario, layers: SimulationLayers(scenario, variation: nil, app: HostedAppLayer.make(app, for: scenario)))
    run.eventObserver = { event in
      trace.lines.append("\(event.instant.millisecondsSinceEpoch) \(event.phase.traceName) \(event.rank) \(event.traceText)")
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
