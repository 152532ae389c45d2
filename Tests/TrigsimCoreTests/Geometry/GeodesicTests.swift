import Foundation
import Testing
import TrigsimTestSupport

@testable import TrigsimCore

/// One geodesic solved by GeographicLib: from (lat1, lon1) to (lat2, lon2),
/// length s12 metres, azimuth azi1 at the start and azi2 at the end.
private struct Reference: CustomStringConvertible {
  var lat1, lon1, lat2, lon2, s12, azi1, azi2: Double
  init(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double, _ s12: Double, _ azi1: Double, _ azi2: Double) {
    (self.lat1, self.lon1, self.lat2, self.lon2, self.s12, self.azi1, self.azi2) = (lat1, lon1, lat2, lon2, s12, azi1, azi2)
  }
  var start: Coordinate { Coordinate(latitude: lat1, longitude: lon1) }
  var end: Coordinate { Coordinate(latitude: lat2, longitude: lon2) }
  var description: String { "[\(lat1), \(lon1)] → [\(lat2), \(lon2)] s=\(s12)" }
}

/// Computed with GeographicLib (Python package geographiclib, version 2.1):
/// each row is `Geodesic.WGS84.Direct(lat1, lon1, azimuth, distance)` for a
/// chosen start, azimuth and distance, then `Geodesic.WGS84.Inverse` between
/// the start and the point reached (s12, azi1, azi2). Cases: 1 m, 10 m and
/// 100 m at latitudes 0, 45, 60 and 80; 10 km; 100 km; 1000 km; across the
/// antimeridian; over and near both poles; 1° of the equator; 5000 and
/// 10,000 km; 3 m just south of the equator.
private let references: [Reference] = [
  Reference(0, 0, 7.832069415328781e-06, 4.491576420597635e-06, 0.9999999999998236, 30.000000000005844, 30.00000000000615),
  Reference(0, 0, 0.0, 8.983152841195216e-05, 10.000000000000002, 90.0, 90.0),
  Reference(0, 0, 0.0009043694770496278, 0.0, 100.00000000000037, 0.0, 0.0),
  Reference(45, 7, 45.00000636277721, 7.000008968107066, 0.9999999989753062, 45.00000001227366, 45.00000635368333),
  Reference(45, 7, 44.999936372188685, 7.000089680961544, 9.999999999636714, 134.9999999961582, 135.00006341013903),
  Reference(45, 7, 44.999999992957775, 6.998731718275405, 100.00000000003476, -89.99999999992238, -90.00089681053026),
  Reference(60, -20, 60.00000883931003, -19.999996888024747, 0.9999999997086682, 10.000000005266637, 10.000002700316381),
  Reference(60, -20, 59.99991565627036, -20.000061293774746, 9.999999999584059, -160.00000000130498, -160.00005308324845),
  Reference(60, -20, 59.99999998784344, -19.9982078853556, 99.99999999990197, 90.00000000067381, 90.00155201748228),
  Reference(80, 100, 80.00000447787869, 99.99995534450028, 0.9999999997578247, -59.99999999952311, -60.000043976605745),
  Reference(80, 100, 79.99999999960313, 100.00051563706717, 10.000000000137517, 89.99999999900507, 90.00050780238655),
  Reference(80, 100, 79.99911802826361, 100.00089531622558, 99.9999999990133, 169.99999999989984, 170.0008817130636),
  Reference(-33.9, 151.2, -33.85488698848187, 151.2935822997653, 9999.999999998347, 60.00000000000037, 59.94783550126969),
  Reference(55.6761, 12.5683, 55.62710900377769, 12.701438908824144, 9999.999999999858, 122.99999999999844, 123.1099224395516),
  Reference(80, -45, 80.06312699361902, -44.63309483288925, 10000.000000000251, 44.99999999999726, 45.361366188547095),
  Reference(40.7, -74.0, 40.3866805491968, -75.10671310107828, 99999.99999999987, -109.99999999999972, -110.71940469560532),
  Reference(60, 25, 59.98784590579045, 26.791676538332176, 100000.00000000055, 89.99999999999977, 91.55157405341461),
  Reference(-12, 45, -10.291454724732834, 53.990433803497666, 1000000.0, 80.00000000000001, 78.25844627209902),
  Reference(35, 139, 43.85213299306919, 141.15132360931702, 999999.9999999999, 9.999999999999991, 11.370460541519835),
  Reference(10, 179.99, 9.999996876040024, -179.9643959415429, 5000.000000000283, 89.9999999999973, 90.00791906082635),
  Reference(-60, -179.995, -59.99999513737636, 179.96915771060978, 2000.0000000002212, -89.99999999996751, -89.96895966733277),
  Reference(89.99, 0, 89.96523482980312, 180.0, 4999.999999999359, 0.0, 180.0),
  Reference(-89.9, 45, -89.92093931785533, -135.0, 19999.99999999943, -180.0, -0.0),
  Reference(89.5, 30, 89.32889103191405, 71.83914153745692, 49999.99999999975, 89.99999999999969, 131.83718826533234),
  Reference(0, 0, 0.0, 1.0000000000000002, 111319.4907932736, 90.0, 90.0),
  Reference(-45, 10, 45.270944345775895, 10.0, 10000000.0, 0.0, 0.0),
  Reference(20, -60, 45.43145491604291, -14.742460627701178, 4999999.999999999, 45.0, 71.01608114127913),
  Reference(-0.5, 0.3, -0.5000271269313712, 0.300000470350695, 3.000000000017771, 178.99999999994776, 178.9999999958431),
]

