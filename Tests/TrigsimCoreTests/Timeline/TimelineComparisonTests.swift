import Testing
import TrigsimCore
import TrigsimTestSupport

/// A timeline entry at a UTC+01:00 instant, for comparison tests.
private func entry(_ time: String, _ kind: TimelineEntry.Kind, _ subject: String, _ fields: [(String, String)] = []) -> TimelineEntry {
  TimelineEntry(
    instant: Build.instant("2026-03-28T\(time)+01:00"), utcOffsetSeconds: 3600, kind: kind, subject: subject,
    fields: fields.map { TimelineField($0.0, $0.1) })
}

private let header = [TimelineField("scenario", "walk"), TimelineField("time zone", "Europe/Copenhagen")]

/// The walk: leave home, enter the clinic (region-triggered pickup fires), a calendar reminder at 08:00.
private let walk = Timeline(header: header, entries: [
  entry("07:00:00.000", .scheduled, "pills", [("trigger", "calendar hour=8 minute=0"), ("title", "Morning pills")]),
  entry("07:00:00.000", .scheduled, "pickup", [("trigger", "region clinic on=enter"), ("title", "Pick up")]),
  entry("07:34:15.600", .exit, "home", [("visit", "1")]),
  entry("07:38:33.000", .enter, "clinic", [("visit", "1")]),
  entry("07:38:33.000", .fired, "pickup", [("trigger", "region clinic on=enter"), ("title", "Pick up")]),
  entry("08:00:00.000", .fired, "pills", [("trigger", "calendar hour=8 minute=0"), ("title", "Morning pills")]),
])

private func shifting(_ timeline: Timeline, entry index: Int, byMilliseconds offset: Int64) -> Timeline {
  var copy = timeline
  copy.entries[index].instant = copy.entries[index].instant.advanced(byMilliseconds: offset)
  return copy
}

private func options(tolerance: [(String, Int64)] = [], global: Int64? = nil) -> ComparisonOptions {
  var options = ComparisonOptions()
  options.tolerance.global = global.map { SimulationDuration(milliseconds: $0) }
  for (selector, milliseconds) in tolerance {
    options.tolerance.set(SimulationDuration(milliseconds: milliseconds), for: EntrySelector(parsing: selector)!)
  }
  return options
}

@Suite struct TimelineComparisonTests {
  @Test func identicalTimelinesMatchAndSaySo() {
    let comparison = TimelineComparison(expected: walk, actual: walk)
    #expect(comparison.matches)
    #expect(comparison.report(expectedName: "walk.timeline", actualName: "run") == "timeline matches walk.timeline\n")
  }

  @Test func aShiftExactlyAtTheToleranceMatchesAndOneMillisecondMoreDoesNot() {
    let justInside = TimelineComparison(expected: walk, actual: shifting(walk, entry: 2, byMilliseconds: 2000), options: options(global: 2000))
    #expect(justInside.matches)
    #expect(justInside.toleranceNote == "1 entry within tolerance, largest offset +2s")

    let justOutside = TimelineComparison(expected: walk, actual: shifting(walk, entry: 2, byMilliseconds: 2001), options: options(global: 2000))
    #expect(!justOutside.matches)
    #expect(justOutside.differences == [TimelineDifference(kind: .shifted(by: SimulationDuration(milliseconds: 2001)), expectedIndex: 2, actualIndex: 2)])
    #expect(justOutside.summaryLine == "0 missing, 0 unexpected, 1 shifted by +2.001s")
  }

  @Test func anEarlierInstantIsANegativeShift() {
    let comparison = TimelineComparison(expected: walk, actual: shifting(walk, entry: 2, byMilliseconds: -1500))
    #expect(comparison.summaryLine == "0 missing, 0 unexpected, 1 shifted by -1.5s")
  }

  @Test func geofenceToleranceCoversCrossingsAndRegionFiresButNotCalendarFires() {
    let tolerant = options(tolerance: [("geofence", 500)])
    // The crossing and the region-triggered fire move together by 300 ms: within tolerance.
    var moved = shifting(walk, entry: 3, byMilliseconds: 300)
    moved = shifting(moved, entry: 4, byMilliseconds: 300)
    #expect(TimelineComparison(expected: walk, actual: moved, options: tolerant).matches)
    // The calendar fire moving by 1 ms is a difference.
    let calendar = TimelineComparison(expected: walk, actual: shifting(walk, entry: 5, byMilliseconds: 1), options: tolerant)
    #expect(calendar.shifts == [SimulationDuration(milliseconds: 1)])
  }

