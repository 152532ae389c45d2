import Foundation
import Testing
import TrigsimCore
import TrigsimTestSupport

@testable import TrigsimScenario

/// Every problem in a scenario is reported at the line and column of the value to change.
@Suite struct ScenarioLoaderDiagnosticsTests: LoaderDiagnosticAssertions {
  static let header: String = "trigsim: 1\nclock: { start: 2026-03-28T06:00:00+01:00, end: 2026-03-28T12:00:00+01:00, timezone: Europe/Copenhagen }\n"

  @Test func unknownRegionIsReportedAtTheValueWithASuggestion() {
    assertDiagnostics(
      Self.header + """
        regions:
          - { id: office, center: [55.6761, 12.5683] }
        notifications:
          - { id: a, trigger: { region: 1️⃣ofice } }
        """,
      [Expected(marker: "1️⃣", message: "unknown region 'ofice'", note: "did you mean 'office'?")])
  }

  @Test func unknownKeysAreErrorsWithDidYouMean() {
    assertDiagnostics(
      Self.header + """
        notifications:
          - { id: a, 1️⃣titel: Pills, trigger: { interval: 2h, 2️⃣repeat: true } }
        """,
      [
        Expected(marker: "1️⃣", message: "unknown key 'titel' in a notification", note: "did you mean 'title'?"),
        Expected(marker: "2️⃣", message: "unknown key 'repeat' in a trigger", note: "did you mean 'repeats'?"),
      ])
  }

  @Test func repeatingIntervalUnderSixtySecondsIsRejectedAsThePlatformRaises() {
    assertDiagnostics(
      Self.header + "notifications:\n  - { id: a, trigger: { interval: 1️⃣59s, repeats: true } }\n",
      [Expected(marker: "1️⃣", message: "a repeating interval must be at least 60s, not 59s")])
  }

  @Test func zeroIntervalIsRejected() {
    assertDiagnostics(
      Self.header + "notifications:\n  - { id: a, trigger: { interval: 1️⃣0s } }\n",
      [Expected(marker: "1️⃣", message: "interval must be greater than 0")])
  }

  @Test func everyProblemOfTheFileIsReportedAtOnceInFileOrder() {
    assertDiagnostics(
      Self.header + """
        regions:
          - { id: home, center: [1️⃣95.0, 12.5] }
          - { id: home2, center: [55.0, 12.5], radius: 2️⃣-5 }
        notifications:
          - { id: a, trigger: { calendar: { hour: 3️⃣25 } } }
          - { id: b, trigger: { interval: 4️⃣2hours } }
          - { id: c, trigger: { calendar: { weekday: 5️⃣funday } } }
        """,
      [
        Expected(marker: "1️⃣", message: "latitude 95.0 is outside -90...90"),
        Expected(marker: "2️⃣", message: "radius must be greater than 0 metres"),
        Expected(marker: "3️⃣", message: "hour must be between 0 and 23, not 25"),
        Expected(marker: "4️⃣", message: "interval '2hours' is not a duration"),
        Expected(marker: "5️⃣", message: "weekday must be a day name (monday) or 1...7 with 1 = Sunday, not 'funday'"),
      ])
  }

  @Test func malformedInstantPointsAtTheValue() {
    assertDiagnostics(
      "trigsim: 1\nclock: { start: 1️⃣2026-03-28 6am, end: 2026-03-28T12:00:00+01:00, timezone: Europe/Copenhagen }\n",
      [Expected(marker: "1️⃣", message: "clock start '2026-03-28 6am' is not an ISO 8601 date-time")])
  }

  @Test func localTimeSkippedByDaylightSavingIsRejected() {
    assertDiagnostics(
      "trigsim: 1\nclock: { start: 1️⃣2026-03-29T02:30:00, end: 2026-03-29T12:00:00+02:00, timezone: Europe/Copenhagen }\n",
      [Expected(marker: "1️⃣", message: "clock start '2026-03-29T02:30:00' does not exist in Europe/Copenhagen (clocks skip it for daylight saving)")])
  }

