/// One span of deep Doze: from entry to the screen coming on, the phone
/// charging, or the run's end; inside it, the maintenance windows in which
/// deferred alarms run.
public struct DozePeriod: Sendable, Equatable {
  public var start: SimulationInstant
  public var end: SimulationInstant
  /// In time order, each inside `start..<end`.
  public var maintenanceWindows: [Range<SimulationInstant>]

  public init(start: SimulationInstant, end: SimulationInstant, maintenanceWindows: [Range<SimulationInstant>]) {
    self.start = start
    self.end = end
    self.maintenanceWindows = maintenanceWindows
  }
}

/// The device's power state over a run, from what is known up front: when the
/// screen came on (the patient's looks and unlocks), when the phone was
/// charging, the Battery Saver spans, and the app's standby bucket over time.
///
/// The rule (developer.android.com, "Optimize for Doze and App Standby"): the
/// device enters Doze once the screen has been off and the phone unplugged for
/// `DozeRules.enterAfter`; it leaves Doze when the screen comes on or the phone
/// is plugged in. The screen is taken to have gone off at the run's start and
/// right after each screen-on instant (a look is a moment).
public struct AndroidPowerTimeline: Sendable {
  public let rules: DozeRules
  public let start: SimulationInstant
  public let end: SimulationInstant
  /// In time order.
  public let dozePeriods: [DozePeriod]
  /// Sorted, merged.
  public let charging: [Range<SimulationInstant>]
  /// Sorted, merged.
  public let batterySaverSpans: [Range<SimulationInstant>]
  /// In time order; before the first, `StandbyBucket.workingSet`.
  public let buckets: [(from: SimulationInstant, bucket: StandbyBucket)]

  /// - Parameters:
  ///   - rules: when Doze begins and its maintenance windows.
  ///   - start: the run's start (the screen is taken to go off then).
  ///   - end: the run's end.
  ///   - screenOn: when the screen comes on (looks, unlocks, switch-ons, the app opened).
  ///   - charging: when the phone is plugged in (no Doze, no bucket limits).
  ///   - batterySaver: when Battery Saver is on.
  ///   - buckets: the app's standby bucket from each instant on, in time order.
  ///   - dozeEntryJitter: trials only, a draw in [0, 1) that moves each
  ///     entry later by that fraction of `DozeRules.enterSpread`; nil in a single run.
  ///   - maintenanceRandom: trials only, the stream each maintenance window's
  ///     delay is drawn from, uniform in [0, `DozeRules.maintenanceSpread`), in
  ///     time order; nil in a single run (no window is moved).
  public init(
    rules: DozeRules, start: SimulationInstant, end: SimulationInstant, screenOn: [SimulationInstant],
    charging: [Range<SimulationInstant>], batterySaver: [Range<SimulationInstant>],
    buckets: [(from: SimulationInstant, bucket: StandbyBucket)], dozeEntryJitter: Double?,
    maintenanceRandom: TrialRandom? = nil
  ) {
    self.rules = rules
    self.start = start
    self.end = end
    self.charging = Self.merged(charging)
    self.batterySaverSpans = Self.merged(batterySaver)
    self.buckets = buckets.enumerated().sorted { ($0.element.from, $0.offset) < ($1.element.from, $1.offset) }.map(\.element)
    var maintenanceRandom = maintenanceRandom
    self.dozePeriods =
      rules.enabled
      ? Self.dozePeriods(
        rules: rules, start: start, end: end, screenOn: screenOn.sorted(), charging: self.charging, jitter: dozeEntryJitter,
        maintenanceRandom: &maintenanceRandom)
      : []
  }

  // Every question below is answered by binary search over lists kept in
  // time order (periods, windows, spans, bucket changes), so a question costs
  // the logarithm of a run's power changes, not their number: an Android
  // timeline entry costs about what an iOS one does ("Android alarms").

  /// Whether the device is in Doze at `instant`: false inside a maintenance window.
  public func isDozing(at instant: SimulationInstant) -> Bool {
    guard let period = dozePeriod(at: instant) else { return false }
    return Self.span(holding: instant, in: period.maintenanceWindows) == nil
  }

  /// The Doze period holding `instant`, if any.
  public func dozePeriod(at instant: SimulationInstant) -> DozePeriod? {
    let index = dozePeriods.partitioningIndex { $0.start > instant } - 1
    guard index >= 0, instant < dozePeriods[index].end else { return nil }
    return dozePeriods[index]
  }

  /// While dozing at `instant`: when regular alarms may next run, the next
  /// maintenance window's start or the Doze period's end; and which of the two.
  public func nextRelease(after instant: SimulationInstant) -> (at: SimulationInstant, maintenance: Bool)? {
    guard let period = dozePeriod(at: instant) else { return nil }
    let next = period.maintenanceWindows.partitioningIndex { $0.lowerBound > instant }
    if next < period.maintenanceWindows.count { return (period.maintenanceWindows[next].lowerBound, true) }
    return (period.end, false)
  }

