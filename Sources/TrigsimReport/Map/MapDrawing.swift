import TrigsimCore

/// The map of a run, in picture pixels: the regions, the track (simplified,
/// coloured by speed, with its gaps) and markers where things happened.
/// Built by reading the track twice, streamed (once for its extent, once to
/// draw it); what it holds is bounded by what is drawn, not by the track.
public struct MapDrawing: Sendable {
  /// What a marker on the map shows.
  public enum MarkerKind: String, CaseIterable, Sendable {
    /// The geometry crossed into a region (`enter`).
    case enter
    /// The geometry crossed out of a region (`exit`).
    case exit
    /// The device's location service reported the crossing (`detected`).
    case detected
    /// A crossing the device did not detect (`undetected`).
    case undetected
    /// A notification was delivered (`fired`).
    case fired
    /// The patient could perceive a delivery (an alert, the lock screen, a
    /// summary: a perceptible record of the run summary).
    case seen
  }

  /// One drawn region: its outline as a closed ring of pixels.
  public struct Region: Sendable {
    public var id: String
    /// `circle r=100m` or `polygon n=4`, for the label.
    public var shape: String
    public var ring: [PlanePoint]
    /// What its name names: its centre; nil when it is too small to label
    /// among many regions (its name is on hover).
    public var labelAt: PlanePoint?
    /// Where its name is written: on its centre, or moved clear of the
    /// markers there (`LabelPlacement`); nil when unlabelled or there was no room.
    public var label: PlacedLabel?
  }

  /// A stretch of track in one speed band, drawn as one line.
  public struct TrackPiece: Sendable {
    public var band: SpeedBand
    public var points: [PlanePoint]
  }

  /// One marker, standing for `count` events of one kind drawn at the same
  /// place (within `MapDrawing.markerCell` pixels).
  public struct Marker: Sendable {
    public var kind: MarkerKind
    public var at: PlanePoint
    public var count: Int
    /// The subjects of its events (notification or region identifiers), sorted, for highlighting.
    public var subjects: [String]
    /// The hover label: the event's timeline line, or a count with the first and last.
    public var label: String
    /// When its first and last events happened, and those instants as
    /// device-local times of day (`07:38`) and days (`2026-03-28`), for the
    /// labels of insets.
    public var firstAt = SimulationInstant(millisecondsSinceEpoch: 0), lastAt = SimulationInstant(millisecondsSinceEpoch: 0)
    public var firstTime = "", lastTime = ""
    public var firstDay = "", lastDay = ""

    /// Its size: a little larger when it stands for many events.
    public var size: Double { count == 1 ? 5 : 6.5 }
    /// Half the side of the square its drawn shape fits in, stroke included.
    public var halfSide: Double { size + 3 }
    /// The square its drawn shape fits in: what a label must keep clear of.
    public var box: PixelBox { PixelBox(around: at, halfSide: halfSide) }
  }

  public var width: Double
  /// The map's height; the insets are below it (see `pictureHeight`).
  public var height: Double
  public var regions: [Region] = []
  public var track: [TrackPiece] = []
  /// Straight dashed lines across gaps: from the last fix before to the first after.
  public var gaps: [(PlanePoint, PlanePoint)] = []
  public var markers: [Marker] = []
  /// Events of each kind with no known position (before the first fix, or no track): not drawn.
  public var unplaced: [MarkerKind: Int] = [:]
  /// The scale bar: its length in metres and in pixels.
  public var scaleBar: (metres: Double, pixels: Double)?
  /// When the track has fixes: each stretch from a segment's (or a gap's)
  /// first fix to its last, in time order.
  public var coverage: [ClosedRange<SimulationInstant>] = []
  /// Fixes read, and points drawn after simplification.
  public var fixesRead = 0
  public var pointsDrawn = 0
  /// The tolerance used, in metres.
  public var tolerance: Double = 0
  /// A close-up of each region where something happened (the first
  /// `maximumInsets`, those the close-up magnifies), below the map.
  public var insets: [Inset] = []
  /// Regions with events an inset would magnify beyond the first `maximumInsets`.
  public var insetsLeftOut = 0
  /// The whole picture's height: the map's, and the insets' rows below it.
  public var pictureHeight: Double = 0