  @Test func unknownTimeZoneSuggestsTheClosestName() {
    assertDiagnostics(
      "trigsim: 1\nclock: { start: 2026-03-28T06:00:00Z, end: 2026-03-28T12:00:00Z, timezone: 1️⃣Europe/Copenhagn }\n",
      [Expected(marker: "1️⃣", message: "unknown time zone 'Europe/Copenhagn'", note: "did you mean 'Europe/Copenhagen'?")])
  }

  @Test func clockEndBeforeStartIsRejected() {
    assertDiagnostics(
      "trigsim: 1\nclock: { start: 2026-03-28T06:00:00Z, end: 1️⃣2026-03-28T05:00:00Z, timezone: UTC }\n",
      [Expected(marker: "1️⃣", message: "clock end is before its start")])
  }

  @Test func selfIntersectingPolygonIsRejectedWithGEOSReason() {
    let (_, found) = diagnostics(
      Self.header + "regions:\n  - { id: bowtie, polygon: [[55.0, 12.0], [55.1, 12.1], [55.0, 12.1], [55.1, 12.0]] }\n")
    #expect(found.count == 1)
    #expect(found.first?.location.line == 4)
    #expect(found.first?.location.column == 28)
    #expect(found.first?.message.hasPrefix("invalid polygon for region 'bowtie': the polygon is not valid: Self-intersection") == true)
  }

  @Test func duplicateRegionIdentifierIsRejected() {
    assertDiagnostics(
      Self.header + "regions:\n  - { id: home, center: [55.0, 12.0] }\n  - { id: 1️⃣home, center: [56.0, 12.0] }\n",
      [Expected(marker: "1️⃣", message: "region 'home' is declared twice")])
  }

  @Test func missingVersionLineIsRejectedWithWhatToAdd() {
    let (_, found) = diagnostics("clock: { start: 2026-03-28T06:00:00Z, end: 2026-03-28T12:00:00Z, timezone: UTC }\n")
    #expect(found.map(\.message) == ["missing 'trigsim: 1'"])
  }

  @Test func yamlSyntaxErrorIsLocated() {
    let (_, found) = diagnostics("trigsim: 1\nclock: { start: 2026\n  notifications: [\n")
    #expect(found.count == 1)
    #expect(found.first?.message.hasPrefix("invalid YAML") == true)
    #expect((found.first?.location.line ?? 0) >= 2)
  }

  @Test func missingTrackFileIsReportedWhereTheScenarioNamesIt() throws {
    let text = MarkedText(Self.header + "track: { file: 1️⃣no-such-track.gpx }\n")
    let scenario = try ScenarioLoader().load(yaml: text.text, file: "s.yaml", baseDirectory: NSTemporaryDirectory())
    #expect(throws: InputError.self) { try Simulation(scenario).run() }
    do {
      _ = try Simulation(scenario).run()
    } catch let error as InputError {
      #expect(error.diagnostics.first?.location == text.location("1️⃣", file: "s.yaml"))
    }
  }
}

@Suite struct ValueSyntaxTests {
  @Test(arguments: [("2h", 7_200_000), ("90s", 90_000), ("1h30m", 5_400_000), ("6m", 360_000), ("500ms", 500), ("1.5s", 1500), ("1d", 86_400_000)] as [(String, Int64)])
  func durationsParseWithTheirUnits(text: String, milliseconds: Int64) {
    #expect(ValueSyntax.duration(text)?.milliseconds == milliseconds)
  }

  @Test(arguments: ["", "90", "2 hours", "h", "1x", "-5m"])
  func durationsWithoutAValidUnitAreRejected(text: String) {
    #expect(ValueSyntax.duration(text) == nil)
  }

