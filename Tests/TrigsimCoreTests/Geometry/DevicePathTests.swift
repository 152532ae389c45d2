import Testing
import TrigsimCore
import TrigsimTestSupport

private func sample(_ milliseconds: Int64, _ latitude: Double, _ longitude: Double, startsSegment: Bool = false)
  -> TrackSample
{
  TrackSample(
    instant: SimulationInstant(millisecondsSinceEpoch: milliseconds),
    coordinate: Coordinate(latitude: latitude, longitude: longitude), startsSegment: startsSegment)
}

private func at(_ milliseconds: Int64) -> SimulationInstant { SimulationInstant(millisecondsSinceEpoch: milliseconds) }

extension GeometryTests {
  @Suite("DevicePath")
  struct DevicePathTests {
    @Test func positionAtTheFixInstantsIsExactlyTheFix() {
      let a = sample(1_000, 55.6761, 12.5683), b = sample(6_000, 55.6790, 12.5710)
      let path = DevicePath(from: a, to: b)
      #expect(path.position(at: at(1_000)) == a.coordinate)
      #expect(path.position(at: at(6_000)) == b.coordinate)
      #expect(path.position(at: at(0)) == a.coordinate)
      #expect(path.position(at: at(9_000)) == b.coordinate)
    }

    @Test func positionMovesAtConstantSpeedAlongTheGeodesic() {
      for seed in UInt64(0)..<500 {
        var rng = SplitMix64(seed: seed)
        let a = sample(
          0, .random(in: -85...85, using: &rng), .random(in: -180...180, using: &rng))
        let end = Geodesic.destination(
          from: a.coordinate, azimuth: .random(in: -180...180, using: &rng),
          distance: .random(in: 1...50_000, using: &rng))
        let duration = Int64.random(in: 2...600_000, using: &rng)
        let b = TrackSample(instant: at(duration), coordinate: end)
        let path = DevicePath(from: a, to: b)
        let t = Int64.random(in: 1..<duration, using: &rng)
        let p = path.position(at: at(t))
        let fraction = Double(t) / Double(duration)
        let fromA = Geodesic.distance(a.coordinate, p), toB = Geodesic.distance(p, b.coordinate)
        #expect(abs(fromA - path.distance * fraction) < 1e-6, "seed \(seed): \(fromA) vs \(path.distance * fraction)")
        // On the geodesic: no detour.
        #expect(abs(fromA + toB - path.distance) < 1e-6, "seed \(seed): \(fromA) + \(toB) vs \(path.distance)")
      }
    }

    @Test func halfwayAcrossTheAntimeridianIsOnTheAntimeridian() {
      let a = sample(0, 10, 179.999), b = sample(2_000, 10, -179.999)
      let path = DevicePath(from: a, to: b)
      let middle = path.position(at: at(1_000))
      #expect(abs(abs(middle.longitude) - 180) < 1e-9, "\(middle)")
      #expect(path.distance < 250, "short way round: \(path.distance)")
    }

    @Test func fixesSharingAnInstantJumpToTheSecondFix() {
      let a = sample(5_000, 55.6761, 12.5683), b = sample(5_000, 55.70, 12.60)
      let path = DevicePath(from: a, to: b)
      #expect(path.position(at: at(5_000)) == b.coordinate)
      #expect(path.position(at: at(4_999)) == a.coordinate)
    }

    @Test func aStationaryDeviceStaysExactlyPut() {
      let a = sample(0, 55.6761, 12.5683), b = sample(10_000, 55.6761, 12.5683)
      let path = DevicePath(from: a, to: b)
      #expect(path.distance == 0)
      #expect(path.position(at: at(3_333)) == a.coordinate)
    }
  }
}
