import Foundation

/// The `ios` location profile: region monitoring as iOS devices do it.
///
/// Rules (each a `RegionMonitoringRules` parameter; sources in the manual):
/// - **Minimum radius.** A circle smaller than `minimumRadius` is monitored
///   as a circle of that radius around the same centre. A detection made
///   before the true path crosses the declared circle belongs to the visit
///   whose crossing comes before the report reaches the platform, else to
///   no visit (and a later crossing to that side is no new one for the device).
/// - **Hysteresis.** The device believes it is on one side of each region. It
///   reports an entry only after it has been at least `entryMargin` inside
///   the (effective) boundary continuously for `dwell`, and an exit only after
///   `exitMargin` outside for `dwell`.
/// - **Accuracy.** A position with horizontal accuracy `a` is confidently
///   inside only when it is at least `max(entryMargin, a)` inside, and
///   confidently outside only when at least `max(exitMargin, a)` outside. A
///   region whose effective radius is at most `max(entryMargin, a)` is never
///   entered, not even at its centre (a warning says so for the margin and
///   the assumed accuracy). Between two fixes the accuracy is the larger of
///   the two. While the app is not in the foreground a fix's accuracy is at
///   best `backgroundAccuracy` (region monitoring runs on Wi-Fi and cell
///   positions then). The accuracy counts once: a deterministic run takes
///   the recorded position as observed and insets by the accuracy, as
///   above; a trial draws the position error from the accuracy and insets
///   by the margins alone.
/// - **Updates.** The device learns its position continuously (the
///   interpolated path) or, when the interval is not zero, only at instants
///   `first fix + phase + k × interval`; the app's state decides which
///   interval applies (`foregroundInterval`, `backgroundInterval`). With
///   coarse updates the dwell is complete at the first update at least
///   `dwell` after the first confirming one, every update between confirming.
///   When continuous updates follow coarse ones, the device first observes
///   the position where they start: a dwell begun at a coarse update
///   completes at max(its end, that instant), never earlier.
/// - **Latency.** A report reaches the platform `latency` after its
///   condition holds, never before an earlier report about the same region;
///   an undetected crossing is told at its instant, or right after a
///   detection of the same region still on its way.
/// - **Already inside.** The first fix sets the device's sides silently, as
///   in the `ideal` profile, and so does region monitoring starting again
///   when location authorization allows it once more. Across a gap the
///   position is unknown: a dwell in progress is abandoned. After the last
///   fix the device stays where it was, its updates going on in the mode of
///   the last segment.
/// - **Circles only.** iOS monitors `CLCircularRegion`s; a polygon region
///   is never detected (a warning says so at the start of the run).
///
/// The geometric crossings the engine passes in are the truth: for each
/// visit the device did not detect, the service reports why.
///
/// **Index.** A segment costs the same with 4 regions or 5,000 (a place
/// set), and GPS jitter at a stop spends no budget: the monitors' budgets
/// live in a `BudgetIndex` (the path walked and the distance from an anchor,
/// over the observed positions), which tells which monitors a segment can
/// change. A full evaluation touches only those (until they are measured
/// again), the ones the true path crosses, and the few that are awake (a
/// dwell in progress or a detection held). A monitor that is skipped learns what it missed when it is next
/// touched: the largest fix accuracy of the segments in between and whether
/// an update observed it (see `RegionMonitor.catchUp`). When a fix accuracy
/// moves the offset circles (an accuracy beyond a margin), every monitor is
/// touched. `usesRegionIndex = false` touches every monitor at every full
/// evaluation: the property tests check that both give the same reports.
struct RegionMonitoringService: LocationService {
  let rules: RegionMonitoringRules
  /// One monitor per region, in scenario order; a polygon's slot holds an
  /// inert monitor that nothing touches (`monitored` says which). Not
  /// `[RegionMonitor?]`: reading or updating a monitor through an optional
  /// copied its few hundred bytes out and back, a fifth of a full evaluation.
  private var monitors: [RegionMonitor]
  /// Whether the region's monitor is real (a circle).
  private let monitored: [Bool]
  /// Regions the rules change or cannot monitor, for warnings at the start of the run.
  let regionWarnings: [(region: Int, reason: String)]
  /// GPS error for observed positions (trials only).
  private var random: TrialRandom?
  private var latencySampler: LatencySampler
  private let gridPhase: Int64
  private var gridAnchor: Int64?
  /// The update interval the last segment used (0: continuous); nil before the first segment.
  private var updateInterval: Int64?
  /// When region monitoring last started again (`restartMonitoring`).
  private var restartedAt: Int64?
  /// The observed (possibly perturbed) previous fix.
  private var previousObserved: TrackSample?
  private var errorState = PositionError()
  private var cosineBound = CosineUpperBound()
  private var cosPrevious = 1.0
  private var scratch: [BoundaryCrossing] = []
  private var events: [MonitorEvent] = []
  /// The fast path (see `advance`): where the last full evaluation left the
  /// device (the anchor), the smallest budget of any monitor there (no offset
  /// circle is nearer), how far the device has been from the anchor since (a
  /// bound), and the instant until which time alone changes no monitor:
  /// `Int64.max` when none has a dwell in progress or a detection held, else
  /// the first dwell's end or held detection's instant (`RegionMonitor.changesByTime`);
  /// `Int64.min` when the fast path must wait for a continuous full evaluation.
  private var anchor = Coordinate(latitude: 0, longitude: 0)
  private var anchorCosine = 1.0
  private var slack = 0.0
  private var quietUntil = Int64.min
  /// The accuracy and update interval of the last full evaluation, and
  /// whether a monitor held a detection after it.
  private var settledAccuracy = -1.0
  private var settledInterval: Int64 = -1
  private var holdsAnyDetection = true
  /// Off, every segment is evaluated in full: the property tests check that the fast path changes nothing.
  var usesFastPath = true
  /// Off, a full evaluation touches every monitor (the index's reference).
  var usesRegionIndex = true
  /// Up to this many regions a full evaluation touches every monitor and
  /// measures the fast path's slack exactly: cheaper than the index's
  /// bookkeeping, and tighter (a device standing still stays on the fast path).
  /// (The property tests set it to 0 to run the index on few regions.)
  var smallRegionCount = 64
  /// Whether full evaluations touch every monitor (few regions, or the index off).
  private var touchesAll: Bool { !usesRegionIndex || monitors.count <= smallRegionCount }
  /// The monitors' budgets between evaluations (see "Index").
  private var budgets: BudgetIndex
  /// Monitors whose budget is spent and not yet measured again: touched at every full evaluation.
  private var spent: Set<Int> = []
  private var newlySpent: [Int] = []
  /// The observed position at the last full evaluation (or restart), and
  /// how far from it (a bound) the fast paths have let the device go since
  /// (negative: no segment skipped). The next full evaluation hands the
  /// index one segment of that length from there: the budgets only need to
  /// hold from the current position on, and a fast path costs one bound per fix.
  private var lastEvaluated = Coordinate(latitude: 0, longitude: 0)
  private var lastEvaluatedCosine = 1.0
  private var evaluatedCosineBound = CosineUpperBound()
  private var skippedRadius = -1.0
  /// Monitors with a dwell in progress or a detection held: touched at every full evaluation.
  private var awake: Set<Int> = []
  /// Full evaluations so far, and the one each monitor was last touched in.
  private var evaluationSerial = 0
  private var lastTouched: [Int]
  /// The last full evaluation with a coarse update or a switch to continuous updates (an observation).
  private var lastObservationSerial = -1
  /// The largest accuracy of the full evaluations from any serial on (a decreasing stack).
  private var accuracySuffixMaxima: [(serial: Int, accuracy: Double)] = []
  /// The offset circles' margins of the last full evaluation: max(entry margin, accuracy), max(exit margin, accuracy).
  private var circleMargins: (entry: Double, exit: Double) = (-1, -1)
  private var touched: [Int] = []
  /// Monitors touched by full evaluations (for the tests: the index skips most).
  private(set) var monitorEvaluations = 0
  /// Segments the fast path took (for those tests: proof that it ran).
  private(set) var fastPathSegments = 0
  /// Of those, in quiet stretches: fixes where the anchor moved, and fixes
  /// between coarse updates (for the quiet-stretch tests: proof that both ran).
  private(set) var quietAnchorMoves = 0
  private(set) var quietCoarseFixes = 0

