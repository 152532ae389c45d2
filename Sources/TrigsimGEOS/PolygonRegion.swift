import CGEOS
import TrigsimCore

/// A polygon region: a simple ring of (latitude, longitude) vertices whose
/// edges are straight lines in (longitude, latitude), the GeoJSON convention.
/// The ring closes implicitly; the boundary counts as inside.
///
/// **Crossings.** The device path between fixes is the straight
/// (longitude, latitude) chord, linear in time (`ChordPath`, which states the
/// rule and its error against the geodesic: sub-millimetre for segments under
/// 100 m up to about 75° latitude). A crossing is reported at the first whole
/// millisecond in `(a.instant, b.instant]` at which `contains(chord.position(at: t))`
/// differs from the state at the previous millisecond, so the crossings agree
/// with sampling the chord at every millisecond. A chord that touches a
/// vertex or runs along an edge without changing side gives no crossing
/// (unless it is on the boundary, hence inside, at a whole millisecond). When
/// the chord rule does not interpolate (equal instants, a new recorded
/// segment, a chord across the antimeridian) a change of side is reported at
/// `b.instant`.
///
/// **How.** A segment whose bounding box misses the polygon's is rejected in
/// Swift, with no GEOS call and no allocation. Otherwise GEOS says whether the
/// chord touches the boundary at all (prepared geometry) and, if it does,
/// where (`GEOSIntersection_r` with the boundary, computed once). The side is
/// constant between consecutive contact points, so each contact point gets its
/// neighbouring milliseconds checked with `contains`, and each stretch between
/// contacts one check. Along an edge that is not parallel to an axis, whether
/// interpolated points land exactly on the edge is a matter of rounding; the
/// middle of the overlap decides for the whole stretch.
///
/// Each region owns one GEOS context (`GEOS_init_r`), so regions must not be
/// shared between threads; every GEOS object is destroyed in `deinit`.
public final class PolygonRegion: RegionShape {
  /// Why a vertex list does not make a polygon region.
  public enum ValidationError: Error, Equatable, CustomStringConvertible {
    /// Fewer than three distinct vertices.
    case tooFewDistinctVertices(count: Int)
    /// A vertex that is not finite or out of range; `index` counts from 0.
    case invalidCoordinate(index: Int, Coordinate)
    /// GEOS rejects the polygon; `reason` is `GEOSisValidReason_r`'s text,
    /// such as `Self-intersection[12.571 55.6805]` (longitude first).
    case invalidPolygon(reason: String)

    /// Lower case, no trailing period, ready for a `Diagnostic`.
    public var description: String {
      switch self {
      case .tooFewDistinctVertices(let count):
        return "a polygon needs at least 3 distinct vertices, found \(count)"
      case .invalidCoordinate(let index, let coordinate):
        return "vertex \(index + 1) '\(coordinate)' is not a valid coordinate"
          + " (latitude -90...90, longitude -180...180)"
      case .invalidPolygon(let reason):
        return "the polygon is not valid: \(reason)"
      }
    }
  }

  /// The vertices as given, without a repeated closing vertex.
  public let vertices: [Coordinate]

  private let context: GEOSContextHandle_t
  private let polygon: OpaquePointer
  private let boundary: OpaquePointer
  private let prepared: OpaquePointer
  private let preparedBoundary: OpaquePointer
  private let minLongitude: Double, maxLongitude: Double
  private let minLatitude: Double, maxLatitude: Double

  /// A region with its own GEOS context: a context must not be used by two threads at once.
  public func copyForAnotherThread() -> any RegionShape {
    do {
      return try PolygonRegion.make(vertices: vertices)
    } catch {
      preconditionFailure("vertices that made a valid polygon no longer do: \(error)")
    }
  }

  /// Builds a region, or says why the vertices do not make one.
  ///
  /// A last vertex equal to the first is taken as an explicit closing vertex
  /// and dropped.
  public static func make(vertices given: [Coordinate]) throws(ValidationError) -> PolygonRegion {
    for (index, vertex) in given.enumerated() where !vertex.isValid {
      throw .invalidCoordinate(index: index, vertex)
    }
    var vertices = given
    if vertices.count >= 2, vertices.first == vertices.last { vertices.removeLast() }
    let distinct = Set(vertices).count
    guard distinct >= 3 else { throw .tooFewDistinctVertices(count: distinct) }

    guard let context = GEOS_init_r() else { throw .invalidPolygon(reason: "GEOS could not start") }
    guard let polygon = makePolygon(vertices, context) else {
      finishGEOS_r(context)
      throw .invalidPolygon(reason: "GEOS could not build the polygon")
    }
    if GEOSisValid_r(context, polygon) != 1 {
      var reason = "invalid geometry"
      if let text = GEOSisValidReason_r(context, polygon) {
        reason = String(cString: text)
        GEOSFree_r(context, text)
      }
      GEOSGeom_destroy_r(context, polygon)
      finishGEOS_r(context)
      throw .invalidPolygon(reason: reason)
    }
    guard let boundary = GEOSBoundary_r(context, polygon) else {
      GEOSGeom_destroy_r(context, polygon)
      finishGEOS_r(context)
      throw .invalidPolygon(reason: "GEOS could not compute the boundary")
    }
    guard let prepared = GEOSPrepare_r(context, polygon),
      let preparedBoundary = GEOSPrepare_r(context, boundary)
    else {
      // GEOSPrepare_r only fails on allocation failure; not worth unwinding half a pair.
      fatalError("GEOSPrepare_r failed")
    }
    return PolygonRegion(
      vertices: vertices, context: context, polygon: polygon, boundary: boundary, prepared: prepared,
      preparedBoundary: preparedBoundary)
  }

