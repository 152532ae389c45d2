import Foundation

/// A region shape whose boundary is a ring of vertices (a polygon region),
/// so that writers can draw it. The ring closes implicitly: the last vertex
/// is not a repeat of the first.
public protocol VertexRingShape: RegionShape {
  /// The ring's vertices, in order around the edge.
  var vertices: [Coordinate] { get }
}

/// The GeoJSON (RFC 7946) rendering of a run: one `FeatureCollection` whose
/// features are, in this order,
///
/// 1. the regions, in the scenario's order: a circle as a `Point` at its
///    centre with `radius` in metres, followed by its outline (below); a
///    polygon as a `Polygon` whose single ring is closed (last position =
///    first) and counterclockwise (the right-hand rule, RFC 7946 §3.1.6);
///    properties `feature: "region"`, `id`, and `radius` for a circle. A
///    circle's outline is a `Polygon` of `circleOutlineVertices` vertices
///    on the circle, at equal azimuths from north (`Geodesic.destination`
///    from the centre at the radius), counterclockwise and closed, with
///    properties `feature: "outline"`, `id` and `radius`; a circle whose
///    outline would cross the 180th meridian or go around a pole has none
///    (its ring would not be a valid RFC 7946 polygon without cutting);
/// 2. the track, one `LineString` per recorded segment (a segment of one fix
///    is a `Point`), properties `feature: "track"`, `segment` (from 1),
///    `fixes`, `first` and `last` (UTC instants of its first and last fix);
/// 3. the located events (`isLocated`), in timeline order, each a `Point` at
///    the position of the true path at the entry's instant (`DevicePath`
///    between the fixes around it; the last fix of a segment until the next
///    segment's first fix; the last fix after the track ends), or with
///    `geometry: null` when the instant is before the first fix (the position
///    is unknown then) or there is no track; properties `feature: "event"`,
///    `kind`, `subject`, `instant` (device-local), `utc`, then the entry's
///    fields in their timeline order (a field named like one of these is
///    written as `field:NAME`), each typed as the JSON output types it
///    (`TimelineFieldType`: `visit` a number, `repeats` a boolean, ...).
///
/// Positions are `[longitude, latitude]` (RFC 7946 §3.1.1). Numbers are
/// Swift's shortest round-trip decimal form of the `Double` (so a region read
/// back is the same region bit for bit); interpolated event positions and
/// outline vertices are first rounded to 7 decimal places (about 1 cm). Keys
/// keep a fixed order and one feature takes one line, so identical runs give
/// identical bytes.
public enum GeoJSONEncoding {
  /// What comes before the first feature.
  public static let opening = "{\"type\": \"FeatureCollection\", \"features\": ["

  /// The separator before feature number `index` (from 0).
  public static func separator(before index: Int) -> String { index == 0 ? "\n" : ",\n" }

  /// What comes after the last feature.
  public static let closing = "\n]}\n"

  /// The number of vertices of a circle's outline: 64, so that each edge
  /// is 1/64 of the circumference and lies within 0.12 % of the radius
  /// (1 − cos(π/64)) of the circle, 12 cm for a 100 m circle.
  public static let circleOutlineVertices = 64

  /// Whether the entry happened at a place: a region entry or exit
  /// (`enter`, `exit`), the device's view of one (`detected`, and
  /// `undetected` for one it missed), or a delivery of a location-triggered
  /// request (`fired` with a `trigger` of `region …`).
  public static func isLocated(_ entry: TimelineEntry) -> Bool {
    switch entry.kind {
    case .enter, .exit, .detected, .undetected: true
    case .fired: entry[field: "trigger"]?.hasPrefix("region ") == true
    default: false
    }
  }

  /// The region's features, each on its own (no separator, no line end):
  /// the region, and for a circle its outline when it has one.
  public static func features(region: MonitoredRegion) -> [String] {
    guard let circle = region.shape as? CircularRegion, let outline = outline(of: circle) else { return [feature(region: region)] }
    let ring = outline.map(position).joined(separator: ", ")
    return [
      feature(region: region),
      "{\"type\": \"Feature\", \"geometry\": {\"type\": \"Polygon\", \"coordinates\": [[\(ring)]]}, "
        + "\"properties\": {\"feature\": \"outline\", \"id\": \(JSONText.string(region.id.rawValue)), \"radius\": \(number(circle.radius))}}",
    ]
  }

