import Foundation
import TrigsimCore

/// The timeline chart of a run: time across (the clock's window), a lane
/// per region, per dose time, and per notification request down, marks for
/// what happened (a dose when the patient perceived it, its lateness drawn),
/// bands for Focus, phone-off, locked-until-first-unlock, Low Power Mode and
/// offline periods, day boundaries in the device's zone and its time-zone
/// changes.
///
/// With an expected timeline each lane has two rows, expected above actual,
/// and the marks of entries the comparison found different are highlighted.
public struct ChartDrawing: Sendable {
  /// What a mark on the chart shows. The raw value is its `data-mark`.
  public enum MarkKind: String, CaseIterable, Sendable {
    // Request lanes.
    case scheduled, rescheduled, fired, snoozed, completed, dismissed, opened, ignored, dropped, removed, held
    /// Not shown or not delivered, one kind per `SuppressionCause` (the entry's `cause`), so
    /// that the legend says which: `MarkKind(suppressedBy:)`.
    case notShownPermission = "suppressed-permission"
    case notShownSettings = "suppressed-settings"
    case notShownChannel = "suppressed-channel"
    case notShownForeground = "suppressed-foreground"
    case notDeliveredPhoneOff = "suppressed-phone-off"
    case notDeliveredRegionMonitoring = "suppressed-region-monitoring"
    case notDeliveredBackgroundPush = "suppressed-background-push"
    case notDeliveredForceStopped = "suppressed-force-stopped"
    /// A `suppressed` entry without a known `cause` (an expected timeline
    /// recorded before entries had one): the legend says no more than that.
    case suppressed
    /// What the patient could perceive of a delivery (actual row only: it comes from the run summary).
    case seen
    // Region lanes.
    /// A bar from the geometry's entry into the region to its exit.
    case inside
    case detected, undetected
    // The track lane: a bar per stretch of fixes (actual row only).
    case fixes
    // Dose lanes: one mark per dose, by its outcome, at the instant the
    // patient could first perceive it (when it was due, if never; actual row only).
    case doseCompleted = "dose-completed"
    case doseDismissed = "dose-dismissed"
    case doseUnanswered = "dose-unanswered"
    case doseMissed = "dose-missed"
    /// A dose of a visit the scenario expects to be silent, and silent it was.
    case doseSilent = "dose-silent"
    // Server lanes (`server:`): one per channel (a push lane per device), from
    // the run summary's channel attempts (actual row only).
    /// The server sent a message on the channel.
    case messageSent = "message-sent"
    /// The attempt went nowhere: no token, no verified number, rejected, undelivered.
    case messageFailed = "message-failed"
    /// The patient perceived the message.
    case messageReached = "message-reached"

    /// Drawn as a bar from `start` to `end` rather than a point.
    var isBar: Bool { self == .inside || self == .fixes }

    /// The mark of a `suppressed` entry whose `cause` is `cause`.
    public init(suppressedBy cause: SuppressionCause) {
      switch cause {
      case .permission: self = .notShownPermission
      case .settings: self = .notShownSettings
      case .channel: self = .notShownChannel
      case .foreground: self = .notShownForeground
      case .phoneOff: self = .notDeliveredPhoneOff
      case .regionMonitoring: self = .notDeliveredRegionMonitoring
      case .backgroundPush: self = .notDeliveredBackgroundPush
      case .forceStopped: self = .notDeliveredForceStopped
      }
    }
  }

  /// The sections of the chart, top to bottom.
  public enum LaneGroup: String, CaseIterable, Sendable {
    case track = "Track", regions = "Regions", doses = "Doses", server = "Server", requests = "Requests"

    /// Whether its lanes have an expected row beside the actual one: the
    /// track and the doses come from the run alone.
    public var comparesRows: Bool { self == .regions || self == .requests }
  }

  public struct Lane: Sendable {
    public var group: LaneGroup
    /// What the lane is about: a region or notification identifier, a
    /// medicine's dose time (`medicine 1 08:00`), or `track`.
    public var key: String
    public var label: String
  }

  /// Which row of a lane a mark is on.
  public enum Row: String, Sendable { case expected, actual }

