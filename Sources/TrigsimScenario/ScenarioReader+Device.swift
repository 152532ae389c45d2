import Foundation
import TrigsimCore
import Yams

/// The attention sections of a scenario: `platform`'s attention rules,
/// `device` (entitlements, notification settings, Focus, Scheduled Summary,
/// power, network) and `pushes` (remote notifications and the app's own
/// settings for them). See the manual, "From fired to seen".
extension ScenarioReader {
  /// The keys of `platform:` that set `AttentionRules`.
  static let attentionRuleKeys = [
    "powerOffCatchUp", "bootDuration", "backgroundPushesPerHour", "priority5Alerts", "priority5DeliveryProbability", "priority5MaxDelay",
    "storedPush", "focusResumes", "focusTimeSensitiveDefault", "catchUpPresentation", "focusSilencedOnLockScreen",
    "deliveryBeforeFirstUnlock", "lowPowerRegionMonitoring",
  ]
  static let deviceKeys = ["entitlements", "settings", "focus", "summary", "power", "network"]
  /// The per-app notification settings a `device.settings` change may set.
  static let notificationSettingKeys = [
    "allow", "lockScreen", "notificationCenter", "banners", "sounds", "badges", "timeSensitive", "criticalAlerts", "previews",
  ]
  static let focusKeys = ["name", "daily", "days", "from", "to", "allowApp", "timeSensitive"]
  /// `days:` of a daily Focus; position + 1 is the platform's weekday number (1 = Sunday).
  static let weekdayNames = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]
  static let pushesKeys = ["categories", "filter", "preferences", "send"]
  static let pushKeys = [
    "at", "id", "type", "title", "body", "badge", "sound", "category", "thread", "interruptionLevel", "contentAvailable", "priority",
    "collapseId", "expiration", "channel",
  ]
  /// A badge number a scenario may give (a request's, a push's, an assertion's).
  static let badgeRange = 0...1_000_000
  /// The longest `apns-collapse-id` APNs accepts, in bytes (UTF-8).
  static let longestCollapseID = 64
  /// The longest boot a scenario may set: a phone that takes longer is broken, not slow.
  static let longestBoot = SimulationDuration.hours(1)
  /// The longest delay the push service may give a low-priority push: it
  /// keeps no push longer than 30 days (Apple, "Sending notification requests to APNs").
  static let longestPushDelay = SimulationDuration.seconds(30 * 86_400)

  // MARK: - platform

  /// The keys of `platform:` in `attentionRuleKeys`.
  func readAttentionRules(_ fields: MappingFields) -> AttentionRules {
    var rules = AttentionRules()
    if let node = fields["powerOffCatchUp"], let value = powerOffCatchUp(node) { rules.powerOffCatchUp = value }
    if let node = fields["bootDuration"], let value = duration(node, what: "bootDuration") {
      if value > Self.longestBoot {
        document.error(node, "bootDuration must be at most \(Self.longestBoot), not \(value)", notes: ["a phone boots in about a minute; 0s switches it on at once"])
      } else {
        rules.bootDuration = value
      }
    }
    if let node = fields["backgroundPushesPerHour"], let value = document.integer(node, what: "backgroundPushesPerHour", range: 0...3600) {
      rules.backgroundPushesPerHour = value
    }
    if let node = fields["priority5Alerts"], let value = priority5Alerts(node) { rules.priority5Alerts = value }
    if let node = fields["priority5DeliveryProbability"], let value = document.double(node, what: "priority5DeliveryProbability") {
      if (0...1).contains(value) {
        rules.priority5DeliveryProbability = value
      } else {
        document.error(node, "priority5DeliveryProbability must be between 0 and 1, not \(Diagnostic.excerpt(node.scalar?.string ?? ""))",
                       notes: ["the chance that a trial delivers a priority-5 push, e.g. 0.5; write a probability, not a percentage"])
      }
    }
    if let node = fields["priority5MaxDelay"], let value = pushDelay(node, what: "priority5MaxDelay") {
      rules.priority5MaxDelay = value
    }
    if let value: StoredPushChoice = choice(fields, "storedPush", what: "stored-push rule") { rules.storedPush = value }
    if let node = fields["focusResumes"], let value = document.bool(node, what: "focusResumes") {
      rules.focusResumes = value ? .resumes : .doesNotResume
    }
    if let value: FocusTimeSensitiveDefault = choice(fields, "focusTimeSensitiveDefault", what: "Focus time-sensitive default") { rules.focusTimeSensitiveDefault = value }
    if let value: CatchUpPresentation = choice(fields, "catchUpPresentation", what: "'catchUpPresentation'") { rules.catchUpPresentation = value }
    if let value: FocusSilencedOnLockScreen = choice(fields, "focusSilencedOnLockScreen", what: "'focusSilencedOnLockScreen'") { rules.focusSilencedOnLockScreen = value }
    if let value: DeliveryBeforeFirstUnlock = choice(fields, "deliveryBeforeFirstUnlock", what: "deliveryBeforeFirstUnlock") { rules.deliveryBeforeFirstUnlock = value }
    if let value: LowPowerRegionMonitoring = choice(fields, "lowPowerRegionMonitoring", what: "lowPowerRegionMonitoring") { rules.lowPowerRegionMonitoring = value }
    return rules
  }

  /// `dropped`, `at-once` or `delayed 30m` (a duration longer than zero, at most 30 days).
  func priority5Alerts(_ node: Node) -> LowPriorityPushDelivery? {
    guard let text = document.string(node, what: "priority5Alerts") else { return nil }
    let example = "deliver each priority-5 push half an hour after it is sent: 'delayed 30m'"
    switch text {
    case "dropped": return .dropped
    case "at-once": return .atOnce
    default: break
    }
    let words = text.split(separator: " ", omittingEmptySubsequences: true)
    if words.first == "delayed" {
      guard words.count == 2, let span = ValueSyntax.duration(String(words[1])), span.milliseconds > 0 else {
        document.error(node, "priority5Alerts '\(Diagnostic.excerpt(text))' needs one duration longer than zero after 'delayed'", notes: [example])
        return nil
      }
      guard span <= Self.longestPushDelay else {
        document.error(node, "priority5Alerts delays at most \(Self.longestPushDelay), not \(span)", notes: ["the push service keeps a push for at most 30 days"])
        return nil
      }
      return .delayed(span)
    }
    var notes: [String] = []
    if let word = words.first, let suggestion = NameSuggestion.closest(to: String(word), among: ["dropped", "at-once", "delayed"]) {
      notes.append("did you mean '\(suggestion)'?")
    }
    notes.append("choose one of: dropped, at-once, delayed <duration> (\(example))")
    document.error(node, "unknown priority-5 rule '\(Diagnostic.excerpt(text))'", notes: notes)
    return nil
  }

  /// A delay of the push service: from zero to 30 days.
  func pushDelay(_ node: Node, what: String) -> SimulationDuration? {
    guard let value = duration(node, what: what) else { return nil }
    guard value <= Self.longestPushDelay else {
      document.error(node, "\(what) must be at most \(Self.longestPushDelay), not \(value)", notes: ["the push service keeps a push for at most 30 days"])
      return nil
    }
    return value
  }

  /// `all`, `none` or `recent 15m` (a duration longer than zero).
  func powerOffCatchUp(_ node: Node) -> PowerOffCatchUp? {
    guard let text = document.string(node, what: "powerOffCatchUp") else { return nil }
    let example = "deliver what came due in the last 15 minutes before the phone came on: 'recent 15m'"
    switch text {
    case "all": return PowerOffCatchUp.all
    case "none": return PowerOffCatchUp.never
    default: break
    }
    let words = text.split(separator: " ", omittingEmptySubsequences: true)
    if words.first == "recent" {
      guard words.count == 2, let span = ValueSyntax.duration(String(words[1])), span.milliseconds > 0 else {
        document.error(node, "powerOffCatchUp '\(Diagnostic.excerpt(text))' needs one duration longer than zero after 'recent'", notes: [example])
        return nil
      }
      return .recent(span)
    }
    var notes: [String] = []
    if let word = words.first, let suggestion = NameSuggestion.closest(to: String(word), among: ["all", "none", "recent"]) {
      notes.append("did you mean '\(suggestion)'?")
    }
    notes.append("choose one of: all, none, recent <duration> (\(example))")
    document.error(node, "unknown power-off catch-up '\(Diagnostic.excerpt(text))'", notes: notes)
    return nil
  }

  // MARK: - Shared values

  /// `fields[key]` as one of `T`'s spellings, if the key is given (a located
  /// error with a suggestion otherwise).
  func choice<T: CaseIterable & RawRepresentable>(_ fields: MappingFields, _ key: String, what: String) -> T? where T.RawValue == String {
    guard let node = fields[key] else { return nil }
    return document.choice(node, what: what, T.allCases.map { ($0.rawValue, $0) })
  }

  /// A switch of a setting: `on` or `off` (`true`/`false`, `yes`/`no` too).
  func onOff(_ node: Node, what: String) -> Bool? {
    guard let text = document.string(node, what: what) else { return nil }
    switch text {
    case "on", "true", "yes": return true
    case "off", "false", "no": return false
    default:
      var notes: [String] = []
      if let suggestion = NameSuggestion.closest(to: text, among: ["off", "on", "false", "true", "no", "yes"]) { notes.append("did you mean '\(suggestion)'?") }
      document.error(node, "\(what) must be on or off, not '\(Diagnostic.excerpt(text))'", notes: notes + ["e.g. on or off (true/false and yes/no work too)"])
      return nil
    }
  }

  /// A badge number: 0 clears the badge, a number sets it.
  func badgeNumber(_ node: Node, what: String = "badge") -> Int? {
    document.integer(node, what: what, range: Self.badgeRange)
  }

  /// Reports `at` earlier than the previous item's; `what` is the plural ("power events").
  private func inTimeOrder(_ at: SimulationInstant, after previous: SimulationInstant?, atNode: Node, what: String) -> Bool {
    guard let previous, at < previous else { return true }
    document.error(atNode, "\(what) must be in time order", notes: ["this change is before the previous one"])
    return false
  }

  // MARK: - device

  func readDevice(_ node: Node) -> DeviceSetup {
    var device = DeviceSetup()
    guard let fields = document.mapping(node, what: "'device'", keys: Self.deviceKeys) else { return device }
    if let node = fields["entitlements"], let entitlements = document.mapping(node, what: "'entitlements'", keys: ["timeSensitive", "criticalAlerts"]) {
      if let value = entitlements["timeSensitive"].flatMap({ document.bool($0, what: "timeSensitive") }) { device.entitlements.timeSensitive = value }
      if let value = entitlements["criticalAlerts"].flatMap({ document.bool($0, what: "criticalAlerts") }) { device.entitlements.criticalAlerts = value }
    }
    if let node = fields["settings"] { device.settingsChanges = readSettingsChanges(node) }
    if let node = fields["focus"] { device.focus = readFocus(node) }
    if let node = fields["summary"] { device.summary = readSummary(node) }
    if let node = fields["power"] { device.power = readPowerEvents(node) }
    if let node = fields["network"] { device.network = readNetworkChanges(node) }
    return device
  }

  /// `- { at: …, allow: on, previews: never, … }`: at least one setting each, in time order.
  func readSettingsChanges(_ node: Node) -> [NotificationSettingsChange] {
    guard let list = document.sequence(node, what: "'settings'") else { return [] }
    var changes: [NotificationSettingsChange] = []
    for item in list {
      guard let fields = document.mapping(item, what: "a settings change", keys: ["at"] + Self.notificationSettingKeys) else { continue }
      guard let atNode = fields["at"] else {
        document.error(item, "a settings change needs 'at'", notes: ["say when the patient changes the settings: at: 2026-03-28T12:00:00"])
        continue
      }
      guard Self.notificationSettingKeys.contains(where: { fields[$0] != nil }) else {
        document.error(item, "a settings change needs at least one setting",
                       notes: ["settings: \(Self.notificationSettingKeys.dropLast().joined(separator: ", ")) (on or off); previews: \(PreviewSetting.allCases.map(\.rawValue).joined(separator: "|"))"])
        continue
      }
      guard let at = instantDuringRun(atNode, what: "settings change 'at'") else { continue }
      var change = NotificationSettingsChange(instant: at, origin: document.location(item))
      // Every value is read, so that each bad one is reported.
      var valid = true
      func setting(_ key: String) -> Bool? {
        guard let node = fields[key] else { return nil }
        let value = onOff(node, what: key)
        if value == nil { valid = false }
        return value
      }
      change.allow = setting("allow")
      change.lockScreen = setting("lockScreen")
      change.notificationCenter = setting("notificationCenter")
      change.banners = setting("banners")
      change.sounds = setting("sounds")
      change.badges = setting("badges")
      change.timeSensitive = setting("timeSensitive")
      change.criticalAlerts = setting("criticalAlerts")
      if let node = fields["previews"] {
        change.previews = document.choice(node, what: "previews setting", PreviewSetting.allCases.map { ($0.rawValue, $0) })
        if change.previews == nil { valid = false }
      }
      guard valid, inTimeOrder(at, after: changes.last?.instant, atNode: atNode, what: "settings changes") else { continue }
      changes.append(change)
    }
    return changes
  }

  /// `- { name: Sleep, daily: { from: "22:30", to: "07:00" }, days: [mon, …] }`
  /// or `- { name: Do Not Disturb, from: <instant>, to: <instant> }`.
  func readFocus(_ node: Node) -> [FocusPeriod] {
    guard let list = document.sequence(node, what: "'focus'") else { return [] }
    var periods: [FocusPeriod] = []
    for item in list {
      guard let fields = document.mapping(item, what: "a Focus", keys: Self.focusKeys) else { continue }
      guard let nameNode = fields["name"] else {
        document.error(item, "a Focus needs a 'name'", notes: ["e.g. 'name: Sleep' or 'name: Do Not Disturb'"])
        continue
      }
      guard let name = document.string(nameNode, what: "Focus name", limit: .identifier) else { continue }
      guard !name.isEmpty else {
        document.error(nameNode, "a Focus's name cannot be empty", notes: ["the name is printed in the timeline's entries"])
        continue
      }
      let quoted = Diagnostic.excerpt(name)
      let allowsApp = fields["allowApp"].map { document.bool($0, what: "allowApp") }
      let allowsTimeSensitive = fields["timeSensitive"].map { document.bool($0, what: "timeSensitive") }
      let schedule: FocusPeriod.Schedule?
      switch (fields["daily"], fields["from"], fields["to"]) {
      case (let daily?, nil, nil):
        schedule = readDailyFocus(daily, days: fields["days"], name: quoted)
      case (nil, let fromNode?, let toNode?):
        if let daysKey = fields.keyNodes["days"] {
          document.error(daysKey, "'days' applies to a daily Focus only", notes: ["remove it, or use 'daily: { from: \"22:30\", to: \"07:00\" }' instead of 'from' and 'to'"])
        }
        let from = instantDuringRun(fromNode, what: "Focus 'from'")
        let to = instantDuringRun(toNode, what: "Focus 'to'")
        guard let from, let to, fields["days"] == nil else { continue }
        guard from < to else {
          document.error(toNode, "Focus '\(quoted)' ends at or before it starts", notes: ["'from' is inclusive and 'to' exclusive"])
          continue
        }
        schedule = .once(from: from, to: to)
      case (nil, nil, nil):
        document.error(item, "Focus '\(quoted)' needs 'daily' (times of day) or 'from' and 'to' (instants)",
                       notes: ["e.g. 'daily: { from: \"22:30\", to: \"07:00\" }', or 'from: 2026-03-28T13:00:00, to: 2026-03-28T15:00:00' for once"])
        continue
      case (nil, _, _):
        document.error(item, "Focus '\(quoted)' needs both 'from' and 'to'")
        continue
      case (_?, _, _):
        document.error(item, "Focus '\(quoted)' has both 'daily' and 'from'/'to'",
                       notes: ["keep one: 'daily' repeats every day, 'from' and 'to' are one span"])
        continue
      }
      guard let schedule, allowsApp != .some(nil), allowsTimeSensitive != .some(nil) else { continue }
      periods.append(
        FocusPeriod(
          name: name, schedule: schedule, allowsApp: allowsApp.flatMap { $0 } ?? false,
          allowsTimeSensitive: allowsTimeSensitive.flatMap { $0 }, origin: document.location(item)))
    }
    return periods
  }

  /// `daily: { from: "22:30", to: "07:00" }` with optional `days: [mon, tue]`.
  private func readDailyFocus(_ node: Node, days daysNode: Node?, name: String) -> FocusPeriod.Schedule? {
    var weekdays: Set<Int>? = nil
    var valid = true
    if let daysNode {
      weekdays = readWeekdays(daysNode)
      if weekdays == nil { valid = false }
    }
    guard let fields = document.mapping(node, what: "'daily'", keys: ["from", "to"]) else { return nil }
    guard let fromNode = fields["from"], let toNode = fields["to"] else {
      document.error(node, "'daily' needs 'from' and 'to'", notes: ["two times of day, e.g. 'daily: { from: \"22:30\", to: \"07:00\" }'"])
      return nil
    }
    let from = dailyTime(fromNode)
    let to = dailyTime(toNode)
    guard let from, let to, valid else { return nil }
    guard from != to else {
      document.error(toNode, "Focus '\(name)' from \(from) to \(to) is empty",
                     notes: ["'from' is inclusive and 'to' exclusive; a span that ends earlier than it starts runs past midnight"])
      return nil
    }
    return .daily(from: from, to: to, weekdays: weekdays)
  }

  /// `[mon, tue]`: distinct day names, as platform weekday numbers (1 = Sunday).
  private func readWeekdays(_ node: Node) -> Set<Int>? {
    guard let list = document.sequence(node, what: "'days'") else { return nil }
    guard !list.isEmpty else {
      document.error(node, "'days' lists no day", notes: ["leave 'days' out for every day, or list some: [mon, tue, wed, thu, fri]"])
      return nil
    }
    var days: Set<Int> = []
    var valid = true
    for item in list {
      guard let day = weekday(item) else {
        valid = false
        continue
      }
      if !days.insert(day).inserted {
        document.error(item, "day '\(Self.weekdayNames[day - 1])' is listed twice", notes: ["remove the repeat"])
        valid = false
      }
    }
    return valid ? days : nil
  }

  /// A day name (`mon`) as the platform's weekday number (1 = Sunday). A
  /// full or capitalised name (`Monday`) is refused with the short one suggested.
  private func weekday(_ node: Node) -> Int? {
    guard let text = document.string(node, what: "day") else { return nil }
    if let index = Self.weekdayNames.firstIndex(of: text) { return index + 1 }
    let lowered = text.lowercased()
    // `Self.weekdays` holds the full names, Sunday first: the short name is their first three letters.
    let fullName = Self.weekdays.first { lowered.count >= 3 && $0.hasPrefix(lowered) } ?? NameSuggestion.closest(to: lowered, among: Self.weekdays)
    let suggestion = fullName.map { String($0.prefix(3)) } ?? NameSuggestion.closest(to: text, among: Self.weekdayNames)
    var notes = suggestion.map { ["did you mean '\($0)'?"] } ?? []
    notes.append("choose one of: \(Self.weekdayNames.joined(separator: ", "))")
    document.error(node, "unknown day '\(Diagnostic.excerpt(text))'", notes: notes)
    return nil
  }

  /// `summary: { times: ["08:00", "18:00"], app: true }`.
  func readSummary(_ node: Node) -> ScheduledSummary? {
    guard let fields = document.mapping(node, what: "'summary'", keys: ["times", "app"]) else { return nil }
    let includesApp = fields["app"].map { document.bool($0, what: "'app'") }
    guard let timesNode = fields["times"] else {
      document.error(node, "'summary' needs 'times'", notes: ["the times of day the summary is shown, e.g. 'times: [\"08:00\", \"18:00\"]'"])
      return nil
    }
    guard let times = readTimes(timesNode, repeatNote: "the summary is shown once at each time; remove the repeat") else { return nil }
    guard !times.isEmpty else {
      document.error(timesNode, "'summary' lists no time", notes: ["give at least one time of day, e.g. 'times: [\"08:00\", \"18:00\"]'"])
      return nil
    }
    guard includesApp != .some(nil) else { return nil }
    return ScheduledSummary(times: times, includesApp: includesApp.flatMap { $0 } ?? true)
  }

  /// `- { at: …, event: switch-off }`, in time order.
  func readPowerEvents(_ node: Node) -> [PowerEvent] {
    guard let list = document.sequence(node, what: "'power'") else { return [] }
    var events: [PowerEvent] = []
    for item in list {
      guard let fields = document.mapping(item, what: "a power event", keys: ["at", "event"]) else { continue }
      guard let atNode = fields["at"], let eventNode = fields["event"] else {
        document.error(item, "a power event needs 'at' and 'event'", notes: ["e.g. { at: 2026-03-28T23:00:00, event: switch-off }"])
        continue
      }
      let at = instantDuringRun(atNode, what: "power event 'at'")
      let kind = document.choice(eventNode, what: "power event", PowerEvent.Kind.allCases.map { ($0.rawValue, $0) })
      guard let at, let kind, inTimeOrder(at, after: events.last?.instant, atNode: atNode, what: "power events") else { continue }
      events.append(PowerEvent(instant: at, kind: kind, origin: document.location(item)))
    }
    return events
  }

  /// `- { at: …, online: false }`, in time order.
  func readNetworkChanges(_ node: Node) -> [NetworkChange] {
    guard let list = document.sequence(node, what: "'network'") else { return [] }
    var changes: [NetworkChange] = []
    for item in list {
      guard let fields = document.mapping(item, what: "a network change", keys: ["at", "online"]) else { continue }
      guard let atNode = fields["at"], let onlineNode = fields["online"] else {
        document.error(item, "a network change needs 'at' and 'online'", notes: ["e.g. { at: 2026-03-28T09:00:00, online: false }"])
        continue
      }
      let at = instantDuringRun(atNode, what: "network change 'at'")
      let online = document.bool(onlineNode, what: "online")
      guard let at, let online, inTimeOrder(at, after: changes.last?.instant, atNode: atNode, what: "network changes") else { continue }
      changes.append(NetworkChange(instant: at, online: online, origin: document.location(item)))
    }
    return changes
  }

  // MARK: - pushes

  func readPushes(_ node: Node) -> RemotePushes {
    var pushes = RemotePushes()
    guard let fields = document.mapping(node, what: "'pushes'", keys: Self.pushesKeys) else { return pushes }
    var categoryIDs: [String] = []
    if let node = fields["categories"] { (pushes.categories, categoryIDs) = readPushCategories(node) }
    if let node = fields["filter"], let filter = document.choice(node, what: "push filter", AppPreferenceFilter.allCases.map { ($0.rawValue, $0) }) {
      pushes.filter = filter
    }
    // Pushes first: preference changes name their types.
    if let node = fields["send"] { pushes.pushes = readRemotePushes(node, categories: categoryIDs) }
    if let node = fields["preferences"] { pushes.preferenceChanges = readPreferenceChanges(node) }
    return pushes
  }

  /// `{ COMMENT: [reply, like] }`: each category's non-empty list of distinct actions;
  /// also the identifiers in file order, for messages.
  private func readPushCategories(_ node: Node) -> ([String: [String]], [String]) {
    guard let mapping = node.mapping else {
      document.error(node, "'categories' must be a mapping of category identifiers to lists of actions", notes: ["e.g. 'categories: { COMMENT: [reply, like] }'"])
      return ([:], [])
    }
    var categories: [String: [String]] = [:]
    var order: [String] = []
    for (keyNode, value) in mapping {
      guard let id = document.string(keyNode, what: "a category identifier", limit: .identifier) else { continue }
      guard !id.isEmpty else {
        document.error(keyNode, "a category identifier cannot be empty")
        continue
      }
      // Declared even when its actions are wrong, so pushes naming it are not reported too.
      order.append(id)
      guard let list = document.sequence(value, what: "the actions of category '\(Diagnostic.excerpt(id))'") else { continue }
      guard !list.isEmpty else {
        document.error(value, "category '\(Diagnostic.excerpt(id))' lists no action", notes: ["list the actions it offers, e.g. [reply, like]"])
        continue
      }
      var actions: [String] = []
      var seen: Set<String> = []
      var valid = true
      for item in list {
        guard let action = document.string(item, what: "an action", limit: .identifier) else {
          valid = false
          continue
        }
        if action.isEmpty {
          document.error(item, "an action name cannot be empty")
          valid = false
        } else if !seen.insert(action).inserted {
          document.error(item, "action '\(Diagnostic.excerpt(action))' is listed twice in category '\(Diagnostic.excerpt(id))'", notes: ["remove the repeat"])
          valid = false
        } else {
          actions.append(action)
        }
      }
      if valid { categories[id] = actions }
    }
    return (categories, order)
  }

  /// `send:`: each push, sorted by instant (ties in file order).
  private func readRemotePushes(_ node: Node, categories: [String]) -> [RemotePush] {
    guard let list = document.sequence(node, what: "'send'") else { return [] }
    var pushes: [RemotePush] = []
    var types: Set<String> = []
    var declared: Set<String> = []  // `pushIDs` as a set: a file with many pushes is checked in linear time
    let categorySet = Set(categories)
    for item in list {
      guard let fields = document.mapping(item, what: "a push", keys: Self.pushKeys) else { continue }
      guard let atNode = fields["at"], let idNode = fields["id"] else {
        document.error(item, "a push needs 'at' and 'id'", notes: ["e.g. { at: 2026-03-28T09:00:00, id: c1, title: New comment }"])
        continue
      }
      guard let id = document.string(idNode, what: "push id", limit: .identifier) else { continue }
      guard !id.isEmpty else {
        document.error(idNode, "a push's 'id' cannot be empty", notes: ["the id names the push in the timeline"])
        continue
      }
      guard declared.insert(id).inserted else {
        document.error(idNode, "push '\(Diagnostic.excerpt(id))' is declared twice", notes: ["push identifiers must be unique: each names one push in the timeline"])
        continue
      }
      pushIDs.append(id)
      // Read here, so that a type is known even when the push has other errors
      // (assertions and preferences naming it are then not reported too).
      let type = fields["type"].map { node -> String? in
        guard let type = document.string(node, what: "push type") else { return nil }
        guard !type.isEmpty else {
          document.error(node, "a push's 'type' cannot be empty", notes: ["leave 'type' out for a push without one"])
          return nil
        }
        types.insert(type)
        return type
      }
      let push = readRemotePush(
        fields, item: item, id: id, type: type.flatMap { $0 }, atNode: atNode, categories: (categories, categorySet))
      if let push, type != .some(nil) { pushes.append(push) }
    }
    pushTypes = types.sorted()
    // Same-instant order: the scenario's order (stable sort by instant).
    return pushes.enumerated().sorted { ($0.element.instant, $0.offset) < ($1.element.instant, $1.offset) }.map(\.element)
  }

  /// One push's values, every one checked; nil when any is wrong.
  /// `categories` are the declared identifiers in file order (for messages) and as a set.
  private func readRemotePush(
    _ fields: MappingFields, item: Node, id: String, type: String?, atNode: Node, categories: (list: [String], set: Set<String>)
  ) -> RemotePush? {
    var valid = true
    func read<T>(_ key: String, _ reader: (Node) -> T?) -> T? {
      guard let node = fields[key] else { return nil }
      let value = reader(node)
      if value == nil { valid = false }
      return value
    }
    let at = instantDuringRun(atNode, what: "push 'at'")
    var push = RemotePush(id: PushID(id), instant: at ?? SimulationInstant(millisecondsSinceEpoch: 0), origin: document.location(item))
    push.type = type
    push.title = read("title") { document.string($0, what: "title", limit: .name) }
    push.body = read("body") { document.string($0, what: "body") }
    push.badge = read("badge") { badgeNumber($0) }
    push.sound = read("sound") { document.bool($0, what: "sound") } ?? false
    push.thread = read("thread") { document.string($0, what: "thread", limit: .identifier) }
    push.interruptionLevel = read("interruptionLevel") { interruptionLevel($0) } ?? .active
    let contentAvailable = read("contentAvailable") { document.bool($0, what: "contentAvailable") }
    push.contentAvailable = contentAvailable ?? false
    push.category = read("category") { pushCategory($0, among: categories) }
    push.priority = read("priority") { pushPriority($0) } ?? 10
    push.collapseID = read("collapseId") { collapseID($0) }
    push.channel = read("channel") { document.string($0, what: "channel", limit: .identifier) }
    if let at, let node = fields["expiration"] {
      push.expiration = expiration(node, sentAt: at)
      if push.expiration == nil { valid = false }
    }
    // A `contentAvailable` that is wrong is reported already; nothing more is said.
    if fields["title"] == nil && fields["body"] == nil && fields["badge"] == nil && (fields["contentAvailable"] == nil || contentAvailable == false) {
      document.error(item, "a push needs an alert (title/body), a badge or contentAvailable",
                     notes: ["push '\(Diagnostic.excerpt(id))' would show and change nothing; add a 'title', a 'badge', or 'contentAvailable: true' for a background push"])
      valid = false
    }
    guard valid, at != nil else { return nil }
    return push
  }

  /// A category declared under `categories:`.
  private func pushCategory(_ node: Node, among declared: (list: [String], set: Set<String>)) -> String? {
    guard let text = document.string(node, what: "category") else { return nil }
    let categories = declared.list
    guard declared.set.contains(text) else {
      var notes: [String] = []
      if let suggestion = NameSuggestion.closest(to: text, among: categories) { notes.append("did you mean '\(suggestion)'?") }
      notes.append(categories.isEmpty ? "declare it under 'pushes: categories:', e.g. 'categories: { \(Diagnostic.excerpt(text)): [reply] }'" : "declared categories: \(YAMLDocument.nameList(categories))")
      document.error(node, "unknown category '\(Diagnostic.excerpt(text))'", notes: notes)
      return nil
    }
    return text
  }

  /// `apns-priority`: 10, 5 or 1.
  private func pushPriority(_ node: Node) -> Int? {
    guard let text = document.string(node, what: "priority") else { return nil }
    // FCM's spelling: high is apns-priority 10, normal is 5 (FCM's HTTP v1 pairing).
    if text == "high" { return 10 }
    if text == "normal" { return 5 }
    guard let value = Int(text), [10, 5, 1].contains(value) else {
      document.error(node, "priority must be 10, 5 or 1 (or FCM's high or normal), not '\(Diagnostic.excerpt(text))'",
                     notes: ["apns-priority: 10 delivers at once, 5 when the device's power allows, 1 at the lowest priority; FCM: high is 10, normal is 5"])
      return nil
    }
    return value
  }

  /// `apns-collapse-id`: not empty, at most 64 bytes.
  private func collapseID(_ node: Node) -> String? {
    guard let text = document.string(node, what: "collapseId") else { return nil }
    guard !text.isEmpty else {
      document.error(node, "collapseId cannot be empty", notes: ["leave it out for a push that replaces nothing"])
      return nil
    }
    guard text.utf8.count <= Self.longestCollapseID else {
      document.error(node, "collapseId is \(text.utf8.count) bytes long; APNs accepts at most \(Self.longestCollapseID)",
                     notes: ["shorten it (apns-collapse-id is counted in UTF-8 bytes)"])
      return nil
    }
    return text
  }

  /// `0` (deliver now or never: the push's own instant), an instant at or
  /// after it, or a duration after it (`2h`).
  private func expiration(_ node: Node, sentAt at: SimulationInstant) -> SimulationInstant? {
    guard let text = document.string(node, what: "expiration") else { return nil }
    if text == "0" { return at }
    switch ValueSyntax.durationResult(text) {
    case .success(let span): return at.advanced(by: span)
    case .failure(.tooLong):
      document.error(node, "expiration '\(Diagnostic.excerpt(text))' \(ValueSyntax.DurationProblem.tooLong.message)")
      return nil
    case .failure(.malformed): break
    }
    // An instant has a date ("2026-…T…"); anything else is neither form.
    guard text.contains("T"), text.first?.isNumber == true else {
      document.error(node, "expiration '\(Diagnostic.excerpt(text))' is not 0, an instant or a duration",
                     notes: ["write 0 (deliver now or never), an instant such as 2026-03-28T10:00:00, or a duration after 'at' such as 2h"])
      return nil
    }
    guard let instant = instantDuringRun(node, what: "expiration") else { return nil }
    guard instant >= at else {
      document.error(node, "expiration is before the push is sent", notes: ["write 0 for 'deliver now or never', or an instant at or after 'at'"])
      return nil
    }
    return instant
  }

  /// `preferences:`: `- { at: …, types: { new_comment: off }, quietHours: { from: "22:00", to: "07:00" } }`, in time order.
  private func readPreferenceChanges(_ node: Node) -> [AppPreferenceChange] {
    guard let list = document.sequence(node, what: "'preferences'") else { return [] }
    let knownTypes = Set(pushTypes)
    var changes: [AppPreferenceChange] = []
    for item in list {
      guard let fields = document.mapping(item, what: "a preference change", keys: ["at", "types", "quietHours"]) else { continue }
      guard let atNode = fields["at"] else {
        document.error(item, "a preference change needs 'at'", notes: ["say when the patient changes the app's settings: at: 2026-03-28T12:00:00"])
        continue
      }
      guard fields["types"] != nil || fields["quietHours"] != nil else {
        document.error(item, "a preference change needs 'types' or 'quietHours'",
                       notes: ["e.g. 'types: { new_comment: off }' or 'quietHours: { from: \"22:00\", to: \"07:00\" }'"])
        continue
      }
      let at = instantDuringRun(atNode, what: "preference change 'at'")
      let types = fields["types"].map { readTypeSwitches($0, known: knownTypes) }
      let quietHours = fields["quietHours"].map { readQuietHours($0) }
      if case .some(nil) = types { continue }
      guard let at, quietHours != .some(nil) else { continue }
      guard inTimeOrder(at, after: changes.last?.instant, atNode: atNode, what: "preference changes") else { continue }
      changes.append(AppPreferenceChange(instant: at, types: types.flatMap { $0 } ?? [], quietHours: quietHours.flatMap { $0 }, origin: document.location(item)))
    }
    return changes
  }

  /// `{ new_comment: off, achievement_unlocked: on }`: types some push has, in file order.
  private func readTypeSwitches(_ node: Node, known: Set<String>) -> [(type: String, on: Bool)]? {
    guard let mapping = node.mapping else {
      document.error(node, "'types' must be a mapping of push types to on or off", notes: ["e.g. 'types: { new_comment: off }'"])
      return nil
    }
    guard mapping.count > 0 else {
      document.error(node, "'types' lists no type", notes: ["e.g. 'types: { new_comment: off }'"])
      return nil
    }
    var switches: [(type: String, on: Bool)] = []
    var valid = true
    for (keyNode, value) in mapping {
      let on = onOff(value, what: "a type's setting")
      guard let type = document.string(keyNode, what: "a push type"), let on else {
        valid = false
        continue
      }
      guard known.contains(type) else {
        // A toggle for a type no push has would never apply: most likely a typo.
        var notes: [String] = []
        if let suggestion = NameSuggestion.closest(to: type, among: pushTypes) { notes.append("did you mean '\(suggestion)'?") }
        notes.append(pushTypes.isEmpty ? "no push under 'send:' has a 'type'" : "push types: \(YAMLDocument.nameList(pushTypes))")
        document.error(keyNode, "unknown push type '\(Diagnostic.excerpt(type))'", notes: notes)
        valid = false
        continue
      }
      switches.append((type, on))
    }
    return valid ? switches : nil
  }

  /// `{ from: "22:00", to: "07:00", enabled: true }`: set (`.some(hours)`)
  /// or switched off (`.some(nil)`, `enabled: false`); nil when wrong.
  func readQuietHours(_ node: Node) -> QuietHours?? {
    guard let fields = document.mapping(node, what: "'quietHours'", keys: ["from", "to", "enabled"]) else { return nil }
    let enabled = fields["enabled"].map { document.bool($0, what: "enabled") }
    let from = fields["from"].map { dailyTime($0) }
    let to = fields["to"].map { dailyTime($0) }
    guard let enabled = enabled ?? true, from != .some(nil), to != .some(nil) else { return nil }
    guard enabled else { return .some(nil) }
    guard let toNode = fields["to"], let from = from.flatMap({ $0 }), let to = to.flatMap({ $0 }) else {
      document.error(node, "quiet hours need 'from' and 'to'", notes: ["two times of day, e.g. '{ from: \"22:00\", to: \"07:00\" }'; 'enabled: false' switches them off"])
      return nil
    }
    guard from != to else {
      document.error(toNode, "quiet hours from \(from) to \(to) are empty",
                     notes: ["'from' is inclusive and 'to' exclusive; quiet hours that end earlier than they start run past midnight"])
      return nil
    }
    return .some(QuietHours(from: from, to: to))
  }
}
