import Foundation
import TrigsimCore
import Yams

/// The app's scheduling policy (`policy`) and the prescription
/// (`prescription`, top level and per medicine); see the manual, "The app's policy".
extension ScenarioReader {
  static let policyKeys = ["addOrder", "identifiers", "snooze", "reAddChains", "handler", "android", "dailyReminders"]
  /// The Android build's choices (`policy: android:`).
  static let androidPolicyKeys = ["alarms", "reRegisterAtBoot", "directBootAware", "asksNotificationPermission", "channelImportance", "category", "refreshWork"]

  /// `policy: android: { alarms: exact-with-fallback, reRegisterAtBoot: true, ... }`.
  func readAndroidPolicy(_ node: Node) -> AndroidAppPolicy {
    var policy = AndroidAppPolicy()
    guard let fields = document.mapping(node, what: "the policy's 'android'", keys: Self.androidPolicyKeys) else { return policy }
    if let value: AndroidAlarmStrategy = choice(fields, "alarms", what: "alarm strategy") { policy.alarms = value }
    if let node = fields["reRegisterAtBoot"], let value = document.bool(node, what: "reRegisterAtBoot") { policy.reRegisterAtBoot = value }
    if let node = fields["directBootAware"], let value = document.bool(node, what: "directBootAware") {
      policy.directBootAware = value
      if value && !policy.reRegisterAtBoot {
        document.error(node, "'directBootAware' needs a boot receiver", notes: ["set 'reRegisterAtBoot: true', or remove 'directBootAware'"])
      }
    }
    if let node = fields["asksNotificationPermission"], let value = document.bool(node, what: "asksNotificationPermission") {
      policy.asksNotificationPermission = value
    }
    if let value: ChannelImportance = choice(fields, "channelImportance", what: "channel importance") { policy.channelImportance = value }
    if let node = fields["refreshWork"], let value = duration(node, what: "refreshWork") {
      if value < .minutes(15) || value > .hours(7 * 24) {
        document.error(node, "refreshWork must be at least 15m (WorkManager's shortest period) and at most 7 days, not \(value)", notes: ["e.g. refreshWork: 1d"])
      } else {
        policy.refreshWork = value
      }
    }
    if let node = fields["category"], let value = document.choice(
      node, what: "notification category", [("none", AndroidNotificationCategory?.none)] + AndroidNotificationCategory.allCases.map { ($0.rawValue, $0) })
    {
      policy.category = value
    }
    return policy
  }

  func readPolicy(_ node: Node) -> AppPolicy {
    var policy = AppPolicy()
    guard let fields = document.mapping(node, what: "'policy'", keys: Self.policyKeys) else { return policy }
    if let node = fields["android"] { policy.android = readAndroidPolicy(node) }
    if let node = fields["addOrder"], let value = document.choice(node, what: "add order", AddOrder.allCases.map { ($0.rawValue, $0) }) {
      policy.addOrder = value
    }
    if let node = fields["identifiers"],
      let ids = document.mapping(node, what: "'identifiers'", keys: ["reminder", "location", "followUp"])
    {
      if let node = ids["reminder"], let template = template(node, needs: [.reminder], what: "the reminder template") {
        policy.identifiers.reminder = template
      }
      if let node = ids["location"], let template = template(node, needs: [], what: "the location template", suffix: 1 + TextLimit.identifierPart) {
        policy.identifiers.location = template
      }
      if let node = ids["followUp"], let template = template(node, needs: [], what: "the follow-up template") {
        if template.placeholders.isDisjoint(with: [.followUp, .followUpOfMedicine]) {
          document.error(node, "the follow-up template has no follow-up number", notes: [
            "add '{followup}' (1...count in each dose's chain) or '{followupOfMedicine}' (unique among a medicine's chains), e.g. medicine_{medicine}_snooze_{followup}",
          ])
        } else {
          policy.identifiers.followUp = template
        }
      }
    }
    if let node = fields["snooze"],
      let snooze = document.mapping(node, what: "the policy's 'snooze'", keys: ["identifier", "trigger", "onlyIfFuture"])
    {
      if let node = snooze["identifier"], let text = document.string(node, what: "snooze identifier") {
        switch text {
        case "same-unless-pending": policy.snooze.identifier = .sameUnlessPending
        case "same": policy.snooze.identifier = .same
        default:
          if text.contains("{") {
            if let template = template(node, needs: [], what: "the snoozed-alert template") { policy.snooze.identifier = .template(template) }
          } else {
            var notes = ["same-unless-pending (default), same, or a template such as medicine_{medicine}_snoozed_{reminder}"]
            if let guess = NameSuggestion.closest(to: text, among: ["same-unless-pending", "same"]) { notes.insert("did you mean '\(guess)'?", at: 0) }
            document.error(node, "unknown snooze identifier '\(Diagnostic.excerpt(text))'", notes: notes)
          }
        }
      }
      if let node = snooze["trigger"],
        let value = document.choice(node, what: "snooze trigger", SnoozeTrigger.allCases.map { ($0.rawValue, $0) })
      {
        policy.snooze.trigger = value
      }
      if let node = snooze["onlyIfFuture"], let value = document.bool(node, what: "onlyIfFuture") {
        policy.snooze.onlyIfFuture = value
        if policy.snooze.trigger != .calendarFromDue {
          document.error(node, "'onlyIfFuture' applies to 'trigger: calendar-from-due' only", notes: ["an interval trigger always lies in the future"])
        }
      }
    }
    if let node = fields["reAddChains"],
      let moments = document.mapping(node, what: "'reAddChains'", keys: ["foreground", "action", "willPresent", "backgroundRefresh", "silentPush"])
    {
      let options = ChainReAddScope.allCases.map { ($0.rawValue, $0) }
      func scope(_ key: String) -> ChainReAddScope? {
        moments[key].flatMap { document.choice($0, what: "re-add scope for '\(key)'", options) }
      }
      if let value = scope("foreground") { policy.chainReAdds.foreground = value }
      if let value = scope("action") { policy.chainReAdds.action = value }
      if let value = scope("willPresent") { policy.chainReAdds.willPresent = value }
      if let value = scope("backgroundRefresh") { policy.chainReAdds.backgroundRefresh = value }
      if let value = scope("silentPush") { policy.chainReAdds.silentPush = value }
    }
    if let node = fields["handler"],
      let value = document.choice(node, what: "action handler completion", HandlerCompletion.allCases.map { ($0.rawValue, $0) })
    {
      policy.handler = value
    }
    if let value: DailyReminderSource = choice(fields, "dailyReminders", what: "daily-reminder source") { policy.dailyReminders = value }
    return policy
  }

