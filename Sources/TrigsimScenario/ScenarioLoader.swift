import Foundation
import TrigsimCore
import TrigsimGEOS
import TrigsimTracks
import Yams

/// A scenario file could not be read at all (missing, unreadable, not UTF-8).
public struct FileAccessError: Error, CustomStringConvertible, Sendable {
  public var path: String
  public var reason: String

  public init(path: String, reason: String) {
    self.path = path
    self.reason = reason
  }

  public var description: String { "cannot read '\(path)': \(reason)" }
}

/// The scenario cannot run here, and says so itself: its track is marked
/// `ifMissing: skip` and the file is absent (a corpus track that is not
/// checked out on this machine). `verify` and `test` report it as skipped;
/// `run` treats it as an unreadable input.
public struct ScenarioSkipped: Error, CustomStringConvertible, Sendable {
  /// Where the scenario names the absent file.
  public var location: InputLocation
  public var reason: String

  public init(location: InputLocation, reason: String) {
    self.location = location
    self.reason = reason
  }

  public var description: String { "\(location): skipped: \(reason)" }
}

/// Loads a scenario from YAML, validating every value and reporting every
/// problem at its `file:line:column` in one `InputError`.
///
/// The format is documented in the manual ("Scenario format"). Paths inside
/// the scenario (the track file, expected timeline and trial report) are
/// relative to the scenario file's folder, and `pathPolicy` says which files
/// they may reach: with `.confined(to: root)` every one must resolve inside
/// `root`, else it is an error at the value that names it. `limitCeiling`
/// is the most a scenario may raise its `limits:` and `trials.count` to.
public struct ScenarioLoader: Sendable {
  public var pathPolicy: ScenarioPathPolicy
  /// The most a scenario may ask for (see `ScenarioLimitCeiling`).
  public var limitCeiling: ScenarioLimitCeiling

  /// Without a `limitCeiling`, the standard one for `pathPolicy`: the
  /// defaults for scenarios confined to a root folder, else what the format allows.
  public init(pathPolicy: ScenarioPathPolicy = .unrestricted, limitCeiling: ScenarioLimitCeiling? = nil) {
    self.pathPolicy = pathPolicy
    self.limitCeiling = limitCeiling ?? .standard(for: pathPolicy)
  }

  /// Loads the scenario at `path` (as given by the user; used in messages).
  public func load(path: String) throws -> Scenario { try loadFile(path: path).scenario }

  /// Loads a scenario from YAML text; `file` names it in messages and
  /// `baseDirectory` resolves relative track paths.
  public func load(yaml: String, file: String = "<scenario>", baseDirectory: String = ".", defaultName: String = "scenario") throws -> Scenario {
    try loadFile(yaml: yaml, file: file, baseDirectory: baseDirectory, defaultName: defaultName).scenario
  }

  /// Loads the scenario at `path` with its checks (`expect:`, `assert:`).
  ///
  /// - Throws: `ScenarioOutsideRoot` when the path policy does not allow the
  ///   file (it is then not read), `FileAccessError` when the file cannot be
  ///   read, `InputError` with every problem located, `ScenarioSkipped` when
  ///   its track is marked `ifMissing: skip` and is absent.
  public func loadFile(path: String) throws -> ScenarioFile {
    if let escape = pathPolicy.escape(of: path) {
      throw ScenarioOutsideRoot(path: path, message: pathPolicy.message(what: "scenario", path: path, escape: escape))
    }
    let text = try ScenarioFileKind.scenario.readText(path)
    let folder = (path as NSString).deletingLastPathComponent
    let stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
    return try loadFile(yaml: text, file: path, baseDirectory: folder, defaultName: stem)
  }

  /// Loads a scenario and its checks from YAML text. The expected timeline
  /// defaults to `<defaultName>.timeline` in `baseDirectory`.
  public func loadFile(yaml: String, file: String = "<scenario>", baseDirectory: String = ".", defaultName: String = "scenario") throws -> ScenarioFile {
    let reader = ScenarioReader(
      document: YAMLDocument(file: file, text: yaml), baseDirectory: baseDirectory, pathPolicy: pathPolicy, limitCeiling: limitCeiling)
    let scenario = reader.read(defaultName: defaultName)
    try reader.document.diagnostics.throwIfAny()
    if let skipped = reader.skipped { throw skipped }
    guard let scenario, let checks = reader.checks else {
      throw InputError(Diagnostic(at: InputLocation(file: file, line: 1, column: 1), "the scenario could not be read"))
    }
    var loaded = ScenarioFile(path: file, scenario: scenario, checks: checks, yaml: yaml, inputFiles: reader.inputFiles)
    loaded.readings = reader.readings
    return loaded
  }
}

/// The top-level keys of a scenario, in the order the manual documents them.
let scenarioKeys = [
  "trigsim", "name", "appUnderTest", "clock", "platform", "platforms", "track", "regions", "places", "notifications", "medicines", "prescription", "policy",
  "regionSet", "app", "category", "badge", "actions", "respond", "patient", "device", "pushes", "server", "expect", "assert", "trials", "limits",
]

