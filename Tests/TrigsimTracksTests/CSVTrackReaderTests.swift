import Foundation
import Testing
import TrigsimCore

@testable import TrigsimTracks

@Suite struct CSVLayoutTests {
  @Test func headerNamesMatchInAnyOrderIgnoringCaseAndQuotes() throws {
    let fixes = try readCSV("Longitude,\"TIME\",Lat\n12.5683,2026-03-28T05:00:00Z,55.6761\n")
    #expect(fixes == [
      TrackSample(
        instant: SimulationInstant(millisecondsSinceEpoch: ms("2026-03-28T05:00:00Z")),
        coordinate: Coordinate(latitude: 55.6761, longitude: 12.5683), line: 2, startsSegment: true)
    ])
  }

  @Test func leadingHashSpacesUnderscoresAndDashesInHeaderNamesAreIgnored() throws {
    let fixes = try readCSV("# Tracked-At , LatitudeDegrees,lng_deg,horizontal accuracy\n1774674000,1,2,5\n")
    #expect(fixes.map(\.coordinate) == [Coordinate(latitude: 1, longitude: 2)])
    #expect(fixes.first?.horizontalAccuracy == 5)
  }

  @Test(arguments: [
    ("timestamp", "lat", "lng"), ("datetime", "latitude", "long"), ("date_time", "latdeg", "lngdeg"),
    ("unixtime", "lat", "lon"), ("epoch", "latitude", "longitudedegrees"), ("UnixTimeMillis", "LatitudeDegrees", "LongitudeDegrees"),
  ])
  func everyBuiltInNameIsRecognised(time: String, lat: String, lon: String) throws {
    let fixes = try readCSV("\(time),\(lat),\(lon)\n1774674000,1.5,-2.5\n")
    #expect(fixes.map(\.coordinate) == [Coordinate(latitude: 1.5, longitude: -2.5)])
  }

  @Test func earlierNameInTheListWinsWhenHeaderHasSeveral() throws {
    // `latitude` comes before `lat` in the latitude list.
    let fixes = try readCSV("time,lat,latitude,lon\n1774674000,9,1,2\n")
    #expect(fixes.first?.coordinate == Coordinate(latitude: 1, longitude: 2))
  }

  @Test func explicitColumnMappingOverridesTheNameLists() throws {
    var options = TrackReadingOptions()
    options.csv.columns = [.time: "when", .latitude: "y", .longitude: "x", .accuracy: "err"]
    let fixes = try readCSV("x,y,when,err,lat\n12,55,1774674000,3.5,0\n", options)
    #expect(fixes.first?.coordinate == Coordinate(latitude: 55, longitude: 12))
    #expect(fixes.first?.horizontalAccuracy == 3.5)
  }

  @Test func semicolonIsDetectedWhenTheHeaderHasMoreSemicolonsThanCommas() throws {
    let fixes = try readCSV("time;lat;lon;note\n1774674000;55.5;12.5;a,b\n")
    #expect(fixes.first?.coordinate == Coordinate(latitude: 55.5, longitude: 12.5))
  }

  @Test func explicitDelimiterIsUsed() throws {
    var options = TrackReadingOptions()
    options.csv.delimiter = ";"
    let fixes = try readCSV("time;lat;lon\n1774674000;55.5;12.5\n", options)
    #expect(fixes.count == 1)
  }

  @Test func quotedFieldsMayHoldDelimitersEscapedQuotesAndLineBreaks() throws {
    let text = "\"time\",\"lat\",\"lon\",\"note\"\n\"1774674000\",\"55.5\",\"12.5\",\"a, \"\"b\"\"\nc\"\n1774674001,55.6,12.6,x\n"
    let fixes = try readCSV(text)
    #expect(fixes.map(\.coordinate.latitude) == [55.5, 55.6])
    #expect(fixes.map(\.line) == [2, 4])
  }

  @Test func byteOrderMarkCRLFAndBlankLinesAreAccepted() throws {
    let fixes = try readCSV("\u{FEFF}time,lat,lon\r\n\r\n1774674000,1,2\r\n   \r\n1774674001,1,2\r\n\r\n")
    #expect(fixes.map(\.line) == [3, 5])
  }

  @Test func lastRowWithoutLineEndIsRead() throws {
    let fixes = try readCSV("time,lat,lon\n1774674000,1,2\n1774674001,3,4")
    #expect(fixes.map(\.coordinate.latitude) == [1, 3])
  }

  @Test func emptyAccuracyMeansUnknownAndFirstFixStartsASegment() throws {
    let fixes = try readCSV("time,lat,lon,accuracy\n1774674000,1,2,\n1774674001,1,2,4.25\n")
    #expect(fixes.map(\.horizontalAccuracy) == [nil, 4.25])
    #expect(fixes.map(\.startsSegment) == [true, false])
  }

  @Test func rowsLongerThanTheReadChunkAreRead() throws {
    let note = String(repeating: "x", count: CSVTrackReader.chunkSize + 10)
    let fixes = try readCSV("time,lat,lon,note\n1774674000,1,2,\(note)\n1774674001,3,4,y\n")
    #expect(fixes.map(\.coordinate.latitude) == [1, 3])
  }

  @Test func manyRowsAcrossChunkBoundariesKeepLineNumbersAndValues() throws {
    var text = "time,latitude,longitude\n"
    for i in 0..<100_000 { text += "\(1_774_674_000_000 + Int64(i) * 1000),55.\(i % 10)761,12.5683\n" }
    let fixes = try readCSV(text)
    #expect(fixes.count == 100_000)
    let last = try #require(fixes.last)
    #expect(last.line == 100_001)
    let expected: Int64 = 1_774_773_999_000
    #expect(last.instant.millisecondsSinceEpoch == expected)
    #expect(last.coordinate.latitude == 55.9761)
  }
}

