import Testing
import TrigsimCore
import TrigsimGEOS

@Suite struct PolygonClearanceTests {
  let square = try! PolygonRegion.make(vertices: [
    Coordinate(latitude: 55.680, longitude: 12.570), Coordinate(latitude: 55.681, longitude: 12.570),
    Coordinate(latitude: 55.681, longitude: 12.572), Coordinate(latitude: 55.680, longitude: 12.572),
  ])

  @Test func clearanceIsTheMeridianDistanceOutsideTheLatitudeBand() {
    // 0.01° of latitude is at least 1105.7 m (the equator's meridional radius), at most 1117 m at the pole.
    let south = square.boundaryClearance(from: Coordinate(latitude: 55.670, longitude: 12.571))
    #expect(south > 1105 && south < 1106)
    #expect(square.boundaryClearance(from: Coordinate(latitude: 55.6805, longitude: 13.0)) == 0)
  }

  @Test func pointsWithinTheClearanceStayOutside() {
    let point = Coordinate(latitude: 55.679, longitude: 12.571)
    let clearance = square.boundaryClearance(from: point)
    for azimuth in stride(from: 0.0, to: 360, by: 15) {
      let moved = Geodesic.destination(from: point, azimuth: azimuth, distance: clearance * 0.999)
      #expect(!square.contains(moved), "azimuth \(azimuth)")
    }
  }
}
