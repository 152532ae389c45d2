import Foundation
import Testing
import TrigsimCore
import TrigsimGEOS
import TrigsimTestSupport

private func at(_ milliseconds: Int64) -> SimulationInstant { SimulationInstant(millisecondsSinceEpoch: milliseconds) }

/// A point on a grid of 1/128° (exactly representable, so that interpolated
/// points land exactly on edges and vertices when the arithmetic says so),
/// near Copenhagen. `x` is eastward, `y` northward, in grid units.
private func grid(_ x: Double, _ y: Double) -> Coordinate {
  Coordinate(latitude: 55.5 + y / 128, longitude: 12.5 + x / 128)
}

private func fix(_ milliseconds: Int64, _ coordinate: Coordinate, startsSegment: Bool = false) -> TrackSample {
  TrackSample(instant: at(milliseconds), coordinate: coordinate, startsSegment: startsSegment)
}

private func region(_ vertices: [Coordinate]) -> PolygonRegion {
  do { return try PolygonRegion.make(vertices: vertices) } catch { fatalError("\(error)") }
}

private let unitSquare = [grid(0, 0), grid(1, 0), grid(1, 1), grid(0, 1)]
/// Two arms: [0,2]×[0,1] and [0,1]×[0,2]; the notch is the reflex corner (1, 1).
private let lShape = [grid(0, 0), grid(2, 0), grid(2, 1), grid(1, 1), grid(1, 2), grid(0, 2)]

/// The crossings found by evaluating `contains` at every whole millisecond of
/// the chord: the definition `appendCrossings` must agree with.
private func sampledCrossings(_ polygon: PolygonRegion, _ a: TrackSample, _ b: TrackSample) -> [BoundaryCrossing] {
  let chord = ChordPath(from: a, to: b)
  var state = polygon.contains(a.coordinate)
  var crossings: [BoundaryCrossing] = []
  let t0 = a.instant.millisecondsSinceEpoch, t1 = b.instant.millisecondsSinceEpoch
  guard t1 > t0 else { return [] }
  for t in (t0 + 1)...t1 {
    let now = polygon.contains(chord.position(at: at(t)))
    if now != state {
      crossings.append(BoundaryCrossing(instant: at(t), entering: now))
      state = now
    }
  }
  return crossings
}

private func computedCrossings(_ polygon: PolygonRegion, _ a: TrackSample, _ b: TrackSample) -> [BoundaryCrossing] {
  var crossings: [BoundaryCrossing] = []
  polygon.appendCrossings(from: a, to: b, insideAtStart: polygon.contains(a.coordinate), into: &crossings)
  return crossings
}

@Suite("PolygonRegion")
struct PolygonRegionTests {
  // MARK: - Validation

