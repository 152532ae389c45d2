import Foundation
import Testing
import TrigsimCore

@testable import TrigsimTracks

private func gpx11(_ body: String) -> String {
  """
  <?xml version="1.0" encoding="UTF-8"?>
  <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
  \(body)
  </gpx>

  """
}

@Suite struct GPXReadingTests {
  @Test func trackPointsOfGPX11AreReadWithTimesAndLines() throws {
    let fixes = try readGPX(gpx11("""
      <trk><trkseg>
        <trkpt lat="55.6761" lon="12.5683"><ele>5</ele><time>2026-03-28T05:00:00Z</time></trkpt>
        <trkpt lat="55.6762" lon="12.5684"><time>2026-03-28T05:00:01.250Z</time></trkpt>
      </trkseg></trk>
      """))
    #expect(fixes == [
      TrackSample(
        instant: SimulationInstant(millisecondsSinceEpoch: ms("2026-03-28T05:00:00Z")),
        coordinate: Coordinate(latitude: 55.6761, longitude: 12.5683), line: 4, startsSegment: true),
      TrackSample(
        instant: SimulationInstant(millisecondsSinceEpoch: ms("2026-03-28T05:00:01.250Z")),
        coordinate: Coordinate(latitude: 55.6762, longitude: 12.5684), line: 5, startsSegment: false),
    ])
  }

  @Test func gpx10FilesAreRead() throws {
    let fixes = try readGPX("""
      <?xml version="1.0"?>
      <gpx version="1.0" xmlns="http://www.topografix.com/GPX/1/0">
      <trk><trkseg><trkpt lat="1" lon="2"><time>2010-08-05T14:23:59Z</time><course>4</course></trkpt></trkseg></trk>
      </gpx>
      """)
    #expect(fixes.map(\.coordinate) == [Coordinate(latitude: 1, longitude: 2)])
  }

  @Test func eachTrackAndEachTrackSegmentStartsASegment() throws {
    let fixes = try readGPX(gpx11("""
      <trk><trkseg>
        <trkpt lat="1" lon="1"><time>2026-03-28T05:00:00Z</time></trkpt>
        <trkpt lat="1" lon="1"><time>2026-03-28T05:00:01Z</time></trkpt>
      </trkseg><trkseg></trkseg><trkseg>
        <trkpt lat="1" lon="1"><time>2026-03-28T05:00:02Z</time></trkpt>
      </trkseg></trk>
      <trk><trkseg>
        <trkpt lat="1" lon="1"><time>2026-03-28T05:00:03Z</time></trkpt>
        <trkpt lat="1" lon="1"><time>2026-03-28T05:00:04Z</time></trkpt>
      </trkseg></trk>
      """))
    #expect(fixes.map(\.startsSegment) == [true, false, true, true, false])
  }

  @Test func routePointsAreReadWhenThereIsNoTrack() throws {
    let fixes = try readGPX(gpx11("""
      <wpt lat="9" lon="9"><time>2026-03-28T04:00:00Z</time></wpt>
      <rte><rtept lat="1" lon="2"><time>2026-03-28T05:00:00Z</time></rtept>
      <rtept lat="3" lon="4"><time>2026-03-28T05:01:00Z</time></rtept></rte>
      <rte><rtept lat="5" lon="6"><time>2026-03-28T05:02:00Z</time></rtept></rte>
      """))
    #expect(fixes.map(\.coordinate.latitude) == [1, 3, 5])
    #expect(fixes.map(\.startsSegment) == [true, false, true])
  }

  @Test func waypointsAreReadWhenThereIsNoTrackOrRouteAndFormOneSegment() throws {
    let fixes = try readGPX(gpx11("""
      <wpt lat="1" lon="2"><time>2026-03-28T05:00:00Z</time></wpt>
      <wpt lat="3" lon="4"><time>2026-03-28T05:01:00Z</time></wpt>
      """))
    #expect(fixes.map(\.coordinate.latitude) == [1, 3])
    #expect(fixes.map(\.startsSegment) == [true, false])
  }

  @Test func waypointsBeforeATrackAreDroppedInAutoSelection() throws {
    let text = gpx11("""
      <wpt lat="9" lon="9"><time>2026-03-28T09:00:00Z</time></wpt>
      <trk><trkseg><trkpt lat="1" lon="2"><time>2026-03-28T05:00:00Z</time></trkpt></trkseg></trk>
      <wpt lat="8" lon="8"><time>2026-03-28T10:00:00Z</time></wpt>
      """)
    #expect(try readGPX(text).map(\.coordinate.latitude) == [1])
    var options = TrackReadingOptions()
    options.gpxPoints = .waypoints
    #expect(try readGPX(text, options).map(\.coordinate.latitude) == [9, 8])
  }

  @Test func explicitSelectionWithoutSuchPointsSaysWhatTheFileHas() {
    var options = TrackReadingOptions()
    options.gpxPoints = .routes
    let text = gpx11("<trk><trkseg><trkpt lat=\"1\" lon=\"2\"><time>2026-03-28T05:00:00Z</time></trkpt></trkseg></trk>")
    #expect(gpxProblems(text, options, withNotes: true) == [
      """
      1:1: track has no points: the file has no rtept elements
      note: the file has 1 trkpt; choose them with `points:` under track (tracks, routes, waypoints)
      """
    ])
  }

  @Test func namespacePrefixesAreMatchedByLocalName() throws {
    let fixes = try readGPX("""
      <?xml version="1.0"?>
      <gpx:gpx version="1.1" xmlns:gpx="http://www.topografix.com/GPX/1/1">
      <gpx:trk><gpx:trkseg><gpx:trkpt lat="1" lon="2"><gpx:time>2026-03-28T05:00:00Z</gpx:time></gpx:trkpt></gpx:trkseg></gpx:trk>
      </gpx:gpx>
      """)
    #expect(fixes.map(\.coordinate) == [Coordinate(latitude: 1, longitude: 2)])
    #expect(fixes.first?.instant.description == "2026-03-28T05:00:00.000Z")
  }

  @Test func horizontalAccuracyComesFromAnHAccExtensionNotFromHdop() throws {
    let fixes = try readGPX(gpx11("""
      <trk><trkseg>
        <trkpt lat="1" lon="2"><time>2026-03-28T05:00:00Z</time><hdop>3</hdop><extensions><hAcc>4.5</hAcc></extensions></trkpt>
        <trkpt lat="1" lon="2"><time>2026-03-28T05:00:01Z</time><extensions><x:horizontalAccuracy xmlns:x="urn:x">7</x:horizontalAccuracy></extensions></trkpt>
        <trkpt lat="1" lon="2"><time>2026-03-28T05:00:02Z</time><hdop>3</hdop></trkpt>
      </trkseg></trk>
      """))
    #expect(fixes.map(\.horizontalAccuracy) == [4.5, 7, nil])
  }

  @Test func timesWithOffsetsAndFractionsAreRead() throws {
    let fixes = try readGPX(gpx11("""
      <wpt lat="1" lon="2"><time>2026-03-28T06:00:00.1239+01:00</time></wpt>
      <wpt lat="1" lon="2"><time>
        2026-03-28T05:00:01Z
      </time></wpt>
      """))
    #expect(fixes.map(\.instant.description) == ["2026-03-28T05:00:00.123Z", "2026-03-28T05:00:01.000Z"])
  }

  @Test func byteOrderMarkAndLatin1EncodingAreAccepted() throws {
    var bytes: [UInt8] = [0xEF, 0xBB, 0xBF]
    bytes += Array(gpx11("<wpt lat=\"1\" lon=\"2\"><name>a</name></wpt>").utf8)
    var options = TrackReadingOptions()
    options.untimedTrackStart = SimulationInstant(millisecondsSinceEpoch: 0)
    #expect(try samples(of: GPXTrackReader(path: trackFile(bytes: bytes, name: "bom.gpx"), options: options)).count == 1)

    var latin1 = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<gpx version=\"1.1\"><wpt lat=\"1\" lon=\"2\"><name>Caf".utf8)
    latin1 += [0xE9]  // é in ISO-8859-1
    latin1 += Array("</name><time>2026-03-28T05:00:00Z</time></wpt></gpx>\n".utf8)
    #expect(try samples(of: GPXTrackReader(path: trackFile(bytes: latin1, name: "latin1.gpx"))).count == 1)
  }
}

