import TrigsimCore
import Yams

/// The alarm and Doze keys of `platform: { device: android, android: { … } }`
/// (the manual, "Android alarms"). The lead's reader of the `android:`
/// mapping allows `androidAlarmKeys` among its keys and passes the fields here.
extension ScenarioReader {
  /// The keys of the `android:` mapping that set `AndroidAlarmRules` and `DozeRules`.
  static let androidAlarmKeys = [
    "version", "install", "exactAlarms", "useExactAlarm", "inexactTiming", "inexactWindow", "minWindow", "whileIdleSpacing",
    "exactWhileIdlePerHour", "exactWhileIdleQuota", "alarmClockExemption", "standbyBucket", "workingSetAlarmsPerHour", "frequentAlarmsPerHour",
    "rareAlarmsPerHour", "restrictedAlarmsPerDay", "bucketLimits", "batterySaverAlarms", "doze", "bucketsFollowUse", "bucketDecay",
  ]
  /// The keys of `bucketDecay:` (`StandbyBucketDecay`).
  static let androidBucketDecayKeys = ["workingSet", "frequent", "rare", "restricted"]
  /// The longest bucket-decay threshold: AOSP's longest is 8 days; a year is far past any.
  static let longestBucketDecay = SimulationDuration.hours(365 * 24)
  /// The keys of `doze:` when it is a mapping (`doze: off` turns Doze off).
  static let androidDozeKeys = ["enterAfter", "enterSpread", "maintenanceAfter", "maintenanceEvery", "maintenanceLength", "maintenanceSpread"]
  /// The Android versions a scenario may name: Doze arrived in 6, 16 is the newest.
  static let androidVersions = 6...16
  /// The longest span an alarm or Doze setting may have: no Android rule is
  /// longer than a day, a week is far past any.
  static let longestAndroidSpan = SimulationDuration.hours(7 * 24)

  /// The alarm and Doze settings among `fields` (the `android:` mapping's
  /// fields); each bad value reported at its line and column.
  func readAndroidAlarms(_ fields: MappingFields) -> (alarms: AndroidAlarmRules, doze: DozeRules) {
    var rules = AndroidAlarmRules()
    if let node = fields["version"], let value = document.integer(node, what: "Android version", range: Self.androidVersions) {
      rules.androidVersion = value
    }
    if let value: AndroidInstall = choice(fields, "install", what: "install") { rules.install = value }
    if let value: ExactAlarmPermission = choice(fields, "exactAlarms", what: "exact-alarm permission") { rules.exactAlarmPermission = value }
    if let node = fields["useExactAlarm"], let value = document.bool(node, what: "useExactAlarm") { rules.useExactAlarm = value }
    if let value: InexactAlarmTiming = choice(fields, "inexactTiming", what: "inexact timing") { rules.inexactTiming = value }
    if let value = androidSpan(fields, "inexactWindow", allowsZero: true) { rules.inexactWindow = value }
    if let value = androidSpan(fields, "minWindow", allowsZero: true) { rules.minWindow = value }
    if let value = androidSpan(fields, "whileIdleSpacing", allowsZero: true) { rules.whileIdleInexactSpacing = value }
    if let node = fields["exactWhileIdlePerHour"], let value = document.integer(node, what: "exactWhileIdlePerHour", range: 1...3600) {
      rules.whileIdleExactPerHour = value
    }
    if let value: ExactWhileIdleQuota = choice(fields, "exactWhileIdleQuota", what: "exact while-idle quota") { rules.exactWhileIdleReading = value }
    if let node = fields["alarmClockExemption"], let value = onOff(node, what: "alarmClockExemption") { rules.alarmClockExemption = value }
    if let value: StandbyBucket = choice(fields, "standbyBucket", what: "standby bucket") { rules.standbyBucket = value }
    if let count = quotaCount(fields, "workingSetAlarmsPerHour") { rules.workingSetAlarms = AlarmQuota(count: count, per: .hours(1)) }
    if let count = quotaCount(fields, "frequentAlarmsPerHour") { rules.frequentAlarms = AlarmQuota(count: count, per: .hours(1)) }
    if let count = quotaCount(fields, "rareAlarmsPerHour") { rules.rareAlarms = AlarmQuota(count: count, per: .hours(1)) }
    if let count = quotaCount(fields, "restrictedAlarmsPerDay") { rules.restrictedAlarms = AlarmQuota(count: count, per: .hours(24)) }
    if let value: BucketAlarmLimitScope = choice(fields, "bucketLimits", what: "bucket-limit scope") { rules.bucketLimitScope = value }
    if let value: BatterySaverAlarms = choice(fields, "batterySaverAlarms", what: "Battery Saver alarm rule") { rules.batterySaverAlarms = value }
    if let node = fields["bucketsFollowUse"], let value = document.bool(node, what: "bucketsFollowUse") { rules.bucketsFollowUse = value }
    if let node = fields["bucketDecay"], let decay = readBucketDecay(node) { rules.bucketDecay = decay }
    let doze = fields["doze"].map(readDoze) ?? DozeRules()
    return (rules, doze)
  }

