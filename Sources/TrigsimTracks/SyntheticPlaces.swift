import Foundation
import TrigsimCore

/// A seeded, deterministic set of candidate places (pharmacies in a town),
/// for fixtures and benchmarks: `count` places spread uniformly in latitude
/// and longitude over a box `width` × `height` metres around `center`, named
/// `p0001`, `p0002`, … in the order they are drawn.
///
/// Randomness comes only from `seed` (`TrialRandom`, SplitMix64): the same
/// arguments always give the same places, byte for byte in `csv`.
/// `fixtures/places/city-pharmacies.csv` is
/// `SyntheticPlaces(center: [55.6761, 12.5683], width: 8000, height: 8000, count: 500, seed: 12).csv`
/// (a test regenerates it and compares).
public struct SyntheticPlaces: Sendable {
  public var center: Coordinate
  public var width: Double
  public var height: Double
  public var count: Int
  public var seed: UInt64

  public init(center: Coordinate, width: Double, height: Double, count: Int, seed: UInt64) {
    self.center = center
    self.width = width
    self.height = height
    self.count = count
    self.seed = seed
  }

  /// The places, in the order drawn; coordinates rounded to 6 decimals (about 0.1 m), as `csv` writes them.
  public var places: [Place] {
    var random = TrialRandom(seed: seed)
    let metresPerDegree = Geodesic.smallestMeridionalRadius * Double.pi / 180
    let latitudeSpan = height / metresPerDegree
    let longitudeSpan = width / (metresPerDegree * cos(center.latitude * .pi / 180))
    let digits = max(4, String(count).count)
    return (1...max(count, 1)).prefix(count).map { index in
      let latitude = center.latitude + (random.nextUnit() - 0.5) * latitudeSpan
      let longitude = center.longitude + (random.nextUnit() - 0.5) * longitudeSpan
      let number = String(index)
      let id = "p" + String(repeating: "0", count: max(0, digits - number.count)) + number
      return Place(
        id: PlaceID(id), center: Coordinate(latitude: Self.rounded(latitude), longitude: Self.rounded(longitude)), radius: 100)
    }
  }

  /// `id,latitude,longitude` and one row per place (no radius column: the scenario gives it).
  public var csv: String {
    var text = "id,latitude,longitude\n"
    for place in places {
      text += "\(place.id),\(String(format: "%.6f", place.center.latitude)),\(String(format: "%.6f", place.center.longitude))\n"
    }
    return text
  }

  private static func rounded(_ value: Double) -> Double { Double(String(format: "%.6f", value))! }
}
