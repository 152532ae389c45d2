import TrigsimCore

/// A piece of SVG or HTML that may be written as it is: the one way the
/// report builds its documents, so that no text reaches them unescaped.
///
/// The rule: what is written in the source as a string literal is markup
/// (tags, attribute names, CSS, the script); every `String` interpolated into
/// it is text and is escaped by `XMLText.escaped` (the five markup characters
/// as entities, characters XML 1.0 forbids as U+FFFD), whether it lands in an
/// element's content or in a quoted attribute value. Only a `Markup` (built
/// the same way), a whole number or a pixel value (`px`) is interpolated as
/// it is. A `Markup` cannot be made from a `String` at run time: its literal
/// type is `StaticString`, so a name, a title or a label from a scenario can
/// only enter through interpolation, which escapes it.
struct Markup: Equatable, Sendable, ExpressibleByStringInterpolation {
  /// The markup, ready to write.
  private(set) var rendered: String

  init(stringLiteral literal: StaticString) {
    rendered = ""
    Self.append(literal, to: &rendered)
  }

  init(stringInterpolation: StringInterpolation) { rendered = stringInterpolation.rendered }

  /// Text escaped by the rule above: safe in an element's content and in a
  /// quoted attribute value.
  init(text: some StringProtocol) { rendered = XMLText.escaped(String(text)) }

  struct StringInterpolation: StringInterpolationProtocol {
    fileprivate var rendered = ""

    init(literalCapacity: Int, interpolationCount: Int) { rendered.reserveCapacity(literalCapacity + 8 * interpolationCount) }

    /// The source's literal parts: markup.
    mutating func appendLiteral(_ literal: StaticString) { Markup.append(literal, to: &rendered) }

    /// Text: escaped.
    mutating func appendInterpolation(_ text: some StringProtocol) { rendered += XMLText.escaped(String(text)) }

    /// Markup built by the same rule: as it is.
    mutating func appendInterpolation(_ markup: Markup) { rendered += markup.rendered }

    /// A whole number (a count): its digits.
    mutating func appendInterpolation(_ number: some BinaryInteger) { rendered += String(number) }
  }

  /// The same markup with every `id="X"` attribute renamed `id="X-SUFFIX"`,
  /// so that several reports can share one page (`suffix`: ASCII letters,
  /// digits and hyphens only, which need no escaping).
  func identifiers(suffixed suffix: String) -> Markup {
    precondition(suffix.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }, "an id suffix is letters, digits and hyphens")
    let parts = rendered.components(separatedBy: " id=\"")
    var copy = self
    copy.rendered = parts[0]
    for part in parts.dropFirst() {
      guard let quote = part.firstIndex(of: "\"") else {
        copy.rendered += " id=\"" + part
        continue
      }
      copy.rendered += " id=\"" + part[..<quote] + "-" + suffix + part[quote...]
    }
    return copy
  }

  static func + (lhs: Markup, rhs: Markup) -> Markup {
    var joined = lhs
    joined += rhs
    return joined
  }

  static func += (lhs: inout Markup, rhs: Markup) { lhs.rendered += rhs.rendered }

  private static func append(_ literal: StaticString, to rendered: inout String) {
    literal.withUTF8Buffer { rendered += String(decoding: $0, as: UTF8.self) }
  }

  /// The farthest a pixel coordinate is written from the origin.
  static let pictureBound = 1e9

  /// `pixel` within ±`pictureBound`, and 0 when it is not a number or is
  /// infinite: what every pixel coordinate is made before it becomes an
  /// integer or text (never reached by a drawing of valid input, but never
  /// a trap or a non-number either).
  static func clampedToPicture(_ pixel: Double) -> Double {
    pixel.isFinite ? min(max(pixel, -pictureBound), pictureBound) : 0
  }

  /// A pixel value to one decimal place, without a trailing `.0` and without
  /// a negative zero: `12`, `12.5`, `-3.2`; clamped by `clampedToPicture`.
  static func px(_ value: Double) -> Markup {
    let tenths = Int((clampedToPicture(value) * 10).rounded())
    if tenths == 0 { return "0" }
    let sign: Markup = tenths < 0 ? "-" : ""
    let magnitude = abs(tenths)
    let whole = magnitude / 10, fraction = magnitude % 10
    return fraction == 0 ? "\(sign)\(whole)" : "\(sign)\(whole).\(fraction)"
  }
}

extension Sequence<Markup> {
  /// The pieces one after another, with `separator` between them.
  func joined(separator: Markup = "") -> Markup {
    var joined: Markup = ""
    var first = true
    for piece in self {
      if !first { joined += separator }
      joined += piece
      first = false
    }
    return joined
  }
}
