import Foundation

/// One scenario's doses on several phones side by side (`--platform
/// ios,android`, `platforms: [ios, android]`): one row per dose, a column per
/// platform, the doses whose fate differs between the platforms first, each
/// with one line that says how and why.
///
/// **The rule.** Doses are matched by their `DoseKey` (medicine, reminder,
/// day). A dose differs between the platforms when its outcome, the instant
/// the patient could first perceive it, or how they could perceive it is not
/// the same on every platform, or when one platform has no such dose. The
/// reason a difference line gives is each platform's own remarks (the
/// dose's reason and notes, as `RunSummary.displayRemarks` reads them) that
/// not every platform shares: the text the engine wrote for that dose, never
/// a guess made here.
///
/// Pure: the same runs give the same rows and the same bytes.
public struct PlatformComparison: Sendable {
  /// What one platform made of one dose.
  public struct Cell: Sendable, Equatable {
    public var outcome: DoseOutcome
    /// The local time the patient could first perceive it (`08:47`, with its
    /// date when not the dose's day); nil when it was never notified.
    public var notified: String?
    /// `notified` with how late it was, as the dose table writes it (`08:47 +47m`).
    public var notifiedWithLateness: String?
    /// How the patient could first perceive it (`banner+lock-screen+sound`).
    public var how: String?
    /// The dose's remarks for reading (`RunSummary.displayRemarks`).
    public var remarks: String
    /// The instant itself, for comparing.
    public var notifiedAt: SimulationInstant?
  }

  /// One dose across the platforms.
  public struct Row: Sendable, Equatable {
    public var key: DoseKey
    /// The medicine's name, control characters escaped.
    public var medicineName: String
    /// `08:00`, or the location reminder's `home on=enter`.
    public var reminder: String
    /// `2026-05-05`, or `#2` for a location occurrence.
    public var day: String
    /// The scheduled local time, as the dose table writes it.
    public var scheduled: String
    /// One cell per platform, in `PlatformComparison.platforms` order; nil: the platform has no such dose.
    public var cells: [Cell?]
    /// Whether the platforms disagree about this dose (see the type's rule).
    public var differs: Bool
    /// For a row that differs: `met 2026-05-05 08:00: notified 08:00 on ios, 08:47 on android: inexact alarm deferred by Doze`.
    public var difference: String?
  }

  /// The platforms compared, in the order given.
  public let platforms: [PlatformName]
  /// The differing rows first, then the others, each group in dose order
  /// (the first platform's doses in its order, then doses only later platforms have).
  public let rows: [Row]