  init(rules: RegionMonitoringRules, regions: [MonitoredRegion], variation: DeviceVariation?) {
    self.rules = rules
    var warnings: [(Int, String)] = []
    monitored = regions.map { $0.shape is CircularRegion }
    monitors = regions.enumerated().map { index, region in
      guard let circle = region.shape as? CircularRegion else {
        warnings.append((index, "the ios profile monitors circular regions only (CLCircularRegion): location requests on this polygon are never detected"))
        return RegionMonitor(index: index, center: Coordinate(latitude: 0, longitude: 0), radius: 1, declaredRadius: 1, rules: rules)
      }
      let effective = max(circle.radius, rules.minimumRadius)
      if effective > circle.radius {
        warnings.append((index, "radius \(Self.metres(circle.radius)) is below the minimum effective radius of \(Self.metres(rules.minimumRadius)): the device monitors it as \(Self.metres(effective))"))
      }
      // The accuracy rule: confidently inside needs a positive inset, max(entry margin, accuracy) < radius.
      if rules.entryMargin >= effective {
        warnings.append((index, "the entry margin of \(Self.metres(rules.entryMargin)) is not smaller than the effective radius of \(Self.metres(effective)): entries are never detected"))
      } else if rules.assumedAccuracy >= effective {
        warnings.append((index, "the effective radius of \(Self.metres(effective)) is not larger than the assumed fix accuracy of ±\(Self.metres(rules.assumedAccuracy)): fixes without a better accuracy never place the device inside it"))
      }
      return RegionMonitor(index: index, center: circle.center, radius: effective, declaredRadius: circle.radius, rules: rules)
    }
    regionWarnings = warnings
    budgets = BudgetIndex(active: monitored)
    lastTouched = Array(repeating: 0, count: regions.count)
    if let variation {
      random = TrialRandom(seed: variation.seed)
      latencySampler = LatencySampler(rules: rules, random: TrialRandom(seed: variation.seed ^ 0x9E37_79B9_7F4A_7C15))
      gridPhase = variation.gridPhase
    } else {
      latencySampler = LatencySampler(rules: rules, random: nil)
      gridPhase = 0
    }
    scratch.reserveCapacity(4)
    events.reserveCapacity(8)
  }

  func believesInside(_ region: Int) -> Bool { monitored[region] && monitors[region].deviceInside }

  /// When a report reaches the app rests on Apple's average against a field
  /// test, and where the device believes it is on the accuracy of Wi-Fi positions.
  var reportAssumptions: [AssumptionID] { [.locationLatency, .locationBackgroundAccuracy] }

  /// Under `LocationAlreadyInside.entered`: the device reports the side it
  /// already holds as an entry, after the profile's latency (drawn as for
  /// any report in trials), with no visit (the true path crossed nothing).
  mutating func entryForMonitoringStartedInside(_ region: Int, at instant: SimulationInstant) -> DeviceRegionReport {
    DeviceRegionReport(
      kind: .detected, region: region, entering: true, visit: nil, instant: instant.advanced(byMilliseconds: latencySampler.next()),
      crossingInstant: nil, conditionInstant: instant, reason: DeviceRegionReport.alreadyInsideReason)
  }
  /// Where the device last observed itself (with a trial's GPS error), for tests.
  var lastObservedCoordinate: Coordinate? { previousObserved?.coordinate }

  static func metres(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? "\(Int64(value))m" : String(format: "%.1fm", value)
  }

  // MARK: - LocationService

  mutating func start(at fix: TrackSample, geometricInside: [Bool]) {
    let observed = observe(fix, after: nil)
    previousObserved = observed
    cosPrevious = cosineBound.value(atLatitude: observed.coordinate.latitude)
    gridAnchor = fix.instant.millisecondsSinceEpoch + gridPhase
    for index in monitors.indices where monitored[index] {
      monitors[index].start(at: observed, inside: geometricInside[index], rules: rules)
    }
    circleMargins = margins(insetAccuracyOf(observed))
    budgetsMeasured(at: observed.coordinate)
  }

  mutating func advance(
    from a: TrackSample, to b: TrackSample, crossings: [GeometricCrossing], appInForeground: Bool,
    into reports: inout [DeviceRegionReport]
  ) {
    guard let previous = previousObserved else { return }
    let b = rules.updated(b, appInForeground: appInForeground)
    advance(from: a, to: b, observed: observe(b, after: previous), previousObserved: previous, crossings: crossings,
      appInForeground: appInForeground, into: &reports)
  }

  /// A quiet stretch (see `LocationService.advanceQuietly`) in one loop: a
  /// fix the continuous fast path takes costs its GPS error and one distance
  /// bound, with none of the engine's per-fix work around it (`QuietRun`).
  /// The first fix it does not take is evaluated in full, as `advance` would;
  /// the stretch ends there when that evaluation reports something.
  mutating func advanceQuietly(
    from start: TrackSample, through fixes: ArraySlice<TrackSample>, appInForeground: Bool, into reports: inout [DeviceRegionReport]
  ) -> Int {
    guard let first = previousObserved, let stream = random, !fixes.isEmpty else {
      return defaultAdvanceQuietly(from: start, through: fixes, appInForeground: appInForeground, into: &reports)
    }
    let interval = (appInForeground ? rules.foregroundInterval : rules.backgroundInterval).milliseconds
    var run = QuietRun(
      error: errorState, stream: stream, cosine: cosineBound, previousCos: cosPrevious, skipped: skippedRadius,
      tau: Double(rules.errorCorrelation.milliseconds), assumedAccuracy: rules.assumedAccuracy,
      accuracyFloor: appInForeground ? 0 : rules.backgroundAccuracy, previous: first)
    run.load(self, interval: interval)
    let taken = fixes.withUnsafeBufferPointer { buffer in
      var position = 0
      while true {
        // With few monitors the run moves the anchor itself (see `QuietRun.take`).
        position = monitors.withUnsafeBufferPointer { monitors in
          run.take(buffer, from: position, movingAnchorAmong: touchesAll ? monitors : nil, monitored: monitored)
        }
        guard position < buffer.count else { return position }
        // The fast path did not take this fix: a full evaluation, with the state the run changed.
        run.store(into: &self)
        if run.tookFastPath { updateInterval = interval }
        let b = rules.updated(buffer[position], appInForeground: appInForeground)
        var previous = position == 0 ? first : rules.updated(buffer[position - 1], appInForeground: appInForeground)
        previous.coordinate = run.previousCoordinate
        var observed = b
        observed.coordinate = run.coordinate
        advance(
          from: position == 0 ? start : buffer[position - 1], to: b, observed: observed, previousObserved: previous,
          crossings: [], appInForeground: appInForeground, into: &reports)
        run.reload(self, interval: interval)
        run.passed(b, observedAt: observed.coordinate)
        position += 1
        if !reports.isEmpty { return position }
      }
    }
    run.store(into: &self)
    if run.tookFastPath { updateInterval = interval }
    // As `advance` leaves it after each fix.
    var observed = rules.updated(fixes[fixes.startIndex + taken - 1], appInForeground: appInForeground)
    observed.coordinate = run.previousCoordinate
    previousObserved = observed
    return taken
  }

  /// The fast paths over consecutive fixes of a quiet stretch (continuous
  /// updates, and between two coarse updates), with the state a fast fix
  /// changes (the GPS error, its random stream, the cosine bounds, the
  /// skipped radius, the anchor) and what it reads in one small value, away
  /// from the service's hundreds of bytes. A full evaluation works on the
  /// service: the run stores its state there first and reloads it after.
  /// The GPS error is `observedCoordinate`'s and the tests are
  /// `takesContinuousFastPath`'s and `advance`'s coarse one, operation for
  /// operation (the property tests compare the two paths).
  ///
  /// **Moving the anchor.** With few monitors, a fix that leaves the slack
  /// around the anchor is not evaluated in full when every monitor's offset
  /// circles are farther from where the device observes it than the segment
  /// from the previous fix is long: every point of the segment is then
  /// nearer that fix than any offset circle, so no signal changed on the way,
  /// and a full evaluation would only have moved the anchor there, with the
  /// smallest clearance as the slack. The run does just that. (Before
  /// `quietUntil` nothing changes by time either; the accuracy leaves the
  /// circles as they are.)
  private struct QuietRun {
    var error: PositionError
    var stream: TrialRandom
    var cosine: CosineUpperBound
    var previousCos: Double
    var skipped: Double
    let tau: Double
    let assumedAccuracy: Double
    /// The background accuracy while the app is not in the foreground, else 0.
    let accuracyFloor: Double
    let ziggurat = Ziggurat.shared
    /// The previous fix: its instant as recorded, its position as observed.
    var previousInstant: Int64
    var previousCoordinate: Coordinate
    /// Where the device observed the first fix `take` did not take.
    var coordinate = Coordinate(latitude: 0, longitude: 0)
    /// Where the last full evaluation left the device (`lastEvaluated`), for
    /// the skipped radius once the anchor has moved away from it.
    var evaluated = Coordinate(latitude: 0, longitude: 0)
    var evaluatedCos = 1.0
    /// Fixes taken since the last `store` (of which the anchor moved at, and
    /// between coarse updates), and whether any was taken at all.
    var fast = 0
    var anchorMoves = 0
    var coarseFixes = 0
    var tookFastPath = false
    /// The fast path's conditions, as the last full evaluation left them:
    /// continuous updates (`open`), or coarse ones (`coarse`, up to the next update).
    var open = false
    var coarse = false
    var nextUpdate = Int64.min
    var quietUntil = Int64.min
    var anchor = Coordinate(latitude: 0, longitude: 0)
    var anchorCos = 1.0
    var slack = 0.0
    /// σ for the last accuracy seen (a division saved while the accuracy repeats).
    var sigmaAccuracy = Double.nan
    var sigma = 0.0

