import Foundation
import TrigsimCore
import TrigsimGEOS

/// Reads regions from a GeoJSON (RFC 7946) file, as `trigsim run --format
/// geojson` writes them, with every problem located at file:line:column
/// (`LocatedJSONReader` keeps the position of every value).
///
/// Rules:
/// - The document is a `FeatureCollection`; each of its `features` is a
///   `Feature` whose `properties` hold `id`, a non-empty string.
/// - Features whose `feature` property is `track`, `event` or `outline`
///   (what `trigsim run --format geojson` writes besides the regions: a
///   circle's outline is drawn for viewers, the circle is its `Point`) are
///   skipped, so a run's output reads back as its regions.
/// - A `Point` geometry is a circle at `[longitude, latitude]` (a third
///   number, the altitude, is ignored) with `properties.radius` in metres
///   (a number greater than 0; `defaultRadius` when absent).
/// - A `Polygon` geometry is a polygon region from its one ring (holes are
///   refused): at least four positions, the last equal to the first, in
///   either orientation.
/// - Other geometry types and `null` are refused; other properties and
///   foreign members (`bbox`, `name`, ...) are ignored.
///
/// Identifiers are checked for uniqueness by the scenario loader, across
/// the file and the scenario's other regions.
struct GeoJSONRegionReader {
  /// One region read, with where its feature and its id are.
  struct Region {
    var id: String
    var idLocation: InputLocation
    var shape: any RegionShape
    var origin: InputLocation
  }

  /// The file as named in locations.
  let file: String
  let defaultRadius: Double
  private(set) var diagnostics: [Diagnostic] = []

  init(file: String, defaultRadius: Double = 100) {
    self.file = file
    self.defaultRadius = defaultRadius
  }

  /// The regions of `data`, in the file's order; problems go to `diagnostics`.
  mutating func read(_ data: Data) -> [Region] {
    // The quoting policy (`ForeignFile`): a file that is not UTF-8, or
    // does not begin as a GeoJSON object ("type": "FeatureCollection" or
    // "Feature" among its first members), is named, never quoted.
    let notes = ["a regions file is RFC 7946 GeoJSON in UTF-8: {\"type\": \"FeatureCollection\", \"features\": [...]}"]
    guard let text = String(data: data, encoding: .utf8) else {
      diagnostics.append(ForeignFile.diagnostic(file: file, format: "GeoJSON", whyNot: "it is not UTF-8 text", notes: notes))
      return []
    }
    guard LocatedJSONReader.beginsAsObject(text, signature: "type", accepts: { $0 == "FeatureCollection" || $0 == "Feature" }) else {
      diagnostics.append(
        ForeignFile.diagnostic(
          file: file, format: "GeoJSON", whyNot: "it does not begin as an object with \"type\": \"FeatureCollection\"", notes: notes))
      return []
    }
    switch LocatedJSONReader.readDocument(text) {
    case .failure(let syntaxError):
      error(syntaxError.position, "invalid JSON: \(syntaxError.message)", notes: syntaxError.notes)
      return []
    case .success(let document):
      return regions(in: document)
    }
  }

  private mutating func regions(in document: JSONValue) -> [Region] {
    guard let top = members(document, what: "the GeoJSON document") else { return [] }
    guard let type = top["type"], case .string(let typeName) = type.content, typeName == "FeatureCollection" else {
      error(top["type"]?.position ?? document.position, "the GeoJSON document must be a FeatureCollection",
            notes: ["write { \"type\": \"FeatureCollection\", \"features\": [...] }"])
      return []
    }
    guard let featuresValue = top["features"] else {
      error(document.position, "the FeatureCollection has no 'features'", notes: ["list the regions as Point and Polygon features under 'features'"])
      return []
    }
    guard case .array(let features) = featuresValue.content else {
      error(featuresValue.position, "'features' must be an array, not \(featuresValue.described)")
      return []
    }
    return features.compactMap { region(in: $0) }
  }

