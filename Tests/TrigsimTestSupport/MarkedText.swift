import TrigsimCore

/// Text with markers (1️⃣, 2️⃣, … 9️⃣, 🔟, then ⑪ to ⑮) at the places a diagnostic must point to.
///
/// `MarkedText("region: 1️⃣ofice")` gives the text without markers and the
/// 1-based line and column (in Unicode scalars) of each marker, so nobody
/// types a column number by hand.
public struct MarkedText {
  public static let markers = ["1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣", "7️⃣", "8️⃣", "9️⃣", "🔟", "⑪", "⑫", "⑬", "⑭", "⑮"]

  public let text: String
  public let positions: [String: (line: Int, column: Int)]

  public init(_ marked: String) {
    var text = ""
    var positions: [String: (Int, Int)] = [:]
    var line = 1
    var column = 1
    var rest = Substring(marked)
    outer: while let character = rest.first {
      for marker in Self.markers where rest.hasPrefix(marker) {
        positions[marker] = (line, column)
        rest = rest.dropFirst(marker.count)
        continue outer
      }
      text.append(character)
      if character == "\n" {
        line += 1
        column = 1
      } else {
        column += character.unicodeScalars.count
      }
      rest = rest.dropFirst()
    }
    self.text = text
    self.positions = positions
  }

  /// `file:line:column` of a marker.
  public func location(_ marker: String, file: String) -> InputLocation {
    guard let position = positions[marker] else { fatalError("marker \(marker) not in text") }
    return InputLocation(file: file, line: position.line, column: position.column)
  }
}
