import Foundation
import Testing
import TrigsimCore
import TrigsimTestSupport
import TrigsimTracks

/// `SyntheticPlaces`: seeded, deterministic, and the generator of the
/// committed pharmacies fixture.
@Suite struct SyntheticPlacesTests {
  static let city = SyntheticPlaces(
    center: Coordinate(latitude: 55.6761, longitude: 12.5683), width: 8000, height: 8000, count: 500, seed: 12)

  @Test func theCityPharmaciesFixtureIsTheGeneratorsOutput() throws {
    let fixture = try String(contentsOf: RepositoryPaths.fixtures.appendingPathComponent("places/city-pharmacies.csv"), encoding: .utf8)
    #expect(fixture == Self.city.csv)
  }

  @Test func placesAreInTheBoxWithDistinctIDsAndTheSameForTheSameSeed() {
    let places = Self.city.places
    #expect(places.count == 500)
    #expect(Set(places.map(\.id)).count == 500)
    #expect(places.first?.id == "p0001" && places.last?.id == "p0500")
    // 8 km × 8 km: within 4 km north-south and east-west of the centre (plus rounding).
    for place in places {
      #expect(abs(place.center.latitude - 55.6761) * 111_000 <= 4_010)
      #expect(abs(place.center.longitude - 12.5683) * 111_000 * cos(55.6761 * .pi / 180) <= 4_010)
    }
    #expect(Self.city.csv == SyntheticPlaces(center: Self.city.center, width: 8000, height: 8000, count: 500, seed: 12).csv)
    #expect(Self.city.csv != SyntheticPlaces(center: Self.city.center, width: 8000, height: 8000, count: 500, seed: 13).csv)
  }
}