@Suite struct CSVTimeFormatTests {
  @Test(arguments: [
    ("1774674000", "2026-03-28T05:00:00.000Z"),  // seconds: below 1e11
    ("1774674000.1239", "2026-03-28T05:00:00.123Z"),  // fraction truncated
    ("1774674000123", "2026-03-28T05:00:00.123Z"),  // milliseconds: 1e11 or more
    ("99999999999", "5138-11-16T09:46:39.000Z"),  // largest seconds value
    ("2026-03-28T05:00:00Z", "2026-03-28T05:00:00.000Z"),
    ("2026-03-28 05:00:00Z", "2026-03-28T05:00:00.000Z"),
    ("2026-03-28T06:00:00+01:00", "2026-03-28T05:00:00.000Z"),
    ("2026-03-28T06:00:00+0100", "2026-03-28T05:00:00.000Z"),
    ("2026-03-28T00:30:00-04:30", "2026-03-28T05:00:00.000Z"),
    ("2026-03-28T05:00:00.123456789Z", "2026-03-28T05:00:00.123Z"),  // any digits, truncated
    ("2026-03-28T05:00:00.9Z", "2026-03-28T05:00:00.900Z"),
    ("2026-03-28T05:00Z", "2026-03-28T05:00:00.000Z"),
    ("2026-03-28T05:00:00", "2026-03-28T05:00:00.000Z"),  // naive: UTC by default
  ])
  func autoFormatReadsEachSpelling(text: String, expected: String) throws {
    let fixes = try readCSV("time,lat,lon\n\(text),1,2\n")
    #expect(fixes.first?.instant.description == expected)
  }

  @Test func naiveTimesAreReadInTheGivenZone() throws {
    var options = TrackReadingOptions()
    options.naiveTimeZone = TimeZone(identifier: "Asia/Shanghai")!
    let fixes = try readCSV("time,lat,lon\n2014-10-22 23:39:17,22.5,114\n", options)
    #expect(fixes.first?.instant.description == "2014-10-22T15:39:17.000Z")
  }

  @Test func naiveTimeRepeatedAtDaylightSavingEndIsTheEarlierInstant() throws {
    var options = TrackReadingOptions()
    options.naiveTimeZone = TimeZone(identifier: "Europe/Copenhagen")!
    let fixes = try readCSV("time,lat,lon\n2026-10-25 02:30:00,1,2\n", options)
    #expect(fixes.first?.instant.description == "2026-10-25T00:30:00.000Z")
  }

