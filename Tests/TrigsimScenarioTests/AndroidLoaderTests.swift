import Foundation
import Testing
import TrigsimCore
import TrigsimTestSupport

@testable import TrigsimScenario

/// `platform: android` and the Android keys the lead's reader owns: the
/// device's name, notifications, the OEM killer, `policy: android:`, the
/// app changes `exactAlarms` and `channel`; each problem at its value.
@Suite struct AndroidLoaderTests: LoaderDiagnosticAssertions {
  static let header = """
    trigsim: 1
    clock: { start: 2026-05-05T07:00:00+02:00, end: 2026-05-05T09:00:00+02:00, timezone: Europe/Copenhagen }
    medicines:
      - { id: met, name: Metformin, dosage: 500, unit: mg, times: ["08:00"] }

    """

  func load(_ yaml: String) throws -> Scenario { try ScenarioLoader().load(yaml: yaml, file: "s.yaml") }

  @Test func platformAndroidRunsOnTheAndroidDeviceWithItsDefaults() throws {
    let scenario = try load(Self.header + "platform: android\n")
    #expect(scenario.platform.android == AndroidSettings())
    #expect(scenario.platform.name == .android)
    #expect(try load(Self.header + "platform: ios\n").platform.android == nil)
    #expect(try load(Self.header).platform.name == .ios)
  }

  @Test func theAndroidRulesAreKeptWhenTheScenarioRunsOnIOS() throws {
    let scenario = try load(Self.header + "platform: { device: ios, android: { version: 12, notifications: { dnd: total-silence } } }\n")
    #expect(scenario.platform.android == nil)
    #expect(scenario.androidRules.alarms.androidVersion == 12)
    #expect(scenario.on(.android).platform.android?.notifications.dndMode == .totalSilence)
  }

  @Test func theNotificationRulesAndTheOEMKillerAreReadAsWritten() throws {
    let scenario = try load(
      Self.header
        + "platform: { device: android, android: { notifications: { dnd: alarms-only, dndAllows: [alarm, reminder], policyAccess: true }, oemKiller: { preset: aggressive, after: 30m, exempt: true } } }\n")
    let android = try #require(scenario.platform.android)
    #expect(android.notifications.dndMode == .alarmsOnly)
    #expect(android.notifications.dndAllowedCategories == [.alarm, .reminder])
    #expect(android.notifications.notificationPolicyAccess)
    #expect(android.oemKiller.preset == .aggressive && android.oemKiller.after == .minutes(30) && android.oemKiller.exempt)
    #expect(try load(Self.header + "platform: { device: android, android: { oemKiller: aggressive } }\n").platform.android?.oemKiller.preset == .aggressive)
  }

  @Test func theAndroidPolicyAndTheAppChangesAreReadAsWritten() throws {
    let scenario = try load(
      Self.header + """
        policy:
          android: { alarms: alarm-clock, reRegisterAtBoot: true, directBootAware: true, asksNotificationPermission: false, channelImportance: default, category: none }
        app:
          - { at: 2026-05-05T07:30:00+02:00, exactAlarms: revoked }
          - { at: 2026-05-05T07:40:00+02:00, channel: { id: doses, importance: min } }

        """)
    let policy = scenario.medicineApp.policy.android
    #expect(policy.alarms == .alarmClock && policy.reRegisterAtBoot && policy.directBootAware && !policy.asksNotificationPermission)
    #expect(policy.channelImportance == .default && policy.category == nil)
    #expect(scenario.medicineApp.appChanges.map(\.exactAlarms) == [false, nil])
    #expect(scenario.medicineApp.appChanges.last?.channel?.id == "doses" && scenario.medicineApp.appChanges.last?.channel?.importance == .min)
  }

  @Test func anUnknownPhoneIsReportedWithASuggestion() {
    assertDiagnostics(Self.header + "platform: 1️⃣andriod\n", [Expected(marker: "1️⃣", message: "unknown device 'andriod'", note: "did you mean 'android'?")])
  }