@Suite struct GPXDiagnosticsTests {
  @Test func missingNonNumericAndOutOfRangeCoordinatesAreLocatedAtTheEndOfTheStartTag() {
    let text = gpx11("""
      <trk><trkseg>
        <trkpt lon="2"><time>2026-03-28T05:00:00Z</time></trkpt>
        <trkpt lat="undefined" lon="2"><time>2026-03-28T05:00:01Z</time></trkpt>
        <trkpt lat="100" lon="0"><time>2026-03-28T05:00:02Z</time></trkpt>
        <trkpt lat="1" lon="181"/>
      </trkseg></trk>
      """)
    #expect(gpxProblems(text) == [
      "4:17: trkpt has no 'lat' attribute",
      "5:33: latitude 'undefined' is not a number",
      "6:27: latitude '100' is outside -90...90",
      "7:27: longitude '181' is outside -180...180",
    ])
  }

  @Test func pauseMarkerLatitudesGetANote() {
    let text = gpx11("<trk><trkseg><trkpt lat=\"200\" lon=\"0\"/></trkseg></trk>")
    #expect(gpxProblems(text, withNotes: true) == [
      """
      3:38: latitude '200' is outside -90...90
      note: legacy OpenTracks exports mark pauses with lat="100" (pause) and lat="200" (resume); these are not positions
      note: remove the trkpt element or correct its coordinates
      """
    ])
  }

  @Test func unreadableTimeIsLocatedAtTheTimeText() {
    let text = gpx11("<wpt lat=\"1\" lon=\"2\"><time>28/03/2026 05:00</time></wpt>")
    #expect(gpxProblems(text) == ["3:28: cannot read time '28/03/2026 05:00'"])
  }

  @Test func timeGoingBackwardsNamesTheEarlierLine() {
    let text = gpx11("""
      <trk><trkseg>
        <trkpt lat="1" lon="2"><time>2026-03-28T05:00:05Z</time></trkpt>
        <trkpt lat="1" lon="2"><time>2026-03-28T05:00:01Z</time></trkpt>
      </trkseg></trk>
      """)
    #expect(gpxProblems(text) == [
      "5:32: time goes backwards: 2026-03-28T05:00:01.000Z is earlier than 2026-03-28T05:00:05.000Z on line 4"
    ])
  }

  @Test func xmlErrorsAreLocatedWhereLibxml2Stopped() {
    let text = gpx11("<trk><trkseg><trkpt lat=\"1\" lon=\"2\"><time>2026-03-28T05:00:00Z</time></trkseg></trk>")
    #expect(gpxProblems(text) == [
      "3:79: the file is not well-formed XML: closing tag does not match the opening tag (libxml2 error 76)"
    ])
  }

  @Test func truncatedFileIsNotWellFormed() {
    let text = "<?xml version=\"1.0\"?>\n<gpx>\n<trk><trkseg><trkpt lat=\"1\" lon=\"2\"><time>2026-03-28T05:00:00Z</time>"
    #expect(gpxProblems(text) == [
      "3:70: the file is not well-formed XML: extra content at the end of the document, or the document ends early (libxml2 error 5)"
    ])
  }

  @Test func fileWithoutPointsHasNoPoints() {
    #expect(gpxProblems(gpx11("<trk><trkseg></trkseg></trk>")) == [
      "1:1: track has no points: the file has no trkpt, rtept or wpt elements"
    ])
  }
}

