/// One position fix of the device: where it was at an instant.
///
/// A plain value with no references, so that streaming millions of fixes
/// through the engine allocates nothing per fix.
public struct TrackSample: Hashable, Sendable {
  /// When the fix was taken, after any time shift the scenario asks for.
  public var instant: SimulationInstant
  public var coordinate: Coordinate
  /// Horizontal accuracy radius in metres, when the file gives one.
  public var horizontalAccuracy: Double?
  /// The 1-based line of the track file this fix came from (0 for generated fixes).
  public var line: Int
  /// True when this fix starts a new recorded segment (GPX `trkseg`, a new
  /// `trk`); the device path is not interpolated across a segment break.
  public var startsSegment: Bool

  public init(
    instant: SimulationInstant, coordinate: Coordinate, horizontalAccuracy: Double? = nil,
    line: Int = 0, startsSegment: Bool = false
  ) {
    self.instant = instant
    self.coordinate = coordinate
    self.horizontalAccuracy = horizontalAccuracy
    self.line = line
    self.startsSegment = startsSegment
  }
}

/// Something that yields the fixes of a track in time order, one at a time.
///
/// Readers stream: they hand each fix to `consume` as soon as it is read and
/// never hold the whole track. A reader that finds bad input throws
/// `InputError` carrying every problem it found in the file.
public protocol TrackSource {
  /// The file (or generator) the fixes come from, for messages.
  var name: String { get }
  /// Reads the track from the start, calling `consume` once per fix in
  /// non-decreasing time order. Returning `false` from `consume` stops reading early.
  func readSamples(_ consume: (TrackSample) throws -> Bool) throws
}

/// A track held in memory: for tests and for library users who build fixes in code.
public struct InMemoryTrack: TrackSource, Sendable {
  public var name: String
  public var samples: [TrackSample]

  public init(name: String = "<memory>", samples: [TrackSample]) {
    self.name = name
    self.samples = samples
  }

  public func readSamples(_ consume: (TrackSample) throws -> Bool) throws {
    for sample in samples where try !consume(sample) { return }
  }
}

/// A track whose decoded fixes can be read in runs: a trial replays runs of
/// quiet fixes in one call (`SimulationRun.replay(block:)`).
protocol SampleBlockSource {
  /// Calls `consume` with consecutive runs of the fixes, in order, until it returns false.
  func readSampleBlocks(_ consume: (ArraySlice<TrackSample>) throws -> Bool) throws
}

extension InMemoryTrack: SampleBlockSource {
  func readSampleBlocks(_ consume: (ArraySlice<TrackSample>) throws -> Bool) throws {
    _ = try consume(samples[...])
  }
}