/// Turns the YAML tree into a `Scenario`; one instance per file.
final class ScenarioReader {
  let document: YAMLDocument
  let baseDirectory: String
  /// Which files the scenario may name (see `ScenarioPathPolicy`).
  let pathPolicy: ScenarioPathPolicy
  /// The most the scenario may raise its limits and trial count to.
  let limitCeiling: ScenarioLimitCeiling
  var deviceZone = TimeZone(identifier: "UTC")!
  var clockStart: SimulationInstant?
  var clockEnd: SimulationInstant?
  /// Where the clock's end is written: where a run that is too long is reported.
  var clockEndLocation: InputLocation?
  var deviceZoneAtStart = TimeZone(identifier: "UTC")!
  /// How values the file leaves open were read (`ScenarioFile.readings`), in reading order.
  var readings: [Diagnostic] = []
  /// The device zone from each instant on: the clock zone, then each change.
  var zoneChanges: [TimeZoneChange] = []
  var regionIDs: [String] = []
  /// The place sets under `places:` (see ScenarioReader+Places.swift).
  var placeSetIDs: [String] = []
  /// Zone names as written, where Foundation's identifier differs (see `ClockSettings.zoneNames`).
  var zoneNames: [String: String] = [:]
  /// Every place's id by set, so that actions may name a place's request.
  var placeIDsBySet: [PlaceSetID: [PlaceID]] = [:]
  /// Set when the track is marked `ifMissing: skip` and its file is absent.
  var skipped: ScenarioSkipped?
  /// The files the scenario named and the loader reads (or the run will), in reading order.
  var inputFiles: [ScenarioFile.Input] = []
  /// Identifiers of the raw notifications, for checking patterns in
  /// assertions (a set: an identifier may repeat, and a scenario may list
  /// many, so each is looked up in constant time; read only sorted).
  var notificationIDs: Set<String> = []
  var medicineNotificationIDs: [String] = []
  /// Raw notifications with a region trigger.
  var regionNotificationIDs: Set<String> = []
  /// Every location request the scenario can produce: raw region
  /// notifications and each medicine's location reminder (in no order).
  var locationRequestIDs: [String] {
    Array(regionNotificationIDs) + medicineNotificationIDs.filter { $0.hasSuffix("_location") }
  }
  var medicineIDs: [String] = []
  /// The medicines with a location reminder (in some version).
  var locationMedicineIDs: Set<String> = []
  /// The `silentVisit` assertions' visits, in file order (`Scenario.visitExpectations`).
  var visitExpectations: [VisitExpectation] = []
  /// Ids of medicines that are declared but could not be read (each problem
  /// already reported). A later check that names one of them, or a pattern
  /// that only it could match, is not reported again: that error would only
  /// follow from the first.
  var unreadMedicineIDs: [String] = []
  /// How many daily times each unread medicine lists (1 to 24).
  var unreadMedicineTimeCounts: [String: Int] = [:]
  /// Identifiers that entries which could not be read would have produced:
  /// raw notifications with an error, and the requests of each unread medicine
  /// (see `unreadMedicineIDs`). Patterns that match one of them are not reported.
  var unreadNotificationIDs: [String] = []
  /// `appUnderTest: swift`: the app's identifiers are its own, not known from the scenario.
  var hostedApp = false
  /// The identifiers of the scenario's remote pushes (`pushes.send`), in file order.
  var pushIDs: [String] = []
  /// The distinct types the scenario's pushes have, sorted, for checking `noPushShownWhileOff`.
  var pushTypes: [String] = []
  /// The scenario's `server:`, once read (nil without one): the channel assertions need it.
  var serverRead: ServerSettings?
  /// The `expect:` and `assert:` sections.
  var checks: ScenarioChecks?
  /// The platform's pending limit, for assertions that could never fail under it.
  var pendingLimit = PlatformSettings().pendingLimit
  /// The Android rules `platform: android:` states (defaults otherwise).
  var androidRules = AndroidSettings()
  /// `expect: none` was written.
  var expectsNothing = false
  /// `expect:` names an expected timeline file (or `none`), so none is implied.
  var expectedFileNamed = false

  init(
    document: YAMLDocument, baseDirectory: String, pathPolicy: ScenarioPathPolicy = .unrestricted,
    limitCeiling: ScenarioLimitCeiling = .syntaxMaximum
  ) {
    self.document = document
    self.baseDirectory = baseDirectory
    self.pathPolicy = pathPolicy
    self.limitCeiling = limitCeiling
  }

  /// Whether the path policy allows `path` (resolved from `written`, the
  /// scenario's own text, at `location`); reports why not.
  func allows(_ path: String, written: String, what: String, at location: InputLocation, implied: String? = nil) -> Bool {
    guard let escape = pathPolicy.escape(of: path) else { return true }
    document.error(at: location, pathPolicy.message(what: what, path: written, escape: escape), notes: (implied.map { [$0] } ?? []) + [ScenarioPathPolicy.note])
    return false
  }

  /// The bytes of the file the scenario names at `node` (`written` as the
  /// scenario writes it, `path` resolved), read under its kind's policy
  /// (`ScenarioFileKind`) and kept among the run's inputs; nil, with the
  /// problem reported (at `node`, or in the file for its content), when it is
  /// missing or refused.
  func namedFile(_ kind: ScenarioFileKind, path: String, written: String, at node: Node) -> Data? {
    let data: Data?
    do {
      data = try kind.read(path, policy: pathPolicy, namedAt: document.location(node))
    } catch {
      document.diagnostics.append(error.diagnostic)
      return nil
    }
    guard let data else {
      document.error(node, "\(kind.what) '\(Diagnostic.excerpt(written))' does not exist",
                     notes: ["looked for '\(URL(fileURLWithPath: path).standardizedFileURL.path)'; paths are relative to the scenario's folder"])
      return nil
    }
    inputFiles.append(ScenarioFile.Input(role: kind.rawValue, path: path))
    return data
  }

