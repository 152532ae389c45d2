import Foundation
import TrigsimCore
import TrigsimTracks
import Yams

/// The `places:` and `regionSet:` sections (see the manual, "Many places:
/// the nearest N"), and a medicine's `location: { places: SET }`.
extension ScenarioReader {
  /// Most places in one set: each is a region the geometry follows, so the
  /// bound keeps a typo (a file of a million rows) from filling memory.
  static let placeLimit = 100_000

  /// Reads `places:`: set name → `{ file: CSV, radius: 100 }` or a list of
  /// `{ id, center, radius }`. Registers the set names (`placeSetIDs`) and
  /// the places' region ids (`regionIDs`), so that medicines and checks can
  /// name them.
  func readPlaceSets(_ node: Node) -> [PlaceSet] {
    guard let mapping = node.mapping else {
      document.error(node, "'places' must be a mapping of set names to places", notes: ["e.g. places: { pharmacies: { file: pharmacies.csv, radius: 100 } }"])
      return []
    }
    var sets: [PlaceSet] = []
    for (keyNode, value) in mapping {
      guard let name = keyNode.scalar?.string else {
        document.error(keyNode, "place set names must be plain names")
        continue
      }
      guard Self.isPlainIdentifier(name) else {
        document.error(keyNode, "place set name '\(Diagnostic.excerpt(name))' must be letters, digits, '-' and '_'",
                       notes: ["it names the places' regions ({set}/{place}) and the header line"])
        continue
      }
      if placeSetIDs.contains(name) {
        document.error(keyNode, "place set '\(Diagnostic.excerpt(name))' is declared twice", notes: ["place set names must be unique"])
        continue
      }
      placeSetIDs.append(name)
      let id = PlaceSetID(name)
      var set: PlaceSet?
      if value.sequence != nil {
        set = readInlinePlaces(value, set: id)
      } else if value.mapping != nil {
        set = readPlaceFile(value, set: id)
      } else {
        document.error(value, "place set '\(Diagnostic.excerpt(name))' must be a list of places or { file: CSV, radius: 100 }",
                       notes: ["e.g. '\(Diagnostic.excerpt(name)): [{ id: north, center: [55.68, 12.57] }]' or '\(Diagnostic.excerpt(name)): { file: pharmacies.csv, radius: 100 }'"])
      }
      guard var set else { continue }
      // An inline list whose every place had its own error is not also "empty".
      if set.places.isEmpty, value.sequence.map(\.isEmpty) ?? true {
        document.error(value, "place set '\(Diagnostic.excerpt(name))' has no places", notes: ["list at least one place"])
        continue
      }
      // Each place is a region `{set}/{place}`: it must not clash with a declared region.
      var clean: [Place] = []
      for place in set.places {
        let region = set.regionID(of: place.id).rawValue
        if regionIDs.contains(region) {
          let location = place.origin ?? document.location(value)
          document.error(at: location, "place '\(Diagnostic.excerpt(place.id.rawValue))' would be region '\(Diagnostic.excerpt(region))', which is already declared",
                         notes: ["rename the region under 'regions:' or the place"])
          continue
        }
        clean.append(place)
      }
      regionIDs += clean.map { set.regionID(of: $0.id).rawValue }
      set.places = clean
      sets.append(set)
    }
    return sets
  }