    init(
      error: PositionError, stream: TrialRandom, cosine: CosineUpperBound, previousCos: Double, skipped: Double, tau: Double,
      assumedAccuracy: Double, accuracyFloor: Double, previous: TrackSample
    ) {
      (self.error, self.stream, self.cosine, self.previousCos, self.skipped) = (error, stream, cosine, previousCos, skipped)
      (self.tau, self.assumedAccuracy, self.accuracyFloor) = (tau, assumedAccuracy, accuracyFloor)
      previousInstant = previous.instant.millisecondsSinceEpoch
      previousCoordinate = previous.coordinate
    }

    /// The fast path's conditions from the service.
    mutating func load(_ service: RegionMonitoringService, interval: Int64) {
      open = service.usesFastPath && interval == 0 && abs(service.anchor.longitude) < 179
      // `advance`'s coarse fast path: between two update instants the device learns nothing.
      coarse = service.usesFastPath && interval > 0 && interval == service.settledInterval && !service.holdsAnyDetection
      nextUpdate = .min
      if coarse, let last = service.previousObserved,
        let next = service.gridInstant(atOrAfter: last.instant.millisecondsSinceEpoch + 1, every: interval)
      {
        nextUpdate = next
      }
      quietUntil = service.quietUntil
      (anchor, anchorCos, slack) = (service.anchor, service.anchorCosine, service.slack)
      (evaluated, evaluatedCos) = (service.lastEvaluated, service.lastEvaluatedCosine)
    }

    /// Everything again after a full evaluation changed the service.
    mutating func reload(_ service: RegionMonitoringService, interval: Int64) {
      (error, stream, cosine, previousCos, skipped) = (
        service.errorState, service.random!, service.cosineBound, service.cosPrevious, service.skippedRadius
      )
      load(service, interval: interval)
    }

    func store(into service: inout RegionMonitoringService) {
      (service.anchor, service.anchorCosine, service.slack) = (anchor, anchorCos, slack)
      service.errorState = error
      service.random = stream
      service.cosineBound = cosine
      service.cosPrevious = previousCos
      service.skippedRadius = skipped
      service.fastPathSegments &+= fast
      service.quietAnchorMoves &+= anchorMoves
      service.quietCoarseFixes &+= coarseFixes
    }

    /// A fix evaluated in full: the next one's previous.
    mutating func passed(_ fix: TrackSample, observedAt observed: Coordinate) {
      (fast, anchorMoves, coarseFixes) = (0, 0, 0)
      previousInstant = fix.instant.millisecondsSinceEpoch
      previousCoordinate = observed
    }

    /// Takes the fixes from `start` on while the fast path takes them,
    /// moving the anchor among `monitors` when given (see "Moving the
    /// anchor"); returns the index of the first it does not take (observed
    /// at `coordinate`, its GPS error drawn), or the end.
    @inline(never)
    mutating func take(
      _ fixes: UnsafeBufferPointer<TrackSample>, from start: Int, movingAnchorAmong monitors: UnsafeBufferPointer<RegionMonitor>?,
      monitored: [Bool]
    ) -> Int {
      var position = start
      while position < fixes.count {
        let b = fixes[position]
        let instant = b.instant.millisecondsSinceEpoch
        let fixAccuracy = max(b.horizontalAccuracy ?? assumedAccuracy, accuracyFloor)
        if fixAccuracy != sigmaAccuracy {
          sigmaAccuracy = fixAccuracy
          sigma = fixAccuracy / PositionError.accuracyPerSigma
        }
        let (east, north) = error.advance(
          by: Double(instant - previousInstant), correlationMilliseconds: tau, random: &stream, ziggurat: ziggurat)
        let observed = error.offset(b.coordinate, east: east * sigma, north: north * sigma)
        // A trial insets the circles by the margins alone (`insetAccuracyOf`): the accuracy never moves them.
        if open && instant < quietUntil && abs(observed.longitude) < 179 {
          let distance = Geodesic.lengthUpperBound(anchor, observed, cosLatitudeA: anchorCos)
          if distance < slack {
            skipped = max(skipped, distance)
            previousCos = cosine.value(atLatitude: observed.latitude)
          } else {
            // The anchor moves here, as a full evaluation would leave it (`settleFastPath`).
            let segment = Geodesic.lengthUpperBound(previousCoordinate, observed, cosLatitudeA: previousCos)
            guard let monitors, let clearance = Self.clearance(from: observed, beyond: segment, among: monitors, monitored: monitored)
            else {
              coordinate = observed
              return position
            }
            previousCos = cosine.value(atLatitude: observed.latitude)
            anchor = observed
            anchorCos = previousCos
            slack = clearance
            // Every point from here on while the fast path holds is within the slack of the
            // new anchor: the skipped radius (from where the last full evaluation left the
            // device, with that place's cosine bound) covers them all, by the triangle
            // inequality; the cosine ratio turns a bound measured with the anchor's cosine
            // into one with that place's.
            let reach = Geodesic.lengthUpperBound(evaluated, observed, cosLatitudeA: evaluatedCos)
            skipped = max(skipped, (reach + clearance * max(1, evaluatedCos / anchorCos)) * (1 + 1e-9))
            anchorMoves &+= 1
          }
        } else if coarse && instant < nextUpdate {
          // `advance`'s coarse fast path: no update instant in the segment.
          skipped = max(skipped, Geodesic.lengthUpperBound(evaluated, observed, cosLatitudeA: evaluatedCos))
          previousCos = cosine.value(atLatitude: observed.latitude)
          coarseFixes &+= 1
        } else {
          coordinate = observed
          return position
        }
        fast &+= 1
        tookFastPath = true
        previousInstant = instant
        previousCoordinate = observed
        position += 1
      }
      return position
    }

    /// The smallest clearance of the monitors' offset circles from
    /// `observed`, when it is larger than `segment` (else nil): no circle
    /// is then within the segment's length of it (see "Moving the anchor").
    @inline(never)
    private static func clearance(
      from observed: Coordinate, beyond segment: Double, among monitors: UnsafeBufferPointer<RegionMonitor>, monitored: [Bool]
    ) -> Double? {
      var clearance = Double.infinity
      for index in monitors.indices where monitored[index] {
        clearance = min(clearance, monitors[index].inner.clearance(from: observed), monitors[index].outer.clearance(from: observed))
        if !(clearance > segment) { return nil }
      }
      return clearance
    }
  }

  /// The continuous fast path of `advance` (see there) for a segment with no
  /// crossing: whether it takes the segment to `observed`, counted as skipped.
  @inline(__always)
  private mutating func takesContinuousFastPath(to observed: Coordinate, at instant: Int64, accuracy: Double, interval: Int64) -> Bool {
    guard usesFastPath && interval == 0 && instant < quietUntil && circlesUnchanged(accuracy)
      && abs(observed.longitude) < 179 && abs(anchor.longitude) < 179
    else { return false }
    let distance = Geodesic.lengthUpperBound(anchor, observed, cosLatitudeA: anchorCosine)
    guard distance < slack else { return false }
    // The fast anchor is where the last full evaluation left the device.
    skippedRadius = max(skippedRadius, distance)
    fastPathSegments &+= 1
    return true
  }

