import Testing
import TrigsimTestSupport

@testable import TrigsimCore

private func at(_ milliseconds: Int64) -> SimulationInstant { SimulationInstant(millisecondsSinceEpoch: milliseconds) }

private func fix(_ milliseconds: Int64, _ coordinate: Coordinate, startsSegment: Bool = false) -> TrackSample {
  TrackSample(instant: at(milliseconds), coordinate: coordinate, startsSegment: startsSegment)
}

private let copenhagen = Coordinate(latitude: 55.6761, longitude: 12.5683)

/// The crossings found by evaluating `contains` at every whole millisecond of
/// the path: the definition `appendCrossings` must agree with.
private func sampledCrossings(_ region: CircularRegion, _ a: TrackSample, _ b: TrackSample) -> [BoundaryCrossing] {
  let path = DevicePath(from: a, to: b)
  var state = region.contains(a.coordinate)
  var crossings: [BoundaryCrossing] = []
  let t0 = a.instant.millisecondsSinceEpoch, t1 = b.instant.millisecondsSinceEpoch
  guard t1 > t0 else { return [] }
  for t in (t0 + 1)...t1 {
    let now = region.contains(path.position(at: at(t)))
    if now != state {
      crossings.append(BoundaryCrossing(instant: at(t), entering: now))
      state = now
    }
  }
  return crossings
}

private func computedCrossings(_ region: CircularRegion, _ a: TrackSample, _ b: TrackSample) -> [BoundaryCrossing] {
  var crossings: [BoundaryCrossing] = []
  region.appendCrossings(from: a, to: b, insideAtStart: region.contains(a.coordinate), into: &crossings)
  return crossings
}

/// A random segment, most of them close to the boundary: through a point near
/// the boundary, grazing it, or starting near it; a few far away.
private func nearBoundarySegment(_ rng: inout SplitMix64, seed: UInt64, maxDuration: Int64)
  -> (CircularRegion, TrackSample, TrackSample)
{
  let center = Coordinate(latitude: .random(in: -80...80, using: &rng), longitude: .random(in: -180...180, using: &rng))
  let radius = [5.0, 100, 400, 3000][Int(seed % 4)] * .random(in: 0.5...1.5, using: &rng)
  let region = CircularRegion(center: center, radius: radius)
  let duration = Int64.random(in: 1...maxDuration, using: &rng)
  let speed = Double.random(in: 0...40, using: &rng)  // m/s
  let length = speed * Double(duration) / 1000
  let bearing = Double.random(in: -180...180, using: &rng)
  let a: Coordinate, b: Coordinate
  switch seed / 4 % 4 {
  case 0:  // through a point within a few metres of the boundary, any heading
    let m = Geodesic.destination(from: center, azimuth: bearing, distance: radius + .random(in: -3...3, using: &rng))
    let heading = Double.random(in: -180...180, using: &rng)
    let split = Double.random(in: 0...1, using: &rng)
    a = Geodesic.destination(from: m, azimuth: heading + 180, distance: length * split)
    b = Geodesic.destination(from: m, azimuth: heading, distance: length * (1 - split))
  case 1:  // a tangent graze, missing or touching the circle by under a centimetre
    let m = Geodesic.destination(
      from: center, azimuth: bearing, distance: radius + .random(in: -0.01...0.01, using: &rng))
    let back = Geodesic.inverse(m, center).initialAzimuth
    let heading = back + 90
    let split = Double.random(in: 0.2...0.8, using: &rng)
    a = Geodesic.destination(from: m, azimuth: heading + 180, distance: length * split)
    b = Geodesic.destination(from: m, azimuth: heading, distance: length * (1 - split))
  case 2:  // starting near the boundary
    a = Geodesic.destination(from: center, azimuth: bearing, distance: radius * .random(in: 0.9...1.1, using: &rng))
    b = Geodesic.destination(from: a, azimuth: .random(in: -180...180, using: &rng), distance: length)
  default:  // anywhere within a few radii
    a = Geodesic.destination(from: center, azimuth: bearing, distance: radius * .random(in: 0...4, using: &rng))
    b = Geodesic.destination(from: a, azimuth: .random(in: -180...180, using: &rng), distance: length)
  }
  let start = Int64.random(in: 0...1_000_000, using: &rng)
  return (region, fix(start, a), fix(start + duration, b))
}