  @Test func badAndroidValuesAreReportedWhereTheyAre() {
    assertDiagnostics(
      Self.header + """
        platform: { device: android, android: { notifications: { dnd: 1️⃣quiet }, oemKiller: { after: 2️⃣0s } } }
        policy:
          android: { alarms: 3️⃣exactly, directBootAware: 4️⃣true, reRegisterAtBoot: false }
        app:
          - { at: 2026-05-05T07:30:00+02:00, exactAlarms: 5️⃣maybe }
          - { at: 2026-05-05T07:40:00+02:00, channel: 6️⃣{ id: doses } }

        """,
      [
        Expected(marker: "1️⃣", message: "unknown Do Not Disturb mode 'quiet'"),
        Expected(marker: "2️⃣", message: "after must be longer than zero and at most 60 days"),
        Expected(marker: "3️⃣", message: "unknown alarm strategy 'exactly'"),
        Expected(marker: "4️⃣", message: "'directBootAware' needs a boot receiver", note: "set 'reRegisterAtBoot: true', or remove 'directBootAware'"),
        Expected(marker: "5️⃣", message: "unknown exact-alarm permission 'maybe'"),
        Expected(marker: "6️⃣", message: "a channel change needs 'id' and 'importance'"),
      ])
  }

  @Test func theFCMRulesAndAPushsChannelAndFCMPriorityAreReadAsWritten() throws {
    let scenario = try load(
      Self.header + """
        platform:
          device: android
          android:
            fcm: { normalPriorityInDoze: maintenance-window, rareHighPriorityPerDay: 3, bucketQuotas: all-versions, deprioritizeAfterUnnotified: 0, timeToLive: 2d, storedMessageLimit: 10, storedCollapseKeys: 2 }
        pushes:
          send:
            - { at: 2026-05-05T07:30:00+02:00, id: a, title: Refill, priority: normal, channel: family }
            - { at: 2026-05-05T07:40:00+02:00, id: b, title: Recall, priority: high }

        """)
    let fcm = try #require(scenario.platform.android?.fcm)
    #expect(fcm.normalPriorityInDoze == .maintenanceWindow && fcm.rareHighPriorityPerDay == 3 && fcm.bucketQuotaScope == .allVersions)
    #expect(fcm.deprioritizeAfterUnnotified == 0 && fcm.defaultTimeToLive == .hours(48) && fcm.storedMessageLimit == 10 && fcm.storedCollapseKeys == 2)
    #expect(fcm.frequentHighPriorityPerDay == FCMRules().frequentHighPriorityPerDay)
    #expect(scenario.pushes.pushes.map(\.priority) == [5, 10])
    #expect(scenario.pushes.pushes.map(\.channel) == ["family", nil])
  }

  @Test func badFCMValuesAreReportedWhereTheyAre() {
    assertDiagnostics(
      Self.header + """
        platform: { device: android, android: { fcm: { normalPriorityInDoze: 1️⃣never, timeToLive: 2️⃣60d, storedMessageLimit: 3️⃣0 } } }

        """,
      [
        Expected(marker: "1️⃣", message: "unknown normal-priority rule in Doze 'never'"),
        Expected(marker: "2️⃣", message: "timeToLive must be longer than zero and at most 28d (FCM's longest time to live), not 60d"),
        Expected(marker: "3️⃣", message: "storedMessageLimit must be between 1 and 10000, not 0"),
      ])
  }

  @Test func theSamsungPresetHasItsOwnSpansUnlessTheMappingGivesOthers() throws {
    let preset = try load(Self.header + "platform: { device: android, android: { oemKiller: samsung } }\n")
    #expect(preset.platform.android?.oemKiller == OEMBackgroundKiller.preset(.samsung))
    let changed = try load(Self.header + "platform: { device: android, android: { oemKiller: { preset: samsung, sleepAfter: 2d } } }\n")
    #expect(changed.platform.android?.oemKiller.sleepAfter == .hours(48))
    #expect(changed.platform.android?.oemKiller.after == .hours(16 * 24))
  }
}