  /// `advance` once the device has observed `b` (`observed`, after `previous`).
  @inline(__always)
  private mutating func advance(
    from a: TrackSample, to b: TrackSample, observed: TrackSample, previousObserved previous: TrackSample,
    crossings: [GeometricCrossing], appInForeground: Bool, into reports: inout [DeviceRegionReport]
  ) {
    defer {
      previousObserved = observed
      cosPrevious = cosineBound.value(atLatitude: observed.coordinate.latitude)
    }
    let interval = (appInForeground ? rules.foregroundInterval : rules.backgroundInterval).milliseconds
    let startsContinuousUpdates = interval == 0 && (updateInterval ?? 0) > 0
    updateInterval = interval
    let accuracy = max(insetAccuracyOf(previous), insetAccuracyOf(observed))
    // Fast path: with continuous updates, no crossing, no dwell in progress
    // and the offset circles unchanged, nothing changes in any region while
    // the path stays nearer the anchor than every offset circle. The bound
    // `lengthUpperBound(anchor, ·)` is a norm of the coordinate difference, so
    // it is convex along the interpolated path: when both ends of a segment
    // are within the slack of the anchor, so is every point between them. A
    // device standing still with GPS jitter stays on this path for hours,
    // where summing the jitter's path lengths would exhaust any budget.
    // (`quietUntil` is `Int64.min` after coarse updates, so `startsContinuousUpdates` never takes it.)
    if crossings.isEmpty
      && takesContinuousFastPath(to: observed.coordinate, at: b.instant.millisecondsSinceEpoch, accuracy: accuracy, interval: interval)
    {
      return
    }
    // Coarse updates: between two update instants the device learns nothing,
    // so a segment with no update instant, no crossing and the circles
    // unchanged only widens the reach.
    if usesFastPath && interval > 0 && interval == settledInterval && crossings.isEmpty && !holdsAnyDetection
      && circlesUnchanged(accuracy),
      let next = gridInstant(atOrAfter: a.instant.millisecondsSinceEpoch + 1, every: interval), next > b.instant.millisecondsSinceEpoch
    {
      skippedRadius = max(skippedRadius, Geodesic.lengthUpperBound(lastEvaluated, observed.coordinate, cosLatitudeA: lastEvaluatedCosine))
      fastPathSegments &+= 1
      return
    }
    // The budgets spent since the last full evaluation (the skipped stretch, then this segment);
    // a spent monitor is evaluated until it is measured again.
    let pathLength = Geodesic.lengthUpperBound(previous.coordinate, observed.coordinate, cosLatitudeA: cosPrevious)
    newlySpent.removeAll(keepingCapacity: true)
    if skippedRadius >= 0 { budgets.advance(from: lastEvaluated, length: skippedRadius, into: &newlySpent) }
    budgets.advance(from: previous.coordinate, length: pathLength, into: &newlySpent)
    if !touchesAll { for index in newlySpent { spent.insert(index) } }
    defer {
      budgets.moveAnchorIfFar(to: observed.coordinate)
      evaluated(at: observed.coordinate)
    }
    defer { settleFastPath(accuracy: accuracy, at: observed.coordinate, interval: interval) }
    evaluationSerial += 1
    let segment = Segment(
      previous: previous, observed: observed, t0: a.instant.millisecondsSinceEpoch, t1: b.instant.millisecondsSinceEpoch,
      pathLength: pathLength, accuracy: accuracy, interval: interval,
      startsContinuousUpdates: startsContinuousUpdates,
      grid: interval > 0 ? gridInstants(after: a.instant.millisecondsSinceEpoch, upTo: b.instant.millisecondsSinceEpoch, every: interval) : nil)
    var path: DevicePath?
    selectTouched(crossings: crossings, accuracy: accuracy)
    for index in touched {
      guard monitored[index] else {
        for crossing in crossings where crossing.region == index { reports.append(unmonitorable(crossing)) }
        continue
      }
      catchUp(index)
      // `advance` subtracts the segment's length: what is left is the bound at every point so far.
      monitors[index].budget = budgets.budget(index) + pathLength
      // In place: a monitor is a few hundred bytes, and copying each out and back per fix dominated the run.
      Self.advance(
        &monitors[index], along: segment, crossings: crossings, rules: rules, path: &path, events: &events, scratch: &scratch,
        latency: &latencySampler, into: &reports)
      monitorEvaluations &+= 1
      if monitors[index].budgetRemeasured {
        monitors[index].budgetRemeasured = false
        budgets.measured(index, clearance: monitors[index].budget, at: observed.coordinate)
      }
      if !touchesAll {
        if budgets.isDue(index) { spent.insert(index) } else { spent.remove(index) }
        if monitors[index].isAwake { awake.insert(index) } else { awake.remove(index) }
      }
    }
    // What the monitors skipped here learn when next touched.
    if segment.startsContinuousUpdates || !(segment.grid?.isEmpty ?? true) { lastObservationSerial = evaluationSerial }
    while let last = accuracySuffixMaxima.last, last.accuracy <= accuracy { accuracySuffixMaxima.removeLast() }
    accuracySuffixMaxima.append((evaluationSerial, accuracy))
  }

  // MARK: - Index

  /// max(entry margin, accuracy) and max(exit margin, accuracy): what sets every monitor's offset circles.
  private func margins(_ accuracy: Double) -> (entry: Double, exit: Double) {
    (max(rules.entryMargin, accuracy), max(rules.exitMargin, accuracy))
  }

  /// The monitors a full evaluation touches, in scenario order (`touched`):
  /// every one without the index, or when the accuracy moves the offset
  /// circles; else the awake ones, those the path crosses (and polygons it
  /// crosses, for their reports) and those whose threshold the segment reaches.
  private mutating func selectTouched(crossings: [GeometricCrossing], accuracy: Double) {
    touched.removeAll(keepingCapacity: true)
    let newMargins = margins(accuracy)
    let circlesMoved = newMargins != circleMargins
    circleMargins = newMargins
    if touchesAll || circlesMoved {
      touched.append(contentsOf: monitors.indices)
      return
    }
    touched.append(contentsOf: awake)
    touched.append(contentsOf: spent)
    for crossing in crossings { touched.append(crossing.region) }
    if touched.count > 1 {
      touched.sort()
      var unique = 0
      for position in touched.indices where position == 0 || touched[position] != touched[position - 1] {
        touched[unique] = touched[position]
        unique += 1
      }
      touched.removeLast(touched.count - unique)
    }
  }

  /// A monitor about to be evaluated learns what the full evaluations that skipped it would have told it.
  private mutating func catchUp(_ index: Int) {
    let since = lastTouched[index]
    lastTouched[index] = evaluationSerial
    if since < evaluationSerial - 1 { catchUpFrom(index, since: since) }
  }

  private mutating func catchUpFrom(_ index: Int, since: Int) {
    // The largest accuracy of the evaluations after `since`: the first stack entry at or after since + 1.
    var low = 0, high = accuracySuffixMaxima.count
    while low < high {
      let middle = (low + high) / 2
      if accuracySuffixMaxima[middle].serial <= since { low = middle + 1 } else { high = middle }
    }
    let largest = low < accuracySuffixMaxima.count ? accuracySuffixMaxima[low].accuracy : nil
    monitors[index].catchUp(largestAccuracy: largest, observed: lastObservationSerial > since)
  }

  /// Every monitor learns what it missed (before an operation that touches them all).
  private mutating func catchUpAll() {
    for index in monitors.indices where monitored[index] {
      let since = lastTouched[index]
      lastTouched[index] = evaluationSerial
      if since < evaluationSerial { catchUpFrom(index, since: since) }
    }
  }

  /// A full evaluation (or a restart) left the device at `position`: nothing skipped since.
  private mutating func evaluated(at position: Coordinate) {
    lastEvaluated = position
    lastEvaluatedCosine = evaluatedCosineBound.value(atLatitude: position.latitude)
    skippedRadius = -1
  }

  /// Every monitor's budget was just measured at `position` (the first fix,
  /// a gap, monitoring starting again): the index starts from there.
  private mutating func budgetsMeasured(at position: Coordinate) {
    budgets.measuredAll(at: position) { monitored[$0] ? monitors[$0].budget : 0 }
    evaluated(at: position)
    spent.removeAll(keepingCapacity: true)
    awake.removeAll(keepingCapacity: true)
    for index in monitors.indices where monitored[index] {
      monitors[index].budgetRemeasured = false
      if monitors[index].isAwake { awake.insert(index) }
    }
  }

  /// Whether a segment of this accuracy leaves every offset circle as the
  /// last full evaluation left it: the same accuracy, or both within the
  /// margins (the circles are then set by the margins alone).
  private func circlesUnchanged(_ accuracy: Double) -> Bool {
    let margin = min(rules.entryMargin, rules.exitMargin)
    return accuracy == settledAccuracy || (accuracy <= margin && settledAccuracy <= margin)
  }


  /// After a full evaluation: what the fast paths check. With continuous
  /// updates: the anchor, the slack (the smallest budget) and whether no
  /// dwell is in progress. With coarse ones: the interval and accuracy (the
  /// budgets are then measured from the last update's position, so the
  /// continuous fast path waits for a full continuous evaluation).
  private mutating func settleFastPath(accuracy: Double, at position: Coordinate, interval: Int64) {
    settledAccuracy = accuracy
    settledInterval = interval
    holdsAnyDetection = false
    quietUntil = .min
    // A dwell in progress completes, and a held detection is released, by time alone:
    // before the first of those instants a segment within the slack changes nothing.
    var until = Int64.max
    if touchesAll {
      // Few monitors: the exact clearance of each from here, and every monitor's state.
      slack = .infinity
      for index in monitors.indices where monitored[index] {
        slack = min(slack, monitors[index].clearance(from: position))
        if monitors[index].holdsDetection { holdsAnyDetection = true }
        until = min(until, monitors[index].changesByTime(rules: rules))
      }
    } else {
      slack = budgets.smallestBudget()
      // Only awake monitors dwell or hold a detection.
      for index in awake {
        if monitors[index].holdsDetection { holdsAnyDetection = true }
        until = min(until, monitors[index].changesByTime(rules: rules))
      }
    }
    guard interval == 0 else { return }
    anchor = position
    anchorCosine = cosineBound.value(atLatitude: position.latitude)
    quietUntil = until
  }