extension GeometryTests {
  @Suite("CircularRegion")
  struct CircularRegionTests {
    @Test func theBoundaryCountsAsInside() {
      let p = Geodesic.destination(from: copenhagen, azimuth: 33, distance: 100)
      let exact = Geodesic.distance(copenhagen, p)
      #expect(CircularRegion(center: copenhagen, radius: exact).contains(p))
      #expect(!CircularRegion(center: copenhagen, radius: exact.nextDown).contains(p))
    }

    @Test func containsAgreesWithTheGeodesicDistance() {
      for seed in UInt64(0)..<500 {
        var rng = SplitMix64(seed: seed)
        let center = Coordinate(latitude: .random(in: -89...89, using: &rng), longitude: .random(in: -180...180, using: &rng))
        let radius = Double.random(in: 1...5_000, using: &rng)
        let region = CircularRegion(center: center, radius: radius)
        let p = Geodesic.destination(
          from: center, azimuth: .random(in: -180...180, using: &rng),
          distance: radius * .random(in: 0...3, using: &rng))
        #expect(region.contains(p) == (Geodesic.distance(center, p) <= radius), "seed \(seed)")
      }
    }

    @Test func passThroughBetweenTwoFixesGivesEnterThenExit() {
      let region = CircularRegion(center: copenhagen, radius: 100)
      let a = fix(0, Geodesic.destination(from: copenhagen, azimuth: 270, distance: 300))
      let b = fix(10_000, Geodesic.destination(from: copenhagen, azimuth: 90, distance: 300))
      let crossings = computedCrossings(region, a, b)
      #expect(crossings.map(\.entering) == [true, false])
      #expect(crossings == sampledCrossings(region, a, b))
      // 200 m of 600 m: in at 3333.3 ms; out after 400 m, at 6666.7 ms.
      #expect(crossings.first?.instant == at(3_334))
      #expect(crossings.last?.instant == at(6_667))
    }

    @Test func theCrossingIsTheFirstMillisecondOnTheNewSide() {
      let region = CircularRegion(center: copenhagen, radius: 100)
      let a = fix(0, copenhagen)
      let b = fix(7_001, Geodesic.destination(from: copenhagen, azimuth: 10, distance: 150))
      let crossings = computedCrossings(region, a, b)
      #expect(crossings.count == 1)
      let exit = try! #require(crossings.first)
      #expect(!exit.entering)
      let path = DevicePath(from: a, to: b)
      #expect(!region.contains(path.position(at: exit.instant)))
      #expect(region.contains(path.position(at: exit.instant.advanced(byMilliseconds: -1))))
    }

    @Test func bothEndsInsideGivesNoCrossings() {
      let region = CircularRegion(center: copenhagen, radius: 100)
      let a = fix(0, Geodesic.destination(from: copenhagen, azimuth: 270, distance: 99))
      let b = fix(5_000, Geodesic.destination(from: copenhagen, azimuth: 80, distance: 99))
      var crossings: [BoundaryCrossing] = []
      region.appendCrossings(from: a, to: b, insideAtStart: true, into: &crossings)
      #expect(crossings.isEmpty)
    }

    @Test func aTangentGrazeThatIsNeverInsideGivesNoCrossings() {
      let region = CircularRegion(center: copenhagen, radius: 100)
      // Closest approach 1 mm outside the circle, due north of the centre.
      let m = Geodesic.destination(from: copenhagen, azimuth: 0, distance: 100.001)
      let a = fix(0, Geodesic.destination(from: m, azimuth: 270, distance: 20))
      let b = fix(4_000, Geodesic.destination(from: m, azimuth: 90, distance: 20))
      #expect(computedCrossings(region, a, b).isEmpty)
      // The same path 2 mm further south dips inside: enter and exit.
      let m2 = Geodesic.destination(from: copenhagen, azimuth: 0, distance: 99.999)
      let a2 = fix(0, Geodesic.destination(from: m2, azimuth: 270, distance: 20))
      let b2 = fix(4_000, Geodesic.destination(from: m2, azimuth: 90, distance: 20))
      let crossings = computedCrossings(region, a2, b2)
      #expect(crossings.map(\.entering) == [true, false])
      #expect(crossings == sampledCrossings(region, a2, b2))
    }

