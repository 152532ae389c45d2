/// The timeline chart as one SVG element (`<svg id="chart">`), with its own
/// styles so that it also stands alone (`--format svg --picture chart`).
///
/// What the page's tests and script rely on: every lane is a `g` with
/// `data-lane` (its key) and `data-group`; every mark an element with
/// `data-mark` (a `ChartDrawing.MarkKind`), `data-row` (`expected` or
/// `actual`), `data-count` and `data-subjects`, and `data-diff` when the
/// comparison found its entries different; a dose perceived late has a
/// `path` with `data-late` (its mark kind) from its due time to the mark;
/// every band a `rect` with
/// `data-band`; every day boundary a `line` with `data-rule="day"`, every
/// time-zone change one with `data-rule="timezone"`.
enum ChartSVG {
  static let axisHeight = 40.0
  static let bandRowHeight = 14.0
  static let groupHeadingHeight = 18.0

  static func render(_ chart: ChartDrawing, title: String) -> Markup {
    let laneHeight = chart.hasExpected ? 26.0 : 16.0
    // Vertical layout: axis, band rows, then each group's heading and lanes.
    var y = axisHeight
    var bandRowY: [String: Double] = [:]
    for name in chart.bandRows {
      bandRowY[name] = y
      y += bandRowHeight
    }
    var laneY: [Double] = []
    var headings: [(ChartDrawing.LaneGroup, Double)] = []
    var previousGroup: ChartDrawing.LaneGroup?
    for lane in chart.lanes {
      if lane.group != previousGroup {
        headings.append((lane.group, y))
        y += groupHeadingHeight
        previousGroup = lane.group
      }
      laneY.append(y)
      y += laneHeight
    }
    let legendY = y + 10
    let legendKinds = ChartDrawing.MarkKind.allCases.filter { kind in chart.marks.contains { $0.kind == kind } }
    // The lateness line has its own legend item after the kinds.
    let hasLateness = chart.marks.contains { $0.dueX != nil }
    let legendItems = legendKinds.count + (hasLateness ? 1 : 0)
    let legendColumns = 5
    let legendRows = (legendItems + legendColumns - 1) / legendColumns
    let height = legendY + Double(legendRows) * 16 + (chart.hasExpected ? 34 : 18)
    let plotTop = axisHeight, plotBottom = legendY - 10
    let width = chart.width

    let p = Markup.px
    var svg: Markup = "<svg id=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(p(width)) \(p(height))\" "
    svg += "width=\"\(p(width))\" height=\"\(p(height))\" role=\"img\" aria-label=\"Timeline: \(title)\" "
    svg += "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"11\">\n"
    svg += "<title>Timeline: \(title)</title>\n<style>\(style)</style>\n"
    svg += "<rect class=\"chart-bg\" x=\"0\" y=\"0\" width=\"\(p(width))\" height=\"\(p(height))\"/>\n"
    // The clock's window.
    svg += "<rect class=\"window\" x=\"\(p(chart.plotLeft))\" y=\"\(p(plotTop))\" width=\"\(p(chart.plotRight - chart.plotLeft))\" "
    svg += "height=\"\(p(max(plotBottom - plotTop, 1)))\"><title>clock: \(chart.window.start) to \(chart.window.end)</title></rect>\n"
    svg += "<text class=\"axis\" x=\"\(p(chart.plotLeft))\" y=\"12\">\(chart.window.start)</text>"
    svg += "<text class=\"axis\" x=\"\(p(chart.plotRight))\" y=\"12\" text-anchor=\"end\">\(chart.window.end)</text>\n"
    // Lane stripes and labels.
    for (index, lane) in chart.lanes.enumerated() {
      let top = laneY[index]
      svg += "<g class=\"lane\" data-lane=\"\(lane.key)\" data-group=\"\(lane.group.rawValue.lowercased())\">"
      if index % 2 == 0 {
        svg += "<rect class=\"stripe\" x=\"0\" y=\"\(p(top))\" width=\"\(p(width))\" height=\"\(p(laneHeight))\"/>"
      }
      // What fits before the plot (and its exp/act row labels); the whole label is on hover.
      let room = chart.hasExpected && lane.group.comparesRows ? 28 : 32
      let label = lane.label.count > room ? String(lane.label.prefix(room - 1)) + "…" : lane.label
      svg += "<text class=\"lane-label\" x=\"8\" y=\"\(p(top + laneHeight / 2 + 4))\">\(label)<title>\(lane.label)</title></text>"
      if chart.hasExpected && lane.group.comparesRows {
        svg += "<text class=\"row-label\" x=\"\(p(chart.plotLeft - 4))\" y=\"\(p(top + 9))\" text-anchor=\"end\">exp</text>"
        svg += "<text class=\"row-label\" x=\"\(p(chart.plotLeft - 4))\" y=\"\(p(top + 22))\" text-anchor=\"end\">act</text>"
      }
      svg += "</g>\n"
    }
    for (group, top) in headings {
      svg += "<text class=\"group\" x=\"4\" y=\"\(p(top + 13))\">\(group.rawValue)</text>\n"
    }
    // Bands: a shade across the lanes and a bar in the band's own row.
    for name in chart.bandRows {
      svg += "<text class=\"lane-label\" x=\"8\" y=\"\(p(bandRowY[name]! + 11))\">\(name)</text>\n"
    }
    for band in chart.bands {
      let rowY = bandRowY[band.name] ?? axisHeight
      let w = p(max(band.x2 - band.x, 1))
      svg += "<rect class=\"band-shade \(bandClass(band.name))\" x=\"\(p(band.x))\" y=\"\(p(rowY))\" width=\"\(w)\" height=\"\(p(max(plotBottom - rowY, 1)))\"/>"
      svg += "<rect class=\"band \(bandClass(band.name))\" data-band=\"\(band.name)\" x=\"\(p(band.x))\" y=\"\(p(rowY + 2))\" width=\"\(w)\" height=\"\(p(bandRowHeight - 4))\">"
      svg += "<title>\(band.label)</title></rect>\n"
    }
    // Day boundaries (labels only where there is room) and zone changes.
    var lastLabelX = -Double.infinity
    for day in chart.days {
      svg += "<line class=\"day\" data-rule=\"day\" x1=\"\(p(day.x))\" y1=\"\(p(plotTop - 12))\" x2=\"\(p(day.x))\" y2=\"\(p(plotBottom))\"><title>\(day.label)</title></line>"
      if day.x - lastLabelX >= 64, day.x + 30 <= chart.plotRight + 16 {
        svg += "<text class=\"axis\" x=\"\(p(day.x))\" y=\"\(p(plotTop - 16))\" text-anchor=\"middle\">\(day.label)</text>"
        lastLabelX = day.x
      }
      svg += "\n"
    }
    for tick in chart.ticks {
      svg += "<line class=\"tick\" data-rule=\"time\" x1=\"\(p(tick.x))\" y1=\"\(p(plotTop - 4))\" x2=\"\(p(tick.x))\" y2=\"\(p(plotBottom))\"/>"
      svg += "<text class=\"tick-label\" x=\"\(p(tick.x))\" y=\"\(p(plotTop - 6))\" text-anchor=\"middle\">\(tick.label)</text>\n"
    }
    for change in chart.zoneChanges {
      svg += "<line class=\"zone\" data-rule=\"timezone\" x1=\"\(p(change.x))\" y1=\"\(p(plotTop - 12))\" x2=\"\(p(change.x))\" y2=\"\(p(plotBottom))\">"
      svg += "<title>\(change.label)</title></line>\n"
    }
    // Marks.
    for mark in chart.marks {
      let top = laneY[mark.lane]
      let lane = chart.lanes[mark.lane]
      let centre = chart.hasExpected && lane.group.comparesRows ? top + (mark.row == .expected ? 7.5 : 19.5) : top + laneHeight / 2
      svg += self.mark(mark, centre: centre)
    }
    // Legend.
    for (index, kind) in legendKinds.enumerated() {
      let x = 16 + Double(index % legendColumns) * ((width - 32) / Double(legendColumns))
      let rowY = legendY + Double(index / legendColumns) * 16 + 8
      let sample = ChartDrawing.Mark(lane: 0, row: .actual, kind: kind, x: x + 6, x2: kind.isBar ? x + 18 : nil, count: 1, subjects: [], first: kind.rawValue, last: kind.rawValue)
      svg += self.mark(sample, centre: rowY, isLegend: true)
      svg += "<text x=\"\(p(x + 24))\" y=\"\(p(rowY + 4))\">\(kind.legend)</text>\n"
    }
    if hasLateness {
      let index = legendKinds.count
      let x = 16 + Double(index % legendColumns) * ((width - 32) / Double(legendColumns))
      let rowY = legendY + Double(index / legendColumns) * 16 + 8
      svg += "<path class=\"late l-dose-completed\" d=\"M\(p(x)),\(p(rowY - 4))V\(p(rowY + 4))M\(p(x)),\(p(rowY))H\(p(x + 18))\"/>"
      svg += "<text x=\"\(p(x + 24))\" y=\"\(p(rowY + 4))\">late: due → perceived</text>\n"
    }
    if chart.hasExpected {
      svg += "<text class=\"note\" x=\"16\" y=\"\(p(height - 10))\">Each lane: expected (exp) above, actual (act) below; "
      svg += "marks outlined in red differ between them (hover for how).</text>\n"
    }
    return svg + "</svg>"
  }

