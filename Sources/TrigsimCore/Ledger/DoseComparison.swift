import Foundation

/// How a run's doses differ from a baseline's, dose by dose, in the words a
/// reviewer uses: `levo 2026-05-05 07:00 → 08:00: notified 07:30 lock screen
/// → 08:00 alert`.
///
/// **Pairing.** A dose is the same dose when its medicine, occurrence (local
/// day, or location crossing `#n`) and reminder agree. What is left over on
/// both sides for the same medicine and occurrence is paired in order as a
/// *moved* dose (its reminder changed, `07:00 → 08:00`); what is still left is
/// a dose only the baseline has, or only the run.
///
/// **What is a change**, in the order a change's line names it: the outcome;
/// when and how the patient could first perceive the dose; which notification
/// did it; the reason; then (`also`) when it was scheduled, resolved, its
/// reminder delivered, its follow-ups, snoozes and remarks. Instants within
/// `tolerance` of each other are the same (the UTC offset must agree).
///
/// **Naming.** A dose is named by its medicine's name (from `medicineNames`),
/// then its occurrence and reminder: `Levothyroxine 2026-05-06 13:00`. Where
/// two medicines share a name, the identifier follows it in parentheses
/// (`Levothyroxine (2) 2026-05-06 13:00`); a medicine whose name is not known
/// (only the baseline has it) is named by its identifier.
///
/// **Better or worse.** A dose both sides have whose outcome or perception
/// changed says whether the change is better or worse for the patient
/// (`Verdict`, `verdict(from:to:)`).
public struct DoseComparison: Sendable {
  public let expected: DoseBaseline
  public let actual: DoseBaseline
  public let tolerance: SimulationDuration
  /// Each medicine's name, by identifier (the run's dose table has them; the
  /// `.doses` baseline keeps identifiers only).
  public let medicineNames: [MedicineID: String]
  /// The pending-slot accounting's changes: `pending peak 12 at 07:00 → 64 at 06:00`.
  public private(set) var headerChanges: [String] = []
  /// The changed doses, ordered by medicine (as the tables order them), then scheduled instant.
  public private(set) var changes: [Change] = []

  /// One dose that differs.
  public struct Change: Sendable, Equatable {
    /// The baseline's dose and its index in `expected.doses` (nil: only the run has it).
    public var expectedIndex: Int?
    /// The run's dose and its index in `actual.doses` (nil: only the baseline has it).
    public var actualIndex: Int?
    /// `Levothyroxine 2026-05-05 07:00 (worse for the patient): notified 07:30 lock screen → never notified`.
    public var description: String
    /// Whether the change is better or worse for the patient; nil for a dose
    /// only one side has, or one whose outcome and perception did not change.
    public var verdict: Verdict?
  }

  /// How a changed dose fares for the patient, by the order of outcomes
  /// `verdict(from:to:)` defines.
  public enum Verdict: String, Sendable, Equatable {
    case better, worse
    /// The outcome or perception changed, to one as good (another alert at the same time).
    case same

    /// `worse for the patient`, as a change's line says it.
    public var phrase: String {
      switch self {
      case .better: "better for the patient"
      case .worse: "worse for the patient"
      case .same: "as good for the patient"
      }
    }
  }

  public init(
    expected: DoseBaseline, actual: DoseBaseline, tolerance: SimulationDuration = .zero, medicineNames: [MedicineID: String] = [:]
  ) {
    self.expected = expected
    self.actual = actual
    self.tolerance = tolerance
    self.medicineNames = medicineNames
    compareHeader()
    compareDoses()
  }

  /// `Levothyroxine`, `Levothyroxine (2)` where another medicine has the same
  /// name, or the identifier when the name is not known.
  public func medicineLabel(_ medicine: MedicineID) -> String {
    guard let name = medicineNames[medicine], !name.isEmpty else { return medicine.rawValue }
    let escaped = ControlCharacterEscape.escaping(name)
    return medicineNames.values.count(where: { $0 == name }) > 1 ? "\(escaped) (\(medicine.rawValue))" : escaped
  }