  /// One mark: `count` events of one kind in one lane and row, drawn as one
  /// because they fall within `ChartDrawing.markCell` pixels of each other
  /// (bars: because they touch).
  public struct Mark: Sendable {
    public var lane: Int
    public var row: Row
    public var kind: MarkKind
    public var x: Double
    /// The end of a bar.
    public var x2: Double?
    public var count: Int
    public var subjects: [String]
    /// The labels of its first and last events.
    public var first: String, last: String
    /// How the comparison classed the entries behind it (`missing`,
    /// `unexpected`, `changed`, `reordered`), when any differ.
    public var differences: [String] = []
    /// For a dose the patient perceived after it was due: where it was due.
    /// The mark is at `x`, when it was perceived; the lateness is drawn from
    /// here to there.
    public var dueX: Double? = nil

    /// The hover label: the event's, or the count with the first and last.
    public var label: String { count == 1 ? first : "\(count) × \(kind.rawValue); first: \(first); last: \(last)" }
  }

  /// A period of a state drawn as a band: a Focus, the phone off, the phone
  /// locked until its first unlock, Low Power Mode, offline.
  public struct Band: Sendable {
    /// `Focus Sleep`, `phone off`, `locked until first unlock`, `Low Power Mode`, `Doze`, `offline`.
    public var name: String
    public var x: Double, x2: Double
    public var label: String
  }

  /// A vertical line on the time axis.
  public struct Rule: Sendable {
    public var x: Double
    public var label: String
  }

  public var width: Double
  /// Where the time axis starts and ends, in pixels.
  public var plotLeft: Double, plotRight: Double
  public var lanes: [Lane] = []
  public var marks: [Mark] = []
  public var bands: [Band] = []
  /// The band names in the order their rows are drawn.
  public var bandRows: [String] = []
  /// Local midnights in the device's zone (the first of each month only,
  /// when days would be closer than `minimumDaySpacing`).
  public var days: [Rule] = []
  /// Device time-zone changes.
  public var zoneChanges: [Rule] = []
  /// Time-of-day ticks in the device's zone (`08:00`), at a round step that
  /// leaves at least `minimumTickSpacing` pixels between them; none when
  /// even twelve hours are closer than that (the day boundaries suffice).
  public var ticks: [Rule] = []
  /// Whether the lanes have an expected row.
  public var hasExpected: Bool
  /// The clock's window, as device-local text.
  public var window: (start: String, end: String)

  /// With this many regions or fewer, each has a lane even without events.
  public static let laneForEveryRegionUpTo = 20

  /// Marks of one kind in one lane row closer than this many pixels are drawn as one.
  public static let markCell = 2.0

  /// The instants a chart's window may span: the years 0001 to 9999 (UTC),
  /// the years trigsim reads. A clock beyond them (only a `ReportInput`
  /// built in code can have one) is drawn cut to them.
  public static let drawableInstants =
    SimulationInstant(millisecondsSinceEpoch: -62_135_596_800_000)...SimulationInstant(millisecondsSinceEpoch: 253_402_300_799_999)

