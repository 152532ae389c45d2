import Testing
import TrigsimCore

@testable import TrigsimReport

/// The local projection keeps distances of a city's scale, north up and east right.
@Suite struct LocalProjectionTests {
  @Test(arguments: [0.0, 55.68, 69.65])
  func aKilometreAnyWayIsAKilometreOnTheMapWithinATenthOfAPercent(latitude: Double) {
    let center = Coordinate(latitude: latitude, longitude: 12.57)
    let projection = LocalProjection(center: center)
    for azimuth in stride(from: 0.0, to: 360, by: 30) {
      let far = Geodesic.destination(from: center, azimuth: azimuth, distance: 1000)
      let point = projection.project(far)
      let length = (point.x * point.x + point.y * point.y).squareRoot()
      #expect(abs(length - 1000) < 1, "latitude \(latitude), azimuth \(azimuth): \(length) m")
    }
  }

  @Test func northIsUpAndEastIsRight() {
    let projection = LocalProjection(center: Coordinate(latitude: 55.68, longitude: 12.57))
    let north = projection.project(Coordinate(latitude: 55.69, longitude: 12.57))
    let east = projection.project(Coordinate(latitude: 55.68, longitude: 12.58))
    #expect(north.x == 0 && north.y > 1000)
    #expect(east.y == 0 && east.x > 600)
    // On the picture y grows downward: north is above the centre.
    let viewport = Viewport(minX: -1000, maxX: 1000, minY: -1000, maxY: 1000, width: 400, minHeight: 100, maxHeight: 800, margin: 0)
    #expect(viewport.pixel(north).y < viewport.pixel(PlanePoint(x: 0, y: 0)).y)
    #expect(viewport.height == 400)
    #expect(viewport.scale == 0.2)
  }

  @Test func pixelsHaveOneDecimalAndNoNegativeZero() {
    #expect(Markup.px(12) == "12")
    #expect(Markup.px(12.25) == "12.3")
    #expect(Markup.px(-0.04) == "0")
    #expect(Markup.px(-3.21) == "-3.2")
    #expect(Markup.px(.nan) == "0")
    #expect(Markup.px(.infinity) == "0")
    #expect(Markup.px(-1e300) == "-1000000000")
  }
}