  /// `Levothyroxine 2026-05-05 07:00`: which dose, as a reader names it.
  func label(of dose: DoseBaseline.Dose) -> String {
    "\(medicineLabel(dose.medicine)) \(dose.occurrence) \(dose.reminder)"
  }

  /// Whether `new` is better or worse for the patient than `old` (the same
  /// dose), by this order, the first difference deciding:
  /// 1. **The outcome.** For a dose of a visit the scenario expects silent,
  ///    `silent` is better than any notification. Otherwise a dose the
  ///    patient took (`completed`) is better than one notified and not taken
  ///    (`dismissed` or `unanswered`, which rank the same), and either is
  ///    better than one never notified (`missed`).
  /// 2. **When it was perceived**, when both were: nearer to the dose's time
  ///    is better, so a later notification is worse.
  /// 3. **How it was perceived**: an alert with a sound is better than a
  ///    silent alert, which is better than anything without an alert (the
  ///    lock screen after a Focus, a summary, Notification Center, a catch-up).
  ///
  /// Otherwise the change is as good for the patient (`same`).
  public static func verdict(from old: DoseBaseline.Dose, to new: DoseBaseline.Dose) -> Verdict {
    func compare<T: Comparable>(_ a: T, _ b: T) -> Verdict? { a == b ? nil : (b > a ? .better : .worse) }
    if old.outcome == .silent || new.outcome == .silent {
      if let outcome = compare(old.outcome == .silent ? 1 : 0, new.outcome == .silent ? 1 : 0) { return outcome }
    } else if let outcome = compare(outcomeRank(old.outcome), outcomeRank(new.outcome)) {
      return outcome
    }
    if let oldAt = old.perceived, let newAt = new.perceived {
      // Distance from the dose's time: smaller is better, so compare negated.
      let oldDistance = abs(oldAt.instant.millisecondsSinceEpoch - old.scheduled.instant.millisecondsSinceEpoch)
      let newDistance = abs(newAt.instant.millisecondsSinceEpoch - new.scheduled.instant.millisecondsSinceEpoch)
      if let timing = compare(-oldDistance, -newDistance) { return timing }
      if let how = compare(perceptionRank(old), perceptionRank(new)) { return how }
    }
    return .same
  }

  /// `completed` 2, `dismissed` and `unanswered` 1, `missed` 0 (`silent` is ranked apart).
  static func outcomeRank(_ outcome: DoseOutcome) -> Int {
    switch outcome {
    case .completed: 2
    case .dismissed, .unanswered: 1
    case .missed, .silent: 0
    }
  }

  /// An alert with a sound 2, a silent alert 1, anything else 0.
  static func perceptionRank(_ dose: DoseBaseline.Dose) -> Int {
    switch words(dose) {
    case "alert": 2
    case "silent alert": 1
    default: 0
    }
  }

  public var matches: Bool { headerChanges.isEmpty && changes.isEmpty }

  /// `2 of 4 doses changed (1 worse, 1 better for the patient)`, `1 dose gone, 1 new dose`, `pending peak changed`.
  public var summaryLine: String {
    let changed = changes.count { $0.expectedIndex != nil && $0.actualIndex != nil }
    let gone = changes.count { $0.actualIndex == nil }
    let new = changes.count { $0.expectedIndex == nil }
    var parts: [String] = []
    if changed > 0 {
      let worse = changes.count { $0.verdict == .worse }
      let better = changes.count { $0.verdict == .better }
      var verdicts: [String] = []
      if worse > 0 { verdicts.append("\(worse) worse") }
      if better > 0 { verdicts.append("\(better) better") }
      let counted = verdicts.isEmpty ? "" : " (\(verdicts.joined(separator: ", ")) for the patient)"
      parts.append("\(changed) of \(expected.doses.count) dose\(expected.doses.count == 1 ? "" : "s") changed\(counted)")
    }
    if gone > 0 { parts.append("\(gone) dose\(gone == 1 ? "" : "s") gone") }
    if new > 0 { parts.append("\(new) new dose\(new == 1 ? "" : "s")") }
    if !headerChanges.isEmpty { parts.append(headerChanges.joined(separator: ", ")) }
    return parts.joined(separator: ", ")
  }