  /// The circle's outline ring, closed (`circleOutlineVertices` + 1
  /// positions) and counterclockwise: the points at `radius` metres from
  /// the centre at azimuths 0°, −360°/n, −2·360°/n, … (north, then west),
  /// rounded as event positions are; nil when two neighbouring vertices lie
  /// more than 180° of longitude apart (the ring crosses the 180th meridian
  /// or goes around a pole).
  static func outline(of circle: CircularRegion) -> [Coordinate]? {
    let count = circleOutlineVertices
    var ring = (0..<count).map { index in
      let azimuth = Double((count - index) % count) * 360 / Double(count)
      return rounded(Geodesic.destination(from: circle.center, azimuth: azimuth, distance: circle.radius))
    }
    ring.append(ring[0])
    for (a, b) in zip(ring, ring.dropFirst()) where abs(a.longitude - b.longitude) > 180 { return nil }
    return ring
  }

  /// The region as one feature (no separator, no line end); a circle's
  /// outline is a feature of its own (`features(region:)`).
  public static func feature(region: MonitoredRegion) -> String {
    let id = JSONText.string(region.id.rawValue)
    if let circle = region.shape as? CircularRegion {
      return "{\"type\": \"Feature\", \"geometry\": {\"type\": \"Point\", \"coordinates\": \(position(circle.center))}, "
        + "\"properties\": {\"feature\": \"region\", \"id\": \(id), \"radius\": \(number(circle.radius))}}"
    }
    if let ring = region.shape as? VertexRingShape {
      let positions = counterclockwise(ring.vertices).map(position)
      let closed = positions + (positions.first.map { [$0] } ?? [])
      return "{\"type\": \"Feature\", \"geometry\": {\"type\": \"Polygon\", \"coordinates\": [[\(closed.joined(separator: ", "))]]}, "
        + "\"properties\": {\"feature\": \"region\", \"id\": \(id)}}"
    }
    // A shape trigsim cannot draw: listed, without a place.
    return "{\"type\": \"Feature\", \"geometry\": null, \"properties\": {\"feature\": \"region\", \"id\": \(id), "
      + "\"shape\": \(JSONText.string(region.shape.summary))}}"
  }

  /// The start of a track segment's feature, up to its first position.
  static func trackOpening() -> String { "{\"type\": \"Feature\", \"geometry\": {\"type\": \"LineString\", \"coordinates\": [" }

  /// The end of a track segment's feature, after its last position.
  static func trackClosing(segment: Int, fixes: Int, first: SimulationInstant, last: SimulationInstant) -> String {
    "]}, \"properties\": {\"feature\": \"track\", \"segment\": \(segment), \"fixes\": \(fixes), "
      + "\"first\": \(JSONText.string(first.description)), \"last\": \(JSONText.string(last.description))}}"
  }

  /// A segment of a single fix: a `Point` feature.
  static func singleFixSegment(_ sample: TrackSample, segment: Int) -> String {
    "{\"type\": \"Feature\", \"geometry\": {\"type\": \"Point\", \"coordinates\": \(position(sample.coordinate))}, "
      + "\"properties\": {\"feature\": \"track\", \"segment\": \(segment), \"fixes\": 1, "
      + "\"first\": \(JSONText.string(sample.instant.description)), \"last\": \(JSONText.string(sample.instant.description))}}"
  }

  /// The located entry as one feature at `coordinate` (nil: `geometry: null`).
  public static func feature(event entry: TimelineEntry, at coordinate: Coordinate?) -> String {
    let geometry = coordinate.map { "{\"type\": \"Point\", \"coordinates\": \(position(rounded($0)))}" } ?? "null"
    let fixedKeys: Set = ["feature", "kind", "subject", "instant", "utc"]
    var properties = "\"feature\": \"event\", \"kind\": \(JSONText.string(entry.kind.rawValue)), "
      + "\"subject\": \(JSONText.string(entry.subject)), \"instant\": \(JSONText.string(entry.localInstant)), "
      + "\"utc\": \(JSONText.string(entry.utcInstant))"
    for field in entry.fields {
      let key = fixedKeys.contains(field.key) ? "field:" + field.key : field.key
      let value = TimelineFieldType.of(kind: entry.kind, key: field.key)?.json(field.value) ?? JSONText.string(field.value)
      properties += ", \(JSONText.string(key)): \(value)"
    }
    return "{\"type\": \"Feature\", \"geometry\": \(geometry), \"properties\": {\(properties)}}"
  }

