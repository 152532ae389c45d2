import Foundation

/// Which reminder of a medicine a dose belongs to.
public enum DoseSlot: Hashable, Comparable, Sendable {
  /// A daily time. Doses are keyed by the time itself, so an edit that
  /// reorders or removes times does not move a dose to another time.
  case time(DailyTime)
  /// The location reminder.
  case location

  public static func < (lhs: Self, rhs: Self) -> Bool {
    switch (lhs, rhs) {
    case (.time(let a), .time(let b)): a < b
    case (.time, .location): true
    case (.location, _): false
    }
  }
}

/// One dose: a medicine's daily time on one local day, or one occurrence of
/// its location reminder (one qualifying region crossing).
///
/// The key is what identifies a dose across runs of one scenario (the
/// assumption report, the platform comparison and the doses baseline match
/// doses by it). A place set's location dose is keyed by its place and
/// that place's own crossing count (`pharmacies/p0075 #1`), never by its
/// position among the crossings of all places: a run that gains or loses a
/// dose at one pharmacy leaves every other pharmacy's doses matched.
public struct DoseKey: Hashable, Sendable {
  public var medicine: MedicineID
  public var slot: DoseSlot
  /// For a daily time: the local day, as days since 1970-01-01. For a
  /// location reminder: 1 for the first qualifying crossing, 2 for the next,
  /// ... (of `place` alone, for a place set's dose).
  public var occurrence: Int64
  /// 0, or 1 for a daily time's second occurrence on the same local day
  /// (after a time-zone change west, 08:00 comes round again), and so on.
  public var repeatOnDay: Int
  /// For a location dose of a place set (`location: { places: … }`): the
  /// place whose crossing it is. Nil for every other dose.
  public var place: PlaceID?

  /// The `repeatOnDay` of the dose a notification opens when it answers no
  /// prescribed dose (see `Prescription`): the summary leaves such doses out.
  static let unprescribed = 1_000_000

  public init(medicine: MedicineID, slot: DoseSlot, occurrence: Int64, repeatOnDay: Int = 0, place: PlaceID? = nil) {
    self.medicine = medicine
    self.slot = slot
    self.occurrence = occurrence
    self.repeatOnDay = repeatOnDay
    self.place = place
  }

  /// `2026-03-28` for a daily time (`2026-03-28+1` for a second occurrence
  /// that day), `#2` for a location occurrence (the place's own count for a
  /// place set's dose, whose reminder names the place).
  public var occurrenceLabel: String {
    switch slot {
    case .time:
      if repeatOnDay == Self.unprescribed { return "none" }
      let date = civilDate(fromDaysSinceEpoch: occurrence)
      return String(format: "%04lld-%02lld-%02lld", date.year, date.month, date.day) + (repeatOnDay > 0 ? "+\(repeatOnDay)" : "")
    case .location:
      return "#\(occurrence)"
    }
  }
}

extension DoseKey {
  /// The legend of a `+N` day label, printed where such labels first show
  /// (the timeline header's `day labels` line, a line under the dose table):
  /// `2026-05-06+1: the second 20:00 dose of medicine levo due on local day
  /// 2026-05-06 (…)`. Nil for any other label.
  public var dayLabelLegend: String? {
    guard case .time(let time) = slot, repeatOnDay > 0, isPrescribed else { return nil }
    let label = occurrenceLabel
    let ordinals = ["second", "third", "fourth"]
    let ordinal = repeatOnDay <= ordinals.count ? ordinals[repeatOnDay - 1] : "\(repeatOnDay + 1)th"
    return "\(label): the \(ordinal) \(time) dose of medicine \(medicine) due on local day \(label.prefix(10))"
      + " (a time-zone change west brought \(time) round again that day)"
  }
}

/// What became of a dose by the end of the run.
public enum DoseOutcome: String, Sendable, CaseIterable {
  /// The user completed it.
  case completed
  /// The user dismissed it and the app was told (custom dismiss action).
  case dismissed
  /// Notified, but neither completed nor dismissed by the end of the run.
  case unanswered
  /// Never notified; `DoseRecord.reason` says why.
  case missed
  /// Never notified, as the scenario expects of its visit (`silentVisit:`): a pass-through that must not remind.
  case silent
}