  /// Draws the chart of `input`; `coverage` is the track's stretches (from the map's pass over it).
  public init(_ input: ReportInput, coverage: [ClosedRange<SimulationInstant>], options: ReportOptions) {
    width = options.drawingWidth
    plotLeft = 210
    plotRight = width - 16
    var clock = input.clock
    let drawable = Self.drawableInstants
    clock.start = min(max(clock.start, drawable.lowerBound), drawable.upperBound)
    clock.end = min(max(clock.end, clock.start), drawable.upperBound)
    // In doubles: the difference of two far-apart instants does not fit an Int64.
    let start = Double(clock.start.millisecondsSinceEpoch)
    let span = max(Double(clock.end.millisecondsSinceEpoch) - start, 1)
    let left = plotLeft, plotWidth = plotRight - plotLeft
    func x(_ instant: SimulationInstant) -> Double {
      left + (Double(instant.millisecondsSinceEpoch) - start) / span * plotWidth
    }
    hasExpected = input.comparison != nil
    window = (clock.local(clock.start), clock.local(clock.end))

    var builder = LaneBuilder()
    // Track.
    if !coverage.isEmpty {
      let lane = builder.lane(.track, key: "track", label: "fixes")
      for stretch in coverage {
        builder.mark(lane, .actual, .fixes, x(stretch.lowerBound), x2: x(stretch.upperBound), subject: "track",
                     label: "fixes from \(clock.local(stretch.lowerBound)) to \(clock.local(stretch.upperBound))")
      }
    }
    // Regions: with few, every region of the scenario has a lane, in its
    // order; among many, those with events (in the order of their first).
    if input.regions.count <= Self.laneForEveryRegionUpTo {
      for region in input.regions { _ = builder.lane(.regions, key: region.id.rawValue, label: "region \(region.id.rawValue)") }
    }
    // Doses.
    for dose in input.run.summary.doses {
      let key = "\(dose.key.medicine.rawValue) \(dose.reminder)"
      let lane = builder.lane(.doses, key: key, label: "\(dose.medicineName) \(dose.reminder)")
      let kind: MarkKind =
        switch dose.outcome {
        case .completed: .doseCompleted
        case .dismissed: .doseDismissed
        case .unanswered: .doseUnanswered
        case .missed: .doseMissed
        case .silent: .doseSilent
        }
      var label = "dose \(dose.medicineName) \(dose.reminder) \(dose.key.occurrenceLabel): \(dose.outcome.rawValue), scheduled \(clock.local(dose.scheduled))"
      if let notified = dose.notified {
        label += ", notified \(clock.local(notified))"
        if notified > dose.scheduled { label += " (+\(dose.scheduled.duration(to: notified)) late)" }
      }
      if let resolved = dose.resolved { label += ", resolved \(clock.local(resolved))" }
      let remarks = RunSummary.remarks(dose)
      if !remarks.isEmpty { label += " — \(remarks)" }
      let (at, dueX) = Self.doseMarkPlace(dose, x: x)
      builder.mark(lane, .actual, kind, at, subject: key, label: label, dueX: dueX)
    }
    // Entries: the expected timeline's, then the actual one's, so that
    // lanes appear in the order the actual run (or the expectation) first
    // names them.
    var differenceKinds: [Row: [Int: Set<String>]] = [.expected: [:], .actual: [:]]
    if let comparison = input.comparison {
      for difference in comparison.differences {
        let name = Self.name(of: difference.kind)
        if let index = difference.expectedIndex { differenceKinds[.expected]![index, default: []].insert(name) }
        if let index = difference.actualIndex { differenceKinds[.actual]![index, default: []].insert(name) }
      }
    }
    let firstKnownX = input.run.summary.firstFixAt.map(x) ?? plotLeft
    var timelines: [(Row, Timeline)] = [(.actual, input.run.timeline)]
    if let comparison = input.comparison { timelines.insert((.expected, comparison.expected), at: 0) }
    for (row, timeline) in timelines {
      var insideSince: [String: (x: Double, index: Int, entry: TimelineEntry)] = [:]
      for (index, entry) in timeline.entries.enumerated() {
        let differences = differenceKinds[row]![index].map { $0.sorted() } ?? []
        let at = x(entry.instant)
        switch entry.kind {
        case .enter:
          // The bar is drawn at the exit (or the end); the lane takes its place now.
          _ = builder.lane(.regions, key: entry.subject, label: "region \(entry.subject)")
          insideSince[entry.subject] = (at, index, entry)
        case .exit:
          let lane = builder.lane(.regions, key: entry.subject, label: "region \(entry.subject)")
          let since = insideSince.removeValue(forKey: entry.subject)
          // Left without an entry: inside since the position was first known.
          let startX = since?.x ?? firstKnownX
          let label = "inside \(entry.subject) " + (since.map { "from \($0.entry.localInstant)" } ?? "from the first fix") + " to \(entry.localInstant)"
          let combined = (since.flatMap { differenceKinds[row]![$0.index] } ?? []).union(differences)
          builder.mark(lane, row, .inside, startX, x2: at, subject: entry.subject, label: label, differences: combined.sorted())
        case .detected, .undetected:
          let lane = builder.lane(.regions, key: entry.subject, label: "region \(entry.subject)")
          builder.mark(lane, row, entry.kind == .detected ? .detected : .undetected, at, subject: entry.subject, label: entry.canonicalLine, differences: differences)
        default:
          guard let kind = Self.requestMark(entry) else { continue }
          let lane = builder.lane(.requests, key: entry.subject, label: entry.subject)
          builder.mark(lane, row, kind, at, subject: entry.subject, label: entry.canonicalLine, differences: differences)
        }
      }
      // Still inside at the end of the run.
      for (subject, since) in insideSince.sorted(by: { $0.value.index < $1.value.index }) {
        let lane = builder.lane(.regions, key: subject, label: "region \(subject)")
        builder.mark(lane, row, .inside, since.x, x2: plotRight, subject: subject, label: "inside \(subject) from \(since.entry.localInstant) to the end",
                     differences: (differenceKinds[row]![since.index] ?? []).sorted())
      }
    }
    // The reminder server's attempts, a lane per channel (and per device for pushes):
    // when each was sent or failed, and when the patient perceived it.
    let attempts = input.run.summary.channelAttempts
    for attempt in attempts {
      let device = attempt.device.flatMap { $0 == ServerDevice.phone ? nil : $0 }
      let lane = builder.lane(.server, key: attempt.channel.rawValue + (device.map { " \($0)" } ?? ""),
                              label: attempt.channel.rawValue + (device.map { " to \($0)" } ?? ""))
      let label = Self.attemptLabel(attempt, clock: input.run.summary)
      builder.mark(lane, .actual, attempt.failure == nil ? .messageSent : .messageFailed, x(attempt.sent ?? attempt.at), subject: attempt.subject, label: label)
      if let perceived = attempt.perceived {
        builder.mark(lane, .actual, .messageReached, x(perceived), subject: attempt.subject, label: "\(attempt.subject) perceived \(input.run.summary.local(perceived))")
      }
    }
    // What the patient perceived (actual row); the server's pushes are on its lanes.
    let serverSubjects = Set(attempts.map(\.subject))
    for perception in input.run.summary.perceptions where perception.isPerceptible && !serverSubjects.contains(perception.subject) {
      let lane = builder.lane(.requests, key: perception.subject, label: perception.subject)
      builder.mark(lane, .actual, .seen, x(perception.instant), subject: perception.subject, label: perception.reportLabel)
    }
    (lanes, marks) = builder.finish()

    // Bands and rules from the actual run.
    var open: [String: (x: Double, label: String)] = [:]
    for entry in input.run.timeline.entries {
      for (name, on) in Self.bandChanges(entry) {
        if on {
          if open[name] == nil { open[name] = (x(entry.instant), entry.localInstant) }
          if !bandRows.contains(name) { bandRows.append(name) }
        } else if let since = open.removeValue(forKey: name) {
          bands.append(Band(name: name, x: since.x, x2: x(entry.instant), label: "\(name) from \(since.label) to \(entry.localInstant)"))
        }
      }
    }
    for (name, since) in open.sorted(by: { $0.key < $1.key }) {
      bands.append(Band(name: name, x: since.x, x2: plotRight, label: "\(name) from \(since.label) to the end"))
    }
    for entry in input.run.timeline.entries where entry.kind == .timezone {
      zoneChanges.append(Rule(x: x(entry.instant), label: "\(entry.localInstant) time zone \(entry.subject)"))
    }
    // A line a day while days are at least `minimumDaySpacing` apart, else a line a month.
    let pixelsPerDay = plotWidth / span * 86_400_000
    let every: MidnightStep = pixelsPerDay >= Self.minimumDaySpacing ? .day : pixelsPerDay * 28 >= Self.minimumDaySpacing ? .month : .year
    days = Self.midnights(clock, every: every).map { Rule(x: x($0.instant), label: $0.label) }
    let midnights = Set(days.map(\.x))
    ticks = Self.ticks(clock, pixelsPerMillisecond: plotWidth / span).map { Rule(x: x($0.instant), label: $0.label) }.filter { !midnights.contains($0.x) }
  }

