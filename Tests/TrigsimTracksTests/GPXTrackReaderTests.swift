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

/// Issue 10: bytes that crashed Foundation's XMLParser, errors located at
/// 0:0, a read error called "not well-formed", file content echoed.
@Suite struct GPXHostileInputTests {
  static let notUTF8 =
    "the file is not well-formed XML: bytes that are not UTF-8, and the file declares no other encoding (libxml2 error 9)"

  /// The diagnostics of reading `bytes` as a GPX file, in full.
  func diagnostics(_ bytes: [UInt8]) -> [Diagnostic] {
    do {
      _ = try samples(of: GPXTrackReader(path: trackFile(bytes: bytes, name: "track.gpx")))
      return []
    } catch let error as InputError {
      return error.diagnostics
    } catch {
      Issue.record("unexpected error: \(error)")
      return []
    }
  }

  func located(_ bytes: [UInt8]) -> [String] {
    diagnostics(bytes).map { "\($0.location.line):\($0.location.column): \($0.message)" }
  }

  static func bytes(_ parts: [String], joinedBy byte: UInt8) -> [UInt8] {
    var result: [UInt8] = []
    for (index, part) in parts.enumerated() {
      if index > 0 { result.append(byte) }
      result += Array(part.utf8)
    }
    return result
  }

  /// Files with a byte that is not UTF-8, and the error at it.
  static let notUTF8Files: [(bytes: [UInt8], expected: String)] = [
    // A Latin-1 'Ó' in an attribute name, an element name, a namespace prefix; no encoding declared.
    (bytes(["<gpx a", "=\"1\"/>"], joinedBy: 0xD3), "1:7: \(notUTF8)"),
    (bytes(["<a", ":gpx xmlns:a", "=\"urn:x\"/>"], joinedBy: 0xD3), "1:3: \(notUTF8)"),
    // …and in a processing instruction's target.
    (bytes(["<?p", "?><gpx/>"], joinedBy: 0xC0), "1:4: \(notUTF8)"),
    // Right after an element name libxml2 stops at the name's end, before decoding the byte.
    (
      bytes(["<gpx", "/>"], joinedBy: 0xD3),
      "1:5: the file is not well-formed XML: a missing or invalid element or attribute name (libxml2 error 68)"
    ),
  ]

  @Test(arguments: notUTF8Files)
  func bytesThatAreNotUTF8AreALocatedError(bytes: [UInt8], expected: String) {
    #expect(located(bytes) == [expected])
  }