  /// One mark centred vertically on `centre`. A legend's sample has no data attributes.
  static func mark(_ mark: ChartDrawing.Mark, centre y: Double, isLegend: Bool = false) -> Markup {
    let x = mark.x
    let kind = mark.kind
    let diff: Markup = mark.differences.isEmpty ? "" : " diff"
    var attributes: Markup = "class=\"mk c-\(kind.rawValue)\(diff)\""
    if !isLegend {
      attributes += " data-mark=\"\(kind.rawValue)\" data-row=\"\(mark.row.rawValue)\" data-count=\"\(mark.count)\" data-subjects=\"\(mark.subjects.joined(separator: " "))\""
      if !mark.differences.isEmpty { attributes += " data-diff=\"\(mark.differences.joined(separator: " "))\"" }
    }
    var title = mark.label
    if !mark.differences.isEmpty { title += " [differs from the expected timeline: \(mark.differences.joined(separator: ", "))]" }
    let tail: Markup = "<title>\(title)</title>"
    let p = Markup.px
    // A dose perceived late: a tick where it was due and a line to the mark, in the outcome's colour.
    var lateness: Markup = ""
    if let due = mark.dueX, !isLegend {
      lateness = "<path class=\"late l-\(kind.rawValue)\" data-late=\"\(kind.rawValue)\" data-subjects=\"\(mark.subjects.joined(separator: " "))\" "
      lateness += "d=\"M\(p(due)),\(p(y - 4))V\(p(y + 4))M\(p(due)),\(p(y))H\(p(x))\">\(tail)</path>\n"
    }
    return lateness + shape(of: mark, attributes: attributes, centre: y, tail: tail)
  }