  /// The report: a line naming the file and the counts, the header's changes,
  /// then each changed dose with where the baseline has it (`file:line`).
  /// At most `limit` doses are listed; the count of the rest follows.
  public func report(expectedName: String, expectedLines: [Int]? = nil, limit: Int = .max) -> String {
    guard !matches else { return "" }
    var text = "doses differ from \(expectedName): \(summaryLine)\n"
    for line in lines(expectedName: expectedName, expectedLines: expectedLines, limit: limit) { text += "  \(line)\n" }
    return text
  }

  /// The report's lines after its first: the header's changes, then each
  /// changed dose with where the baseline has it (`file:line`), at most
  /// `limit` of them and then the count of the rest.
  public func lines(expectedName: String, expectedLines: [Int]? = nil, limit: Int = .max) -> [String] {
    var lines = headerChanges
    for change in changes.prefix(limit) {
      var line = change.description
      if let index = change.expectedIndex { line += " (\(expectedName):\(expectedLines.flatMap { index < $0.count ? $0[index] : nil } ?? index + 4))" }
      lines.append(line)
    }
    if changes.count > limit { lines.append("... and \(changes.count - limit) more changed doses") }
    return lines
  }

  private mutating func compareHeader() {
    let peakMoved =
      expected.pendingPeak != actual.pendingPeak || expected.pendingPeakAt?.utcOffsetSeconds != actual.pendingPeakAt?.utcOffsetSeconds
      || !same(expected.pendingPeakAt?.instant, actual.pendingPeakAt?.instant)
    if peakMoved {
      func peak(_ count: Int, _ at: ZonedInstant?) -> String { "\(count)" + (at.map { " at \($0.localDate) \($0.localTime)" } ?? "") }
      headerChanges.append("pending peak \(peak(expected.pendingPeak, expected.pendingPeakAt)) → \(peak(actual.pendingPeak, actual.pendingPeakAt))")
    }
    if expected.droppedByPendingLimit != actual.droppedByPendingLimit {
      headerChanges.append("dropped by the pending limit \(expected.droppedByPendingLimit) → \(actual.droppedByPendingLimit)")
    }
  }

  private mutating func compareDoses() {
    struct Key: Hashable {
      var medicine: MedicineID
      var occurrence: String
      var reminder: String
    }
    // Same dose: same medicine, occurrence and reminder (first unpaired, in order).
    var unpairedExpected: [Key: [Int]] = [:]
    for (index, dose) in expected.doses.enumerated() {
      unpairedExpected[Key(medicine: dose.medicine, occurrence: dose.occurrence, reminder: dose.reminder), default: []].append(index)
    }
    var pairs: [(expected: Int?, actual: Int?)] = []
    var leftoverActual: [Int] = []
    for (index, dose) in actual.doses.enumerated() {
      let key = Key(medicine: dose.medicine, occurrence: dose.occurrence, reminder: dose.reminder)
      if var indices = unpairedExpected[key], !indices.isEmpty {
        pairs.append((indices.removeFirst(), index))
        unpairedExpected[key] = indices
      } else {
        leftoverActual.append(index)
      }
    }
    let leftoverExpected = unpairedExpected.values.flatMap { $0 }.sorted()
    // Moved: what is left of one medicine's occurrence on both sides, in order.
    struct Occurrence: Hashable {
      var medicine: MedicineID
      var occurrence: String
    }
    var movable: [Occurrence: [Int]] = [:]
    for index in leftoverExpected {
      movable[Occurrence(medicine: expected.doses[index].medicine, occurrence: expected.doses[index].occurrence), default: []].append(index)
    }
    for index in leftoverActual {
      let occurrence = Occurrence(medicine: actual.doses[index].medicine, occurrence: actual.doses[index].occurrence)
      if var indices = movable[occurrence], !indices.isEmpty {
        pairs.append((indices.removeFirst(), index))
        movable[occurrence] = indices
      } else {
        pairs.append((nil, index))
      }
    }
    for index in movable.values.flatMap({ $0 }).sorted() { pairs.append((index, nil)) }

    // The order of the tables: medicine (first seen in the run, then the baseline), then scheduled instant.
    var medicineRank: [MedicineID: Int] = [:]
    for dose in actual.doses + expected.doses where medicineRank[dose.medicine] == nil { medicineRank[dose.medicine] = medicineRank.count }
    func sortKey(_ pair: (expected: Int?, actual: Int?)) -> (Int, Int64, Int, Int) {
      let dose = pair.actual.map { actual.doses[$0] } ?? expected.doses[pair.expected!]
      return (medicineRank[dose.medicine]!, dose.scheduled.instant.millisecondsSinceEpoch, pair.actual ?? .max, pair.expected ?? .max)
    }
    for pair in pairs.sorted(by: { sortKey($0) < sortKey($1) }) {
      let description: (text: String, verdict: Verdict?)?
      switch (pair.expected.map { expected.doses[$0] }, pair.actual.map { actual.doses[$0] }) {
      case (let old?, let new?): description = changeLine(old, new)
      case (let old?, nil): description = ("\(label(of: old)): only in the baseline (\(Self.state(old))); not in this run", nil)
      case (nil, let new?): description = ("\(label(of: new)): new in this run (\(Self.state(new)))", nil)
      case (nil, nil): description = nil
      }
      if let description {
        changes.append(Change(expectedIndex: pair.expected, actualIndex: pair.actual, description: description.text, verdict: description.verdict))
      }
    }
  }