  @Test func theNotUTF8ErrorSaysHowToDeclareTheEncoding() {
    let found = diagnostics(Self.notUTF8Files[0].bytes)
    #expect(found.first?.notes == [
      "convert the file to UTF-8, or declare its encoding in its first line, e.g. <?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>"
    ])
  }

  @Test func processingInstructionWithoutDataIsSkipped() throws {
    let text = "<?foo?><gpx><wpt lat=\"1\" lon=\"2\"><time>2026-03-28T05:00:00Z</time></wpt></gpx>"
    #expect(try readGPX(text).map(\.coordinate) == [Coordinate(latitude: 1, longitude: 2)])
    #expect(gpxProblems("<?foo?><gpx/>") == ["1:1: \(GPXMessages.noPoints)"])
  }

  @Test func nulBytesAtTheStartAreLocatedAtLineOneColumnOne() {
    #expect(located([0, 0, 0, 0] + Array("<gpx/>".utf8)) == [
      "1:1: the file is not well-formed XML: no root element: the file is empty or is not XML (libxml2 error 4)"
    ])
  }

  @Test func unusualUCS4ByteOrderIsLocatedAtLineOneColumnOne() {
    // `<g` in UCS-4 with the 2143 byte order, which libxml2 detects but cannot decode.
    #expect(located([0, 0, 0x3C, 0, 0, 0, 0x67, 0] + Array("<gpx/>".utf8)) == [
      "1:1: the file is not well-formed XML: the file's encoding (declared, or told by its first bytes) is unknown or not supported (libxml2 error 32)"
    ])
  }

  @Test func emptyFileSaysSo() {
    #expect(located([]) == ["1:1: track has no points: the file is empty"])
  }

  @Test func readErrorIsAReadErrorNotAnXMLError() throws {
    // Reading the write end of a pipe fails (EBADF) after the open, as EIO
    // would on a failing disk. (/proc/self/mem, which gave EIO, is now refused
    // before reading: see TrackFileOpeningTests.)
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    defer {
      close(ends[0])
      close(ends[1])
    }
    let scenario = InputLocation(file: "s.yaml", line: 4, column: 16)
    #expect {
      try GPXTrackReader(path: "t.gpx", referencedAt: scenario).readSamples(from: ends[1]) { _ in true }
    } throws: { error in
      (error as? InputError)?.description == "s.yaml:4:16: error: cannot read track file 't.gpx': \(String(cString: strerror(EBADF)))"
    }
  }

  @Test func aFileThatIsNotXMLIsNeitherQuotedNorShownUnderTheError() {
    let found = diagnostics(Array("root:$6$s3cretHash:20228:0:99999:7:::\ndaemon:*:20228:0:99999:7:::\n".utf8))
    #expect(found.map(\.message) == [
      "the file is not well-formed XML: no root element: the file is empty or is not XML (libxml2 error 4)"
    ])
    #expect(found.map(\.showsSourceLine) == [false])
    #expect(!found.contains { ($0.message + $0.notes.joined()).contains("s3cret") })
  }

  @Test func anXMLErrorInsideTheDocumentStillShowsItsLine() {
    let found = diagnostics(Array("<gpx><trk></gpx>".utf8))
    #expect(found.map(\.showsSourceLine) == [true])
  }

  @Test func longValuesAreQuotedCutToFortyCharacters() {
    let long = String(repeating: "x", count: 1_000_000)
    let text = gpx11("""
      <wpt lat="\(long)" lon="2"><time>2026-03-28T05:00:00Z</time></wpt>
      <wpt lat="1" lon="2"><time>\(long)</time></wpt>
      <wpt lat="1" lon="2"><time>2026-03-28T05:00:01Z</time><hAcc>\(long)</hAcc></wpt>
      """)
    let forty = String(repeating: "x", count: 40) + "…"
    #expect(gpxProblems(text) == [
      "3:1000020: latitude '\(forty)' is not a number",
      "4:28: cannot read time '\(forty)'",
      "5:21: accuracy '\(forty)' is not a number of metres ≥ 0",
    ])
  }

  @Test func quotedValuesShowLineBreaksEscapedOnOneLine() {
    let text = gpx11("<wpt lat=\"1\" lon=\"2\"><time>2026-03-28\n05:00</time></wpt>")
    #expect(gpxProblems(text) == [#"3:28: cannot read time '2026-03-28\n05:00'"#])
  }

  @Test func aLongNameInLibxml2sOwnMessageIsCut() {
    // Error 28 (a reference to an unparsed entity) is not named in words, so libxml2's message is quoted.
    let name = String(repeating: "n", count: 300)
    let text = """
      <?xml version="1.0"?>
      <!DOCTYPE gpx [<!NOTATION png SYSTEM "image/png"><!ENTITY \(name) SYSTEM "a.png" NDATA png>]>
      <gpx><wpt lat="1" lon="2"><name>&\(name);</name></wpt></gpx>
      """
    let problems = gpxProblems(text)
    #expect(problems.count == 1)
    #expect(problems.first?.contains(String(repeating: "n", count: 40) + "…") == true)
    #expect(problems.first?.contains(String(repeating: "n", count: 41)) == false)
    #expect(problems.first?.hasSuffix("(libxml2 error 28)") == true)
  }

  @Test func consumerStoppingEndsTheReadWithoutAnError() throws {
    let text = gpx11("""
      <trk><trkseg>
        <trkpt lat="1" lon="2"><time>2026-03-28T05:00:00Z</time></trkpt>
        <trkpt lat="1" lon="2"><time>2026-03-28T05:00:01Z</time></trkpt>
      </trkseg></trk>
      <broken
      """)
    var seen = 0
    try GPXTrackReader(path: trackFile(text, name: "track.gpx")).readSamples { _ in
      seen += 1
      return false
    }
    #expect(seen == 1)
  }
}

/// Nothing outside the file is loaded, and entities cannot blow up.
@Suite struct GPXEntityTests {
  /// A file outside the track holding text that would make the track valid if it were loaded.
  func outsideFile(_ text: String, name: String) -> String { trackFile(text, name: name) }

  @Test func anExternalEntityIsNotLoaded() {
    let time = outsideFile("2026-03-28T05:00:00Z", name: "time.txt")
    let text = """
      <?xml version="1.0"?>
      <!DOCTYPE gpx [<!ENTITY t SYSTEM "file://\(time)">]>
      <gpx><wpt lat="1" lon="2"><time>&t;</time></wpt></gpx>
      """
    #expect(gpxProblems(text) == ["3:33: cannot read time ''"])
  }

  @Test func etcPasswdAsAnExternalEntityIsNotLoaded() {
    let text = """
      <?xml version="1.0"?>
      <!DOCTYPE gpx [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
      <gpx><wpt lat="1" lon="2"><time>&xxe;</time></wpt></gpx>
      """
    #expect(gpxProblems(text) == ["3:33: cannot read time ''"])
  }

