import Foundation

/// An instant as a dose table writes it: the instant and the device's UTC
/// offset in force at it (`2026-05-05T07:30:00.000+02:00`).
public struct ZonedInstant: Hashable, Sendable, CustomStringConvertible {
  public var instant: SimulationInstant
  public var utcOffsetSeconds: Int

  public init(_ instant: SimulationInstant, utcOffsetSeconds: Int) {
    self.instant = instant
    self.utcOffsetSeconds = utcOffsetSeconds
  }

  /// `2026-05-05T07:30:00.000+02:00`.
  public var description: String { InstantFormatter.format(instant, offsetSeconds: utcOffsetSeconds) }

  /// The local calendar date, `2026-05-05`.
  public var localDate: String { local.date }

  /// The local time of day, as short as it reads exactly: `07:30`,
  /// `07:30:05`, `07:30:05.250`.
  public var localTime: String { local.time }

  /// `localDate` and `localTime` from one formatting of the instant.
  public var local: (date: String, time: String) {
    let text = description
    let time = text.dropFirst(11).prefix(12)  // HH:mm:ss.SSS
    let short = time.hasSuffix(":00.000") ? time.prefix(5) : time.hasSuffix(".000") ? time.prefix(8) : time
    return (String(text.prefix(10)), String(short))
  }
}

/// A run's dose outcomes as a regression baseline keeps them (the `.doses`
/// file beside an expected timeline): the pending-slot accounting, then each
/// prescribed dose with what became of it, when and how the patient could
/// first perceive it, and why. Every instant is whole, every text full (the
/// `run --summary` table shortens both for reading).
public struct DoseBaseline: Sendable, Equatable {
  public var pendingPeak = 0
  public var pendingPeakAt: ZonedInstant?
  public var droppedByPendingLimit = 0
  public var doses: [Dose] = []

  public init() {}

  /// One dose's line.
  public struct Dose: Sendable, Equatable {
    public var medicine: MedicineID
    /// `07:00`, or a location reminder's `home on=enter`.
    public var reminder: String
    /// `2026-05-05` (a daily time's local day, `+1` for its second occurrence
    /// that day) or `#2` (a location reminder's second crossing).
    public var occurrence: String
    public var outcome: DoseOutcome
    public var scheduled: ZonedInstant
    /// When the patient could first perceive it (the summary's `notified`).
    public var perceived: ZonedInstant?
    /// `alert`, `after-focus`, `summary` (`PerceptionRecord.Kind`).
    public var kind: String?
    /// The presented how: `banner+lock-screen+sound`, `lock-screen`, ….
    public var how: String?
    /// The notification the patient could perceive.
    public var by: String?
    /// What it was to the dose: `daily reminder`, `follow-up 3`, ….
    public var role: String?
    /// The reminder server's channel that reached the patient first (`push`,
    /// `sms`, `email`, `inbox`); absent for the app's own notification.
    public var channel: String?
    public var reminderDelivered: ZonedInstant?
    public var followUps = 0
    public var chainRanOut = false
    public var snoozedAlerts = 0
    public var snoozes = 0
    public var completed: ZonedInstant?
    public var dismissed: ZonedInstant?
    public var reason: String?
    public var notes: [String] = []

    public init(medicine: MedicineID, reminder: String, occurrence: String, outcome: DoseOutcome, scheduled: ZonedInstant) {
      self.medicine = medicine
      self.reminder = reminder
      self.occurrence = occurrence
      self.outcome = outcome
      self.scheduled = scheduled
    }

    /// `levo 07:00 2026-05-05`: which dose, as a reader names it.
    public var name: String { "\(medicine.rawValue) \(occurrence) \(reminder)" }
  }

  /// The file's first line.
  public static let formatLine = "# trigsim doses 1"

  /// The field keys of a dose line, in the order written.
  public static let fieldKeys = [
    "medicine", "reminder", "occurrence", "outcome", "scheduled", "perceived", "kind", "how", "by", "role", "channel", "reminder-delivered",
    "follow-ups", "chain", "snoozed-alerts", "snoozes", "completed", "dismissed", "reason", "note",
  ]

  /// The canonical text: the format line, `# pending peak: N[ at INSTANT]`,
  /// `# dropped by the pending limit: N`, then one line per dose of
  /// `key=value` fields (values quoted as in a timeline). Absent instants and
  /// zero counts are left out; `note` repeats, one per remark.
  public var canonicalText: String {
    var text = Self.formatLine + "\n"
    text += "# pending peak: \(pendingPeak)" + (pendingPeakAt.map { " at \($0)" } ?? "") + "\n"
    text += "# dropped by the pending limit: \(droppedByPendingLimit)\n"
    for dose in doses { text += dose.line + "\n" }
    return text
  }
}

extension DoseBaseline.Dose {
  /// The dose's line of `key=value` fields.
  var line: String {
    var fields: [(String, String)] = [
      ("medicine", medicine.rawValue), ("reminder", reminder), ("occurrence", occurrence), ("outcome", outcome.rawValue),
      ("scheduled", scheduled.description),
    ]
    func add(_ key: String, _ value: String?) { if let value { fields.append((key, value)) } }
    func add(_ key: String, _ count: Int) { if count != 0 { fields.append((key, String(count))) } }
    add("perceived", perceived?.description)
    add("kind", kind)
    add("how", how)
    add("by", by)
    add("role", role)
    add("channel", channel)
    add("reminder-delivered", reminderDelivered?.description)
    add("follow-ups", followUps)
    add("chain", chainRanOut ? "ran-out" : nil)
    add("snoozed-alerts", snoozedAlerts)
    add("snoozes", snoozes)
    add("completed", completed?.description)
    add("dismissed", dismissed?.description)
    add("reason", reason)
    for note in notes { fields.append(("note", note)) }
    return fields.map { "\($0.0)=\(TimelineEntry.quoteIfNeeded($0.1))" }.joined(separator: " ")
  }
}

extension RunSummary {
  /// The instant with the device's offset in force at it (UTC without a clock).
  func zoned(_ instant: SimulationInstant) -> ZonedInstant {
    ZonedInstant(instant, utcOffsetSeconds: clock?.utcOffset(at: instant) ?? 0)
  }

  /// The run's doses as a regression baseline keeps them.
  public var doseBaseline: DoseBaseline {
    var baseline = DoseBaseline()
    baseline.pendingPeak = pendingPeak
    baseline.pendingPeakAt = pendingPeakAt.map(zoned)
    baseline.droppedByPendingLimit = droppedByPendingLimit.count
    baseline.doses = doses.map { record in
      var dose = DoseBaseline.Dose(
        medicine: record.key.medicine, reminder: record.reminder, occurrence: record.key.occurrenceLabel, outcome: record.outcome,
        scheduled: zoned(record.scheduled))
      dose.perceived = record.notified.map(zoned)
      dose.kind = record.perception?.kind.rawValue
      dose.how = record.perception?.how
      dose.by = record.perception?.notification.rawValue
      dose.role = record.perception?.role
      dose.channel = record.perception?.channel?.rawValue
      dose.reminderDelivered = record.reminderDelivered.map(zoned)
      dose.followUps = record.followUpsDelivered
      dose.chainRanOut = record.chainRanOut
      dose.snoozedAlerts = record.snoozedAlertsDelivered
      dose.snoozes = record.snoozes
      dose.completed = record.completed.map(zoned)
      dose.dismissed = record.dismissed.map(zoned)
      dose.reason = record.reason
      dose.notes = record.notes
      return dose
    }
    return baseline
  }
}
