/// The map as one SVG element (`<svg id="map">`), with its own styles so
/// that it also stands alone (`trigsim report --format svg --picture map`).
///
/// What the page's tests and script rely on: every region is a `path` with
/// `data-region`; every track piece a `polyline` (a `circle` for a piece of
/// one point) with `data-track="segment"` and `data-speed`; every gap a
/// `line` with `data-track="gap"`; every marker an element with
/// `data-mark` (a `MapDrawing.MarkerKind`), `data-count` (the events it
/// stands for) and `data-subjects`, with its label as an SVG `title`. Below
/// the map, each inset is a `g` with `data-inset` (its region), its markers
/// drawn like the map's but with `data-inset-mark` instead of `data-mark`,
/// and every label (the map's and the insets') has a `rect` with
/// `data-label-box` (its box: min x, min y, max x, max y).
enum MapSVG {
  static func render(_ map: MapDrawing, title: String) -> Markup {
    let width = Markup.px(map.width), height = Markup.px(max(map.pictureHeight, map.height))
    var svg: Markup = "<svg id=\"map\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(width) \(height)\" "
    svg += "width=\"\(width)\" height=\"\(height)\" role=\"img\" aria-label=\"Map: \(title)\" "
    svg += "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"11\">\n"
    svg += "<title>Map: \(title)</title>\n<style>\(style)</style>\n"
    svg += "<rect class=\"map-bg\" x=\"0\" y=\"0\" width=\"\(width)\" height=\"\(height)\"/>\n"
    if map.regions.isEmpty && map.track.isEmpty && map.markers.isEmpty {
      svg += "<text x=\"\(Markup.px(map.width / 2))\" y=\"60\" text-anchor=\"middle\" class=\"note\">No track and no regions: nothing to draw.</text>\n</svg>"
      return svg
    }
    svg += "<g class=\"regions\">\n"
    for region in map.regions where !region.ring.isEmpty {
      let d: Markup = "M" + region.ring.map { point -> Markup in "\(Markup.px(point.x)),\(Markup.px(point.y))" }.joined(separator: "L") + "Z"
      svg += "<path class=\"region\" data-region=\"\(region.id)\" data-subjects=\"\(region.id)\" d=\"\(d)\">"
      svg += "<title>region \(region.id): \(region.shape)</title></path>\n"
    }
    // Names after every outline, so no region is drawn over another's name.
    for region in map.regions {
      if let label = region.label { svg += self.label(label, class: "region-label") }
    }
    svg += "</g>\n<g class=\"track\">\n"
    for (from, to) in map.gaps {
      svg += "<line class=\"gap\" data-track=\"gap\" x1=\"\(Markup.px(from.x))\" y1=\"\(Markup.px(from.y))\" x2=\"\(Markup.px(to.x))\" y2=\"\(Markup.px(to.y))\"/>\n"
    }
    for piece in map.track {
      let speed = piece.band.name
      if piece.points.count == 1, let point = piece.points.first {
        svg += "<circle class=\"fix s-\(speed)\" data-track=\"segment\" data-speed=\"\(speed)\" cx=\"\(Markup.px(point.x))\" cy=\"\(Markup.px(point.y))\" r=\"2\"/>\n"
        continue
      }
      var points: Markup = ""
      var previous: (Markup, Markup)?
      for point in piece.points {
        let pair = (Markup.px(point.x), Markup.px(point.y))
        // Points that round to the same pixel tenth add nothing.
        if let previous, previous == pair { continue }
        if previous != nil { points += " " }
        points += "\(pair.0),\(pair.1)"
        previous = pair
      }
      svg += "<polyline class=\"line s-\(speed)\" data-track=\"segment\" data-speed=\"\(speed)\" points=\"\(points)\"/>\n"
    }
    svg += "</g>\n<g class=\"markers\">\n"
    for marker in map.markers { svg += self.marker(marker) }
    svg += "</g>\n"
    svg += furniture(map)
    svg += insets(map)
    svg += "</svg>"
    return svg
  }

