import Foundation
import Testing
import TrigsimTestSupport
import TrigsimMedicineApp

@testable import TrigsimCore

/// Every run is bounded: a clock longer than `limits.clockSpan` does not
/// start, and the entry past `limits.timelineEntries` stops the run before
/// it is made; each error is located and names its setting.
@Suite struct RunLimitsTests {
  static let limitsAt = InputLocation(file: "s.yaml", line: 4, column: 27)
  static let clockEndAt = InputLocation(file: "s.yaml", line: 3, column: 44)

  /// A one-minute repeating interval from `start` to `end`, with `limits`.
  static func ticking(_ start: String, _ end: String, limits: RunLimits = RunLimits()) -> Scenario {
    Scenario(
      name: "tick", clock: Build.clock(start, end), actions: [Build.add("tick", Build.interval(.minutes(1), repeats: true), at: start)],
      limits: limits)
  }

  static func entriesLimit(_ count: Int) -> RunLimits {
    var limits = RunLimits(timelineEntries: count)
    limits.timelineEntriesOrigin = limitsAt
    return limits
  }

  @Test func aTimelineOfExactlyTheLimitRuns() throws {
    // scheduled + 10 fired = 11 entries.
    let timeline = try Simulation(Self.ticking("2026-03-28T06:00:00Z", "2026-03-28T06:10:00Z", limits: Self.entriesLimit(11))).run()
    #expect(timeline.entries.count == 11)
  }

  @Test func theEntryPastTheLimitStopsTheRunWhereTheLimitIsSet() throws {
    let scenario = Self.ticking("2026-03-28T06:00:00Z", "2026-03-28T06:10:00Z", limits: Self.entriesLimit(10))
    let error = try #require(throws: InputError.self) { try Simulation(scenario).run() }
    let diagnostic = try #require(error.diagnostics.first)
    #expect(error.diagnostics.count == 1)
    #expect(diagnostic.location == Self.limitsAt)
    #expect(diagnostic.message == "the timeline would exceed 10 entries ('limits.timelineEntries'): the run stopped at 2026-03-28T06:10:00.000+00:00, before the clock's end")
  }

  /// Eight years of a one-minute interval would be over four million entries:
  /// the run stops at the limit, having handed the sink no more than it.
  @Test func aLongRunStopsAtTheLimitNotAtTheClocksEnd() throws {
    let scenario = Self.ticking("2026-01-01T00:00:00Z", "2034-01-01T00:00:00Z", limits: Self.entriesLimit(1000))
    var counter = TimelineEntryCounter()
    #expect(throws: InputError.self) { try Simulation(scenario).run(into: &counter) }
    #expect(counter.count == 1000)
  }

  @Test func aTrialIsBoundedToo() throws {
    let scenario = Self.ticking("2026-03-28T06:00:00Z", "2026-03-28T08:00:00Z", limits: Self.entriesLimit(50))
    let error = try #require(throws: InputError.self) { try TrialRunner(scenario).run(TrialPlan(count: 3, seed: 1, jobs: 1)) }
    #expect(error.diagnostics.first?.message.contains("'limits.timelineEntries'") == true)
  }

  @Test func aClockLongerThanTheSpanLimitDoesNotStart() throws {
    var limits = RunLimits()
    limits.clockSpanOrigin = Self.clockEndAt
    let scenario = Self.ticking("0026-01-01T00:00:00Z", "9999-12-31T00:00:00Z", limits: limits)
    var counter = TimelineEntryCounter()
    let error = try #require(throws: InputError.self) { try Simulation(scenario).run(into: &counter) }
    #expect(counter.count == 0)
    #expect(error.diagnostics.first?.location == Self.clockEndAt)
    let message = try #require(error.diagnostics.first?.message)
    #expect(message.hasPrefix("the clock spans 36429"), "\(message)")
    #expect(message.hasSuffix("d (about 9981 years), more than the 10y 'limits.clockSpan' allows"), "\(message)")
    #expect(throws: InputError.self) { try TrialRunner(scenario).run(TrialPlan(count: 1, seed: 1, jobs: 1)) }
  }

  @Test func aClockOfExactlyTheSpanLimitRuns() throws {
    let scenario = Self.ticking("2026-03-28T06:00:00Z", "2026-03-28T07:00:00Z", limits: RunLimits(clockSpan: .hours(1)))
    #expect(try Simulation(scenario).run().entries.count == 61)
    let longer = Self.ticking("2026-03-28T06:00:00Z", "2026-03-28T07:00:00.001Z", limits: RunLimits(clockSpan: .hours(1)))
    #expect(throws: InputError.self) { try Simulation(longer).run() }
  }

  @Test func spansAreSpelledInYearsWhenWhole() {
    #expect(RunLimits.spelling(of: RunLimits.defaultClockSpan) == "10y")
    #expect(RunLimits.spelling(of: SimulationDuration(milliseconds: 400 * 86_400_000)) == "400d")
  }
}
