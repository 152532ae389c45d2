import Foundation
import Testing
@testable import TrigsimCore
import TrigsimTestSupport

@testable import TrigsimScenario

/// The registry of assumptions (`AssumptionRegistry`), where runs consult
/// it, the assumption report and `robust: true` (the manual, "Assumptions").
@Suite struct AssumptionTests: LoaderDiagnosticAssertions {
  static let header: String =
    "trigsim: 1\nclock: { start: 2026-05-05T06:00:00+02:00, end: 2026-05-05T10:00:00+02:00, timezone: Europe/Copenhagen }\n"

  /// The phone off from 06:45 to 07:30 across a 07:00 dose.
  static let phoneOff: String = """
    medicines:
      - { id: levo, name: Levothyroxine, dosage: 50, times: ["07:00"], snooze: none }
    device:
      power:
        - { at: 2026-05-05T06:45:00, event: switch-off }
        - { at: 2026-05-05T07:30:00, event: switch-on }
        - { at: 2026-05-05T07:32:00, event: unlock }
    expect: none

    """

  /// Home is entered at about 17:04 and left at about 18:01; the location
  /// medicine is created at the clock's start, 17:10, with the device inside.
  static func insideAtAdd(platform: String = "location: ideal", assertions: String = "  - count: { fired: \"medicine_eve_location\", equals: 1 }\n") -> String {
    let track = RepositoryPaths.root.appendingPathComponent("fixtures/tracks/home-twice.csv").path
    return """
      trigsim: 1
      clock: { start: 2026-05-04T17:10:00+02:00, end: 2026-05-04T18:45:00+02:00, timezone: Europe/Copenhagen }
      platform: { \(platform) }
      track: { file: "\(track)" }
      medicines:
        - { id: eve, name: Evening pills, dosage: 1, unit: tablet, times: [], location: { center: [55.6761, 12.5683], radius: 100, on: [enter] }, snooze: none }
      expect: none
      assert:

      """ + assertions
  }

  func load(_ yaml: String) throws -> ScenarioFile { try ScenarioLoader().loadFile(yaml: yaml, file: "s.yaml") }

  func run(_ file: ScenarioFile) throws -> SimulationReport { try ScenarioVerifier().simulation(of: file.scenario).report() }

  func report(_ file: ScenarioFile, jobs: Int = 1) throws -> AssumptionReport {
    var verifier = ScenarioVerifier()
    verifier.trialJobs = jobs
    return verifier.assumptionReport(of: file, baseline: try run(file))
  }

  // MARK: - The registry

  @Test func eachEntryHasAnIdSourcesAndAlternativesOfItsOwn() {
    let ids = AssumptionRegistry.entries.map(\.id)
    #expect(Set(ids).count == ids.count)
    for entry in AssumptionRegistry.entries {
      #expect(!entry.sources.isEmpty, "\(entry.id)")
      #expect(!entry.alternatives.isEmpty, "\(entry.id)")
      let readings = [entry.defaultReading.yaml] + entry.alternatives.map(\.yaml)
      #expect(Set(readings).count == readings.count, "\(entry.id)")
    }
  }

  /// The scenario's rules a registry setting can change, in words: the
  /// iPhone's platform rules, the Android rules (stated and in force) and the server's.
  static func settings(of scenario: Scenario) -> String {
    "\(scenario.platform.summary) \(scenario.platform.attention.summary) \(String(describing: scenario.platform.android)) "
      + "\(String(describing: scenario.androidRules)) \(String(describing: scenario.server))"
  }