/// Nearly antipodal pairs where Vincenty's iteration does not converge, with
/// GeographicLib's (version 2.1) distances.
private let antipodal: [(Coordinate, Coordinate, Double)] = [
  (Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0.5, longitude: 179.7), 19944127.420750458),
  (Coordinate(latitude: 10, longitude: 20), Coordinate(latitude: -10.2, longitude: -160.1), 19981121.597810656),
]

/// The difference between two azimuths in degrees, in [0, 180].
private func angleDifference(_ x: Double, _ y: Double) -> Double {
  let d = abs((x - y).truncatingRemainder(dividingBy: 360))
  return min(d, 360 - d)
}

/// Metres between two nearby points, from a local flat approximation that
/// does not use `Geodesic` (good to a fraction of a percent at these ranges).
private func localMetres(_ p: Coordinate, _ q: Coordinate) -> Double {
  let dLat = (q.latitude - p.latitude) * 111_320
  var dLon = q.longitude - p.longitude
  if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
  let x = dLon * 111_320 * cos((p.latitude + q.latitude) / 2 * .pi / 180)
  return (x * x + dLat * dLat).squareRoot()
}

/// The tests of Sources/TrigsimCore/Geometry, under one name so that
/// `swift test --filter TrigsimCoreTests.GeometryTests` runs them all.
enum GeometryTests {}

