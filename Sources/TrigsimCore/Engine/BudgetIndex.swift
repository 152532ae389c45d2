import Foundation
import HeapModule

/// Which items (regions, or the device's region monitors) a path segment
/// can affect, without looking at the others: the index behind
/// `PathGeometry` and `RegionMonitoringService`, so that a fix costs the
/// same with 4 regions or 5,000.
///
/// Each item has a clearance c measured at a position P (a lower bound on
/// the distance from P to what the item cares about: a boundary, offset
/// circles). While the device cannot have gone c from P, nothing changed
/// for the item. Two bounds say so, and an item is *due* only when both are
/// spent:
/// - **path**: the length of the path walked since P (the sum of the
///   per-segment `Geodesic.lengthUpperBound`s, `cumulative`) is below c.
///   Tight when the device travels, useless at a stop, where GPS jitter
///   walks kilometres an hour.
/// - **reach**: an anchor G (a position on the path) and `reach`, an upper
///   bound on the geodesic distance from G to every point of the path since
///   G was set (a segment a→b widens it to U(G, a) + U(a, b): a point of the
///   segment is within dist(a, b) of a). The device is then within
///   U(G, P) + reach of P, by the triangle inequality through G. Tight at a
///   stop, weaker when travelling (it counts the distance from G twice), so
///   the anchor moves to the device whenever the reach passes
///   `anchorRadius`, and when the device settles: a local anchor follows
///   it, and once the device has stayed within `settleRadius` of it for
///   `settleSegments` segments while G is farther, G moves there (its reach
///   being the local one). Each move recomputes every item's reach
///   threshold: a few times per stop and per kilometre, never per fix.
///
/// The budget is the larger of the two bounds' remainders. Each bound keeps
/// a min-heap of its thresholds (path: cumulative length at which it is
/// spent; reach: c − U(G, P)); an item popped from both is due, and stays
/// due until it is measured again. Ties are broken by item index, and due
/// items are returned in index order, so callers keep scenario order.
struct BudgetIndex {
  /// Metres of reach after which the anchor moves to the device. Large: on
  /// the move the path bound does the work, and at a stop the reach stays
  /// within the GPS jitter whatever the radius; moving the anchor costs a
  /// pass over every item.
  static let anchorRadius = 1000.0
  /// A device that stays this close to one place for `settleSegments` segments has settled there.
  static let settleRadius = 50.0
  static let settleSegments = 30

  private(set) var cumulative = 0.0
  private(set) var reach = 0.0
  private var anchor = Coordinate(latitude: 0, longitude: 0)
  private var anchorCosine = 1.0
  /// Where the device may be settling, the reach from there, and for how many segments.
  private var localAnchor = Coordinate(latitude: 0, longitude: 0)
  private var localCosine = 1.0
  private var localReach = 0.0
  private var localSegments = 0
  private var measuredFrom: [Coordinate]
  private var clearance: [Double]
  private var pathThreshold: [Double]
  /// Whether each item takes part (a polygon has no monitor, say).
  private let active: [Bool]
  private var serial: [Int]
  private var nextSerial = 0
  private var pathHeap = Heap<Entry>()
  private var reachHeap = Heap<Entry>()
  private var pathSpent: [Bool]
  private var reachSpent: [Bool]
  private var pathSpentCount = 0
  private var reachSpentCount = 0

  private struct Entry: Comparable {
    var threshold: Double
    var item: Int
    var serial: Int
    static func < (a: Self, b: Self) -> Bool { (a.threshold, a.item) < (b.threshold, b.item) }
  }

  /// An index over `active.count` items; inactive ones are never due.
  init(active: [Bool]) {
    self.active = active
    let count = active.count
    measuredFrom = Array(repeating: Coordinate(latitude: 0, longitude: 0), count: count)
    clearance = Array(repeating: 0, count: count)
    pathThreshold = Array(repeating: 0, count: count)
    serial = Array(repeating: -1, count: count)
    pathSpent = Array(repeating: false, count: count)
    reachSpent = Array(repeating: false, count: count)
  }

  /// Every active item was measured at `position` (the first fix, after a
  /// gap): the anchor moves there and both heaps are built anew.
  mutating func measuredAll(at position: Coordinate, clearance value: (Int) -> Double) {
    for item in active.indices where active[item] {
      measuredFrom[item] = position
      clearance[item] = value(item)
      pathThreshold[item] = cumulative + clearance[item]
    }
    localAnchor = position
    localCosine = Self.cosineBound(position.latitude)
    localReach = 0
    localSegments = 0
    moveAnchor(to: position, reach: 0, rebuildPath: true)
  }

  /// One item was measured at `position`: its bounds start again from there.
  mutating func measured(_ item: Int, clearance value: Double, at position: Coordinate) {
    measuredFrom[item] = position
    clearance[item] = value
    pathThreshold[item] = cumulative + value
    if pathSpent[item] { pathSpent[item] = false; pathSpentCount -= 1 }
    if reachSpent[item] { reachSpent[item] = false; reachSpentCount -= 1 }
    serial[item] = nextSerial
    nextSerial += 1
    pathHeap.insert(Entry(threshold: pathThreshold[item], item: item, serial: serial[item]))
    reachHeap.insert(Entry(threshold: reachThreshold(item), item: item, serial: serial[item]))
    if pathHeap.count > 2 * active.count + 64 || reachHeap.count > 2 * active.count + 64 { rebuildHeaps() }
  }