  /// Markers of one kind closer than this many pixels are drawn as one.
  public static let markerCell = 3.0
  /// With this many regions or fewer, every region is named on the map and frames it.
  static let labelAllRegionsUpTo = 20
  /// Among more regions, one that frames the map (it has events) and is at
  /// least this many pixels wide is named.
  static let labelledRegionWidth = 40.0
  /// A region's circle is drawn with this many vertices (a true geodesic circle).
  static let circleVertices = 96
  /// A circle is drawn at most this many metres across from its centre
  /// (about half the Earth's circumference: a circle that large covers the
  /// globe, and a geodesic longer than that winds round it again). Its label
  /// keeps the radius the scenario gave.
  static let largestDrawnRadius = 20_000_000.0

  /// Draws the map of `input`.
  ///
  /// Fixes whose coordinate is not valid (not finite, or outside ±90° and
  /// ±180°: no reader of trigsim hands such a fix on) are left out of both
  /// passes, so every drawn position is finite.
  ///
  /// - Throws: what reading the track throws (it was read once by the run
  ///   already, so only a file changed since).
  public init(_ input: ReportInput, options: ReportOptions) throws {
    width = options.drawingWidth
    // Pass 1: the extent of the track and the regions.
    // The map fits the track and the regions that matter (see `framed`).
    var bounds = CoordinateBounds()
    let rings = input.regions.map { Self.outline(of: $0) }
    if let track = input.track {
      try track.readSamples { sample in
        if sample.coordinate.isValid { bounds.include(sample.coordinate) }
        return true
      }
    }
    let framed = Self.framedRegions(input, hasTrack: !bounds.isEmpty)
    for (region, ring) in zip(input.regions, rings) where framed.contains(region.id.rawValue) {
      for vertex in ring.vertices { bounds.include(vertex) }
    }
    guard !bounds.isEmpty else {
      // Nothing has a place: every event is counted as not drawn.
      height = 120
      pictureHeight = height
      for event in Self.events(of: input) { unplaced[event.kind, default: 0] += 1 }
      return
    }
    let projection = LocalProjection(center: bounds.center)
    let southWest = projection.project(Coordinate(latitude: bounds.south, longitude: bounds.west))
    let northEast = projection.project(Coordinate(latitude: bounds.north, longitude: bounds.east))
    let viewport = Viewport(
      minX: southWest.x, maxX: northEast.x, minY: southWest.y, maxY: northEast.y, width: width, minHeight: 360,
      maxHeight: 720, margin: 36)
    height = viewport.height
    tolerance = options.drawingTolerance ?? 1 / viewport.scale
    scaleBar = Self.scaleBar(pixelsPerMetre: viewport.scale, width: width)

    for (region, outline) in zip(input.regions, rings) {
      let ring = outline.vertices.map { viewport.pixel(projection.project($0)) }
      var extent = (minX: Double.infinity, maxX: -Double.infinity)
      for point in ring { extent = (min(extent.minX, point.x), max(extent.maxX, point.x)) }
      // Off the picture: not drawn.
      guard ring.contains(where: { (0...width).contains($0.x) && (0...height).contains($0.y) }) || ring.isEmpty else { continue }
      let labelled = input.regions.count <= Self.labelAllRegionsUpTo
        || (framed.contains(region.id.rawValue) && extent.maxX - extent.minX >= Self.labelledRegionWidth)
      regions.append(
        Region(
          id: region.id.rawValue, shape: outline.shape, ring: ring,
          labelAt: labelled ? viewport.pixel(projection.project(outline.labelAt)) : nil))
    }

    // The insets: laid out below the map, in rows.
    var insetBuilders = Self.insetBuilders(input, outlines: rings, mapScale: viewport.scale, top: height + Self.insetHeading, width: width, leftOut: &insetsLeftOut)
    pictureHeight = insetBuilders.map { $0.frame.maxY + Self.insetCaption }.max() ?? height

    // Pass 2: the track, and the positions of the events.
    let events = Self.events(of: input)
    var placement = TrackPlacement(instants: events.map(\.instant))
    if let source = input.track {
      var builder = TrackBuilder(tolerance: tolerance, gapLimit: input.gapLimit.milliseconds)
      try source.readSamples { sample in
        guard sample.coordinate.isValid else { return true }
        placement.consume(sample)
        builder.add(sample, at: projection.project(sample.coordinate))
        for index in insetBuilders.indices { insetBuilders[index].add(sample) }
        return true
      }
      builder.finish()
      placement.finish()
      fixesRead = builder.fixes
      self.track = builder.pieces.map { TrackPiece(band: $0.band, points: $0.points.map(viewport.pixel)) }
      gaps = builder.gaps.map { (viewport.pixel($0.0), viewport.pixel($0.1)) }
      coverage = builder.coverage
      pointsDrawn = self.track.reduce(0) { $0 + $1.points.count }
    }
    markers = Self.markers(events, positions: placement.positions.map { $0.map { viewport.pixel(projection.project($0)) } }, unplaced: &unplaced)
    // Region names, moved clear of the markers where they would cover one.
    let labelled = regions.indices.filter { regions[$0].labelAt != nil }
    let placed = LabelPlacement.place(
      labelled.map { LabelPlacement.Request(text: regions[$0].id, anchor: regions[$0].labelAt!, clearance: 0, mayCover: true) },
      obstacles: markers.map(\.box), within: PixelBox(minX: 0, minY: 0, maxX: width, maxY: height))
    for (index, label) in zip(labelled, placed) { regions[index].label = label }
    insets = insetBuilders.indices.map { insetBuilders[$0].finished(events: events, positions: placement.positions) }
  }