  func read(defaultName: String) -> Scenario? {
    guard let root = document.root(), let top = document.mapping(root, what: "the scenario", keys: scenarioKeys) else {
      return nil
    }
    if let version = top["trigsim"] {
      if document.string(version, what: "'trigsim'") != "1" {
        document.error(version, "unsupported scenario format version", notes: ["this trigsim reads 'trigsim: 1'"])
      }
    } else {
      document.error(root, "missing 'trigsim: 1'", notes: ["add 'trigsim: 1' as the first line to name the format version"])
    }
    let name = top["name"].flatMap { document.string($0, what: "'name'", limit: .name) } ?? defaultName
    var appUnderTest = AppUnderTest.builtIn
    if let node = top["appUnderTest"],
      let choice = document.choice(node, what: "'appUnderTest'", AppUnderTest.allCases.map { ($0.rawValue, $0) })
    {
      appUnderTest = choice
    }
    hostedApp = appUnderTest == .swift
    if top["clock"] == nil {
      document.error(root, "missing 'clock'", notes: ["add 'clock: { start: ..., end: ..., timezone: ... }'"])
    }
    let clock = top["clock"].flatMap(readClock)
    let platform = top["platform"].map(readPlatform) ?? PlatformSettings()
    let platforms = top["platforms"].flatMap(readPlatforms) ?? []
    pendingLimit = platform.pendingLimit
    let regions = top["regions"].map(readRegions) ?? []
    let placeSets = top["places"].map(readPlaceSets) ?? []
    for set in placeSets { placeIDsBySet[set.id] = set.places.map(\.id) }
    let track = top["track"].flatMap(readTrack)
    let actions = top["notifications"].map(readNotifications) ?? []
    // Without a clock the rest is still read, so that its own problems are
    // reported in the same run (instants are then not checked against the
    // window, and medicines count as unread: nothing that names them is reported).
    let limits = readLimits(top["limits"], clock: clock)
    let medicineApp = readMedicineApp(top)
    let device = top["device"].map(readDevice) ?? DeviceSetup()
    let pushes = top["pushes"].map(readPushes) ?? RemotePushes()
    let server = top["server"].map(readServer) ?? ServerSettings()
    let patientAttention = top["patient"].map(readPatientAttention) ?? PatientAttention()
    checks = readChecks(top, defaultName: defaultName)
    guard let clock else { return nil }
    var scenario = Scenario(
      name: name, clock: clock, regions: regions + medicineApp.regions, actions: actions, track: track?.source,
      trackLabel: track?.label, platform: platform, medicineApp: medicineApp.app, limits: limits, device: device, pushes: pushes)
    for set in placeSets { scenario.addPlaceSet(set) }
    scenario.visitExpectations = visitExpectations
    scenario.patientAttention = patientAttention
    scenario.server = server
    if scenario.medicineApp.policy.dailyReminders == .server, !server.isActive, let node = top["policy"] {
      document.error(node, "'dailyReminders: server' leaves the daily reminders to a server, and the scenario has none",
                     notes: ["add a 'server:' with a policy (e.g. 'server: { policy: [ { channel: push } ] }'), or remove 'dailyReminders'"])
    }
    scenario.statedAssumptions = Self.statedAssumptions(in: top.node)
    scenario.androidRules = androidRules
    scenario.appUnderTest = appUnderTest
    scenario.platforms = platforms
    scenario.platformsOrigin = top.keyNodes["platforms"].map(document.location)
    scenario.appUnderTestOrigin = top["appUnderTest"].map { document.location($0) }
    if let node = top["regionSet"] {
      if top["places"] == nil {
        document.error(top.keyNodes["regionSet"]!, "'regionSet' needs place sets", notes: ["declare candidate places under 'places:' and name a set in a medicine's 'location: { places: ... }'"])
      }
      scenario.regionSet = readRegionSetPolicy(node, platform: platform)
    }
    return scenario
  }

  // MARK: - Values

  func instant(_ node: Node, what: String) -> SimulationInstant? {
    guard let text = document.string(node, what: what) else { return nil }
    switch ValueSyntax.instant(text, zone: deviceZone) {
    case .success(let instant):
      noteZoneless(node, what: what, text: text, instant: instant, zone: deviceZone)
      return instant
    case .failure(let problem):
      document.error(node, "\(what) '\(Diagnostic.excerpt(text))' \(problem.message)", notes: ["write it like 2026-03-28T08:00:00+01:00 (the offset is optional; without it the device time zone applies)"])
      return nil
    }
  }

  /// An instant during the run: without an offset it is local time in the
  /// device zone in force at that instant (after any `clock.changes`), and it
  /// must lie within the clock window.
  func instantDuringRun(_ node: Node, what: String) -> SimulationInstant? {
    guard let text = document.string(node, what: what) else { return nil }
    var candidates: [(zone: TimeZone, from: SimulationInstant?, to: SimulationInstant?)] = []
    var from: SimulationInstant? = nil
    var zone = deviceZoneAtStart
    for change in zoneChanges {
      candidates.append((zone, from, change.instant))
      from = change.instant
      zone = change.timeZone
    }
    candidates.append((zone, from, nil))
    var resolved: SimulationInstant?
    var lastProblem: ValueSyntax.InstantProblem?
    for candidate in candidates {
      switch ValueSyntax.instant(text, zone: candidate.zone) {
      case .success(let instant):
        if resolved == nil { resolved = instant }
        if (candidate.from.map { instant >= $0 } ?? true) && (candidate.to.map { instant < $0 } ?? true) {
          noteZoneless(node, what: what, text: text, instant: instant, zone: candidate.zone)
          return checkedInWindow(instant, node: node, what: what, text: text)
        }
      case .failure(let problem):
        lastProblem = problem
      }
    }
    if let resolved {
      noteZoneless(node, what: what, text: text, instant: resolved, zone: candidates[0].zone)
      return checkedInWindow(resolved, node: node, what: what, text: text)
    }
    document.error(node, "\(what) '\(Diagnostic.excerpt(text))' \(lastProblem?.message ?? "is not an ISO 8601 date-time")",
                   notes: ["write it like 2026-03-28T08:00:00+01:00 (the offset is optional; without it the device time zone applies)"])
    return nil
  }

  /// An instant written without a UTC offset is read as local time in the
  /// device zone (the manual, "Scenario format"); the reading is recorded as
  /// a warning at the value, saying the instant it became and what to write
  /// to state it (`ScenarioFile.readings`).
  func noteZoneless(_ node: Node, what: String, text: String, instant: SimulationInstant, zone: TimeZone) {
    guard !ValueSyntax.hasUTCOffset(text) else { return }
    let offset = zone.secondsFromGMT(for: instant.date)
    let written = InstantFormatter.format(instant, offsetSeconds: offset)
    // Whole seconds are written without milliseconds, as a user would write them.
    let shown = written.hasSuffix(".000" + written.suffix(6)) ? written.replacingOccurrences(of: ".000", with: "") : written
    readings.append(Diagnostic(
      .warning, at: document.location(node),
      "\(what) '\(Diagnostic.excerpt(text))' has no UTC offset: read as \(shown), local time in \(zone.identifier) (the device zone)",
      notes: ["write '\(shown)' to state it"]))
  }

  private func checkedInWindow(_ instant: SimulationInstant, node: Node, what: String, text: String) -> SimulationInstant? {
    if let clockStart, let clockEnd, instant < clockStart || instant > clockEnd {
      document.error(node, "\(what) '\(Diagnostic.excerpt(text))' is outside the clock window",
                     notes: ["the run covers clock start to end; move the instant inside it or widen the clock"])
      return nil
    }
    return instant
  }

