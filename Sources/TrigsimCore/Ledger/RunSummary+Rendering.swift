import Foundation

extension RunSummary {
  /// The device-local form of an instant, with the zone in force at it.
  func local(_ instant: SimulationInstant?) -> String {
    guard let instant else { return "-" }
    guard let clock else { return InstantFormatter.format(instant, offsetSeconds: 0) }
    return clock.local(instant)
  }

  /// The dose's reason and notes in one cell.
  public static func remarks(_ dose: DoseRecord) -> String {
    var parts: [String] = []
    if let reason = dose.reason { parts.append(dose.notified == nil ? reason : "reminder not delivered: \(reason)") }
    parts += dose.notes
    return parts.joined(separator: "; ")
  }

  /// The dose table's columns, in every rendering of it (text, the HTML report).
  public static let doseColumns = ["medicine", "name", "reminder", "day", "outcome", "scheduled", "notified", "follow-ups", "snoozes", "resolved", "remarks"]

  /// One dose's row of the table, `doseColumns` in order; instants device-local, `-` when absent.
  public func doseCells(_ dose: DoseRecord) -> [String] {
    [
      dose.key.medicine.rawValue, ControlCharacterEscape.escaping(dose.medicineName), dose.reminder, dose.key.occurrenceLabel, dose.outcome.rawValue,
      local(dose.scheduled), local(dose.notified), String(dose.followUpsDelivered), String(dose.snoozes), local(dose.resolved),
      Self.remarks(dose),
    ]
  }

  /// The summary as text, for `trigsim run --summary`: the pending-slot
  /// accounting as `#` lines, then one aligned row per dose.
  public var text: String {
    var text = "# summary\n"
    text += "# pending peak: \(pendingPeak)" + (pendingPeakAt.map { " at \(local($0))" } ?? "") + "\n"
    if droppedByPendingLimit.isEmpty {
      text += "# dropped by the pending limit: none\n"
    } else {
      text += "# dropped by the pending limit: \(droppedByPendingLimit.count) (each one: --format json, summary.pending.droppedByLimit)\n"
      for group in pendingLimitDropGroups { text += "#   \(local(group.at)) \(group.description)\n" }
    }
    guard !doses.isEmpty else { return text + "# doses: none\n" }
    let header = Self.doseColumns
    var rows = [header]
    for dose in doses { rows.append(doseCells(dose)) }
    var widths = Array(repeating: 0, count: header.count)
    for row in rows { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) } }
    for row in rows {
      var line = ""
      for (index, cell) in row.enumerated() {
        if index == row.count - 1 { line += cell } else { line += cell.padding(toLength: widths[index] + 2, withPad: " ", startingAt: 0) }
      }
      while line.hasSuffix(" ") { line.removeLast() }
      text += line + "\n"
    }
    return text
  }

  /// The summary as a JSON object with a fixed key order.
  public var json: String {
    func instant(_ value: SimulationInstant?) -> String { value.map { JSONText.string(local($0)) } ?? "null" }
    var text = "{\n    \"pending\": {\"peak\": \(pendingPeak), \"peakAt\": \(instant(pendingPeakAt)), \"droppedByLimit\": ["
    text += droppedByPendingLimit.map { "{\"id\": \(JSONText.string($0.id.rawValue)), \"at\": \(instant($0.at))}" }.joined(separator: ", ")
    text += "]},\n    \"doses\": ["
    for (index, dose) in doses.enumerated() {
      let members: [(String, String)] = [
        ("medicine", JSONText.string(dose.key.medicine.rawValue)), ("name", JSONText.string(dose.medicineName)),
        ("reminder", JSONText.string(dose.reminder)), ("occurrence", JSONText.string(dose.key.occurrenceLabel)),
        ("outcome", JSONText.string(dose.outcome.rawValue)), ("scheduled", instant(dose.scheduled)),
        ("notified", instant(dose.notified)), ("perceived", dose.perception.map(Self.json) ?? "null"),
        ("reminderDelivered", instant(dose.reminderDelivered)),
        ("followUpsDelivered", String(dose.followUpsDelivered)), ("snoozedAlertsDelivered", String(dose.snoozedAlertsDelivered)),
        ("snoozes", String(dose.snoozes)), ("completed", instant(dose.completed)), ("dismissed", instant(dose.dismissed)),
        ("reason", dose.reason.map(JSONText.string) ?? "null"),
        ("notes", "[" + dose.notes.map(JSONText.string).joined(separator: ", ") + "]"),
      ]
      text += (index == 0 ? "\n      " : ",\n      ") + "{" + members.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
    }
    text += doses.isEmpty ? "]\n  }" : "\n    ]\n  }"
    return text
  }
}

extension RunSummary {
  /// `{"by": …, "role": …, "kind": …, "how": …}`: how the patient could first perceive a dose.
  static func json(_ perception: DosePerception) -> String {
    "{\"by\": \(JSONText.string(perception.notification.rawValue)), \"role\": \(perception.role.map(JSONText.string) ?? "null"), "
      + "\"kind\": \(JSONText.string(perception.kind.rawValue)), \"how\": \(JSONText.string(perception.how))}"
  }
}

extension SimulationReport {
  /// The timeline's JSON document with the summary as its `summary` member.
  public var json: String { TimelineEncoding.json.document(timeline, summary: summary) }
}
