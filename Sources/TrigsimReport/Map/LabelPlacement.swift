/// An axis-aligned rectangle in picture pixels (`y` grows downward).
public struct PixelBox: Hashable, Sendable {
  public var minX: Double, minY: Double, maxX: Double, maxY: Double

  public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
    self.minX = minX
    self.minY = minY
    self.maxX = maxX
    self.maxY = maxY
  }

  /// The square of half-side `halfSide` around `centre`.
  public init(around centre: PlanePoint, halfSide: Double) {
    self.init(minX: centre.x - halfSide, minY: centre.y - halfSide, maxX: centre.x + halfSide, maxY: centre.y + halfSide)
  }

  /// Whether the two share any area (touching edges do not).
  public func overlaps(_ other: PixelBox) -> Bool {
    minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
  }

  /// Whether `other` lies wholly inside this box.
  public func contains(_ other: PixelBox) -> Bool {
    other.minX >= minX && other.maxX <= maxX && other.minY >= minY && other.maxY <= maxY
  }
}

/// A label written on a map, where the placement put it.
public struct PlacedLabel: Sendable {
  public var text: String
  /// The space the text takes (estimated: see `LabelPlacement.textBox`).
  public var box: PixelBox
  /// The point it names (a marker, a region's centre).
  public var anchor: PlanePoint
  /// Whether it stands away from its anchor, so a thin line joins them.
  public var hasLeader: Bool
}

/// Where map labels go: a simple, deterministic placement that keeps every
/// label clear of every marker and of the labels placed before it.
///
/// Labels are placed one at a time, in the order given (the first have the
/// best places). A label's candidates are, in order: centred on its anchor
/// when it may cover it (a region's name on its centre), then the eight
/// places around the anchor (right, left, above, below, then the diagonals)
/// at its clearance, then the same eight on rings `ringStep` pixels farther
/// out, up to `rings` rings. The first candidate inside the frame that
/// overlaps no obstacle (every marker's box, and the labels already placed)
/// is taken; a label with no such candidate is left out (what it names keeps
/// its hover title).
///
/// Text is not measured (no font is loaded): a label's box is its
/// characters at `characterWidth` of the font size each, wider than
/// DejaVu Sans's or Helvetica's average, so the drawn text stays inside.
public enum LabelPlacement {
  /// The font size map labels are drawn at, in pixels.
  public static let fontSize = 10.0
  /// A character's width, as a fraction of the font size (DejaVu Sans
  /// averages 0.55 for lower case, 0.64 for digits).
  static let characterWidth = 0.66
  /// Space between a label's box and its text, in pixels.
  static let padding = 1.5
  static let ringStep = 12.0
  static let rings = 6

  /// What to place: `text` naming `anchor`, kept `clearance` pixels from it
  /// (its marker's half-size), or centred on it when `mayCover`.
  public struct Request: Sendable {
    public var text: String
    public var anchor: PlanePoint
    public var clearance: Double
    public var mayCover: Bool

    public init(text: String, anchor: PlanePoint, clearance: Double, mayCover: Bool = false) {
      self.text = text
      self.anchor = anchor
      self.clearance = clearance
      self.mayCover = mayCover
    }
  }

  /// The box of `text` with its top-left corner at `corner`.
  static func textBox(_ text: String, topLeft corner: PlanePoint) -> PixelBox {
    let width = Double(text.count) * fontSize * characterWidth + 2 * padding
    let height = fontSize + 2 * padding + 1
    return PixelBox(minX: corner.x, minY: corner.y, maxX: corner.x + width, maxY: corner.y + height)
  }

  /// Places `requests` in order inside `frame`, clear of `obstacles` and of
  /// each other: one result per request, nil where there was no room.
  public static func place(_ requests: [Request], obstacles: [PixelBox], within frame: PixelBox) -> [PlacedLabel?] {
    var taken = obstacles
    return requests.map { request in
      let sample = textBox(request.text, topLeft: PlanePoint(x: 0, y: 0))
      let width = sample.maxX, height = sample.maxY
      let anchor = request.anchor
      var corners: [(PlanePoint, Bool)] = []
      if request.mayCover { corners.append((PlanePoint(x: anchor.x - width / 2, y: anchor.y - height / 2), false)) }
      for ring in 0..<rings {
        let d = request.clearance + 2 + Double(ring) * ringStep
        let leader = ring > 0
        corners += [
          (PlanePoint(x: anchor.x + d, y: anchor.y - height / 2), leader),  // right
          (PlanePoint(x: anchor.x - d - width, y: anchor.y - height / 2), leader),  // left
          (PlanePoint(x: anchor.x - width / 2, y: anchor.y - d - height), leader),  // above
          (PlanePoint(x: anchor.x - width / 2, y: anchor.y + d), leader),  // below
          (PlanePoint(x: anchor.x + d * 0.7, y: anchor.y - d * 0.7 - height), leader),  // above right
          (PlanePoint(x: anchor.x - d * 0.7 - width, y: anchor.y - d * 0.7 - height), leader),  // above left
          (PlanePoint(x: anchor.x + d * 0.7, y: anchor.y + d * 0.7), leader),  // below right
          (PlanePoint(x: anchor.x - d * 0.7 - width, y: anchor.y + d * 0.7), leader),  // below left
        ]
      }
      for (corner, leader) in corners {
        let box = textBox(request.text, topLeft: corner)
        guard frame.contains(box), !taken.contains(where: { $0.overlaps(box) }) else { continue }
        taken.append(box)
        return PlacedLabel(text: request.text, box: box, anchor: anchor, hasLeader: leader)
      }
      return nil
    }
  }
}