  @Test func instantsWithOffsetZuluAndLocalTimeParse() throws {
    let zone = TimeZone(identifier: "Europe/Copenhagen")!
    #expect(try ValueSyntax.instant("2026-03-28T06:00:00+01:00", zone: zone).get().description == "2026-03-28T05:00:00.000Z")
    #expect(try ValueSyntax.instant("2026-03-28T05:00:00.25Z", zone: zone).get().description == "2026-03-28T05:00:00.250Z")
    #expect(try ValueSyntax.instant("2026-03-28 06:00", zone: zone).get().description == "2026-03-28T05:00:00.000Z")
    // 02:30 on fall-back day happens twice: the first (summer time) is meant.
    #expect(try ValueSyntax.instant("2026-10-25T02:30:00", zone: zone).get().description == "2026-10-25T00:30:00.000Z")
  }

  @Test func durationsUpToTheLongestAreExactAndLongerOnesAreTooLong() {
    #expect(ValueSyntax.durationResult("11574074d") == .success(SimulationDuration(milliseconds: 11_574_074 * 86_400_000)))
    #expect(ValueSyntax.durationResult("1000000000000000ms") == .success(ValueSyntax.longestDuration))
    #expect(ValueSyntax.durationResult("1000000000000001ms") == .failure(.tooLong))
    #expect(ValueSyntax.durationResult("11574075d") == .failure(.tooLong))
    #expect(ValueSyntax.durationResult(String(repeating: "9", count: 400) + "d") == .failure(.tooLong))  // Double: infinity
    #expect(ValueSyntax.durationResult("9000000000000d9000000000000d") == .failure(.tooLong))
    #expect(ValueSyntax.durationResult("١٢s") == .failure(.malformed))  // digits are ASCII
  }

  @Test func impossibleDatesAndOverPreciseInstantsAreRejected() {
    let utc = TimeZone(identifier: "UTC")!
    #expect(ValueSyntax.instant("2026-02-30T00:00:00Z", zone: utc) == .failure(.outOfRange))
    #expect(ValueSyntax.instant("2026-03-28T06:00:00.0001Z", zone: utc) == .failure(.tooPrecise))
  }
}

@Suite struct ScenarioLoaderWindowTests {
  @Test func addOrRemoveOutsideTheClockWindowIsALocatedError() {
    let text = MarkedText(ScenarioLoaderDiagnosticsTests.header + """
      notifications:
        - { id: a, trigger: { interval: 1h }, add: 1️⃣2026-03-28T05:00:00+01:00 }
        - { id: b, trigger: { interval: 1h }, remove: 2️⃣2026-03-29T05:00:00+01:00 }
      """)
    do {
      _ = try ScenarioLoader().load(yaml: text.text, file: "s.yaml")
      Issue.record("expected errors")
    } catch let error as InputError {
      #expect(error.diagnostics.map(\.location) == [text.location("1️⃣", file: "s.yaml"), text.location("2️⃣", file: "s.yaml")])
      #expect(error.diagnostics.map(\.message) == [
        "add '2026-03-28T05:00:00+01:00' is outside the clock window", "remove '2026-03-29T05:00:00+01:00' is outside the clock window",
      ])
    } catch {
      Issue.record("unexpected \(error)")
    }
  }

  @Test func localAddTimeIsReadInTheZoneInForceAtThatInstant() throws {
    let scenario = try ScenarioLoader().load(yaml: """
      trigsim: 1
      clock:
        start: 2026-06-01T06:00:00+02:00
        end: 2026-06-03T09:00:00-04:00
        timezone: Europe/Copenhagen
        changes: [{ at: 2026-06-01T19:30:00-04:00, timezone: America/New_York }]
      notifications:
        - { id: before, trigger: { interval: 1h }, add: 2026-06-01T10:00:00 }
        - { id: after, trigger: { interval: 1h }, add: 2026-06-02T10:00:00 }
      """, file: "s.yaml")
    #expect(scenario.actions.map(\.instant.description) == ["2026-06-01T08:00:00.000Z", "2026-06-02T14:00:00.000Z"])
  }
}

