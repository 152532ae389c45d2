import Foundation
import Testing
import TrigsimCore
import TrigsimTestSupport

@testable import TrigsimScenario

/// The `expect:` and `assert:` sections: what a valid file loads as, and
/// every bad value reported at the line and column to change.
@Suite struct ScenarioChecksLoaderTests: LoaderDiagnosticAssertions {
  static let header: String = """
    trigsim: 1
    clock: { start: 2026-03-28T06:00:00+01:00, end: 2026-03-29T06:00:00+01:00, timezone: Europe/Copenhagen }
    regions:
      - { id: home, center: [55.6761, 12.5683] }
    notifications:
      - { id: pills, trigger: { calendar: { hour: 8, minute: 0 }, repeats: true } }
    medicines:
      - { id: met, name: Metformin, dosage: 500, unit: mg, times: ["08:00"] }

    """

  func checks(_ yaml: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> ScenarioChecks {
    do {
      return try ScenarioLoader().loadFile(yaml: Self.header + yaml, file: "dir/walk.yaml", baseDirectory: "dir", defaultName: "walk").checks
    } catch let error as InputError {
      Issue.record("expected the scenario to load, got:\n\(error)", sourceLocation: sourceLocation)
      throw error
    }
  }

  // MARK: - expect

  @Test func theExpectedTimelineIsBesideTheScenarioByConvention() throws {
    #expect(try checks("").expectedTimelinePath == "dir/walk.timeline")
    #expect(try checks("expect: golden/walk.json").expectedTimelinePath == "dir/golden/walk.json")
    #expect(try checks("expect: /abs/walk.timeline").expectedTimelinePath == "/abs/walk.timeline")
    #expect(try checks("expect: none\nassert:\n  - noPendingLimitDrops: true").expectedTimelinePath == nil)
  }

  @Test func expectReadsTolerancesAndFilters() throws {
    let loaded = try checks("""
      expect:
        file: walk.timeline
        tolerance: { default: 1ms, geofence: 500ms, "fired medicine_met_*": 2s, pills: 3s }
        ignoreFields: [title, fired.next]
        ignoreKinds: [gap]
        ignoreHeader: [track]
      """)
    let tolerance = loaded.comparison.tolerance
    #expect(tolerance.global == SimulationDuration(milliseconds: 1))
    #expect(tolerance.rules.map { "\($0.selector)=\($0.duration)" } == ["geofence=500ms", "fired medicine_met_*=2s", "fired pills=3s"])
    #expect(loaded.comparison.ignoredFields == [FieldFilter(key: "title"), FieldFilter(key: "next", kind: .fired)])
    #expect(loaded.comparison.ignoredKinds == [.gap])
    #expect(loaded.comparison.ignoredHeaderKeys == ["track"])
    #expect(try checks("expect: { tolerance: 2s, ignoreHeader: true }").comparison.tolerance.global == .seconds(2))
    #expect(try checks("expect: { ignoreHeader: true }").comparison.ignoresWholeHeader)
  }

  @Test func badExpectSettingsAreLocated() {
    assertDiagnostics(Self.header + """
      expect:
        1️⃣fle: walk.timeline
        tolerance: { 2️⃣entr: 1s, geofence: 3️⃣soon }
        ignoreFields: [4️⃣"a b"]
        ignoreKinds: [5️⃣fird]
      """, [
        Expected(marker: "1️⃣", message: "unknown key 'fle' in 'expect'", note: "did you mean 'file'?"),
        Expected(marker: "2️⃣", message: "'entr' is neither an entry kind nor a notification in this scenario", note: "did you mean 'enter'?"),
        Expected(marker: "3️⃣", message: "tolerance 'soon' is not a duration"),
        Expected(marker: "4️⃣", message: "'a b' is not a field name"),
        Expected(marker: "5️⃣", message: "unknown entry kind 'fird'", note: "did you mean 'fired'?"),
      ])
  }

  // MARK: - assert

  @Test func everyAssertionLoadsWithItsLocation() throws {
    let loaded = try checks("""
      assert:
        - nothingFired: { from: "22:00", to: "07:00" }
        - nothingFired: { inside: home, matching: "medicine_*" }
        - count: { fired: "medicine_met_snooze_*", from: 2026-03-28T08:00:00, to: 2026-03-28T09:00:00, atLeast: 1, atMost: 10 }
        - count: { entries: "enter home", equals: 2 }
        - dosesNotified: { within: 5m, medicine: met }
        - noPendingLimitDrops: true
        - pendingPeak: { atMost: 60 }
        - chainsEnd: { maxFollowUps: 10 }
        - chainsEnd: true
        - order: { first: pills, then: "geofence medicine_met_*" }
      """)
    #expect(loaded.assertions.map(\.description) == [
      "nothing fired from 22:00 to 07:00 (every day, device time)",
      "nothing fired matching 'medicine_*' while inside 'home'",
      "count of 'fired medicine_met_snooze_*' from 2026-03-28T08:00:00 to 2026-03-28T09:00:00 is between 1 and 10",
      "count of 'enter home' is 2",
      "every dose of medicine 'met' notified within 5m of its time, none missed",
      "no request dropped by the pending limit",
      "pending peak at most 60",
      "every follow-up chain ends (completed, dismissed or exhausted) with at most 10 follow-ups",
      "every follow-up chain ends (completed, dismissed or exhausted)",
      "'fired pills' before 'geofence medicine_met_*'",
    ])
    #expect(loaded.assertions.map { $0.origin?.line } == Array(10...19))
    #expect(loaded.assertions.allSatisfy { $0.origin?.column == 5 && $0.origin?.file == "dir/walk.yaml" })
  }

  @Test func unknownAssertionsAndPatternsThatMatchNothingAreLocated() {
    assertDiagnostics(Self.header + """
      assert:
        - 1️⃣nothingFire: { from: "22:00", to: "07:00" }
        - count: { fired: 2️⃣pils, equals: 1 }
        - count: { entries: 3️⃣"enter hom", equals: 1 }
        - order: { first: 4️⃣"fird pills", then: pills }
        - nothingFired: { inside: 5️⃣hom }
        - dosesNotified: { within: 5m, medicine: 6️⃣mett }
      """, [
        Expected(marker: "1️⃣", message: "unknown assertion 'nothingFire'", note: "did you mean 'nothingFired'?"),
        Expected(marker: "2️⃣", message: "pattern 'pils' matches no notification in this scenario", note: "did you mean 'pills'?"),
        Expected(marker: "3️⃣", message: "pattern 'hom' matches no region in this scenario", note: "did you mean 'home'?"),
        Expected(marker: "4️⃣", message: "'fird pills' is not a selector", note: "did you mean 'fired'?"),
        Expected(marker: "5️⃣", message: "unknown region 'hom'", note: "did you mean 'home'?"),
        Expected(marker: "6️⃣", message: "unknown medicine 'mett'", note: "did you mean 'met'?"),
      ])
  }

  @Test func badAssertionParametersAreLocated() {
    assertDiagnostics(Self.header + """
      assert:
        - nothingFired: 1️⃣{ from: "22:00" }
        - nothingFired: { from: "22:00", to: 2️⃣"22:00" }
        - nothingFired: { from: "22:00", to: 3️⃣2026-03-28T23:00:00 }
        - count: 4️⃣{ fired: pills }
        - count: { fired: pills, 5️⃣equals: 1, atMost: 2 }
        - count: { fired: pills, atLeast: 3, 6️⃣atMost: 2 }
        - pendingPeak: { atMost: 7️⃣many }
        - noPendingLimitDrops: 8️⃣false
        - 9️⃣just a word
      """, [
        Expected(marker: "1️⃣", message: "a window needs both 'from' and 'to'"),
        Expected(marker: "2️⃣", message: "the window from 22:00 to 22:00 is empty"),
        Expected(marker: "3️⃣", message: "'from' and 'to' must both be times of day or both be instants"),
        Expected(marker: "4️⃣", message: "'count' needs 'equals', 'atLeast' or 'atMost'"),
        Expected(marker: "5️⃣", message: "'equals' cannot be combined with 'atLeast' or 'atMost'"),
        Expected(marker: "6️⃣", message: "'atMost' 2 is below 'atLeast' 3"),
        Expected(marker: "7️⃣", message: "'atMost' must be a whole number, not 'many'"),
        Expected(marker: "8️⃣", message: "'noPendingLimitDrops: false' checks nothing"),
        Expected(marker: "9️⃣", message: "an assertion is one 'name: parameters' pair"),
      ])
  }

  @Test func selectorsOfEveryKindAreCheckedAgainstTheSubjectsThatKindHas() throws {
    let loaded = try checks("""
      assert:
        - count: { entries: "medicine medicine_met", equals: 1 }
        - count: { entries: "warning pills", equals: 0 }
        - count: { entries: "app state", equals: 0 }
      """)
    #expect(loaded.assertions.count == 3)
    assertDiagnostics(Self.header + """
      assert:
        - count: { entries: 1️⃣"medicine met", equals: 1 }
        - count: { entries: 2️⃣"warning pils", atMost: 0 }
        - count: { entries: 3️⃣"timezone Europe/Berlin", equals: 0 }
      """, [
        Expected(marker: "1️⃣", message: "pattern 'met' matches no medicine (subjects are medicine_{id}) in this scenario"),
        Expected(marker: "2️⃣", message: "pattern 'pils' matches no notification or region in this scenario", note: "did you mean 'pills'?"),
        Expected(marker: "3️⃣", message: "pattern 'Europe/Berlin' matches no time zone in this scenario"),
      ])
  }

  @Test func checksThatCanNeverHoldOrCheckNothingAreRejected() {
    assertDiagnostics(Self.header + """
      expect: 1️⃣none
      """, [Expected(marker: "1️⃣", message: "'expect: none' without 'assert:' checks nothing")])
    assertDiagnostics(Self.header + """
      assert:
        - order: { first: pills, then: 1️⃣"fired pills" }
        - nothingFired: { from: 2️⃣"6:00", to: "07:00" }
      """, [
        Expected(marker: "1️⃣", message: "'first' and 'then' pick the same entries, so the order can never hold"),
        Expected(marker: "2️⃣", message: "'6:00' is not a time of day"),
      ])
  }

  @Test func regionIdsThatWouldBreakTheTimelineHeaderAreRejected() {
    assertDiagnostics("""
      trigsim: 1
      clock: { start: 2026-03-28T06:00:00+01:00, end: 2026-03-29T06:00:00+01:00, timezone: UTC }
      regions:
        - { id: 1️⃣"home: flat 2", center: [55.6761, 12.5683] }
        - { id: 2️⃣"home\\nflat", center: [55.6761, 12.5683] }
      """, [
        Expected(marker: "1️⃣", message: "region id 'home: flat 2' must not contain line breaks, control characters or ': '"),
        // The line break is shown as an escape (Diagnostic.excerpt), so the message stays on one line.
        Expected(marker: "2️⃣", message: #"region id 'home\nflat' must not contain line breaks, control characters or ': '"#),
      ])
  }

  @Test func doseAssertionsNeedMedicines() {
    assertDiagnostics("""
      trigsim: 1
      clock: { start: 2026-03-28T06:00:00+01:00, end: 2026-03-29T06:00:00+01:00, timezone: UTC }
      assert:
        - 1️⃣dosesNotified: { within: 5m }
        - 2️⃣chainsEnd: true
      """, [
        Expected(marker: "1️⃣", message: "'dosesNotified' needs medicines"),
        Expected(marker: "2️⃣", message: "'chainsEnd' needs medicines"),
      ])
  }
}
