import Testing
import TrigsimTestSupport

@testable import TrigsimReport

/// Douglas–Peucker in chunks: the exact points kept on small lines, and the
/// guarantee (every point left out lies within the tolerance of the drawn
/// line) on long seeded random walks, whatever the chunk size.
@Suite struct PolylineSimplifierTests {
  static func point(_ x: Double, _ y: Double) -> PlanePoint { PlanePoint(x: x, y: y) }

  @Test func pointsOnAStraightLineLeaveOnlyItsEnds() {
    let line = (0...100).map { Self.point(Double($0), 2 * Double($0)) }
    #expect(PolylineSimplifier.douglasPeucker(line, tolerance: 0.01) == [0, 100])
  }

  @Test func aBumpFartherThanTheToleranceIsKeptAndOneCloserIsNot() {
    let line = [Self.point(0, 0), Self.point(5, 0.4), Self.point(10, 0), Self.point(15, 3), Self.point(20, 0)]
    // 0.4 m from the chord: dropped at 0.5 m, kept at 0.3 m; the 3 m bump is kept at both.
    #expect(PolylineSimplifier.douglasPeucker(line, tolerance: 0.5) == [0, 2, 3, 4])
    #expect(PolylineSimplifier.douglasPeucker(line, tolerance: 0.3) == [0, 1, 2, 3, 4])
  }

  @Test func theDistanceIsToTheSegmentNotToItsLine() {
    // (30, 0) is on the line through (0,0)–(10,0) but 20 m past its end.
    #expect(PolylineSimplifier.distanceToSegment(Self.point(30, 0), Self.point(0, 0), Self.point(10, 0)) == 20)
    #expect(PolylineSimplifier.distanceToSegment(Self.point(5, 4), Self.point(0, 0), Self.point(10, 0)) == 4)
    #expect(PolylineSimplifier.distanceToSegment(Self.point(3, 4), Self.point(0, 0), Self.point(0, 0)) == 5)
    // An out-and-back line: the far point must be kept though the ends coincide.
    let outAndBack = [Self.point(0, 0), Self.point(50, 0), Self.point(0, 0.1)]
    #expect(PolylineSimplifier.douglasPeucker(outAndBack, tolerance: 1) == [0, 1, 2])
  }

  @Test func repeatedPointsAreOneAndTheEndsAreAlwaysKept() {
    var simplifier = PolylineSimplifier(tolerance: 1, chunkSize: 3)
    for point in [Self.point(0, 0), Self.point(0, 0), Self.point(4, 0), Self.point(4, 0), Self.point(8, 0.5), Self.point(12, 0)] {
      simplifier.append(point)
    }
    simplifier.finish()
    // Chunks of 3: [0,0 4,0 8,0.5] then [8,0.5 12,0]; (4,0) is 0.25 m from its chord: dropped.
    #expect(simplifier.kept == [Self.point(0, 0), Self.point(8, 0.5), Self.point(12, 0)])
  }

  /// The guarantee on a seeded random walk of 20 000 steps (GPS-like
  /// jitter on a drift): each input point is within the tolerance of the
  /// kept segment that spans it, for chunk sizes 3, 64 and 4096.
  @Test(arguments: [(3, UInt64(1)), (64, UInt64(2)), (4096, UInt64(3))])
  func everyLeftOutPointIsWithinTheToleranceOfTheDrawnLine(chunkSize: Int, seed: UInt64) {
    var random = SplitMix64(seed: seed)
    var points: [PlanePoint] = []
    var x = 0.0, y = 0.0
    for _ in 0..<20_000 {
      x += 1.2 + random.nextGaussian() * 3
      y += 0.4 + random.nextGaussian() * 3
      points.append(Self.point(x, y))
    }
    let tolerance = 4.0
    var simplifier = PolylineSimplifier(tolerance: tolerance, chunkSize: chunkSize)
    for point in points { simplifier.append(point) }
    simplifier.finish()
    let kept = simplifier.kept
    #expect(kept.first == points.first && kept.last == points.last, "seed \(seed)")
    // Chunks of 3 can drop at most one point in two; larger ones do much better.
    if chunkSize >= 64 { #expect(kept.count < points.count / 2, "seed \(seed): kept \(kept.count) of \(points.count)") }
    // The kept points are a subsequence of the input; walk both.
    var segment = 0
    var worst = 0.0
    for point in points {
      if segment + 1 < kept.count, point == kept[segment + 1] {
        segment += 1
        continue
      }
      if point == kept[segment] { continue }
      worst = max(worst, PolylineSimplifier.distanceToSegment(point, kept[segment], kept[min(segment + 1, kept.count - 1)]))
    }
    #expect(segment == kept.count - 1, "seed \(seed): the kept points are not a subsequence of the input")
    #expect(worst <= tolerance, "seed \(seed): a point left out is \(worst) m from the drawn line")
  }
}