/// Issue 10: every value the loader quotes is cut, names too long to be
/// typos are not compared, and nothing of the file is echoed whole.
@Suite struct ScenarioLoaderBoundedMessagesTests: LoaderDiagnosticAssertions {
  static let header = ScenarioLoaderDiagnosticsTests.header

  /// The loader's diagnostics of unmarked YAML (large inputs: `MarkedText`
  /// looks for markers at every character).
  func rejected(_ yaml: String) -> [Diagnostic] {
    do {
      _ = try ScenarioLoader().load(yaml: yaml, file: "s.yaml")
      Issue.record("expected the scenario to be rejected")
    } catch let error as InputError {
      return error.diagnostics
    } catch {
      Issue.record("unexpected \(error)")
    }
    return []
  }

  /// 200 KB region names made "did you mean" take 68 s. Every value is now
  /// at most `TextLimit.value` characters, checked on the parser's events:
  /// each name is refused where it stands, unread and unquoted.
  @Test func twoHundredKilobyteRegionNamesAreRefusedWhereTheyStandUnquoted() throws {
    let long = String(repeating: "pharmacy", count: 25_000)
    let started = ContinuousClock.now
    let found = rejected(
      Self.header + """
        regions:
          - { id: \(long)a, center: [55.6761, 12.5683] }
          - { id: \(long)b, center: [55.6761, 12.5683] }
        notifications:
          - { id: n, trigger: { region: \(long)c } }
        """)
    #expect(ContinuousClock.now - started < .seconds(10))
    #expect(found.map(\.location.line) == [4, 5, 7])
    #expect(found.map(\.location.column) == [11, 11, 33])
    #expect(Set(found.map(\.message)) == ["this value is 200001 characters long, more than the 4096 a scenario value may have"])
    #expect(found.allSatisfy { !$0.description.contains("pharmacypharmacy") })
  }

  /// The longest value passes the event check; as a region id it is refused
  /// at the identifier's bound, quoted cut, and "did you mean" never sees it.
  @Test func aRegionIdAtTheValueLimitIsRefusedAsAnIdentifierQuotedCut() throws {
    let long = String(repeating: "x", count: TextLimit.value)
    let found = rejected(Self.header + "regions:\n  - { id: \(long), center: [55.6761, 12.5683] }\n")
    let only = try #require(found.first)
    #expect(found.count == 1)
    #expect(only.location.line == 4 && only.location.column == 11)
    #expect(only.message == "region id '\(String(repeating: "x", count: 40))…' is 4096 characters long, more than 256")
    #expect(only.notes == ["identifiers are at most 256 characters; use a short, stable one"])
  }

  /// A huge value (1 GB in the issue; 1 MB here) is refused by its length
  /// at its start, never quoted; a value at the limit is quoted cut.
  @Test func aHugeValueIsRefusedByLengthAndALongOneQuotedCut() {
    let huge = String(repeating: "9", count: 1_000_000) + "x"
    let found = rejected(Self.header + "notifications:\n  - { id: a, trigger: { interval: \(huge) } }\n")
    #expect(found.map(\.message) == ["this value is 1000001 characters long, more than the 4096 a scenario value may have"])
    #expect(found.map(\.location.column) == [35])
    #expect(found.allSatisfy { $0.description.utf8.count < 500 })
    let long = String(repeating: "9", count: 4000) + "x"
    let cut = rejected(Self.header + "notifications:\n  - { id: a, trigger: { interval: \(long) } }\n")
    #expect(cut.map(\.message) == ["interval '\(String(repeating: "9", count: 40))…' is not a duration"])
  }

  @Test func aLongListOfDeclaredNamesIsCutInTheNote() {
    let regions = (1...25).map { "  - { id: r\($0), center: [55.6761, 12.5683] }" }.joined(separator: "\n")
    let found = rejected(Self.header + "regions:\n\(regions)\nnotifications:\n  - { id: a, trigger: { region: elsewhere } }\n")
    #expect(found.first?.notes == ["declared regions: " + (1...20).map { "r\($0)" }.joined(separator: ", ") + " and 5 more"])
  }