  @Test func theMostSpecificSelectorDecidesTheTolerance() {
    // `fired pickup` (kind and subject) beats `fired` (kind) beats `geofence` beats the global tolerance.
    let rules = options(tolerance: [("geofence", 5000), ("fired", 0), ("fired pick*", 100)], global: 60_000)
    #expect(rules.tolerance.tolerance(for: walk.entries[3]) == SimulationDuration(milliseconds: 5000))  // enter clinic
    #expect(rules.tolerance.tolerance(for: walk.entries[4]) == SimulationDuration(milliseconds: 100))  // fired pickup
    #expect(rules.tolerance.tolerance(for: walk.entries[5]) == .zero)  // fired pills
    #expect(rules.tolerance.tolerance(for: walk.entries[0]) == SimulationDuration(milliseconds: 60_000))  // scheduled pills
  }

  @Test func anExactNameBeatsAGlobWhateverTheOrderTheRulesAreWrittenIn() {
    // `fired p*` (10 min) and `fired pickup` (0 s) both match the pickup fire: the exact name decides, in either order.
    for rules in [[("fired p*", 600_000), ("fired pickup", 0)], [("fired pickup", 0), ("fired p*", 600_000)]] {
      let tolerance = options(tolerance: rules.map { ($0.0, Int64($0.1)) }).tolerance
      #expect(tolerance.tolerance(for: walk.entries[4]) == .zero, "\(rules)")
      #expect(tolerance.tolerance(for: walk.entries[5]) == .minutes(10), "\(rules)")  // fired pills: only the glob matches
    }
    // Among globs, more literal characters win; equally specific rules give the smaller tolerance.
    let globs = options(tolerance: [("fired p*", 100), ("fired pick*", 50_000), ("fired pi*", 7)]).tolerance
    #expect(globs.tolerance(for: walk.entries[4]) == SimulationDuration(milliseconds: 50_000))
    let ties = options(tolerance: [("fired pick??", 900), ("fired pi?kup", 300)]).tolerance
    #expect(ties.tolerance(for: walk.entries[4]) == SimulationDuration(milliseconds: 300))
  }

  @Test func anotherUTCOffsetAtTheSameInstantIsAChange() {
    // The pills fire at the same instant, but the device is two hours further east.
    var actual = walk
    actual.entries[5].utcOffsetSeconds = 3 * 3600
    let comparison = TimelineComparison(expected: walk, actual: actual, options: options(global: 60_000))
    #expect(comparison.differences.map(\.kind) == [.changed(fields: ["offset"])])
  }

  @Test func repeatedHeaderKeysAreComparedLineByLine() {
    var actual = walk
    actual.header.append(TimelineField("time zone", "UTC"))
    let comparison = TimelineComparison(expected: walk, actual: actual)
    #expect(comparison.headerDifferences == [HeaderDifference(key: "time zone", expected: nil, actual: "UTC")])
  }

  @Test func missingAndUnexpectedEntriesAreCountedAndPlacedWhereTheyBelong() {
    var actual = walk
    actual.entries.remove(at: 4)  // pickup did not fire
    actual.entries.append(entry("09:00:00.000", .warning, "pills", [("reason", "late")]))
    let comparison = TimelineComparison(expected: walk, actual: actual)
    #expect(comparison.summaryLine == "1 missing, 1 unexpected, 0 shifted")
    #expect(comparison.differences.map(\.kind) == [.missing, .unexpected])
    #expect(comparison.differences[0].expectedIndex == 4)
    #expect(comparison.differences[1].actualIndex == 5)
  }

  @Test func aDifferentFieldAtTheSameInstantIsAChangeNamingTheField() {
    var actual = walk
    actual.entries[5].fields[1].value = "Evening pills"
    let comparison = TimelineComparison(expected: walk, actual: actual)
    #expect(comparison.differences.map(\.kind) == [.changed(fields: ["title"])])
    #expect(comparison.summaryLine == "0 missing, 0 unexpected, 0 shifted, 1 changed")
  }

