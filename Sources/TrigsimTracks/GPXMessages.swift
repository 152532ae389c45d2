import CLibXML2
import Foundation
import TrigsimCore

/// The GPX reader's messages (lower case, no trailing period, user values in
/// single quotes).
///
/// Text from the file is never echoed beyond a short quote: a value is quoted
/// by `Diagnostic.quote`'s rule (40 scalars, then "…", control characters
/// escaped), and libxml2's own message, which may hold names from the file,
/// is cut to `libxml2MessageLimit` characters.
enum GPXMessages {  /// The most characters of libxml2's own message quoted for an error this
  /// file does not name in words (after its names are cut to `Diagnostic.quoteLimit`).
  static let libxml2MessageLimit = 120

  static let noPoints = "track has no points: the file has no trkpt, rtept or wpt elements"
  static let emptyFile = "track has no points: the file is empty"
  static let badTimeNote = "GPX times are ISO 8601, e.g. '2026-03-28T07:00:00Z' or '2026-03-28T08:00:00.250+01:00'"
  static let pauseMarkerNote =
    "legacy OpenTracks exports mark pauses with lat=\"100\" (pause) and lat=\"200\" (resume); these are not positions"

  static func badTime(_ quoted: String) -> String { "cannot read time '\(quoted)'" }

  static func elementName(_ kind: GPXPoint.Kind) -> String {
    switch kind {
    case .track: return "trkpt"
    case .route: return "rtept"
    case .waypoint: return "wpt"
    }
  }

  static func missingAttribute(_ name: String, _ kind: GPXPoint.Kind) -> String {
    "\(elementName(kind)) has no '\(name)' attribute"
  }

  static func removePointNote(_ kind: GPXPoint.Kind) -> String {
    "remove the \(elementName(kind)) element or correct its coordinates"
  }

  // MARK: Quoting

  /// `bytes` (UTF-8 from libxml2) without surrounding white space, cut and
  /// escaped by the rule every reader quotes by (`Diagnostic.excerpt`);
  /// `cut` says the bytes are themselves only the start of a longer text, so
  /// the quote ends in "…" either way.
  static func quote(_ bytes: UnsafeBufferPointer<UInt8>, cut: Bool = false) -> String {
    var shown = trimmedSpaces(bytes)
    if cut { shown = withoutBrokenLastCharacter(shown) }
    let text = Diagnostic.excerpt(utf8: shown)
    return cut && !text.hasSuffix("…") ? text + "…" : text
  }

  /// `bytes` without a last UTF-8 sequence that the cut left incomplete.
  private static func withoutBrokenLastCharacter(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
    var start = bytes.count
    // Back over at most three continuation bytes to the sequence's first byte.
    while start > 0 && bytes.count - start < 3 && bytes[start - 1] & 0xC0 == 0x80 { start -= 1 }
    guard start > 0 else { return bytes }
    let lead = bytes[start - 1]
    let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
    return bytes.count - (start - 1) < length ? UnsafeBufferPointer(rebasing: bytes[..<(start - 1)]) : bytes
  }