  @Test func aSelfIntersectingBowTieIsRejectedWithGEOSReason() {
    let bowTie = [
      Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 1, longitude: 1),
      Coordinate(latitude: 0, longitude: 1), Coordinate(latitude: 1, longitude: 0),
    ]
    #expect(throws: PolygonRegion.ValidationError.invalidPolygon(reason: "Self-intersection[0.5 0.5]")) {
      try PolygonRegion.make(vertices: bowTie)
    }
    let error = PolygonRegion.ValidationError.invalidPolygon(reason: "Self-intersection[0.5 0.5]")
    #expect(error.description == "the polygon is not valid: Self-intersection[0.5 0.5]")
  }

  @Test func fewerThanThreeDistinctVerticesAreRejected() {
    let vertices = [grid(0, 0), grid(1, 1), grid(0, 0), grid(1, 1)]
    #expect(throws: PolygonRegion.ValidationError.tooFewDistinctVertices(count: 2)) {
      try PolygonRegion.make(vertices: vertices)
    }
    #expect(
      PolygonRegion.ValidationError.tooFewDistinctVertices(count: 2).description
        == "a polygon needs at least 3 distinct vertices, found 2")
  }

  @Test func outOfRangeAndNonFiniteVerticesAreRejectedByIndex() {
    let high = Coordinate(latitude: 91, longitude: 12)
    #expect(throws: PolygonRegion.ValidationError.invalidCoordinate(index: 2, high)) {
      try PolygonRegion.make(vertices: [grid(0, 0), grid(1, 0), high, grid(0, 1)])
    }
    let notANumber = Coordinate(latitude: 55, longitude: .nan)
    #expect {
      try PolygonRegion.make(vertices: [grid(0, 0), notANumber, grid(1, 1)])
    } throws: { error in
      guard case .invalidCoordinate(index: 1, _) = error as? PolygonRegion.ValidationError else { return false }
      return true
    }
    #expect(
      PolygonRegion.ValidationError.invalidCoordinate(index: 2, high).description
        == "vertex 3 '[91.0, 12.0]' is not a valid coordinate (latitude -90...90, longitude -180...180)")
  }

  @Test func anExplicitClosingVertexIsDropped() {
    let polygon = region(unitSquare + [unitSquare[0]])
    #expect(polygon.vertices == unitSquare)
  }

  @Test func summaryListsTheVertices() {
    let polygon = region([
      Coordinate(latitude: 55.67, longitude: 12.56), Coordinate(latitude: 55.68, longitude: 12.56),
      Coordinate(latitude: 55.68, longitude: 12.58),
    ])
    #expect(polygon.summary == "polygon n=3 [55.67, 12.56] [55.68, 12.56] [55.68, 12.58]")
    var many: [Coordinate] = []
    for k in 0..<10 { many.append(Coordinate(latitude: 55 + Double(k % 2) * 0.5, longitude: 12 + Double(k) * 0.25)) }
    many.append(Coordinate(latitude: 56, longitude: 14))
    many.append(Coordinate(latitude: 56, longitude: 12))
    #expect(region(many).summary == "polygon n=12 bbox [55.0, 12.0]…[56.0, 14.25]")
  }

  // MARK: - Containment

  @Test func theBoundaryCountsAsInside() {
    let polygon = region(unitSquare)
    #expect(polygon.contains(grid(1, 1)))  // a vertex
    #expect(polygon.contains(grid(0.5, 0)))  // an edge
    #expect(polygon.contains(grid(0.5, 0.5)))
    #expect(!polygon.contains(grid(0.5, 1 + 1.0 / 1024)))
    #expect(!polygon.contains(grid(-3, 0.5)))
  }

  @Test func theNotchOfAnLShapeIsOutside() {
    let polygon = region(lShape)
    #expect(!polygon.contains(grid(1.5, 1.5)))
    #expect(polygon.contains(grid(0.5, 1.5)))
    #expect(polygon.contains(grid(1.5, 0.5)))
  }

  // MARK: - Crossings

  @Test func oneSegmentAcrossBothArmsOfAnLShapeCrossesFourTimes() {
    let polygon = region(lShape)
    // From (-0.5, 1.9) to (2.5, 0.3) over 10,001 ms: in through x = 0 at 1/6,
    // out through the notch's vertical edge x = 1 at 1/2, in through its
    // horizontal edge y = 1 at 0.5625, out through x = 2 at 5/6.
    let a = fix(0, grid(-0.5, 1.9)), b = fix(10_001, grid(2.5, 0.3))
    let crossings = computedCrossings(polygon, a, b)
    #expect(
      crossings == [
        BoundaryCrossing(instant: at(1_667), entering: true),
        BoundaryCrossing(instant: at(5_001), entering: false),
        BoundaryCrossing(instant: at(5_626), entering: true),
        BoundaryCrossing(instant: at(8_335), entering: false),
      ])
    #expect(crossings == sampledCrossings(polygon, a, b))
  }

  @Test func touchingAVertexBetweenMillisecondsGivesNoCrossing() {
    let polygon = region(unitSquare)
    // Through the corner (1, 1) at 5000.5 ms, outside otherwise.
    let a = fix(0, grid(0.5, 1.5)), b = fix(10_001, grid(1.5, 0.5))
    #expect(computedCrossings(polygon, a, b).isEmpty)
    #expect(sampledCrossings(polygon, a, b).isEmpty)
  }

  @Test func onAVertexAtAWholeMillisecondCountsAsInsideForThatMillisecond() {
    let polygon = region(unitSquare)
    // Exactly on the corner (1, 1) at 5000 ms.
    let a = fix(0, grid(0.5, 1.5)), b = fix(10_000, grid(1.5, 0.5))
    #expect(
      computedCrossings(polygon, a, b) == [
        BoundaryCrossing(instant: at(5_000), entering: true),
        BoundaryCrossing(instant: at(5_001), entering: false),
      ])
  }

  @Test func travellingAlongAnEdgeInventsNoCrossings() {
    let polygon = region(unitSquare)
    // Along the top edge, on the boundary all the time.
    let a = fix(0, grid(0.25, 1)), b = fix(3_000, grid(0.75, 1))
    var crossings: [BoundaryCrossing] = []
    polygon.appendCrossings(from: a, to: b, insideAtStart: true, into: &crossings)
    #expect(crossings.isEmpty)
    // Along the line of the top edge from outside to outside: on the edge
    // (inside) from x = 0 at 500 ms to x = 1 at 1500 ms.
    let c = fix(0, grid(-0.5, 1)), d = fix(2_000, grid(1.5, 1))
    let along = computedCrossings(polygon, c, d)
    #expect(
      along == [
        BoundaryCrossing(instant: at(500), entering: true), BoundaryCrossing(instant: at(1_501), entering: false),
      ])
    #expect(along == sampledCrossings(polygon, c, d))
  }

  @Test func aSegmentWhoseBoxMissesThePolygonGivesNoCrossings() {
    let polygon = region(unitSquare)
    let a = fix(0, grid(3, 3)), b = fix(1_000, grid(4, 2))
    #expect(computedCrossings(polygon, a, b).isEmpty)
  }

  @Test func fixesSharingAnInstantReportTheChangeAtTheSecondFix() {
    let polygon = region(unitSquare)
    var crossings: [BoundaryCrossing] = []
    polygon.appendCrossings(
      from: fix(4_000, grid(-1, 0.5)), to: fix(4_000, grid(0.5, 0.5)), insideAtStart: false, into: &crossings)
    #expect(crossings == [BoundaryCrossing(instant: at(4_000), entering: true)])
  }

  @Test func aChordAcrossTheAntimeridianIsNotInterpolated() {
    let square = [
      Coordinate(latitude: 10, longitude: 179), Coordinate(latitude: 10, longitude: 179.5),
      Coordinate(latitude: 11, longitude: 179.5), Coordinate(latitude: 11, longitude: 179),
    ]
    let polygon = region(square)
    // Read literally, the (longitude, latitude) line from 178.5 to -179.5
    // runs through the square; the device took the short way, so no crossing.
    let a = fix(0, Coordinate(latitude: 10.5, longitude: 178.5))
    let b = fix(60_000, Coordinate(latitude: 10.5, longitude: -179.5))
    #expect(!ChordPath(from: a, to: b).interpolates)
    #expect(computedCrossings(polygon, a, b).isEmpty)
    // Into the square across the antimeridian: the change is at the second fix.
    let c = fix(0, Coordinate(latitude: 10.5, longitude: -179.9))
    let d = fix(60_000, Coordinate(latitude: 10.5, longitude: 179.25))
    #expect(computedCrossings(polygon, c, d) == [BoundaryCrossing(instant: at(60_000), entering: true)])
  }

  @Test func crossingsAgreeExactlyWithSamplingTheChordEveryMillisecond() {
    var withCrossings = 0
    let seeds = UInt64(0)..<600
    for seed in seeds {
      var rng = SplitMix64(seed: seed)
      // A random star-shaped (hence simple) polygon, or the L shape.
      var vertices: [Coordinate]
      if seed % 5 == 0 {
        vertices = lShape
      } else {
        let count = Int.random(in: 3...9, using: &rng)
        let angles = (0..<count).map { _ in Double.random(in: 0..<(2 * .pi), using: &rng) }.sorted()
        vertices = angles.map { angle in
          let r = Double.random(in: 0.3...1, using: &rng)
          return grid(r * cos(angle), r * sin(angle))
        }
      }
      guard let polygon = try? PolygonRegion.make(vertices: vertices) else { continue }
      // Through a point near an edge or on a vertex, any heading.
      let i = Int.random(in: 0..<vertices.count, using: &rng)
      let p = vertices[i], q = vertices[(i + 1) % vertices.count]
      let along = seed % 7 == 0 ? 0 : Double.random(in: 0...1, using: &rng)
      let offset = seed % 7 == 0 ? 0 : Double.random(in: -0.02...0.02, using: &rng) / 128
      let m = Coordinate(
        latitude: p.latitude + (q.latitude - p.latitude) * along + offset,
        longitude: p.longitude + (q.longitude - p.longitude) * along - offset)
      let heading = Double.random(in: 0..<(2 * .pi), using: &rng)
      let length = Double.random(in: 0...1.5, using: &rng) / 128
      let split = Double.random(in: 0...1, using: &rng)
      let a = Coordinate(
        latitude: m.latitude - cos(heading) * length * split, longitude: m.longitude - sin(heading) * length * split)
      let b = Coordinate(
        latitude: m.latitude + cos(heading) * length * (1 - split),
        longitude: m.longitude + sin(heading) * length * (1 - split))
      let duration = Int64.random(in: 1...3_000, using: &rng)
      let start = fix(1_000, a), end = fix(1_000 + duration, b)
      let insideAtStart = polygon.contains(a)
      let crossings = computedCrossings(polygon, start, end)
      let expected = sampledCrossings(polygon, start, end)
      #expect(crossings == expected, "seed \(seed): got \(crossings), sampling gives \(expected)")
      for (index, crossing) in crossings.enumerated() {
        #expect(crossing.entering == (index % 2 == 0 ? !insideAtStart : insideAtStart), "seed \(seed)")
      }
      if !expected.isEmpty { withCrossings += 1 }
    }
    #expect(withCrossings > seeds.count / 4, "only \(withCrossings) segments cross")
  }

  // MARK: - The chord rule's error

  @Test func theChordIsWithinAFractionOfAMillimetreOfTheGeodesicFor100MetreSegments() {
    // The figures ChordPath's documentation states: 0.23 mm at 45°, 0.39 mm at 60°.
    for (latitude, stated) in [(45.0, 0.23e-3), (60.0, 0.39e-3)] {
      var worst = 0.0
      let a = fix(0, Coordinate(latitude: latitude, longitude: 10))
      for heading in stride(from: 0.0, to: 360, by: 5) {
        let b = fix(50_000, Geodesic.destination(from: a.coordinate, azimuth: heading, distance: 100))
        let geodesic = DevicePath(from: a, to: b), chord = ChordPath(from: a, to: b)
        for t in stride(from: Int64(1_000), to: 50_000, by: 1_000) {
          worst = max(worst, Geodesic.distance(geodesic.position(at: at(t)), chord.position(at: at(t))))
        }
      }
      #expect(worst < stated * 1.05, "latitude \(latitude): \(worst) m")
      #expect(worst > stated * 0.9, "latitude \(latitude): \(worst) m is well below the stated figure")
    }
  }
}