  /// The mark's own element: its shape by kind at `x`, centred on `y`.
  private static func shape(of mark: ChartDrawing.Mark, attributes: Markup, centre y: Double, tail: Markup) -> Markup {
    let x = mark.x
    let kind = mark.kind
    let p = Markup.px
    switch kind {
    case .inside, .fixes:
      let width = max((mark.x2 ?? x) - x, 1.5)
      return "<rect \(attributes) x=\"\(p(x))\" y=\"\(p(y - 3.5))\" width=\"\(p(width))\" height=\"7\">\(tail)</rect>\n"
    case .scheduled, .rescheduled:  // a tick
      return "<rect \(attributes) x=\"\(p(x - 0.75))\" y=\"\(p(y - 5))\" width=\"1.5\" height=\"10\">\(tail)</rect>\n"
    case .fired, .detected, .doseCompleted, .doseDismissed, .doseUnanswered, .doseSilent, .messageSent:
      return "<circle \(attributes) cx=\"\(p(x))\" cy=\"\(p(y))\" r=\"4\">\(tail)</circle>\n"
    case .seen, .messageReached:  // a diamond outline, around a delivery's circle at the same instant
      return "<path \(attributes) d=\"M\(p(x)),\(p(y - 6))L\(p(x + 6)),\(p(y))L\(p(x)),\(p(y + 6))L\(p(x - 6)),\(p(y))Z\">\(tail)</path>\n"
    case .doseMissed:  // a diamond
      return "<path \(attributes) d=\"M\(p(x)),\(p(y - 5))L\(p(x + 5)),\(p(y))L\(p(x)),\(p(y + 5))L\(p(x - 5)),\(p(y))Z\">\(tail)</path>\n"
    case .snoozed, .held:  // a triangle pointing right: later
      return "<path \(attributes) d=\"M\(p(x - 3)),\(p(y - 5))L\(p(x + 5)),\(p(y))L\(p(x - 3)),\(p(y + 5))Z\">\(tail)</path>\n"
    case .completed, .dismissed, .opened, .ignored:  // a square
      return "<rect \(attributes) x=\"\(p(x - 4))\" y=\"\(p(y - 4))\" width=\"8\" height=\"8\">\(tail)</rect>\n"
    case .dropped, .removed, .undetected, .messageFailed, .notShownPermission, .notShownSettings, .notShownChannel, .notShownForeground,
      .notDeliveredPhoneOff, .notDeliveredRegionMonitoring, .notDeliveredBackgroundPush, .notDeliveredForceStopped, .suppressed:  // a cross
      return "<path \(attributes) d=\"M\(p(x - 4)),\(p(y - 4))L\(p(x + 4)),\(p(y + 4))M\(p(x + 4)),\(p(y - 4))L\(p(x - 4)),\(p(y + 4))\">\(tail)</path>\n"
    }
  }

  static func bandClass(_ name: String) -> String {
    switch name {
    case "phone off": "b-off"
    case ChartDrawing.lockedBand: "b-locked"
    case "Low Power Mode": "b-lowpower"
    case "offline": "b-offline"
    case "Doze": "b-doze"
    default: "b-focus"
    }
  }