  /// The scenario text that states `entry` as `reading` at its place
  /// (`platform: { device: android, android: { fcm: { storedCollapseKeysKept: "oldest" } } }`).
  static func stating(_ entry: Assumption, as reading: String) -> String {
    let path = entry.place + entry.id.rawValue.split(separator: ".").map(String.init)
    var value = "\"\(reading)\""
    for (depth, key) in path.enumerated().dropFirst().reversed() {
      var others = ""
      if depth == 1 && path[0] == "platform" && key == "android" { others = "device: android, " }
      if depth == 2 && path[0] == "platform" && path[1] == "location" { others = "profile: ios, " }
      if depth == 1 && path[0] == "server" { others = "policy: [ { channel: push } ], " }
      value = "{ \(others)\(key): \(value) }"
    }
    return "\(path[0]): \(value)\n"
  }

  /// Each entry's default reading is what trigsim assumes when a scenario says nothing.
  @Test(arguments: AssumptionRegistry.entries.map(\.id.rawValue))
  func theDefaultReadingIsThePlatformsDefault(_ id: String) throws {
    let entry = try #require(AssumptionRegistry.entry(AssumptionID(id)))
    let scenario = try load(Self.header + Self.phoneOff + "assert:\n  - pendingPeak: { atMost: 5 }\n").scenario
    let before = Self.settings(of: scenario)
    #expect(Self.settings(of: entry.applying(entry.defaultReading, to: scenario)) == before)
    for alternative in entry.alternatives {
      #expect(Self.settings(of: entry.applying(alternative, to: scenario)) != before, "\(entry.id)=\(alternative.yaml) changes nothing")
    }
  }

  /// Each entry is a key at its place that reads each of its readings (a stated setting).
  @Test(arguments: AssumptionRegistry.entries.map(\.id.rawValue))
  func eachReadingIsAValidValueAtItsPlaceAndMarksTheSettingStated(_ id: String) throws {
    let entry = try #require(AssumptionRegistry.entry(AssumptionID(id)))
    var loaded: [String] = []
    for reading in [entry.defaultReading] + entry.alternatives {
      let file = try load(Self.header + Self.stating(entry, as: reading.yaml) + Self.phoneOff + "assert:\n  - pendingPeak: { atMost: 5 }\n")
      // The loader set the setting as the reading does: applying it again changes nothing.
      #expect(Self.settings(of: entry.applying(reading, to: file.scenario)) == Self.settings(of: file.scenario), "\(entry.id)=\(reading.yaml)")
      #expect(file.scenario.statedAssumptions == [AssumptionID(id)])
      loaded.append(Self.settings(of: file.scenario))
    }
    #expect(Set(loaded).count == loaded.count, "\(entry.id): two readings load the same rules")
  }

  // MARK: - powerOffCatchUp