  /// The room above the insets for their heading, in pixels.
  static let insetHeading = 26.0

  /// The insets' builders: for the regions with events (`regionsWithEvents`)
  /// that have an outline, those whose inset magnifies them at least
  /// `insetMagnification` times over the map's `mapScale` (pixels per
  /// metre), the first `maximumInsets` of them (`leftOut` counts the rest),
  /// laid out in rows from `top`.
  static func insetBuilders(
    _ input: ReportInput, outlines: [(vertices: [Coordinate], shape: String, labelAt: Coordinate)], mapScale: Double, top: Double, width: Double,
    leftOut: inout Int
  ) -> [InsetBuilder] {
    var indexByID: [String: Int] = [:]
    for (index, region) in input.regions.enumerated() where indexByID[region.id.rawValue] == nil { indexByID[region.id.rawValue] = index }
    let candidates = regionsWithEvents(input).compactMap { id in indexByID[id].flatMap { outlines[$0].vertices.isEmpty ? nil : (id, outlines[$0]) } }
    // A side no larger than the final one: fewer insets are as large or larger.
    let provisional = insetLayout(count: min(candidates.count, maximumInsets), width: width).side
    let magnified = candidates.filter { provisional / InsetBuilder.frameSpan(of: $0.1.vertices) >= insetMagnification * mapScale }
    let chosen = Array(magnified.prefix(maximumInsets))
    leftOut = magnified.count - chosen.count
    guard !chosen.isEmpty else { return [] }
    let (side, columns) = insetLayout(count: chosen.count, width: width)
    return chosen.enumerated().map { index, region in
      let origin = PlanePoint(
        x: insetGutter + Double(index % columns) * (side + insetGutter), y: top + Double(index / columns) * (side + insetCaption + insetGutter / 2))
      return InsetBuilder(regionID: region.0, shape: region.1.shape, vertices: region.1.vertices, origin: origin, side: side, gapLimit: input.gapLimit.milliseconds)
    }
  }

  // MARK: - Regions

  /// A region's outline in coordinates: a circle as `circleVertices`
  /// points at its radius (at most `largestDrawnRadius`) along geodesics
  /// from the centre (a true circle on the ellipsoid), a polygon as its
  /// vertices; a shape that cannot be drawn has none. Vertices that are not
  /// valid coordinates are left out.
  static func outline(of region: MonitoredRegion) -> (vertices: [Coordinate], shape: String, labelAt: Coordinate) {
    if let circle = region.shape as? CircularRegion {
      let distance = min(circle.radius, largestDrawnRadius)
      let vertices = (0..<circleVertices).map {
        Geodesic.destination(from: circle.center, azimuth: Double($0) * 360 / Double(circleVertices), distance: distance)
      }
      return (vertices.filter(\.isValid), "circle r=\(circle.radiusText)m", circle.center)
    }
    if let polygon = region.shape as? VertexRingShape {
      let vertices = polygon.vertices.filter(\.isValid)
      var bounds = CoordinateBounds()
      for vertex in vertices { bounds.include(vertex) }
      return (vertices, "polygon n=\(polygon.vertices.count)", bounds.isEmpty ? Coordinate(latitude: 0, longitude: 0) : bounds.center)
    }
    return ([], region.shape.summary, Coordinate(latitude: 0, longitude: 0))
  }