  private mutating func region(in feature: JSONValue) -> Region? {
    guard let members = members(feature, what: "a feature") else { return nil }
    guard let type = members["type"], case .string("Feature") = type.content else {
      error(members["type"]?.position ?? feature.position, "each of 'features' must have \"type\": \"Feature\"")
      return nil
    }
    guard let propertiesValue = members["properties"], let properties = self.members(propertiesValue, what: "'properties'") else {
      if members["properties"] == nil {
        error(feature.position, "the feature has no 'properties'", notes: ["give it \"properties\": { \"id\": \"NAME\" }: every region needs an id"])
      }
      return nil
    }
    if case .string(let role) = properties["feature"]?.content, role == "track" || role == "event" || role == "outline" { return nil }
    guard let idValue = properties["id"] else {
      error(propertiesValue.position, "the feature's properties have no 'id'", notes: ["add \"id\": \"NAME\": every region needs a unique id"])
      return nil
    }
    guard case .string(let id) = idValue.content, !id.isEmpty else {
      error(idValue.position, "the region id must be a non-empty string, not \(idValue.described)")
      return nil
    }
    if let problem = TextLimit.problem(id, .identifier, what: "the region id") {
      error(idValue.position, problem.message, notes: problem.notes)
      return nil
    }
    guard let geometry = members["geometry"] else {
      error(feature.position, "region '\(Diagnostic.excerpt(id))' has no 'geometry'", notes: ["a region is a Point (a circle, with 'radius') or a Polygon"])
      return nil
    }
    guard let geometryMembers = self.members(geometry, what: "the geometry of region '\(Diagnostic.excerpt(id))'") else { return nil }
    let geometryType: String? = if case .string(let name) = geometryMembers["type"]?.content { name } else { nil }
    guard let coordinates = geometryMembers["coordinates"], geometryType == "Point" || geometryType == "Polygon" else {
      let found = geometryType.map { "'\(Diagnostic.excerpt($0))'" } ?? "no geometry type"
      error(geometryMembers["type"]?.position ?? geometry.position,
            geometryType == nil || geometryType == "Point" || geometryType == "Polygon"
              ? "the geometry of region '\(Diagnostic.excerpt(id))' needs 'type' and 'coordinates'"
              : "region '\(Diagnostic.excerpt(id))' has geometry type \(found); a region is a Point or a Polygon",
            notes: ["a Point with a 'radius' property (metres) is a circle; a Polygon's one ring is the region's edge"])
      return nil
    }
    let origin = location(feature.position)
    if geometryType == "Point" {
      guard let center = self.position(coordinates, what: "the point") else { return nil }
      var radius = defaultRadius
      if let radiusValue = properties["radius"] {
        guard let value = number(radiusValue, what: "the radius") else { return nil }
        if let problem = CircularRegion.radiusProblem(value) {
          error(radiusValue.position, problem.message, notes: problem.notes)
          return nil
        }
        radius = value
      }
      return Region(id: id, idLocation: location(idValue.position), shape: CircularRegion(center: center, radius: radius), origin: origin)
    }
    if let radiusValue = properties["radius"] {
      error(radiusValue.position, "'radius' applies to Point features (circles) only", notes: ["remove it from the Polygon's properties"])
      return nil
    }
    guard case .array(let rings) = coordinates.content else {
      error(coordinates.position, "a Polygon's coordinates must be an array of rings, not \(coordinates.described)")
      return nil
    }
    guard rings.count == 1 else {
      error(coordinates.position, "region '\(Diagnostic.excerpt(id))' has \(rings.count) rings; a region is one ring without holes",
            notes: ["keep the outer ring only (the first)"])
      return nil
    }
    guard case .array(let positionValues) = rings[0].content else {
      error(rings[0].position, "a Polygon's ring must be an array of [longitude, latitude] positions, not \(rings[0].described)")
      return nil
    }
    let positions = positionValues.compactMap { self.position($0, what: "a ring position") }
    guard positions.count == positionValues.count else { return nil }
    guard positions.count >= 4 else {
      error(rings[0].position, "a Polygon's ring needs at least 4 positions (3 corners and the first repeated), not \(positions.count)")
      return nil
    }
    guard positions.first == positions.last else {
      error(positionValues[positionValues.count - 1].position, "the ring of region '\(Diagnostic.excerpt(id))' is not closed: its last position differs from its first",
            notes: ["RFC 7946 rings end with their first position repeated"])
      return nil
    }
    do {
      return Region(id: id, idLocation: location(idValue.position), shape: try PolygonRegion.make(vertices: positions), origin: origin)
    } catch {
      self.error(rings[0].position, "invalid polygon for region '\(Diagnostic.excerpt(id))': \(error.description)",
                 notes: ["the ring must go around the edge without crossing itself"])
      return nil
    }
  }

  /// A JSON number's value under `DecimalNumber`'s rule (JSON's grammar is
  /// a subset of it); nil, with a diagnostic, for anything else or a number
  /// too large for a double (`1e400`).
  private mutating func number(_ value: JSONValue, what: String) -> Double? {
    guard case .number(let text) = value.content else {
      error(value.position, "\(what) must be a number, not \(value.described)")
      return nil
    }
    switch DecimalNumber.parse(text) {
    case .success(let number): return number
    case .failure(.tooLarge): error(value.position, "\(what) \(value.described) is too large for a number", notes: [DecimalNumber.tooLargeNote])
    case .failure(.notADecimal): error(value.position, "\(what) must be a number, not \(value.described)")
    }
    return nil
  }

  /// `[longitude, latitude]` or `[longitude, latitude, altitude]`, in range.
  private mutating func position(_ value: JSONValue, what: String) -> Coordinate? {
    guard case .array(let numbers) = value.content, numbers.count == 2 || numbers.count == 3 else {
      error(value.position, "\(what) must be [longitude, latitude], not \(value.described)")
      return nil
    }
    var parts: [Double] = []
    for coordinate in numbers.prefix(2) {
      guard let part = number(coordinate, what: "a coordinate") else { return nil }
      parts.append(part)
    }
    guard (-180...180).contains(parts[0]) else {
      error(numbers[0].position, "longitude \(parts[0]) is outside -180...180")
      return nil
    }
    guard (-90...90).contains(parts[1]) else {
      error(numbers[1].position, "latitude \(parts[1]) is outside -90...90", notes: ["GeoJSON positions are [longitude, latitude]; check the order"])
      return nil
    }
    return Coordinate(latitude: parts[1], longitude: parts[0])
  }

  /// The object's members by key (the first of a repeated key), or nil
  /// (with a diagnostic) when the value is not an object.
  private mutating func members(_ value: JSONValue, what: String) -> [String: JSONValue]? {
    guard case .object(let list) = value.content else {
      error(value.position, "\(what) must be an object, not \(value.described)")
      return nil
    }
    var members: [String: JSONValue] = [:]
    for member in list where members[member.key] == nil { members[member.key] = member.value }
    return members
  }

  private func location(_ position: JSONPosition) -> InputLocation {
    InputLocation(file: file, line: position.line, column: position.column)
  }

  private mutating func error(_ position: JSONPosition, _ message: String, notes: [String] = []) {
    diagnostics.append(Diagnostic(.error, at: location(position), message, notes: notes))
  }
}
