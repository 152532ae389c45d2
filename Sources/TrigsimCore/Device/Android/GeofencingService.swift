import Foundation

extension DeviceRegionReport {
  /// The reason of the entry a geofence added with the device inside reports at once.
  static let initialTriggerEnterReason =
    "the geofence was added with the device already inside: INITIAL_TRIGGER_ENTER reports an entry at once"
}

/// The `android` location profile: geofencing as Google Play services does it
/// (`GeofencingClient`). Rules (each an `AndroidGeofenceRules` setting; sources
/// in the manual, `AndroidGeofencing.md`):
///
/// - **Overlap.** The device is on one side of each geofence. It enters when
///   at least the enter fraction of the fix's accuracy circle lies inside
///   the geofence circle (exact circle–circle intersection), and exits when
///   at most the exit fraction does; between the two it stays on its side
///   (hysteresis). The fraction falls with the distance from the centre, so
///   each threshold is a circle around the centre: the device enters when
///   the position crosses into the enter circle and exits when it crosses
///   out of the exit circle, at the exact instant along the interpolated
///   path. Between two fixes the larger accuracy applies; while the app is
///   not in the foreground a fix's accuracy is at best `backgroundAccuracy`.
///   A point fix (accuracy 0) is all inside or all outside: its transitions
///   are the geometric crossings.
/// - **Latency.** A transition reaches the app after the latency of the
///   app's state at the segment (foreground or background) plus the
///   geofence's responsiveness; never before an earlier report about the
///   same geofence. Trials draw the latency from a log-normal whose median
///   is that latency (`latencySpread`) and the responsiveness uniformly in
///   [0, responsiveness].
/// - **Ahead of the path.** A transition the device detects before the
///   true path reaches that side (GPS error in a trial; the overlap's circle
///   lying outside the geofence) belongs to the visit whose crossing comes
///   before its report reaches the app, as on iOS; else to no visit.
/// - **Dwell.** A geofence that asks for DWELL reports it once the device
///   has stayed inside for the loitering delay after its entry (the
///   condition), then after the latency; an exit or a gap in the track
///   before then cancels it.
/// - **Initial trigger.** A geofence added with the device inside reports
///   ENTER at once (`INITIAL_TRIGGER_ENTER`), and DWELL after the loitering
///   delay when the initial trigger and the geofence both ask for it.
/// - **Already inside.** The first fix sets the device's sides silently (the
///   geofences were added before the run); so does monitoring starting again.
/// - **Circles only.** Android geofences are circles
///   (`Geofence.Builder.setCircularRegion`): a polygon region is never
///   detected (a warning says so at the start of the run).
///
/// The geometric crossings the engine passes in are the truth: for each
/// visit the device did not detect, the service reports why.
struct GeofencingService: LocationService {
  let rules: AndroidGeofenceRules
  private var fences: [GeofenceMonitor]
  private let monitored: [Bool]
  let regionWarnings: [(region: Int, reason: String)]
  private var random: TrialRandom?
  private var errorState = PositionError()
  /// The previous fix as the device observed it (its accuracy as used).
  private var previousObserved: TrackSample?
  private var previousForeground = false

  init(rules: AndroidGeofenceRules, regions: [MonitoredRegion], variation: DeviceVariation?) {
    self.rules = rules
    var warnings: [(Int, String)] = []
    monitored = regions.map { $0.shape is CircularRegion }
    fences = regions.enumerated().map { index, region in
      guard let circle = region.shape as? CircularRegion else {
        warnings.append((index, "the android profile monitors circular geofences only (Geofence.Builder.setCircularRegion): location requests on this polygon are never detected"))
        return GeofenceMonitor(index: index, center: Coordinate(latitude: 0, longitude: 0), radius: 1, rules: rules)
      }
      let overlaps = rules.overlaps(radius: circle.radius)
      if GeofenceOverlap.enterDistance(threshold: overlaps.enter, accuracy: rules.assumedAccuracy, radius: circle.radius) < 0 {
        warnings.append((index, "radius \(RegionMonitoringService.metres(circle.radius)) is too small for the ±\(RegionMonitoringService.metres(rules.assumedAccuracy)) assumed accuracy: \(Int((overlaps.enter * 100).rounded()))% of the accuracy circle never fits inside, so fixes without a better accuracy never enter it"))
      }
      return GeofenceMonitor(index: index, center: circle.center, radius: circle.radius, rules: rules)
    }
    regionWarnings = warnings
    if let variation { random = TrialRandom(seed: variation.seed ^ 0x5A17_0000_6E0F_E11C) }
  }