  /// One observed segment, shared by every region's monitor.
  private struct Segment {
    var previous: TrackSample
    var observed: TrackSample
    var t0: Int64
    var t1: Int64
    var pathLength: Double
    var accuracy: Double
    /// 0: continuous updates.
    var interval: Int64
    /// Continuous updates after coarse ones: the device learns its position continuously from `t0` on.
    var startsContinuousUpdates: Bool
    /// The coarse update instants in `(t0, t1]` (nil when continuous).
    var grid: [Int64]?
  }

  private static func advance(
    _ monitor: inout RegionMonitor, along segment: Segment, crossings: [GeometricCrossing], rules: RegionMonitoringRules,
    path: inout DevicePath?, events: inout [MonitorEvent], scratch: inout [BoundaryCrossing], latency: inout LatencySampler,
    into reports: inout [DeviceRegionReport]
  ) {
    let index = monitor.index
    let continuous = segment.interval == 0
    let hasCrossings = crossings.contains { $0.region == index }
    let accuracyChanged = monitor.setAccuracy(segment.accuracy, rules: rules)
    if segment.startsContinuousUpdates {
      // From coarse to continuous updates: the device first learns the position at the segment
      // start, so a dwell begun at a coarse update completes no earlier than `t0`.
      let start = segment.previous.coordinate
      monitor.handle(
        MonitorEvent(time: segment.t0, kind: .observation(inside: monitor.inner.contains(start), outside: !monitor.outer.contains(start))),
        continuous: false, rules: rules, latency: &latency, into: &reports)
    }
    monitor.setContinuousUpdates(continuous, at: segment.t0)
    monitor.budget -= segment.pathLength
    if !hasCrossings && !accuracyChanged && monitor.budget > 0 && (segment.grid?.isEmpty ?? true) {
      // Far from both offset circles: the signals cannot change; only a dwell can complete.
      if continuous { monitor.completeDwell(upTo: segment.t1, continuous: true, rules: rules, latency: &latency, into: &reports) }
      monitor.releaseHeldDetection(upTo: segment.t1, into: &reports)
      return
    }
    events.removeAll(keepingCapacity: true)
    for crossing in crossings where crossing.region == index {
      events.append(MonitorEvent(time: crossing.instant.millisecondsSinceEpoch, kind: .geometric(crossing)))
    }
    if let grid = segment.grid {
      if !grid.isEmpty {
        let exact = monitor.budget <= 0 || accuracyChanged
        if exact && path == nil { path = DevicePath(from: segment.previous, to: segment.observed) }
        var lastPosition = segment.observed.coordinate
        for t in grid {
          var inside = monitor.signalInside, outside = monitor.signalOutside
          if exact {
            lastPosition = path!.position(at: SimulationInstant(millisecondsSinceEpoch: t))
            inside = monitor.inner.contains(lastPosition)
            outside = !monitor.outer.contains(lastPosition)
          }
          events.append(MonitorEvent(time: t, kind: .observation(inside: inside, outside: outside)))
        }
        if exact {
          // The signals are those of the last update, not of the segment end: the budget
          // bounds the distance from that position, less the rest of the segment (constant speed).
          let rest = segment.pathLength * Double(segment.t1 - grid[grid.count - 1]) / Double(max(segment.t1 - segment.t0, 1))
          monitor.budget = monitor.clearance(from: lastPosition) - rest
          monitor.budgetRemeasured = true
        }
      }
    } else if monitor.budget <= 0 || accuracyChanged || hasCrossings {
      let startInside = monitor.inner.contains(segment.previous.coordinate)
      let startOutside = !monitor.outer.contains(segment.previous.coordinate)
      if startInside != monitor.signalInside || startOutside != monitor.signalOutside {
        // The accuracy changed at the fix: the new circles apply from the next millisecond.
        events.append(MonitorEvent(time: segment.t0 + 1, kind: .signals(inside: startInside, outside: startOutside)))
      }
      scratch.removeAll(keepingCapacity: true)
      monitor.inner.appendCrossings(from: segment.previous, to: segment.observed, insideAtStart: startInside, into: &scratch)
      for crossing in scratch {
        events.append(MonitorEvent(time: crossing.instant.millisecondsSinceEpoch, kind: .inner(crossing.entering)))
      }
      scratch.removeAll(keepingCapacity: true)
      monitor.outer.appendCrossings(from: segment.previous, to: segment.observed, insideAtStart: !startOutside, into: &scratch)
      for crossing in scratch {
        events.append(MonitorEvent(time: crossing.instant.millisecondsSinceEpoch, kind: .outer(!crossing.entering)))
      }
      monitor.budget = monitor.clearance(from: segment.observed.coordinate)
      monitor.budgetRemeasured = true
    }
    // Geometric crossings first at equal instants (they were appended first; the sort is stable).
    events.sort { $0.time < $1.time || ($0.time == $1.time && $0.kind.order < $1.kind.order) }
    for event in events {
      monitor.handle(event, continuous: continuous, rules: rules, latency: &latency, into: &reports)
    }
    if continuous { monitor.completeDwell(upTo: segment.t1, continuous: true, rules: rules, latency: &latency, into: &reports) }
    monitor.releaseHeldDetection(upTo: segment.t1, into: &reports)
  }

  mutating func resume(
    after a: TrackSample, at b: TrackSample, crossings: [GeometricCrossing], appInForeground: Bool,
    into reports: inout [DeviceRegionReport]
  ) {
    // Every budget is measured anew at `b`; the fast paths wait for the next full evaluation.
    quietUntil = .min
    settledInterval = -1
    let b = rules.updated(b, appInForeground: appInForeground)
    let observed = observe(b, after: nil)
    previousObserved = observed
    cosPrevious = cosineBound.value(atLatitude: observed.coordinate.latitude)
    let interval = (appInForeground ? rules.foregroundInterval : rules.backgroundInterval).milliseconds
    updateInterval = interval
    let continuous = interval == 0
    let accuracy = insetAccuracyOf(observed)
    catchUpAll()
    circleMargins = margins(accuracy)
    defer { budgetsMeasured(at: observed.coordinate) }
    for index in monitors.indices {
      guard monitored[index] else {
        for crossing in crossings where crossing.region == index { reports.append(unmonitorable(crossing)) }
        continue
      }
      var monitor = monitors[index]
      monitor.abandonDwell(at: a.instant.millisecondsSinceEpoch)
      monitor.setContinuousUpdates(continuous, at: b.instant.millisecondsSinceEpoch)
      for crossing in crossings where crossing.region == index {
        monitor.handle(MonitorEvent(time: crossing.instant.millisecondsSinceEpoch, kind: .geometric(crossing)), continuous: continuous, rules: rules, latency: &latencySampler, into: &reports)
      }
      _ = monitor.setAccuracy(accuracy, rules: rules)
      if continuous {
        // The position is known again at `b`: a dwell can start there.
        let inside = monitor.inner.contains(observed.coordinate)
        let outside = !monitor.outer.contains(observed.coordinate)
        monitor.handle(MonitorEvent(time: b.instant.millisecondsSinceEpoch, kind: .signals(inside: inside, outside: outside)), continuous: true, rules: rules, latency: &latencySampler, into: &reports)
        monitor.completeDwell(upTo: b.instant.millisecondsSinceEpoch, continuous: true, rules: rules, latency: &latencySampler, into: &reports)
        monitor.budget = monitor.clearance(from: observed.coordinate)
      } else {
        // With coarse updates the device learns the position at its next update: evaluate it exactly then.
        monitor.budget = 0
      }
      monitor.releaseHeldDetection(upTo: b.instant.millisecondsSinceEpoch, into: &reports)
      monitors[index] = monitor
    }
  }

  mutating func restartMonitoring(at instant: SimulationInstant, into reports: inout [DeviceRegionReport]) {
    quietUntil = .min
    settledInterval = -1
    guard let position = previousObserved?.coordinate else { return }
    let time = instant.millisecondsSinceEpoch
    restartedAt = time
    catchUpAll()
    for index in monitors.indices where monitored[index] {
      monitors[index].restart(at: time, position: position, continuous: updateInterval == 0, into: &reports)
    }
    budgetsMeasured(at: position)
  }