  /// Letters, digits, `-` and `_` (ASCII): safe in region and request identifiers.
  static func isPlainIdentifier(_ text: String) -> Bool {
    !text.isEmpty && text.utf8.allSatisfy { byte in
      (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
        || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
    }
  }

  /// `[ { id: north, center: [55.70, 12.55], radius: 150 }, ... ]`
  private func readInlinePlaces(_ node: Node, set: PlaceSetID) -> PlaceSet? {
    guard let list = document.sequence(node, what: "place set '\(set)'") else { return nil }
    var places: [Place] = []
    var seen: [String: InputLocation] = [:]
    for item in list {
      guard let fields = document.mapping(item, what: "a place", keys: ["id", "center", "radius"]) else { continue }
      guard let idNode = fields["id"] else {
        document.error(item, "a place needs an 'id'")
        continue
      }
      guard let id = document.string(idNode, what: "place id", limit: .identifierPart) else { continue }
      guard Self.isPlainIdentifier(id) else {
        document.error(idNode, "place id '\(Diagnostic.excerpt(id))' must be letters, digits, '-' and '_'",
                       notes: ["it becomes part of request identifiers such as medicine_1_location_\(Diagnostic.excerpt(id))"])
        continue
      }
      if let first = seen[id] {
        document.error(idNode, "place '\(Diagnostic.excerpt(id))' is listed twice in set '\(set)'", notes: ["first at line \(first.line)", "place ids must be unique within a set"])
        continue
      }
      seen[id] = document.location(idNode)
      guard let centerNode = fields["center"] else {
        document.error(item, "place '\(Diagnostic.excerpt(id))' needs a 'center' [latitude, longitude]")
        continue
      }
      guard let center = coordinate(centerNode, what: "center") else { continue }
      guard let radius = circleRadius(fields["radius"]) else { continue }
      places.append(Place(id: PlaceID(id), center: center, radius: radius, origin: document.location(item)))
    }
    if places.count > Self.placeLimit {
      document.error(node, "place set '\(set)' lists \(places.count) places, more than \(Self.placeLimit)")
      return nil
    }
    return PlaceSet(id: set, places: places)
  }

  /// `{ file: ../fixtures/places/city-pharmacies.csv, radius: 100 }`: a CSV
  /// file with a header naming `id`, `latitude` and `longitude` (and
  /// optionally `radius`, which then overrides the default for its row).
  private func readPlaceFile(_ node: Node, set: PlaceSetID) -> PlaceSet? {
    guard let fields = document.mapping(node, what: "place set '\(set)'", keys: ["file", "radius"]) else { return nil }
    guard let fileNode = fields["file"], let file = document.string(fileNode, what: "places file"), !file.isEmpty else {
      document.error(node, "missing 'file' in place set '\(set)'", notes: ["name a CSV file (id,latitude,longitude[,radius]), relative to the scenario, or list the places"])
      return nil
    }
    guard let radius = circleRadius(fields["radius"]) else { return nil }
    let path = file.hasPrefix("/") ? file : (baseDirectory as NSString).appendingPathComponent(file)
    // Checked before anything looks at the file, its existence included.
    guard allows(path, written: file, what: "places file", at: document.location(fileNode)) else { return nil }
    guard let data = namedFile(.places, path: path, written: file, at: fileNode) else { return nil }
    var reader = PlaceCSVReader(file: path, defaultRadius: radius, limit: Self.placeLimit)
    let places = reader.read(data)
    for diagnostic in reader.diagnostics { document.diagnostics.append(diagnostic) }
    guard reader.diagnostics.isEmpty else { return nil }
    return PlaceSet(id: set, places: places, source: file)
  }

  /// `regionSet: { nearest: 20, refresh: 500m, significantChange: true }`.
  func readRegionSetPolicy(_ node: Node, platform: PlatformSettings) -> RegionSetPolicy {
    var policy = RegionSetPolicy()
    guard let fields = document.mapping(node, what: "'regionSet'", keys: ["nearest", "refresh", "significantChange"]) else { return policy }
    if let node = fields["nearest"], let value = document.integer(node, what: "nearest", range: 1...100_000) { policy.nearest = value }
    if let node = fields["refresh"] {
      // A distance: `500m`, `1.5km`, or a plain number of metres.
      let text = document.string(node, what: "refresh") ?? ""
      if let metres = Self.metres(text), metres > 0 {
        policy.refresh = metres
      } else {
        document.error(node, "refresh must be a distance greater than zero such as 500m or 1.5km, not '\(Diagnostic.excerpt(text))'")
      }
    }
    if let node = fields["significantChange"], let value = document.bool(node, what: "significantChange") { policy.significantChange = value }
    return policy
  }

  /// `500m`, `1.5km` or `500` (metres); nil when not a finite distance.
  static func metres(_ text: String) -> Double? {
    let (number, scale): (Substring, Double) =
      text.hasSuffix("km") ? (text.dropLast(2), 1000) : text.hasSuffix("m") ? (text.dropLast(), 1) : (Substring(text), 1)
    guard let value = DecimalNumber.value(number), (value * scale).isFinite else { return nil }
    return value * scale
  }

  /// `location: { places: pharmacies, on: [enter] }`: a location reminder
  /// over a place set (the app monitors the nearest places of the set).
  func readPlaceSetLocation(_ node: Node, fields: MappingFields, onEntry: Bool, onExit: Bool) -> LocationReminder? {
    guard let placesNode = fields["places"], let name = document.string(placesNode, what: "places") else { return nil }
    for key in ["region", "center", "radius"] where fields[key] != nil {
      document.error(fields.keyNodes[key]!, "'\(key)' cannot go with 'places'", notes: ["a location reminder covers one region, one circle, or a place set"])
      return nil
    }
    guard placeSetIDs.contains(name) else {
      var notes: [String] = []
      if let suggestion = NameSuggestion.closest(to: name, among: placeSetIDs) { notes.append("did you mean '\(suggestion)'?") }
      notes.append(placeSetIDs.isEmpty ? "declare it under 'places:'" : "declared place sets: \(YAMLDocument.nameList(placeSetIDs))")
      document.error(placesNode, "unknown place set '\(Diagnostic.excerpt(name))'", notes: notes)
      return nil
    }
    if let repeatsNode = fields["repeats"], document.bool(repeatsNode, what: "repeats") == false {
      document.error(repeatsNode, "a location reminder over a place set repeats",
                     notes: ["the app re-registers the nearest places at every refresh; remove 'repeats: false'"])
      return nil
    }
    var reminder = LocationReminder(region: RegionID("\(name)/*"), onEntry: onEntry, onExit: onExit, repeats: true)
    reminder.places = PlaceSetID(name)
    return reminder
  }
}

/// Reads a places CSV: a header row naming the columns (`id`; `latitude` or
/// `lat`; `longitude`, `lon`, `lng` or `long`; optionally `radius`, matched
/// ignoring case, quotes, spaces and a UTF-8 BOM, as track CSVs are), then
/// one place per row. Every problem is a diagnostic at the file's
/// line:column (1-based, columns in Unicode scalars).
struct PlaceCSVReader {
  let file: String
  let defaultRadius: Double
  let limit: Int
  private(set) var diagnostics: [Diagnostic] = []

