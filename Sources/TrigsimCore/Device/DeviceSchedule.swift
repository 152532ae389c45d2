import Foundation

/// A Focus in force from `from` (inclusive) to `to` (exclusive): one
/// occurrence of a `FocusPeriod`.
struct FocusInterval: Equatable {
  var period: Int
  var from: SimulationInstant
  var to: SimulationInstant
}

/// A change of the device at an instant, in the order the run applies them.
enum DeviceChange {
  case focusEnd(interval: Int)
  /// `afterReboot`: the switch-on that ends a reboot.
  case power(PowerEvent.Kind, afterReboot: Bool)
  case network(online: Bool)
  case settings(Int)
  case preferences(Int)
  case focusStart(interval: Int)

  /// Same-instant order: a Focus that ends at `t` ends before anything else,
  /// power before the network, a Focus that starts at `t` last (so a
  /// back-to-back Focus hands over).
  var rank: Int {
    switch self {
    case .focusEnd: 0
    case .power: 1
    case .network: 2
    case .settings: 3
    case .preferences: 4
    case .focusStart: 5
    }
  }
}

/// The device's schedule for a run, computed once from the scenario: every
/// Focus occurrence, every device change in order, and when power keeps
/// region monitoring from running.
struct DeviceSchedule {
  var focusIntervals: [FocusInterval] = []
  /// Changes in handling order: by instant, then `DeviceChange.rank`, then position.
  var changes: [(instant: SimulationInstant, change: DeviceChange)] = []
  /// Spans during which power keeps region monitoring from running: from
  /// switching off until the first unlock after it is on again; while Low
  /// Power Mode pauses it (`AttentionRules.lowPowerRegionMonitoring`); while
  /// airplane mode is on. Sorted by start; they may overlap (the reason is
  /// the one of the span that began last).
  var monitoringBlocked: [(from: SimulationInstant, until: SimulationInstant?, reason: String)] = []

  init(scenario: Scenario, calendar: CalendarTriggerEvaluator) {
    let clock = scenario.clock
    let device = scenario.device
    for (index, period) in device.focus.enumerated() {
      focusIntervals += Self.occurrences(of: period, index: index, clock: clock, calendar: calendar)
    }
    focusIntervals.sort { ($0.from, $0.period) < ($1.from, $1.period) }
    var changes: [(SimulationInstant, DeviceChange, Int)] = []
    for (index, interval) in focusIntervals.enumerated() {
      changes.append((interval.from, .focusStart(interval: index), index))
      if interval.to <= clock.end { changes.append((interval.to, .focusEnd(interval: index), index)) }
    }
    for (position, event) in device.power.enumerated() {
      changes.append((event.instant, .power(event.kind, afterReboot: false), position * 2))
      if event.kind == .reboot {
        changes.append((event.instant.advanced(by: scenario.platform.attention.bootDuration), .power(.switchOn, afterReboot: true), position * 2 + 1))
      }
    }
    for (position, change) in device.network.enumerated() { changes.append((change.instant, .network(online: change.online), position)) }
    for (position, change) in device.settingsChanges.enumerated() { changes.append((change.instant, .settings(position), position)) }
    for (position, change) in scenario.pushes.preferenceChanges.enumerated() {
      changes.append((change.instant, .preferences(position), position))
    }
    self.changes = changes.filter { $0.0 <= clock.end }
      .sorted { ($0.0, $0.1.rank, $0.2) < ($1.0, $1.1.rank, $1.2) }
      .map { (instant: $0.0, change: $0.1) }
    monitoringBlocked = Self.powerBlockedSpans(self.changes)
      + Self.modeBlockedSpans(self.changes, lowPower: scenario.platform.attention.lowPowerRegionMonitoring)
    monitoringBlocked.sort { $0.from < $1.from }
  }

  /// The occurrences of a Focus period that overlap the clock window; one in
  /// force at the start begins at the start.
  static func occurrences(of period: FocusPeriod, index: Int, clock: ClockSettings, calendar: CalendarTriggerEvaluator) -> [FocusInterval] {
    switch period.schedule {
    case .once(let from, let to):
      guard to > clock.start, from <= clock.end, to > from else { return [] }
      return [FocusInterval(period: index, from: max(from, clock.start), to: to)]
    case .daily(let from, let to, let weekdays):
      func daily(_ time: DailyTime) -> CalendarTrigger {
        CalendarTrigger(components: CalendarComponents(hour: time.hour, minute: time.minute), repeats: true)
      }
      var intervals: [FocusInterval] = []
      var gregorian = Calendar(identifier: .gregorian)
      // A span that began the evening before the start may be in force at the start.
      var cursor = clock.start.advanced(by: .seconds(-2 * 86_400))
      while let start = calendar.nextDelivery(of: daily(from), after: cursor, deviceTimeZone: clock.deviceZone(at: cursor)), start <= clock.end {
        cursor = start
        let zone = clock.deviceZone(at: start)
        guard let end = calendar.nextDelivery(of: daily(to), after: start, deviceTimeZone: zone) else { break }
        let onDay = weekdays.map { weekdays in
          if gregorian.timeZone != zone { gregorian.timeZone = zone }
          return weekdays.contains(gregorian.component(.weekday, from: start.date))
        } ?? true
        if onDay && end > clock.start {
          intervals.append(FocusInterval(period: index, from: max(start, clock.start), to: end))
        }
      }
      return intervals
    }
  }