extension GeometryTests {
  @Suite("Geodesic")
  struct GeodesicTests {
    @Test func inverseDistanceMatchesGeographicLibToATenthOfAMillimetre() {
      for r in references {
        let result = Geodesic.inverse(r.start, r.end)
        #expect(abs(result.distance - r.s12) < 1e-4, "\(r): got \(result.distance)")
        // The requirement: 1 mm at 10 km (and below).
        if r.s12 <= 10_000 { #expect(abs(result.distance - r.s12) < 1e-3, "\(r)") }
      }
    }

    @Test func inverseAzimuthsMatchGeographicLib() {
      for r in references {
        let result = Geodesic.inverse(r.start, r.end)
        // 1e-7° of azimuth moves the end of a 10 km line by 0.02 mm. Lines
        // starting within 1° of a pole get 1e-6°.
        let tolerance = abs(r.lat1) > 89 ? 1e-6 : 1e-7
        #expect(angleDifference(result.initialAzimuth, r.azi1) < tolerance, "\(r): azi1 \(result.initialAzimuth)")
        #expect(angleDifference(result.finalAzimuth, r.azi2) < tolerance, "\(r): azi2 \(result.finalAzimuth)")
      }
    }

    @Test func destinationMatchesGeographicLibToATenthOfAMillimetre() {
      for r in references {
        let reached = Geodesic.destination(from: r.start, azimuth: r.azi1, distance: r.s12)
        let error = localMetres(reached, r.end)
        #expect(error < 1e-4, "\(r): reached \(reached), off by \(error) m")
      }
    }

    @Test func coincidentPointsAreZeroApartWithZeroAzimuths() {
      let p = Coordinate(latitude: 55.6761, longitude: 12.5683)
      let result = Geodesic.inverse(p, p)
      #expect(result.distance == 0)
      #expect(result.initialAzimuth == 0)
      #expect(result.finalAzimuth == 0)
      #expect(Geodesic.destination(from: p, azimuth: 37, distance: 0) == p)
    }

    @Test func longitudesOfDestinationsAreNormalisedAcrossTheAntimeridian() {
      let start = Coordinate(latitude: 10, longitude: 179.99)
      let reached = Geodesic.destination(from: start, azimuth: 90, distance: 5000)
      #expect(reached.longitude < -179.9 && reached.longitude > -180, "\(reached)")
    }

    @Test func nearlyAntipodalPointsFallBackToTheSphereWithinHalfAPercent() {
      for (p, q, expected) in antipodal {
        #expect(Geodesic.vincentyInverse(p, q) == nil, "\(p) \(q) should not converge")
        let distance = Geodesic.distance(p, q)
        #expect(abs(distance - expected) / expected < 0.005, "\(p) \(q): \(distance) vs \(expected)")
      }
    }

    @Test func vincentyConvergesForEveryPairLessThan19000KilometresApart() {
      for seed in UInt64(0)..<2000 {
        var rng = SplitMix64(seed: seed)
        let p = Coordinate(latitude: .random(in: -90...90, using: &rng), longitude: .random(in: -180...180, using: &rng))
        let q = Coordinate(latitude: .random(in: -90...90, using: &rng), longitude: .random(in: -180...180, using: &rng))
        let spherical = Geodesic.sphericalInverse(p, q).distance
        if spherical < 19_000_000 {
          #expect(Geodesic.vincentyInverse(p, q) != nil, "seed \(seed): \(p) \(q) \(spherical) m apart")
        }
      }
    }

    @Test func destinationThenInverseGivesBackTheDistanceAndAzimuth() {
      for seed in UInt64(0)..<500 {
        var rng = SplitMix64(seed: seed)
        let start = Coordinate(latitude: .random(in: -89...89, using: &rng), longitude: .random(in: -180...180, using: &rng))
        let azimuth = Double.random(in: -180...180, using: &rng)
        let distance = [1.0, 100, 10_000, 1_000_000][Int(seed % 4)] * .random(in: 0.1...1, using: &rng)
        let end = Geodesic.destination(from: start, azimuth: azimuth, distance: distance)
        let back = Geodesic.inverse(start, end)
        #expect(abs(back.distance - distance) < 1e-6, "seed \(seed): \(back.distance) vs \(distance)")
        #expect(angleDifference(back.initialAzimuth, azimuth) < 1e-6, "seed \(seed): \(back.initialAzimuth) vs \(azimuth)")
      }
    }

    // MARK: - DistanceBounds

    @Test func distanceBoundsBracketTheGeodesicDistanceEverywhere() {
      for seed in UInt64(0)..<1000 {
        var rng = SplitMix64(seed: seed)
        let center = Coordinate(latitude: .random(in: -90...90, using: &rng), longitude: .random(in: -180...180, using: &rng))
        let reach = [10_000.0, 1_000, 400_000][Int(seed % 3)]
        let bounds = Geodesic.DistanceBounds(center: center, reach: reach)
        // Mostly near the centre, some anywhere on Earth.
        let scale = [10.0, 1_000, 20_000, 1_000_000, 20_000_000][Int(seed / 3 % 5)]
        let p = Geodesic.destination(
          from: center, azimuth: .random(in: -180...180, using: &rng), distance: .random(in: 0...scale, using: &rng))
        let q = Geodesic.destination(
          from: p, azimuth: .random(in: -180...180, using: &rng), distance: .random(in: 0...scale, using: &rng))
        let exact = Geodesic.distance(center, p)
        #expect(bounds.lowerBound(p) <= exact + 1e-6, "seed \(seed): lower \(bounds.lowerBound(p)) > \(exact)")
        #expect(bounds.upperBound(p) >= exact - 1e-6, "seed \(seed): upper \(bounds.upperBound(p)) < \(exact)")
        let segment = Geodesic.distance(p, q)
        #expect(bounds.segmentUpperBound(p, q) >= segment - 1e-6, "seed \(seed): segment \(segment)")
      }
    }

    @Test func distanceBoundsAreWithinTheirStatedRelativeWidth() {
      // κ − 1 for a 10 km reach, as the doc comment states.
      let stated: [(latitude: Double, width: Double)] = [(0, 2e-6), (45, 0.0032), (60, 0.0055), (80, 0.0181)]
      for (latitude, width) in stated {
        let bounds = Geodesic.DistanceBounds(center: Coordinate(latitude: latitude, longitude: 12), reach: 10_000)
        #expect(bounds.relativeWidth - 1 <= width, "latitude \(latitude): κ = \(bounds.relativeWidth)")
        #expect(bounds.relativeWidth - 1 > width / 2, "latitude \(latitude): κ = \(bounds.relativeWidth) is far below the stated figure")
      }
      for seed in UInt64(0)..<500 {
        var rng = SplitMix64(seed: seed)
        let center = Coordinate(latitude: .random(in: -85...85, using: &rng), longitude: .random(in: -180...180, using: &rng))
        let bounds = Geodesic.DistanceBounds(center: center, reach: 10_000)
        let p = Geodesic.destination(
          from: center, azimuth: .random(in: -180...180, using: &rng), distance: .random(in: 1...9_000, using: &rng))
        let lower = bounds.lowerBound(p), upper = bounds.upperBound(p)
        #expect(upper <= bounds.relativeWidth * lower * (1 + 1e-12), "seed \(seed): [\(lower), \(upper)]")
      }
    }
  }
}
