import Foundation

/// Everything a run needs, already validated: the clock, the regions, what
/// the app does and when, the track, and the platform rules.
///
/// Build one in code, or load one from YAML with `ScenarioLoader` in the
/// `TrigsimScenario` module.
public struct Scenario {
  public var name: String
  public var clock: ClockSettings
  public var regions: [MonitoredRegion]
  /// App actions, in the order they are carried out at equal instants.
  ///
  /// Instants belong in `clock.start...clock.end` (`ScenarioLoader` rejects
  /// others): an action after the end never happens, and one before the
  /// start takes effect without a timeline entry.
  public var actions: [ScheduledAppAction]
  public var track: (any TrackSource)?
  /// How the track file was named in the scenario, for the timeline header.
  public var trackLabel: String?
  public var platform: PlatformSettings
  /// The medicine-reminder app: medicines, app state, the user's actions.
  /// Instants belong in the clock window, as for `actions`.
  public var medicineApp: MedicineApp
  /// The bounds on the run: its clock span and the timeline's length.
  public var limits: RunLimits
  /// The phone between a delivery and the patient: settings, Focus,
  /// Scheduled Summary, power, network. Instants belong in the clock window.
  public var device: DeviceSetup
  /// Remote notifications the app's server sends, and the app's own settings for them.
  public var pushes: RemotePushes
  /// The app's reminder server (`server:`): its escalation policy over push,
  /// SMS, email and the in-app inbox; by default none.
  public var server = ServerSettings()
  /// Named sets of candidate places (`addPlaceSet`); each place is also a
  /// region in `regions`, at `placeSetRegions[n]` for set `n`.
  public internal(set) var placeSets: [PlaceSet] = []
  public internal(set) var placeSetRegions: [Range<Int>] = []
  /// How the app monitors the nearest places of a set (`regionSet:`).
  public var regionSet = RegionSetPolicy()
  /// Which app the scenario is written for (`appUnderTest:`): the scenario's
  /// medicine app, or a team's Swift app (`Simulation(scenario, app:)`).
  public var appUnderTest = AppUnderTest.builtIn
  /// Where the scenario says `appUnderTest`, for messages.
  public var appUnderTestOrigin: InputLocation?
  /// Visits of location reminders that should not notify (`silentVisit:`);
  /// their doses are `silent` rather than `missed` when nothing notified them.
  public var visitExpectations: [VisitExpectation] = []
  /// When the patient looks at the phone (`patient:`); by default never.
  public var patientAttention = PatientAttention()
  /// The registry settings (`AssumptionRegistry`) the scenario states
  /// itself: its choice, so a run never marks them consulted.
  public var statedAssumptions: Set<AssumptionID> = []
  /// The Android rules the scenario states (`platform: android:`), used when
  /// it runs on `android`; kept while it runs on `ios` so `on(.android)` finds them.
  public var androidRules = AndroidSettings()
  /// The phones the scenario runs on side by side (`platforms: [ios, android]`);
  /// empty: only the one `platform:` names.
  public var platforms: [PlatformName] = []
  /// Where `platforms:` is written (its key), for errors about a run that takes one phone.
  public var platformsOrigin: InputLocation?

  public init(
    name: String, clock: ClockSettings, regions: [MonitoredRegion] = [], actions: [ScheduledAppAction] = [],
    track: (any TrackSource)? = nil, trackLabel: String? = nil, platform: PlatformSettings = PlatformSettings(),
    medicineApp: MedicineApp = MedicineApp(), limits: RunLimits = RunLimits(), device: DeviceSetup = DeviceSetup(),
    pushes: RemotePushes = RemotePushes()
  ) {
    self.name = name
    self.clock = clock
    self.regions = regions
    self.actions = actions
    self.track = track
    self.trackLabel = trackLabel
    self.platform = platform
    self.medicineApp = medicineApp
    self.limits = limits
    self.device = device
    self.pushes = pushes
  }
}

/// Which app a scenario is written for.
public enum AppUnderTest: String, Sendable, CaseIterable {
  /// The scenario's medicine-reminder app (`medicines:`, `policy:`; `MedicineReminderApp`).
  case builtIn = "built-in"
  /// A team's own app, named from Swift (`HostedApp`): the scenario's
  /// medicines are the prescription the patient enters in it, and its actions
  /// and rules name the app's own notification identifiers.
  case swift
}

/// The virtual clock: the window the run covers and the device's time zones.
public struct ClockSettings: Sendable {
  /// First instant of the run.
  public var start: SimulationInstant
  /// Last instant of the run, inclusive: an event at exactly `end` is in the timeline.
  public var end: SimulationInstant
  /// The device zone at `start`.
  public var timeZone: TimeZone
  /// Later device zone changes (travel), in time order.
  public var timeZoneChanges: [TimeZoneChange]
  /// The name the scenario wrote for a zone whose Foundation identifier
  /// differs (`UTC`, which Foundation on Linux calls `GMT`), by identifier.
  public var zoneNames: [String: String] = [:]

  public init(start: SimulationInstant, end: SimulationInstant, timeZone: TimeZone, timeZoneChanges: [TimeZoneChange] = []) {
    self.start = start
    self.end = end
    self.timeZone = timeZone
    self.timeZoneChanges = timeZoneChanges
  }
}

extension ClockSettings {
  /// The device zone in force at `instant`: the clock zone, then each change up to it.
  public func deviceZone(at instant: SimulationInstant) -> TimeZone {
    var zone = timeZone
    for change in timeZoneChanges where change.instant <= instant { zone = change.timeZone }
    return zone
  }

  /// A zone's name as the scenario wrote it.
  public func name(of zone: TimeZone) -> String { zoneNames[zone.identifier] ?? zone.identifier }

  /// The device-local form of an instant, with the zone in force at it.
  public func local(_ instant: SimulationInstant) -> String {
    InstantFormatter.format(instant, offsetSeconds: utcOffset(at: instant))
  }

  /// The UTC offset in seconds of the zone in force at `instant`.
  public func utcOffset(at instant: SimulationInstant) -> Int { deviceZone(at: instant).secondsFromGMT(for: instant.date) }
}

/// The device switches to another time zone at an instant (arrival after a flight, say).
public struct TimeZoneChange: Sendable {
  public var instant: SimulationInstant
  public var timeZone: TimeZone

  public init(instant: SimulationInstant, timeZone: TimeZone) {
    self.instant = instant
    self.timeZone = timeZone
  }
}

/// A region the scenario declares: an identifier and its geometry.
public struct MonitoredRegion {
  public var id: RegionID
  public var shape: any RegionShape
  public var origin: InputLocation?

  public init(id: RegionID, shape: any RegionShape, origin: InputLocation? = nil) {
    self.id = id
    self.shape = shape
    self.origin = origin
  }
}

extension Scenario {
  /// Changes the Android rules the scenario states (`androidRules`) and,
  /// when it runs on Android, the rules in force (`platform.android`), so
  /// that both stay one.
  public mutating func updateAndroidRules(_ change: (inout AndroidSettings) -> Void) {
    change(&androidRules)
    if platform.android != nil { change(&platform.android!) }
  }

  /// The same scenario on another phone: `ios` runs it on the iPhone profile,
  /// `android` on the Android profile with the rules the scenario states
  /// (`androidRules`). Everything else (clock, track, app, patient) is shared.
  public func on(_ platform: PlatformName) -> Scenario {
    var copy = self
    switch platform {
    case .ios: copy.platform.android = nil
    case .android: copy.platform.android = androidRules
    }
    return copy
  }
}