  /// An identifier template; `needs` are placeholders it must contain, and
  /// `suffix` the scalars the app appends to what it makes (`_<place>` for
  /// a place set's location requests). Its identifiers, suffix included,
  /// must fit `TextLimit.identifier`.
  func template(_ node: Node, needs: [IdentifierTemplate.Placeholder], what: String, suffix: Int = 0) -> IdentifierTemplate? {
    guard let text = document.string(node, what: what) else { return nil }
    let placeholders = IdentifierTemplate.Placeholder.allCases.map { "{\($0.rawValue)}" }.joined(separator: ", ")
    switch IdentifierTemplate.parse(text) {
    case .failure(let problem):
      var notes = ["placeholders: \(placeholders); e.g. medicine_{medicine}_reminder_{reminder}"]
      if case .unknownPlaceholder(let name) = problem,
        let guess = NameSuggestion.closest(to: name, among: IdentifierTemplate.Placeholder.allCases.map(\.rawValue))
      {
        notes.insert("did you mean '{\(guess)}'?", at: 0)
      }
      document.error(node, "\(what) '\(Diagnostic.excerpt(text))' is not valid: \(problem)", notes: notes)
      return nil
    case .success(let template):
      for needed in needs where !template.placeholders.contains(needed) {
        document.error(node, "\(what) '\(Diagnostic.excerpt(text))' needs '{\(needed.rawValue)}'", notes: ["each daily time needs its own identifier, e.g. medicine_{medicine}_reminder_{reminder}"])
        return nil
      }
      let longest = template.longestIdentifier + suffix
      guard longest <= TextLimit.identifier else {
        document.error(
          node, "\(what) '\(Diagnostic.excerpt(text))' can make identifiers of \(longest) characters, more than \(TextLimit.identifier)",
          notes: [
            "each {medicine} counts \(TextLimit.identifierPart) characters (the longest medicine id), each number and {dose} 20"
              + (suffix > 0 ? ", and a place set's '_<place>' \(suffix)" : ""),
            "use each placeholder once and a short literal",
          ])
        return nil
      }
      return template
    }
  }

  /// `{ at: local | home | <zone>, every: 24h, window: 1h | { before: 30m, after: 2h } }`.
  func readPrescription(_ node: Node, default base: Prescription) -> Prescription? {
    guard let fields = document.mapping(node, what: "'prescription'", keys: ["at", "every", "window"]) else { return nil }
    var prescription = base
    var valid = true
    if fields["at"] != nil && fields["every"] != nil {
      document.error(node, "a prescription gives 'at' or 'every', not both", notes: ["'at' reads each daily time in a zone; 'every' spaces doses by elapsed time"])
      return nil
    }
    if let node = fields["at"], let text = document.string(node, what: "prescription 'at'") {
      switch text {
      case "local": prescription.basis = .local
      case "home": prescription.basis = .zone(deviceZoneAtStart)
      default:
        if let zone = timeZone(node, what: "prescription zone") { prescription.basis = .zone(zone) } else { valid = false }
      }
    }
    if let node = fields["every"] {
      if let value = duration(node, what: "prescription 'every'"), value.milliseconds >= 3_600_000 {
        prescription.basis = .every(value)
      } else {
        if ValueSyntax.duration(document.string(node, what: "every") ?? "") != nil {
          document.error(node, "prescription 'every' must be at least 1h", notes: ["e.g. every: 24h"])
        }
        valid = false
      }
    }
    if let node = fields["window"] {
      if node.scalar != nil {
        if let value = duration(node, what: "prescription 'window'") {
          prescription.before = value
          prescription.after = value
        } else {
          valid = false
        }
      } else if let window = document.mapping(node, what: "prescription 'window'", keys: ["before", "after"]) {
        if let node = window["before"] { if let value = duration(node, what: "window 'before'") { prescription.before = value } else { valid = false } }
        if let node = window["after"] { if let value = duration(node, what: "window 'after'") { prescription.after = value } else { valid = false } }
      } else {
        valid = false
      }
    }
    return valid ? prescription : nil
  }

  /// The local dates of the clock window in the device zone at the start, as `yyyyMMdd`.
  func clockDays() -> [String] {
    guard let start = clockStart, let end = clockEnd else { return [] }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = deviceZoneAtStart
    var days: [String] = []
    var day = calendar.startOfDay(for: start.date)
    while day <= end.date && days.count < 3_700 {
      let parts = calendar.dateComponents([.year, .month, .day], from: day)
      days.append(String(format: "%04d%02d%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0))
      guard let next = calendar.date(byAdding: .day, value: 1, to: day) else { break }
      day = next
    }
    return days
  }
}