  func duration(_ node: Node, what: String) -> SimulationDuration? {
    guard let text = document.string(node, what: what) else { return nil }
    switch ValueSyntax.durationResult(text) {
    case .success(let duration): return duration
    case .failure(let problem):
      document.error(node, "\(what) '\(Diagnostic.excerpt(text))' \(problem.message)", notes: ["write a number with a unit: 90s, 6m, 2h, 1h30m, 500ms, 1d"])
      return nil
    }
  }

  /// A circle's `radius`: 100 m when absent; nil (reported) when not a
  /// number or outside `CircularRegion.radiusProblem`'s rule.
  func circleRadius(_ node: Node?, default fallback: Double = 100) -> Double? {
    guard let node else { return fallback }
    guard let value = document.double(node, what: "radius") else { return nil }
    if let problem = CircularRegion.radiusProblem(value) {
      document.error(node, problem.message, notes: problem.notes)
      return nil
    }
    return value
  }

  func timeZone(_ node: Node, what: String) -> TimeZone? {
    guard let text = document.string(node, what: what) else { return nil }
    if let zone = TimeZone(identifier: text), text.contains("/") || text == "UTC" || text == "GMT" {
      if zone.identifier != text { zoneNames[zone.identifier] = text }
      return zone
    }
    var notes = ["use an IANA time zone name such as Europe/Copenhagen or America/New_York"]
    if let suggestion = NameSuggestion.closest(to: text, among: TimeZone.knownTimeZoneIdentifiers.sorted()) {
      notes.insert("did you mean '\(suggestion)'?", at: 0)
    }
    document.error(node, "unknown time zone '\(Diagnostic.excerpt(text))'", notes: notes)
    return nil
  }

  func coordinate(_ node: Node, what: String) -> Coordinate? {
    guard let pair = document.sequence(node, what: what) else { return nil }
    guard pair.count == 2 else {
      document.error(node, "\(what) must be [latitude, longitude], not \(pair.count) numbers")
      return nil
    }
    guard let latitude = document.double(pair[0], what: "latitude"), let longitude = document.double(pair[1], what: "longitude")
    else { return nil }
    guard (-90...90).contains(latitude) else {
      document.error(pair[0], "latitude \(latitude) is outside -90...90", notes: ["coordinates are [latitude, longitude]; check the order"])
      return nil
    }
    guard (-180...180).contains(longitude) else {
      document.error(pair[1], "longitude \(longitude) is outside -180...180")
      return nil
    }
    return Coordinate(latitude: latitude, longitude: longitude)
  }

  // MARK: - Sections

  func readClock(_ node: Node) -> ClockSettings? {
    guard let fields = document.mapping(node, what: "'clock'", keys: ["start", "end", "timezone", "changes"]) else { return nil }
    if let zoneNode = fields["timezone"] {
      if let zone = timeZone(zoneNode, what: "clock timezone") { deviceZone = zone }
    } else {
      document.error(node, "missing 'timezone' in 'clock'", notes: ["the device time zone decides local times; add e.g. 'timezone: Europe/Copenhagen'"])
    }
    guard let startNode = fields["start"] else {
      document.error(node, "missing 'start' in 'clock'")
      return nil
    }
    guard let endNode = fields["end"] else {
      document.error(node, "missing 'end' in 'clock'")
      return nil
    }
    clockEndLocation = document.location(endNode)
    guard let start = instant(startNode, what: "clock start"), let end = instant(endNode, what: "clock end") else { return nil }
    clockStart = start
    deviceZoneAtStart = deviceZone
    if end < start {
      document.error(endNode, "clock end is before its start", notes: ["'end' is inclusive and must be at or after 'start'"])
      return nil
    }
    var changes: [TimeZoneChange] = []
    if let list = fields["changes"].flatMap({ document.sequence($0, what: "'changes'") }) {
      var zoneAtInstant = deviceZone
      for item in list {
        guard let change = document.mapping(item, what: "a time-zone change", keys: ["at", "timezone"]) else { continue }
        guard let atNode = change["at"], let zoneNode = change["timezone"] else {
          document.error(item, "a time-zone change needs 'at' and 'timezone'")
          continue
        }
        let saved = deviceZone
        deviceZone = zoneAtInstant
        let at = instant(atNode, what: "time-zone change 'at'")
        deviceZone = saved
        guard let at, let zone = timeZone(zoneNode, what: "timezone") else { continue }
        if let last = changes.last, at < last.instant {
          document.error(atNode, "time-zone changes must be in time order", notes: ["this change is before the previous one"])
          continue
        }
        if at < start || at > end {
          document.error(atNode, "time-zone change is outside the clock window")
          continue
        }
        changes.append(TimeZoneChange(instant: at, timeZone: zone))
        zoneAtInstant = zone
      }
    }
    clockEnd = end
    zoneChanges = changes
    var clock = ClockSettings(start: start, end: end, timeZone: deviceZone, timeZoneChanges: changes)
    clock.zoneNames = zoneNames
    return clock
  }

