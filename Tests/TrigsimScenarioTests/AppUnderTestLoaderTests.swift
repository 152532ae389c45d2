import Foundation
import Testing
import TrigsimCore
import TrigsimTestSupport

@testable import TrigsimScenario

/// `appUnderTest:`: a scenario for a team's Swift app names the app's own notifications.
@Suite struct AppUnderTestLoaderTests: LoaderDiagnosticAssertions {
  static let header = """
    trigsim: 1
    clock: { start: 2026-05-04T07:00:00Z, end: 2026-05-04T12:00:00Z, timezone: UTC }
    medicines:
      - { id: 1, name: Metformin, dosage: 500, unit: mg, times: ["08:00"] }

    """

  @Test func aSwiftAppsScenarioNamesTheAppsOwnNotifications() throws {
    let scenario = try ScenarioLoader().load(yaml: "appUnderTest: swift\n" + Self.header + """
      actions:
        - { at: 2026-05-04T08:01:00Z, notification: metformin-0800, action: complete }
      respond:
        - { to: "metformin-*", after: 1m, actions: [snooze 15m, complete] }
      """, file: "s.yaml")
    #expect(scenario.appUnderTest == .swift)
    #expect(scenario.appUnderTestOrigin == InputLocation(file: "s.yaml", line: 1, column: 15))
    #expect(scenario.medicineApp.userActions.map(\.notification) == ["metformin-0800"])
    #expect(scenario.medicineApp.responseRules.map(\.pattern.text) == ["metformin-*"])
  }

  @Test func aMedicineOrAnEditEnteredWithTheAppOpenSaysSo() throws {
    let scenario = try ScenarioLoader().load(yaml: """
      trigsim: 1
      appUnderTest: swift
      clock: { start: 2026-05-04T07:00:00Z, end: 2026-05-04T12:00:00Z, timezone: UTC }
      medicines:
        - id: 1
          name: Metformin
          dosage: 500
          unit: mg
          times: ["08:00"]
          created: 2026-05-04T07:30:00Z
          appOpen: true
          edits:
            - { at: 2026-05-04T09:00:00Z, times: ["10:00"] }
            - { at: 2026-05-04T10:30:00Z, times: ["11:00"], appOpen: true }
      """, file: "s.yaml")
    #expect(scenario.medicineApp.medicineChanges.map(\.appOpen) == [true, false, true])
  }

  @Test func thePhonesCalendarIsAPlatformSetting() throws {
    let scenario = try ScenarioLoader().load(yaml: """
      trigsim: 1
      clock: { start: 2026-05-04T07:00:00Z, end: 2026-05-04T12:00:00Z, timezone: UTC }
      platform: { calendar: hebrew }
      """, file: "s.yaml")
    #expect(scenario.platform.calendar == .hebrew)
  }

  @Test func aSwiftAppsScenarioNeedsNoMedicinesForActions() throws {
    let scenario = try ScenarioLoader().load(yaml: """
      trigsim: 1
      appUnderTest: swift
      clock: { start: 2026-05-04T07:00:00Z, end: 2026-05-04T12:00:00Z, timezone: UTC }
      actions:
        - { at: 2026-05-04T08:01:00Z, notification: hello, action: open }
      """, file: "s.yaml")
    #expect(scenario.medicineApp.userActions.count == 1)
  }

  @Test func theMedicineAppsScenarioStillChecksItsIdentifiers() {
    assertDiagnostics(Self.header + """
      actions:
        - { at: 2026-05-04T08:01:00Z, notification: 1️⃣metformin-0800, action: complete }
      """, [Expected(marker: "1️⃣", message: "no medicine produces the notification 'metformin-0800'")])
  }

  @Test func anUnknownAppUnderTestIsALocatedError() {
    assertDiagnostics("appUnderTest: 1️⃣kotlin\n" + Self.header, [
      Expected(marker: "1️⃣", message: "unknown 'appUnderTest' 'kotlin'", note: "choose one of: built-in, swift")
    ])
  }

  @Test func forceQuitLocationIsAPlatformSetting() throws {
    let launched = try ScenarioLoader().load(yaml: "platform: { forceQuitLocation: launched }\n" + Self.header, file: "s.yaml")
    #expect(launched.platform.forceQuitLocationLaunch == .launched)
    #expect(try ScenarioLoader().load(yaml: Self.header, file: "s.yaml").platform.forceQuitLocationLaunch == .notLaunched)
    assertDiagnostics("platform: { forceQuitLocation: 1️⃣sometimes }\n" + Self.header, [
      Expected(marker: "1️⃣", message: "unknown force-quit location launch 'sometimes'", note: "choose one of: not-launched, launched")
    ])
  }
}