    @Test func fixesSharingAnInstantReportTheChangeAtTheSecondFix() {
      let region = CircularRegion(center: copenhagen, radius: 100)
      let outside = Geodesic.destination(from: copenhagen, azimuth: 0, distance: 150)
      var crossings: [BoundaryCrossing] = []
      region.appendCrossings(from: fix(2_000, outside), to: fix(2_000, copenhagen), insideAtStart: false, into: &crossings)
      #expect(crossings == [BoundaryCrossing(instant: at(2_000), entering: true)])
    }

    @Test func aNewRecordedSegmentIsNotInterpolated() {
      let region = CircularRegion(center: copenhagen, radius: 100)
      let west = Geodesic.destination(from: copenhagen, azimuth: 270, distance: 300)
      let east = Geodesic.destination(from: copenhagen, azimuth: 90, distance: 300)
      var crossings: [BoundaryCrossing] = []
      // Across the circle, but a jump: no pass-through.
      region.appendCrossings(
        from: fix(0, west), to: fix(60_000, east, startsSegment: true), insideAtStart: false, into: &crossings)
      #expect(crossings.isEmpty)
      // Into the circle across a break: the entry is at the new segment's first fix.
      region.appendCrossings(
        from: fix(0, west), to: fix(60_000, copenhagen, startsSegment: true), insideAtStart: false, into: &crossings)
      #expect(crossings == [BoundaryCrossing(instant: at(60_000), entering: true)])
    }

    @Test func crossingsAgreeExactlyWithSamplingEveryMillisecond() {
      var checked = 0, withCrossings = 0
      for seed in UInt64(0)..<800 {
        var rng = SplitMix64(seed: seed)
        let (region, a, b) = nearBoundarySegment(&rng, seed: seed, maxDuration: 3_000)
        let insideAtStart = region.contains(a.coordinate)
        let crossings = computedCrossings(region, a, b)
        let expected = sampledCrossings(region, a, b)
        #expect(crossings == expected, "seed \(seed): got \(crossings), sampling gives \(expected)")
        // Alternating, starting from the other side of insideAtStart.
        for (index, crossing) in crossings.enumerated() {
          #expect(crossing.entering == (index % 2 == 0 ? !insideAtStart : insideAtStart), "seed \(seed)")
        }
        checked += 1
        if !expected.isEmpty { withCrossings += 1 }
      }
      // The generator must actually produce crossings for the comparison to mean much.
      #expect(withCrossings > checked / 4, "only \(withCrossings) of \(checked) segments cross")
    }

    @Test func fastPrefilterNeverRejectsASegmentThatHasACrossing() {
      var rejected = 0
      for seed in UInt64(0)..<1000 {
        var rng = SplitMix64(seed: seed)
        let (region, a, b) = nearBoundarySegment(&rng, seed: seed, maxDuration: 2_000)
        guard let state = region.boundState(from: a.coordinate, to: b.coordinate) else { continue }
        rejected += 1
        #expect(region.contains(a.coordinate) == state, "seed \(seed)")
        #expect(sampledCrossings(region, a, b).isEmpty, "seed \(seed): rejected a segment that crosses")
      }
      #expect(rejected > 100, "the prefilter rejected only \(rejected) segments")
    }

    @Test func theFastPrefilterRejectsSegmentsAFewMetresFromTheBoundary() {
      // 100 m circle; a 1.4 m walking step 5 m outside, and one 5 m inside.
      let region = CircularRegion(center: copenhagen, radius: 100)
      let out = Geodesic.destination(from: copenhagen, azimuth: 45, distance: 105)
      let inside = Geodesic.destination(from: copenhagen, azimuth: 45, distance: 95)
      #expect(region.boundState(from: out, to: Geodesic.destination(from: out, azimuth: 135, distance: 1.4)) == false)
      #expect(region.boundState(from: inside, to: Geodesic.destination(from: inside, azimuth: 135, distance: 1.4)) == true)
      let far = Coordinate(latitude: 40.7, longitude: -74)
      #expect(region.boundState(from: far, to: Coordinate(latitude: 40.70001, longitude: -74)) == false)
    }

    @Test func summaryNamesCentreAndRadius() {
      #expect(CircularRegion(center: copenhagen, radius: 100).summary == "circle [55.6761, 12.5683] r=100m")
      #expect(CircularRegion(center: copenhagen, radius: 12.5).summary == "circle [55.6761, 12.5683] r=12.5m")
    }
  }
}