  /// What the app asked for one geofence: the engine calls this when the app adds it.
  mutating func setOptions(_ options: GeofenceOptions, forRegion index: Int) {
    guard fences.indices.contains(index) else { return }
    fences[index].options = options
    if !options.transitions.contains(.dwell) { fences[index].pendingDwell = nil }
  }

  /// The options of one geofence (for the tests and the engine).
  func options(forRegion index: Int) -> GeofenceOptions { fences[index].options }

  func believesInside(_ region: Int) -> Bool { monitored[region] && fences[region].deviceInside }

  // MARK: - Latency

  /// The latency of a transition of `fence`, in milliseconds, and how it is told in the reason.
  private mutating func latency(of fence: Int, appInForeground: Bool) -> (milliseconds: Int64, reason: String?) {
    let base = rules.latency(appInForeground: appInForeground).milliseconds
    let responsiveness = fences[fence].options.responsiveness.milliseconds
    var drawnBase = base, drawnResponsiveness = responsiveness
    if random != nil {
      if base > 0 && rules.latencySpread > 0 {
        let drawn = (Double(base) * exp(rules.latencySpread * random!.nextGaussian())).rounded()
        drawnBase = drawn < Double(LatencySampler.longestLatency) ? Int64(drawn) : LatencySampler.longestLatency
      }
      if responsiveness > 0 { drawnResponsiveness = random!.next(below: responsiveness + 1) }
    }
    var parts: [String] = []
    if drawnBase > 0 {
      parts.append("\(SimulationDuration(milliseconds: drawnBase)) \(appInForeground ? "foreground" : "background") latency")
    }
    if drawnResponsiveness > 0 { parts.append("\(SimulationDuration(milliseconds: drawnResponsiveness)) responsiveness") }
    return (drawnBase + drawnResponsiveness, parts.isEmpty ? nil : "then " + parts.joined(separator: " + "))
  }

  // MARK: - Observations

  private func accuracy(of fix: TrackSample, appInForeground: Bool) -> Double {
    let stated = fix.horizontalAccuracy ?? rules.assumedAccuracy
    return appInForeground ? stated : max(stated, rules.backgroundAccuracy)
  }

  /// The fix as the device observes it: its accuracy as used, and in a trial with GPS error.
  private mutating func observe(_ fix: TrackSample, after previous: TrackSample?, appInForeground: Bool) -> TrackSample {
    var observed = fix
    let value = accuracy(of: fix, appInForeground: appInForeground)
    observed.horizontalAccuracy = value
    guard random != nil else { return observed }
    let dt = previous.map { Double($0.instant.duration(to: fix.instant).milliseconds) } ?? .infinity
    let (east, north) = errorState.advance(by: dt, correlationMilliseconds: Double(rules.errorCorrelation.milliseconds), random: &random!)
    let sigma = value / PositionError.accuracyPerSigma
    observed.coordinate = errorState.offset(fix.coordinate, east: east * sigma, north: north * sigma)
    return observed
  }

  /// Whether geometric crossings stand for the device's transitions: a point fix with no GPS error.
  private func usesGeometry(accuracy: Double) -> Bool { accuracy <= 0 }

  // MARK: - LocationService

  mutating func start(at fix: TrackSample, geometricInside: [Bool]) {
    let observed = observe(fix, after: nil, appInForeground: false)
    previousObserved = observed
    for index in fences.indices where monitored[index] {
      fences[index].start(inside: geometricInside[index], accuracy: observed.horizontalAccuracy!, rules: rules)
    }
  }