  /// The regions the map is framed to hold: all of them when there are at
  /// most `labelAllRegionsUpTo` or there is no track; else those with an
  /// entry, exit or detection in the run or the expected timeline (a city
  /// of 500 pharmacies would otherwise shrink the walk to a dot).
  static func framedRegions(_ input: ReportInput, hasTrack: Bool) -> Set<String> {
    let all = Set(input.regions.map(\.id.rawValue))
    guard hasTrack, input.regions.count > labelAllRegionsUpTo else { return all }
    var named = Set<String>()
    for timeline in [input.run.timeline] + (input.comparison.map { [$0.expected] } ?? []) {
      for entry in timeline.entries where [.enter, .exit, .detected, .undetected].contains(entry.kind) { named.insert(entry.subject) }
    }
    return named.intersection(all)
  }

  // MARK: - Markers

  /// An event to place on the map.
  struct Event {
    var kind: MarkerKind
    var instant: SimulationInstant
    var subject: String
    var label: String
    /// The device-local time of day, `07:38`, and day, `2026-03-28`.
    var localTime: String
    var localDay: String
  }

  /// The run's events that happened somewhere, in time order: region
  /// crossings, detections, deliveries, and what the patient perceived.
  static func events(of input: ReportInput) -> [Event] {
    var events: [Event] = []
    for entry in input.run.timeline.entries {
      let kind: MarkerKind
      switch entry.kind {
      case .enter: kind = .enter
      case .exit: kind = .exit
      case .detected: kind = .detected
      case .undetected: kind = .undetected
      case .fired: kind = .fired
      default: continue
      }
      events.append(Event(kind: kind, instant: entry.instant, subject: entry.subject, label: entry.canonicalLine, localTime: Self.timeOfDay(entry.localInstant), localDay: Self.day(entry.localInstant)))
    }
    for perception in input.run.summary.perceptions where perception.isPerceptible {
      let local = InstantFormatter.format(perception.instant, offsetSeconds: perception.utcOffsetSeconds)
      events.append(Event(kind: .seen, instant: perception.instant, subject: perception.subject, label: perception.reportLabel, localTime: Self.timeOfDay(local), localDay: Self.day(local)))
    }
    // Stable: entries keep their timeline order, perceptions follow at equal instants.
    return events.enumerated().sorted { ($0.element.instant, $0.offset) < ($1.element.instant, $1.offset) }.map(\.element)
  }

  /// `2026-05-04T07:38:12.000+02:00` → `07:38`.
  static func timeOfDay(_ localInstant: String) -> String { String(localInstant.dropFirst(11).prefix(5)) }

  /// `2026-05-04T07:38:12.000+02:00` → `2026-05-04`.
  static func day(_ localInstant: String) -> String { String(localInstant.prefix(10)) }

  /// One marker per kind and `markerCell`-pixel cell, at its first event's
  /// position, in the order of their first events.
  static func markers(_ events: [Event], positions: [PlanePoint?], unplaced: inout [MarkerKind: Int]) -> [Marker] {
    struct Cell: Hashable {
      var kind: MarkerKind
      var x: Int, y: Int
    }
    var order: [Cell] = []
    var grouped: [Cell: (first: Int, last: Int, count: Int, subjects: Set<String>)] = [:]
    for (index, event) in events.enumerated() {
      guard let at = positions[index] else {
        unplaced[event.kind, default: 0] += 1
        continue
      }
      let cell = Cell(kind: event.kind, x: Self.cellIndex(at.x), y: Self.cellIndex(at.y))
      if var group = grouped[cell] {
        group.last = index
        group.count += 1
        group.subjects.insert(event.subject)
        grouped[cell] = group
      } else {
        order.append(cell)
        grouped[cell] = (index, index, 1, [event.subject])
      }
    }
    return order.map { cell in
      let group = grouped[cell]!
      let first = events[group.first], last = events[group.last]
      let label = group.count == 1 ? first.label : "\(group.count) × \(cell.kind.rawValue) here; first: \(first.label); last: \(last.label)"
      return Marker(
        kind: cell.kind, at: positions[group.first]!, count: group.count, subjects: group.subjects.sorted(), label: label,
        firstAt: first.instant, lastAt: last.instant, firstTime: first.localTime, lastTime: last.localTime, firstDay: first.localDay, lastDay: last.localDay)
    }
  }