  /// The device stays at its last position until `end`, its updates in the
  /// mode the last segment used: continuously, a dwell in progress completes
  /// at its end; with coarse updates, each update from the next one on
  /// observes the last position (a dwell can start there), and since the
  /// signals no longer change, a dwell completes at the first update at least
  /// `dwell` after its first confirming one.
  mutating func finish(last: TrackSample, until end: SimulationInstant, into reports: inout [DeviceRegionReport]) {
    quietUntil = .min
    catchUpAll()
    let limit = end.millisecondsSinceEpoch
    for index in monitors.indices {
      guard monitored[index] else { continue }
      var monitor = monitors[index]
      if let interval = updateInterval, let position = previousObserved?.coordinate {
        if interval == 0 {
          monitor.completeDwell(upTo: limit, continuous: true, rules: rules, latency: &latencySampler, into: &reports)
        } else if let next = gridInstant(atOrAfter: max(last.instant.millisecondsSinceEpoch + 1, restartedAt ?? .min), every: interval),
          next <= limit
        {
          let observation = MonitorEvent.Kind.observation(inside: monitor.inner.contains(position), outside: !monitor.outer.contains(position))
          monitor.handle(MonitorEvent(time: next, kind: observation), continuous: false, rules: rules, latency: &latencySampler, into: &reports)
          if let since = monitor.confirmingSince, let due = gridInstant(atOrAfter: since + rules.dwell.milliseconds, every: interval),
            due > next && due <= limit
          {
            monitor.handle(MonitorEvent(time: due, kind: observation), continuous: false, rules: rules, latency: &latencySampler, into: &reports)
          }
        }
      }
      monitor.finish(at: limit, rules: rules, into: &reports)
      monitors[index] = monitor
    }
  }

  // MARK: - Observations

  /// The fix as the device observes it: with GPS error in a trial, as recorded otherwise.
  private mutating func observe(_ fix: TrackSample, after previous: TrackSample?) -> TrackSample {
    guard random != nil else { return fix }
    var observed = fix
    observed.coordinate = observedCoordinate(of: fix, after: previous?.instant)
    return observed
  }

  /// Where the device observes `fix` in a trial (the previous fix was at `previous`).
  @inline(__always)
  private mutating func observedCoordinate(of fix: TrackSample, after previous: SimulationInstant?) -> Coordinate {
    let dt = previous.map { Double($0.duration(to: fix.instant).milliseconds) } ?? .infinity
    let sigma = accuracyOf(fix) / PositionError.accuracyPerSigma
    let (east, north) = errorState.advance(by: dt, correlationMilliseconds: Double(rules.errorCorrelation.milliseconds), random: &random!)
    return errorState.offset(fix.coordinate, east: east * sigma, north: north * sigma)
  }

  private func accuracyOf(_ fix: TrackSample) -> Double { fix.horizontalAccuracy ?? rules.assumedAccuracy }

  /// The accuracy that insets the offset circles (see "Accuracy" above):
  /// the fix's accuracy in a deterministic run, which takes the recorded
  /// position as observed, and zero in a trial, whose observed position
  /// already carries an error drawn from that accuracy. Each uncertainty
  /// counts once: a trial that also inset the circles by the accuracy would
  /// ask a device standing at the centre of a 100 m circle, its background
  /// fixes at ±65 m, to observe itself within 35 m of the centre where its
  /// error alone puts it 51 m away half the time.
  private func insetAccuracyOf(_ fix: TrackSample) -> Double { random == nil ? accuracyOf(fix) : 0 }

  /// The first update instant at or after `t`: the grid is `anchor + k × interval` for every integer k.
  private func gridInstant(atOrAfter t: Int64, every interval: Int64) -> Int64? {
    guard let anchor = gridAnchor else { return nil }
    return anchor + floorDivide(t - anchor + interval - 1, interval).quotient * interval
  }

  /// The update instants in `(after, upTo]`.
  private func gridInstants(after t0: Int64, upTo t1: Int64, every interval: Int64) -> [Int64] {
    guard t1 > t0, var t = gridInstant(atOrAfter: t0 + 1, every: interval) else { return [] }
    var instants: [Int64] = []
    while t <= t1 {
      instants.append(t)
      t += interval
    }
    return instants
  }

  private func unmonitorable(_ crossing: GeometricCrossing) -> DeviceRegionReport {
    DeviceRegionReport(
      kind: .undetected, region: crossing.region, entering: crossing.entering, visit: crossing.visit,
      instant: crossing.instant, crossingInstant: crossing.instant,
      reason: "not a circle: iOS monitors circular regions only")
  }
}

// MARK: - One region

/// Something the monitor of one region learns, in time order.
struct MonitorEvent {
  enum Kind {
    /// The true path crossed the region's boundary.
    case geometric(GeometricCrossing)
    /// Continuous updates: the path entered (true) or left the inner circle.
    case inner(Bool)
    /// Continuous updates: the path got confidently outside (true) or came back.
    case outer(Bool)
    /// Continuous updates: both signals take these values from now on.
    case signals(inside: Bool, outside: Bool)
    /// A coarse update: the device learns its position.
    case observation(inside: Bool, outside: Bool)

    var order: Int {
      switch self {
      case .geometric: 0
      default: 1
      }
    }
  }

  var time: Int64
  var kind: Kind
}

/// The device's view of one circular region.
struct RegionMonitor {
  let index: Int
  let center: Coordinate
  /// The effective radius, metres.
  let radius: Double
  /// The radius the scenario declares (smaller than `radius` under the minimum radius rule).
  let declaredRadius: Double
  private let bounds: Geodesic.DistanceBounds
  /// Confidently inside: at least max(entry margin, accuracy) inside the boundary.
  private(set) var inner: CircleBoundary
  /// Its complement is confidently outside: at least max(exit margin, accuracy) outside.
  private(set) var outer: CircleBoundary
  private var accuracy = -1.0
  /// Lower bound on the distance to both offset circles from the position
  /// the signals were last evaluated at (a fix, or a coarse update), less
  /// the path since: while it is positive the signals hold for the current position.
  /// Valid while the service evaluates the monitor; between evaluations the service's index holds it.
  var budget = 0.0
  /// Set when an evaluation measured `budget` anew at the segment's end (for the service's index).
  var budgetRemeasured = false

  /// The side the device believes it is on.
  private(set) var deviceInside = false
  private(set) var signalInside = false
  private(set) var signalOutside = false
  /// Since when the signal for the other side has held (a dwell in progress).
  private(set) var confirmingSince: Int64?
  private var lastReport = Int64.min

  // The geometric side and what the device did since it last changed.
  private var geometricInside = false
  private var visit = 0
  private var crossingAt: Int64?
  private var detectedSinceCrossing = false
  /// The longest run of the confirming signal since the crossing (or in progress at it).
  private var longestRun: ConfirmedRun?
  private var observedSinceCrossing = false
  /// Whether the device learns its position continuously now (else at coarse updates).
  private(set) var continuousUpdates = true
  /// Until when the device has seen the confirming signal of the run in
  /// progress hold (its last confirming coarse update), and at how many
  /// coarse updates (nil when it saw part of the run continuously).
  private var lastConfirmingUpdate: Int64 = 0
  private var confirmingUpdates: Int?

  /// What the device saw of one run of the confirming signal: how long it
  /// held, from its first confirming update to its last with coarse updates
  /// (`updates` of them), else for as long as it lasted (`updates` nil).
  struct ConfirmedRun: Comparable {
    var duration: Int64
    var updates: Int? = nil

    static func < (a: Self, b: Self) -> Bool { (a.duration, a.updates ?? .max) < (b.duration, b.updates ?? .max) }
  }
  private var largestAccuracy = 0.0
  /// The last exit the device did not detect before the path came back in.
  private var missedExitVisit: Int?
  /// A detection of the side the true path is not on (the effective circle
  /// is larger than the declared one, or GPS error), held until its instant:
  /// a geometric crossing to that side by then is the visit it detected.
  private var heldDetection: HeldDetection?
  /// The device's side comes from a detection reported ahead of the true
  /// path: the path's crossing to that side is no new one for the device.
  private var aheadOfPath = false

  struct HeldDetection {
    var report: DeviceRegionReport
    var condition: Int64
    /// The reason's parts before what the true path did.
    var reasonParts: [String]
  }

  init(index: Int, center: Coordinate, radius: Double, declaredRadius: Double, rules: RegionMonitoringRules) {
    self.declaredRadius = declaredRadius
    self.index = index
    self.center = center
    self.radius = radius
    self.bounds = Geodesic.DistanceBounds(center: center, reach: 4 * radius + 10_000)
    self.inner = CircleBoundary(radius: -1, bounds: bounds)
    self.outer = CircleBoundary(radius: radius + rules.exitMargin, bounds: bounds)
  }

