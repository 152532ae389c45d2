import Foundation
import Testing
import TrigsimTestSupport

@testable import TrigsimCore

/// `BudgetIndex`: an item is due only once both the path walked and the
/// distance from the anchor can have taken the device its clearance away.
@Suite struct BudgetIndexTests {
  static let origin = Coordinate(latitude: 55.0, longitude: 12.0)

  static func at(_ north: Double, _ east: Double) -> Coordinate {
    Geodesic.destination(from: Geodesic.destination(from: origin, azimuth: 0, distance: north), azimuth: 90, distance: east)
  }

  /// Walks `points` from `start`, segment by segment; returns the items that came due at each.
  static func walk(_ index: inout BudgetIndex, from start: Coordinate, through points: [Coordinate]) -> [[Int]] {
    var previous = start
    var cosine = CosineUpperBound()
    return points.map { point in
      var due: [Int] = []
      let length = Geodesic.lengthUpperBound(previous, point, cosLatitudeA: cosine.value(atLatitude: previous.latitude))
      index.advance(from: previous, length: length, into: &due)
      previous = point
      return due
    }
  }

  /// Jitter at a stop walks kilometres of path but never leaves a 10 m
  /// square: an item 60 m away never comes due, however long it lasts.
  @Test func jitterAtAStopSpendsNoBudget() {
    var index = BudgetIndex(active: [true])
    index.measuredAll(at: Self.origin) { _ in 60 }
    var random = SplitMix64(seed: 3)
    let jitter = (0..<5000).map { _ in Self.at(Double.random(in: -5...5, using: &random), Double.random(in: -5...5, using: &random)) }
    let due = Self.walk(&index, from: Self.origin, through: jitter)
    #expect(due.allSatisfy { $0.isEmpty })
    #expect(index.cumulative > 5000)  // the path bound alone would have spent it long ago
  }

  /// Walking straight away, the item comes due once the path (and the
  /// distance) reach its clearance, and not before: at 60 m, not at 50 m.
  @Test func walkingAwayComesDueAtTheClearance() {
    var index = BudgetIndex(active: [true, true, false])
    index.measuredAll(at: Self.origin) { [55.0, 200.0, 0.0][$0] }
    let steps = (1...80).map { Self.at(Double($0), 0) }
    let due = Self.walk(&index, from: Self.origin, through: steps)
    let first = due.firstIndex { !$0.isEmpty }
    // Item 0 (55 m) comes due at the first step whose path bound reaches 55 m; items 1 and 2 never.
    #expect(first.map { $0 + 1 }.map { (55...57).contains($0) } == true, "\(String(describing: first))")
    #expect(due.flatMap { $0 } == [0])
    #expect(index.isDue(0) && !index.isDue(1) && !index.isDue(2))
    // Measured again where it is, it is no longer due.
    index.measured(0, clearance: 30, at: Self.at(80, 0))
    #expect(!index.isDue(0))
    #expect(index.budget(0) == 30)
  }

  /// The smallest budget bounds every item's: the larger of the two smallest remainders.
  @Test func theSmallestBudgetIsALowerBoundOfEveryBudget() {
    var index = BudgetIndex(active: [true, true, true])
    index.measuredAll(at: Self.origin) { [40.0, 90.0, 300.0][$0] }
    var random = SplitMix64(seed: 9)
    let points = (0..<200).map { _ in Self.at(Double.random(in: -3...3, using: &random), Double.random(in: -3...3, using: &random)) }
    _ = Self.walk(&index, from: Self.origin, through: points)
    let smallest = index.smallestBudget()
    #expect((0..<3).allSatisfy { index.budget($0) >= smallest })
    #expect(smallest > 0)  // the jitter stayed within 5 m of the origin: the reach bound keeps every budget
  }
}