  /// `doze: off`, `doze: on`, or a mapping of `androidDozeKeys`.
  func readDoze(_ node: Node) -> DozeRules {
    var doze = DozeRules()
    if node.scalar != nil {
      if let enabled = onOff(node, what: "doze") { doze.enabled = enabled }
      return doze
    }
    guard let fields = document.mapping(node, what: "'doze'", keys: Self.androidDozeKeys) else { return doze }
    if let value = androidSpan(fields, "enterAfter", allowsZero: true) { doze.enterAfter = value }
    if let value = androidSpan(fields, "enterSpread", allowsZero: true) { doze.enterSpread = value }
    if let value = androidSpan(fields, "maintenanceEvery", allowsZero: false), atLeast(DozeRules.shortestIdleSpan, value, fields["maintenanceEvery"]!) {
      doze.maintenanceEvery = value
    }
    if let value = androidSpan(fields, "maintenanceLength", allowsZero: false),
      atLeast(DozeRules.shortestMaintenanceLength, value, fields["maintenanceLength"]!)
    {
      doze.maintenanceLength = value
    }
    if let value = androidSpan(fields, "maintenanceSpread", allowsZero: true) { doze.maintenanceSpread = value }
    if let listNode = fields["maintenanceAfter"],
      let items = document.sequence(listNode, what: "'maintenanceAfter'", example: "e.g. maintenanceAfter: [1h, 2h, 4h]")
    {
      let spans = items.compactMap { item in
        androidSpan(item, what: "maintenanceAfter", allowsZero: false).flatMap { atLeast(DozeRules.shortestIdleSpan, $0, item) ? $0 : nil }
      }
      if spans.count == items.count { doze.maintenanceAfter = spans }
    }
    return doze
  }

  /// Whether a Doze span is at least its platform floor (`DozeRules.shortestIdleSpan`,
  /// `shortestMaintenanceLength`); else reports it at `node`.
  private func atLeast(_ floor: SimulationDuration, _ value: SimulationDuration, _ node: Node) -> Bool {
    guard value < floor else { return true }
    let what = floor == DozeRules.shortestIdleSpan ? "an idle span between maintenance windows" : "a maintenance window"
    document.error(
      node, "\(what) must be at least \(floor), not \(value)",
      notes: [floor == DozeRules.shortestIdleSpan
        ? "no Doze stage of AOSP's DeviceIdleController idles for less than 5m (LIGHT_IDLE_TIMEOUT); deep Doze's first idle span is 1h"
        : "AOSP keeps a maintenance window open at least 5s (MIN_LIGHT_MAINTENANCE_TIME), a deep one 30s"])
    return false
  }

  /// `bucketDecay: { workingSet: 12h, frequent: 24h, rare: 48h, restricted: 8d }`:
  /// each given threshold replaces its default; together they must grow.
  func readBucketDecay(_ node: Node) -> StandbyBucketDecay? {
    guard let fields = document.mapping(node, what: "'bucketDecay'", keys: Self.androidBucketDecayKeys) else { return nil }
    var decay = StandbyBucketDecay()
    var valid = true
    func threshold(_ key: String) -> SimulationDuration? {
      guard let node = fields[key] else { return nil }
      guard let value = duration(node, what: key) else {
        valid = false
        return nil
      }
      guard value.milliseconds > 0, value <= Self.longestBucketDecay else {
        document.error(node, "\(key) must be longer than zero and at most \(Self.longestBucketDecay), not \(value)", notes: ["e.g. \(key): 12h"])
        valid = false
        return nil
      }
      return value
    }
    if let value = threshold("workingSet") { decay.workingSet = value }
    if let value = threshold("frequent") { decay.frequent = value }
    if let value = threshold("rare") { decay.rare = value }
    if let value = threshold("restricted") { decay.restricted = value }
    guard valid else { return nil }
    guard decay.isIncreasing else {
      document.error(
        node, "the bucket-decay thresholds must grow: workingSet < frequent < rare < restricted, not \(decay)",
        notes: ["AOSP's defaults: 12h, 24h, 48h, 8d"])
      return nil
    }
    return decay
  }

  /// `fields[key]` as a duration from zero (or from above zero) to a week.
  private func androidSpan(_ fields: MappingFields, _ key: String, allowsZero: Bool) -> SimulationDuration? {
    fields[key].flatMap { androidSpan($0, what: key, allowsZero: allowsZero) }
  }

  private func androidSpan(_ node: Node, what: String, allowsZero: Bool) -> SimulationDuration? {
    guard let value = duration(node, what: what) else { return nil }
    if !allowsZero && value.milliseconds == 0 {
      document.error(node, "\(what) must be longer than zero", notes: ["e.g. 5m"])
      return nil
    }
    guard value <= Self.longestAndroidSpan else {
      document.error(node, "\(what) must be at most \(Self.longestAndroidSpan), not \(value)", notes: ["at most \(Self.longestAndroidSpan): no Android alarm or Doze rule spans more than a day, and a week is far past any"])
      return nil
    }
    return value
  }

  /// A bucket's alarm count: at least one (a quota of none would hold every alarm for ever).
  private func quotaCount(_ fields: MappingFields, _ key: String) -> Int? {
    fields[key].flatMap { document.integer($0, what: key, range: 1...3600) }
  }
}