  @Test func ignoredFieldsAndKindsLeaveTheComparison() {
    var actual = walk
    actual.entries[5].fields[1].value = "Evening pills"
    actual.entries.insert(entry("07:50:00.000", .gap, "track", [("from", "a")]), at: 4)
    var ignoring = ComparisonOptions()
    #expect(!TimelineComparison(expected: walk, actual: actual, options: ignoring).matches)
    ignoring.ignoredFields = [FieldFilter(parsing: "fired.title")!]
    ignoring.ignoredKinds = [.gap]
    #expect(TimelineComparison(expected: walk, actual: actual, options: ignoring).matches)
    // A field filter for another kind does not hide the change.
    ignoring.ignoredFields = [FieldFilter(parsing: "scheduled.title")!]
    #expect(!TimelineComparison(expected: walk, actual: actual, options: ignoring).matches)
  }

  @Test func simultaneousEntriesInAnotherOrderAreReordered() {
    var actual = walk
    actual.entries.swapAt(3, 4)  // fired pickup before enter clinic, both at 07:38:33
    let comparison = TimelineComparison(expected: walk, actual: actual)
    #expect(comparison.reorderedCount == 1)
    #expect(comparison.missingCount == 0 && comparison.unexpectedCount == 0)
  }

  @Test func headerLinesAreComparedByKeyUnlessIgnored() {
    var actual = walk
    actual.header[1].value = "Europe/Berlin"
    let comparison = TimelineComparison(expected: walk, actual: actual)
    #expect(comparison.headerDifferences == [HeaderDifference(key: "time zone", expected: "Europe/Copenhagen", actual: "Europe/Berlin")])
    #expect(comparison.summaryLine == "0 missing, 0 unexpected, 0 shifted, 1 header line differs")
    var ignoring = ComparisonOptions()
    ignoring.ignoredHeaderKeys = ["time zone"]
    #expect(TimelineComparison(expected: walk, actual: actual, options: ignoring).matches)
  }

  @Test func theReportShowsEachDifferenceWithContextAndLineNumbers() {
    var actual = shifting(walk, entry: 3, byMilliseconds: 2000)
    actual.entries.remove(at: 4)
    let report = TimelineComparison(expected: walk, actual: actual).report(expectedName: "walk.timeline", actualName: "run of walk.yaml", context: 1)
    // Line numbers: the format line and two header lines come first, so entry 0 is line 4.
    #expect(report == """
      timeline differs from walk.timeline: 1 missing, 0 unexpected, 1 shifted by +2s
      --- expected walk.timeline
      +++ actual run of walk.yaml
      @@ expected line 6, actual line 6 @@
        2026-03-28T07:34:15.600+01:00 exit        home visit=1
      - 2026-03-28T07:38:33.000+01:00 enter       clinic visit=1
      + 2026-03-28T07:38:35.000+01:00 enter       clinic visit=1
      !   shifted by +2s (tolerance 0s)
      - 2026-03-28T07:38:33.000+01:00 fired       pickup trigger="region clinic on=enter" title="Pick up"
      !   missing
        2026-03-28T08:00:00.000+01:00 fired       pills trigger="calendar hour=8 minute=0" title="Morning pills"

      """)
  }

  @Test func distantDifferencesGetSeparateHunks() {
    var actual = walk
    actual.entries[0].fields[1].value = "Pills"
    actual.entries[5].fields[1].value = "Pills"
    let report = TimelineComparison(expected: walk, actual: actual).report(expectedName: "e", actualName: "a", context: 1)
    #expect(report.components(separatedBy: "\n@@ ").count == 3)
    #expect(report.contains("@@ expected line 4, actual line 4 @@"))
    #expect(report.contains("@@ expected line 8, actual line 8 @@"))
  }

  @Test func selectorsParseKindsPatternsAndTheBarePatternShorthand() {
    #expect(EntrySelector(parsing: "enter home") == EntrySelector(.kind(.enter), subject: IdentifierPattern("home")))
    #expect(EntrySelector(parsing: "geofence") == EntrySelector(.geofence))
    #expect(EntrySelector(parsing: "fired") == EntrySelector(.kind(.fired)))
    #expect(EntrySelector(parsing: "medicine_1_*") == EntrySelector(.kind(.fired), subject: IdentifierPattern("medicine_1_*")))
    #expect(EntrySelector(parsing: "fird pills") == nil)
    #expect(EntrySelector(parsing: "fired a b") == nil)
  }

  @Test func longestIncreasingRunKeepsTheMostEntriesInOrder() {
    #expect(TimelineComparison.longestIncreasingRun([0, 2, 1, 3]).count == 3)
    #expect(TimelineComparison.longestIncreasingRun([3, 2, 1]).count == 1)
    #expect(TimelineComparison.longestIncreasingRun([]) == [])
  }
}