/// Everything the run learned about one dose.
public struct DoseRecord: Sendable {
  public var key: DoseKey
  public var medicineName: String
  /// `08:00`, or the location reminder's `home on=enter`.
  public var reminder: String
  /// When the dose was due: the daily time's occurrence, or the crossing.
  public var scheduled: SimulationInstant
  /// The UTC offset, at `scheduled`, of the fixed zone the prescription reads
  /// the dose's day and time in (`prescription: { at: home }`); nil when they
  /// are read in the device's zone (see `DoseRecord.labelOffset(in:)`).
  public var fixedLabelOffsetSeconds: Int?
  /// When the patient could first perceive one of the dose's notifications
  /// (a delivery held by a Focus or a summary counts when it is released).
  public var notified: SimulationInstant?
  /// How the patient could first perceive the dose, and by which notification (nil while `notified` is).
  public var perception: DosePerception?
  /// When the reminder itself (not a follow-up) was delivered.
  public var reminderDelivered: SimulationInstant?
  public var followUpsDelivered = 0
  /// The last follow-up of the chain was delivered: the chain is exhausted.
  public var chainRanOut = false
  /// Snoozed alerts delivered (re-alerts after a snooze).
  public var snoozedAlertsDelivered = 0
  public var snoozes = 0
  public var completed: SimulationInstant?
  public var dismissed: SimulationInstant?
  /// Why the dose was missed, or why its reminder was not delivered when a follow-up notified it.
  public var reason: String?
  /// Facts worth knowing (chain not scheduled, chain removed by an edit, ...), in the order they happened.
  public var notes: [String] = []
  /// For a location dose: the visit of the region that opened it.
  public var visit: DoseVisit?
  /// The scenario's visit expectations (indices into `Scenario.visitExpectations`) that say this dose's visit is silent.
  public var expectedSilent: [Int] = []

  public var outcome: DoseOutcome {
    if completed != nil { return .completed }
    if dismissed != nil { return .dismissed }
    if notified == nil { return expectedSilent.isEmpty ? .missed : .silent }
    return .unanswered
  }

  /// When the dose was completed or dismissed.
  public var resolved: SimulationInstant? { completed ?? dismissed }
}

/// Requests the pending limit dropped at one instant: how many of each kind,
/// of which medicines (`9 daily reminders, 26 follow-ups of medicines 1, 2, 3`).
public struct PendingLimitDropGroup: Sendable, Equatable {
  public var at: SimulationInstant
  public var count = 0
  /// Each kind (`daily reminder`, `follow-up`, `snoozed alert`, `location
  /// reminder`, `other request`) with its count, in the order first dropped.
  public var kinds: [KindCount] = []
  /// The medicines the requests served, in the order first dropped.
  public var medicines: [MedicineID] = []

  public struct KindCount: Sendable, Equatable {
    public var kind: String
    public var count: Int
  }

  public init(at: SimulationInstant) { self.at = at }

  mutating func add(kind: String, medicine: MedicineID?) {
    count += 1
    if let index = kinds.firstIndex(where: { $0.kind == kind }) { kinds[index].count += 1 } else { kinds.append(KindCount(kind: kind, count: 1)) }
    if let medicine, !medicines.contains(medicine) { medicines.append(medicine) }
  }

  static func kind(of role: MedicineRequestInfo.Role) -> String {
    switch role {
    case .reminder: "daily reminder"
    case .location: "location reminder"
    case .followUp: "follow-up"
    case .snoozedAlert: "snoozed alert"
    }
  }

  /// `35: 9 daily reminders, 26 follow-ups of medicines 1, 2, 3`; more than
  /// four medicines are counted, not named (`of 9 medicines`).
  public var description: String {
    let kinds = kinds.map { "\($0.count) \($0.kind)\($0.count == 1 ? "" : "s")" }.joined(separator: ", ")
    let of =
      medicines.isEmpty ? "" : medicines.count > 4 ? " of \(medicines.count) medicines"
      : " of medicine\(medicines.count == 1 ? "" : "s") " + medicines.map(\.rawValue).joined(separator: ", ")
    return "\(count): \(kinds)\(of)"
  }
}

/// How the patient could first perceive a dose: which of its notifications,
/// and as what (the timeline's `presented … how=` for it).
public struct DosePerception: Sendable, Equatable {
  /// The request whose delivery the patient could perceive.
  public var notification: NotificationID
  /// What the request was to the dose: `daily reminder`, `location reminder`,
  /// `follow-up 3`, `snoozed alert` (nil when no attribution says).
  public var role: String?
  public var kind: PerceptionRecord.Kind
  /// `banner+lock-screen+sound`, `lock-screen` (after a Focus), `summary`,
  /// …; `lock-screen, seen at a look` for a listing the patient saw when
  /// they looked at the phone.
  public var how: String
  /// The server's channel that reached the patient (`server:`); nil for the
  /// app's own notification on the phone.
  public var channel: DeliveryChannel?

