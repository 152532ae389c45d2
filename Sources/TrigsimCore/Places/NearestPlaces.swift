import Foundation

/// The nearest places to a position: by geodesic distance from the position
/// to each place's centre (Vincenty, `Geodesic.distance`), ties by place id.
///
/// A grid index answers without measuring every place: cells of equal size
/// in latitude and longitude degrees (about `cellMetres` on a side at the
/// set's mean latitude), searched in square rings around the position's
/// cell. The search stops once the N-th nearest found so far is closer than
/// any point outside the rings searched can be: a point outside a latitude
/// band is at least `smallestMeridionalRadius` × the latitude difference
/// away, and one inside it but outside the longitude range at least the
/// band's smallest parallel radius × the longitude difference (or leaves
/// the band), less a 1 cm margin for the distance's rounding. So the answer
/// is the brute-force answer exactly (a property test checks it), at the
/// cost of the few cells near the position.
///
/// Why a grid of our own rather than GEOS's STRtree: the core does not link
/// GEOS (it must not depend on C), an STRtree answers one nearest item per
/// query (`GEOSSTRtree_nearest_generic_r`), not N, and its distances are
/// planar in degrees, so the exact geodesic order would still need this
/// ring bound; the benchmark's `--only places` table measures the grid
/// against brute force.
public struct NearestPlaces: Sendable {
  public let places: [Place]
  /// Off: every query measures every place (the reference for the tests and the benchmark).
  package var usesIndex = true
  private let cellLatitude: Double
  private let cellLongitude: Double
  /// Place indices per cell, keyed by (row, column); each list in place order.
  private let cells: [CellKey: [Int]]
  private let rows: ClosedRange<Int>
  private let columns: ClosedRange<Int>

  private struct CellKey: Hashable {
    var row: Int
    var column: Int
  }

  /// An index over `places` with cells about `cellMetres` on a side (by
  /// default sized so that a cell holds about two places).
  public init(places: [Place], cellMetres: Double? = nil) {
    self.places = places
    let latitudes = places.map(\.center.latitude)
    let longitudes = places.map(\.center.longitude)
    let meanLatitude = latitudes.isEmpty ? 0 : latitudes.reduce(0, +) / Double(latitudes.count)
    let metresPerDegree = Geodesic.smallestMeridionalRadius * Double.pi / 180
    let side: Double
    if let cellMetres {
      side = cellMetres
    } else {
      let height = ((latitudes.max() ?? 0) - (latitudes.min() ?? 0)) * metresPerDegree
      let width = ((longitudes.max() ?? 0) - (longitudes.min() ?? 0)) * metresPerDegree * cos(meanLatitude * .pi / 180)
      side = max(50, (max(height, 1) * max(width, 1) * 2 / Double(max(places.count, 1))).squareRoot())
    }
    cellLatitude = side / metresPerDegree
    cellLongitude = min(360, side / (metresPerDegree * max(cos(meanLatitude * .pi / 180), 0.01)))
    var cells: [CellKey: [Int]] = [:]
    var rowRange: ClosedRange<Int>?
    var columnRange: ClosedRange<Int>?
    for (index, place) in places.enumerated() {
      let key = CellKey(row: Self.cell(place.center.latitude, cellLatitude), column: Self.cell(place.center.longitude, cellLongitude))
      cells[key, default: []].append(index)
      rowRange = rowRange.map { min($0.lowerBound, key.row)...max($0.upperBound, key.row) } ?? key.row...key.row
      columnRange = columnRange.map { min($0.lowerBound, key.column)...max($0.upperBound, key.column) } ?? key.column...key.column
    }
    self.cells = cells
    rows = rowRange ?? 0...0
    columns = columnRange ?? 0...0
  }

  private static func cell(_ degrees: Double, _ size: Double) -> Int { Int((degrees / size).rounded(.down)) }