  mutating func advance(
    from a: TrackSample, to b: TrackSample, crossings: [GeometricCrossing], appInForeground: Bool,
    into reports: inout [DeviceRegionReport]
  ) {
    guard let previous = previousObserved else { return }
    var start = previous
    if appInForeground != previousForeground {
      // The app's state applies to the segment: the previous fix's accuracy as this state uses it.
      start.horizontalAccuracy = accuracy(of: a, appInForeground: appInForeground)
    }
    let observed = observe(b, after: previous, appInForeground: appInForeground)
    defer {
      previousObserved = observed
      previousForeground = appInForeground
    }
    let segmentAccuracy = max(start.horizontalAccuracy!, observed.horizontalAccuracy!)
    let t0 = a.instant.millisecondsSinceEpoch, t1 = b.instant.millisecondsSinceEpoch
    for index in fences.indices {
      guard monitored[index] else {
        for crossing in crossings where crossing.region == index { reports.append(unmonitorable(crossing)) }
        continue
      }
      var events: [FenceEvent] = []
      for crossing in crossings where crossing.region == index {
        events.append(FenceEvent(time: crossing.instant.millisecondsSinceEpoch, kind: .geometric(crossing)))
      }
      var fence = fences[index]
      let changed = fence.setAccuracy(segmentAccuracy, rules: rules)
      if usesGeometry(accuracy: segmentAccuracy) {
        if (changed || fence.needsEvaluation) && fence.geometricInside != fence.deviceInside {
          // Point fixes after wider ones: the device's side is the true path's again.
          events.append(FenceEvent(time: min(t0 + 1, t1), kind: fence.geometricInside ? .enterCircle : .exitCircle))
        }
        for crossing in crossings where crossing.region == index {
          events.append(FenceEvent(time: crossing.instant.millisecondsSinceEpoch, kind: crossing.entering ? .enterCircle : .exitCircle))
        }
      } else {
        let startInside = fence.enterCircle.contains(start.coordinate)
        let startOutside = !fence.exitCircle.contains(start.coordinate)
        if changed || fence.needsEvaluation {
          // New circles (or the first segment after a restart): the position at the segment's start decides first.
          if startInside { events.append(FenceEvent(time: min(t0 + 1, t1), kind: .enterCircle)) }
          if startOutside { events.append(FenceEvent(time: min(t0 + 1, t1), kind: .exitCircle)) }
        }
        var scratch: [BoundaryCrossing] = []
        fence.enterCircle.appendCrossings(from: start, to: observed, insideAtStart: startInside, into: &scratch)
        for crossing in scratch where crossing.entering {
          events.append(FenceEvent(time: crossing.instant.millisecondsSinceEpoch, kind: .enterCircle))
        }
        scratch.removeAll()
        fence.exitCircle.appendCrossings(from: start, to: observed, insideAtStart: !startOutside, into: &scratch)
        for crossing in scratch where !crossing.entering {
          events.append(FenceEvent(time: crossing.instant.millisecondsSinceEpoch, kind: .exitCircle))
        }
      }
      fence.needsEvaluation = false
      // Geometric crossings first at equal instants (the sort is stable).
      events.sort { $0.time < $1.time || ($0.time == $1.time && $0.kind.order < $1.kind.order) }
      for event in events {
        dwellIfDue(&fence, upTo: event.time, appInForeground: appInForeground, into: &reports)
        handle(event, in: &fence, appInForeground: appInForeground, into: &reports)
      }
      dwellIfDue(&fence, upTo: t1, appInForeground: appInForeground, into: &reports)
      fence.releaseHeldDetection(upTo: t1, into: &reports)
      fences[index] = fence
    }
  }