  /// A placed label: a pale box, its text, and a thin line to what it names when it stands away.
  static func label(_ label: PlacedLabel, class name: Markup) -> Markup {
    let p = Markup.px, box = label.box
    var svg: Markup = ""
    if label.hasLeader {
      // To the nearest point of the box.
      let x = min(max(label.anchor.x, box.minX), box.maxX), y = min(max(label.anchor.y, box.minY), box.maxY)
      svg += "<line class=\"leader\" x1=\"\(p(label.anchor.x))\" y1=\"\(p(label.anchor.y))\" x2=\"\(p(x))\" y2=\"\(p(y))\"/>"
    }
    svg += "<rect class=\"label-bg\" data-label-box=\"\(p(box.minX)) \(p(box.minY)) \(p(box.maxX)) \(p(box.maxY))\" x=\"\(p(box.minX))\" y=\"\(p(box.minY))\" "
    svg += "width=\"\(p(box.maxX - box.minX))\" height=\"\(p(box.maxY - box.minY))\" rx=\"2\"/>"
    let baseline = box.minY + LabelPlacement.padding + LabelPlacement.fontSize * 0.85
    svg += "<text class=\"\(name)\" x=\"\(p(box.minX + LabelPlacement.padding))\" y=\"\(p(baseline))\">\(label.text)</text>\n"
    return svg
  }

  /// The insets below the map: each a framed close-up of a region with
  /// events, its markers (`data-inset-mark`, so they are not counted twice
  /// with the map's), its labels, its scale bar and a caption.
  static func insets(_ map: MapDrawing) -> Markup {
    guard !map.insets.isEmpty else { return "" }
    let p = Markup.px
    var svg: Markup = "<g class=\"insets\">\n"
    // Over whatever of the map's regions reaches past its bottom edge.
    svg += "<rect class=\"insets-bg\" x=\"0\" y=\"\(p(map.height))\" width=\"\(p(map.width))\" height=\"\(p(map.pictureHeight - map.height))\"/>"
    svg += "<line class=\"insets-rule\" x1=\"0\" y1=\"\(p(map.height))\" x2=\"\(p(map.width))\" y2=\"\(p(map.height))\"/>\n"
    let more: Markup = map.insetsLeftOut == 0 ? "" : " (the first \(MapDrawing.maximumInsets); \(map.insetsLeftOut) more regions small on the map had events)"
    svg += "<text class=\"inset-heading\" x=\"\(p(MapDrawing.insetGutter))\" y=\"\(p(map.height + 18))\">Close-ups of the regions where something happened\(more)</text>\n"
    for inset in map.insets {
      let frame = inset.frame
      svg += "<g class=\"inset\" data-inset=\"\(inset.regionID)\">\n"
      svg += "<rect class=\"inset-bg\" x=\"\(p(frame.minX))\" y=\"\(p(frame.minY))\" width=\"\(p(frame.maxX - frame.minX))\" height=\"\(p(frame.maxY - frame.minY))\"/>\n"
      if !inset.ring.isEmpty {
        let d: Markup = "M" + inset.ring.map { point -> Markup in "\(p(point.x)),\(p(point.y))" }.joined(separator: "L") + "Z"
        svg += "<path class=\"region\" data-subjects=\"\(inset.regionID)\" d=\"\(d)\"><title>region \(inset.regionID): \(inset.shape)</title></path>\n"
      }
      for piece in inset.track {
        let points = piece.points.map { point -> Markup in "\(p(point.x)),\(p(point.y))" }.joined(separator: " ")
        svg += "<polyline class=\"line s-\(piece.band.name)\" points=\"\(points)\"/>\n"
      }
      for marker in inset.markers { svg += self.marker(marker, dataName: "data-inset-mark") }
      for label in inset.labels { svg += self.label(label, class: "inset-label") }
      let bar = inset.scaleBar
      let origin = MapDrawing.Inset.scaleBarOrigin(frame: frame)
      let x = origin.x, y = origin.y
      let barLabel = MapDrawing.Inset.scaleBarText(metres: bar.metres)
      svg += "<path class=\"scale\" d=\"M\(p(x)),\(p(y - 4))V\(p(y))H\(p(x + bar.pixels))V\(p(y - 4))\"/>"
      svg += "<text class=\"inset-label\" x=\"\(p(x + bar.pixels + 4))\" y=\"\(p(y))\">\(barLabel)</text>\n"
      // Two lines under the inset, each cut to its width (the whole caption is on hover).
      let name = "region \(inset.regionID): \(inset.shape)"
      var notes: [String] = []
      if inset.eventsOutside > 0 { notes.append("\(inset.eventsOutside) crossing\(inset.eventsOutside == 1 ? "" : "s") or detection\(inset.eventsOutside == 1 ? "" : "s") beyond the frame") }
      if inset.labelsLeftOut > 0 { notes.append("\(inset.labelsLeftOut) label\(inset.labelsLeftOut == 1 ? "" : "s") left out (hover)") }
      let room = Int((frame.maxX - frame.minX) / (LabelPlacement.fontSize * LabelPlacement.characterWidth))
      for (line, text) in [name, notes.joined(separator: "; ")].enumerated() where !text.isEmpty {
        let shown = text.count > room ? String(text.prefix(max(room - 1, 1))) + "…" : text
        svg += "<text class=\"inset-caption\" x=\"\(p(frame.minX))\" y=\"\(p(frame.maxY + 13 + Double(line) * 12))\">\(shown)<title>\(text)</title></text>\n"
      }
      svg += "</g>\n"
    }
    return svg + "</g>\n"
  }