  /// The least distance between two day lines, in pixels; closer, the chart draws months.
  public static let minimumDaySpacing = 4.0

  /// The least distance between two time-of-day ticks, in pixels.
  public static let minimumTickSpacing = 60.0

  /// Local times of day at the first round step (1, 5, 15 or 30 minutes;
  /// 1, 2, 3, 6 or 12 hours) that leaves `minimumTickSpacing` pixels between
  /// ticks, from the clock's start to its end, in the zone in force at each.
  static func ticks(_ clock: ClockSettings, pixelsPerMillisecond: Double) -> [(instant: SimulationInstant, label: String)] {
    let minute: Int64 = 60_000
    let steps = [1, 5, 15, 30, 60, 120, 180, 360, 720].map { Int64($0) * minute }
    guard let step = steps.first(where: { Double($0) * pixelsPerMillisecond >= minimumTickSpacing }) else { return [] }
    var result: [(SimulationInstant, String)] = []
    var cursor = clock.start.millisecondsSinceEpoch
    let end = clock.end.millisecondsSinceEpoch
    func offset(_ milliseconds: Int64) -> Int64 {
      let instant = SimulationInstant(millisecondsSinceEpoch: milliseconds)
      return Int64(clock.deviceZone(at: instant).secondsFromGMT(for: instant.date)) * 1000
    }
    /// A millisecond in `cursor…changed` where the offset first differs from
    /// the cursor's, given that it differs at `changed` (found by halving).
    func firstOffsetChange(after cursor: Int64, before changed: Int64) -> Int64 {
      var low = cursor, high = changed
      while high - low > 1 {
        let middle = low + (high - low) / 2
        if offset(middle) == offset(cursor) { low = middle } else { high = middle }
      }
      return high
    }
    /// The first instant at or after `cursor` whose local time is a multiple of the step, in the offset `zone`.
    func nextMultiple(after cursor: Int64, offset zone: Int64) -> Int64 { (cursor + zone + step - 1).floorDivided(by: step) * step - zone }
    while cursor <= end {
      var next = nextMultiple(after: cursor, offset: offset(cursor))
      // Across a change of offset (DST, travel) the tick is in the offset in
      // force at it; when the local clock jumped over it, the next one is
      // counted from the change.
      let there = offset(next)
      if there != offset(cursor) {
        let again = nextMultiple(after: cursor, offset: there)
        if offset(again) == there {
          next = again
        } else {
          cursor = firstOffsetChange(after: cursor, before: next)
          continue
        }
      }
      guard next <= end else { break }
      let instant = SimulationInstant(millisecondsSinceEpoch: next)
      // `2026-05-04T08:30:00.000+02:00` → `08:30`
      result.append((instant, String(clock.local(instant).dropFirst(11).prefix(5))))
      cursor = next + 1
    }
    return result
  }

