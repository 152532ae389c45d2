import Foundation

extension TrialReport {
  /// The report as text, for `trigsim run SCENARIO --trials N`, and the form
  /// a scenario's expected `.trials` file holds. Every line depends only on
  /// the scenario, the trial count and the seed. Every name from the
  /// scenario (its name, regions, requests, medicines, a miss's reason) is
  /// written by `ControlCharacterEscape`'s rule, as in the timeline, so
  /// neither a scenario nor a forged partial file can put a control
  /// character or a line of its choosing into the report.
  public var text: String {
    func escaped(_ value: some CustomStringConvertible) -> String { ControlCharacterEscape.escaping(value.description) }
    var text = "# trigsim trials\n"
    text += "# scenario: \(escaped(scenarioName))\n"
    text += "# platform: \(escaped(platformSummary))\n"
    text += "# trials: \(plan.count), seed \(plan.seed)\n"
    text += "# varied per trial: \(escaped(variationSummary))\n"
    text += "\nlocation requests: how often each fired for a true crossing, and its latency after the crossing\n"
    if locationChances.isEmpty {
      // Android has no location notification requests: its location reminders are the app's geofences.
      text += PlatformSettings.platform(ofSummary: platformSummary) == .android
        ? "  none: on Android the app's geofences (GeofencingClient), not location requests, detect its crossings; each location dose below says how often it was notified\n"
        : "  none: no location request was pending at a crossing of its region\n"
    }
    for chance in locationChances {
      text += "  \(local(chance.crossing)) \(chance.entering ? "enter" : "exit") \(escaped(chance.region)) visit \(chance.visit): \(escaped(chance.request))\n"
      var line = "    fired \(Self.proportion(chance.fired, of: chance.pending, trials: plan.count, pendingWord: "pending"))"
      line += Self.percentiles(chance.latencies, word: "latency")
      if let trial = chance.firstMissTrial { line += "; not fired in trial \(trial) (replay it with --trial \(trial))" }
      text += line + "\n"
    }
    if !falseFirings.isEmpty {
      text += "\nfalse firings: the device fired the request while the true path was not on that side\n"
      for firing in falseFirings {
        text += "  \(escaped(firing.request)): in \(firing.trials) of \(plan.count) trials (\(Self.fraction(firing.trials, plan.count)))\n"
      }
    }
    if !doses.isEmpty {
      text += "\ndoses: how often each was notified, and the delay after it was due\n"
      let (common, rare) = Self.splitRare(doses, trials: plan.count)
      for dose in common {
        text += "  \(local(dose.scheduled)) \(escaped(dose.key.medicine)) (\(escaped(dose.reminder))) \(escaped(dose.key.occurrenceLabel))"
        guard dose.expectedSilent.isEmpty else {
          // A visit the scenario expects to be silent: not notifying it is the success.
          text += ", a visit expected to be silent\n"
          var line = "    silent \(Self.proportion(dose.due - dose.notified, of: dose.due, trials: plan.count, pendingWord: "due"))"
          if dose.notified > 0 { line += "; when notified," + Self.percentiles(dose.latencies, word: "delay").dropFirst() }
          text += line + "\n"
          continue
        }
        text += "\n"
        var line = "    notified \(Self.proportion(dose.notified, of: dose.due, trials: plan.count, pendingWord: "due"))"
        line += Self.percentiles(dose.latencies, word: "delay")
        if let miss = dose.firstMiss { line += "; missed in trial \(miss.trial): \(escaped(miss.reason))" }
        text += line + "\n"
      }
      if !rare.isEmpty {
        text += "\ndoses due in few trials (each in fewer than 1 in \(Self.rareDivisor) trials), by medicine and reminder\n"
        for group in rare {
          let first = group[0]
          let due = group.reduce(0) { $0 + $1.due }, notified = group.reduce(0) { $0 + $1.notified }
          let most = group.map(\.due).max() ?? 0
          var line = "  \(escaped(first.key.medicine)) (\(escaped(first.reminder))): \(group.count) dose\(group.count == 1 ? "" : "s") "
          line += "from \(local(first.scheduled)) to \(local(group[group.count - 1].scheduled)), each due in at most \(most) of \(plan.count) trials; "
          line += "notified \(notified) of \(due) times due"
          if let miss = group.compactMap({ $0.firstMiss }).min(by: { $0.trial < $1.trial }) {
            line += "; first missed in trial \(miss.trial): \(escaped(miss.reason))"
          }
          text += line + "\n"
        }
      }
    }
    return text
  }

  /// A dose due in fewer than one trial in `rareDivisor` is listed in a group, not on a line of its own.
  static let rareDivisor = 20