  /// One marker: its shape by kind, a little larger when it stands for
  /// many events. A legend's sample (`isLegend`) has no data attributes, so
  /// it is never counted as an event.
  static func marker(_ marker: MapDrawing.Marker, isLegend: Bool = false, dataName: Markup = "data-mark") -> Markup {
    let x = marker.at.x, y = marker.at.y
    let size = marker.size
    let p = Markup.px
    let shape: Markup
    switch marker.kind {
    case .enter:  // a triangle pointing up
      shape = "<path d=\"M\(p(x)),\(p(y - size))L\(p(x + size)),\(p(y + size * 0.8))L\(p(x - size)),\(p(y + size * 0.8))Z\""
    case .exit:  // a triangle pointing down
      shape = "<path d=\"M\(p(x)),\(p(y + size))L\(p(x + size)),\(p(y - size * 0.8))L\(p(x - size)),\(p(y - size * 0.8))Z\""
    case .detected:  // a ring
      shape = "<circle cx=\"\(p(x))\" cy=\"\(p(y))\" r=\"\(p(size + 2))\""
    case .undetected:  // a cross
      let a = size * 0.8
      shape = "<path d=\"M\(p(x - a)),\(p(y - a))L\(p(x + a)),\(p(y + a))M\(p(x + a)),\(p(y - a))L\(p(x - a)),\(p(y + a))\""
    case .fired:  // a filled circle
      shape = "<circle cx=\"\(p(x))\" cy=\"\(p(y))\" r=\"\(p(size - 1))\""
    case .seen:  // a diamond outline, around a delivery's dot at the same place
      let a = size + 2
      shape = "<path d=\"M\(p(x)),\(p(y - a))L\(p(x + a)),\(p(y))L\(p(x)),\(p(y + a))L\(p(x - a)),\(p(y))Z\""
    }
    let data: Markup = isLegend ? "" : " \(dataName)=\"\(marker.kind.rawValue)\" data-count=\"\(marker.count)\" data-subjects=\"\(marker.subjects.joined(separator: " "))\""
    let end: Markup = marker.kind == .fired || marker.kind == .detected ? "</circle>\n" : "</path>\n"
    return shape + " class=\"mk mk-\(marker.kind.rawValue)\"\(data)><title>\(marker.label)</title>\(end)"
  }

