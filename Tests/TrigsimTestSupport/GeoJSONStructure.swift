import Foundation

/// Checks a document against RFC 7946's structure for what trigsim writes:
/// a `FeatureCollection` of `Feature`s, each with `properties` (an object) and
/// a `geometry` that is null, a `Point`, a `LineString` or a `Polygon`;
/// positions of two numbers `[longitude, latitude]` in range; a LineString of
/// at least two positions; Polygon rings of at least four positions, closed
/// (last = first), the exterior ring counterclockwise (§3.1.6).
public enum GeoJSONStructure {
  public struct Violation: Error, CustomStringConvertible {
    public var description: String
  }

  /// Throws the first violation found.
  public static func check(_ document: String) throws {
    guard let top = try JSONSerialization.jsonObject(with: Data(document.utf8)) as? [String: Any] else { throw fail("the document is not an object") }
    guard top["type"] as? String == "FeatureCollection" else { throw fail("type is not FeatureCollection") }
    guard let features = top["features"] as? [Any] else { throw fail("features is not an array") }
    for (index, item) in features.enumerated() {
      guard let feature = item as? [String: Any], feature["type"] as? String == "Feature" else { throw fail("feature \(index) is not a Feature") }
      guard feature["properties"] is [String: Any] else { throw fail("feature \(index) has no properties object") }
      if feature["geometry"] is NSNull { continue }
      guard let geometry = feature["geometry"] as? [String: Any], let type = geometry["type"] as? String else {
        throw fail("feature \(index) has no geometry type")
      }
      switch type {
      case "Point":
        _ = try position(geometry["coordinates"], in: index)
      case "LineString":
        guard let line = geometry["coordinates"] as? [Any], line.count >= 2 else { throw fail("feature \(index): a LineString needs 2 positions") }
        for item in line { _ = try position(item, in: index) }
      case "Polygon":
        guard let rings = geometry["coordinates"] as? [Any], !rings.isEmpty else { throw fail("feature \(index): a Polygon needs a ring") }
        for (ringIndex, ringItem) in rings.enumerated() {
          guard let ring = ringItem as? [Any], ring.count >= 4 else { throw fail("feature \(index): a ring needs 4 positions") }
          let positions = try ring.map { try position($0, in: index) }
          guard positions.first! == positions.last! else { throw fail("feature \(index): ring \(ringIndex) is not closed") }
          var twiceArea = 0.0
          for (a, b) in zip(positions, positions.dropFirst()) { twiceArea += a[0] * b[1] - b[0] * a[1] }
          guard ringIndex > 0 || twiceArea > 0 else { throw fail("feature \(index): the exterior ring is not counterclockwise") }
        }
      default:
        throw fail("feature \(index) has geometry type \(type)")
      }
    }
  }

  /// Every position of every geometry, `[longitude, latitude]`, in document order.
  public static func positions(_ document: String) throws -> [[Double]] {
    let top = try JSONSerialization.jsonObject(with: Data(document.utf8)) as? [String: Any]
    var found: [[Double]] = []
    func collect(_ value: Any?) {
      if let numbers = value as? [NSNumber], numbers.count == 2, !(value is [[Any]]) { found.append(numbers.map(\.doubleValue)) } else if let list = value as? [Any] {
        for item in list { collect(item) }
      }
    }
    for case let feature as [String: Any] in top?["features"] as? [Any] ?? [] {
      collect((feature["geometry"] as? [String: Any])?["coordinates"])
    }
    return found
  }

  private static func position(_ value: Any?, in index: Int) throws -> [Double] {
    guard let numbers = value as? [NSNumber], numbers.count == 2 else { throw fail("feature \(index): a position is not two numbers") }
    let position = numbers.map(\.doubleValue)
    guard (-180...180).contains(position[0]), (-90...90).contains(position[1]) else { throw fail("feature \(index): position \(position) out of range") }
    return position
  }

  private static func fail(_ description: String) -> Violation { Violation(description: description) }
}
