/// An assertion that did not hold: which one, where it is stated, why, and the entries or doses involved.
public struct AssertionFailure: Sendable, CustomStringConvertible {
  public var assertion: String
  public var origin: InputLocation?
  /// What was found, in one line: `2 fired entries in the window`.
  public var finding: String
  /// The entries or doses involved, one line each (timeline lines as canonical text).
  public var evidence: [String]

  /// How many evidence lines a message shows before saying how many more there are.
  public static let evidenceLimit = 10

  /// `scenario.yaml:31:5: assertion failed: nothing fired from 22:00 to 07:00 (every day, device time)`,
  /// then the finding and the evidence, indented.
  public var description: String {
    var text = (origin.map { "\($0): " } ?? "") + "assertion failed: \(assertion)\n  \(finding)\n"
    for line in evidence.prefix(Self.evidenceLimit) { text += "    \(line)\n" }
    if evidence.count > Self.evidenceLimit { text += "    ... and \(evidence.count - Self.evidenceLimit) more\n" }
    return text
  }
}

extension RunAssertion {
  /// Checks the property against a run; nil when it holds.
  public func check(_ report: SimulationReport) -> AssertionFailure? {
    let entries = report.timeline.entries
    let summary = report.summary
    func failure(_ finding: String, _ evidence: [String]) -> AssertionFailure {
      AssertionFailure(assertion: description, origin: origin, finding: finding, evidence: evidence)
    }
    func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

    switch property {
    case .count(let selector, let window, let range):
      let picked = entries.filter { selector.matches($0) && (window?.contains($0) ?? true) }
      guard !range.contains(picked.count) else { return nil }
      return failure("found \(picked.count) matching entr\(picked.count == 1 ? "y" : "ies")", picked.map(\.canonicalLine))

    case .nothingFired(let selector, let window):
      let fired = entries.filter { $0.kind == .fired && selector.matches($0) && window.contains($0) }
      guard !fired.isEmpty else { return nil }
      return failure("\(plural(fired.count, "notification")) fired in the window", fired.map(\.canonicalLine))

    case .nothingFiredInside(let selector, let region):
      var inside = summary.regionsInsideAtFirstFix.contains(region)
      var visitStart: String? = inside ? "inside from the first fix" : nil
      var offending: [String] = []
      for entry in entries {
        if entry.subject == region.rawValue && (entry.kind == .enter || entry.kind == .exit) {
          inside = entry.kind == .enter
          visitStart = inside ? entry.canonicalLine : nil
          continue
        }
        if inside, entry.kind == .fired, selector.matches(entry) {
          if let start = visitStart {
            offending.append("visit: \(start)")
            visitStart = nil
          }
          offending.append(entry.canonicalLine)
        }
      }
      guard !offending.isEmpty else { return nil }
      let count = offending.count { !$0.hasPrefix("visit: ") }
      return failure("\(plural(count, "notification")) fired while the device was inside '\(region)'", offending)

    case .dosesNotified(let within, let medicine):
      var late: [String] = []
      for dose in summary.doses where medicine == nil || dose.key.medicine == medicine {
        let label = "\(dose.key.medicine) \(dose.reminder) \(dose.key.occurrenceLabel)"
        guard let notified = dose.notified else {
          late.append("\(label): missed" + (dose.reason.map { " (\($0))" } ?? ""))
          continue
        }
        let delay = dose.scheduled.duration(to: notified)
        if delay > within {
          late.append("\(label): due \(summary.local(dose.scheduled)), notified \(summary.local(notified)), \(delay) late")
        }
      }
      if summary.doses.allSatisfy({ medicine != nil && $0.key.medicine != medicine }) {
        return failure("the run has no doses\(medicine.map { " of medicine '\($0)'" } ?? "") to check", [])
      }
      guard !late.isEmpty else { return nil }
      return failure("\(plural(late.count, "dose")) missed or notified late", late)

    case .noPendingLimitDrops:
      guard !summary.droppedByPendingLimit.isEmpty else { return nil }
      let dropped = entries.filter { entry in
        entry.kind == .dropped && summary.droppedByPendingLimit.contains { $0.id.rawValue == entry.subject && $0.at == entry.instant }
      }
      return failure("\(plural(summary.droppedByPendingLimit.count, "request")) dropped by the pending limit", dropped.map(\.canonicalLine))

    case .pendingPeak(let limit):
      guard summary.pendingPeak > limit else { return nil }
      return failure("\(summary.pendingPeak) requests were pending at once" + (summary.pendingPeakAt.map { " at \(summary.local($0))" } ?? ""), [])

    case .chainsEnd(let medicine, let maxFollowUps):
      var problems: [String] = []
      for dose in summary.doses where (medicine == nil || dose.key.medicine == medicine) && dose.notified != nil {
        let label = "\(dose.key.medicine) \(dose.reminder) \(dose.key.occurrenceLabel)"
        if let maxFollowUps, dose.followUpsDelivered > maxFollowUps {
          problems.append("\(label): \(dose.followUpsDelivered) follow-ups delivered")
        }
        let ended = dose.completed != nil || dose.dismissed != nil || dose.chainRanOut
        if !ended {
          let notes = dose.notes.isEmpty ? "" : " (\(dose.notes.joined(separator: "; ")))"
          problems.append("\(label): \(dose.outcome.rawValue) at the end of the run after \(plural(dose.followUpsDelivered, "follow-up"))\(notes)")
        }
      }
      guard !problems.isEmpty else { return nil }
      return failure("\(plural(problems.count, "problem")) with follow-up chains", problems)

    case .order(let first, let then):
      let firstIndex = entries.firstIndex { first.matches($0) }
      let thenIndex = entries.firstIndex { then.matches($0) }
      switch (firstIndex, thenIndex) {
      case (let a?, let b?) where a < b:
        return nil
      case (let a?, let b?):
        return failure("'\(then)' came first", [entries[b].canonicalLine, entries[a].canonicalLine])
      case (nil, let b?):
        return failure("'\(first)' never occurred", [entries[b].canonicalLine])
      case (let a?, nil):
        return failure("'\(then)' never occurred", [entries[a].canonicalLine])
      case (nil, nil):
        return failure("neither occurred", [])
      }
    }
  }
}