  /// `[longitude, latitude]`.
  static func position(_ coordinate: Coordinate) -> String {
    "[\(number(coordinate.longitude)), \(number(coordinate.latitude))]"
  }

  /// The shortest decimal that reads back as the same `Double` (`12.5`,
  /// `100.0`, `1e-05`): valid JSON for every finite value.
  static func number(_ value: Double) -> String { "\(value)" }

  /// The coordinate rounded to 7 decimal places (a negative zero written as `0.0`).
  static func rounded(_ coordinate: Coordinate) -> Coordinate {
    func round(_ value: Double) -> Double { (value * 1e7).rounded() / 1e7 + 0.0 }
    return Coordinate(latitude: round(coordinate.latitude), longitude: round(coordinate.longitude))
  }

  /// The ring in counterclockwise order in (longitude, latitude): reversed
  /// when its signed (shoelace) area is negative.
  static func counterclockwise(_ ring: [Coordinate]) -> [Coordinate] {
    var twiceArea = 0.0
    for (index, a) in ring.enumerated() {
      let b = ring[(index + 1) % ring.count]
      twiceArea += a.longitude * b.latitude - b.longitude * a.latitude
    }
    return twiceArea < 0 ? ring.reversed() : ring
  }
}

/// A timeline sink for GeoJSON output: it keeps the located entries
/// (`GeoJSONEncoding.isLocated`) of a run, and once the run is over writes
/// the document with the regions, the track and those entries.
///
/// Memory: the located entries are held until the end (they need the track
/// to be placed, and are bounded by the run's entry limit); the track is
/// read once more from its source and streamed, never held whole.
public struct GeoJSONCollector: TimelineEntrySink {
  /// The located entries appended so far, in timeline order.
  public private(set) var events: [TimelineEntry] = []

  public init() {}

  public mutating func append(_ entry: TimelineEntry) {
    if GeoJSONEncoding.isLocated(entry) { events.append(entry) }
  }

  /// Writes the whole document, piece by piece, to `write`: the regions,
  /// the track read from `track` (none when nil), the located entries.
  ///
  /// - Throws: what `track` or `write` throws.
  public func writeDocument(regions: [MonitoredRegion], track: (any TrackSource)?, to write: (String) throws -> Void) throws {
    try write(GeoJSONEncoding.opening)
    var featureCount = 0
    func feature(_ text: String) throws {
      try write(GeoJSONEncoding.separator(before: featureCount) + text)
      featureCount += 1
    }
    for region in regions {
      for text in GeoJSONEncoding.features(region: region) { try feature(text) }
    }
    var placement = TrackPlacement(instants: events.map(\.instant))
    if let track {
      var segment = 0
      var first: TrackSample?, previous: TrackSample?
      var fixes = 0
      func closeSegment() throws {
        guard let first, let previous else { return }
        if fixes == 1 {
          try feature(GeoJSONEncoding.singleFixSegment(first, segment: segment))
        } else {
          try write(GeoJSONEncoding.trackClosing(segment: segment, fixes: fixes, first: first.instant, last: previous.instant))
        }
      }
      var pendingFirst: TrackSample?
      try track.readSamples { sample in
        placement.consume(sample)
        if previous == nil || sample.startsSegment {
          try closeSegment()
          segment += 1
          first = sample
          fixes = 0
          pendingFirst = sample
        } else {
          if let start = pendingFirst {
            try write(GeoJSONEncoding.separator(before: featureCount) + GeoJSONEncoding.trackOpening() + GeoJSONEncoding.position(start.coordinate))
            featureCount += 1
            pendingFirst = nil
          }
          try write(", " + GeoJSONEncoding.position(sample.coordinate))
        }
        fixes += 1
        previous = sample
        return true
      }
      try closeSegment()
      placement.finish()
    }
    let positions = placement.positions
    for (index, entry) in events.enumerated() { try feature(GeoJSONEncoding.feature(event: entry, at: positions[index])) }
    try write(GeoJSONEncoding.closing)
  }

  /// The whole document as one string.
  public func document(regions: [MonitoredRegion], track: (any TrackSource)?) throws -> String {
    var text = ""
    try writeDocument(regions: regions, track: track) { text += $0 }
    return text
  }
}