  /// The `markerCell` a pixel coordinate falls in, along one axis (from a
  /// coordinate within the picture's bounds, `Markup.pictureBound`, so the
  /// conversion to an integer cannot trap).
  static func cellIndex(_ pixel: Double) -> Int { Int((Markup.clampedToPicture(pixel) / markerCell).rounded(.down)) }

  // MARK: - Scale bar

  /// A round length (1, 2 or 5 × a power of ten metres) about a fifth of
  /// the picture's width.
  static func scaleBar(pixelsPerMetre: Double, width: Double) -> (metres: Double, pixels: Double) {
    let target = width / 5 / pixelsPerMetre
    var magnitude = 1.0
    while magnitude * 10 <= target { magnitude *= 10 }
    while magnitude > target && magnitude > 1 { magnitude /= 10 }
    let metres = [5.0, 2, 1].map { $0 * magnitude }.first { $0 <= target } ?? magnitude
    return (metres, metres * pixelsPerMetre)
  }
}

extension PerceptionRecord {
  /// How a sight of a delivery is labelled in both pictures: `INSTANT seen SUBJECT (HOW)`.
  var reportLabel: String {
    "\(InstantFormatter.format(instant, offsetSeconds: utcOffsetSeconds)) seen \(subject) (\(kind.rawValue))"
  }
}

/// Turns the stream of fixes into drawn pieces.
///
/// - A **stop** begins when the device has stayed within `stopRadius` of a
///   fix for `stopDuration`; its centre is the mean of those fixes, and it
///   lasts while the fixes stay within `stopRadius` of the centre. It is
///   drawn in the `still` band as a line from its first fix through its
///   centre to its last: what a phone standing still records is its GPS
///   error wandering, not a path. Every fix of a stop lies within
///   `stopRadius` of its centre, a point of the drawn line.
/// - Between stops, a new piece at every speed band change (sharing the
///   point where it changes, so the line is unbroken), simplified as it
///   streams to the tolerance; the fixes before the band of a piece is known
///   (the first `SpeedMeter.window` of a stretch) wait in a small buffer.
/// - A gap (no line; a dashed connector) at a segment break or a pause longer
///   than the gap limit.
///
/// Memory: the fixes of the last `stopDuration` while it is not yet known
/// whether they are a stop, and the drawn points.
struct TrackBuilder {
  let tolerance: Double
  let gapLimit: Int64
  /// A stop: within this many metres of its first fix…
  static let stopRadius = 50.0
  /// …for at least this long.
  static let stopDuration: Int64 = 120_000
  private(set) var pieces: [(band: SpeedBand, points: [PlanePoint])] = []
  private(set) var gaps: [(PlanePoint, PlanePoint)] = []
  private(set) var fixes = 0
  private(set) var coverage: [ClosedRange<SimulationInstant>] = []
  private var stretchStart: SimulationInstant?
  private var speed = SpeedMeter()
  /// Whether a moving piece is being drawn.
  private var pieceOpen = false
  /// The current piece's simplifier, once its band is known.
  private var simplifier: PolylineSimplifier?
  /// The current piece's points while its band is not known yet.
  private var waiting: [PlanePoint] = []
  private var currentBand = SpeedBand.still
  /// The last fix drawn or held (for gaps and coverage).
  private var previous: (instant: SimulationInstant, point: PlanePoint)?
  /// The last fix handed to the moving pieces (where the next piece starts).
  private var lastMoving: PlanePoint?
  /// Fixes that may start a stop: all within `stopRadius` of the first.
  private var candidates: [(instant: Int64, point: PlanePoint)] = []
  private var candidateHead = 0
  /// The stop the device is in: its first fix, its centre and its last fix so far.
  private var stop: (first: PlanePoint, centre: PlanePoint, last: PlanePoint)?

  init(tolerance: Double, gapLimit: Int64) {
    self.tolerance = tolerance
    self.gapLimit = gapLimit
  }