  mutating func resume(
    after a: TrackSample, at b: TrackSample, crossings: [GeometricCrossing], appInForeground: Bool,
    into reports: inout [DeviceRegionReport]
  ) {
    let observed = observe(b, after: nil, appInForeground: appInForeground)
    previousObserved = observed
    previousForeground = appInForeground
    let time = b.instant.millisecondsSinceEpoch
    for index in fences.indices {
      guard monitored[index] else {
        for crossing in crossings where crossing.region == index { reports.append(unmonitorable(crossing)) }
        continue
      }
      var fence = fences[index]
      // The position was unknown: a dwell in progress is abandoned (no DWELL without knowing the device stayed).
      fence.pendingDwell = nil
      for crossing in crossings where crossing.region == index {
        handle(FenceEvent(time: time, kind: .geometric(crossing)), in: &fence, appInForeground: appInForeground, into: &reports)
      }
      _ = fence.setAccuracy(observed.horizontalAccuracy!, rules: rules)
      if usesGeometry(accuracy: observed.horizontalAccuracy!) {
        if fence.geometricInside != fence.deviceInside {
          handle(FenceEvent(time: time, kind: fence.geometricInside ? .enterCircle : .exitCircle), in: &fence, appInForeground: appInForeground, into: &reports)
        }
      } else {
        if fence.enterCircle.contains(observed.coordinate) {
          handle(FenceEvent(time: time, kind: .enterCircle), in: &fence, appInForeground: appInForeground, into: &reports)
        } else if !fence.exitCircle.contains(observed.coordinate) {
          handle(FenceEvent(time: time, kind: .exitCircle), in: &fence, appInForeground: appInForeground, into: &reports)
        }
      }
      fences[index] = fence
    }
  }

  mutating func restartMonitoring(at instant: SimulationInstant, into reports: inout [DeviceRegionReport]) {
    let time = instant.millisecondsSinceEpoch
    for index in fences.indices where monitored[index] {
      fences[index].restart(at: time, into: &reports)
    }
  }

  mutating func finish(last: TrackSample, until end: SimulationInstant, into reports: inout [DeviceRegionReport]) {
    let limit = end.millisecondsSinceEpoch
    for index in fences.indices where monitored[index] {
      var fence = fences[index]
      dwellIfDue(&fence, upTo: limit, appInForeground: previousForeground, into: &reports)
      fence.finish(at: limit, into: &reports)
      fences[index] = fence
    }
  }

  /// The initial trigger (`GeofencingRequest.Builder.setInitialTrigger`): a
  /// geofence added with the device inside reports ENTER at once when the
  /// initial trigger includes it (else an undetected entry saying why), and
  /// queues DWELL after the loitering delay when both the initial trigger
  /// and the geofence's transitions include it (delivered by `advance` or
  /// `finish` once the device has stayed inside that long).
  mutating func entryForMonitoringStartedInside(_ region: Int, at instant: SimulationInstant) -> DeviceRegionReport {
    let time = instant.millisecondsSinceEpoch
    var fence = fences[region]
    defer { fences[region] = fence }
    if rules.initialTrigger.contains(.dwell) && fence.options.transitions.contains(.dwell) && fence.deviceInside {
      let due = time + (fence.options.loiteringDelay ?? rules.loiteringDelay).milliseconds
      if fence.pendingDwell.map({ due < $0.due }) ?? true {
        fence.pendingDwell = PendingDwell(
          due: due, since: time, visit: nil, crossingInstant: nil, initial: true)
      }
    }
    guard rules.initialTrigger.contains(.enter) else {
      return DeviceRegionReport(
        kind: .undetected, region: region, entering: true, visit: nil, instant: instant, crossingInstant: nil,
        reason: "the geofence was added with the device already inside and the initial trigger does not include INITIAL_TRIGGER_ENTER: no entry is reported")
    }
    let at = max(time, fence.lastReport)
    fence.lastReport = at
    return DeviceRegionReport(
      kind: .detected, region: region, entering: true, visit: nil, instant: SimulationInstant(millisecondsSinceEpoch: at),
      crossingInstant: nil, conditionInstant: instant, reason: DeviceRegionReport.initialTriggerEnterReason, transition: .enter)
  }

  // MARK: - Transitions

