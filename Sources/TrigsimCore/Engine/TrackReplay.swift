/// Where the replay of a run's track stands: the last fix, the exact
/// geometry of the true path (computed as the fixes come, or replayed from a
/// recording), the crossings of the step being replayed, the visits counted
/// so far, and what the track does not cover of the clock.
///
/// The engine owns it: the world's track, as the clock is the world's time.
/// The device is handed the fixes and the crossings; it keeps none of this.
struct TrackReplay {
  var previousFix: TrackSample?
  /// The exact geometry of the true path, computed as the fixes come...
  var geometry: PathGeometry
  /// ... or replayed from a recording (trials: the same track in every trial).
  var recordedGeometry: RecordedPathGeometry?
  /// Off, a replayed recording goes fix by fix too (the reference the property tests compare with).
  var usesQuietStretches = true
  /// Fixes replayed in quiet stretches (for the tests: proof that they ran).
  var quietStretchFixes = 0
  /// The crossings of the step being replayed (the geometry's output, reused fix after fix).
  var stepCrossings: [StepCrossing] = []
  /// Geometric crossings of the segment being replayed, with their visits, for the location service.
  var segmentCrossings: [GeometricCrossing] = []
  var fixesRead = 0
  var firstFixInstant: SimulationInstant?
  /// The regions the device was inside at the first fix (no `enter` is recorded for them).
  var regionsInsideAtFirstFix: [RegionID] = []
  var lastFixInstant: SimulationInstant?
  /// What the track does not cover of the clock (`coverage(at:_:)`), in the order said.
  var coverageWarnings: [String] = []
  /// The first fix, until its coverage warning is said.
  var firstFixToWarn: SimulationInstant?
  /// Each region's visits counted from the clock's start (`queueCrossing`).
  var visits: [Int]

  /// A replay of `scenario`'s track that has read no fix yet.
  init(_ scenario: Scenario) {
    visits = Array(repeating: 0, count: scenario.regions.count)
    geometry = PathGeometry(shapes: scenario.regions.map(\.shape), gapLimit: scenario.platform.trackGapLimit)
    stepCrossings.reserveCapacity(8)
  }
}