  /// Whether two optional instants are the same within the tolerance.
  private func same(_ a: SimulationInstant?, _ b: SimulationInstant?) -> Bool {
    switch (a, b) {
    case (nil, nil): true
    case (let a?, let b?): abs(a.millisecondsSinceEpoch - b.millisecondsSinceEpoch) <= tolerance.milliseconds
    default: false
    }
  }

  private func same(_ a: ZonedInstant?, _ b: ZonedInstant?) -> Bool {
    same(a?.instant, b?.instant) && a?.utcOffsetSeconds == b?.utcOffsetSeconds
  }

  /// The change line of a dose both sides have and its verdict (when its
  /// outcome or perception changed), or nil when it did not change.
  private func changeLine(_ old: DoseBaseline.Dose, _ new: DoseBaseline.Dose) -> (String, Verdict?)? {
    var main: [String] = []
    var also: [String] = []
    if old.outcome != new.outcome { main.append("\(old.outcome.rawValue) → \(new.outcome.rawValue)") }
    let perceptionChanged = !same(old.perceived, new.perceived) || old.kind != new.kind || old.how != new.how
    if perceptionChanged {
      let (before, after) = Self.perceptions(old, new)
      main.append("\(before) → \(after)")
    }
    if old.perceived != nil, new.perceived != nil, old.by != new.by || old.role != new.role || old.channel != new.channel {
      main.append("by \(Self.notification(old)) → \(Self.notification(new))")
    }
    if old.reason != new.reason { main.append("reason \(Self.quoted(old.reason)) → \(Self.quoted(new.reason))") }
    if old.reminder == new.reminder, !same(old.scheduled, new.scheduled) {
      also.append("scheduled \(Self.time(old.scheduled, on: old)) → \(Self.time(new.scheduled, on: new))")
    }
    if !same(old.completed, new.completed) { also.append("completed \(Self.time(old.completed, on: old)) → \(Self.time(new.completed, on: new))") }
    if !same(old.dismissed, new.dismissed) { also.append("dismissed \(Self.time(old.dismissed, on: old)) → \(Self.time(new.dismissed, on: new))") }
    if old.reminder == new.reminder, !same(old.reminderDelivered, new.reminderDelivered) {
      also.append("reminder delivered \(Self.time(old.reminderDelivered, on: old)) → \(Self.time(new.reminderDelivered, on: new))")
    }
    if old.followUps != new.followUps || old.chainRanOut != new.chainRanOut {
      func followUps(_ dose: DoseBaseline.Dose) -> String { "\(dose.followUps)" + (dose.chainRanOut ? " (chain ran out)" : "") }
      also.append("follow-ups \(followUps(old)) → \(followUps(new))")
    }
    if old.snoozes != new.snoozes { also.append("snoozes \(old.snoozes) → \(new.snoozes)") }
    if old.snoozedAlerts != new.snoozedAlerts { also.append("snoozed alerts \(old.snoozedAlerts) → \(new.snoozedAlerts)") }
    if old.notes != new.notes { also.append("remarks \(Self.remarks(old.notes)) → \(Self.remarks(new.notes))") }
    guard !main.isEmpty || !also.isEmpty || old.reminder != new.reminder else { return nil }
    var name = old.reminder == new.reminder ? label(of: new) : "\(medicineLabel(new.medicine)) \(new.occurrence) \(old.reminder) → \(new.reminder)"
    let verdict = old.outcome != new.outcome || perceptionChanged ? Self.verdict(from: old, to: new) : nil
    if let verdict { name += " (\(verdict.phrase))" }
    var parts = main
    if !also.isEmpty { parts.append((main.isEmpty ? "" : "also ") + also.joined(separator: ", ")) }
    return (parts.isEmpty ? name : "\(name): " + parts.joined(separator: "; "), verdict)
  }

