/// Where a run puts its timeline entries, one at a time, in timeline order
/// (non-decreasing instants; equal instants in handling order).
///
/// The engine hands every entry to its sink as it is made and keeps none
/// itself, so what a run holds in memory depends on the sink: an in-memory
/// `Timeline` keeps them all (`Simulation.report()`, `verify`, the library
/// API); `TimelineEntryCounter` keeps none (trials); `trigsim run` encodes
/// each entry as it comes and spills it to a temporary file.
///
/// The header and the summary are known only at the run's end (the header
/// counts the fixes read); `Simulation.run(into:)` returns them then.
public protocol TimelineEntrySink {
  /// Takes the next entry. A thrown error stops the run: no further entry
  /// is made and the run throws that error.
  mutating func append(_ entry: TimelineEntry) throws
}

extension Timeline: TimelineEntrySink {
  /// Appends the entry to `entries`.
  public mutating func append(_ entry: TimelineEntry) {
    entries.append(entry)
  }
}

/// A sink that keeps no entry, only their number: for runs whose outcome is
/// the summary (trials), or to learn how long a timeline would be.
public struct TimelineEntryCounter: TimelineEntrySink, Sendable {
  /// The entries appended so far.
  public private(set) var count = 0

  public init() {}

  public mutating func append(_ entry: TimelineEntry) {
    count += 1
  }
}