  init(file: String, defaultRadius: Double, limit: Int) {
    self.file = file
    self.defaultRadius = defaultRadius
    self.limit = limit
  }

  /// A field of a row, with the column it starts at.
  private struct Field {
    var text: String
    var column: Int
  }

  /// The header names each column may have (normalised).
  static let idNames = ["id", "name", "placeid"]
  static let latitudeNames = ["latitude", "lat"]
  static let longitudeNames = ["longitude", "lon", "lng", "long"]
  static let radiusNames = ["radius", "radiusm", "radiusmetres", "radiusmeters"]

  /// A file that is not UTF-8, or whose first line names none of the
  /// columns, is not a places CSV (`ForeignFile`): named, never quoted.
  private mutating func notAPlacesFile(_ whyNot: String) {
    diagnostics.append(
      ForeignFile.diagnostic(
        file: file, format: "a places CSV", whyNot: whyNot,
        notes: ["a places CSV is UTF-8 text whose first line names its columns: id,latitude,longitude[,radius]"]))
  }

  mutating func read(_ data: Data) -> [Place] {
    guard String(data: data, encoding: .utf8) != nil else {
      notAPlacesFile("it is not UTF-8 text")
      return []
    }
    // Lines as byte ranges (a CRLF's CR dropped, a UTF-8 BOM skipped): no Character-by-Character work.
    let bytes = [UInt8](data)
    var lines: [Range<Int>] = []
    var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    while start <= bytes.count {
      var end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
      let next = end + 1
      if end > start && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
      lines.append(start..<end)
      start = next
    }
    if lines.last?.isEmpty == true { lines.removeLast() }
    func text(_ range: Range<Int>) -> Substring { Substring(String(decoding: bytes[range], as: UTF8.self)) }
    guard let headerRange = lines.first, !headerRange.isEmpty else {
      error(line: 1, column: 1, "the places file is empty", notes: ["write a header row: id,latitude,longitude[,radius]"])
      return []
    }
    let known = Set(Self.idNames + Self.latitudeNames + Self.longitudeNames + Self.radiusNames)
    guard text(headerRange).split(separator: ",").contains(where: { known.contains(Self.normalized(String($0))) }) else {
      notAPlacesFile("its first line names none of the columns id, latitude, longitude and radius")
      return []
    }
    guard let header = fields(of: text(headerRange), line: 1) else { return [] }
    let names = header.map { Self.normalized($0.text) }
    func column(_ aliases: [String]) -> Int? { names.firstIndex { aliases.contains($0) } }
    let idColumn = column(Self.idNames)
    let latitudeColumn = column(Self.latitudeNames)
    let longitudeColumn = column(Self.longitudeNames)
    let radiusColumn = column(Self.radiusNames)
    let missing = [("id", idColumn), ("latitude", latitudeColumn), ("longitude", longitudeColumn)].filter { $0.1 == nil }.map(\.0)
    guard missing.isEmpty, let idColumn, let latitudeColumn, let longitudeColumn else {
      let shown = header.prefix(8).map { "'\(Diagnostic.excerpt($0.text))'" }.joined(separator: ", ")
      let more = header.count > 8 ? " and \(header.count - 8) more" : ""
      error(line: 1, column: 1, "the places file's header has no \(missing.joined(separator: ", ")) column",
            notes: ["columns: \(shown)\(more)", "the header names id, latitude (or lat), longitude (or lon, lng) and optionally radius"])
      return []
    }
    var places: [Place] = []
    var seen: [String: Int] = [:]
    places.reserveCapacity(lines.count)
    for (offset, range) in lines.enumerated().dropFirst() {
      let line = offset + 1
      if bytes[range].allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) { continue }
      guard let row = Self.plainFields(bytes[range]) ?? fields(of: text(range), line: line) else { continue }
      guard row.count == header.count else {
        error(line: line, column: 1, "row has \(row.count) fields, the header \(header.count)", notes: ["each row is id,latitude,longitude as the header says"])
        continue
      }
      let idField = row[idColumn]
      let id = idField.text.trimmedOfSpaces
      guard ScenarioReader.isPlainIdentifier(id) else {
        error(line: line, column: idField.column, "place id '\(Diagnostic.excerpt(id))' must be letters, digits, '-' and '_'",
              notes: ["it becomes part of request identifiers such as medicine_1_location_p001"])
        continue
      }
      if let problem = TextLimit.problem(id, .identifierPart, what: "place id") {
        error(line: line, column: idField.column, problem.message, notes: problem.notes)
        continue
      }
      if let first = seen[id] {
        error(line: line, column: idField.column, "place '\(Diagnostic.excerpt(id))' is listed twice", notes: ["first at line \(first)", "place ids must be unique within a set"])
        continue
      }
      guard let latitude = number(row[latitudeColumn], line: line, what: "latitude", range: -90...90),
        let longitude = number(row[longitudeColumn], line: line, what: "longitude", range: -180...180)
      else { continue }
      var radius = defaultRadius
      if let radiusColumn, !row[radiusColumn].text.trimmedOfSpaces.isEmpty {
        guard let value = number(row[radiusColumn], line: line, what: "radius", range: nil) else { continue }
        if let problem = CircularRegion.radiusProblem(value) {
          error(line: line, column: row[radiusColumn].column, problem.message, notes: problem.notes)
          continue
        }
        radius = value
      }
      seen[id] = line
      places.append(Place(id: PlaceID(id), center: Coordinate(latitude: latitude, longitude: longitude), radius: radius,
                          origin: InputLocation(file: file, line: line, column: 1)))
      if places.count > limit {
        error(line: line, column: 1, "the places file has more than \(limit) places", notes: ["split it into several place sets"])
        return []
      }
    }
    return places
  }