  /// Rebuilds the offset circles for a new accuracy; returns whether they changed.
  mutating func setAccuracy(_ value: Double, rules: RegionMonitoringRules) -> Bool {
    guard value != accuracy else { return false }
    accuracy = value
    largestAccuracy = max(largestAccuracy, value)
    // Confidently inside needs a positive inset: a region whose effective radius is at most
    // max(entry margin, accuracy) is never entered, not even at its centre (a circle of radius 0
    // would still contain the centre).
    let inset = radius - max(rules.entryMargin, value)
    let innerRadius = inset > 0 ? inset : -1
    let outerRadius = radius + max(rules.exitMargin, value)
    let changed = innerRadius != inner.radius || outerRadius != outer.radius
    if changed {
      inner = CircleBoundary(radius: innerRadius, bounds: bounds)
      outer = CircleBoundary(radius: outerRadius, bounds: bounds)
    }
    return changed
  }

  func clearance(from coordinate: Coordinate) -> Double {
    min(inner.clearance(from: coordinate), outer.clearance(from: coordinate))
  }

  mutating func start(at fix: TrackSample, inside: Bool, rules: RegionMonitoringRules) {
    _ = setAccuracy(fix.horizontalAccuracy ?? rules.assumedAccuracy, rules: rules)
    deviceInside = inside
    geometricInside = inside
    signalInside = inner.contains(fix.coordinate)
    signalOutside = !outer.contains(fix.coordinate)
    budget = clearance(from: fix.coordinate)
  }

  /// The signal for the side the device does not believe it is on.
  private var confirming: Bool { deviceInside ? signalOutside : signalInside }

  mutating func handle(
    _ event: MonitorEvent, continuous: Bool, rules: RegionMonitoringRules, latency: inout LatencySampler,
    into reports: inout [DeviceRegionReport]
  ) {
    switch event.kind {
    case .geometric(let crossing):
      if continuous { completeDwell(upTo: event.time, continuous: true, rules: rules, latency: &latency, into: &reports) }
      geometricCrossing(crossing, continuous: continuous, rules: rules, into: &reports)
    case .inner(let value):
      completeDwell(upTo: event.time, continuous: true, rules: rules, latency: &latency, into: &reports)
      setSignals(inside: value, outside: signalOutside, at: event.time, update: false)
      completeDwell(upTo: event.time, continuous: true, rules: rules, latency: &latency, into: &reports)
    case .outer(let value):
      completeDwell(upTo: event.time, continuous: true, rules: rules, latency: &latency, into: &reports)
      setSignals(inside: signalInside, outside: value, at: event.time, update: false)
      completeDwell(upTo: event.time, continuous: true, rules: rules, latency: &latency, into: &reports)
    case .signals(let inside, let outside):
      completeDwell(upTo: event.time, continuous: true, rules: rules, latency: &latency, into: &reports)
      setSignals(inside: inside, outside: outside, at: event.time, update: false)
      completeDwell(upTo: event.time, continuous: true, rules: rules, latency: &latency, into: &reports)
    case .observation(let inside, let outside):
      setSignals(inside: inside, outside: outside, at: event.time, update: true)
      completeDwell(upTo: event.time, continuous: false, rules: rules, latency: &latency, into: &reports)
    }
  }

  /// New signal values at `time`, learned at a coarse update (`update`) or continuously.
  private mutating func setSignals(inside: Bool, outside: Bool, at time: Int64, update: Bool) {
    observedSinceCrossing = true
    largestAccuracy = max(largestAccuracy, accuracy)
    let was = confirming
    signalInside = inside
    signalOutside = outside
    let now = confirming
    if now && !was {
      confirmingSince = time
      lastConfirmingUpdate = time
      confirmingUpdates = update ? 0 : nil
    }
    if now && update {
      lastConfirmingUpdate = time
      confirmingUpdates = confirmingUpdates.map { $0 + 1 }
    } else if !now, let since = confirmingSince {
      // A coarse update shows the run ended somewhere after the last confirming one.
      let run = update ? ConfirmedRun(duration: lastConfirmingUpdate - since, updates: confirmingUpdates) : ConfirmedRun(duration: time - since)
      longestRun = max(longestRun ?? run, run)
      confirmingSince = nil
    }
  }

  /// The device learns its position continuously from `time` on, or only at coarse updates.
  mutating func setContinuousUpdates(_ continuous: Bool, at time: Int64) {
    if confirmingSince != nil && continuous != continuousUpdates {
      // A run seen continuously in part: to coarse updates, it was seen to hold until now.
      if !continuous { lastConfirmingUpdate = time }
      confirmingUpdates = nil
    }
    continuousUpdates = continuous
  }

  /// The run of the confirming signal in progress, as the device has seen it by `time`.
  private func runInProgress(at time: Int64) -> ConfirmedRun? {
    guard let since = confirmingSince else { return nil }
    return continuousUpdates
      ? ConfirmedRun(duration: time - since) : ConfirmedRun(duration: lastConfirmingUpdate - since, updates: confirmingUpdates)
  }

  /// Completes a dwell in progress whose end is at or before `time`: in
  /// continuous mode at the dwell's end, with coarse updates only at an update (`time`).
  mutating func completeDwell(
    upTo time: Int64, continuous: Bool, rules: RegionMonitoringRules, latency: inout LatencySampler,
    into reports: inout [DeviceRegionReport]
  ) {
    guard let since = confirmingSince, confirming else { return }
    let due = since + rules.dwell.milliseconds
    guard due <= time else { return }
    let condition = continuous ? due : time
    detect(at: condition, since: since, rules: rules, latency: &latency, into: &reports)
  }

  private mutating func detect(
    at condition: Int64, since: Int64, rules: RegionMonitoringRules, latency: inout LatencySampler,
    into reports: inout [DeviceRegionReport]
  ) {
    releaseHeldDetection(into: &reports)
    let entering = !deviceInside
    deviceInside = entering
    confirmingSince = nil
    detectedSinceCrossing = true
    aheadOfPath = false
    let delay = latency.next()
    let instant = max(condition + delay, lastReport)
    lastReport = instant
    let margin = entering ? max(rules.entryMargin, accuracy) : max(rules.exitMargin, accuracy)
    let side = entering ? "inside" : "outside"
    var parts: [String] = []
    if rules.dwell > .zero || margin > 0 {
      parts.append("\(RegionMonitoringService.metres(margin)) \(side) for \(SimulationDuration(milliseconds: condition - since))")
    }
    if delay > 0 { parts.append("then \(SimulationDuration(milliseconds: delay)) latency") }
    var report = DeviceRegionReport(
      kind: .detected, region: index, entering: entering, visit: visit,
      instant: SimulationInstant(millisecondsSinceEpoch: instant),
      crossingInstant: crossingAt.map { SimulationInstant(millisecondsSinceEpoch: $0) },
      conditionInstant: SimulationInstant(millisecondsSinceEpoch: condition),
      reason: parts.isEmpty ? nil : parts.joined(separator: "; "))
    guard geometricInside == entering else {
      // Ahead of the true path: which visit it detected is known only if the path crosses by the report's instant.
      report.visit = nil
      report.crossingInstant = nil
      heldDetection = HeldDetection(report: report, condition: condition, reasonParts: parts)
      return
    }
    reports.append(report)
  }

  /// What a detection ahead of the true path is about, for its reason.
  private var aheadOfPathCause: String {
    declaredRadius < radius
      ? "the declared \(RegionMonitoringService.metres(declaredRadius)) circle (monitored as \(RegionMonitoringService.metres(radius)))"
      : "the boundary (GPS error)"
  }

  /// Whether a detection waits for its report instant (see `HeldDetection`).
  var holdsDetection: Bool { heldDetection != nil }

  /// The first instant at which time alone changes this monitor: its dwell
  /// in progress completes (continuous updates), or its held detection is
  /// released. `Int64.max` when neither; `Int64.min` for a dwell whose
  /// signal no longer confirms (never left so; then no instant is promised).
  func changesByTime(rules: RegionMonitoringRules) -> Int64 {
    var earliest = Int64.max
    if let since = confirmingSince {
      guard confirming else { return .min }
      let (due, overflow) = since.addingReportingOverflow(rules.dwell.milliseconds)
      earliest = overflow ? .max : due
    }
    if let held = heldDetection { earliest = min(earliest, held.report.instant.millisecondsSinceEpoch) }
    return earliest
  }

  /// A dwell in progress or a held detection: time alone can change the
  /// monitor, so the service's index evaluates it at every full evaluation.
  var isAwake: Bool { confirmingSince != nil || heldDetection != nil }

  /// What the full evaluations that skipped this monitor (asleep, far from
  /// both offset circles) would have done to it: each applied its accuracy
  /// (`largestAccuracy`, the largest of them) and, at a coarse update or a
  /// switch to continuous updates, observed unchanged signals.
  mutating func catchUp(largestAccuracy value: Double?, observed: Bool) {
    if let value { largestAccuracy = max(largestAccuracy, value) }
    if observed { observedSinceCrossing = true }
  }