  /// The doses listed one by one, and the rare ones (see `rareDivisor`)
  /// grouped by medicine and reminder in the order of their first dose.
  /// A visit expected to be silent is always listed on its own.
  static func splitRare(_ doses: [DoseChance], trials: Int) -> (common: [DoseChance], rare: [[DoseChance]]) {
    var common: [DoseChance] = [], rare: [[DoseChance]] = [], groupOf: [String: Int] = [:]
    for dose in doses {
      guard dose.due * rareDivisor < trials && dose.expectedSilent.isEmpty else {
        common.append(dose)
        continue
      }
      let name = dose.key.medicine.rawValue + "\u{0}" + dose.reminder
      if let index = groupOf[name] { rare[index].append(dose) } else {
        groupOf[name] = rare.count
        rare.append([dose])
      }
    }
    return (common, rare)
  }

  /// `0.982 (982 of 1000 trials; 95% interval 0.972 to 0.989)`; when the
  /// chance did not exist in every trial, `of 950 trials in which it was pending`.
  static func proportion(_ successes: Int, of total: Int, trials: Int, pendingWord: String) -> String {
    let interval = wilsonInterval(successes: successes, trials: total)
    let base = total == trials ? "\(total) trials" : "\(total) trials in which it was \(pendingWord)"
    return "\(fraction(successes, total)) (\(successes) of \(base); 95% interval \(decimal(interval.low)) to \(decimal(interval.high)))"
  }

  static func fraction(_ successes: Int, _ total: Int) -> String {
    total == 0 ? "-" : decimal(Double(successes) / Double(total))
  }

  /// Three decimals: what a probability of a few thousand trials supports.
  static func decimal(_ value: Double) -> String { String(format: "%.3f", value) }

  static func percentiles(_ latencies: LatencyDistribution, word: String) -> String {
    guard let p50 = latencies.percentile(50), let p90 = latencies.percentile(90), let p99 = latencies.percentile(99) else { return "" }
    return "; \(word) p50 \(p50), p90 \(p90), p99 \(p99)"
  }

  /// The report as one JSON object (keys in a fixed order; durations in
  /// milliseconds; instants in device time as in the timeline).
  public var json: String {
    func latencyObject(_ latencies: LatencyDistribution) -> String {
      guard let p50 = latencies.percentile(50), let p90 = latencies.percentile(90), let p99 = latencies.percentile(99) else { return "null" }
      return "{\"p50Ms\": \(p50.milliseconds), \"p90Ms\": \(p90.milliseconds), \"p99Ms\": \(p99.milliseconds)}"
    }
    func interval(_ successes: Int, _ total: Int) -> String {
      let bounds = wilsonInterval(successes: successes, trials: total)
      return "[\(Self.decimal(bounds.low)), \(Self.decimal(bounds.high))]"
    }
    var text = "{\n  \"scenario\": \(JSONText.string(scenarioName)),\n  \"platform\": \(JSONText.string(platformSummary)),\n"
    text += "  \"trials\": \(plan.count),\n  \"seed\": \(plan.seed),\n  \"varied\": \(JSONText.string(variationSummary)),\n"
    text += "  \"locationRequests\": ["
    for (index, chance) in locationChances.enumerated() {
      let members: [(String, String)] = [
        ("request", JSONText.string(chance.request.rawValue)), ("region", JSONText.string(chance.region.rawValue)),
        ("event", JSONText.string(chance.entering ? "enter" : "exit")), ("visit", String(chance.visit)),
        ("crossing", JSONText.string(local(chance.crossing))), ("pending", String(chance.pending)),
        ("fired", String(chance.fired)), ("probability", Self.decimal(chance.probability)),
        ("interval95", interval(chance.fired, chance.pending)), ("latency", latencyObject(chance.latencies)),
        ("firstMissTrial", chance.firstMissTrial.map(String.init) ?? "null"),
      ]
      text += (index == 0 ? "\n    " : ",\n    ") + "{" + members.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
    }
    text += locationChances.isEmpty ? "],\n" : "\n  ],\n"
    text += "  \"falseFirings\": ["
    text += falseFirings.map { "{\"request\": \(JSONText.string($0.request.rawValue)), \"trials\": \($0.trials)}" }.joined(separator: ", ")
    text += "],\n  \"doses\": ["
    for (index, dose) in doses.enumerated() {
      let members: [(String, String)] = [
        ("medicine", JSONText.string(dose.key.medicine.rawValue)), ("reminder", JSONText.string(dose.reminder)),
        ("occurrence", JSONText.string(dose.key.occurrenceLabel)), ("scheduled", JSONText.string(local(dose.scheduled))),
        ("due", String(dose.due)), ("notified", String(dose.notified)), ("probability", Self.decimal(dose.probability)),
        ("interval95", interval(dose.notified, dose.due)), ("delay", latencyObject(dose.latencies)),
        ("firstMiss", dose.firstMiss.map { "{\"trial\": \($0.trial), \"reason\": \(JSONText.string($0.reason))}" } ?? "null"),
        ("expectedSilent", dose.expectedSilent.isEmpty ? "false" : "true"),
      ]
      text += (index == 0 ? "\n    " : ",\n    ") + "{" + members.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
    }
    text += doses.isEmpty ? "]\n}\n" : "\n  ]\n}\n"
    return text
  }
}