  @Test func anExternalEntityInAnAttributeIsAnError() {
    let text = """
      <?xml version="1.0"?>
      <!DOCTYPE gpx [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
      <gpx><wpt lat="&xxe;" lon="2"/></gpx>
      """
    #expect(gpxProblems(text) == [
      "3:21: the file is not well-formed XML: an attribute refers to an external entity (external entities are never loaded) (libxml2 error 29)"
    ])
  }

  @Test func anExternalDTDAndAnExternalParameterEntityAreNotLoaded() {
    // Had the declarations been read, `&t;` would be the time and the file valid.
    let declarations = outsideFile("<!ENTITY t \"2026-03-28T05:00:00Z\">", name: "t.dtd")
    let cases = [
      ("<!DOCTYPE gpx SYSTEM \"file://\(declarations)\">", 27),
      ("<!DOCTYPE gpx [<!ENTITY % d SYSTEM \"file://\(declarations)\"> %d;]>", 26),
    ]
    for (doctype, code) in cases {
      let text = "<?xml version=\"1.0\"?>\n\(doctype)\n<gpx><wpt lat=\"1\" lon=\"2\"><time>&t;</time></wpt></gpx>"
      #expect(
        gpxProblems(text) == ["3:36: the file is not well-formed XML: undeclared entity (libxml2 error \(code))"], "\(doctype)")
    }
  }

  @Test func internalEntitiesExpandInTextButNotInAttributes() throws {
    let text = """
      <?xml version="1.0"?>
      <!DOCTYPE gpx [<!ENTITY day "2026-03-28"><!ENTITY lat "55.5">]>
      <gpx><wpt lat="1" lon="2"><time>&day;T05:00:00Z</time></wpt></gpx>
      """
    #expect(try readGPX(text).map(\.instant.description) == ["2026-03-28T05:00:00.000Z"])
    let inAttribute = text.replacingOccurrences(of: "lat=\"1\"", with: "lat=\"&lat;\"")
    #expect(gpxProblems(inAttribute) == ["3:30: latitude '&lat;' is not a number"])
  }

  @Test(.timeLimit(.minutes(1)))
  func billionLaughsStopsWithALocatedError() {
    var text = "<?xml version=\"1.0\"?>\n<!DOCTYPE gpx [\n<!ENTITY lol \"lol\">\n"
    for level in 1...9 {
      text += "<!ENTITY lol\(level) \"\(String(repeating: "&lol\(level == 1 ? "" : String(level - 1));", count: 10))\">\n"
    }
    text += "]>\n<gpx><wpt lat=\"1\" lon=\"2\"><time>&lol9;</time></wpt></gpx>\n"
    #expect(gpxProblems(text) == [
      "14:39: the file is not well-formed XML: an entity that refers to itself, or entity references that expand too far (libxml2 error 89)"
    ])
  }

  @Test(.timeLimit(.minutes(1)))
  func oneLargeEntityReferencedOftenStopsWithALocatedError() {
    // 100 kB × 2000 references = 200 MB of text from a 300 kB file: past 1 MiB + 4 × the file.
    let text = """
      <?xml version="1.0"?>
      <!DOCTYPE gpx [<!ENTITY big "\(String(repeating: "x", count: 100_000))">]>
      <gpx><wpt lat="1" lon="2"><name>\(String(repeating: "&big;", count: 2000))</name></wpt></gpx>
      """
    let problems = gpxProblems(text)
    #expect(problems.count == 1)
    #expect(problems.first?.hasPrefix("3:") == true)
    #expect(problems.first?.contains("entity references in the file expand to more than") == true)
  }

  @Test func aCommentLongerThanLibxml2sLimitIsALocatedError() {
    let text = "<gpx><!--" + String(repeating: "a", count: 11_000_000) + "--></gpx>"
    #expect(gpxProblems(text) == [
      "1:6: the file is not well-formed XML: one tag, comment, CDATA section or processing instruction is longer than libxml2's limit of 10,000,000 bytes (libxml2 error 1)"
    ])
  }

  @Test func bytesNotInTheDeclaredEncodingAreALocatedError() {
    // 0x81 and 0x8D are not characters in windows-1252.
    let bytes =
      Array("<?xml version=\"1.0\" encoding=\"windows-1252\"?>\n<gpx><wpt lat=\"1\" lon=\"2\"><name>".utf8) + [0x81, 0x8D]
      + Array("</name></wpt></gpx>".utf8)
    // Located where libxml2's parser stopped: at the bad bytes, right after `<name>`.
    #expect(problems(of: GPXTrackReader(path: trackFile(bytes: bytes, name: "track.gpx"))) == [
      "2:33: the file is not well-formed XML: bytes that are not valid in the file's declared encoding (libxml2 error 6003)"
    ])
  }
}
