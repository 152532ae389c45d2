import TrigsimCore

extension MapDrawing {
  /// A close-up of one region where something happened, framed on it: the
  /// region, the track through it, the markers inside the frame, and labels
  /// (the region's name; the time and kinds of each group of markers)
  /// placed clear of the markers. Everything is in the picture's pixels
  /// (the inset's own frame is `frame`).
  public struct Inset: Sendable {
    public var regionID: String
    /// `circle r=100m`, `polygon n=4`.
    public var shape: String
    /// Where the inset is on the picture.
    public var frame: PixelBox
    /// Pixels per metre.
    public var scale: Double
    public var ring: [PlanePoint]
    /// The track near the region, drawn by the map's rules (stops
    /// collapsed, speed bands, one pixel of tolerance at the inset's scale)
    /// and cut to the frame.
    public var track: [TrackPiece]
    public var markers: [Marker]
    public var labels: [PlacedLabel]
    /// Labels there was no room for (their markers keep their hover titles).
    public var labelsLeftOut: Int
    /// The region's own events (crossings, detections) placed outside the
    /// frame (a detection far from the crossing): on the main map only.
    public var eventsOutside: Int
    public var scaleBar: (metres: Double, pixels: Double)

    /// Where an inset's scale bar starts: the bottom left of its frame, 8 px in.
    static func scaleBarOrigin(frame: PixelBox) -> PlanePoint { PlanePoint(x: frame.minX + 8, y: frame.maxY - 8) }

    /// The scale bar's text, `50 m`, `1 km`.
    static func scaleBarText(metres: Double) -> String {
      metres >= 1000 ? "\(Markup.px(metres / 1000).rendered) km" : "\(Markup.px(metres).rendered) m"
    }

    /// The box the scale bar and its text cover, which labels keep clear of.
    static func scaleBarBox(metres: Double, pixels: Double, frame: PixelBox) -> PixelBox {
      let origin = scaleBarOrigin(frame: frame)
      // The text's baseline is the bar's foot; its box as the labels measure one.
      let text = LabelPlacement.textBox(scaleBarText(metres: metres), topLeft: PlanePoint(x: 0, y: 0))
      return PixelBox(minX: origin.x - 1, minY: origin.y - text.maxY, maxX: origin.x + pixels + 4 + text.maxX, maxY: origin.y + 2)
    }
  }

  /// At most this many regions get an inset, the first to have events.
  public static let maximumInsets = 6
  /// An inset is drawn only where it magnifies the region at least this much over the main map.
  static let insetMagnification = 2.0
  /// The frame is the region's extent times this (its larger side), so the region fills most of it.
  static let insetFrameFactor = 1.6
  /// The smallest frame, in metres: a region of a few metres is shown with its surroundings.
  static let insetSmallestFrame = 60.0
  /// An inset's side, at most, in pixels; the gutter between insets; the room for the caption below each.
  static let insetLargestSide = 320.0
  static let insetGutter = 16.0
  static let insetCaption = 30.0
  /// Markers within this many pixels of a group's first share its label.
  static let labelGroupRadius = 10.0

  /// The regions with events (an entry, exit or detection of the run), in
  /// the order of their first event.
  static func regionsWithEvents(_ input: ReportInput) -> [String] {
    var seen = Set<String>(), order: [String] = []
    for entry in input.run.timeline.entries where [.enter, .exit, .detected, .undetected].contains(entry.kind) {
      if seen.insert(entry.subject).inserted { order.append(entry.subject) }
    }
    return order
  }

  /// The side of each inset and how many go in a row, for `count` insets in a picture `width` wide.
  static func insetLayout(count: Int, width: Double) -> (side: Double, columns: Int) {
    let columns = max(1, min(count, Int((width - insetGutter) / (240 + insetGutter))))
    let side = min(insetLargestSide, (width - insetGutter * Double(columns + 1)) / Double(columns))
    return (side, columns)
  }
}

/// Draws one inset while the track streams: the frame's projection and
/// scale, the track near the frame drawn by `TrackBuilder` (so a phone lying
/// at home for days is a stop, not days of GPS error), then cut to the
/// frame, then the markers and labels.
///
/// Only fixes near the frame (within `reach` of its centre, half again its
/// span) are drawn, with the fix just before each visit and the one just
/// after, so the line runs out of the frame; a visit starts a new stretch
/// (`startsSegment`), so visits are never joined. What is held is what is drawn.
struct InsetBuilder {
  let regionID: String
  let shape: String
  let frame: PixelBox
  let projection: LocalProjection
  /// Pixels per metre.
  let scale: Double
  let ring: [PlanePoint]
  /// Metres from the frame's centre along either axis within which a fix is drawn.
  let reach: Double
  private var builder: TrackBuilder
  /// Whether the last fix was drawn.
  private var lastDrawn = false
  /// The last fix not drawn, to start the next visit from.
  private var waiting: (sample: TrackSample, point: PlanePoint)?