  // MARK: - Rules

  /// Where a dose's mark is: at the instant the patient could first perceive
  /// it (`notified`), and, when that is after it was due, where it was due
  /// (`dueX`, the start of the lateness line); a dose never perceived (missed,
  /// silent) is at its due time, with no line.
  static func doseMarkPlace(_ dose: DoseRecord, x: (SimulationInstant) -> Double) -> (x: Double, dueX: Double?) {
    guard let notified = dose.notified else { return (x(dose.scheduled), nil) }
    return (x(notified), notified > dose.scheduled ? x(dose.scheduled) : nil)
  }

  /// `met.2026-05-05T08:00.s2 sms sent 08:30` (`… failed: reason`), a server lane mark's hover label.
  static func attemptLabel(_ attempt: ChannelAttempt, clock summary: RunSummary) -> String {
    let head = "\(attempt.subject) \(attempt.channel.rawValue)"
    if let failure = attempt.failure { return "\(head) at \(summary.local(attempt.sent ?? attempt.at)) went nowhere: \(failure)" }
    return "\(head) sent \(summary.local(attempt.sent ?? attempt.at))"
  }

  /// The request-lane mark of an entry, if it has one.
  static func requestMark(_ entry: TimelineEntry) -> MarkKind? {
    switch entry.kind {
    case .scheduled: return .scheduled
    case .replaced, .rescheduled: return .rescheduled
    case .fired: return .fired
    case .removed, .cleared: return .removed
    case .dropped: return .dropped
    case .suppressed: return entry[field: "cause"].flatMap(SuppressionCause.init(rawValue:)).map(MarkKind.init(suppressedBy:)) ?? .suppressed
    case .held: return .held
    case .action:
      let action = entry[field: "action"] ?? ""
      if action.hasPrefix("snooze") { return .snoozed }
      switch action {
      case "complete": return .completed
      case "dismiss": return .dismissed
      case "open": return .opened
      case "ignore": return .ignored
      default: return nil
      }
    default: return nil
    }
  }

  /// The band of the phone locked since it was switched on (a reboot, a
  /// switch-on): region monitoring and protected data wait for the first unlock.
  public static let lockedBand = "locked until first unlock"

