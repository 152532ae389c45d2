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
    func plural(_ count: Int, _ noun: String, plural: String? = nil) -> String {
      "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
    }

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

    case .silentVisit(_, let index):
      let picked = summary.doses.filter { $0.expectedSilent.contains(index) }
      guard !picked.isEmpty else { return failure("no visit of the run is one of them", []) }
      let notified = picked.filter { $0.notified != nil }
      guard !notified.isEmpty else { return nil }
      return failure(
        "\(plural(notified.count, "visit")) of \(picked.count) notified",
        notified.map { dose in
          let visit = dose.visit.map { "visit \($0.number) \($0.entering ? "enter" : "exit") \($0.region)" } ?? dose.key.occurrenceLabel
          return "\(visit) (\(summary.local(dose.scheduled))): notified \(summary.local(dose.notified))"
            + (dose.perception.map { " by \($0.notification) (\($0.how))" } ?? "")
        })
    case .dosesNotified(let within, let medicine):
      return lateDoses(summary, within: within, medicine: medicine, missed: "missed", notified: "notified").map { failure($0.finding, $0.evidence) }
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

    case .nothingAudible(let pattern, let window):
      let audible = summary.perceptions.filter { record in
        record.audible && (pattern?.matches(record.subject) ?? true) && window.contains(record.instant, utcOffsetSeconds: record.utcOffsetSeconds)
      }
      guard !audible.isEmpty else { return nil }
      return failure("\(plural(audible.count, "alert")) with sound in the window", audible.map(\.evidenceLine))

    case .dosesReached(let within, let medicine, let channels):
      if channels.isEmpty {
        return lateDoses(summary, within: within, medicine: medicine, missed: "never perceived", notified: "perceived").map { failure($0.finding, $0.evidence) }
      }
      var reached = summary
      reached.doses = summary.doses.map { dose in
        var dose = dose
        dose.notified = summary.channelAttempts.filter { $0.dose == dose.key && channels.contains($0.channel) }.compactMap(\.perceived).min()
        if dose.notified == nil { dose.reason = "no attempt on \(channels.map(\.rawValue).joined(separator: " or ")) was perceived" }
        return dose
      }
      return lateDoses(reached, within: within, medicine: medicine, missed: "never perceived", notified: "perceived").map { failure($0.finding, $0.evidence) }
    case .noSendAfterAnswer(let channel):
      let offending = summary.channelAttempts.filter { $0.channel == channel && $0.sent != nil && $0.answeredBeforeSend != nil }
      guard !offending.isEmpty else { return nil }
      return failure(
        "\(plural(offending.count, "\(channel.rawValue) message")) sent for a dose already answered",
        offending.map { "\($0.subject) sent \(summary.local($0.sent)): the patient answered at \(summary.local($0.answeredBeforeSend))" })
    case .noSendWhileChannelOff(let channel, let initiallyOn, let switches):
      let offending = summary.channelAttempts.filter { attempt in
        guard attempt.channel == channel, let sent = attempt.sent else { return false }
        return !(switches.last { $0.instant <= sent }?.on ?? initiallyOn)
      }
      guard !offending.isEmpty else { return nil }
      return failure(
        "\(plural(offending.count, "\(channel.rawValue) message")) sent while the setting was off",
        offending.map { "\($0.subject) sent \(summary.local($0.sent))" })
    case .dosesPerceptible(let within, let medicine):
      return lateDoses(summary, within: within, medicine: medicine, missed: "never perceptible", notified: "perceptible")
        .map { failure($0.finding, $0.evidence) }
    case .noPushShownWhileTypeOff(let type):
      let shown = summary.perceptions.filter { record in
        record.pushTypeOff && record.pushType != nil && (type == nil || record.pushType == type)
      }
      guard !shown.isEmpty else { return nil }
      return failure("\(plural(shown.count, "push", plural: "pushes")) shown while the app's toggle for the type was off", shown.map(\.evidenceLine))

    case .badgeEquals(let at, let label, let value):
      let shown = summary.badgeHistory.last { $0.instant <= at }?.value ?? 0
      guard shown != value else { return nil }
      return failure("the badge showed \(shown) at \(label)", [])

    case .badgeCountsDoses:
      var problems: [String] = []
      var badgeIndex = 0
      var waitingIndex = 0
      var badge = 0
      var waiting = 0
      // Walk both histories in time order; compare after each instant either changes.
      while badgeIndex < summary.badgeHistory.count || waitingIndex < summary.waitingDosesHistory.count {
        let nextBadge = badgeIndex < summary.badgeHistory.count ? summary.badgeHistory[badgeIndex].instant : nil
        let nextWaiting = waitingIndex < summary.waitingDosesHistory.count ? summary.waitingDosesHistory[waitingIndex].instant : nil
        let instant = [nextBadge, nextWaiting].compactMap { $0 }.min()!
        while badgeIndex < summary.badgeHistory.count && summary.badgeHistory[badgeIndex].instant == instant {
          badge = summary.badgeHistory[badgeIndex].value
          badgeIndex += 1
        }
        while waitingIndex < summary.waitingDosesHistory.count && summary.waitingDosesHistory[waitingIndex].instant == instant {
          waiting = summary.waitingDosesHistory[waitingIndex].count
          waitingIndex += 1
        }
        if badge != waiting {
          problems.append("\(summary.local(instant)): badge \(badge), \(plural(waiting, "dose")) waiting in Notification Center")
        }
      }
      guard !problems.isEmpty else { return nil }
      return failure("the badge differed from the doses waiting at \(plural(problems.count, "instant"))", problems)

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

extension RunAssertion {
  /// The doses (of `medicine`, or all) missed or notified more than `within`
  /// after they were due, as a finding and its evidence; nil when there are none.
  /// `missed` and `notified` are the words for the two failures.
  func lateDoses(
    _ summary: RunSummary, within: SimulationDuration, medicine: MedicineID?, missed: String, notified: String
  ) -> (finding: String, evidence: [String])? {
    // A visit the scenario expects to be silent is not a dose to notify; if nothing else is left, nothing was checked.
    if summary.doses.allSatisfy({ (medicine != nil && $0.key.medicine != medicine) || !$0.expectedSilent.isEmpty }) {
      return ("the run has no doses\(medicine.map { " of medicine '\($0)'" } ?? "") to check", [])
    }
    var late: [String] = []
    for dose in summary.doses where (medicine == nil || dose.key.medicine == medicine) && dose.expectedSilent.isEmpty {
      let label = "\(dose.key.medicine) \(dose.reminder) \(dose.key.occurrenceLabel)"
      guard let at = dose.notified else {
        late.append("\(label): \(missed)" + (dose.reason.map { " (\($0))" } ?? ""))
        continue
      }
      let delay = dose.scheduled.duration(to: at)
      if delay > within {
        late.append("\(label): due \(summary.local(dose.scheduled)), \(notified) \(summary.local(at)), \(delay) late")
      }
    }
    guard !late.isEmpty else { return nil }
    return ("\(late.count) dose\(late.count == 1 ? "" : "s") \(missed) or \(notified) late", late)
  }
}

extension PerceptionRecord {
  /// `2026-05-04T23:10:00.000+02:00 medicine_met_reminder_1 alert with sound`, for assertion messages.
  var evidenceLine: String {
    InstantFormatter.format(instant, offsetSeconds: utcOffsetSeconds) + " \(subject) \(kind.rawValue)" + (audible ? " with sound" : "")
      + (pushType.map { " (type \($0))" } ?? "")
  }
}
