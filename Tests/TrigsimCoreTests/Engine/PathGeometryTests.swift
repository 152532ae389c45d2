import Foundation
import Testing
import TrigsimTestSupport

@testable import TrigsimCore

/// `RecordedPathGeometry`: the sparse recording answers, at every fix, what
/// `PathGeometry.step` said there.
@Suite struct RecordedPathGeometryTests {
  static let centre = Coordinate(latitude: 55.67, longitude: 12.56)
  static let start = Build.instant("2026-05-04T06:00:00Z")
  static let gapLimit = SimulationDuration.minutes(5)

  /// A random walk among circles: steps of up to 40 m a second, stops,
  /// gaps longer than the limit (with a jump), and segment starts.
  static func walk(seed: UInt64, count: Int) -> [TrackSample] {
    var random = SplitMix64(seed: seed)
    var position = centre
    var instant = start
    var samples: [TrackSample] = []
    for index in 0..<count {
      var startsSegment = false
      switch random.next(below: 200) {
      case 0:
        instant = instant.advanced(by: .minutes(6 + random.next(below: 60)))
        position = Geodesic.destination(from: position, azimuth: random.nextUnit() * 360, distance: random.nextUnit() * 300)
      case 1:
        startsSegment = true
        instant = instant.advanced(by: .seconds(1))
        position = Geodesic.destination(from: position, azimuth: random.nextUnit() * 360, distance: random.nextUnit() * 300)
      default:
        instant = instant.advanced(by: .seconds(1))
        if random.next(below: 3) > 0 {
          position = Geodesic.destination(from: position, azimuth: random.nextUnit() * 360, distance: random.nextUnit() * 40)
        }
      }
      // Stay within about 600 m of the centre, where the circles are.
      if Geodesic.distance(position, centre) > 600 { position = Geodesic.destination(from: centre, azimuth: random.nextUnit() * 360, distance: 100) }
      samples.append(TrackSample(instant: instant, coordinate: position, line: index + 2, startsSegment: startsSegment))
    }
    return samples
  }

  static func circles(seed: UInt64) -> [any RegionShape] {
    var random = SplitMix64(seed: seed &+ 1000)
    return (0..<6).map { _ in
      CircularRegion(
        center: Geodesic.destination(from: centre, azimuth: random.nextUnit() * 360, distance: random.nextUnit() * 400),
        radius: 30 + random.nextUnit() * 200)
    }
  }

  @Test func theReplayAnswersWhatTheGeometrySaidAtEveryFixInOrderAndOutOfOrder() {
    var crossingsSeen = 0
    var breaksSeen = 0
    for seed in UInt64(1)...6 {
      let samples = Self.walk(seed: seed, count: 5000)
      let shapes = Self.circles(seed: seed)
      var live = PathGeometry(shapes: shapes, gapLimit: Self.gapLimit)
      var recorder = RecordedPathGeometry.Recorder(shapes: shapes, gapLimit: Self.gapLimit)
      var steps: [PathStep] = []
      var crossings: [[StepCrossing]] = []
      for fix in samples {
        var found: [StepCrossing] = []
        steps.append(live.step(to: fix, into: &found))
        crossings.append(found)
        recorder.record(fix)
      }
      var replay = recorder.recorded
      #expect(replay.count == samples.count)
      for index in samples.indices {
        var found: [StepCrossing] = []
        let step = replay.step(index, into: &found)
        #expect(step == steps[index] && found == crossings[index], "seed \(seed), fix \(index) in order")
      }
      // Out of order (a binary search finds the place), and then on in order from there.
      var random = SplitMix64(seed: seed)
      var jumping = recorder.recorded
      for _ in 0..<200 {
        let first = Int(random.next(below: Int64(samples.count)))
        for index in first..<min(samples.count, first + 3) {
          var found: [StepCrossing] = []
          let step = jumping.step(index, into: &found)
          #expect(step == steps[index] && found == crossings[index], "seed \(seed), fix \(index) after a jump to \(first)")
        }
      }
      crossingsSeen += crossings.reduce(0) { $0 + $1.count }
      breaksSeen += steps.count { $0 != .segment }
    }
    // The walks cross boundaries and break often enough for the comparison to mean something.
    #expect(crossingsSeen > 300)
    #expect(breaksSeen > 100)
  }
}