  @Test func aDoseDueWhileOffConsultsPowerOffCatchUpAndIsMissedByDefault() throws {
    let file = try load(Self.header + Self.phoneOff + "assert:\n  - dosesNotified: { within: 1h }\n")
    let baseline = try run(file)
    #expect(baseline.summary.consultedAssumptions == [.powerOffCatchUp])
    #expect(baseline.summary.doses.first?.outcome == .missed)
    let report = try report(file)
    #expect(report.text == """
      assumptions consulted: 1, reruns: 2
        powerOffCatchUp: default none; alternatives all, recent 15m
      dose levo 07:00 2026-05-05: missed by default (powerOffCatchUp=none); notified 07:32 (daily reminder, lock-screen, seen at a look), unanswered under powerOffCatchUp=all
      assert[1] every dose notified within 1h of its time, none missed (s.yaml:12:5): fails (1 dose missed or notified late) by default; holds under powerOffCatchUp=all

      """)
  }

  @Test func aStatedCatchUpIsTheScenariosChoiceNotAnAssumption() throws {
    // With the catch-up stated, how it is presented is the next reading the run depends on: stated too.
    let file = try load(Self.header + "platform: { powerOffCatchUp: all, catchUpPresentation: listed, deliveryBeforeFirstUnlock: held }\n" + Self.phoneOff + "assert:\n  - dosesNotified: { within: 1h }\n")
    #expect(try run(file).summary.consultedAssumptions.isEmpty)
    #expect(try report(file).text == "assumptions consulted: none (no registry setting the scenario leaves unstated decided anything in this run)\n")
  }

  @Test func aPhoneThatStaysOnConsultsNothing() throws {
    let yaml = Self.header + "medicines:\n  - { id: levo, name: Levothyroxine, dosage: 50, times: [\"07:00\"] }\nexpect: none\nassert:\n  - pendingPeak: { atMost: 5 }\n"
    #expect(try run(load(yaml)).summary.consultedAssumptions.isEmpty)
  }

  // MARK: - locationAlreadyInside

  @Test func aRequestAddedInsideItsRegionConsultsLocationAlreadyInsideAndIsSilentByDefault() throws {
    let baseline = try run(load(Self.insideAtAdd()))
    #expect(baseline.summary.consultedAssumptions == [.locationAlreadyInside])
    // Only the next arrival (18:33:45) fires.
    #expect(baseline.timeline.entries.filter { $0.kind == .fired }.map { $0.instant.millisecondsSinceEpoch } == [Int64(1_777_912_425_152)])
  }

  @Test func underEnteredTheDeviceReportsTheEntryAfterItsUsualLatency() throws {
    let report = try run(load(Self.insideAtAdd(platform: "location: ios, locationAlreadyInside: entered")))
    // The detections rest on the iOS location readings (issue 42), not on the stated one.
    #expect(report.summary.consultedAssumptions == [.locationLatency, .locationBackgroundAccuracy])
    let detected = try #require(report.timeline.entries.first { $0.kind == .detected })
    // After the usual latency, 1 minute (the calibrated default).
    #expect(detected.canonicalLine.hasPrefix("2026-05-04T17:11:00.000+02:00 detected    medicine_eve_area event=enter reason="))
    let fired = report.timeline.entries.filter { $0.kind == .fired }.map(\.instant)
    #expect(fired.first == detected.instant)
    #expect(fired.count == 2)
  }

  @Test func aRequestAddedOutsideItsRegionConsultsNothing() throws {
    // From 18:05 the device is outside home: the add is no question.
    let yaml = Self.insideAtAdd().replacingOccurrences(of: "start: 2026-05-04T17:10:00+02:00", with: "start: 2026-05-04T18:05:00+02:00")
    #expect(try run(load(yaml)).summary.consultedAssumptions.isEmpty)
  }

  // MARK: - The report and robust

  @Test func robustFailsNamingTheAlternativeUnderWhichAnAssertionFails() throws {
    let file = try load(Self.insideAtAdd(assertions: "  - count: { fired: \"medicine_eve_location\", equals: 1 }\n  - robust: true\n"))
    #expect(file.checks.robust == InputLocation(file: "s.yaml", line: 10, column: 5))
    let verification = ScenarioVerifier().verify(file)
    #expect(verification.outcome == .failed)
    let failure = try #require(verification.assertionFailures.first)
    #expect(failure.origin == file.checks.robust)
    #expect(failure.finding == "under locationAlreadyInside=entered: s.yaml:9:5: assertion failed: count of 'fired medicine_eve_location' is 1: found 2 matching entries")
    #expect(verification.failureMessage.contains("under locationAlreadyInside=entered"))
  }

  @Test func robustHoldsWhenEveryAssertionHoldsUnderEveryAlternative() throws {
    let file = try load(Self.header + Self.phoneOff + "assert:\n  - nothingFired: { from: 2026-05-05T06:45:00, to: 2026-05-05T07:30:00 }\n  - robust: true\n")
    let verification = ScenarioVerifier().verify(file)
    #expect(verification.outcome == .passed)
    #expect(verification.assumptionReport?.variants.map(\.label) == ["powerOffCatchUp=all", "powerOffCatchUp=recent 15m"])
  }

  @Test func robustFalseRequiresNothing() throws {
    let file = try load(Self.insideAtAdd(assertions: "  - count: { fired: \"medicine_eve_location\", equals: 1 }\n  - robust: false\n"))
    #expect(file.checks.robust == nil)
    #expect(ScenarioVerifier().verify(file).outcome == .passed)
  }

  @Test func robustTakesTrueOrFalse() {
    assertDiagnostics(Self.header + Self.phoneOff + "assert:\n  - robust: 1️⃣yes-please\n", [
      Expected(marker: "1️⃣", message: "'robust' must be true or false, not 'yes-please'")
    ])
  }

  @Test func robustIsStatedOnce() {
    assertDiagnostics(Self.header + Self.phoneOff + "assert:\n  - robust: true\n  - 1️⃣robust: true\n", [
      Expected(marker: "1️⃣", message: "'robust' is stated twice")
    ])
  }

  @Test func locationAlreadyInsideTakesItsReadings() {
    assertDiagnostics(Self.header + "platform: { locationAlreadyInside: 1️⃣inside }\n" + Self.phoneOff + "assert:\n  - pendingPeak: { atMost: 5 }\n", [
      Expected(marker: "1️⃣", message: "unknown already-inside rule 'inside'")
    ])
  }

  @Test func theReportIsTheSameWhateverTheThreadCount() throws {
    // Four assumptions consulted, six reruns on up to eight threads, the track read by each.
    let power = "device:\n  power:\n    - { at: 2026-05-04T17:20:00, event: switch-off }\n    - { at: 2026-05-04T17:40:00, event: switch-on }\n    - { at: 2026-05-04T17:41:00, event: unlock }\n"
    let metformin = "  - { id: met, name: Metformin, dosage: 500, times: [\"17:30\"], snooze: none }\n"
    let yaml = Self.insideAtAdd(platform: "location: ios")
      .replacingOccurrences(of: "expect: none", with: power + "expect: none")
      .replacingOccurrences(of: "snooze: none }\n", with: "snooze: none }\n" + metformin)
    let file = try load(yaml)
    let one = try report(file, jobs: 1)
    #expect(
      one.variants.map(\.label) == [
        "powerOffCatchUp=all", "powerOffCatchUp=recent 15m", "locationAlreadyInside=entered", "location.latency=10s",
        "location.backgroundAccuracy=65", "location.backgroundAccuracy=20",
      ])
    for jobs in [2, 3, 8] { #expect(try report(file, jobs: jobs).text == one.text, "\(jobs) threads") }
    #expect(one.text.contains("under locationAlreadyInside=entered"))
    #expect(one.text.contains("under powerOffCatchUp=all"))
  }

  /// The reported case (issue 45, item 10): a place-set dose is matched by
  /// its place and that place's own occurrence. Under
  /// `locationAlreadyInside=entered` p0352's request, registered with the
  /// patient inside, reports an entry: a dose only that run has, which reads
  /// `not a dose` by default. p0075 is notified at 08:34 in both runs, so
  /// no line pairs it with p0352's notification.
  @Test func aPlaceSetDoseIsMatchedByItsPlaceNotByItsPositionAmongTheCrossings() throws {
    let file = try ScenarioLoader().loadFile(path: RepositoryPaths.scenarios.appendingPathComponent("nearest-pharmacies-city-walk.yaml").path)
    let report = try report(file)
    let entered = "locationAlreadyInside=entered"
    let p0075 = report.doseChanges.filter { $0.dose.hasPrefix("dose 2 pharmacies/p0075 ") }
    #expect(p0075.map(\.dose) == ["dose 2 pharmacies/p0075 on=enter #1"])
    #expect(p0075.first?.byDefault == "notified 08:34 (location reminder, banner+lock-screen+sound), completed 08:35")
    #expect(p0075.first?.changes.contains { $0.variant == entered } == false)
    let p0352 = report.doseChanges.filter { $0.dose.hasPrefix("dose 2 pharmacies/p0352 ") }
    #expect(p0352.map(\.dose) == ["dose 2 pharmacies/p0352 on=enter #2"])
    #expect(p0352.first?.byDefault == "not a dose")
    #expect(p0352.first?.changes.map(\.variant) == [entered])
    #expect(p0352.first?.changes.first?.state == "notified 08:21:34 (location reminder, banner+lock-screen+sound), completed 08:22:34")
  }

  /// A scenario that depends on no registry setting has an empty report, by construction.
  @Test(arguments: ["quiet-night-assertions.yaml", "chain-ignored.yaml", "scheduled-summary.yaml", "dst-spring-forward.yaml"])
  func aBundledScenarioWithNoAssumptionHasAnEmptyReport(_ name: String) throws {
    let file = try ScenarioLoader().loadFile(path: RepositoryPaths.scenarios.appendingPathComponent(name).path)
    let report = try report(file)
    #expect(report.consulted.isEmpty)
    #expect(report.variants.isEmpty)
    #expect(report.text.hasPrefix("assumptions consulted: none"))
  }
}

/// The manual's registry table lists exactly the registry's entries, in its
/// order, each with its default and alternatives.
@Suite struct AssumptionsArticleTests {
  @Test func theRegistryTableListsExactlyTheRegistrysEntries() throws {
    let article = try #require(Manual.articles.first { $0.lastPathComponent == "Assumptions.md" })
    let text = try Manual.text(of: article)
    let section = try #require(text.components(separatedBy: "## The registry").dropFirst().first?.components(separatedBy: "\n## ").first)
    let rows = section.split(separator: "\n").filter { $0.hasPrefix("| `") }.map { row in
      row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
    }
    #expect(rows.map { $0[0] } == AssumptionRegistry.entries.map { "`\($0.id)`" })
    for (row, entry) in zip(rows, AssumptionRegistry.entries) {
      #expect(row[1] == "`\(entry.defaultReading.yaml)`", "\(entry.id)")
      #expect(row[2] == entry.alternatives.map { "`\($0.yaml)`" }.joined(separator: ", "), "\(entry.id)")
    }
  }
}

/// Issue 41, finding 11: `run --assumptions` held every rerun's whole report
/// (1.86 GB for a 15-day scenario whose timeline streams in 33 MB). A rerun
/// is now reduced to its doses and its assertions' results as it ends.
extension AssumptionTests {
  @Test func aRerunKeepsItsDosesAndAssertionResultsAndNotItsTimeline() throws {
    let file = try load(Self.header + Self.phoneOff + "assert:\n  - dosesNotified: { within: 1h }\n")
    let scenarios = [file.scenario, file.scenario]
    let outcomes = AssumptionReport.run(scenarios, assertions: file.checks.assertions, jobs: 2) { scenario in
      ScenarioVerifier().simulation(of: scenario)
    }
    let full = try run(file)
    #expect(outcomes.count == 2)
    for outcome in outcomes {
      guard case .success(let rerun) = outcome else {
        Issue.record("the rerun failed")
        continue
      }
      // What is kept is exactly what the report reads: the doses and each assertion's result.
      #expect(rerun.doses.map(\.description) == full.summary.doses.map(\.description))
      #expect(rerun.assertionResults.map { $0?.finding } == file.checks.assertions.map { $0.check(full)?.finding })
      #expect(Mirror(reflecting: rerun).children.map(\.label) == ["doses", "assertionResults"])
    }
    // Without assertions, a rerun's entries are only counted: the same doses.
    let counted = AssumptionReport.run([file.scenario], assertions: [], jobs: 1) { ScenarioVerifier().simulation(of: $0) }
    guard case .success(let rerun)? = counted.first else {
      Issue.record("the rerun without assertions failed")
      return
    }
    #expect(rerun.doses.map(\.description) == full.summary.doses.map(\.description))
    #expect(rerun.assertionResults.isEmpty)
  }
}
