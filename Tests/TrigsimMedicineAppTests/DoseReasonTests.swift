import Foundation
import Testing
import TrigsimMedicineApp
import TrigsimScenario
import TrigsimTestSupport

@testable import TrigsimCore

/// The reason a dose table or trial report gives for a dose says what
/// happened on the platform the scenario runs on: a crossing detected and
/// refused to an app without background location, a reminder delivered late,
/// and Android's geofences in place of the iPhone's location requests.
@Suite struct DoseReasonTests {
  /// The patient gets home at about 17:04 and again at about 18:34 on an
  /// Android phone; the app's location reminder is a geofence.
  static func comingHome(location: String) -> String {
    let track = RepositoryPaths.root.appendingPathComponent("fixtures/tracks/home-twice.csv").path
    return """
      trigsim: 1
      clock: { start: 2026-05-04T16:45:00+02:00, end: 2026-05-04T18:45:00+02:00, timezone: Europe/Copenhagen }
      platform: android
      track: { file: "\(track)" }
      medicines:
        - { id: eve, name: Evening pills, dosage: 1, unit: tablet, times: [], location: { center: [55.6761, 12.5683], radius: 100, on: [enter] }, snooze: none }
      app:
        - { at: 2026-05-04T16:45:00+02:00, location: \(location) }

      """
  }

  @Test func aCrossingDetectedAndRefusedToAnAppWithoutBackgroundLocationSaysSo() throws {
    let scenario = try ScenarioLoader().load(yaml: Self.comingHome(location: "when-in-use"), file: "s.yaml")
    let report = try Simulation(scenario).report()
    let first = try #require(report.summary.doses.first)
    #expect(first.outcome == .missed)
    #expect(first.reason
      == "the device detected the crossing at 2026-05-04T17:05:39.401+02:00, but the app's onGeofenceTransition did not run: the app lacks background location permission (ACCESS_BACKGROUND_LOCATION, 'Allow all the time'; it has 'when-in-use'), which Android 10 and later require to deliver a geofence transition to an app in the background")
    // The timeline shows the same: detected, then refused to the app.
    #expect(report.timeline.entries.contains { $0.kind == .detected && $0.localInstant == "2026-05-04T17:05:39.401+02:00" })
  }

  @Test func aReminderDeliveredLateSaysByHowMuchAndWhyNotThatItWasNotDelivered() throws {
    let path = RepositoryPaths.scenarios.appendingPathComponent("android-samsung-sleeping-app.yaml").path
    let scenario = try ScenarioLoader().loadFile(path: path).scenario
    let report = try Simulation(scenario).report()
    let late = try #require(report.summary.doses.first { $0.key.occurrenceLabel == "2026-05-07" && $0.reminder == "08:00" })
    #expect(RunSummary.remarks(late).hasPrefix(
      "reminder delivered 12h late: the app's alarm 'medicine_met_0800' for 2026-05-07T08:00:00.000+02:00 was held by the device past the prescription's window (local ±1h): standby bucket restricted allows 1 alarm per 1d: deferred to 2026-05-07T20:00:00.000+02:00"))
  }

  @Test func aDoseAFollowUpNotifiedAfterItsReminderWasLostStillSaysTheReminderWasNotDelivered() throws {
    var dose = DoseRecord(
      key: DoseKey(medicine: "m", slot: .time(DailyTime(hour: 8, minute: 0)), occurrence: 1), medicineName: "M", reminder: "08:00",
      scheduled: SimulationInstant(millisecondsSinceEpoch: 0))
    dose.notified = SimulationInstant(millisecondsSinceEpoch: 600_000)
    dose.reason = "the pending limit dropped it"
    #expect(RunSummary.remarks(dose) == "reminder not delivered: the pending limit dropped it")
    dose.reminderDelivered = dose.notified
    #expect(RunSummary.remarks(dose) == "reminder delivered 10m late: the pending limit dropped it")
  }

  @Test func androidsTrialReportSpeaksOfTheAppsGeofencesNotOfLocationRequests() throws {
    let scenario = try ScenarioLoader().load(yaml: Self.comingHome(location: "always"), file: "s.yaml")
    let text = try TrialRunner(scenario).run(TrialPlan(count: 4, seed: 1, jobs: 1)).text
    #expect(text.contains(
      "  none: on Android the app's geofences (GeofencingClient), not location requests, detect its crossings; each location dose below says how often it was notified\n"))
    #expect(!text.contains("no location request was pending"))
  }
}
