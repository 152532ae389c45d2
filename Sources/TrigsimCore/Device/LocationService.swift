/// A region crossing of the device's true path, as the world computes it
/// exactly, handed to the location service beside the fixes.
struct GeometricCrossing {
  /// The region's position in the scenario.
  var region: Int
  var entering: Bool
  var instant: SimulationInstant
  /// The visit it starts or ends (`visit=N` in the timeline).
  var visit: Int
}

/// What the device's location service says about one region at an instant:
/// a crossing it detected, or a geometric crossing it did not.
struct DeviceRegionReport {
  enum Kind { case detected, undetected }

  var kind: Kind
  var region: Int
  var entering: Bool
  /// The geometric visit the report is about; nil for a detection of a side
  /// the true path did not reach (by the report's instant): the effective
  /// circle is larger than the declared one, or GPS error in a trial.
  var visit: Int?
  /// When the report reaches the platform: a detection delivers the
  /// region's location requests at this instant.
  var instant: SimulationInstant
  /// When the geometric crossing of that visit happened, if it did.
  var crossingInstant: SimulationInstant?
  /// A detection: when the device decided (the dwell completed), before the
  /// latency. Only location requests monitoring the region by then deliver.
  var conditionInstant: SimulationInstant?
  /// Why the report differs from the geometry (nil when it does not).
  var reason: String?
  /// Only this request delivers (an entry reported because this request
  /// started monitoring with the device already inside); nil: every request
  /// monitoring the region.
  var onlyRequest: NotificationID?
  /// An undetected crossing that matters to requests of either kind: an exit
  /// the device missed keeps it "inside", so the next arrival is no entry;
  /// an entry it missed keeps it "outside", so the departure is no exit.
  var concernsBothKinds = false
  /// The Android geofence transition reported (`android` profile); nil: the
  /// iOS meaning of `entering`. A DWELL has `entering` true.
  var transition: GeofenceTransition? = nil

  /// A detection at its geometric crossing's own instant with nothing to
  /// explain adds no timeline entry: the `enter`/`exit` line already says it.
  var coincidesWithCrossing: Bool {
    kind == .detected && reason == nil && crossingInstant == instant
  }
}

extension DeviceRegionReport {
  /// Whether this detection, made ahead of the true path and held until its
  /// report, detects `crossing`: the path reaches the detected side no later
  /// than the report reaches the platform.
  func detects(_ crossing: GeometricCrossing) -> Bool { entering == crossing.entering && crossing.instant <= instant }

  /// Makes this held detection the detection of `crossing`: its visit and
  /// crossing instant, and a reason ending with how much later the path
  /// crossed than the condition held and why the device was ahead (`cause`).
  mutating func attribute(
    to crossing: GeometricCrossing, condition: Int64, reasonParts: [String], cause: (_ later: SimulationDuration) -> String
  ) {
    visit = crossing.visit
    crossingInstant = crossing.instant
    reason = (reasonParts + [cause(SimulationDuration(milliseconds: crossing.instant.millisecondsSinceEpoch - condition))]).joined(separator: "; ")
  }
}

/// The device's location service: turns the path the device travels into
/// the region events the platform reports. A platform profile provides it
/// (`LocationProfile.makeService`); the engine feeds it fixes and the exact
/// geometric crossings, in time order, and queues what it reports.
///
/// Contract: every report's instant is after the start of the segment that
/// produced it, or at or after the instant monitoring restarted (the engine
/// has handled events only up to there), and reports about one region come
/// in non-decreasing instant order.
protocol LocationService {
  /// Regions the profile monitors differently from their declaration (or
  /// not at all), each with the reason; printed as warnings at the start.
  var regionWarnings: [(region: Int, reason: String)] { get }

  /// The registry settings (`AssumptionRegistry`) this profile's reports
  /// rest on: a run consults them at every report it shows.
  var reportAssumptions: [AssumptionID] { get }

  /// The first fix of the track: the device learns which regions it is in,
  /// silently (a device already inside a region gets no entry).
  mutating func start(at fix: TrackSample, geometricInside: [Bool])

  /// The device moved continuously from `a` to `b`; `crossings` are the
  /// geometric crossings on the way, in time order.
  mutating func advance(
    from a: TrackSample, to b: TrackSample, crossings: [GeometricCrossing], appInForeground: Bool,
    into reports: inout [DeviceRegionReport])

  /// The position was unknown from `a` until `b` (a gap or a new segment);
  /// `crossings` are the sides that changed meanwhile, at `b.instant`.
  mutating func resume(
    after a: TrackSample, at b: TrackSample, crossings: [GeometricCrossing], appInForeground: Bool,
    into reports: inout [DeviceRegionReport])

  /// Region monitoring starts again at `instant` (location authorization
  /// allows it once more, after the service has been advanced to that
  /// instant): as at the first fix, the device takes the side of each region
  /// where it is, silently; a visit it had not detected is explained.
  mutating func restartMonitoring(at instant: SimulationInstant, into reports: inout [DeviceRegionReport])

  /// The track ended at `last`: the device stays there until `end`.
  mutating func finish(last: TrackSample, until end: SimulationInstant, into reports: inout [DeviceRegionReport])

