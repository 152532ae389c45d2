import Foundation

extension RunSummary {
  /// The device-local form of an instant, with the zone in force at it.
  public func local(_ instant: SimulationInstant?) -> String {
    guard let instant else { return "-" }
    guard let clock else { return InstantFormatter.format(instant, offsetSeconds: 0) }
    return clock.local(instant)
  }

  /// The dose's reason and notes in one cell, in full (as JSON and `.doses` keep them).
  public static func remarks(_ dose: DoseRecord) -> String {
    remarkList(dose).joined(separator: "; ")
  }

  /// The reason, then the notes. A notified dose's reason says how its
  /// reminder fared: delivered late (by how much, and why) when the
  /// reminder itself came after the dose's time; not delivered when
  /// something else (a follow-up, the server) notified the dose anyway.
  static func remarkList(_ dose: DoseRecord) -> [String] {
    var parts: [String] = []
    if let reason = dose.reason {
      if dose.notified == nil {
        parts.append(reason)
      } else if let delivered = dose.reminderDelivered, delivered > dose.scheduled {
        parts.append("reminder delivered \(dose.scheduled.duration(to: delivered)) late: \(reason)")
      } else {
        parts.append("reminder not delivered: \(reason)")
      }
    }
    return parts + dose.notes
  }

  /// The dose's remarks for reading: each instant in them as a local time
  /// (with its date when it is not the dose's scheduled date, and its UTC
  /// offset when it is not the offset of the zone the dose is labelled in:
  /// see `DoseRecord.labelOffset(in:)`), and a run of remarks that differ
  /// only in their instant collapsed into one: `held by Focus 'Sleep' 5×
  /// 07:00–07:24`.
  public func displayRemarks(_ dose: DoseRecord) -> String {
    displayRemarks(dose, day: zoned(dose.scheduled).localDate)
  }

  /// `displayRemarks`, the dose's scheduled local date already known.
  func displayRemarks(_ dose: DoseRecord, day: String) -> String {
    let remarks = Self.remarkList(dose)
    if remarks.isEmpty { return "" }
    let labelOffset = InstantFormatter.offsetText(dose.labelOffset(in: clock))
    var collapsed: [(template: String, times: [String])] = []
    for remark in remarks {
      let (template, times) = Self.withoutInstants(remark, day: day, labelOffset: labelOffset)
      if times.count == 1, let last = collapsed.last, last.template == template, last.times.count >= 1 {
        collapsed[collapsed.count - 1].times += times
      } else {
        collapsed.append((template, times))
      }
    }
    return collapsed.map { run in
      // One remark (or one with several instants) is written out; a run of them gets its count and span.
      guard run.times.count > 1, run.template.components(separatedBy: Self.instantMark).count == 2 else {
        return Self.filling(run.template, with: run.times)
      }
      // `held by Focus 'Sleep' at ⟨⟩` → `held by Focus 'Sleep' 5× 07:00–07:24`.
      let span = "\(run.times.count)× \(run.times.first!)–\(run.times.last!)"
      if run.template.contains(" at \(Self.instantMark)") { return run.template.replacingOccurrences(of: "at \(Self.instantMark)", with: span) }
      return run.template.replacingOccurrences(of: Self.instantMark, with: span)
    }.joined(separator: "; ")
  }

  /// Where an instant stood in a remark's template.
  static let instantMark = "⟨⟩"

  /// The remark with each device-local instant (`2026-05-05T07:00:00.000+02:00`)
  /// replaced by `instantMark`, and those instants as local times (the date
  /// added when it is not `day`, the offset kept when it is not `labelOffset`, `+02:00`).
  static func withoutInstants(_ remark: String, day: String, labelOffset: String) -> (template: String, times: [String]) {
    let scalars = Array(remark.unicodeScalars)
    var template = String.UnicodeScalarView()
    var times: [String] = []
    var index = 0
    func digit(_ i: Int) -> Bool { i < scalars.count && ("0"..."9").contains(scalars[i]) }
    while index < scalars.count {
      // yyyy-MM-ddTHH:mm:ss.SSS±hh:mm (29 scalars); `Z` offsets are not written in remarks.
      if index + 29 <= scalars.count, digit(index), digit(index + 3), scalars[index + 4] == "-", scalars[index + 10] == "T",
        scalars[index + 13] == ":", scalars[index + 19] == ".", scalars[index + 23] == "+" || scalars[index + 23] == "-", scalars[index + 26] == ":"
      {
        var end = index + 29
        if end + 3 <= scalars.count, scalars[end] == ":", digit(end + 1), digit(end + 2) { end += 3 }  // ±hh:mm:ss
        let text = String(String.UnicodeScalarView(scalars[index..<end]))
        let date = String(text.prefix(10))
        var time = String(text.dropFirst(11).prefix(12))
        if time.hasSuffix(":00.000") { time = String(time.prefix(5)) } else if time.hasSuffix(".000") { time = String(time.prefix(8)) }
        let offset = String(text.dropFirst(23))
        if offset != labelOffset { time += offset }
        times.append(date == day ? time : "\(date) \(time)")
        template.append(contentsOf: instantMark.unicodeScalars)
        index = end
        continue
      }
      template.append(scalars[index])
      index += 1
    }
    return (String(template), times)
  }

  static func filling(_ template: String, with times: [String]) -> String {
    var result = template
    for time in times {
      guard let range = result.range(of: instantMark) else { break }
      result.replaceSubrange(range, with: time)
    }
    return result
  }

  /// The dose table's columns, in every rendering of it (text, the HTML report).
  public static let doseColumns = ["medicine", "name", "reminder", "day", "outcome", "scheduled", "notified", "follow-ups", "snoozes", "resolved", "remarks"]

