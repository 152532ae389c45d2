import Foundation

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

  /// A run of `scenario` in which `layers` act (`SimulationLayers`:
  /// assembled for the scenario, or with a team's app or a test's own
  /// layer); entries go to `sink`. `variation` is the
  /// trial's draw (nil: the deterministic run).
  init(_ scenario: Scenario, variation: DeviceVariation? = nil, sink: any TimelineEntrySink = Timeline(), layers: SimulationLayers) {
    self.scenario = scenario
    self.sink = sink
    self.trialSeed = variation?.seed
    self.calendarEvaluator = CalendarTriggerEvaluator(scenario.platform)
    self.layers = layers
    self.deviceTimeZone = scenario.clock.timeZone
    self.replay = TrackReplay(scenario)
  }

  var end: SimulationInstant { scenario.clock.end }

  mutating func execute() throws {
    if let problem = scenario.limits.clockSpanProblem(scenario.clock) { throw InputError(problem) }
    for (index, change) in scenario.clock.timeZoneChanges.enumerated() where change.instant <= end {
      queue.schedule(.timeZoneChange(index), at: change.instant, phase: .timeZoneChange, rank: index)
    }
    SimulationLayers.start(in: &self)
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
      let phone = layers.phoneCore
      while let restart = phone.takeMonitoringRestart(upTo: end) { phone.locationService.restartMonitoring(at: restart, into: &phone.reportBuffer) }
      phone.locationService.finish(last: lastFix, until: end, into: &phone.reportBuffer)
      phone.queueDeviceReports(in: &self)
    }
    handleEvents(notAfter: end)
    try SimulationLayers.finish(in: &self)
  }

  // MARK: - Track replay

  /// One fix: its position events, then every event due by its instant.
  /// Returns whether the run goes on.
  mutating func replayAndHandle(_ sample: TrackSample) -> Bool {
    replay(sample)
    if layers.phoneCore.observesFixes {
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
    let phone = layers.phoneCore
    var position = block.startIndex
    while position < block.endIndex {
      let quiet = quietFixes(in: block[position...])
      guard quiet > 0 else {
        guard replayAndHandle(block[position]) else { return false }
        position += 1
        continue
      }
      let taken = phone.locationService.advanceQuietly(
        from: replay.previousFix!, through: block[position..<position + quiet], appInForeground: phone.installedApp.state == .foreground,
        into: &phone.reportBuffer)
      let last = block[position + taken - 1]
      replay.fixesRead += taken
      replay.quietStretchFixes += taken
      replay.lastFixInstant = last.instant
      replay.previousFix = last
      position += taken
      if !phone.reportBuffer.isEmpty {
        phone.queueDeviceReports(in: &self)
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
    let phone = layers.phoneCore
    guard replay.previousFix != nil, replay.firstFixToWarn == nil, stopReason == nil, !phone.observesFixes,
      let recordedGeometry = replay.recordedGeometry
    else { return 0 }
    var limit = min(queue.nextInstant ?? end, end)
    if phone.nextMonitoringRestart < phone.monitoringRestarts.count { limit = min(limit, phone.monitoringRestarts[phone.nextMonitoringRestart]) }
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
    let phone = layers.phoneCore
    let foreground = phone.installedApp.state == .foreground
    switch step {
    case .first(let inside):
      replay.firstFixToWarn = fix.instant
      for (region, isInside) in zip(scenario.regions, inside) where isInside { replay.regionsInsideAtFirstFix.append(region.id) }
      phone.locationService.start(at: fix, geometricInside: inside)
      while phone.takeMonitoringRestart(upTo: fix.instant) != nil {}  // the first fix sets the sides anyway
      phone.monitoringStartsInsideAtFirstFix(in: &self, at: fix.instant)
    case .gap(let since):
      queue.schedule(
        .trackGap(since: since, newSegmentAt: fix.startsSegment ? fix.instant : nil), at: fix.instant, phase: .position, rank: -1)
      for crossing in replay.stepCrossings { queueCrossing(crossing.region, entering: crossing.entering, afterGap: true, at: crossing.instant) }
      // Monitoring that starts again during the gap starts where the device was last known.
      var restartsAtFix = false
      while let restart = phone.takeMonitoringRestart(upTo: fix.instant) {
        if restart < fix.instant { phone.locationService.restartMonitoring(at: restart, into: &phone.reportBuffer) } else { restartsAtFix = true }
      }
      phone.locationService.resume(after: replay.previousFix!, at: fix, crossings: replay.segmentCrossings, appInForeground: foreground, into: &phone.reportBuffer)
      if restartsAtFix { phone.locationService.restartMonitoring(at: fix.instant, into: &phone.reportBuffer) }
      phone.queueDeviceReports(in: &self)
    case .segment:
      for crossing in replay.stepCrossings { queueCrossing(crossing.region, entering: crossing.entering, afterGap: false, at: crossing.instant) }
      if phone.nextMonitoringRestart < phone.monitoringRestarts.count && phone.monitoringRestarts[phone.nextMonitoringRestart] <= fix.instant {
        phone.advanceLocationService(from: replay.previousFix!, to: fix, appInForeground: foreground, in: &self)
      } else {
        // No restart in this segment (almost every fix): no copy of the crossings.
        phone.locationService.advance(from: replay.previousFix!, to: fix, crossings: replay.segmentCrossings, appInForeground: foreground, into: &phone.reportBuffer)
      }
      if !phone.reportBuffer.isEmpty { phone.queueDeviceReports(in: &self) }
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
      SimulationLayers.eventHandled(in: self, at: event.instant)
    }
  }

  mutating func handle(_ event: ScheduledEvent) {
    let now = event.instant
    switch event.kind {
    case .timeZoneChange(let index):
      let previous = deviceTimeZone
      changeTimeZone(to: scenario.clock.timeZoneChanges[index].timeZone, at: now)
      SimulationLayers.timeZoneChanged(from: previous, in: &self, at: now)
    case .trackGap(let since, let newSegmentAt):
      let duration = since.duration(to: now)
      let longGap = duration > scenario.platform.trackGapLimit
      let reason = newSegmentAt == now ? (longGap ? "new track segment after no fix for \(duration)" : "new track segment") : "no fix for \(duration)"
      record(.gap, "track", at: now, [TimelineField("since", format(since)), TimelineField("reason", reason)])
    case .regionCrossing(let index, let entering, let afterGap, let visit):
      crossRegion(index, entering: entering, afterGap: afterGap, visit: visit, at: now)
    case .layer(let event):
      SimulationLayers.handle(event, in: &self, at: now)
    }
  }

  /// The true path crossed a region's boundary: the `enter`/`exit` entry,
  /// then the layers hear of it (`SimulationLayers.regionCrossed`).
  mutating func crossRegion(_ index: Int, entering: Bool, afterGap: Bool, visit: Int, at now: SimulationInstant) {
    let region = scenario.regions[index]
    var fields = [TimelineField("visit", String(visit))]
    if afterGap { fields.append(TimelineField("cause", "position known again after a gap")) }
    record(entering ? .enter : .exit, region.id.rawValue, at: now, fields)
    SimulationLayers.regionCrossed(index, entering: entering, visit: visit, in: &self, at: now)
  }

  mutating func changeTimeZone(to zone: TimeZone, at now: SimulationInstant) {
    let previous = deviceTimeZone
    deviceTimeZone = zone
    deviceZoneChangedAt = now
    record(.timezone, scenario.clock.name(of: zone), at: now, [TimelineField("from", scenario.clock.name(of: previous))])
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

  /// The run's summary, as the layers build it (`SimulationLayers.summary(of:)`).
  func summary() -> RunSummary { SimulationLayers.summary(of: self) }

  /// The timeline header: the scenario, zone, clock, platform rules,
  /// regions, and the track with the fixes read (known once the run is over).
  func header() -> [TimelineField] { SimulationLayers.header(of: self) }
}

extension SimulationRun {
  /// The header and every entry made, for a run that collects its entries
  /// in a `Timeline` (the default sink).
  func timeline() -> Timeline {
    guard let collected = sink as? Timeline else { preconditionFailure("timeline() needs a run whose sink is a Timeline") }
    return Timeline(header: header(), entries: collected.entries)
  }
}