  /// Reports the held detection, with no visit: the true path did not cross
  /// to its side by its instant (or another report about the region comes first).
  private mutating func releaseHeldDetection(into reports: inout [DeviceRegionReport]) {
    guard var held = heldDetection else { return }
    heldDetection = nil
    let side = held.report.entering ? "outside" : "inside"
    held.report.reason = (held.reasonParts + [
      declaredRadius < radius
        ? "the true path was \(side) the declared \(RegionMonitoringService.metres(declaredRadius)) circle, monitored as \(RegionMonitoringService.metres(radius))"
        : "the true path was \(side): GPS error",
    ]).joined(separator: "; ")
    reports.append(held.report)
    aheadOfPath = true
  }

  /// Appends a report about this region: after the held detection, and
  /// never before the region's last report, so that reports about one region
  /// come in instant order (an undetected crossing is known at its instant,
  /// but is told after a detection still on its way).
  private mutating func append(into reports: inout [DeviceRegionReport], _ report: DeviceRegionReport) {
    releaseHeldDetection(into: &reports)
    reports.append(report, notBefore: &lastReport)
  }

  /// Releases the held detection once the segment reaches its instant.
  mutating func releaseHeldDetection(upTo time: Int64, into reports: inout [DeviceRegionReport]) {
    guard let held = heldDetection, held.report.instant.millisecondsSinceEpoch <= time else { return }
    releaseHeldDetection(into: &reports)
  }

  /// Region monitoring starts again at `time` with the device at `position`:
  /// it takes the true path's side silently (the already-inside rule), and
  /// a dwell can only start from here. A visit it had not detected is explained.
  mutating func restart(at time: Int64, position: Coordinate, continuous: Bool, into reports: inout [DeviceRegionReport]) {
    releaseHeldDetection(into: &reports)  // decided before the restart; no later crossing is its visit
    if geometricInside != deviceInside && !detectedSinceCrossing, let since = crossingAt {
      let side = geometricInside ? "inside" : "outside"
      append(
        into: &reports,
        DeviceRegionReport(
          kind: .undetected, region: index, entering: geometricInside, visit: visit,
          instant: SimulationInstant(millisecondsSinceEpoch: time), crossingInstant: SimulationInstant(millisecondsSinceEpoch: since),
          reason: "region monitoring started again with the device already \(side): the platform reports no \(geometricInside ? "entry" : "exit") for it"))
      detectedSinceCrossing = true
    }
    deviceInside = geometricInside
    aheadOfPath = false
    missedExitVisit = nil
    confirmingSince = nil
    setContinuousUpdates(continuous, at: time)
    if continuous {
      signalInside = inner.contains(position)
      signalOutside = !outer.contains(position)
      if confirming {
        confirmingSince = time
        lastConfirmingUpdate = time
        confirmingUpdates = nil
      }
      budget = clearance(from: position)
    } else {
      // With coarse updates the device learns its position at its next update: evaluate it exactly then.
      signalInside = false
      signalOutside = false
      budget = 0
    }
  }

  /// A gap: the position is unknown, so a dwell in progress is abandoned.
  mutating func abandonDwell(at time: Int64) {
    if let run = runInProgress(at: time) { longestRun = max(longestRun ?? run, run) }
    confirmingSince = nil
    signalInside = false
    signalOutside = false
  }

  private mutating func geometricCrossing(
    _ crossing: GeometricCrossing, continuous: Bool, rules: RegionMonitoringRules, into reports: inout [DeviceRegionReport]
  ) {
    let t = crossing.instant
    var detectedAhead = false
    if var held = heldDetection {
      if held.report.detects(crossing) {
        // The path reaches the side the device detected before its report does: that is the visit it detected.
        heldDetection = nil
        let (declared, monitored) = (declaredRadius, radius)
        held.report.attribute(to: crossing, condition: held.condition, reasonParts: held.reasonParts) { later in
          declared < monitored
            ? "the true path \(crossing.entering ? "entered" : "left") the declared \(RegionMonitoringService.metres(declared)) circle \(later) later (monitored as \(RegionMonitoringService.metres(monitored)))"
            : "the true path \(crossing.entering ? "entered" : "left") \(later) later: GPS error"
        }
        reports.append(held.report)
        detectedAhead = true
      } else {
        releaseHeldDetection(into: &reports)
      }
    }
    // The device already reported this crossing, ahead of the path and without a visit: it is no new one.
    let reportedAhead = aheadOfPath && crossing.entering == deviceInside
    aheadOfPath = false
    var missedEntryVisit: Int?
    if !crossing.entering && !deviceInside && !detectedSinceCrossing, let since = crossingAt {
      // Left without the device ever noticing the entry: for it the device never entered, so
      // this exit is none either (it matters to exit requests too).
      var missedEntry = undetected(entering: true, visit: visit, at: t, since: since, rules: rules)
      missedEntry.concernsBothKinds = true
      append(into: &reports, missedEntry)
      missedEntryVisit = visit
    }
    if crossing.entering && deviceInside && !detectedSinceCrossing, let since = crossingAt {
      // Came back before the device noticed the exit: for the device it never left.
      var missedExit = undetected(entering: false, visit: visit, at: t, since: since, rules: rules)
      missedExit.concernsBothKinds = true
      append(into: &reports, missedExit)
      missedExitVisit = visit
    }
    geometricInside = crossing.entering
    visit = crossing.visit
    crossingAt = t.millisecondsSinceEpoch
    detectedSinceCrossing = detectedAhead
    longestRun = runInProgress(at: t.millisecondsSinceEpoch)
    // With continuous updates the device knows every position of the path.
    observedSinceCrossing = continuous
    largestAccuracy = accuracy
    if reportedAhead {
      append(
        into: &reports,
        DeviceRegionReport(
          kind: .undetected, region: index, entering: crossing.entering, visit: visit, instant: t, crossingInstant: t,
          reason: "the device had reported \(crossing.entering ? "an entry" : "an exit") before the true path \(crossing.entering ? "reached" : "left") \(aheadOfPathCause)"))
      detectedSinceCrossing = true  // explained
    }
    if let missed = missedEntryVisit {
      append(
        into: &reports,
        DeviceRegionReport(
          kind: .undetected, region: index, entering: false, visit: visit, instant: t, crossingInstant: t,
          reason: "the device never detected the entry of visit \(missed), so for it the device never entered"))
      detectedSinceCrossing = true  // explained; not reported again at the end of the run
    }
    if crossing.entering && deviceInside, let missed = missedExitVisit {
      append(
        into: &reports,
        DeviceRegionReport(
          kind: .undetected, region: index, entering: true, visit: visit, instant: t, crossingInstant: t,
          reason: "the device never detected the exit of visit \(missed), so for it the device never left",
          concernsBothKinds: true))
      missedExitVisit = nil
      detectedSinceCrossing = true  // explained; not reported again at the exit
    }
  }

  private func undetected(entering: Bool, visit: Int, at t: SimulationInstant, since: Int64, rules: RegionMonitoringRules) -> DeviceRegionReport {
    let side = entering ? "inside" : "outside"
    let stay = SimulationDuration(milliseconds: t.millisecondsSinceEpoch - since)
    let margin = entering ? rules.entryMargin : rules.exitMargin
    let needed = max(margin, largestAccuracy)
    var why: String
    if !observedSinceCrossing {
      why = "\(side) \(stay) between two location updates"
    } else if longestRun == nil && confirmingSince == nil {
      why = "\(side) \(stay), never \(RegionMonitoringService.metres(needed)) \(side) the boundary"
      if largestAccuracy > margin { why += " (fix accuracy ±\(RegionMonitoringService.metres(largestAccuracy)) exceeds the \(RegionMonitoringService.metres(margin)) margin)" }
    } else {
      let run = [longestRun, runInProgress(at: t.millisecondsSinceEpoch)].compactMap { $0 }.max()!
      let held: String
      switch run.updates {
      case nil: held = "for \(SimulationDuration(milliseconds: run.duration))"
      case 1?: held = "at only one location update"
      case let updates?: held = "for \(SimulationDuration(milliseconds: run.duration)) (\(updates) location updates)"
      }
      why = "\(side) \(stay), \(RegionMonitoringService.metres(needed)) \(side) \(held), less than the \(rules.dwell) dwell"
    }
    return DeviceRegionReport(
      kind: .undetected, region: index, entering: entering, visit: visit, instant: t,
      crossingInstant: SimulationInstant(millisecondsSinceEpoch: since), reason: why)
  }

  /// The run ends: a held detection is reported, and a visit the device has not detected by now.
  mutating func finish(at end: Int64, rules: RegionMonitoringRules, into reports: inout [DeviceRegionReport]) {
    releaseHeldDetection(into: &reports)
    guard let since = crossingAt, !detectedSinceCrossing, geometricInside != deviceInside, since <= end else { return }
    var report = undetected(entering: geometricInside, visit: visit, at: SimulationInstant(millisecondsSinceEpoch: end), since: since, rules: rules)
    report.reason = report.reason.map { $0 + "; the run ended before the device detected it" }
    append(into: &reports, report)
  }

}