  /// Compares the runs of one scenario on `runs`' platforms (each platform once).
  public init(_ runs: [(platform: PlatformName, summary: RunSummary)]) {
    platforms = runs.map(\.platform)
    var keys: [DoseKey] = []
    var seen: Set<DoseKey> = []
    for run in runs {
      for dose in run.summary.doses where seen.insert(dose.key).inserted { keys.append(dose.key) }
    }
    let byKey: [[DoseKey: DoseRecord]] = runs.map { run in
      Dictionary(run.summary.doses.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
    }
    var differing: [Row] = []
    var same: [Row] = []
    for key in keys {
      let row = Self.row(key, runs: runs, byKey: byKey)
      if row.differs { differing.append(row) } else { same.append(row) }
    }
    rows = differing + same
  }

  /// The rows whose doses differ between the platforms.
  public var differences: [Row] { rows.filter(\.differs) }

  private static func row(_ key: DoseKey, runs: [(platform: PlatformName, summary: RunSummary)], byKey: [[DoseKey: DoseRecord]]) -> Row {
    var cells: [Cell?] = []
    var described: (name: String, reminder: String, day: String, scheduled: String)?
    for (index, run) in runs.enumerated() {
      guard let dose = byKey[index][key] else {
        cells.append(nil)
        continue
      }
      let columns = run.summary.doseCells(dose)
      // doseColumns: medicine, name, reminder, day, outcome, scheduled, notified, follow-ups, snoozes, resolved, remarks.
      if described == nil { described = (columns[1], columns[2], columns[3], columns[5]) }
      let notifiedWithLateness = dose.notified == nil ? nil : columns[6]
      let notified = notifiedWithLateness.map { text in text.range(of: " +").map { String(text[..<$0.lowerBound]) } ?? text }
      cells.append(
        Cell(
          outcome: dose.outcome, notified: notified, notifiedWithLateness: notifiedWithLateness, how: dose.perception?.how,
          remarks: run.summary.displayRemarks(dose), notifiedAt: dose.notified))
    }
    let description = described ?? ("", "", key.occurrenceLabel, "")
    let first = cells[0]
    let differs = cells.contains { cell in
      guard let cell, let first else { return cell != nil || first != nil }
      return cell.outcome != first.outcome || cell.notifiedAt != first.notifiedAt || cell.how != first.how
    }
    var row = Row(
      key: key, medicineName: description.name, reminder: description.reminder, day: description.day, scheduled: description.scheduled,
      cells: cells, differs: differs)
    if differs { row.difference = differenceLine(row, platforms: runs.map(\.platform)) }
    return row
  }

  /// `met 2026-05-05 08:00: notified 08:00 on ios, 08:47 on android: inexact alarm deferred by Doze`.
  private static func differenceLine(_ row: Row, platforms: [PlatformName]) -> String {
    let present = row.cells.compactMap { $0 }
    let hows = Set(present.compactMap(\.how))
    let outcomes = Set(present.map(\.outcome))
    let showsHow = hows.count > 1
    // Whether "notified" alone tells the outcomes apart: it does when each outcome is notified or not.
    let showsOutcome = outcomes.count > 1 && !(outcomes.count == 2 && outcomes.contains(.missed) && present.allSatisfy { $0.notified != nil || $0.outcome == .missed })
    func phrase(_ cell: Cell?) -> String {
      guard let cell else { return "no such dose" }
      guard let notified = cell.notified else { return cell.outcome.rawValue }
      // What else tells the platforms apart, in brackets: `notified 08:00 (lock-screen, unanswered)`.
      var extras: [String] = []
      if showsHow, let how = cell.how { extras.append(how) }
      if showsOutcome { extras.append(cell.outcome.rawValue) }
      return "notified \(notified)" + (extras.isEmpty ? "" : " (\(extras.joined(separator: ", ")))")
    }
    // Platforms with the same phrase are named together, in platform order.
    var groups: [(phrase: String, platforms: [PlatformName])] = []
    for (index, cell) in row.cells.enumerated() {
      let text = phrase(cell)
      if let at = groups.firstIndex(where: { $0.phrase == text }) { groups[at].platforms.append(platforms[index]) } else { groups.append((text, [platforms[index]])) }
    }
    var parts: [String] = []
    for (index, group) in groups.enumerated() {
      var text = group.phrase
      // "notified 08:00 on ios, 08:47 on android": the verb once.
      if index > 0, text.hasPrefix("notified "), groups[index - 1].phrase.hasPrefix("notified ") { text.removeFirst("notified ".count) }
      parts.append("\(text) on \(group.platforms.map(\.rawValue).joined(separator: " and "))")
    }
    // The reasons: each platform's remarks that not every platform shares.
    let remarks = row.cells.map { $0?.remarks ?? "" }
    let reasons = remarks.enumerated().compactMap { index, text -> (PlatformName, String)? in
      guard !text.isEmpty, remarks.contains(where: { $0 != text }) else { return nil }
      return (platforms[index], text)
    }
    var line = "\(row.key.medicine.rawValue) \(row.day) \(row.scheduled): " + parts.joined(separator: ", ")
    if reasons.count == 1 {
      line += ": \(reasons[0].1)"
    } else if !reasons.isEmpty {
      line += ": " + reasons.map { "\($0.1) (\($0.0.rawValue))" }.joined(separator: "; ")
    }
    return line
  }

  /// The side-by-side table as text (`run --platform ios,android`, the
  /// `.platforms` baseline): `#` lines naming the platforms, counting the
  /// differing doses and giving each difference's line, then one aligned row
  /// per dose (differences first, marked `*`), a column per platform with
  /// the outcome and when it was notified (`completed 08:47 +47m`).
  public var text: String {
    var text = "# platforms: \(platforms.map(\.rawValue).joined(separator: ", "))\n"
    guard !rows.isEmpty else { return text + "# doses: none\n" }
    let differing = differences
    text += "# doses: \(rows.count), differing between the platforms: \(differing.isEmpty ? "none" : String(differing.count))\n"
    for row in differing { text += "# \(row.difference ?? "")\n" }
    var table = [[" ", "medicine", "name", "reminder", "day", "scheduled"] + platforms.map(\.rawValue)]
    for row in rows {
      let cells = row.cells.map { cell -> String in
        guard let cell else { return "-" }
        return cell.outcome.rawValue + (cell.notifiedWithLateness.map { " \($0)" } ?? "")
      }
      table.append(
        [row.differs ? "*" : " ", row.key.medicine.rawValue, RunSummary.bounded(row.medicineName, RunSummary.textNameWidth), row.reminder, row.day, row.scheduled]
          + cells)
    }
    var widths = Array(repeating: 0, count: table[0].count)
    for line in table { for (index, cell) in line.enumerated() { widths[index] = max(widths[index], cell.count) } }
    for line in table {
      var out = ""
      for (index, cell) in line.enumerated() {
        out += cell
        if index < line.count - 1 { out += String(repeating: " ", count: widths[index] + 2 - cell.count) }
      }
      while out.hasSuffix(" ") { out.removeLast() }
      text += out + "\n"
    }
    return text
  }
}