  /// The bands an entry starts (`true`) or ends (`false`), in order:
  /// - a Focus: `focus` with `state` on or off;
  /// - `phone off`: `power` with `state` off, until `state` on;
  /// - `locked until first unlock`: from a `power` entry with `state` on and
  ///   `locked` (the engine writes it at every switch-on, a reboot's
  ///   included) to the next `unlock`, or to the phone going off again;
  /// - `Low Power Mode`: `power` with `low-power`;
  /// - `Doze` (Android): `power` with `doze` on or off;
  /// - `offline`: `network` with `state`.
  ///
  /// The phone is on and unlocked before its first power entry, so a band
  /// that an entry ends without one open draws nothing.
  static func bandChanges(_ entry: TimelineEntry) -> [(name: String, on: Bool)] {
    switch entry.kind {
    case .focus:
      guard let state = entry[field: "state"] else { return [] }
      return [("Focus \(entry.subject)", state == "on")]
    case .power:
      if let state = entry[field: "state"] {
        if state == "off" { return [(lockedBand, false), ("phone off", true)] }
        return [("phone off", false)] + (entry[field: "locked"] == nil ? [] : [(lockedBand, true)])
      }
      if let lowPower = entry[field: "low-power"] { return [("Low Power Mode", lowPower == "on")] }
      if let doze = entry[field: "doze"] { return [("Doze", doze == "on")] }
      if entry[field: "event"] == PowerEvent.Kind.unlock.rawValue { return [(lockedBand, false)] }
      return []
    case .network:
      guard let state = entry[field: "state"] else { return [] }
      return [("offline", state == "offline")]
    default:
      return []
    }
  }

  static func name(of kind: TimelineDifference.Kind) -> String {
    switch kind {
    case .missing: "missing"
    case .unexpected: "unexpected"
    case .changed: "changed"
    case .reordered: "reordered"
    case .shifted(let by): "shifted by \(by)"
    }
  }

  /// Which midnights the chart draws a line at.
  enum MidnightStep {
    /// Every one (`Sat 28 Mar`).
    case day
    /// The first of each month (`Apr 2027`), where days would be closer than `minimumDaySpacing`.
    case month
    /// The first of each year (`2027`), where even months would be (a window of centuries).
    case year
  }

  /// The device-local midnights inside the clock's window, each in the zone
  /// in force at it, with its date, at the step `every`.
  static func midnights(_ clock: ClockSettings, every step: MidnightStep = .day) -> [(instant: SimulationInstant, label: String)] {
    var result: [(SimulationInstant, String)] = []
    var calendar = Calendar(identifier: .gregorian)
    calendar.locale = Locale(identifier: "en_US_POSIX")
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    let components: DateComponents
    switch step {
    case .day:
      formatter.dateFormat = "EEE d MMM"
      components = DateComponents(hour: 0, minute: 0, second: 0)
    case .month:
      formatter.dateFormat = "MMM yyyy"
      components = DateComponents(day: 1, hour: 0, minute: 0, second: 0)
    case .year:
      formatter.dateFormat = "yyyy"
      components = DateComponents(month: 1, day: 1, hour: 0, minute: 0, second: 0)
    }
    func next(after cursor: SimulationInstant, in zone: TimeZone) -> SimulationInstant? {
      calendar.timeZone = zone
      return calendar.nextDate(after: cursor.date, matching: components, matchingPolicy: .nextTime).map(SimulationInstant.init)
    }
    var cursor = clock.start
    // One line a day (a month, a year) over the clock's span, which the run limits (or `drawableInstants`) bound.
    while cursor <= clock.end {
      guard var midnight = next(after: cursor, in: clock.deviceZone(at: cursor)) else { break }
      // A zone change comes first: midnight is the new zone's. When the clock
      // jumped over it (flying east past midnight), there is no midnight
      // until the change, which has a line of its own.
      let there = clock.deviceZone(at: midnight)
      if there != clock.deviceZone(at: cursor) {
        if let moved = next(after: cursor, in: there), clock.deviceZone(at: moved) == there {
          midnight = moved
        } else if let change = clock.timeZoneChanges.first(where: { $0.instant > cursor }) {
          cursor = change.instant
          continue
        }
      }
      guard midnight <= clock.end, midnight > cursor else { break }
      formatter.timeZone = clock.deviceZone(at: midnight)
      result.append((midnight, formatter.string(from: midnight.date)))
      cursor = midnight
    }
    return result
  }

}

extension Int64 {
  /// The quotient rounded toward negative infinity.
  fileprivate func floorDivided(by divisor: Int64) -> Int64 {
    let quotient = self / divisor
    return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
  }
}

