import Foundation
import Testing
import TrigsimCore
import TrigsimMedicineApp
import TrigsimScenario
import TrigsimTestSupport

/// The ported medicine app (`MedicineReminderApp`, behind the same seam as a
/// team's app) against the engine's built-in app, on every bundled scenario:
/// the same timeline (text, JSON, JSON Lines, CSV), dose table and trial
/// report, byte for byte.
///
/// `agreeing` lists the scenarios the port already reproduces; every other
/// scenario must still differ, so the list cannot fall behind the port in
/// either direction: a scenario that starts to agree fails here until it is
/// added. `TRIGSIM_PARITY_DIFF=1` prints each remaining difference.
@Suite struct BuiltInParityTests {
  /// Scenarios (paths under `scenarios/`) whose output the port reproduces byte for byte.
  static let agreeing: Set<String> = [
    // Background refresh: the port asks for its refresh task at launch and after each run.
    "background-refresh-tops-up.yaml",
    // Place sets: the nearest N places, followed through the significant-change service.
    "nearest-pharmacies-city-walk.yaml",
    // The persistent process model, polygon regions, batches of medicine changes, cut-short handlers.
    "corpus/multimodal-urban-walk-car-long-gaps-hdop.yaml",
    "handler-cut-short.yaml",
    "phone-off-across-dose.yaml",
    "reboot-before-first-unlock.yaml",
    "reminders-first-over-limit.yaml",
    "time-and-location.yaml",
    // The dose table's reasons (DoseExplaining), replaced identifiers, edits, on-delivery chains not started in the background.
    "dismiss-not-reported.yaml",
    "flight-east-home-zone.yaml",
    "medicine-edited.yaml",
    "on-delivery-background.yaml",
    "pending-limit-upfront.yaml",
    "quiet-night-assertions.yaml",
    "rule-step-unused.yaml",
    "shared-followup-numbers.yaml",
    "snooze-reuses-daily-identifier.yaml",
    // With medicines: reminders, upfront and on-delivery chains, actions, snoozes, badges, location reminders, trials.
    "app-toggles-quiet-hours.yaml",
    "approximate-location.yaml",
    "badge-app-code.yaml",
    "badge-pending-doses.yaml",
    "chain-ignored.yaml",
    "completed-on-first-alert.yaml",
    "corpus/stationary-phone-overnight-jitter-naive-time.yaml",
    "corpus/walk-urban-1hz-applewatch-hacc-vacc.yaml",
    "corpus/walk-urban-1hz-applewatch-ios.yaml",
    "drive-through-pharmacy.yaml",
    "focus-sleep-breakthrough.yaml",
    "location-arriving-home.yaml",
    "medicine-deleted.yaml",
    "park-near-pharmacy-inaccurate.yaml",
    "pharmacy-quick-stop.yaml",
    "provisional-authorization.yaml",
    "report-tour.yaml",
    "scheduled-summary.yaml",
    "settings-sounds-off.yaml",
    "snoozed-twice-then-completed.yaml",
    "walk-home-latency.yaml",
    // Without medicines: the app only sets its delegates and shows foreground notifications.
    "app-quiet-hours-in-app.yaml",
    "corpus/cycle-flat-rural-1hz-strava.yaml",
    "corpus/cycle-hilly-rural-1hz-garmin-large.yaml",
    "corpus/cycle-urban-short-1hz-gap-negative-ele.yaml",
    "corpus/drive-1hz-android-fix-epoch-ms.yaml",
    "corpus/drive-1hz-gps-epoch-ms-hdop.yaml",
    "corpus/drive-highway-longdistance-32seg-oneline.yaml",
    "corpus/drive-rural-1hz-etrex-gap.yaml",
    "corpus/drive-urban-osm-traces-partial-time-gpx10.yaml",
    "corpus/duathlon-run-mtb-crlf-latin1-11trk.yaml",
    "corpus/hike-crlf-gpx10-3trk-14seg-wpts.yaml",
    "corpus/hike-day-10s-garmin-2seg.yaml",
    "corpus/hike-partial-missing-time-empty-trk-gpx10.yaml",
    "corpus/mixed-walk-drive-sparse-8trk-gpx10.yaml",
    "corpus/run-1hz-garmin-tpx-hr.yaml",
    "corpus/run-gpxdata-ext-speed-hr-ms-jitter.yaml",
    "corpus/run-smartrecording-fracsec-hr-cad.yaml",
    "corpus/taxi-sparse-lonlat-naive-localtime.yaml",
    "corpus/train-intercity-posmo-semicolon-lonlat.yaml",
    "corpus/walk-sparse-60s-google-reverse-order-semicolon.yaml",
    "drive-past-pharmacy.yaml",
    "dst-fall-back.yaml",
    "dst-spring-forward.yaml",
    "graze-pharmacy.yaml",
    "morning-walk.yaml",
    "pending-limit.yaml",
    "pushes-offline-collapse.yaml",
    "request-lifecycle.yaml",
    "timezone-travel.yaml",
  ]

  @Test(arguments: RepositoryPaths.bundledScenarioFiles)
  func thePortAgreesWithTheBuiltInAppExactlyWhereListed(_ file: String) throws {
    let path = RepositoryPaths.scenarios.appendingPathComponent(file).path
    guard let loaded = try? ScenarioLoader().loadFile(path: path) else {
      // Skipped here (a corpus track under ../shared/tracks is absent): loading it must say so.
      #expect(throws: ScenarioSkipped.self) { try ScenarioLoader().loadFile(path: path) }
      return
    }
    let difference = try Self.firstDifference(loaded)
    if ProcessInfo.processInfo.environment["TRIGSIM_PARITY_DIFF"] == "1", let difference {
      print("PARITY \(file): \(difference.prefix(3000))\nEND PARITY")
    }
    if Self.agreeing.contains(file) {
      #expect(difference == nil, "the port no longer agrees on \(file): \(difference ?? "")")
    } else {
      #expect(difference != nil, "the port now agrees on \(file): add it to BuiltInParityTests.agreeing")
    }
  }

  /// What first differs between the built-in app's outputs and the port's, or nil.
  static func firstDifference(_ file: ScenarioFile) throws -> String? {
    let scenario = file.scenario
    let builtIn = try Simulation(scenario).report()
    let port: SimulationReport
    do {
      port = try Simulation(scenario, app: MedicineReminderApp.hosted(for: scenario)).report()
    } catch {
      return "the port's run failed: \(error)"
    }
    let outputs: [(String, (SimulationReport) -> String)] = [
      ("timeline text", { $0.timeline.canonicalText }), ("JSON", { $0.timeline.json }), ("JSON Lines", { $0.timeline.jsonLines }),
      ("CSV", { $0.timeline.csv }), ("dose table", { $0.summary.text }),
    ]
    for (name, render) in outputs {
      let expected = render(builtIn)
      let actual = render(port)
      if expected != actual { return "\(name):\n" + TextDiff.lines(expected: expected, actual: actual) }
    }
    if let trials = file.checks.trials {
      let plan = TrialPlan(count: min(trials.count, 200), seed: trials.seed, jobs: 2)
      let expected = try TrialRunner(scenario).run(plan)
      let actual: TrialReport
      do {
        actual = try TrialRunner(scenario, app: MedicineReminderApp.hosted(for: scenario)).run(plan)
      } catch {
        return "the port's trials failed: \(error)"
      }
      if expected.text != actual.text { return "trial report:\n" + TextDiff.lines(expected: expected.text, actual: actual.text) }
      if expected.json != actual.json { return "trial report (JSON) differs" }
    }
    return nil
  }
}