  /// Reports the pending DWELL of `fence` if its loitering delay ends at or before `time`.
  private mutating func dwellIfDue(
    _ fence: inout GeofenceMonitor, upTo time: Int64, appInForeground: Bool, into reports: inout [DeviceRegionReport]
  ) {
    guard let dwell = fence.pendingDwell, dwell.due <= time else { return }
    fence.pendingDwell = nil
    guard fence.deviceInside else { return }
    let (delay, latencyReason) = latency(of: fence.index, appInForeground: appInForeground)
    let stay = SimulationDuration(milliseconds: dwell.due - dwell.since)
    var parts = ["inside for the \(stay) loitering delay" + (dwell.initial ? " (INITIAL_TRIGGER_DWELL)" : "")]
    if let latencyReason { parts.append(latencyReason) }
    fence.releaseHeldDetection(into: &reports)
    let at = max(dwell.due + delay, fence.lastReport)
    fence.lastReport = at
    reports.append(DeviceRegionReport(
      kind: .detected, region: fence.index, entering: true, visit: dwell.visit, instant: SimulationInstant(millisecondsSinceEpoch: at),
      crossingInstant: dwell.crossingInstant.map { SimulationInstant(millisecondsSinceEpoch: $0) },
      conditionInstant: SimulationInstant(millisecondsSinceEpoch: dwell.due), reason: parts.joined(separator: "; "),
      transition: .dwell))
  }

  private mutating func handle(
    _ event: FenceEvent, in fence: inout GeofenceMonitor, appInForeground: Bool, into reports: inout [DeviceRegionReport]
  ) {
    switch event.kind {
    case .geometric(let crossing):
      fence.geometricCrossing(crossing, into: &reports)
    case .enterCircle:
      guard !fence.deviceInside else { return }
      detect(entering: true, at: event.time, in: &fence, appInForeground: appInForeground, into: &reports)
    case .exitCircle:
      guard fence.deviceInside else { return }
      detect(entering: false, at: event.time, in: &fence, appInForeground: appInForeground, into: &reports)
    }
  }

  private mutating func detect(
    entering: Bool, at condition: Int64, in fence: inout GeofenceMonitor, appInForeground: Bool, into reports: inout [DeviceRegionReport]
  ) {
    fence.deviceInside = entering
    let (delay, latencyReason) = latency(of: fence.index, appInForeground: appInForeground)
    var parts: [String] = []
    if fence.accuracy > 0 {
      let percent = Int(((entering ? fence.overlaps.enter : fence.overlaps.exit) * 100).rounded())
      parts.append(
        "\(entering ? "at least" : "at most") \(percent)% of the ±\(RegionMonitoringService.metres(fence.accuracy)) accuracy circle inside")
    }
    if let latencyReason { parts.append(latencyReason) }
    let onPath = fence.geometricInside == entering
    let aheadCause = random != nil ? "GPS error" : "the \(entering ? "enter" : "exit") overlap's circle lies \(entering ? "outside" : "inside") the geofence"
    fence.releaseHeldDetection(into: &reports)
    let at = max(condition + delay, fence.lastReport)
    fence.lastReport = at
    let transition: GeofenceTransition = entering ? .enter : .exit
    if entering {
      if fence.options.transitions.contains(.dwell) {
        fence.pendingDwell = PendingDwell(
          due: condition + (fence.options.loiteringDelay ?? rules.loiteringDelay).milliseconds, since: condition,
          visit: onPath ? fence.visit : nil, crossingInstant: onPath ? fence.crossingAt : nil, initial: false)
      }
    } else {
      fence.pendingDwell = nil  // left before the loitering delay ended
    }
    if onPath { fence.detectedSinceCrossing = true }
    let report = DeviceRegionReport(
      kind: .detected, region: fence.index, entering: entering, visit: onPath ? fence.visit : nil,
      instant: SimulationInstant(millisecondsSinceEpoch: at),
      crossingInstant: onPath ? fence.crossingAt.map { SimulationInstant(millisecondsSinceEpoch: $0) } : nil,
      conditionInstant: SimulationInstant(millisecondsSinceEpoch: condition), reason: parts.isEmpty ? nil : parts.joined(separator: "; "),
      transition: transition)
    guard onPath else {
      // Held until its report reaches the app: a crossing of the true path to this side before then is its visit.
      fence.heldDetection = HeldGeofenceDetection(
        report: report, condition: condition, reasonParts: parts, cause: aheadCause,
        reported: fence.options.transitions.contains(transition))
      return
    }
    guard fence.options.transitions.contains(transition) else { return }
    reports.append(report)
  }