  @Test func naiveTimeSkippedAtDaylightSavingStartMovesForward() throws {
    var options = TrackReadingOptions()
    options.naiveTimeZone = TimeZone(identifier: "Europe/Copenhagen")!
    // 02:30 does not exist on 2026-03-29; it is read as 03:30 CEST = 01:30Z.
    let fixes = try readCSV("time,lat,lon\n2026-03-29 02:30:00,1,2\n", options)
    #expect(fixes.first?.instant.description == "2026-03-29T01:30:00.000Z")
  }

  @Test func explicitEpochSecondsReadsLargeValuesAsSeconds() throws {
    var options = TrackReadingOptions()
    options.csv.timeFormat = .epochSeconds
    let fixes = try readCSV("time,lat,lon\n5,1,2\n", options)
    #expect(fixes.first?.instant.millisecondsSinceEpoch == 5000)
  }

  @Test func explicitEpochMillisecondsReadsSmallValuesAsMilliseconds() throws {
    var options = TrackReadingOptions()
    options.csv.timeFormat = .epochMilliseconds
    let fixes = try readCSV("time,lat,lon\n5,1,2\n1000.9,1,2\n", options)
    #expect(fixes.map(\.instant.millisecondsSinceEpoch) == [5, 1000])
  }

  @Test func explicitISOFormatRejectsNumbers() {
    var options = TrackReadingOptions()
    options.csv.timeFormat = .iso8601
    #expect(csvProblems("time,lat,lon\n1774674000,1,2\n", options) == [
      "2:1: time '1774674000' is not an ISO 8601 date and time"
    ])
  }
}