  /// The app's standby bucket at `instant`.
  public func bucket(at instant: SimulationInstant) -> StandbyBucket {
    let index = buckets.partitioningIndex { $0.from > instant } - 1
    return index >= 0 ? buckets[index].bucket : .workingSet
  }

  /// The first bucket change after `instant`, if any.
  public func nextBucketChange(after instant: SimulationInstant) -> (at: SimulationInstant, bucket: StandbyBucket)? {
    let next = buckets.partitioningIndex { $0.from > instant }
    guard next < buckets.count else { return nil }
    return (buckets[next].from, bucket(at: buckets[next].from))
  }

  /// Whether Battery Saver is on at `instant`.
  public func batterySaver(at instant: SimulationInstant) -> Bool {
    Self.span(holding: instant, in: batterySaverSpans) != nil
  }

  /// Whether the phone is charging at `instant` (then neither Doze, the bucket
  /// limits nor Battery Saver restrict alarms: power-details table).
  public func isCharging(at instant: SimulationInstant) -> Bool {
    Self.span(holding: instant, in: charging) != nil
  }

  /// The end of the Battery Saver span holding `instant` (or the start of charging, if sooner).
  func batterySaverRelease(after instant: SimulationInstant) -> SimulationInstant? {
    guard let span = Self.span(holding: instant, in: batterySaverSpans) else { return nil }
    let next = charging.partitioningIndex { $0.lowerBound > instant }
    let plugged = next < charging.count ? charging[next].lowerBound : span.upperBound
    return min(span.upperBound, plugged)
  }

  /// The span of `spans` (sorted, not overlapping) that holds `instant`.
  static func span(holding instant: SimulationInstant, in spans: [Range<SimulationInstant>]) -> Range<SimulationInstant>? {
    let index = spans.partitioningIndex { $0.lowerBound > instant } - 1
    return index >= 0 && spans[index].contains(instant) ? spans[index] : nil
  }

  // MARK: - Building

  static func merged(_ spans: [Range<SimulationInstant>]) -> [Range<SimulationInstant>] {
    var result: [Range<SimulationInstant>] = []
    for span in spans.filter({ !$0.isEmpty }).sorted(by: { $0.lowerBound < $1.lowerBound }) {
      if let last = result.last, span.lowerBound <= last.upperBound {
        result[result.count - 1] = last.lowerBound..<max(last.upperBound, span.upperBound)
      } else {
        result.append(span)
      }
    }
    return result
  }

  /// The quiet spans (screen off, unplugged) and the Doze in each.
  static func dozePeriods(
    rules: DozeRules, start: SimulationInstant, end: SimulationInstant, screenOn: [SimulationInstant],
    charging: [Range<SimulationInstant>], jitter: Double?, maintenanceRandom: inout TrialRandom?
  ) -> [DozePeriod] {
    // Instants at which the quiet clock restarts, and spans in which it cannot run.
    var wakes = screenOn.filter { $0 >= start && $0 < end }
    wakes += charging.map(\.lowerBound).filter { $0 >= start && $0 < end }
    wakes.sort()
    var quietStarts = [start] + screenOn.filter { $0 > start && $0 < end } + charging.map(\.upperBound).filter { $0 > start && $0 < end }
    quietStarts.sort()
    var periods: [DozePeriod] = []
    let delay = rules.enterAfter.milliseconds + Int64(((jitter ?? 0) * Double(rules.enterSpread.milliseconds)).rounded(.down))
    // Both lists are sorted, so each look-up is a binary search: a storm of screen-ons (a look a
    // minute, a reboot a minute) costs n log n here, not n².
    for (position, quietStart) in quietStarts.enumerated() {
      // A quiet start inside a charging span does not count (the span's end does).
      if span(holding: quietStart, in: charging) != nil { continue }
      // The quiet span ends at the next wake after it.
      let wake = wakes.partitioningIndex { $0 > quietStart }
      let quietEnd = wake < wakes.count ? wakes[wake] : end
      let entry = quietStart.advanced(byMilliseconds: delay)
      guard entry < quietEnd else { continue }
      // Skip a quiet start that a later one (before the quiet end) supersedes: only the last restart counts.
      let later = quietStarts[(position + 1)...].partitioningIndex { $0 > quietStart }
      if later < quietStarts.endIndex && quietStarts[later] < quietEnd { continue }
      var windows: [Range<SimulationInstant>] = []
      var idleFrom = entry
      var index = 0
      while true {
        var open = idleFrom.advanced(by: rules.idleSpan(before: index))
        if var random = maintenanceRandom, rules.maintenanceSpread.milliseconds > 0 {
          // Trials: the window opens up to `maintenanceSpread` later (the previous one ran longer than its shortest).
          open = open.advanced(byMilliseconds: random.next(below: rules.maintenanceSpread.milliseconds))
          maintenanceRandom = random
        }
        guard open < quietEnd else { break }
        let close = min(open.advanced(by: rules.maintenanceLength), quietEnd)
        guard close > idleFrom else { break }  // zero spans would never advance
        windows.append(open..<close)
        idleFrom = close
        index += 1
      }
      periods.append(DozePeriod(start: entry, end: quietEnd, maintenanceWindows: windows))
    }
    return periods
  }
}