  func readPlatform(_ node: Node) -> PlatformSettings {
    var settings = PlatformSettings()
    if node.scalar != nil {
      // `platform: ios` or `platform: android`: the profile with its defaults.
      if readDeviceName(node) == .android { settings.android = androidRules }
      return settings
    }
    guard let fields = document.mapping(
      node, what: "'platform'",
      keys: [
        "device", "android", "pendingLimit", "retention", "regionLimit", "dstGap", "repeatedTime", "impossibleDate", "gapLimit",
        "terminatedActions", "forceQuitLocation", "locationAlreadyInside", "location", "calendar",
      ]
        + Self.attentionRuleKeys)
    else { return settings }
    if let node = fields["android"] { androidRules = readAndroidSettings(node) }
    if let node = fields["device"], readDeviceName(node) == .android { settings.android = androidRules }
    settings.attention = readAttentionRules(fields)
    if let value = fields["pendingLimit"].flatMap({ document.integer($0, what: "pendingLimit", range: 1...100_000) }) {
      settings.pendingLimit = value
    }
    if let value = fields["regionLimit"].flatMap({ document.integer($0, what: "regionLimit", range: 1...100_000) }) {
      settings.monitoredRegionLimit = value
    }
    if let value: PendingRetentionPolicy = choice(fields, "retention", what: "retention policy") { settings.retention = value }
    if let value: DSTGapPolicy = choice(fields, "dstGap", what: "DST gap policy") { settings.dstGapPolicy = value }
    if let value: RepeatedTimeChoice = choice(fields, "repeatedTime", what: "repeated-time policy") { settings.repeatedTimePolicy = value }
    if let value: ImpossibleDatePolicy = choice(fields, "impossibleDate", what: "impossible-date policy") { settings.impossibleDatePolicy = value }
    if let value: TerminatedActionDelivery = choice(fields, "terminatedActions", what: "terminated-app action delivery") { settings.terminatedActions = value }
    if let value: ForceQuitLocationLaunch = choice(fields, "forceQuitLocation", what: "force-quit location launch") { settings.forceQuitLocationLaunch = value }
    if let value: LocationAlreadyInside = choice(fields, "locationAlreadyInside", what: "already-inside rule") { settings.locationAlreadyInside = value }
    if let value: PhoneCalendar = choice(fields, "calendar", what: "phone calendar") { settings.calendar = value }
    if let node = fields["location"], let profile = readLocationProfile(node) { settings.location = profile }
    if let node = fields["gapLimit"], let value = duration(node, what: "gapLimit") {
      if value.milliseconds <= 0 {
        document.error(node, "gapLimit must be longer than zero")
      } else {
        settings.trackGapLimit = value
      }
    }
    return settings
  }

  /// The registry settings (`AssumptionRegistry`) the scenario states: each
  /// entry whose key is in the mapping at its place (`platform:`,
  /// `platform: android: fcm:`, `server: push:`). Such a setting is the
  /// scenario's choice, and a run never reports it as an assumption.
  static func statedAssumptions(in scenario: Node) -> Set<AssumptionID> {
    func mapping(at path: [String]) -> Node.Mapping? {
      var node = scenario
      for key in path {
        guard let next = node.mapping?[Node(key)] else { return nil }
        node = next
      }
      return node.mapping
    }
    return Set(AssumptionRegistry.entries.filter { entry in
      let path = entry.place + entry.id.rawValue.split(separator: ".").map(String.init)
      return mapping(at: Array(path.dropLast()))?[Node(path.last!)] != nil
    }.map(\.id))
  }

  /// The keys that override a rule of the `ios` location profile.
  static let locationRuleKeys = [
    "minimumRadius", "entryMargin", "exitMargin", "dwell", "latency", "assumedAccuracy", "backgroundAccuracy",
    "foregroundUpdates", "backgroundUpdates", "latencySpread", "errorCorrelation",
  ]

  /// `location: ideal`, `location: ios`, or `location: { profile: ios, dwell: 30s, ... }`.
  func readLocationProfile(_ node: Node) -> LocationProfile? {
    let profiles: [(String, LocationProfile)] = [("ideal", .ideal), ("ios", .ios(RegionMonitoringRules()))]
    if node.scalar != nil { return document.choice(node, what: "location profile", profiles) }
    guard let fields = document.mapping(node, what: "'location'", keys: ["profile"] + Self.locationRuleKeys) else { return nil }
    guard let profileNode = fields["profile"] else {
      document.error(node, "missing 'profile' in 'location'", notes: ["write 'location: { profile: ios, dwell: 30s }', or 'location: ideal'"])
      return nil
    }
    guard let profile = document.choice(profileNode, what: "location profile", profiles) else { return nil }
    guard case .ios(var rules) = profile else {
      if let key = Self.locationRuleKeys.first(where: { fields[$0] != nil }), let keyNode = fields.keyNodes[key] {
        document.error(keyNode, "'\(Diagnostic.excerpt(key))' is a rule of the ios profile; the ideal profile has no rules to set",
                       notes: ["use 'profile: ios' to model region monitoring, or remove '\(Diagnostic.excerpt(key))'"])
      }
      return profile
    }
    func metres(_ key: String, range: ClosedRange<Double>) -> Double? {
      guard let node = fields[key], let value = document.double(node, what: key) else { return nil }
      guard range.contains(value) else {
        document.error(node, "\(key) must be between \(Int(range.lowerBound)) and \(Int(range.upperBound)) metres, not \(value)")
        return nil
      }
      return value
    }
    func span(_ key: String, allowContinuous: Bool = false) -> SimulationDuration? {
      guard let node = fields[key] else { return nil }
      if allowContinuous, node.scalar?.string == "continuous" { return .zero }
      guard let value = duration(node, what: key) else { return nil }
      if value.milliseconds > 366 * 86_400_000 {
        document.error(node, "\(key) must be at most a year, not \(value)")
        return nil
      }
      return value
    }
    if let value = metres("minimumRadius", range: 0...100_000) { rules.minimumRadius = value }
    if let value = metres("entryMargin", range: 0...100_000) { rules.entryMargin = value }
    if let value = metres("exitMargin", range: 0...100_000) { rules.exitMargin = value }
    if let value = metres("assumedAccuracy", range: 0...100_000) { rules.assumedAccuracy = value }
    if let value = metres("backgroundAccuracy", range: 0...100_000) { rules.backgroundAccuracy = value }
    if let value = span("dwell") { rules.dwell = value }
    if let value = span("latency") { rules.latency = value }
    if let value = span("foregroundUpdates", allowContinuous: true) { rules.foregroundInterval = value }
    if let value = span("backgroundUpdates", allowContinuous: true) { rules.backgroundInterval = value }
    if let value = span("errorCorrelation") { rules.errorCorrelation = value }
    if let node = fields["latencySpread"], let value = document.double(node, what: "latencySpread") {
      if (0...5).contains(value) { rules.latencySpread = value } else {
        document.error(node, "latencySpread must be between 0 and 5 (the standard deviation of ln latency), not \(value)")
      }
    }
    return .ios(rules)
  }