  /// `text` with line breaks and tabs as spaces, other control characters as
  /// U+FFFD, and cut to `limit` characters with "…".
  static func shortened(_ text: String, limit: Int, cut: Bool = false) -> String {
    var result = ""
    var count = 0
    for character in text {
      if count == limit { return result + "…" }
      if character.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
        result += character.isWhitespace ? " " : "\u{FFFD}"
      } else {
        result.append(character)
      }
      count += 1
    }
    return cut ? result + "…" : result
  }

  // MARK: XML errors

  /// The message and notes for a problem that stopped the XML parser.
  static func describe(_ problem: XMLProblem) -> (message: String, notes: [String]) {
    switch problem {
    case .entityExpansion(let limit):
      return (
        "entity references in the file expand to more than \(limit) bytes of text (the limit is 1 MiB plus 4 bytes per byte of the file read so far)",
        ["write the text out instead of declaring entities in <!DOCTYPE …>; a file that expands this far is an attack (a 'billion laughs' document) or a mistake"]
      )
    case .libxml2(let error):
      let (words, notes) = libxml2Words(error)
      return ("the file is not well-formed XML: \(words) (libxml2 error \(error.code))", notes)
    }
  }

  /// libxml2's error in words: the common codes are named here (libxml2's own
  /// messages name the parser's internals, "StartTag: invalid element name"),
  /// the rest quote libxml2's message, each name in it cut to `Diagnostic.quoteLimit`.
  static func libxml2Words(_ error: LibXML2Error) -> (String, [String]) {
    let encodingNote =
      "convert the file to UTF-8, or declare its encoding in its first line, e.g. <?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>"
    if error.domain == Int32(XML_FROM_I18N.rawValue) {
      return ("bytes that are not valid in the file's declared encoding", [encodingNote])
    }
    switch Int(error.code) {
    case 1 where error.message.contains("Huge input lookup"):
      return ("one tag, comment, CDATA section or processing instruction is longer than libxml2's limit of 10,000,000 bytes", [])
    case 1 where error.message.contains("Excessive depth"):
      return ("elements are nested deeper than libxml2's limit", [])
    case 2: return ("out of memory", [])
    case 4: return ("no root element: the file is empty or is not XML", ["a GPX file starts with '<?xml' or '<gpx'"])
    case 5: return ("extra content at the end of the document, or the document ends early", [])
    case 6, 7, 8: return ("invalid character reference", [])
    case 9 where error.message.hasPrefix("Input is not proper UTF-8"):
      return ("bytes that are not UTF-8, and the file declares no other encoding", [encodingNote])
    case 9: return ("invalid character", [])
    case 23: return ("entity reference without its closing ';'", [])
    case 26, 27: return ("undeclared entity", [])
    case 29: return ("an attribute refers to an external entity (external entities are never loaded)", [])
    case 31, 32:
      return ("the file's encoding (declared, or told by its first bytes) is unknown or not supported", [encodingNote])
    case 38: return ("'<' in an attribute value", [])
    case 39: return ("attribute value without quotes", [])
    case 40: return ("unterminated attribute value", [])
    case 41: return ("attribute without a value", [])
    case 42: return ("attribute given twice", [])
    case 45: return ("unterminated comment", [])
    case 47: return ("unterminated processing instruction", [])
    case 61: return ("unterminated <!DOCTYPE …>", [])
    case 63: return ("unterminated CDATA section", [])
    case 64: return ("an XML declaration ('<?xml …?>') that is not at the very start of the file", [])
    case 65: return ("space required between attributes", [])
    case 68: return ("a missing or invalid element or attribute name", [])
    case 73: return ("'>' expected", [])
    case 76: return ("closing tag does not match the opening tag", [])
    case 77: return ("premature end of data in tag", [])
    case 81: return ("bytes that are not valid in the file's encoding", [encodingNote])
    case 86: return ("extra content at the end of the document", [])
    case 89: return ("an entity that refers to itself, or entity references that expand too far", [])
    case 110: return ("a name longer than libxml2's limit of 50,000 characters", [])
    default: return (error.message.isEmpty ? "libxml2 gave no message" : error.message, [])
    }
  }
}

/// What stopped the XML parser.
enum XMLProblem {
  /// An error libxml2 reported.
  case libxml2(LibXML2Error)
  /// Entity references expanded past `limit` bytes of text (checked by the
  /// reader: libxml2 2.9 without a tree re-expands an entity at every
  /// reference without counting the repeats, so one large entity referenced
  /// many times would run for minutes).
  case entityExpansion(limit: Int)
}

/// The parts of a libxml2 `xmlError` a diagnostic uses, copied out of it.
struct LibXML2Error {
  var code: Int32
  var domain: Int32
  /// libxml2's message: its first line, each name from the file in it cut
  /// to `Diagnostic.quoteLimit` characters, the whole to `libxml2MessageLimit`.
  var message: String

  init(code: Int32, domain: Int32, message: String) {
    self.code = code
    self.domain = domain
    self.message = message
  }

  init(_ error: UnsafePointer<xmlError>) {
    code = Int32(error.pointee.code)
    domain = Int32(error.pointee.domain)
    var text = error.pointee.message.map { String(cString: $0) } ?? ""
    if let lineBreak = text.firstIndex(of: "\n") { text = String(text[..<lineBreak]) }
    // The names libxml2 put into its message (an element's, an entity's, an encoding's) are str1…str3.
    for name in [error.pointee.str1, error.pointee.str2, error.pointee.str3] {
      guard let name else { continue }
      let full = String(cString: name)
      guard full.count > Diagnostic.quoteLimit else { continue }
      text = text.replacingOccurrences(of: full, with: GPXMessages.shortened(full, limit: Diagnostic.quoteLimit))
    }
    message = GPXMessages.shortened(
      text.trimmingCharacters(in: .whitespaces), limit: GPXMessages.libxml2MessageLimit)
  }
}

/// `bytes` without leading and trailing spaces, tabs and line breaks.
@inline(__always)
func trimmedSpaces(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
  var start = 0
  var end = bytes.count
  @inline(__always) func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }
  while start < end && isSpace(bytes[start]) { start += 1 }
  while end > start && isSpace(bytes[end - 1]) { end -= 1 }
  return UnsafeBufferPointer(rebasing: bytes[start..<end])
}
