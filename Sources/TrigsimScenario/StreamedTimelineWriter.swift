import TrigsimCore

/// A timeline sink that encodes each entry in its format as it comes, and
/// writes the whole document once the run is over: the same bytes as the
/// in-memory rendering (both are `TimelineEncoding`'s pieces).
///
/// The header is known only at the end (it counts the fixes read), so the
/// encoded entries wait in a `SpillFile`; `finish` writes the opening (format
/// line and header), copies the spilled entries, then the closing (summary,
/// end of document) into the destination. What it holds in memory does not
/// grow with the number of entries: one encoded entry and the spill file's
/// fixed buffer.
///
/// ```swift
/// var writer = try StreamedTimelineWriter(encoding: .json)
/// let end = try Simulation(scenario).run(into: &writer)
/// try writer.finish(header: end.header, summary: end.summary, into: output)
/// try output.commit()
/// ```
package final class StreamedTimelineWriter: TimelineEntrySink {
  package let encoding: TimelineEncoding
  private let spill: SpillFile
  /// Entries appended so far.
  package private(set) var entryCount = 0

  /// - Throws: `OutputFile.WriteError` when the spill file cannot be made.
  package init(encoding: TimelineEncoding, environment: [String: String]? = nil) throws {
    self.encoding = encoding
    spill = try environment.map { try SpillFile(environment: $0) } ?? SpillFile()
  }

  /// Encodes the entry and spills it.
  package func append(_ entry: TimelineEntry) throws {
    try spill.write(encoding.entry(entry, at: entryCount))
    entryCount += 1
  }

  /// Writes the document to `output`: the opening with `header`, every
  /// entry appended, the closing with `summary` (pass nil for none; jsonl
  /// and csv carry none). Does not commit `output`.
  package func finish(header: [TimelineField], summary: RunSummary?, into output: OutputFile) throws {
    try output.write(encoding.opening(header: header))
    try spill.readBack { try output.write($0) }
    try output.write(encoding.closing(entryCount: entryCount, summary: summary))
  }
}