  /// The fields of a plain line (ASCII, no quote) split at commas straight
  /// from the bytes; nil for any other line (the general path reads it).
  private static func plainFields(_ line: ArraySlice<UInt8>) -> [Field]? {
    var result: [Field] = []
    var fieldStart = line.startIndex
    for index in line.indices {
      let byte = line[index]
      if byte >= 0x80 || byte == UInt8(ascii: "\"") { return nil }
      if byte == UInt8(ascii: ",") {
        result.append(Field(text: String(decoding: line[fieldStart..<index], as: UTF8.self), column: fieldStart - line.startIndex + 1))
        fieldStart = index + 1
      }
    }
    result.append(Field(text: String(decoding: line[fieldStart...], as: UTF8.self), column: fieldStart - line.startIndex + 1))
    return result
  }

  /// The fields of one line (double-quoted fields may hold commas; a quote
  /// inside one is doubled); nil after reporting a malformed line.
  private mutating func fields(of line: Substring, line number: Int) -> [Field]? {
    var result: [Field] = []
    var current = ""
    var column = 1
    var start = 1
    var quoted = false
    var wasQuoted = false
    var scalars = Array(line.unicodeScalars)[...]
    while let scalar = scalars.popFirst() {
      if quoted {
        if scalar == "\"" {
          if scalars.first == "\"" {
            current.unicodeScalars.append("\"")
            scalars.removeFirst()
            column += 1
          } else {
            quoted = false
          }
        } else {
          current.unicodeScalars.append(scalar)
        }
      } else if scalar == "," {
        result.append(Field(text: current, column: start))
        current = ""
        wasQuoted = false
        start = column + 1
      } else if scalar == "\"" && current.trimmedOfSpaces.isEmpty && !wasQuoted {
        quoted = true
        wasQuoted = true
        current = ""
      } else {
        current.unicodeScalars.append(scalar)
      }
      column += 1
    }
    if quoted {
      error(line: number, column: start, "a quoted field is not closed on its line", notes: ["places are one per line; close the quote"])
      return nil
    }
    result.append(Field(text: current, column: start))
    return result
  }