  /// The `count` places nearest `position`, nearest first (ties by place
  /// id), each with its distance in metres.
  public func nearest(_ count: Int, to position: Coordinate) -> [(place: Int, distance: Double)] {
    guard count > 0, !places.isEmpty else { return [] }
    var best: [(place: Int, distance: Double)] = []
    best.reserveCapacity(min(count, places.count) + 1)
    func consider(_ index: Int) {
      let distance = Geodesic.distance(position, places[index].center)
      if best.count == count, let last = best.last, !Self.precedes((index, distance), last, places) { return }
      // Insertion keeps `best` sorted; N is small (the platform's 20).
      var at = best.count
      while at > 0 && Self.precedes((index, distance), best[at - 1], places) { at -= 1 }
      best.insert((index, distance), at: at)
      if best.count > count { best.removeLast() }
    }
    guard usesIndex else {
      for index in places.indices { consider(index) }
      return best
    }
    let row = Self.cell(position.latitude, cellLatitude)
    let column = Self.cell(position.longitude, cellLongitude)
    var ring = 0
    while true {
      // The cells at Chebyshev distance `ring` from the position's cell, within the occupied range.
      let top = row + ring, bottom = row - ring, left = column - ring, right = column + ring
      if bottom <= rows.upperBound && top >= rows.lowerBound && left <= columns.upperBound && right >= columns.lowerBound {
        for r in max(bottom, rows.lowerBound)...min(top, rows.upperBound) {
          let edgeRow = r == top || r == bottom
          let step = edgeRow ? 1 : max(1, right - left)
          var c = left
          while c <= right {
            if c >= columns.lowerBound && c <= columns.upperBound, let list = cells[CellKey(row: r, column: c)] {
              for index in list { consider(index) }
            }
            c += step
          }
        }
      }
      let coversAll = bottom <= rows.lowerBound && top >= rows.upperBound && left <= columns.lowerBound && right >= columns.upperBound
      if coversAll { break }
      if best.count == count, let last = best.last,
        last.distance < outsideLowerBound(position, rowLow: bottom, rowHigh: top, columnLow: left, columnHigh: right) - 0.01
      {
        break
      }
      ring += 1
    }
    return best
  }

  /// Nearer first; at equal distances the smaller place id.
  private static func precedes(_ a: (Int, Double), _ b: (place: Int, distance: Double), _ places: [Place]) -> Bool {
    a.1 < b.distance || (a.1 == b.distance && places[a.0].id < places[b.place].id)
  }

  /// A lower bound on the geodesic distance from `position` to any point
  /// outside the block of cells `rowLow...rowHigh` × `columnLow...columnHigh`.
  private func outsideLowerBound(_ position: Coordinate, rowLow: Int, rowHigh: Int, columnLow: Int, columnHigh: Int) -> Double {
    let radians = Double.pi / 180
    let south = max(-90, Double(rowLow) * cellLatitude)
    let north = min(90, Double(rowHigh + 1) * cellLatitude)
    let west = max(-180, Double(columnLow) * cellLongitude)
    let east = min(180, Double(columnHigh + 1) * cellLongitude)
    let perLatitude = Geodesic.smallestMeridionalRadius * radians
    // Leaving the latitude band [south, north] costs at least the latitude difference.
    var bound = Double.infinity
    if south > -90 { bound = min(bound, (position.latitude - south) * perLatitude) }
    if north < 90 { bound = min(bound, (north - position.latitude) * perLatitude) }
    // Inside the band, a point outside the longitude range: the band's smallest parallel radius.
    if west > -180 || east < 180 {
      let largestLatitude = min(90, max(abs(south), abs(north)))
      let parallel = Geodesic.DistanceBounds.parallelRadius(largestLatitude) * radians
      var longitudeGap = Double.infinity
      if west > -180 { longitudeGap = min(longitudeGap, position.longitude - west) }
      if east < 180 { longitudeGap = min(longitudeGap, east - position.longitude) }
      // Across the antimeridian the range is clamped at ±180, so the gap to it is the wrapped way round.
      if west <= -180 { longitudeGap = min(longitudeGap, position.longitude + 180) }
      if east >= 180 { longitudeGap = min(longitudeGap, 180 - position.longitude) }
      bound = min(bound, max(0, longitudeGap) * parallel)
    }
    return max(0, bound)
  }
}