  public init(notification: NotificationID, role: String?, kind: PerceptionRecord.Kind, how: String, channel: DeliveryChannel? = nil) {
    self.notification = notification
    self.role = role
    self.kind = kind
    self.how = how
    self.channel = channel
  }
}

/// Dose outcomes and pending-slot accounting for a run.
public struct RunSummary: Sendable {
  /// The most requests pending at once, and the first instant that count was reached.
  public var pendingPeak = 0
  public var pendingPeakAt: SimulationInstant?
  /// Requests the pending limit dropped, in the order it dropped them.
  public var droppedByPendingLimit: [(id: NotificationID, at: SimulationInstant)] = []
  /// The same drops in runs of one instant, counted by kind and medicine (the text summary's lines).
  public var pendingLimitDropGroups: [PendingLimitDropGroup] = []
  /// Every dose, ordered by medicine (creation order), then due instant, then reminder.
  public var doses: [DoseRecord] = []
  /// The run's clock, for printing instants in the device zone in force.
  public var clock: ClockSettings?
  /// The track's first fix, where the device's position becomes known.
  public var firstFixAt: SimulationInstant?
  /// The regions the device was inside at the first fix: it was in them
  /// until their first `exit`, though the timeline records no `enter`.
  public var regionsInsideAtFirstFix: [RegionID] = []
  /// What the track does not cover of the clock (the timeline's `warning track` entries).
  public var coverageWarnings: [String] = []
  /// Every attempt of the app's reminder server (`server:`), in the order made.
  public var channelAttempts: [ChannelAttempt] = []
  /// What the patient could perceive, in the order it became perceivable.
  public var perceptions: [PerceptionRecord] = []
  /// Whether `text` lists every dropped request after the drop groups (`run --summary --all-drops`).
  public var listsEveryDrop = false
  /// The app's badge after each instant it changed (starts at 0).
  public var badgeHistory: [(instant: SimulationInstant, value: Int)] = []
  /// The number of doses with a notification in Notification Center after
  /// each instant it changed (starts at 0).
  public var waitingDosesHistory: [(instant: SimulationInstant, count: Int)] = []
  /// The registry settings the run consulted (a decision their reading
  /// could change, the scenario not stating them), in registry order.
  public var consultedAssumptions: [AssumptionID] = []

  public init() {}
}

/// One notification (local or push) becoming perceivable, or delivered quietly.
public struct PerceptionRecord: Sendable, Equatable {
  public enum Kind: String, Sendable {
    /// An alert: banner and/or lock screen, now.
    case alert
    /// On the lock screen when the Focus that silenced it ended.
    case afterFocus = "after-focus"
    /// In a Scheduled Summary.
    case summary
    /// In Notification Center only: no alert.
    case quiet
    /// Listed without sound when the phone came on, after coming due while it was off.
    case catchUp = "catch-up"
  }

  /// The notification identifier or push identifier.
  public var subject: String
  public var instant: SimulationInstant
  public var utcOffsetSeconds: Int
  public var kind: Kind
  /// With a sound.
  public var audible: Bool
  /// The push's type, for pushes that have one.
  public var pushType: String?
  /// The app's own toggle for `pushType` was off at `instant`.
  public var pushTypeOff: Bool
  /// Seen at a look at the phone (a listing seen then), not when it was listed.
  public var byLook: Bool

  public init(
    subject: String, instant: SimulationInstant, utcOffsetSeconds: Int, kind: Kind, audible: Bool, pushType: String? = nil,
    pushTypeOff: Bool = false, byLook: Bool = false
  ) {
    self.subject = subject
    self.instant = instant
    self.utcOffsetSeconds = utcOffsetSeconds
    self.kind = kind
    self.audible = audible
    self.pushType = pushType
    self.pushTypeOff = pushTypeOff
    self.byLook = byLook
  }

  /// The patient perceived it: an alert, or a listing seen at a look (a
  /// listing itself draws no eye).
  public var isPerceptible: Bool { kind == .alert || byLook }
}

/// A timeline and its summary.
public struct SimulationReport: Sendable {
  public var timeline: Timeline
  public var summary: RunSummary
}
