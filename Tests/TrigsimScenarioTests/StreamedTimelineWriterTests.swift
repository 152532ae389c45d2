import Foundation
import Testing
import TrigsimCore
import TrigsimTestSupport

@testable import TrigsimScenario

/// `trigsim run` streams its timeline: each entry is encoded as it comes and
/// spilled, and the document is written at the end. It must be the same
/// bytes as the in-memory rendering, for every scenario and every format.
@Suite struct StreamedTimelineWriterTests {
  /// Every scenario under `scenarios/` (the corpus included), relative to it.
  static let scenarioFiles = RepositoryPaths.bundledScenarioFiles

  /// What `trigsim run` writes: a format and whether the summary follows (`--summary`; JSON always has it).
  struct Output: CustomStringConvertible {
    var encoding: TimelineEncoding
    var summary: Bool
    var description: String { "\(encoding)\(summary ? "+summary" : "")" }

    /// The in-memory rendering of a report in this output, as `run` printed it before streaming.
    func rendered(_ report: SimulationReport) -> String {
      switch encoding {
      case .text: report.timeline.canonicalText + (summary ? report.summary.text : "")
      case .json: report.json
      case .jsonl: report.timeline.jsonLines
      case .csv: report.timeline.csv
      }
    }
  }

  static let outputs = [
    Output(encoding: .text, summary: false), Output(encoding: .text, summary: true), Output(encoding: .json, summary: true),
    Output(encoding: .jsonl, summary: false), Output(encoding: .csv, summary: false),
  ]

  /// Hands every entry to each writer: one run streams every output at once.
  struct Fanout: TimelineEntrySink {
    var writers: [StreamedTimelineWriter]
    mutating func append(_ entry: TimelineEntry) throws {
      for writer in writers { try writer.append(entry) }
    }
  }

  /// Streams one run into every output and returns what each wrote.
  static func streamed(_ run: (inout Fanout) throws -> StreamedReport) throws -> [String] {
    var fanout = Fanout(writers: try outputs.map { try StreamedTimelineWriter(encoding: $0.encoding) })
    let end = try run(&fanout)
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    return try zip(outputs, fanout.writers).enumerated().map { index, pair in
      let path = folder.appendingPathComponent("out-\(index)").path
      let output = try OutputFile.open(path)
      try pair.1.finish(header: end.header, summary: pair.0.summary ? end.summary : nil, into: output)
      try output.commit()
      return try String(contentsOfFile: path, encoding: .utf8)
    }
  }

  static func temporaryFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("trigsim-stream-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  @Test(arguments: scenarioFiles)
  func aStreamedTimelineIsTheInMemoryRenderingInEveryFormat(_ file: String) throws {
    let path = RepositoryPaths.scenarios.appendingPathComponent(file).path
    let loaded: ScenarioFile
    do { loaded = try ScenarioLoader().loadFile(path: path) } catch is ScenarioSkipped { return }
    let simulation = Simulation(loaded.scenario)
    let report = try simulation.report()
    let streamed = try Self.streamed { try simulation.run(into: &$0) }
    for (output, text) in zip(Self.outputs, streamed) {
      #expect(text == output.rendered(report), "\(file) \(output)")
    }
    if loaded.checks.trials != nil {
      // `run --trial K`: one trial's timeline.
      let trial = try simulation.report(trial: 2, seed: 5)
      let streamedTrial = try Self.streamed { try simulation.run(trial: 2, seed: 5, into: &$0) }
      for (output, text) in zip(Self.outputs, streamedTrial) {
        #expect(text == output.rendered(trial), "\(file) trial 2 \(output)")
      }
    }
  }

  @Test func theComparisonCoversEveryScenarioAndFormat() {
    #expect(Self.scenarioFiles.count >= 30)
    #expect(Self.scenarioFiles.contains { $0.hasPrefix("corpus/") })
    #expect(Set(Self.outputs.map(\.encoding)) == Set(TimelineEncoding.allCases))
  }

  @Test func aRunWithNoEntriesStreamsAnEmptyDocument() throws {
    let scenario = try ScenarioLoader().load(
      yaml: "trigsim: 1\nclock: { start: 2026-03-28T06:00:00Z, end: 2026-03-28T07:00:00Z, timezone: UTC }\n")
    let report = try Simulation(scenario).report()
    #expect(report.timeline.entries.isEmpty)
    let streamed = try Self.streamed { try Simulation(scenario).run(into: &$0) }
    for (output, text) in zip(Self.outputs, streamed) { #expect(text == output.rendered(report), "\(output)") }
  }
}