  /// A quiet stretch: the device moved continuously from `start` through
  /// each of `fixes` in turn, with no geometric crossing on the way and
  /// nothing else happening before the last fix (the engine checks that). The
  /// same as `advance` for each fix with no crossings, stopping after the
  /// first fix that reports something (its reports in `reports`). Returns
  /// how many fixes it took (all of them when none reported).
  mutating func advanceQuietly(
    from start: TrackSample, through fixes: ArraySlice<TrackSample>, appInForeground: Bool, into reports: inout [DeviceRegionReport]
  ) -> Int

  /// Whether the device believes it is inside the region, as of the last
  /// fix the service was given (the engine reads the service one fix ahead
  /// of the events it handles).
  func believesInside(_ region: Int) -> Bool

  /// The entry the device reports for a region it is already inside when a
  /// location request starts monitoring it at `instant` (under
  /// `LocationAlreadyInside.entered`): after the profile's usual latency.
  mutating func entryForMonitoringStartedInside(_ region: Int, at instant: SimulationInstant) -> DeviceRegionReport
}

extension DeviceRegionReport {
  /// The reason an entry reported for a region the device was already inside gives.
  static let alreadyInsideReason = "the request started monitoring with the device already inside: reported as an entry (platform locationAlreadyInside: entered)"
}

extension LocationService {
  var reportAssumptions: [AssumptionID] { [] }

  mutating func advanceQuietly(
    from start: TrackSample, through fixes: ArraySlice<TrackSample>, appInForeground: Bool, into reports: inout [DeviceRegionReport]
  ) -> Int {
    defaultAdvanceQuietly(from: start, through: fixes, appInForeground: appInForeground, into: &reports)
  }

  /// `advanceQuietly` fix by fix, through `advance`.
  mutating func defaultAdvanceQuietly(
    from start: TrackSample, through fixes: ArraySlice<TrackSample>, appInForeground: Bool, into reports: inout [DeviceRegionReport]
  ) -> Int {
    var previous = start
    var taken = 0
    for fix in fixes {
      advance(from: previous, to: fix, crossings: [], appInForeground: appInForeground, into: &reports)
      taken += 1
      if !reports.isEmpty { return taken }
      previous = fix
    }
    return taken
  }
}

/// The `ideal` profile: the device detects every geometric crossing at its
/// own instant.
struct IdealLocationService: LocationService {
  var regionWarnings: [(region: Int, reason: String)] { [] }
  /// The device's side of each region: the true path's.
  private var inside: [Bool] = []

  mutating func start(at fix: TrackSample, geometricInside: [Bool]) { inside = geometricInside }

  mutating func advance(
    from a: TrackSample, to b: TrackSample, crossings: [GeometricCrossing], appInForeground: Bool,
    into reports: inout [DeviceRegionReport]
  ) {
    for crossing in crossings { reports.append(detection(of: crossing)) }
  }

  mutating func resume(
    after a: TrackSample, at b: TrackSample, crossings: [GeometricCrossing], appInForeground: Bool,
    into reports: inout [DeviceRegionReport]
  ) {
    for crossing in crossings { reports.append(detection(of: crossing)) }
  }

  func believesInside(_ region: Int) -> Bool { region < inside.count && inside[region] }

  /// The ideal device has no latency: the entry is reported at once.
  mutating func entryForMonitoringStartedInside(_ region: Int, at instant: SimulationInstant) -> DeviceRegionReport {
    DeviceRegionReport(
      kind: .detected, region: region, entering: true, visit: nil, instant: instant, crossingInstant: nil, conditionInstant: instant,
      reason: DeviceRegionReport.alreadyInsideReason)
  }

  private mutating func detection(of crossing: GeometricCrossing) -> DeviceRegionReport {
    if crossing.region < inside.count { inside[crossing.region] = crossing.entering }
    return Self.detection(of: crossing)
  }

  /// Detections are the crossings themselves: nothing to re-establish.
  mutating func restartMonitoring(at instant: SimulationInstant, into reports: inout [DeviceRegionReport]) {}

  mutating func finish(last: TrackSample, until end: SimulationInstant, into reports: inout [DeviceRegionReport]) {}

  static func detection(of crossing: GeometricCrossing) -> DeviceRegionReport {
    DeviceRegionReport(
      kind: .detected, region: crossing.region, entering: crossing.entering, visit: crossing.visit,
      instant: crossing.instant, crossingInstant: crossing.instant, conditionInstant: crossing.instant, reason: nil)
  }
}

extension Array where Element == DeviceRegionReport {
  /// Appends `report` no earlier than `last`, one region's latest report so
  /// far, and moves `last` on: a region's reports stay in instant order (an
  /// undetected crossing known at its instant is told after a detection
  /// still on its way).
  mutating func append(_ report: DeviceRegionReport, notBefore last: inout Int64) {
    var report = report
    if report.instant.millisecondsSinceEpoch < last {
      report.instant = SimulationInstant(millisecondsSinceEpoch: last)
    } else {
      last = report.instant.millisecondsSinceEpoch
    }
    append(report)
  }
}