  /// The field's number under `DecimalNumber`'s rule, within `range` when one is given.
  private mutating func number(_ field: Field, line: Int, what: String, range: ClosedRange<Double>?) -> Double? {
    let text = field.text.trimmedOfSpaces
    let value: Double
    switch DecimalNumber.parse(text) {
    case .success(let parsed):
      value = parsed
    case .failure(.notADecimal):
      error(line: line, column: field.column, "\(what) must be a number, not '\(Diagnostic.excerpt(text))'", notes: ["e.g. 55.676 (digits, '.' for decimals, no unit)"])
      return nil
    case .failure(.tooLarge):
      error(line: line, column: field.column, "\(what) '\(Diagnostic.excerpt(text))' is too large for a number", notes: [DecimalNumber.tooLargeNote])
      return nil
    }
    guard let range else { return value }
    guard range.contains(value) else {
      let note = what == "radius" ? [] : ["coordinates are latitude, longitude in degrees; check the columns"]
      error(line: line, column: field.column, "\(what) \(text) is outside \(Self.describe(range))", notes: note)
      return nil
    }
    return value
  }

  private static func describe(_ range: ClosedRange<Double>) -> String {
    func show(_ value: Double) -> String { value == value.rounded() ? String(Int64(value)) : String(value) }
    return "\(show(range.lowerBound))...\(show(range.upperBound))"
  }

  /// A header name as matched: lowercased without quotes, spaces, `_`, `-` or a leading `#`.
  private static func normalized(_ name: String) -> String {
    var text = name.lowercased().filter { $0 != "\"" && $0 != " " && $0 != "_" && $0 != "-" }
    if text.hasPrefix("#") { text.removeFirst() }
    return text
  }

  private mutating func error(line: Int, column: Int, _ message: String, notes: [String] = []) {
    diagnostics.append(Diagnostic(.error, at: InputLocation(file: file, line: line, column: column), message, notes: notes))
  }
}

extension String {
  /// Without leading and trailing spaces and tabs (what a CSV field may be padded with).
  fileprivate var trimmedOfSpaces: String {
    let scalars = unicodeScalars
    guard let first = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
    let last = scalars.lastIndex(where: { $0 != " " && $0 != "\t" })!
    if first == scalars.startIndex && last == scalars.index(before: scalars.endIndex) { return self }
    return String(scalars[first...last])
  }
}
