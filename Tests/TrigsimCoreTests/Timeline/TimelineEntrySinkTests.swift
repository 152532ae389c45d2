import Foundation
import Testing
import TrigsimTestSupport
import TrigsimMedicineApp

@testable import TrigsimCore

/// The seam between the engine and what keeps the timeline: entries go to a
/// sink as they are made, and the header and summary come at the end.
@Suite struct TimelineEntrySinkTests {
  /// Hourly water over a day, a daily 08:00 reminder, a removal: a few kinds of entries.
  static var scenario: Scenario {
    Scenario(
      name: "sink", clock: Build.clock("2026-03-28T06:00:00Z", "2026-03-29T06:00:00Z", zone: "Europe/Copenhagen"),
      actions: [
        Build.add("water", Build.interval(.hours(1), repeats: true), at: "2026-03-28T06:00:00Z", title: "Drink water"),
        Build.add("pills", Build.daily(hour: 8), at: "2026-03-28T06:00:00Z", title: "Pills"),
        Build.remove("pills", at: "2026-03-28T20:00:00Z"),
      ])
  }

  /// Keeps every entry it is handed, in order.
  struct Recorder: TimelineEntrySink {
    var entries: [TimelineEntry] = []
    mutating func append(_ entry: TimelineEntry) { entries.append(entry) }
  }

  /// Takes `capacity` entries, then fails.
  struct FailingSink: TimelineEntrySink {
    struct Full: Error {}
    var capacity: Int
    var received = 0
    mutating func append(_ entry: TimelineEntry) throws {
      guard received < capacity else { throw Full() }
      received += 1
    }
  }

  @Test func aSinkReceivesTheEntriesOfTheInMemoryTimelineAndTheRunEndsWithItsHeaderAndSummary() throws {
    let report = try Simulation(Self.scenario).report()
    var recorder = Recorder()
    let end = try Simulation(Self.scenario).run(into: &recorder)
    #expect(report.timeline.entries.count > 20)
    #expect(recorder.entries == report.timeline.entries)
    #expect(end.header == report.timeline.header)
    #expect(end.entryCount == recorder.entries.count)
    #expect(end.summary.pendingPeak == report.summary.pendingPeak)
  }

  @Test func aTrialRunIntoASinkIsTheTrialsTimeline() throws {
    let report = try Simulation(Self.scenario).report(trial: 3, seed: 9)
    var recorder = Recorder()
    let end = try Simulation(Self.scenario).run(trial: 3, seed: 9, into: &recorder)
    #expect(recorder.entries == report.timeline.entries)
    #expect(end.header == report.timeline.header)
  }

  @Test func theCounterKeepsNoEntryButCountsThemAll() throws {
    var counter = TimelineEntryCounter()
    let end = try Simulation(Self.scenario).run(into: &counter)
    let expected = try Simulation(Self.scenario).run().entries.count
    #expect(counter.count == expected)
    #expect(end.entryCount == expected)
  }

  @Test func aFailingSinkStopsTheRunAtOnceWithItsError() throws {
    var sink = FailingSink(capacity: 5)
    #expect(throws: FailingSink.Full.self) { try Simulation(Self.scenario).run(into: &sink) }
    // The run made no entry after the failure: the sink was asked once more, not for the rest.
    #expect(sink.received == 5)
  }
}