@Suite struct GPXPointSelectionTests {
  @Test func emptyTrackOrRouteElementsDoNotHideWaypoints() throws {
    let fixes = try readGPX(gpx11("""
      <wpt lat="1" lon="2"><time>2026-03-28T05:00:00Z</time></wpt>
      <rte/>
      <trk><trkseg/></trk>
      <wpt lat="3" lon="4"><time>2026-03-28T05:01:00Z</time></wpt>
      """))
    #expect(fixes.map(\.coordinate.latitude) == [1, 3])
  }

  @Test func explicitRouteSelectionIgnoresTrackPoints() throws {
    var options = TrackReadingOptions()
    options.gpxPoints = .routes
    let fixes = try readGPX(gpx11("""
      <trk><trkseg><trkpt lat="9" lon="9"><time>2026-03-28T05:00:00Z</time></trkpt></trkseg></trk>
      <rte><rtept lat="1" lon="2"><time>2026-03-28T04:00:00Z</time></rtept></rte>
      """), options)
    #expect(fixes.map(\.coordinate.latitude) == [1])
  }
}

@Suite struct TrackFileFolderTests {
  @Test func aFolderIsNotATrackFile() {
    let folder = temporaryFolder().path
    let scenario = InputLocation(file: "s.yaml", line: 2, column: 8)
    #expect(problems(of: CSVTrackReader(path: folder, referencedAt: scenario)) == [
      "2:8: cannot read track file '\(folder)': Is a directory"
    ])
  }
}

@Suite struct GPXBrokenXMLTests {
  @Test func startTagCutShortReportsOnlyTheXMLError() {
    let text = "<gpx version=\"1.1\"><trk><trkseg><trkpt lat=\"1\" lo"
    #expect(gpxProblems(text).count == 1)
    #expect(gpxProblems(text).first?.contains("not well-formed XML") == true)
  }
}
