import Foundation

/// What the exact geometry says at one fix of the true path.
enum PathStep: Sendable, Equatable {
  /// The first fix: the side of each region the device starts on (no crossing is reported).
  case first(inside: [Bool])
  /// The position was unknown since `since` (a gap longer than the limit, or
  /// a new track segment): the crossings are the sides that changed meanwhile, at this fix.
  case gap(since: SimulationInstant)
  /// The device moved continuously from the previous fix; the crossings are on the way.
  case segment
}

/// A boundary crossing of one region, found at one fix.
struct StepCrossing: Sendable, Equatable {
  var region: Int
  var entering: Bool
  var instant: SimulationInstant
}

/// The exact geometry of the true path: which side of each region the device
/// is on, and every boundary crossing between fixes (the `enter` and `exit`
/// truth). The world's part of a run, the same whatever the device does.
///
/// Within the gap limit and the same segment, the path is interpolated and
/// every crossing is found at its instant. Across a longer gap or a segment
/// break the position is unknown: a region whose side differs from the last
/// known one is crossed at the new fix's instant.
///
/// Most fixes are far from every boundary. Each region keeps a budget: a
/// lower bound on the distance to its boundary at the last exact check, less
/// an upper bound on the path length walked since (one bound per fix, shared
/// by all regions). While the budget stays positive the device cannot have
/// reached the boundary, and the region is not asked at all.
///
/// The budgets are indexed (`BudgetIndex`) so that a fix costs the same
/// with 4 regions or 5,000, and GPS jitter at a stop spends nothing: a fix
/// checks only the regions whose budget it spends (by the path walked and by
/// the distance from an anchor), in scenario order. `usesIndex = false`
/// subtracts the path length from every budget at every fix instead (the
/// property tests compare the two).
struct PathGeometry {
  let shapes: [any RegionShape]
  let gapLimit: SimulationDuration
  private(set) var inside: [Bool]
  private var clearanceBudget: [Double]
  /// Off, every region's budget is updated at every fix (the reference the property tests compare with).
  var usesIndex = true
  private var budgets: BudgetIndex
  private var due: [Int] = []
  /// Regions checked exactly so far (for the tests: the index skips most).
  private(set) var exactChecks = 0
  private var previous: TrackSample?
  /// At least `cos(previous.latitude)`, for `Geodesic.lengthUpperBound`.
  private var cosPreviousLatitude = 1.0
  private var cosineBound = CosineUpperBound()
  private var buffer: [BoundaryCrossing] = []

  init(shapes: [any RegionShape], gapLimit: SimulationDuration) {
    self.shapes = shapes
    self.gapLimit = gapLimit
    inside = Array(repeating: false, count: shapes.count)
    clearanceBudget = Array(repeating: 0, count: shapes.count)
    budgets = BudgetIndex(active: Array(repeating: true, count: shapes.count))
    buffer.reserveCapacity(8)
  }

  /// The geometry at `fix`; its crossings are appended to `crossings`, region
  /// by region in scenario order, each region's in time order.
  mutating func step(to fix: TrackSample, into crossings: inout [StepCrossing]) -> PathStep {
    let cosLatitude = cosineBound.value(atLatitude: fix.coordinate.latitude)
    defer {
      previous = fix
      cosPreviousLatitude = cosLatitude
    }
    guard let previous else {
      for index in shapes.indices {
        inside[index] = shapes[index].contains(fix.coordinate)
        clearanceBudget[index] = shapes[index].boundaryClearance(from: fix.coordinate)
      }
      if usesIndex { budgets.measuredAll(at: fix.coordinate) { clearanceBudget[$0] } }
      return .first(inside: inside)
    }
    if fix.startsSegment || previous.instant.duration(to: fix.instant) > gapLimit {
      for index in shapes.indices {
        let now = shapes[index].contains(fix.coordinate)
        clearanceBudget[index] = shapes[index].boundaryClearance(from: fix.coordinate)
        if now != inside[index] {
          crossings.append(StepCrossing(region: index, entering: now, instant: fix.instant))
          inside[index] = now
        }
      }
      if usesIndex { budgets.measuredAll(at: fix.coordinate) { clearanceBudget[$0] } }
      return .gap(since: previous.instant)
    }
    let pathLength = Geodesic.lengthUpperBound(previous.coordinate, fix.coordinate, cosLatitudeA: cosPreviousLatitude)
    if usesIndex {
      due.removeAll(keepingCapacity: true)
      budgets.advance(from: previous.coordinate, length: pathLength, into: &due)
      for index in due {
        check(index, from: previous, to: fix, into: &crossings)
        budgets.measured(index, clearance: clearanceBudget[index], at: fix.coordinate)
      }
      budgets.moveAnchorIfFar(to: fix.coordinate)
      return .segment
    }
    for index in shapes.indices {
      clearanceBudget[index] -= pathLength
      if clearanceBudget[index] > 0 { continue }
      check(index, from: previous, to: fix, into: &crossings)
    }
    return .segment
  }