  func readRegions(_ node: Node) -> [MonitoredRegion] {
    guard let list = document.sequence(node, what: "'regions'") else { return [] }
    var regions: [MonitoredRegion] = []
    for item in list {
      guard let fields = document.mapping(item, what: "a region", keys: ["id", "center", "radius", "polygon", "file"]) else { continue }
      if let fileNode = fields["file"] {
        regions += readRegionFile(item, fileNode: fileNode, fields: fields)
        continue
      }
      let idNode = fields["id"]
      guard let idNode, let id = document.string(idNode, what: "region id", limit: .identifier), !id.isEmpty else {
        if idNode == nil || idNode?.scalar?.string == "" { document.error(item, "a region needs an 'id'") }
        continue
      }
      guard registerRegionID(id, at: document.location(idNode)) else { continue }
      let origin = document.location(item)
      switch (fields["center"], fields["polygon"]) {
      case (let center?, nil):
        guard let radius = circleRadius(fields["radius"]) else { continue }
        guard let coordinate = coordinate(center, what: "center") else { continue }
        regions.append(MonitoredRegion(id: RegionID(id), shape: CircularRegion(center: coordinate, radius: radius), origin: origin))
      case (nil, let polygon?):
        if let radiusNode = fields["radius"] {
          document.error(radiusNode, "'radius' applies to circles only", notes: ["remove it, or use 'center' instead of 'polygon'"])
        }
        guard let vertexNodes = document.sequence(polygon, what: "polygon") else { continue }
        let vertices = vertexNodes.compactMap { coordinate($0, what: "a polygon vertex") }
        guard vertices.count == vertexNodes.count else { continue }
        do {
          let shape = try PolygonRegion.make(vertices: vertices)
          regions.append(MonitoredRegion(id: RegionID(id), shape: shape, origin: origin))
        } catch {
          document.error(polygon, "invalid polygon for region '\(Diagnostic.excerpt(id))': \(error.description)",
                         notes: ["list at least three [latitude, longitude] vertices in order around the edge, without crossing edges"])
        }
      case (nil, nil):
        document.error(item, "region '\(Diagnostic.excerpt(id))' needs 'center' (a circle) or 'polygon'")
      case (_?, _?):
        document.error(item, "region '\(Diagnostic.excerpt(id))' has both 'center' and 'polygon'", notes: ["keep one: a region is a circle or a polygon"])
      }
    }
    return regions
  }

  /// Checks a region id (plain, not yet declared) and registers it; reports why not at `location`.
  func registerRegionID(_ id: String, at location: InputLocation) -> Bool {
    guard let problem = regionIDProblem(id, at: location) else { return true }
    document.diagnostics.append(problem)
    return false
  }