  @Test func aScenarioWithThousandsOfProblemsListsTheFirstHundred() {
    let bad = (1...3000).map { "  - { id: n\($0), trigger: { interval: 0s } }" }.joined(separator: "\n")
    let found = rejected(Self.header + "notifications:\n" + bad + "\n")
    #expect(found.count == 100)
    #expect(found.last?.location.line == 4 + 99)
    #expect(found.last?.notes.last == "… and 2900 more problems in this file (only the first 100 are listed)")
  }

  /// Yams' own message for a repeated key quotes the whole file.
  @Test func aRepeatedKeyIsReportedWithoutEchoingTheFile() {
    assertDiagnostics(
      Self.header + "notifications:\n  - { id: a, 1️⃣title: x, title: y, trigger: { interval: 2h } }\n",
      [Expected(marker: "1️⃣", message: "invalid YAML: key 'title' appears more than once in a mapping")])
  }

  @Test func aBillionLaughsKeyNeverReachesTheMessage() {
    let found = rejected(Self.header + "a: &a " + String(repeating: "x", count: 4000) + "\nb: { *a : 1 }\n")
    #expect(found.map(\.message) == ["alias '*a' in a mapping key"])
  }

  // MARK: - Huge numbers become located errors, never traps

  @Test func hugeDurationsAndNumbersAreLocatedErrors() {
    let huge = "99999999999999999999"
    assertDiagnostics(
      Self.header + """
        platform: { pendingLimit: 1️⃣\(huge), gapLimit: 2️⃣\(huge)d }
        regions:
          - { id: a, center: [55.6761, 12.5683], radius: 3️⃣1e999 }
        track: { file: t.csv, shift: 4️⃣-\(huge)d }
        notifications:
          - { id: n, trigger: { interval: 5️⃣11574075d, repeats: true } }
          - { id: m, trigger: { calendar: { hour: 6️⃣\(huge) } } }
        """,
      [
        Expected(marker: "1️⃣", message: "pendingLimit must be between 1 and 100000, not \(huge)"),
        Expected(marker: "2️⃣", message: "gapLimit '\(huge)d' is longer than the longest duration, 10^15 ms (about 31,700 years)"),
        Expected(marker: "3️⃣", message: "radius '1e999' is too large for a number"),
        Expected(marker: "4️⃣", message: "shift '-\(huge)d' is longer than the longest duration, 10^15 ms (about 31,700 years)"),
        Expected(marker: "5️⃣", message: "interval '11574075d' is longer than the longest duration, 10^15 ms (about 31,700 years)"),
        Expected(marker: "6️⃣", message: "hour must be between 0 and 23, not \(huge)"),
      ])
  }

  /// The longest durations everywhere a duration is multiplied or added:
  /// a repeating interval, snoozes (every × count), a shift, the most
  /// latency and spread with trials. The run ends normally.
  @Test func theLongestDurationsRunWithoutOverflow() throws {
    let scenario = try ScenarioLoader().load(
      yaml: Self.header + """
        platform: { location: { profile: ios, latency: 366d, latencySpread: 5 }, gapLimit: 11574074d }
        regions:
          - { id: home, center: [55.6761, 12.5683] }
        notifications:
          - { id: n, trigger: { interval: 11574074d, repeats: true } }
          - { id: h, trigger: { region: home, repeats: true } }
        medicines:
          - { id: 1, name: M, dosage: 1, unit: mg, times: ["07:00"], snooze: { every: 11574074d, count: 64 } }
        """, file: "s.yaml")
    let report = try Simulation(scenario).report()
    #expect(report.timeline.entries.contains { $0.kind == .scheduled && $0.subject == "n" })
  }
}