  mutating func add(_ sample: TrackSample, at point: PlanePoint) {
    fixes += 1
    let now = sample.instant.millisecondsSinceEpoch
    if let previous, sample.startsSegment || now - previous.instant.millisecondsSinceEpoch > gapLimit {
      endStretch()
      gaps.append((previous.point, point))
      if let start = stretchStart { coverage.append(start...previous.instant) }
      stretchStart = nil
    }
    if stretchStart == nil { stretchStart = sample.instant }
    previous = (sample.instant, point)
    if var current = stop {
      if Self.distance(point, current.centre) <= Self.stopRadius {
        current.last = point
        stop = current
        return
      }
      // The stop ends: moving again from its last fix.
      drawStop()
      speed.restart()
      lastMoving = current.last
    }
    candidates.append((now, point))
    // Keep the candidates within `stopRadius` of the first: the ones before
    // are movement.
    if Self.distance(point, candidates[candidateHead].point) > Self.stopRadius {
      while candidateHead < candidates.count - 1 {
        let first = candidates[candidateHead]
        moving(first.instant, first.point)
        candidateHead += 1
        let anchor = candidates[candidateHead].point
        if candidates[candidateHead...].allSatisfy({ Self.distance($0.point, anchor) <= Self.stopRadius }) { break }
      }
    }
    if now - candidates[candidateHead].instant >= Self.stopDuration {
      // A stop: the moving line runs to its first fix, then the stop begins.
      let first = candidates[candidateHead]
      moving(first.instant, first.point)
      closePiece()
      let held = candidates[candidateHead...]
      let centre = PlanePoint(
        x: held.reduce(0) { $0 + $1.point.x } / Double(held.count), y: held.reduce(0) { $0 + $1.point.y } / Double(held.count))
      stop = (first.point, centre, point)
      candidates.removeAll(keepingCapacity: true)
      candidateHead = 0
    } else if candidateHead > 1024 {
      candidates.removeFirst(candidateHead)
      candidateHead = 0
    }
  }

  mutating func finish() {
    endStretch()
    if let start = stretchStart, let previous { coverage.append(start...previous.instant) }
    stretchStart = nil
  }

  /// The end of a stretch of fixes (a gap or the end): what is held is drawn.
  private mutating func endStretch() {
    if stop != nil { drawStop() }
    for candidate in candidates[candidateHead...] { moving(candidate.instant, candidate.point) }
    candidates.removeAll(keepingCapacity: true)
    candidateHead = 0
    closePiece()
    speed.restart()
    lastMoving = nil
  }

  /// The stop, from its first fix through its centre to its last; it is over.
  private mutating func drawStop() {
    guard let current = stop else { return }
    pieces.append((.still, [current.first, current.centre, current.last]))
    stop = nil
  }

  /// A fix of the moving line.
  private mutating func moving(_ instant: Int64, _ point: PlanePoint) {
    let measured = speed.band(at: SimulationInstant(millisecondsSinceEpoch: instant), point)
    if !pieceOpen { startPiece(nil, at: lastMoving) }
    if let measured {
      if simplifier == nil {
        // The piece's first fixes had no speed yet: the first measurement is theirs too.
        settle(measured)
      } else if measured != currentBand, let lastMoving {
        closePiece()
        startPiece(measured, at: lastMoving)
      }
    }
    append(point)
    lastMoving = point
  }

  private mutating func startPiece(_ band: SpeedBand?, at first: PlanePoint?) {
    pieceOpen = true
    simplifier = nil
    waiting.removeAll(keepingCapacity: true)
    if let band { settle(band) }
    if let first { append(first) }
  }

  /// The current piece's band is `band`: its simplifier starts, with what waited.
  private mutating func settle(_ band: SpeedBand) {
    currentBand = band
    simplifier = PolylineSimplifier(tolerance: tolerance)
    for point in waiting { simplifier!.append(point) }
    waiting.removeAll(keepingCapacity: true)
  }

  private mutating func append(_ point: PlanePoint) {
    if simplifier != nil { simplifier!.append(point) } else { waiting.append(point) }
  }

  private mutating func closePiece() {
    guard pieceOpen else { return }
    if simplifier == nil { settle(speed.provisionalBand) }
    simplifier!.finish()
    // A piece of one point that only repeats where the line already is adds nothing.
    let kept = simplifier!.kept
    if !(kept.count == 1 && pieces.last?.points.last == kept.first) { pieces.append((currentBand, kept)) }
    simplifier = nil
    pieceOpen = false
  }

  static func distance(_ a: PlanePoint, _ b: PlanePoint) -> Double {
    let dx = a.x - b.x, dy = a.y - b.y
    return (dx * dx + dy * dy).squareRoot()
  }
}
