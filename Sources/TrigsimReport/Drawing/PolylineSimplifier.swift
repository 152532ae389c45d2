/// Douglas–Peucker simplification of a polyline on the plane (metres), with
/// a guarantee: every point left out lies within `tolerance` of the drawn
/// segment between the kept points around it. The first and last points are
/// always kept.
///
/// It streams: points arrive one at a time and are simplified in chunks of
/// at most `chunkSize` points (the last kept point of a chunk starts the
/// next), so memory and the worst-case cost (quadratic in a chunk) stay
/// bounded whatever the length of the track. A chunk boundary keeps one
/// point that a whole-line pass might have left out, so the result can be a
/// few points longer than the whole-line Douglas–Peucker; the guarantee is
/// the same.
struct PolylineSimplifier {
  let tolerance: Double
  let chunkSize: Int
  /// The kept points so far, in order.
  private(set) var kept: [PlanePoint] = []
  private var chunk: [PlanePoint] = []

  init(tolerance: Double, chunkSize: Int = 4096) {
    precondition(chunkSize >= 3, "a chunk needs room for two ends and a middle")
    self.tolerance = tolerance
    self.chunkSize = chunkSize
    chunk.reserveCapacity(chunkSize)
  }

  mutating func append(_ point: PlanePoint) {
    // A point on top of the previous one adds nothing to the drawing.
    if let last = chunk.last, last == point { return }
    chunk.append(point)
    if chunk.count == chunkSize { flushChunk(keepingLast: true) }
  }

  /// Ends the line: the rest is simplified and `kept` is final.
  mutating func finish() {
    flushChunk(keepingLast: false)
  }

  private mutating func flushChunk(keepingLast: Bool) {
    guard !chunk.isEmpty else { return }
    let indices = Self.douglasPeucker(chunk, tolerance: tolerance)
    // The chunk's first point is the previous chunk's last kept point.
    let skipFirst = !kept.isEmpty && kept.last == chunk.first
    for (position, index) in indices.enumerated() where !(skipFirst && position == 0) { kept.append(chunk[index]) }
    let last = chunk[chunk.count - 1]
    chunk.removeAll(keepingCapacity: true)
    if keepingLast { chunk.append(last) }
  }

  /// The indices Douglas–Peucker keeps of `points`, ascending: the ends, and
  /// recursively the point farthest from the segment between two kept
  /// points while it is farther than `tolerance`.
  static func douglasPeucker(_ points: [PlanePoint], tolerance: Double) -> [Int] {
    guard points.count > 2 else { return Array(points.indices) }
    var keep = [Bool](repeating: false, count: points.count)
    keep[0] = true
    keep[points.count - 1] = true
    var ranges = [(0, points.count - 1)]
    while let (start, end) = ranges.popLast() {
      guard end - start > 1 else { continue }
      var farthest = start, farthestDistance = -1.0
      for index in (start + 1)..<end {
        let distance = distanceToSegment(points[index], points[start], points[end])
        if distance > farthestDistance {
          farthestDistance = distance
          farthest = index
        }
      }
      if farthestDistance > tolerance {
        keep[farthest] = true
        ranges.append((start, farthest))
        ranges.append((farthest, end))
      }
    }
    return keep.indices.filter { keep[$0] }
  }

  /// The distance from `p` to the segment `a`–`b` (to `a` when they coincide).
  static func distanceToSegment(_ p: PlanePoint, _ a: PlanePoint, _ b: PlanePoint) -> Double {
    let dx = b.x - a.x, dy = b.y - a.y
    let lengthSquared = dx * dx + dy * dy
    var t = lengthSquared > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / lengthSquared : 0
    t = min(max(t, 0), 1)
    let cx = a.x + t * dx - p.x, cy = a.y + t * dy - p.y
    return (cx * cx + cy * cy).squareRoot()
  }
}
