import Testing
import TrigsimCore
import Yams

@testable import TrigsimScenario

/// The alarm and Doze keys of the `android:` mapping, read by
/// `ScenarioReader.readAndroidAlarms` (the lead's reader of `platform.android`
/// passes it the mapping's fields): values as written, and each bad value at its line and column.
@Suite struct AndroidAlarmsLoaderTests {
  /// Reads `yaml` (an `android:` mapping's body, one key per line) as the lead's reader will.
  static func read(_ yaml: String) -> (alarms: AndroidAlarmRules, doze: DozeRules, diagnostics: [Diagnostic]) {
    let document = YAMLDocument(file: "s.yaml", text: yaml)
    let reader = ScenarioReader(document: document, baseDirectory: "/")
    guard let root = document.root(), let fields = document.mapping(root, what: "'android'", keys: ScenarioReader.androidAlarmKeys) else {
      return (AndroidAlarmRules(), DozeRules(), document.diagnostics.diagnostics)
    }
    let (alarms, doze) = reader.readAndroidAlarms(fields)
    return (alarms, doze, document.diagnostics.diagnostics)
  }

  @Test func everySettingIsReadAsWritten() {
    let (alarms, doze, diagnostics) = Self.read(
      """
      version: 13
      install: upgrade
      exactAlarms: denied
      useExactAlarm: true
      inexactTiming: earliest
      inexactWindow: 30m
      minWindow: 5m
      whileIdleSpacing: 15m
      exactWhileIdlePerHour: 7
      alarmClockExemption: off
      standbyBucket: rare
      workingSetAlarmsPerHour: 9
      frequentAlarmsPerHour: 3
      rareAlarmsPerHour: 2
      restrictedAlarmsPerDay: 4
      bucketLimits: before-android-13
      batterySaverAlarms: unrestricted
      doze: { enterAfter: 30m, enterSpread: 1m, maintenanceAfter: [15m, 45m], maintenanceEvery: 2h, maintenanceLength: 5m }
      """)
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    #expect(alarms.androidVersion == 13)
    #expect(alarms.install == .upgrade)
    #expect(alarms.exactAlarmPermission == .denied && !alarms.initialExactAlarmPermission)
    #expect(alarms.useExactAlarm)
    #expect(alarms.inexactTiming == .earliest)
    #expect(alarms.inexactWindow == .minutes(30) && alarms.minWindow == .minutes(5) && alarms.whileIdleInexactSpacing == .minutes(15))
    #expect(alarms.whileIdleExactPerHour == 7)
    #expect(!alarms.alarmClockExemption)
    #expect(alarms.standbyBucket == .rare)
    #expect(alarms.workingSetAlarms == AlarmQuota(count: 9, per: .hours(1)))
    #expect(alarms.frequentAlarms == AlarmQuota(count: 3, per: .hours(1)))
    #expect(alarms.rareAlarms == AlarmQuota(count: 2, per: .hours(1)))
    #expect(alarms.restrictedAlarms == AlarmQuota(count: 4, per: .hours(24)))
    #expect(alarms.bucketLimitScope == .beforeAndroid13)
    #expect(alarms.batterySaverAlarms == .unrestricted)
    #expect(doze.enabled && doze.enterAfter == .minutes(30) && doze.enterSpread == .minutes(1))
    #expect(doze.maintenanceAfter == [.minutes(15), .minutes(45)])
    #expect(doze.maintenanceEvery == .hours(2) && doze.maintenanceLength == .minutes(5))
  }

  @Test func absentKeysKeepTheDefaults() {
    let (alarms, doze, diagnostics) = Self.read("version: 14\n")
    #expect(diagnostics.isEmpty)
    #expect(alarms == AndroidAlarmRules())
    #expect(doze == DozeRules())
  }

  @Test func dozeOffTurnsItOff() {
    let (_, doze, diagnostics) = Self.read("doze: off\n")
    #expect(diagnostics.isEmpty)
    #expect(!doze.enabled)
    #expect(doze.summary == "doze=off")
  }

  @Test func badValuesAreReportedAtTheirLineAndColumn() {
    let (_, _, diagnostics) = Self.read(
      """
      version: 5
      install: sideload
      exactWhileIdlePerHour: 0
      inexactWindow: 8d
      doze: { maintenanceLength: 0s, maintenanceAfter: [1h, soon], idleAfter: 1h }
      """)
    let found = diagnostics.sorted { ($0.location.line, $0.location.column) < ($1.location.line, $1.location.column) }
      .map { "\($0.location.line):\($0.location.column) \($0.message)" }
    #expect(
      found == [
        "1:10 Android version must be between 6 and 16, not 5",
        "2:10 unknown install 'sideload'",
        "3:24 exactWhileIdlePerHour must be between 1 and 3600, not 0",
        "4:16 inexactWindow must be at most 7d, not 8d",
        "5:28 maintenanceLength must be longer than zero",
        "5:55 maintenanceAfter 'soon' is not a duration",
        "5:62 unknown key 'idleAfter' in 'doze'",
      ], "\(found)")
  }

  /// Issue 41, item 3: maintenance windows a millisecond apart were made for
  /// the whole clock (225 MB and 8 s a clock hour). Idle spans and windows
  /// now have floors from AOSP's own constants, each refused at its value.
  @Test func dozeSpansBelowThePlatformsFloorsAreRefusedAtTheirValues() {
    let (_, _, diagnostics) = Self.read(
      "doze: { enterAfter: 0s, maintenanceAfter: [1ms, 1h], maintenanceEvery: 1ms, maintenanceLength: 1ms }\n")
    let found = diagnostics.map { "\($0.location.line):\($0.location.column) \($0.message)" }
    #expect(found == [
      "1:44 an idle span between maintenance windows must be at least 5m, not 1ms",
      "1:72 an idle span between maintenance windows must be at least 5m, not 1ms",
      "1:96 a maintenance window must be at least 5s, not 1ms",
    ], "\(found)")
    #expect(diagnostics.first?.notes == ["no Doze stage of AOSP's DeviceIdleController idles for less than 5m (LIGHT_IDLE_TIMEOUT); deep Doze's first idle span is 1h"])
    // At the floors themselves the settings are read.
    let (_, floors, none) = Self.read("doze: { maintenanceAfter: [5m], maintenanceEvery: 5m, maintenanceLength: 5s }\n")
    #expect(none.isEmpty)
    #expect(floors.maintenanceAfter == [.minutes(5)] && floors.maintenanceEvery == .minutes(5) && floors.maintenanceLength == .seconds(5))
  }

  @Test func theSchemaDefinitionHoldsEveryKey() throws {
    let shape = try #require(ScenarioSchemaTests.shape("/definitions/androidAlarms"))
    #expect(shape.keys == Set(ScenarioReader.androidAlarmKeys))
    let doze = try #require(ScenarioSchemaTests.shape("/definitions/androidAlarms/properties/doze/anyOf/1"))
    #expect(doze.keys == Set(ScenarioReader.androidDozeKeys))
  }
}
