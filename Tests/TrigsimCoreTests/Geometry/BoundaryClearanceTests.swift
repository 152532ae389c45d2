import Foundation
import Testing
import TrigsimTestSupport

@testable import TrigsimCore

extension GeometryTests {
  /// The bounds the engine uses to skip regions far from the device.
  @Suite struct BoundaryClearanceTests {
    static let seeds: [UInt64] = Array(0..<400)

    static func randomCoordinate(_ random: inout SplitMix64, latitudes: ClosedRange<Double> = -89...89) -> Coordinate {
      Coordinate(latitude: Double.random(in: latitudes, using: &random), longitude: Double.random(in: -180...180, using: &random))
    }

    @Test(arguments: seeds)
    func pathLengthUpperBoundIsNeverShorterThanTheGeodesic(seed: UInt64) {
      var random = SplitMix64(seed: seed)
      let a = Self.randomCoordinate(&random)
      let scale = [1.0, 100, 10_000, 1_000_000][Int(seed % 4)]
      let b = Geodesic.destination(from: a, azimuth: Double.random(in: 0..<360, using: &random), distance: Double.random(in: 0...scale, using: &random))
      var cosine = CosineUpperBound()
      let bound = Geodesic.lengthUpperBound(a, b, cosLatitudeA: cosine.value(atLatitude: a.latitude))
      #expect(bound >= Geodesic.distance(a, b), "seed \(seed): \(a) → \(b)")
    }

    @Test func cosineUpperBoundIsAtLeastTheCosineAcrossItsBand() {
      var cosine = CosineUpperBound()
      var latitude = -89.999
      while latitude < 90 {
        #expect(cosine.value(atLatitude: latitude) >= cos(latitude * .pi / 180), "latitude \(latitude)")
        latitude += 0.0037
      }
    }

    @Test(arguments: seeds.prefix(200))
    func movingLessThanTheClearanceNeverChangesSideOfACircle(seed: UInt64) {
      var random = SplitMix64(seed: seed)
      let centre = Self.randomCoordinate(&random, latitudes: -80...80)
      let region = CircularRegion(center: centre, radius: Double.random(in: 20...500, using: &random))
      let point = Geodesic.destination(from: centre, azimuth: Double.random(in: 0..<360, using: &random), distance: Double.random(in: 0...1500, using: &random))
      let clearance = region.boundaryClearance(from: point)
      #expect(clearance >= 0)
      guard clearance > 0 else { return }
      for _ in 0..<20 {
        let moved = Geodesic.destination(from: point, azimuth: Double.random(in: 0..<360, using: &random), distance: clearance * Double.random(in: 0..<1, using: &random))
        #expect(region.contains(moved) == region.contains(point), "seed \(seed)")
      }
    }

    @Test func clearanceIsNearTheTrueDistanceToTheBoundary() {
      let region = CircularRegion(center: Coordinate(latitude: 55.6761, longitude: 12.5683), radius: 100)
      let far = Geodesic.destination(from: region.center, azimuth: 45, distance: 1100)
      let near = Geodesic.destination(from: region.center, azimuth: 45, distance: 30)
      #expect(abs(region.boundaryClearance(from: far) - 1000) < 10)
      #expect(abs(region.boundaryClearance(from: near) - 70) < 1)
      #expect(region.boundaryClearance(from: Geodesic.destination(from: region.center, azimuth: 45, distance: 100)) == 0)
    }
  }
}