  /// The scale bar, the north arrow and the legend.
  static func furniture(_ map: MapDrawing) -> Markup {
    var svg: Markup = "<g class=\"furniture\">\n"
    if let bar = map.scaleBar {
      let x = 16.0, y = map.height - 18
      let label: Markup = bar.metres >= 1000 ? "\(Markup.px(bar.metres / 1000)) km" : "\(Markup.px(bar.metres)) m"
      svg += "<path class=\"scale\" d=\"M\(Markup.px(x)),\(Markup.px(y - 5))V\(Markup.px(y))H\(Markup.px(x + bar.pixels))V\(Markup.px(y - 5))\"/>"
      svg += "<text x=\"\(Markup.px(x + bar.pixels / 2))\" y=\"\(Markup.px(y - 8))\" text-anchor=\"middle\">\(label)</text>\n"
    }
    // North is up on the local projection.
    let nx = map.width - 28, ny = 20.0
    svg += "<path class=\"north\" d=\"M\(Markup.px(nx)),\(Markup.px(ny))L\(Markup.px(nx + 7)),\(Markup.px(ny + 20))L\(Markup.px(nx)),\(Markup.px(ny + 15))L\(Markup.px(nx - 7)),\(Markup.px(ny + 20))Z\"/>"
    svg += "<text x=\"\(Markup.px(nx))\" y=\"\(Markup.px(ny + 33))\" text-anchor=\"middle\">N</text>\n"
    // The legend, on a pale box: the speed bands drawn, then the marker kinds drawn.
    let bands = SpeedBand.allCases.filter { band in map.track.contains { $0.band == band } }
    let kinds = MapDrawing.MarkerKind.allCases.filter { kind in map.markers.contains { $0.kind == kind } }
    let lines = bands.count + (map.gaps.isEmpty ? 0 : 1) + kinds.count
    if lines > 0 {
      svg += "<rect class=\"legend\" x=\"6\" y=\"6\" width=\"214\" height=\"\(Markup.px(Double(lines) * 15 + 8))\" rx=\"3\"/>\n"
    }
    var y = 18.0
    for band in bands {
      svg += "<line class=\"line s-\(band.name)\" x1=\"12\" y1=\"\(Markup.px(y - 4))\" x2=\"32\" y2=\"\(Markup.px(y - 4))\"/>"
      svg += "<text x=\"38\" y=\"\(Markup.px(y))\">\(band.name) (\(band.range))</text>\n"
      y += 15
    }
    if !map.gaps.isEmpty {
      svg += "<line class=\"gap\" x1=\"12\" y1=\"\(Markup.px(y - 4))\" x2=\"32\" y2=\"\(Markup.px(y - 4))\"/><text x=\"38\" y=\"\(Markup.px(y))\">gap in the track</text>\n"
      y += 15
    }
    for kind in kinds {
      let sample = MapDrawing.Marker(kind: kind, at: PlanePoint(x: 22, y: y - 4), count: 1, subjects: [], label: kind.legend)
      svg += marker(sample, isLegend: true)
      svg += "<text x=\"38\" y=\"\(Markup.px(y))\">\(kind.legend)</text>\n"
      y += 15
    }
    let placedNote = map.unplaced.isEmpty ? "" : "; not drawn (no position yet): "
      + MapDrawing.MarkerKind.allCases.compactMap { kind in map.unplaced[kind].map { "\($0) \(kind.rawValue)" } }.joined(separator: ", ")
    svg += "<text class=\"note\" x=\"\(Markup.px(map.width - 12))\" y=\"\(Markup.px(map.height - 8))\" text-anchor=\"end\">"
    svg += "\(map.fixesRead) fixes, \(map.pointsDrawn) points drawn (Douglas–Peucker, \(Markup.px(map.tolerance)) m)\(placedNote)</text>\n"
    return svg + "</g>\n"
  }

  static let style: Markup = """
    .map-bg{fill:#f7f7f4}.region{fill:#2b6cb0;fill-opacity:.12;stroke:#2b6cb0;stroke-width:1.2}\
    .region-label{fill:#1a4480;font-weight:bold;font-size:10px}.inset-label{fill:#222;font-size:10px}.label-bg{fill:#fff;fill-opacity:.8}\
    .leader{stroke:#555;stroke-width:.8}.inset-bg{fill:#f7f7f4;stroke:#999}.insets-bg{fill:#fff}.insets-rule{stroke:#ccc}\
    .inset-heading{font-weight:bold;fill:#333}.inset-caption{fill:#333;font-size:10px}polyline.line,line.line{fill:none;stroke-width:2.2;stroke-linejoin:round;stroke-linecap:round}\
    .fix{stroke:none}.s-still{stroke:#7b8794;fill:#7b8794}.s-walking{stroke:#2f855a;fill:#2f855a}.s-fast{stroke:#d69e2e;fill:#d69e2e}\
    .s-vehicle{stroke:#c53030;fill:#c53030}.gap{stroke:#555;stroke-width:1.2;stroke-dasharray:4 4}\
    .mk{stroke:#fff;stroke-width:1}.mk-enter{fill:#2f855a}.mk-exit{fill:#dd6b20}.mk-detected{fill:none;stroke:#2b6cb0;stroke-width:2}\
    .mk-undetected{fill:none;stroke:#c53030;stroke-width:2.5}.mk-fired{fill:#6b46c1}.mk-seen{fill:none;stroke:#111;stroke-width:1.5}\
    .scale,.north{stroke:#222;fill:none;stroke-width:1.5}.north{fill:#222}.note{fill:#555}.legend{fill:#fff;fill-opacity:.88;stroke:#ccc}\
    .hl{stroke:#f6e05e!important;stroke-width:3!important}
    """
}

extension MapDrawing.MarkerKind {
  /// The legend's words.
  var legend: String {
    switch self {
    case .enter: "entered (geometry)"
    case .exit: "left (geometry)"
    case .detected: "detected by the device"
    case .undetected: "crossing not detected"
    case .fired: "notification delivered"
    case .seen: "seen by the patient"
    }
  }
}