  private init(
    vertices: [Coordinate], context: GEOSContextHandle_t, polygon: OpaquePointer, boundary: OpaquePointer,
    prepared: OpaquePointer, preparedBoundary: OpaquePointer
  ) {
    self.vertices = vertices
    self.context = context
    self.polygon = polygon
    self.boundary = boundary
    self.prepared = prepared
    self.preparedBoundary = preparedBoundary
    minLongitude = vertices.map(\.longitude).min()!
    maxLongitude = vertices.map(\.longitude).max()!
    minLatitude = vertices.map(\.latitude).min()!
    maxLatitude = vertices.map(\.latitude).max()!
  }

  deinit {
    GEOSPreparedGeom_destroy_r(context, preparedBoundary)
    GEOSPreparedGeom_destroy_r(context, prepared)
    GEOSGeom_destroy_r(context, boundary)
    GEOSGeom_destroy_r(context, polygon)
    finishGEOS_r(context)
  }

  /// The shell ring (x = longitude, y = latitude), closed, as a GEOS polygon.
  private static func makePolygon(_ vertices: [Coordinate], _ context: GEOSContextHandle_t) -> OpaquePointer? {
    let count = UInt32(vertices.count + 1)
    guard let sequence = GEOSCoordSeq_create_r(context, count, 2) else { return nil }
    for (index, vertex) in (vertices + [vertices[0]]).enumerated() {
      GEOSCoordSeq_setXY_r(context, sequence, UInt32(index), vertex.longitude, vertex.latitude)
    }
    guard let ring = GEOSGeom_createLinearRing_r(context, sequence) else {
      GEOSCoordSeq_destroy_r(context, sequence)
      return nil
    }
    guard let polygon = GEOSGeom_createPolygon_r(context, ring, nil, 0) else {
      GEOSGeom_destroy_r(context, ring)
      return nil
    }
    return polygon
  }

  // MARK: - RegionShape

  /// Whether `coordinate` is inside the polygon or on its boundary.
  public func contains(_ coordinate: Coordinate) -> Bool {
    let x = coordinate.longitude, y = coordinate.latitude
    if x < minLongitude || x > maxLongitude || y < minLatitude || y > maxLatitude { return false }
    guard let point = GEOSGeom_createPointFromXY_r(context, x, y) else { return false }
    defer { GEOSGeom_destroy_r(context, point) }
    return GEOSPreparedIntersects_r(context, prepared, point) == 1
  }

  /// `polygon n=4 [55.67, 12.56] [55.68, 12.56] [55.68, 12.58] [55.67, 12.58]`;
  /// above 8 vertices only the bounding box: `polygon n=120 bbox [55.67, 12.56]…[55.68, 12.58]`.
  /// The distance south of the polygon's southernmost vertex or north of its
  /// northernmost, as a lower bound in metres (0 inside that latitude band).
  ///
  /// Chords between fixes run linearly in latitude, so while the engine's
  /// path-length budget lasts every fix, and every chord between them, stays
  /// outside the band and cannot meet the polygon.
  public func boundaryClearance(from coordinate: Coordinate) -> Double {
    let degrees = max(minLatitude - coordinate.latitude, coordinate.latitude - maxLatitude)
    guard degrees > 0 else { return 0 }
    return max(0, degrees * .pi / 180 * Geodesic.smallestMeridionalRadius - 0.01)
  }

  public var summary: String {
    if vertices.count <= 8 {
      return "polygon n=\(vertices.count) " + vertices.map(\.description).joined(separator: " ")
    }
    let low = Coordinate(latitude: minLatitude, longitude: minLongitude)
    let high = Coordinate(latitude: maxLatitude, longitude: maxLongitude)
    return "polygon n=\(vertices.count) bbox \(low)…\(high)"
  }