  /// The device moved from `a` along a segment at most `length` long:
  /// appends to `due` (sorted, after `due`'s existing items) every item both
  /// of whose bounds this spends.
  mutating func advance(from a: Coordinate, length: Double, into due: inout [Int]) {
    cumulative += length
    reach = max(reach, Geodesic.lengthUpperBound(anchor, a, cosLatitudeA: anchorCosine) + length)
    localReach = max(localReach, Geodesic.lengthUpperBound(localAnchor, a, cosLatitudeA: localCosine) + length)
    if localReach > Self.settleRadius {
      // Moving on: the local anchor starts again where this segment started.
      localAnchor = a
      localCosine = Self.cosineBound(a.latitude)
      localReach = length
      localSegments = 0
    } else {
      localSegments += 1
      if localSegments == Self.settleSegments && reach > 2 * Self.settleRadius {
        moveAnchor(to: localAnchor, reach: localReach, rebuildPath: false)
      }
    }
    let first = due.count
    while let top = pathHeap.min, top.threshold <= cumulative {
      let entry = pathHeap.removeMin()
      guard entry.serial == serial[entry.item], !pathSpent[entry.item] else { continue }
      pathSpent[entry.item] = true
      pathSpentCount += 1
      if reachSpent[entry.item] { due.append(entry.item) }
    }
    while let top = reachHeap.min, top.threshold <= reach {
      let entry = reachHeap.removeMin()
      guard entry.serial == serial[entry.item], !reachSpent[entry.item] else { continue }
      reachSpent[entry.item] = true
      reachSpentCount += 1
      if pathSpent[entry.item] { due.append(entry.item) }
    }
    if due.count - first > 1 { due[first...].sort() }
  }

  /// Moves the anchor to `position` when the reach has passed `anchorRadius`
  /// (call after the segment's items were measured).
  mutating func moveAnchorIfFar(to position: Coordinate) {
    if reach > Self.anchorRadius { moveAnchor(to: position, reach: 0, rebuildPath: false) }
  }

  /// Whether both of the item's bounds are spent (it must be measured).
  func isDue(_ item: Int) -> Bool { pathSpent[item] && reachSpent[item] }

  /// A lower bound on the item's distance from the device now.
  func budget(_ item: Int) -> Double { max(pathThreshold[item] - cumulative, reachThreshold(item) - reach) }

  /// A lower bound on every active item's budget: for each item, the larger
  /// of its two remainders is at least the larger of the two smallest ones.
  mutating func smallestBudget() -> Double {
    while let top = pathHeap.min, top.serial != serial[top.item] { pathHeap.removeMin() }
    while let top = reachHeap.min, top.serial != serial[top.item] { reachHeap.removeMin() }
    let path = pathSpentCount > 0 ? -Double.infinity : pathHeap.min.map { $0.threshold - cumulative } ?? .infinity
    let reachBudget = reachSpentCount > 0 ? -Double.infinity : reachHeap.min.map { $0.threshold - reach } ?? .infinity
    return max(path, reachBudget)
  }

  // MARK: - Internals

  private func reachThreshold(_ item: Int) -> Double {
    clearance[item] - Geodesic.lengthUpperBound(anchor, measuredFrom[item], cosLatitudeA: anchorCosine)
  }

  /// A value ≥ cos(latitude) (as `CosineUpperBound`).
  private static func cosineBound(_ latitude: Double) -> Double {
    min(1, cos(max(0, abs(latitude) - 0.01) * .pi / 180) * (1 + 1e-12))
  }

  /// The anchor moves to `position`, whose reach (a bound on the distance
  /// to every later point of the path so far) is `newReach`: every reach
  /// threshold anew, and no item's reach bound spent. Sound for any
  /// position: the bound only needs dist(G, X) ≤ reach for the points X to come.
  private mutating func moveAnchor(to position: Coordinate, reach newReach: Double, rebuildPath: Bool) {
    anchor = position
    anchorCosine = Self.cosineBound(position.latitude)
    reach = newReach
    if rebuildPath {
      for item in active.indices where pathSpent[item] { pathSpent[item] = false }
      pathSpentCount = 0
    }
    for item in active.indices where reachSpent[item] { reachSpent[item] = false }
    reachSpentCount = 0
    rebuildHeaps()
  }

  /// Both heaps from the items' thresholds, with fresh serials; a spent bound stays out of its heap.
  private mutating func rebuildHeaps() {
    var path: [Entry] = [], reachEntries: [Entry] = []
    path.reserveCapacity(active.count)
    reachEntries.reserveCapacity(active.count)
    for item in active.indices where active[item] {
      serial[item] = nextSerial
      nextSerial += 1
      if !pathSpent[item] { path.append(Entry(threshold: pathThreshold[item], item: item, serial: serial[item])) }
      if !reachSpent[item] { reachEntries.append(Entry(threshold: reachThreshold(item), item: item, serial: serial[item])) }
    }
    pathHeap = Heap(path)
    reachHeap = Heap(reachEntries)
  }
}