@Suite struct CSVDiagnosticsTests {
  @Test func missingColumnListsTheHeaderAndSuggestsTheClosestName() {
    #expect(csvProblems("tiem,lat,lon\n1,2,3\n", withNotes: true) == [
      """
      1:1: the header has no time column
      note: the header's columns are 'tiem', 'lat', 'lon'
      note: did you mean 'tiem'?
      note: name the column under `columns:` in the scenario's track, e.g. `columns: {time: tiem}`
      """
    ])
  }

  @Test func missingLatitudeAndLongitudeAreBothReported() {
    #expect(csvProblems("time,y,x\n1,2,3\n") == [
      "1:1: the header has no latitude column", "1:1: the header has no longitude column",
    ])
  }

  @Test func mappedColumnNotInTheHeaderIsAnError() {
    var options = TrackReadingOptions()
    options.csv.columns = [.time: "UnixTimeMilis"]
    #expect(csvProblems("UnixTimeMillis,lat,lon\n1,2,3\n", options, withNotes: true) == [
      """
      1:1: the header has no column 'UnixTimeMilis' (named for time under `columns:`)
      note: the header's columns are 'UnixTimeMillis', 'lat', 'lon'
      note: did you mean 'UnixTimeMillis'?
      """
    ])
  }

  @Test func rowWithTooFewFieldsPointsAtTheLineEnd() {
    #expect(csvProblems("time,lat,lon\n1774674000,1\n", withNotes: true) == [
      """
      2:13: row has 2 fields but the header has 3
      note: fields are separated by ','; quote a field that contains one ("a,b")
      """
    ])
  }

  @Test func rowWithTooManyFieldsPointsAtTheFirstExtraField() {
    #expect(csvProblems("time,lat,lon\n1774674000,1,2,3\n") == ["2:16: row has 4 fields but the header has 3"])
  }

  @Test func unreadableNumberNamesTheValue() {
    #expect(csvProblems("time,lat,lon\n1774674000,abc,12\n") == ["2:12: latitude 'abc' is not a number"])
  }

  @Test func unreadableTimeNamesTheValueAndTheAcceptedForms() {
    #expect(csvProblems("time,lat,lon\nyesterday,1,2\n", withNotes: true) == [
      """
      2:1: cannot read time 'yesterday'
      note: write times as ISO 8601 ('2026-03-28T07:00:00Z', '2026-03-28 08:00:00.250+01:00') or as epoch seconds or milliseconds ('1774681200', '1774681200250')
      """
    ])
  }

  @Test func impossibleDateIsUnreadable() {
    #expect(csvProblems("time,lat,lon\n2026-02-30T05:00:00Z,1,2\n") == ["2:1: cannot read time '2026-02-30T05:00:00Z'"])
  }

  @Test func coordinatesOutsideTheirRangesAreErrors() {
    #expect(csvProblems("time,lat,lon\n1774674000,91,2\n1774674001,1,-180.5\n") == [
      "2:12: latitude '91' is outside -90...90",
      "3:14: longitude '-180.5' is outside -180...180",
    ])
  }

  @Test func nanAndInfinityAreNotFiniteNumbers() {
    #expect(csvProblems("time,lat,lon\n1774674000,nan,2\n1774674001,1,-inf\n") == [
      "2:12: latitude 'nan' is not a finite number",
      "3:14: longitude '-inf' is not a finite number",
    ])
  }

  @Test func timeGoingBackwardsIsReportedOnceAtTheFirstOffendingRow() {
    let text = "time,lat,lon\n1774674000,1,2\n1774674005,1,2\n1774674003,1,2\n1774674001,1,2\n"
    #expect(csvProblems(text, withNotes: true) == [
      """
      4:1: time goes backwards: 2026-03-28T05:00:03.000Z is earlier than 2026-03-28T05:00:05.000Z on line 3
      note: set `sort: true` under track to sort points by time (holds the whole track in memory)
      """
    ])
  }

  @Test func equalTimesAreAllowed() throws {
    #expect(try readCSV("time,lat,lon\n1774674000,1,2\n1774674000,1,3\n").count == 2)
  }

  @Test func emptyFileHasNoFixes() {
    #expect(csvProblems("") == ["1:1: track has no fixes: the file is empty"])
    #expect(csvProblems("\n\n") == ["1:1: track has no fixes: the file is empty"])
  }

  @Test func headerOnlyHasNoFixes() {
    #expect(csvProblems("time,lat,lon\n") == ["1:1: track has no fixes: the file has a header but no data rows"])
  }

  @Test func rowWithoutAPositionIsAnErrorWithAHintToRemoveIt() {
    #expect(csvProblems("time,lat,lon\n1774674000,,\n", withNotes: true) == [
      """
      2:12: row has no position: latitude and longitude are both empty
      note: remove rows without a position from the file (for example sensor-only or segment-marker rows); they are not skipped silently
      """
    ])
  }

  @Test func exponentNotationTimeIsRejected() {
    #expect(csvProblems("time,lat,lon\n1.58957E+12,1,2\n", withNotes: true) == [
      """
      2:1: time '1.58957E+12' is in exponent notation, which keeps only 6 significant digits
      note: spreadsheets write long numbers this way and round them; re-export the column as whole numbers (format the cells as Number with 0 decimal places)
      """
    ])
  }

  @Test func everyProblemInTheFileIsReportedTogether() {
    let text = "time,lat,lon\n1774674000,x,2\n1774674001,1\nnope,1,2\n1774674002,1,2\n"
    #expect(csvProblems(text) == [
      "2:12: latitude 'x' is not a number",
      "3:13: row has 2 fields but the header has 3",
      "4:1: cannot read time 'nope'",
    ])
  }

  @Test func columnsCountUnicodeScalarsAndQuotedFieldsPointAtTheirQuote() {
    #expect(csvProblems("note,time,lat,lon\nsmørrebrød,1774674000,\"x\",2\n") == [
      "2:23: latitude 'x' is not a number"
    ])
  }

  @Test func noFixesAreHandedOutOnceAProblemIsFound() {
    var handed = 0
    let reader = CSVTrackReader(path: trackFile("time,lat,lon\n1774674000,1,2\n1774674001,x,2\n1774674002,1,2\n"))
    #expect(throws: InputError.self) {
      try reader.readSamples { _ in
        handed += 1
        return true
      }
    }
    #expect(handed == 1)
  }

  @Test func stoppingEarlyReadsNoFurther() throws {
    var handed = 0
    let reader = CSVTrackReader(path: trackFile("time,lat,lon\n1774674000,1,2\n1774674001,1,2\nbad\n"))
    try reader.readSamples { _ in
      handed += 1
      return false
    }
    #expect(handed == 1)
  }
}

@Suite struct CSVDelimiterOptionTests {
  @Test func delimiterThatIsNotOneASCIICharacterIsAnError() {
    var options = TrackReadingOptions()
    options.csv.delimiter = "\""
    #expect(csvProblems("time,lat,lon\n1774674000,1,2\n", options).first
      == "1:1: the delimiter '\"' cannot be used: it must be one ASCII character other than a quote or a line break")
  }
}