  private func unmonitorable(_ crossing: GeometricCrossing) -> DeviceRegionReport {
    DeviceRegionReport(
      kind: .undetected, region: crossing.region, entering: crossing.entering, visit: crossing.visit,
      instant: crossing.instant, crossingInstant: crossing.instant,
      reason: "not a circle: Android geofences are circles")
  }
}

/// A transition detected ahead of the true path, waiting for its report's
/// instant: a crossing of the true path to its side before then is its visit.
struct HeldGeofenceDetection {
  var report: DeviceRegionReport
  /// When the overlap condition held.
  var condition: Int64
  /// The reason so far (overlap, latency); the cause is added when it is released.
  var reasonParts: [String]
  /// Why the device was ahead: GPS error, or the overlap's circle.
  var cause: String
  /// Whether the geofence asked for this transition (else only the device's side moves).
  var reported: Bool
}

/// A DWELL waiting for its loitering delay to end.
struct PendingDwell {
  var due: Int64
  /// The entry's condition (or the instant the geofence was added inside).
  var since: Int64
  var visit: Int?
  var crossingInstant: Int64?
  /// Queued by the initial trigger.
  var initial: Bool
}

/// Something the monitor of one geofence learns, in time order.
struct FenceEvent {
  enum Kind {
    case geometric(GeometricCrossing)
    /// The position came into the enter circle (enough overlap to enter).
    case enterCircle
    /// The position left the exit circle (little enough overlap to exit).
    case exitCircle

    var order: Int {
      switch self {
      case .geometric: 0
      case .enterCircle, .exitCircle: 1
      }
    }
  }

  var time: Int64
  var kind: Kind
}

/// The device's view of one geofence: its side, the circles the overlap
/// rule draws for the current accuracy, the true path's side and visit, and
/// a DWELL waiting for its loitering delay.
struct GeofenceMonitor {
  let index: Int
  let center: Coordinate
  let radius: Double
  let overlaps: (enter: Double, exit: Double)
  private var bounds: Geodesic.DistanceBounds
  private(set) var accuracy = -1.0
  private(set) var enterCircle: CircleBoundary
  private(set) var exitCircle: CircleBoundary
  var options = GeofenceOptions()
  var deviceInside = false
  var geometricInside = false
  var visit = 0
  var crossingAt: Int64?
  var detectedSinceCrossing = true
  /// The device reported a side before the true path reached it.
  var aheadOfPath = false
  /// A detection ahead of the true path, held until its report's instant (see "Ahead of the path").
  var heldDetection: HeldGeofenceDetection?
  var pendingDwell: PendingDwell?
  var lastReport = Int64.min
  /// The next segment evaluates the position at its start (after a restart).
  var needsEvaluation = false
  /// The enter and exit thresholds in whole percent, for reasons.
  private let rulesSummary: (enter: Int, exit: Int)
  /// The enter and exit distances already computed, by accuracy (bounded: cleared when full).
  private var distanceCache: [Double: (enter: Double, exit: Double)] = [:]
  static let distanceCacheLimit = 1024

  init(index: Int, center: Coordinate, radius: Double, rules: AndroidGeofenceRules) {
    self.index = index
    self.center = center
    self.radius = radius
    overlaps = rules.overlaps(radius: radius)
    rulesSummary = (Int((overlaps.enter * 100).rounded()), Int((overlaps.exit * 100).rounded()))
    bounds = Geodesic.DistanceBounds(center: center, reach: 4 * radius + 10_000)
    enterCircle = CircleBoundary(radius: -1, bounds: bounds)
    exitCircle = CircleBoundary(radius: radius, bounds: bounds)
  }

