import ArgumentParser
import TrigsimCore
import TrigsimMedicineApp
import TrigsimScenario

/// Runs `scenario` (or one trial of it) and writes its timeline in `format`
/// to `output` (opened by `openOutput` before the scenario was loaded), as the run produces it: memory
/// stays flat in the number of entries (see `StreamedTimelineWriter`).
/// Coverage warnings (the track does not cover the clock) also go to standard
/// error, named after `scenarioPath`.
///
/// Nothing reaches the destination unless the run completes: bad input, an
/// exceeded limit or a failed write discards the output. Problems are
/// printed to standard error and exit with the documented code (73 for a
/// write, the temporary spill file included).
func streamTimeline(
  of scenario: Scenario, at scenarioPath: String, trial: (index: Int, seed: UInt64)? = nil, format: TimelineFormat, summary: Bool,
  allDrops: Bool = false, to output: OutputFile
) throws {
  let path = output.path
  var writer = try writingOutput(to: path) { try StreamedTimelineWriter(encoding: format.encoding) }
  let end: StreamedReport
  do {
    end = try run(scenario, trial: trial, into: &writer)
  } catch {
    output.discard()
    throw reported(error, writing: path)
  }
  try writingOutput(to: path) {
    do {
      var closing = end.summary
      closing.listsEveryDrop = allDrops
      try writer.finish(header: end.header, summary: format.includesSummary(summary) ? closing : nil, into: output)
      try output.commit()
    } catch {
      output.discard()
      throw error
    }
  }
  sayCoverage(of: end.summary, at: scenarioPath)
}

/// The run, or trial `trial` of it, handing its entries to `sink`.
private func run<Sink: TimelineEntrySink>(
  _ scenario: Scenario, trial: (index: Int, seed: UInt64)?, into sink: inout Sink
) throws -> StreamedReport {
  let simulation = Simulation(scenario)
  if let trial { return try simulation.run(trial: trial.index, seed: trial.seed, into: &sink) }
  return try simulation.run(into: &sink)
}

/// What the track does not cover of the clock is also said where a person
/// reads it: on standard error, named after the scenario.
func sayCoverage(of summary: RunSummary, at scenarioPath: String) {
  for warning in summary.coverageWarnings { writeToStandardError("warning: \(ControlCharacterEscape.escaping(scenarioPath)): \(ControlCharacterEscape.escaping(warning))\n") }
}

/// Prints why the run failed and returns the exit to throw: 73 for a failed
/// write (the spill file), else as `reportingErrors` decides.
private func reported(_ error: any Error, writing path: String?) -> any Error {
  do {
    if error is OutputFile.WriteError { try writingOutput(to: path) { throw error } }
    try reportingErrors { throw error }
  } catch {
    return error
  }
  return error
}

/// Runs `scenario` (or one trial of it) and writes it as GeoJSON to
/// `output` (opened by `openOutput`): the regions, the track (read again from its
/// source and streamed) and the located events, which are held in memory
/// until the run ends (see `GeoJSONCollector`). Nothing reaches the
/// destination unless the document is complete.
func streamGeoJSON(of scenario: Scenario, at scenarioPath: String, trial: (index: Int, seed: UInt64)? = nil, to output: OutputFile) throws {
  let path = output.path
  var collector = GeoJSONCollector()
  let end: StreamedReport
  do {
    end = try run(scenario, trial: trial, into: &collector)
    try collector.writeDocument(regions: scenario.regions, track: scenario.track) { try output.write($0) }
    try output.commit()
  } catch {
    output.discard()
    throw reported(error, writing: path)
  }
  sayCoverage(of: end.summary, at: scenarioPath)
}