  /// From each switch-off (or empty battery, or reboot) until the first
  /// unlock after the phone is on again, region monitoring does not run.
  static func powerBlockedSpans(_ changes: [(instant: SimulationInstant, change: DeviceChange)]) -> [(from: SimulationInstant, until: SimulationInstant?, reason: String)] {
    var spans: [(from: SimulationInstant, until: SimulationInstant?, reason: String)] = []
    var off = false
    var locked = false
    for (instant, change) in changes {
      guard case .power(let kind, _) = change else { continue }
      switch kind {
      case .switchOff, .batteryEmpty, .reboot:
        guard !off else { continue }
        if locked { spans[spans.count - 1].until = instant }
        off = true
        locked = false
        spans.append((instant, nil, "the phone is off"))
      case .switchOn:
        guard off else { continue }
        off = false
        locked = true
        spans[spans.count - 1].until = instant
        spans.append((instant, nil, "the phone has not been unlocked since it was switched on: region monitoring resumes at the first unlock"))
      case .unlock:
        guard locked else { continue }
        locked = false
        spans[spans.count - 1].until = instant
      case .lowPowerOn, .lowPowerOff, .airplaneModeOn, .airplaneModeOff, .chargingOn, .chargingOff:
        continue
      }
    }
    return spans
  }

  static let lowPowerReason =
    "Low Power Mode: Background App Refresh is off, and region monitoring is unavailable without it (platform lowPowerRegionMonitoring: paused)"
  static let airplaneReason = "airplane mode: the device cannot power up the hardware region monitoring needs"

  /// From each `low-power-on` (when Low Power Mode pauses region monitoring)
  /// and each `airplane-mode-on` until the matching `-off`, region
  /// monitoring does not run.
  static func modeBlockedSpans(
    _ changes: [(instant: SimulationInstant, change: DeviceChange)], lowPower: LowPowerRegionMonitoring
  ) -> [(from: SimulationInstant, until: SimulationInstant?, reason: String)] {
    var spans: [(from: SimulationInstant, until: SimulationInstant?, reason: String)] = []
    var lowPowerSpan: Int?
    var airplaneSpan: Int?
    for (instant, change) in changes {
      guard case .power(let kind, _) = change else { continue }
      switch kind {
      case .lowPowerOn where lowPower == .paused && lowPowerSpan == nil:
        lowPowerSpan = spans.count
        spans.append((instant, nil, lowPowerReason))
      case .lowPowerOff:
        if let open = lowPowerSpan { spans[open].until = instant }
        lowPowerSpan = nil
      case .airplaneModeOn where airplaneSpan == nil:
        airplaneSpan = spans.count
        spans.append((instant, nil, airplaneReason))
      case .airplaneModeOff:
        if let open = airplaneSpan { spans[open].until = instant }
        airplaneSpan = nil
      default:
        continue
      }
    }
    return spans
  }

  /// Why power keeps region monitoring from running at `instant`, if it does.
  func monitoringBlockedReason(at instant: SimulationInstant) -> String? {
    monitoringBlocked.last { $0.from <= instant && $0.until.map { instant < $0 } ?? true }?.reason
  }

  /// The instants at which region monitoring can run again after the app's
  /// authorization or the phone's power kept it from running, in handling
  /// order: where neither blocks any more.
  static func monitoringRestarts(
    appChanges: [AppChange], powerBlocked: [(from: SimulationInstant, until: SimulationInstant?, reason: String)], until end: SimulationInstant
  ) -> [SimulationInstant] {
    var candidates = Set<SimulationInstant>()
    for change in appChanges where change.instant <= end { candidates.insert(change.instant) }
    for span in powerBlocked {
      candidates.insert(span.from)
      if let until = span.until, until <= end { candidates.insert(until) }
    }
    let ordered = appChanges.indices.filter { appChanges[$0].instant <= end }
      .sorted { (appChanges[$0].instant, $0) < (appChanges[$1].instant, $1) }
    var state = InstalledAppState()
    var nextChange = 0
    var blocked = false
    var restarts: [SimulationInstant] = []
    for instant in candidates.sorted() {
      while nextChange < ordered.count && appChanges[ordered[nextChange]].instant <= instant {
        let change = appChanges[ordered[nextChange]]
        if let location = change.location { state.locationAuthorization = location }
        if let accuracy = change.locationAccuracy { state.locationAccuracy = accuracy }
        nextChange += 1
      }
      let powerBlocks = powerBlocked.contains { $0.from <= instant && $0.until.map { instant < $0 } ?? true }
      let now = state.regionMonitoringBlockedReason != nil || powerBlocks
      if blocked && !now { restarts.append(instant) }
      blocked = now
    }
    return restarts
  }
}