  /// Rebuilds the enter and exit circles for a new accuracy; returns whether they changed.
  mutating func setAccuracy(_ value: Double, rules: AndroidGeofenceRules) -> Bool {
    guard value != accuracy else { return false }
    accuracy = value
    // The thresholds' distances are found by bisection over the overlap area (80 acos-heavy steps
    // each); a track repeats a few accuracy values, so each is computed once (a profile of the
    // 30-day benchmark spent three quarters of its time here before the cache).
    let distances: (enter: Double, exit: Double)
    if let known = distanceCache[value] {
      distances = known
    } else {
      distances = (
        GeofenceOverlap.enterDistance(threshold: overlaps.enter, accuracy: value, radius: radius),
        GeofenceOverlap.exitDistance(threshold: overlaps.exit, accuracy: value, radius: radius)
      )
      if distanceCache.count >= Self.distanceCacheLimit { distanceCache.removeAll(keepingCapacity: true) }
      distanceCache[value] = distances
    }
    let (enter, exit) = distances
    let enterRadius = enter.isFinite ? enter : radius + value
    let exitRadius = exit.isFinite ? exit : radius + value
    if 4 * max(enterRadius, exitRadius) > bounds.reach {
      bounds = Geodesic.DistanceBounds(center: center, reach: 4 * max(enterRadius, exitRadius) + 10_000)
    }
    let changed = enterRadius != enterCircle.radius || exitRadius != exitCircle.radius
    enterCircle = CircleBoundary(radius: enterRadius, bounds: bounds)
    exitCircle = CircleBoundary(radius: exitRadius, bounds: bounds)
    return changed
  }

  mutating func start(inside: Bool, accuracy: Double, rules: AndroidGeofenceRules) {
    _ = setAccuracy(accuracy, rules: rules)
    deviceInside = inside
    geometricInside = inside
  }

  mutating func geometricCrossing(_ crossing: GeometricCrossing, into reports: inout [DeviceRegionReport]) {
    let t = crossing.instant
    var detectedAhead = false
    if var held = heldDetection {
      if held.report.detects(crossing) {
        // The path reaches the side the device detected before its report does: that is the visit it detected.
        heldDetection = nil
        held.report.attribute(to: crossing, condition: held.condition, reasonParts: held.reasonParts) { later in
          "the true path \(crossing.entering ? "entered" : "left") \(later) later: \(held.cause)"
        }
        if held.reported { reports.append(held.report) }
        if var dwell = pendingDwell, dwell.visit == nil, crossing.entering {
          dwell.visit = crossing.visit
          dwell.crossingInstant = t.millisecondsSinceEpoch
          pendingDwell = dwell
        }
        detectedAhead = true
      } else {
        releaseHeldDetection(into: &reports)
      }
    }
    let reportedAhead = aheadOfPath && crossing.entering == deviceInside
    aheadOfPath = false
    var missedEntryVisit: Int?
    var missedExitVisit: Int?
    if !crossing.entering && !deviceInside && !detectedSinceCrossing, let since = crossingAt {
      var missed = undetected(entering: true, at: t, since: since)
      missed.concernsBothKinds = true
      append(missed, into: &reports)
      missedEntryVisit = visit
    }
    if crossing.entering && deviceInside && !detectedSinceCrossing, let since = crossingAt {
      var missed = undetected(entering: false, at: t, since: since)
      missed.concernsBothKinds = true
      append(missed, into: &reports)
      missedExitVisit = visit
    }
    geometricInside = crossing.entering
    visit = crossing.visit
    crossingAt = t.millisecondsSinceEpoch
    detectedSinceCrossing = detectedAhead
    if reportedAhead {
      append(DeviceRegionReport(
        kind: .undetected, region: index, entering: crossing.entering, visit: visit, instant: t, crossingInstant: t,
        reason: "the device had reported \(crossing.entering ? "an entry" : "an exit") before the true path \(crossing.entering ? "reached" : "left") the geofence (GPS error)"),
        into: &reports)
      detectedSinceCrossing = true
    }
    if let missed = missedEntryVisit {
      append(DeviceRegionReport(
        kind: .undetected, region: index, entering: false, visit: visit, instant: t, crossingInstant: t,
        reason: "the device never detected the entry of visit \(missed), so for it the device never entered"), into: &reports)
      detectedSinceCrossing = true
    }
    if let missed = missedExitVisit {
      append(DeviceRegionReport(
        kind: .undetected, region: index, entering: true, visit: visit, instant: t, crossingInstant: t,
        reason: "the device never detected the exit of visit \(missed), so for it the device never left",
        concernsBothKinds: true), into: &reports)
      detectedSinceCrossing = true
    }
  }