  /// Why the region id cannot be declared (not plain, or already declared),
  /// or nil after registering it.
  func regionIDProblem(_ id: String, at location: InputLocation) -> Diagnostic? {
    if id.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) || id.contains(": ") {
      return Diagnostic(at: location, "region id '\(Diagnostic.excerpt(id))' must not contain line breaks, control characters or ': '",
                        notes: ["the id names a header line of the timeline ('# region ID: shape'); choose a plain name"])
    }
    if regionIDs.contains(id) {
      return Diagnostic(at: location, "region '\(Diagnostic.excerpt(id))' is declared twice", notes: ["region identifiers must be unique, as CLRegion identifiers are"])
    }
    regionIDs.append(id)
    return nil
  }

  /// A `regions:` item `{ file: places.geojson, radius: 100 }`: the regions of
  /// a GeoJSON file (`GeoJSONRegionReader` states its rules), `radius` being
  /// the default of Point features without one. The file is named relative to
  /// the scenario and obeys the path policy as a track file does.
  func readRegionFile(_ item: Node, fileNode: Node, fields: MappingFields) -> [MonitoredRegion] {
    for key in ["id", "center", "polygon"] where fields[key] != nil {
      document.error(fields[key]!, "'\(key)' does not go with 'file' in a region item", notes: ["the file's features carry their ids and geometries; declare inline regions in items of their own"])
      return []
    }
    guard let file = document.string(fileNode, what: "regions file"), !file.isEmpty else {
      document.error(fileNode, "the regions 'file' must name a GeoJSON file", notes: ["e.g. - { file: places.geojson }, relative to the scenario"])
      return []
    }
    guard let radius = circleRadius(fields["radius"]) else { return [] }
    let path = file.hasPrefix("/") ? file : (baseDirectory as NSString).appendingPathComponent(file)
    // Checked before anything looks at the file, its existence included.
    guard allows(path, written: file, what: "regions file", at: document.location(fileNode)) else { return [] }
    guard let data = namedFile(.regions, path: path, written: file, at: fileNode) else { return [] }
    var reader = GeoJSONRegionReader(file: path, defaultRadius: radius)
    let read = reader.read(data)
    var problems = reader.diagnostics
    var regions: [MonitoredRegion] = []
    for region in read {
      if let problem = regionIDProblem(region.id, at: region.idLocation) {
        problems.append(problem)
      } else {
        regions.append(MonitoredRegion(id: RegionID(region.id), shape: region.shape, origin: region.origin))
      }
    }
    // The file's problems in file order.
    for problem in problems.sorted(by: { ($0.location.line, $0.location.column) < ($1.location.line, $1.location.column) }) {
      document.diagnostics.append(problem)
    }
    return regions
  }

  func readTrack(_ node: Node) -> (source: any TrackSource, label: String)? {
    guard let fields = document.mapping(
      node, what: "'track'",
      keys: ["file", "format", "shift", "startAt", "untimedSpeed", "timezone", "sort", "columns", "timeFormat", "delimiter", "points", "ifMissing"])
    else { return nil }
    guard let fileNode = fields["file"], let file = document.string(fileNode, what: "track file"), !file.isEmpty else {
      document.error(node, "missing 'file' in 'track'", notes: ["name a .gpx or .csv file, relative to the scenario"])
      return nil
    }
    var options = TrackReadingOptions()
    options.naiveTimeZone = deviceZone
    options.untimedTrackStart = clockStart
    if let node = fields["format"], let format = document.choice(node, what: "track format", [("gpx", TrackFormat.gpx), ("csv", TrackFormat.csv)]) {
      options.format = format
    }
    if let node = fields["timezone"], let zone = timeZone(node, what: "track timezone") { options.naiveTimeZone = zone }
    if let node = fields["untimedSpeed"], let speed = document.double(node, what: "untimedSpeed") {
      if speed > 0 { options.untimedPointSpeed = speed } else { document.error(node, "untimedSpeed must be greater than 0 m/s") }
    }
    if let node = fields["sort"], let sort = document.bool(node, what: "sort") { options.sortByTime = sort }
    switch (fields["shift"], fields["startAt"]) {
    case (let shift?, nil):
      if let value = shiftDuration(shift) { options.timeShift = .by(value) }
    case (nil, let startAt?):
      if document.string(startAt, what: "startAt") == "start" {
        if let clockStart { options.timeShift = .startAt(clockStart) }
      } else if let instant = instant(startAt, what: "startAt") {
        options.timeShift = .startAt(instant)
      }
    case (_?, _?):
      document.error(node, "'shift' and 'startAt' cannot both be given", notes: ["'startAt' moves the first fix to an instant; 'shift' moves every fix by a duration"])
    case (nil, nil):
      break
    }
    if let node = fields["columns"], let mapping = document.mapping(
      node, what: "'columns'", keys: CSVField.allCases.map(\.rawValue))
    {
      for field in CSVField.allCases {
        if let value = mapping[field.rawValue], let name = document.string(value, what: "column name") {
          options.csv.columns[field] = name
        }
      }
    }
    if let node = fields["timeFormat"], let format = document.choice(node, what: "time format", [("auto", CSVTimeFormat.auto), ("iso8601", .iso8601), ("epoch-seconds", .epochSeconds), ("epoch-milliseconds", .epochMilliseconds)]) {
      options.csv.timeFormat = format
    }
    if let node = fields["delimiter"], let text = document.string(node, what: "delimiter") {
      if text == "," || text == ";" || text == "\t" { options.csv.delimiter = Character(text) } else {
        document.error(node, "delimiter must be ',', ';' or a tab, not '\(Diagnostic.excerpt(text))'", notes: ["e.g. delimiter: \";\" (quoted), or \"\\t\" for a tab"])
      }
    }
    if let node = fields["points"], let points = document.choice(node, what: "GPX point selection", [("auto", GPXPointSelection.auto), ("tracks", .tracks), ("routes", .routes), ("waypoints", .waypoints)]) {
      options.gpxPoints = points
    }
    let path = file.hasPrefix("/") ? file : (baseDirectory as NSString).appendingPathComponent(file)
    // Checked before anything looks at the file, its existence included.
    guard allows(path, written: file, what: "track file", at: document.location(fileNode)) else { return nil }
    if let node = fields["ifMissing"], document.choice(node, what: "'ifMissing' choice", [("error", false), ("skip", true)]) == true,
      !FileManager.default.fileExists(atPath: path)
    {
      skipped = ScenarioSkipped(
        location: document.location(fileNode),
        // Named as the scenario's own path is, relative to the working folder (or absolute when
        // given so): the reason lands in JUnit reports, which must not carry the host's folders.
        reason: "track file '\(Diagnostic.excerpt(file))' is absent (looked for \(Diagnostic.quotePath(ScenarioPathPolicy.lexicallyNormalized(path)))) and the scenario says 'ifMissing: skip'")
    }
    let source = TrackFile(path: path, options: options, referencedAt: document.location(fileNode))
    inputFiles.append(ScenarioFile.Input(role: "track", path: path))
    return (source, file)
  }

  /// `shift: 2h` or `shift: -1d2h`.
  func shiftDuration(_ node: Node) -> SimulationDuration? {
    guard let text = document.string(node, what: "shift") else { return nil }
    let negative = text.hasPrefix("-")
    switch ValueSyntax.durationResult(negative ? String(text.dropFirst()) : text) {
    case .success(let magnitude):
      return SimulationDuration(milliseconds: negative ? -magnitude.milliseconds : magnitude.milliseconds)
    case .failure(let problem):
      document.error(node, "shift '\(Diagnostic.excerpt(text))' \(problem.message)", notes: ["write a signed duration: 2h, -30m, 365d"])
      return nil
    }
  }

  // MARK: - Notifications

  func readNotifications(_ node: Node) -> [ScheduledAppAction] {
    guard let list = document.sequence(node, what: "'notifications'") else { return [] }
    var adds: [ScheduledAppAction] = []
    var removes: [ScheduledAppAction] = []
    for item in list {
      guard let fields = document.mapping(
        item, what: "a notification", keys: ["id", "title", "body", "trigger", "add", "remove", "interruptionLevel", "sound", "badge"])
      else {
        continue
      }
      let idNode = fields["id"]
      guard let idNode, let id = document.string(idNode, what: "notification id", limit: .identifier), !id.isEmpty else {
        if idNode == nil || idNode?.scalar?.string == "" {
          document.error(item, "a notification needs an 'id'", notes: ["the id is the request identifier the app passes to add()"])
        }
        continue
      }
      // Until the notification is read in full, its id stands for an entry
      // that exists but is invalid: checks naming it are not reported again.
      unreadNotificationIDs.append(id)
      let title = fields["title"].flatMap { document.string($0, what: "title", limit: .name) } ?? ""
      let body = fields["body"].flatMap { document.string($0, what: "body") }
      guard let triggerNode = fields["trigger"] else {
        document.error(item, "notification '\(Diagnostic.excerpt(id))' needs a 'trigger'", notes: ["use calendar, interval or region; see the manual's \"Trigger semantics\" article (Sources/TrigsimCore/TrigsimCore.docc/TriggerSemantics.md)"])
        continue
      }
      let trigger = readTrigger(triggerNode)
      let addAt = fields["add"].map { instantDuringRun($0, what: "add") } ?? clockStart
      let removeAt = fields["remove"].flatMap { instantDuringRun($0, what: "remove") }
      let level = fields["interruptionLevel"].map { interruptionLevel($0) }
      let sound = fields["sound"].map { document.bool($0, what: "sound") }
      let badge = fields["badge"].map { badgeNumber($0) }
      guard let trigger, let addAt, level != .some(nil), sound != .some(nil), badge != .some(nil) else { continue }
      if fields["remove"] != nil && removeAt == nil { continue }
      if let removeAt, removeAt < addAt, let removeNode = fields["remove"] {
        document.error(removeNode, "notification '\(Diagnostic.excerpt(id))' is removed before it is added")
        continue
      }
      let origin = document.location(item)
      unreadNotificationIDs.removeLast()
      notificationIDs.insert(id)
      if case .region = trigger { regionNotificationIDs.insert(id) }
      var request = NotificationRequest(id: NotificationID(id), title: title, body: body, trigger: trigger, origin: origin)
      if let level = level.flatMap({ $0 }) { request.interruptionLevel = level }
      if let sound = sound.flatMap({ $0 }) { request.sound = sound }
      request.badge = badge.flatMap { $0 }
      adds.append(ScheduledAppAction(instant: addAt, action: .add(request), origin: origin))
      if let removeAt {
        removes.append(ScheduledAppAction(instant: removeAt, action: .removePending(NotificationID(id)), origin: fields["remove"].map(document.location)))
      }
    }
    // Same-instant order: adds in file order, then removals in file order.
    return adds + removes
  }

  func readTrigger(_ node: Node) -> Trigger? {
    guard let fields = document.mapping(node, what: "a trigger", keys: ["calendar", "interval", "region", "on", "repeats"]) else { return nil }
    let repeats = fields["repeats"].flatMap { document.bool($0, what: "repeats") } ?? false
    let kinds = ["calendar", "interval", "region"].filter { fields[$0] != nil }
    guard kinds.count == 1 else {
      document.error(node, kinds.isEmpty ? "the trigger names no kind" : "the trigger names \(kinds.count) kinds (\(kinds.joined(separator: ", ")))",
                     notes: ["give exactly one of 'calendar', 'interval' or 'region'"])
      return nil
    }
    if kinds[0] != "region", let onNode = fields.keyNodes["on"] {
      document.error(onNode, "'on' applies to region triggers only")
    }
    switch kinds[0] {
    case "calendar":
      return readCalendar(fields["calendar"]!).map { components, zone in
        var components = components
        components.timeZone = zone
        return .calendar(CalendarTrigger(components: components, repeats: repeats))
      }
    case "interval":
      let intervalNode = fields["interval"]!
      guard let interval = duration(intervalNode, what: "interval") else { return nil }
      guard interval.milliseconds > 0 else {
        document.error(intervalNode, "interval must be greater than 0", notes: ["the platform raises 'time interval must be greater than 0'"])
        return nil
      }
      if repeats && interval < IntervalTrigger.minimumRepeatingInterval {
        document.error(intervalNode, "a repeating interval must be at least 60s, not \(interval)",
                       notes: ["the platform raises 'time interval must be at least 60 if repeating' (NSInternalInconsistencyException)"])
        return nil
      }
      return .interval(IntervalTrigger(interval: interval, repeats: repeats))
    default:
      let regionNode = fields["region"]!
      guard let region = document.string(regionNode, what: "region") else { return nil }
      guard regionIDs.contains(region) else {
        var notes: [String] = []
        if let suggestion = NameSuggestion.closest(to: region, among: regionIDs) { notes.append("did you mean '\(suggestion)'?") }
        notes.append(regionIDs.isEmpty ? "declare it under 'regions:' before it is used" : "declared regions: \(YAMLDocument.nameList(regionIDs))")
        document.error(regionNode, "unknown region '\(Diagnostic.excerpt(region))'", notes: notes)
        return nil
      }
      var onEntry = true
      var onExit = true
      if let onNode = fields["on"], let list = document.sequence(onNode, what: "'on'") {
        let words = list.compactMap { document.choice($0, what: "region event", [("enter", "enter"), ("exit", "exit")]) }
        if list.isEmpty { document.error(onNode, "'on' lists no event", notes: ["use [enter], [exit] or [enter, exit]"]) }
        onEntry = words.contains("enter")
        onExit = words.contains("exit")
      }
      return .region(RegionTrigger(region: RegionID(region), notifyOnEntry: onEntry, notifyOnExit: onExit, repeats: repeats))
    }
  }

  static let weekdays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]

  func readCalendar(_ node: Node) -> (CalendarComponents, TimeZone?)? {
    guard let fields = document.mapping(
      node, what: "'calendar'", keys: ["year", "month", "day", "weekday", "hour", "minute", "second", "timezone"])
    else { return nil }
    var components = CalendarComponents()
    var valid = true
    func read(_ key: String, _ range: ClosedRange<Int>) -> Int? {
      guard let node = fields[key] else { return nil }
      guard let value = document.integer(node, what: key, range: range) else {
        valid = false
        return nil
      }
      return value
    }
    components.year = read("year", 1...9999)
    components.month = read("month", 1...12)
    components.day = read("day", 1...31)
    components.hour = read("hour", 0...23)
    components.minute = read("minute", 0...59)
    components.second = read("second", 0...59)
    if let weekdayNode = fields["weekday"] {
      let text = document.string(weekdayNode, what: "weekday") ?? ""
      if let number = Int(text), (1...7).contains(number) {
        components.weekday = number
      } else if let index = Self.weekdays.firstIndex(of: text.lowercased()) {
        components.weekday = index + 1
      } else {
        var notes: [String] = []
        if let suggestion = NameSuggestion.closest(to: text.lowercased(), among: Self.weekdays) {
          notes.append("did you mean '\(suggestion.prefix(1).uppercased() + suggestion.dropFirst())'?")
        }
        notes.append("e.g. 'weekday: monday' or 'weekday: 2' (1 = Sunday … 7 = Saturday)")
        document.error(weekdayNode, "weekday must be a day name (monday) or 1...7 with 1 = Sunday, not '\(Diagnostic.excerpt(text))'", notes: notes)
        valid = false
      }
    }
    var zone: TimeZone?
    if let zoneNode = fields["timezone"] {
      zone = timeZone(zoneNode, what: "calendar timezone")
      if zone == nil { valid = false }
    }
    if components.isEmpty && valid {
      document.error(node, "the calendar trigger matches no components", notes: ["give at least one of year, month, day, weekday, hour, minute, second"])
      return nil
    }
    return valid ? (components, zone) : nil
  }
}