  /// The exact check of one region on the segment: its crossings, its side
  /// at `fix`, and its clearance there (`clearanceBudget`).
  private mutating func check(_ index: Int, from previous: TrackSample, to fix: TrackSample, into crossings: inout [StepCrossing]) {
    exactChecks += 1
    let shape = shapes[index]
    shape.appendCrossings(from: previous, to: fix, insideAtStart: inside[index], into: &buffer)
    clearanceBudget[index] = shape.boundaryClearance(from: fix.coordinate)
    guard !buffer.isEmpty else { return }
    for crossing in buffer {
      crossings.append(StepCrossing(region: index, entering: crossing.entering, instant: crossing.instant))
    }
    inside[index] = buffer[buffer.count - 1].entering
    buffer.removeAll(keepingCapacity: true)
  }

}

/// The geometry of a whole track, computed once and replayed by every trial
/// (trials vary the device, never the world): what `PathGeometry.step` said
/// at each fix, recorded sparsely. Most fixes are a `.segment` step with no
/// crossing, so only the other steps (the first fix, gaps and segment
/// breaks) and the crossings are kept, each with its fix index: memory grows
/// with the crossings and gaps, not with the fixes.
///
/// A copy is a replay: `step(_:into:)` moves a cursor, so asking for fixes
/// in order costs O(1) each; asking out of order finds the place by binary search.
struct RecordedPathGeometry: Sendable {
  /// The fixes whose step is not `.segment`, ascending, and their steps.
  private var breakFixes: [Int] = []
  private var breaks: [PathStep] = []
  /// The fix each crossing was found at, ascending, and the crossings in the order found.
  private var crossingFixes: [Int] = []
  private var crossings: [StepCrossing] = []
  /// How many fixes were recorded.
  private(set) var count = 0

  // The replay cursor: the fix expected next, and where its steps and crossings start.
  private var nextFix = 0
  private var nextBreak = 0
  private var nextCrossing = 0

  /// Records the geometry of a track fix by fix, as it is read.
  struct Recorder {
    private var geometry: PathGeometry
    private var recording = RecordedPathGeometry()
    private var stepCrossings: [StepCrossing] = []

    init(shapes: [any RegionShape], gapLimit: SimulationDuration) {
      geometry = PathGeometry(shapes: shapes, gapLimit: gapLimit)
    }

    mutating func record(_ fix: TrackSample) {
      stepCrossings.removeAll(keepingCapacity: true)
      let step = geometry.step(to: fix, into: &stepCrossings)
      if step != .segment {
        recording.breakFixes.append(recording.count)
        recording.breaks.append(step)
      }
      for crossing in stepCrossings {
        recording.crossingFixes.append(recording.count)
        recording.crossings.append(crossing)
      }
      recording.count += 1
    }

    /// The geometry of every fix recorded, its replay at the first fix.
    var recorded: RecordedPathGeometry { recording }
  }

  /// How many steps from `index` on are plain segments without crossings.
  func quietSteps(from index: Int) -> Int {
    let nextBreakFix = breakFixes[breakFixes.partitioningIndex { $0 >= index }...].first ?? count
    let nextCrossingFix = crossingFixes[crossingFixes.partitioningIndex { $0 >= index }...].first ?? count
    return min(nextBreakFix, nextCrossingFix) - index
  }

  /// Step `index`, its crossings appended to `into`.
  mutating func step(_ index: Int, into output: inout [StepCrossing]) -> PathStep {
    if index != nextFix {
      nextBreak = breakFixes.partitioningIndex { $0 >= index }
      nextCrossing = crossingFixes.partitioningIndex { $0 >= index }
    }
    nextFix = index + 1
    while nextCrossing < crossingFixes.count && crossingFixes[nextCrossing] == index {
      output.append(crossings[nextCrossing])
      nextCrossing += 1
    }
    guard nextBreak < breakFixes.count && breakFixes[nextBreak] == index else { return .segment }
    nextBreak += 1
    return breaks[nextBreak - 1]
  }
}