  private func undetected(entering: Bool, at t: SimulationInstant, since: Int64) -> DeviceRegionReport {
    let stay = SimulationDuration(milliseconds: t.millisecondsSinceEpoch - since)
    let why = entering
      ? "inside \(stay), never \(rulesSummary.enter)% of the ±\(RegionMonitoringService.metres(accuracy)) accuracy circle inside"
      : "outside \(stay), never at most \(rulesSummary.exit)% of the ±\(RegionMonitoringService.metres(accuracy)) accuracy circle inside"
    return DeviceRegionReport(
      kind: .undetected, region: index, entering: entering, visit: visit, instant: t,
      crossingInstant: SimulationInstant(millisecondsSinceEpoch: since), reason: why)
  }

  /// Appends a report about this geofence no earlier than its last one (after the held detection).
  mutating func append(_ report: DeviceRegionReport, into reports: inout [DeviceRegionReport]) {
    releaseHeldDetection(into: &reports)
    reports.append(report, notBefore: &lastReport)
  }

  /// Reports the held detection with no visit: the true path did not cross
  /// to its side by its instant (or another report about the geofence comes first).
  mutating func releaseHeldDetection(into reports: inout [DeviceRegionReport]) {
    guard var held = heldDetection else { return }
    heldDetection = nil
    aheadOfPath = true
    guard held.reported else { return }
    held.report.reason = (held.reasonParts + ["ahead of the true path (\(held.cause))"]).joined(separator: "; ")
    reports.append(held.report)
  }

  /// Releases the held detection once the segment reaches its instant.
  mutating func releaseHeldDetection(upTo time: Int64, into reports: inout [DeviceRegionReport]) {
    guard let held = heldDetection, held.report.instant.millisecondsSinceEpoch <= time else { return }
    releaseHeldDetection(into: &reports)
  }

  /// Monitoring starts again: the device takes the true path's side
  /// silently; a visit it had not detected is explained.
  mutating func restart(at time: Int64, into reports: inout [DeviceRegionReport]) {
    releaseHeldDetection(into: &reports)  // decided before the restart; no later crossing is its visit
    if geometricInside != deviceInside && !detectedSinceCrossing, let since = crossingAt {
      let side = geometricInside ? "inside" : "outside"
      append(DeviceRegionReport(
        kind: .undetected, region: index, entering: geometricInside, visit: visit,
        instant: SimulationInstant(millisecondsSinceEpoch: time), crossingInstant: SimulationInstant(millisecondsSinceEpoch: since),
        reason: "geofence monitoring started again with the device already \(side): no \(geometricInside ? "entry" : "exit") is reported for it"),
        into: &reports)
      detectedSinceCrossing = true
    }
    deviceInside = geometricInside
    aheadOfPath = false
    pendingDwell = nil
    needsEvaluation = true
  }

  /// The run ends: a visit the device has not detected by now is reported.
  mutating func finish(at end: Int64, into reports: inout [DeviceRegionReport]) {
    releaseHeldDetection(into: &reports)
    guard let since = crossingAt, !detectedSinceCrossing, geometricInside != deviceInside, since <= end else { return }
    var report = undetected(entering: geometricInside, at: SimulationInstant(millisecondsSinceEpoch: end), since: since)
    report.reason = report.reason.map { $0 + "; the run ended before the device detected it" }
    append(report, into: &reports)
  }
}