/// Collects lanes (in first-mention order within their group) and marks,
/// merging marks of one kind in one lane row that fall within
/// `ChartDrawing.markCell` pixels (bars: that touch or overlap).
struct LaneBuilder {
  private var laneIndex: [String: Int] = [:]
  private var lanes: [ChartDrawing.Lane] = []
  private var marks: [ChartDrawing.Mark] = []
  /// What a mark merges by: its lane, row and kind.
  private struct MarkKey: Hashable {
    var lane: Int
    var row: ChartDrawing.Row
    var kind: ChartDrawing.MarkKind
  }
  /// The last mark of each (lane, row, kind), to merge into.
  private var lastMark: [MarkKey: Int] = [:]
  /// Each mark's subjects and difference kinds while marks are merged (sorted into the marks by `finish`).
  private var markSubjects: [Set<String>] = []
  private var markDifferences: [Set<String>] = []

  /// Lanes of one group beyond this many share one last lane, `and N more`,
  /// which carries all their marks: a chart of thousands of lanes would be
  /// too tall to read and to render, and nothing is left out.
  static let lanesPerGroup = 150

  /// Keys of each group gathered in its overflow lane.
  private var overflowKeys: [ChartDrawing.LaneGroup: Set<String>] = [:]
  /// Lanes of each group so far (the overflow lane not counted).
  private var laneCounts: [ChartDrawing.LaneGroup: Int] = [:]

  mutating func lane(_ group: ChartDrawing.LaneGroup, key: String, label: String) -> Int {
    let id = "\(group.rawValue)\u{0}\(key)"
    if let index = laneIndex[id] { return index }
    if laneCounts[group, default: 0] >= Self.lanesPerGroup {
      let overflowID = "\(group.rawValue)\u{0}\u{0}more"
      overflowKeys[group, default: []].insert(key)
      let label = "and \(overflowKeys[group]!.count) more"
      if let index = laneIndex[overflowID] {
        lanes[index].label = label
        return index
      }
      lanes.append(ChartDrawing.Lane(group: group, key: "…", label: label))
      laneIndex[overflowID] = lanes.count - 1
      return lanes.count - 1
    }
    lanes.append(ChartDrawing.Lane(group: group, key: key, label: label))
    laneIndex[id] = lanes.count - 1
    laneCounts[group, default: 0] += 1
    return lanes.count - 1
  }

  mutating func mark(
    _ lane: Int, _ row: ChartDrawing.Row, _ kind: ChartDrawing.MarkKind, _ x: Double, x2: Double? = nil, subject: String, label: String,
    differences: [String] = [], dueX: Double? = nil
  ) {
    let key = MarkKey(lane: lane, row: row, kind: kind)
    if let index = lastMark[key] {
      // A point mark may lie before the last one of its lane: a dose is drawn
      // when it was perceived, and a later dose can be perceived earlier.
      let touches = kind.isBar ? x <= (marks[index].x2 ?? marks[index].x) + 1 : abs(x - marks[index].x) < ChartDrawing.markCell
      if touches {
        // In place: each merge costs the same however many it already holds.
        marks[index].count += 1
        if let x2 { marks[index].x2 = max(marks[index].x2 ?? x2, x2) }
        // The earliest due time of the doses merged: the longest lateness.
        if let dueX { marks[index].dueX = min(marks[index].dueX ?? dueX, dueX) }
        marks[index].last = label
        markSubjects[index].insert(subject)
        if !differences.isEmpty { markDifferences[index].formUnion(differences) }
        return
      }
    }
    marks.append(ChartDrawing.Mark(lane: lane, row: row, kind: kind, x: x, x2: x2, count: 1, subjects: [], first: label, last: label, dueX: dueX))
    markSubjects.append([subject])
    markDifferences.append(Set(differences))
    lastMark[key] = marks.count - 1
  }

  /// The lanes grouped in `LaneGroup` order, and the marks renumbered to match.
  func finish() -> ([ChartDrawing.Lane], [ChartDrawing.Mark]) {
    let order = lanes.indices.sorted {
      let a = ChartDrawing.LaneGroup.allCases.firstIndex(of: lanes[$0].group)!, b = ChartDrawing.LaneGroup.allCases.firstIndex(of: lanes[$1].group)!
      return (a, $0) < (b, $1)
    }
    var newIndex = [Int](repeating: 0, count: lanes.count)
    for (position, old) in order.enumerated() { newIndex[old] = position }
    let finished = marks.indices.map { index in
      var mark = marks[index]
      mark.lane = newIndex[mark.lane]
      mark.subjects = markSubjects[index].sorted()
      mark.differences = markDifferences[index].sorted()
      return mark
    }
    return (order.map { lanes[$0] }, finished)
  }
}