  static let style: Markup = """
    .chart-bg{fill:#fff}.window{fill:#fcfcfa;stroke:#999;stroke-width:1}.stripe{fill:#f3f4f6}\
    .lane-label{fill:#222}.row-label{fill:#888;font-size:9px}.group{font-weight:bold;fill:#444}.axis{fill:#333}.note{fill:#555}\
    .day{stroke:#bbb;stroke-width:1}.tick{stroke:#e2e2e2;stroke-width:1}.tick-label{fill:#777;font-size:9px}.zone{stroke:#c05621;stroke-width:1.5;stroke-dasharray:5 3}\
    .band-shade{opacity:.13}.band{opacity:.8}.b-focus{fill:#805ad5}.b-off{fill:#1a202c}.b-lowpower{fill:#d69e2e}.b-offline{fill:#718096}.b-locked{fill:#2c7a7b}.b-doze{fill:#2b6cb0}\
    .c-fixes{fill:#a0aec0}.c-inside{fill:#2b6cb0;opacity:.55}.c-detected{fill:none;stroke:#2b6cb0;stroke-width:2}\
    .c-undetected,.c-dropped,.c-removed,[class*=c-suppressed]{fill:none;stroke-width:2}.c-undetected,.c-dropped{stroke:#c53030}\
    .c-removed{stroke:#718096}.c-suppressed{stroke:#dd6b20}.c-suppressed-permission{stroke:#b83280}.c-suppressed-settings{stroke:#805ad5}\
    .c-suppressed-channel{stroke:#975a16}.c-suppressed-foreground{stroke:#3182ce}.c-suppressed-phone-off{stroke:#1a202c}\
    .c-suppressed-region-monitoring{stroke:#2b6cb0}.c-suppressed-background-push{stroke:#4a5568}.c-suppressed-force-stopped{stroke:#9b2c2c}.c-scheduled{fill:#4a5568}.c-rescheduled{fill:#d69e2e}\
    .c-fired{fill:#6b46c1}.c-seen{fill:none;stroke:#111;stroke-width:1.5}.c-snoozed{fill:#d69e2e}.c-held{fill:#dd6b20}.c-completed{fill:#2f855a}\
    .c-dismissed{fill:#a0aec0}.c-opened{fill:#3182ce}.c-ignored{fill:#e2e8f0;stroke:#a0aec0}\
    .c-dose-completed{fill:#2f855a}.c-dose-dismissed{fill:#a0aec0}.c-dose-unanswered{fill:#ecc94b}.c-dose-missed{fill:#c53030}.c-dose-silent{fill:#fff;stroke:#2f855a;stroke-width:1.5}\
    .c-message-sent{fill:#3182ce}.c-message-failed{fill:none;stroke:#c53030;stroke-width:2}.c-message-reached{fill:none;stroke:#2f855a;stroke-width:2}\
    .late{fill:none;stroke-width:1.5}.l-dose-completed{stroke:#2f855a}.l-dose-dismissed{stroke:#a0aec0}.l-dose-unanswered{stroke:#b7791f}\
    [data-row=expected]{opacity:.75}.diff{stroke:#e53e3e!important;stroke-width:2.5!important}\
    .hl{stroke:#d69e2e!important;stroke-width:3!important}
    """
}

extension ChartDrawing.MarkKind {
  /// The legend's words.
  var legend: String {
    switch self {
    case .scheduled: "scheduled (added)"
    case .rescheduled: "replaced or moved"
    case .fired: "delivered"
    case .snoozed: "snoozed"
    case .completed: "completed"
    case .dismissed: "dismissed"
    case .opened: "opened"
    case .ignored: "ignored"
    case .dropped: "dropped by a limit"
    case .removed: "removed by the app"
    case .notShownPermission: "not shown: no notification permission"
    case .notShownSettings: "not shown: off in Settings"
    case .notShownChannel: "not shown: no such channel"
    case .notShownForeground: "not shown: app in the foreground"
    case .notDeliveredPhoneOff: "not delivered: phone off"
    case .notDeliveredRegionMonitoring: "not delivered: region monitoring blocked"
    case .notDeliveredBackgroundPush: "background push not given to the app"
    case .notDeliveredForceStopped: "not delivered: app force-stopped"
    case .suppressed: "not shown (cause not recorded)"
    case .held: "held (Focus, phone off)"
    case .seen: "seen by the patient"
    case .inside: "inside the region"
    case .detected: "detected by the device"
    case .undetected: "crossing not detected"
    case .fixes: "track has fixes"
    case .doseCompleted: "dose taken"
    case .doseDismissed: "dose dismissed"
    case .doseUnanswered: "dose unanswered"
    case .doseMissed: "dose missed"
    case .doseSilent: "silent visit, as expected"
    case .messageSent: "server message sent"
    case .messageFailed: "server message went nowhere"
    case .messageReached: "server message perceived"
    }
  }
}