  public func appendCrossings(
    from a: TrackSample, to b: TrackSample, insideAtStart: Bool, into crossings: inout [BoundaryCrossing]
  ) {
    let t0 = a.instant.millisecondsSinceEpoch
    let p = a.coordinate, q = b.coordinate

    // Envelope rejection: the chord's bounding box misses the polygon's.
    if max(p.longitude, q.longitude) < minLongitude || min(p.longitude, q.longitude) > maxLongitude
      || max(p.latitude, q.latitude) < minLatitude || min(p.latitude, q.latitude) > maxLatitude
    {
      if insideAtStart {
        let instant = ChordPath(from: a, to: b).interpolates ? a.instant.advanced(byMilliseconds: 1) : b.instant
        crossings.append(BoundaryCrossing(instant: instant, entering: false))
      }
      return
    }

    let chord = ChordPath(from: a, to: b)
    guard chord.interpolates else {
      if contains(q) != insideAtStart {
        crossings.append(BoundaryCrossing(instant: b.instant, entering: !insideAtStart))
      }
      return
    }
    let fractions = contactFractions(p, q)
    let t1 = b.instant.millisecondsSinceEpoch

    func inside(_ t: Int64) -> Bool {
      contains(chord.position(at: SimulationInstant(millisecondsSinceEpoch: t)))
    }
    var state = insideAtStart
    func observe(_ t: Int64, _ now: Bool) {
      if now != state {
        crossings.append(BoundaryCrossing(instant: SimulationInstant(millisecondsSinceEpoch: t), entering: now))
        state = now
      }
    }
    // Milliseconds next to a contact point are checked one by one; the side is
    // constant on each stretch between them, so one check (in its middle) decides it.
    var checked: [Int64] = []
    checked.reserveCapacity(fractions.count * 4)
    let span = Double(t1 - t0)
    for fraction in fractions {
      let moment = Int64((fraction * span).rounded(.down)) + t0
      for t in (moment - 1)...(moment + 2) where t > t0 && t <= t1 { checked.append(t) }
    }
    checked.sort()
    var next = t0 + 1  // first millisecond not yet accounted for
    for t in checked where t >= next {
      if t > next { observe(next, inside(next + (t - 1 - next) / 2)) }
      observe(t, inside(t))
      next = t + 1
    }
    if next <= t1 { observe(next, inside(next + (t1 - next) / 2)) }
  }

  /// Where the chord from `p` to `q` meets the boundary, as fractions of the
  /// chord in [0, 1], sorted. Empty when the chord does not meet it.
  private func contactFractions(_ p: Coordinate, _ q: Coordinate) -> [Double] {
    let dx = q.longitude - p.longitude, dy = q.latitude - p.latitude
    let lengthSquared = dx * dx + dy * dy
    guard lengthSquared > 0 else { return [] }
    guard let sequence = GEOSCoordSeq_create_r(context, 2, 2) else { return [] }
    GEOSCoordSeq_setXY_r(context, sequence, 0, p.longitude, p.latitude)
    GEOSCoordSeq_setXY_r(context, sequence, 1, q.longitude, q.latitude)
    guard let line = GEOSGeom_createLineString_r(context, sequence) else {
      GEOSCoordSeq_destroy_r(context, sequence)
      return []
    }
    defer { GEOSGeom_destroy_r(context, line) }
    guard GEOSPreparedIntersects_r(context, preparedBoundary, line) == 1 else { return [] }
    guard let intersection = GEOSIntersection_r(context, line, boundary) else { return [] }
    defer { GEOSGeom_destroy_r(context, intersection) }
    var fractions: [Double] = []
    forEachCoordinate(of: intersection) { x, y in
      let f = ((x - p.longitude) * dx + (y - p.latitude) * dy) / lengthSquared
      fractions.append(min(1, max(0, f)))
    }
    fractions.sort()
    return fractions
  }

  /// Calls `body` with every (x, y) of a point, line or collection of them.
  private func forEachCoordinate(of geometry: OpaquePointer, _ body: (Double, Double) -> Void) {
    if GEOSisEmpty_r(context, geometry) != 0 { return }
    switch Int(GEOSGeomTypeId_r(context, geometry)) {
    case Int(GEOS_POINT.rawValue), Int(GEOS_LINESTRING.rawValue), Int(GEOS_LINEARRING.rawValue):
      guard let sequence = GEOSGeom_getCoordSeq_r(context, geometry) else { return }
      var size: UInt32 = 0
      GEOSCoordSeq_getSize_r(context, sequence, &size)
      for index in 0..<size {
        var x = 0.0, y = 0.0
        GEOSCoordSeq_getXY_r(context, sequence, index, &x, &y)
        body(x, y)
      }
    default:
      let count = GEOSGetNumGeometries_r(context, geometry)
      guard count > 0 else { return }
      for index in 0..<count {
        if let part = GEOSGetGeometryN_r(context, geometry, index) { forEachCoordinate(of: part, body) }
      }
    }
  }
}

/// Writers (GeoJSON) draw a polygon region from its vertices.
extension PolygonRegion: VertexRingShape {}
