import Foundation
import Testing
import TrigsimTestSupport

@testable import TrigsimCore

/// The nearest-N query: nearest first by geodesic distance to the centre,
/// ties by place id, and the grid index always gives the brute-force answer.
@Suite struct NearestPlacesTests {
  static let seeds: [UInt64] = Array(0..<200)

  @Test func nearestFirstAndTiesByPlaceID() {
    let origin = Coordinate(latitude: 48.0, longitude: 2.0)
    // b and a at the same distance (east and west on the same parallel are not equal on the
    // ellipsoid in general, so the tie is made exact: the same centre), c nearer, d farther.
    let same = Geodesic.destination(from: origin, azimuth: 90, distance: 400)
    let places = [
      Place(id: "d", center: Geodesic.destination(from: origin, azimuth: 0, distance: 900), radius: 100),
      Place(id: "b", center: same, radius: 100),
      Place(id: "a", center: same, radius: 100),
      Place(id: "c", center: Geodesic.destination(from: origin, azimuth: 200, distance: 250), radius: 100),
    ]
    for usesIndex in [true, false] {
      var index = NearestPlaces(places: places)
      index.usesIndex = usesIndex
      #expect(index.nearest(3, to: origin).map { places[$0.place].id } == ["c", "a", "b"], "index \(usesIndex)")
      #expect(index.nearest(10, to: origin).count == 4)
      #expect(index.nearest(0, to: origin).isEmpty)
    }
  }

  /// Random towns (a few to a thousand places, clustered or spread, near the
  /// poles and the antimeridian too), random positions inside and far
  /// outside them, random N and cell sizes: the grid's answer is the brute
  /// force's, place for place and distance for distance.
  @Test(arguments: seeds)
  func theGridIndexAgreesWithBruteForce(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    let latitudeRange: ClosedRange<Double> = seed % 10 == 0 ? 80...89.5 : -70...70
    let centre = Coordinate(
      latitude: Double.random(in: latitudeRange, using: &random),
      longitude: seed % 7 == 0 ? 179.9 * (seed % 2 == 0 ? 1 : -1) : Double.random(in: -179...179, using: &random))
    let spread = Double.random(in: 100...20_000, using: &random)
    let count = Int.random(in: 1...1000, using: &random)
    let places = (0..<count).map { index in
      var center = Geodesic.destination(from: centre, azimuth: Double.random(in: 0..<360, using: &random), distance: Double.random(in: 0...spread, using: &random))
      // Some places share a centre, so ties by id are exercised.
      if index % 17 == 3 { center = centre }
      return Place(id: PlaceID(String(format: "q%04d", (index * 7919) % 10_000)), center: center, radius: 100)
    }
    let cell: Double? = seed % 3 == 0 ? Double.random(in: 20...5000, using: &random) : nil
    let grid = NearestPlaces(places: places, cellMetres: cell)
    var brute = grid
    brute.usesIndex = false
    for _ in 0..<8 {
      let far = Bool.random(using: &random)
      let position = Geodesic.destination(
        from: centre, azimuth: Double.random(in: 0..<360, using: &random),
        distance: Double.random(in: 0...(far ? 200_000 : spread), using: &random))
      let n = Int.random(in: 1...30, using: &random)
      let fromGrid = grid.nearest(n, to: position)
      let fromBrute = brute.nearest(n, to: position)
      #expect(fromGrid.map(\.place) == fromBrute.map(\.place), "seed \(seed) position \(position) n \(n)")
      #expect(fromGrid.map(\.distance) == fromBrute.map(\.distance), "seed \(seed)")
    }
  }
}