  /// One dose's row of the table, `doseColumns` in order: instants as local
  /// times, with the date only when it is not the dose's day (a location
  /// dose's day is its crossing number, so its instants always have it) and
  /// the UTC offset only when it is not the offset of the zone the dose is
  /// labelled in (`18:45+02:00`; see `DoseRecord.labelOffset(in:)`),
  /// `notified` with how late it was (`07:30 +30m`), remarks as
  /// `displayRemarks`; `-` when absent.
  public func doseCells(_ dose: DoseRecord) -> [String] {
    let scheduled = zoned(dose.scheduled).local
    let occurrence = dose.key.occurrenceLabel
    let labelOffset = dose.labelOffset(in: clock)
    // The dose's day, when its instants may leave the date out.
    let day = dose.key.slot != .location && occurrence.hasPrefix(scheduled.date) ? scheduled.date : nil
    func time(_ instant: SimulationInstant?) -> String {
      guard let instant else { return "-" }
      return zoned(instant).doseTime(day: day, labelOffset: labelOffset)
    }
    var notified = time(dose.notified)
    if let at = dose.notified, at > dose.scheduled { notified += " +\(dose.scheduled.duration(to: at))" }
    if let channel = dose.perception?.channel { notified += " by \(channel.rawValue)" }
    return [
      dose.key.medicine.rawValue, ControlCharacterEscape.escaping(dose.medicineName), dose.reminder, occurrence, dose.outcome.rawValue,
      time(dose.scheduled), notified, String(dose.followUpsDelivered), String(dose.snoozes), time(dose.resolved),
      displayRemarks(dose, day: scheduled.date),
    ]
  }

  /// The most characters a text table shows of a medicine's name (the rest is `…`).
  /// Remarks, the last column, are never cut: see `text`.
  public static let textNameWidth = 24
  /// The most pending-limit drop lines (one per instant) the text summary prints; the rest are counted.
  public static let textDropGroupLimit = 6

  /// `text` shortened to `width` characters, the last one `…` when anything was cut.
  static func bounded(_ text: String, _ width: Int) -> String {
    text.count <= width ? text : String(text.prefix(width - 1)) + "…"
  }

  /// The summary as text, for `trigsim run --summary`: the pending-slot
  /// accounting as `#` lines, then one aligned row per dose. It is for
  /// reading: instants are local times, a name at most `textNameWidth`
  /// characters, and at most `textDropGroupLimit` drop lines; `--format
  /// json` and the `.doses` baseline keep everything in full.
  ///
  /// Remarks are the last column and are written whole, however long, on
  /// the dose's own line: a terminal wraps a long line itself, and a CI log
  /// keeps one line per dose, so searching a log for a medicine finds its
  /// whole row (a remark is where a missed dose's reason is; cutting it would
  /// hide the one thing the reader came for).
  public var text: String { text(listingEveryDrop: listsEveryDrop) }

  /// `text`, with every dropped request on its own line after the groups when `listingEveryDrop` (`run --summary --all-drops`).
  public func text(listingEveryDrop: Bool) -> String {
    var text = "# summary\n"
    text += "# pending peak: \(pendingPeak)" + (pendingPeakAt.map { " at \(local($0))" } ?? "") + "\n"
    if droppedByPendingLimit.isEmpty {
      text += "# dropped by the pending limit: none\n"
    } else {
      text += "# dropped by the pending limit: \(droppedByPendingLimit.count) (each one: --all-drops, or --format json)\n"
      for group in pendingLimitDropGroups.prefix(Self.textDropGroupLimit) { text += "#   \(local(group.at)) \(group.description)\n" }
      if pendingLimitDropGroups.count > Self.textDropGroupLimit {
        let rest = pendingLimitDropGroups.dropFirst(Self.textDropGroupLimit)
        let count = rest.reduce(0) { $0 + $1.count }
        text += "#   … \(count) more at \(rest.count) later instant\(rest.count == 1 ? "" : "s"), until \(local(rest.last!.at))\n"
      }
      if listingEveryDrop {
        for drop in droppedByPendingLimit { text += "#   \(local(drop.at)) \(drop.id.rawValue)\n" }
      }
    }
    guard !doses.isEmpty else { return text + "# doses: none\n" }
    let header = Self.doseColumns
    var rows = [header]
    var shortened = false
    for dose in doses {
      var cells = doseCells(dose)
      let full = cells
      cells[1] = Self.bounded(cells[1], Self.textNameWidth)
      if cells != full { shortened = true }
      rows.append(cells)
    }
    var widths = Array(repeating: 0, count: header.count)
    for row in rows { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) } }
    for row in rows {
      var line = ""
      for (index, cell) in row.enumerated() {
        // Padded by characters, as the widths are counted (Foundation's padding counts UTF-16 units, and bridges each cell).
        line += cell
        if index < row.count - 1 { line += String(repeating: " ", count: widths[index] + 2 - cell.count) }
      }
      while line.hasSuffix(" ") { line.removeLast() }
      text += line + "\n"
    }
    for legend in doses.compactMap(\.key.dayLabelLegend) { text += "# day label \(legend)\n" }
    if shortened {
      text += "# names over \(Self.textNameWidth) characters end in '…'; in full: --format json, or the .doses baseline\n"
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
      + "\"kind\": \(JSONText.string(perception.kind.rawValue)), \"how\": \(JSONText.string(perception.how))"
      + (perception.channel.map { ", \"channel\": \(JSONText.string($0.rawValue))" } ?? "") + "}"
  }
}

extension SimulationReport {
  /// The timeline's JSON document with the summary as its `summary` member.
  public var json: String { TimelineEncoding.json.document(timeline, summary: summary) }
}