  /// The inset of the region with `vertices` (its outline in coordinates),
  /// in a square of `side` pixels at `origin` on the picture.
  init(regionID: String, shape: String, vertices: [Coordinate], origin: PlanePoint, side: Double, gapLimit: Int64) {
    var bounds = CoordinateBounds()
    for vertex in vertices { bounds.include(vertex) }
    let projection = LocalProjection(center: bounds.isEmpty ? Coordinate(latitude: 0, longitude: 0) : bounds.center)
    let span = Self.frameSpan(of: vertices)
    let scale = side / span
    let frame = PixelBox(minX: origin.x, minY: origin.y, maxX: origin.x + side, maxY: origin.y + side)
    self.projection = projection
    self.scale = scale
    self.frame = frame
    self.regionID = regionID
    self.shape = shape
    reach = span * 0.75
    builder = TrackBuilder(tolerance: 1 / scale, gapLimit: gapLimit)
    ring = vertices.map { Self.pixel(projection.project($0), scale: scale, frame: frame) }
  }

  /// How many metres an inset of the region with `vertices` spans: its
  /// larger side times `insetFrameFactor`, at least `insetSmallestFrame`.
  static func frameSpan(of vertices: [Coordinate]) -> Double {
    var bounds = CoordinateBounds()
    for vertex in vertices { bounds.include(vertex) }
    guard !bounds.isEmpty else { return MapDrawing.insetSmallestFrame }
    let projection = LocalProjection(center: bounds.center)
    let southWest = projection.project(Coordinate(latitude: bounds.south, longitude: bounds.west))
    let northEast = projection.project(Coordinate(latitude: bounds.north, longitude: bounds.east))
    let extent = max(northEast.x - southWest.x, northEast.y - southWest.y)
    return max(extent * MapDrawing.insetFrameFactor, MapDrawing.insetSmallestFrame)
  }

  /// A projected point (metres from the inset's centre) on the picture.
  static func pixel(_ point: PlanePoint, scale: Double, frame: PixelBox) -> PlanePoint {
    PlanePoint(x: (frame.minX + frame.maxX) / 2 + point.x * scale, y: (frame.minY + frame.maxY) / 2 - point.y * scale)
  }

  func pixel(_ coordinate: Coordinate) -> PlanePoint { Self.pixel(projection.project(coordinate), scale: scale, frame: frame) }

  /// A fix (a valid coordinate).
  mutating func add(_ sample: TrackSample) {
    let point = projection.project(sample.coordinate)
    if abs(point.x) <= reach && abs(point.y) <= reach {
      if !lastDrawn, let before = waiting {
        var start = before.sample
        start.startsSegment = true
        builder.add(start, at: before.point)
      }
      builder.add(sample, at: point)
      lastDrawn = true
      waiting = nil
    } else if lastDrawn {
      // The fix after a visit: the line leaves the frame.
      builder.add(sample, at: point)
      lastDrawn = false
    } else {
      waiting = (sample, point)
    }
  }

  /// The track drawn, in the picture's pixels, cut to the frame.
  mutating func finishTrack() -> [MapDrawing.TrackPiece] {
    builder.finish()
    var pieces: [MapDrawing.TrackPiece] = []
    for piece in builder.pieces {
      let points = piece.points.map { Self.pixel($0, scale: scale, frame: frame) }
      var run: [PlanePoint] = []
      func close() {
        if run.count >= 2 { pieces.append(MapDrawing.TrackPiece(band: piece.band, points: run)) }
        run = []
      }
      for (a, b) in zip(points, points.dropFirst()) {
        guard let (from, to) = Self.clip(a, b, to: frame) else {
          close()
          continue
        }
        if run.last != from {
          close()
          run.append(from)
        }
        run.append(to)
        if to != b { close() }
      }
      close()
    }
    return pieces
  }

  /// The part of the segment `a`–`b` inside `box` (Liang–Barsky), nil when none is.
  static func clip(_ a: PlanePoint, _ b: PlanePoint, to box: PixelBox) -> (PlanePoint, PlanePoint)? {
    let dx = b.x - a.x, dy = b.y - a.y
    var low = 0.0, high = 1.0
    for (p, q) in [(-dx, a.x - box.minX), (dx, box.maxX - a.x), (-dy, a.y - box.minY), (dy, box.maxY - a.y)] {
      if p == 0 {
        if q < 0 { return nil }
        continue
      }
      let t = q / p
      if p < 0 { low = max(low, t) } else { high = min(high, t) }
      if low > high { return nil }
    }
    let from = low == 0 ? a : PlanePoint(x: a.x + low * dx, y: a.y + low * dy)
    let to = high == 1 ? b : PlanePoint(x: a.x + high * dx, y: a.y + high * dy)
    return (from, to)
  }