  /// `notified 07:30 lock screen` / `08:00 alert`: the second side leaves out
  /// `notified` when both were notified, and the how is written in full when
  /// the short words of both sides are the same.
  static func perceptions(_ old: DoseBaseline.Dose, _ new: DoseBaseline.Dose) -> (String, String) {
    guard let oldAt = old.perceived, let newAt = new.perceived else { return (state(old, withOutcome: false), state(new, withOutcome: false)) }
    let full = words(old) == words(new) && old.how != new.how
    func phrase(_ dose: DoseBaseline.Dose, _ at: ZonedInstant) -> String { "\(time(at, on: dose)) \(full ? dose.how ?? "-" : words(dose))" }
    return ("notified " + phrase(old, oldAt), phrase(new, newAt))
  }

  /// `alert`, `silent alert`, `lock screen` (after a Focus), `summary`.
  static func words(_ dose: DoseBaseline.Dose) -> String {
    switch dose.kind {
    case "alert"?: (dose.how ?? "").split(separator: "+").contains("sound") ? "alert" : "silent alert"
    case "after-focus"?: "lock screen"
    case let kind?: kind
    case nil: "-"
    }
  }

  /// `notified 07:30 lock screen` or `never notified`, with the outcome first when `withOutcome`.
  static func state(_ dose: DoseBaseline.Dose, withOutcome: Bool = true) -> String {
    let perceived = dose.perceived.map { "notified \(time($0, on: dose)) \(words(dose))" } ?? "never notified"
    return withOutcome && dose.outcome != .missed ? "\(dose.outcome.rawValue), \(perceived)" : withOutcome ? "missed" : perceived
  }

  /// `medicine_levo_reminder_0 (daily reminder)`.
  static func notification(_ dose: DoseBaseline.Dose) -> String {
    (dose.by ?? "-") + (dose.role.map { " (\($0))" } ?? "") + (dose.channel.map { " by \($0)" } ?? "")
  }

  /// The local time when the instant falls on the dose's scheduled local
  /// date, else date and time, with the UTC offset when it is not the
  /// offset the dose was scheduled in (the phone changed zones between:
  /// `18:45+02:00`); `-` for none.
  static func time(_ instant: ZonedInstant?, on dose: DoseBaseline.Dose) -> String {
    guard let instant else { return "-" }
    return instant.doseTime(day: dose.scheduled.localDate, labelOffset: dose.scheduled.utcOffsetSeconds)
  }

  static func quoted(_ text: String?) -> String { text.map { "\"\($0)\"" } ?? "none" }

  static func remarks(_ notes: [String]) -> String { notes.isEmpty ? "none" : "\"" + notes.joined(separator: "; ") + "\"" }
}