  /// The inset, with the run's `events` at `positions` (coordinates; nil: unknown).
  mutating func finished(events: [MapDrawing.Event], positions: [Coordinate?]) -> MapDrawing.Inset {
    let track = finishTrack()
    var inside: [MapDrawing.Event] = [], at: [PlanePoint?] = []
    var outside = 0
    for (event, position) in zip(events, positions) {
      guard let position else { continue }
      let point = pixel(position)
      if frame.contains(PixelBox(around: point, halfSide: 0)) {
        inside.append(event)
        at.append(point)
      } else if event.subject == regionID, [.enter, .exit, .detected, .undetected].contains(event.kind) {
        outside += 1
      }
    }
    var unplaced: [MapDrawing.MarkerKind: Int] = [:]
    let markers = MapDrawing.markers(inside, positions: at, unplaced: &unplaced)
    let bar = MapDrawing.scaleBar(pixelsPerMetre: scale, width: frame.maxX - frame.minX)
    let labels = MapDrawing.placeLabels(
      regionName: regionID, regionCentre: ring.isEmpty ? nil : centre(of: ring), markers: markers, within: frame,
      alsoClearOf: [MapDrawing.Inset.scaleBarBox(metres: bar.metres, pixels: bar.pixels, frame: frame)])
    return MapDrawing.Inset(
      regionID: regionID, shape: shape, frame: frame, scale: scale, ring: ring, track: track, markers: markers,
      labels: labels.compactMap { $0 }, labelsLeftOut: labels.count { $0 == nil }, eventsOutside: outside, scaleBar: bar)
  }

  private func centre(of ring: [PlanePoint]) -> PlanePoint {
    var box = PixelBox(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
    for point in ring { box = PixelBox(minX: min(box.minX, point.x), minY: min(box.minY, point.y), maxX: max(box.maxX, point.x), maxY: max(box.maxY, point.y)) }
    return PlanePoint(x: (box.minX + box.maxX) / 2, y: (box.minY + box.maxY) / 2)
  }
}

extension MapDrawing {
  /// The labels of a map's markers, and first its region's name when given:
  /// markers within `labelGroupRadius` pixels of a group's first marker
  /// share one label, `07:38 enter, fired` (`07:38–07:52 …` when their
  /// events span minutes, `03-28 23:50–03-29 00:10 …` when they span days),
  /// placed by `LabelPlacement` clear of every marker, of `alsoClearOf`
  /// (an inset's scale bar) and of each other, inside `frame`.
  static func placeLabels(
    regionName: String?, regionCentre: PlanePoint?, markers: [Marker], within frame: PixelBox, alsoClearOf extra: [PixelBox] = []
  ) -> [PlacedLabel?] {
    var requests: [LabelPlacement.Request] = []
    if let regionName, let regionCentre { requests.append(.init(text: regionName, anchor: regionCentre, clearance: 0, mayCover: true)) }
    var groups: [(first: Int, members: [Int])] = []
    for (index, marker) in markers.enumerated() {
      if let group = groups.firstIndex(where: { TrackBuilder.distance(markers[$0.first].at, marker.at) <= labelGroupRadius }) {
        groups[group].members.append(index)
      } else {
        groups.append((index, [index]))
      }
    }
    for group in groups {
      let members = group.members.map { markers[$0] }
      let earliest = members.min { $0.firstAt < $1.firstAt }!, latest = members.max { $0.lastAt < $1.lastAt }!
      let first = earliest.firstTime, last = latest.lastTime
      let kinds = MarkerKind.allCases.filter { kind in members.contains { $0.kind == kind } }.map(\.rawValue).joined(separator: ", ")
      let when =
        earliest.firstDay != latest.lastDay
        ? "\(earliest.firstDay.dropFirst(5)) \(first)–\(latest.lastDay.dropFirst(5)) \(last)"
        : (first == last ? first : "\(first)–\(last)")
      let text = when + " " + kinds
      let anchor = markers[group.first].at
      let reach = members.map { TrackBuilder.distance($0.at, anchor) + $0.halfSide }.max() ?? 0
      requests.append(.init(text: text, anchor: anchor, clearance: reach))
    }
    return LabelPlacement.place(requests, obstacles: markers.map(\.box) + extra, within: frame)
  }
}
