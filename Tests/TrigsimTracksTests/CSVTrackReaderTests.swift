import Foundation
import Testing
import TrigsimCore
import TrigsimTestSupport

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

  @Test func rowsAsLongAsTheLimitAreReadAcrossTheReadChunkBoundary() throws {
    // Short rows up to just before the first chunk ends, then a row of exactly
    // the limit (CRLF-terminated) that straddles the boundary.
    var text = "time,lat,lon,note\n"
    var rows = 0
    while text.utf8.count < CSVTrackReader.chunkSize - 1000 {
      text += "\(1_774_674_000 + rows),1,2,y\n"
      rows += 1
    }
    let prefix = "\(1_774_674_000 + rows),3,4,"
    text += prefix + String(repeating: "x", count: CSVTrackReader.maximumLineBytes - prefix.utf8.count) + "\r\n"
    text += "\(1_774_674_001 + rows),5,6,y\n"
    let fixes = try readCSV(text)
    #expect(fixes.count == rows + 2)
    #expect(fixes.suffix(2).map(\.coordinate.latitude) == [3, 5])
    #expect(fixes.last?.line == rows + 3)
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

/// The line limit: memory stays bounded on a file without line breaks.
@Suite struct CSVLineLimitTests {
  @Test func aMegabyteLineWithoutANewlineIsAnErrorAtItsStart() {
    let text = "time,lat,lon\n1774674000,1,2\n" + String(repeating: "x", count: 1 << 20)
    #expect(csvProblems(text, withNotes: true) == [
      """
      3:1: line is longer than 65536 bytes, the most a CSV track line may hold; reading stopped here
      note: \(CSVMessages.lineTooLongNote)
      """
    ])
  }

  @Test func aHeaderOverTheLimitIsAnError() {
    #expect(csvProblems(String(repeating: "time,", count: 20_000) + "\n1,2,3\n")
      == ["1:1: the file is not a CSV track: its first line is longer than 65536 bytes"])
  }

  @Test func aRowOneByteOverTheLimitStopsTheRead() {
    let prefix = "1774674000,1,2,"
    let long = prefix + String(repeating: "x", count: CSVTrackReader.maximumLineBytes + 1 - prefix.utf8.count)
    // The row after it is never read, so its bad latitude is not reported.
    #expect(csvProblems("time,lat,lon,note\n\(long)\n1774674001,x,2,y\n")
      == ["2:1: line is longer than 65536 bytes, the most a CSV track line may hold; reading stopped here"])
  }

  @Test func aQuotedFieldLeftOpenCannotRunOnPastTheLimit() {
    let text = "time,lat,lon\n1774674000,1,\"2\n" + String(repeating: "1774674001,1,2\n", count: 10_000)
    #expect(csvProblems(text).first?.hasPrefix("2:1: line is longer than 65536 bytes") == true)
  }

  @Test func aFileOfNULBytesIsNotACSVTextFileAndIsNotQuoted() {
    let path = trackFile(bytes: [UInt8](repeating: 0, count: 1 << 20), name: "zeros.csv")
    #expect(problems(of: CSVTrackReader(path: path), withNotes: true) == [
      """
      1:1: the file is not a CSV track: its first line holds a NUL byte
      note: \(CSVMessages.notTextNote)
      """
    ])
  }

  @Test func aUTF16FileIsNotACSVTextFile() {
    var bytes: [UInt8] = [0xFF, 0xFE]
    for unit in "time,lat,lon\n1774674000,1,2\n".utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
    #expect(problems(of: CSVTrackReader(path: trackFile(bytes: bytes, name: "utf16.csv")))
      == ["1:1: the file is not a CSV track: its first line holds bytes that are not UTF-8"])
  }

  @Test func binaryNoiseWithoutALineBreakIsNotACSVTextFile() {
    var random = SplitMix64(seed: 7)
    let bytes = (0..<(1 << 20)).map { _ -> UInt8 in
      let word: UInt64 = random.next()
      return UInt8(truncatingIfNeeded: word) | 0x80
    }
    #expect(problems(of: CSVTrackReader(path: trackFile(bytes: bytes, name: "noise.csv")))
      == ["1:1: the file is not a CSV track: its first line holds bytes that are not UTF-8"])
  }
}

/// Values in messages are quoted by `Diagnostic.quote`: cut and escaped.
@Suite struct CSVQuotingTests {
  @Test func aLongBadValueIsCutAtFortyScalars() {
    let value = String(repeating: "y", count: 5_000)
    #expect(csvProblems("time,lat,lon\n1774674000,\(value),2\n")
      == ["2:12: latitude '\(String(repeating: "y", count: 40))…' is not a number"])
  }

  @Test func controlAndNonUTF8BytesInAValueAreEscaped() {
    let bytes = Array("time,lat,lon\n1774674000,1\u{1B}[2J".utf8) + [0xFF] + Array(",2\n1774674001,1,\u{202E}x\n".utf8)
    #expect(problems(of: CSVTrackReader(path: trackFile(bytes: bytes, name: "t.csv"))) == [
      "2:12: latitude '1\\u{1B}[2J\\xFF' is not a number",
      "3:14: longitude '\\u{202E}x' is not a number",
    ])
  }

  @Test func aLongTimeIsCut() {
    let value = "2026-" + String(repeating: "9", count: 100)
    #expect(csvProblems("time,lat,lon\n\(value),1,2\n") == ["2:1: cannot read time '\(String(value.prefix(40)))…'"])
  }

  @Test func theHeaderNoteListsEightColumnsAndCountsTheRest() {
    let header = (1...20).map { "c\($0)" }.joined(separator: ",")
    #expect(csvProblems("\(header),lat,lon\n", withNotes: true).first?.split(separator: "\n")[1]
      == "note: the header's columns are 'c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7', 'c8' and 14 more")
  }
}

/// Times and untimed points become integers only through checked arithmetic.
@Suite struct CSVTimeRangeTests {
  @Test(arguments: ["9999999999999999", "-9999999999999999", "99999999999999999999999"])
  func anEpochBeyondTheYear9999IsOutOfRange(text: String) {
    #expect(csvProblems("time,lat,lon\n\(text),1,2\n", withNotes: true) == [
      """
      2:1: time '\(text)' is out of range
      note: \(TrackMessages.instantRangeNote)
      """
    ])
  }

  @Test func epochSecondsThatOverflowMillisecondsAreOutOfRange() {
    var options = TrackReadingOptions()
    options.csv.timeFormat = .epochSeconds
    #expect(csvProblems("time,lat,lon\n9223372036854775,1,2\n", options) == ["2:1: time '9223372036854775' is out of range"])
  }

  @Test func theLastMillisecondOfTheYear9999IsRead() throws {
    let fixes = try readCSV("time,lat,lon\n253402300799999,1,2\n")
    #expect(fixes.first?.instant.millisecondsSinceEpoch == 253_402_300_799_999)
  }

  @Test func aHugeFractionIsTruncatedToTheMillisecond() throws {
    let fraction = String(repeating: "9", count: 5_000)
    let fixes = try readCSV("time,lat,lon\n1774674000.\(fraction),1,2\n2026-03-28T05:00:01.\(fraction)Z,1,2\n")
    #expect(fixes.map(\.instant.millisecondsSinceEpoch) == [1_774_674_000_999, 1_774_674_001_999])
  }

  @Test func aTinyUntimedSpeedIsAnErrorAtTheUntimedPoint() {
    var options = TrackReadingOptions()
    options.untimedPointSpeed = 1e-12
    #expect(csvProblems("time,lat,lon\n1774674000,0,0\n,0,1\n,0,2\n", options, withNotes: true) == [
      """
      3:1: the point has no time, and 111319.5 m from the point before it at the untimed speed of 1e-12 m/s would put it after the year 9999
      note: \(TrackMessages.untimedPointTooLateNote)
      """
    ])
  }

  @Test func aShiftPastTheYear9999IsAnErrorAtTheFix() {
    var options = TrackReadingOptions()
    options.timeShift = .by(SimulationDuration(milliseconds: .max))
    #expect(csvProblems("time,lat,lon\n1774674000,1,2\n", options) == [
      "2:1: moved by the track's `shift` or `startAt`, the fix at 2026-03-28T05:00:00.000Z would lie outside the years 0000 to 9999"
    ])
  }

  @Test func aSortedTrackThatStartAtMovesPastTheYear9999IsAnErrorAtItsLatestFix() {
    var options = TrackReadingOptions()
    options.sortByTime = true
    options.timeShift = .startAt(SimulationInstant(millisecondsSinceEpoch: 253_402_300_000_000))
    #expect(csvProblems("time,lat,lon\n1774674900,1,2\n1774674000,1,2\n", options) == [
      "2:1: moved by the track's `shift` or `startAt`, the fix at 2026-03-28T05:15:00.000Z would lie outside the years 0000 to 9999"
    ])
  }
}

/// The fast path and the general path read the same rows the same way.
@Suite struct CSVFastPathTests {
  @Test func plainAndDecoratedSpellingsOfTheSameRowsGiveTheSameFixes() throws {
    let plain = """
      time,lat,lon,accuracy
      1774674000123,55.6761559,12.5684336,14.4
      1774674001,-0.5,+179.25,
      2026-03-28T05:00:02.5+00:00,.5,5.,0
      1774674003.0009,1,2,3\r
      1774674004,1.000000000000001,2,3

      """
    let decorated = """
      time,lat,lon,accuracy
      "1774674000123", 55.6761559 ,"12.5684336",14.4
      1774674001,"-0.5",+179.25, 
      "2026-03-28T05:00:02.5+00:00",".5",5.,"0"
      1774674003.0009 ,1,2,3\r
      1774674004,"1.000000000000001",2,3

      """
    let fromPlain = try readCSV(plain)
    #expect(fromPlain.map(\.instant.millisecondsSinceEpoch) == [
      1_774_674_000_123, 1_774_674_001_000, 1_774_674_002_500, 1_774_674_003_000, 1_774_674_004_000,
    ])
    #expect(fromPlain.map(\.coordinate.latitude) == [55.6761559, -0.5, 0.5, 1, 1.000000000000001])
    #expect(fromPlain.map(\.horizontalAccuracy) == [14.4, nil, 0, 3, 3])
    #expect(try readCSV(decorated) == fromPlain)
  }

  @Test(arguments: [
    "0.1", "0.2", "0.3", "55.6761559", "-12.5684336", "89.99999999999", "123456789012345", "0.000000000000001",
    "9007199254740993", "1.7976931348623157", "00000000000000000001.5",
  ])
  func fastDecimalsEqualTheGeneralParser(text: String) {
    var bytes = Array(text.utf8) + [UInt8(ascii: ",")]
    let general = bytes.withUnsafeBufferPointer { parseDecimal(UnsafeBufferPointer(rebasing: $0.dropLast())) }
    let powers = PowersOfTen.allocate()
    defer { powers.deallocate() }
    var p = 0
    let fast = bytes.withUnsafeMutableBufferPointer { fastDecimal(UnsafePointer($0.baseAddress!), &p, powers) }
    if let fast {
      #expect(fast == general)
      #expect(p == text.utf8.count)
    } else {
      #expect(text.filter(\.isNumber).count > 15, "only long mantissas leave the fast path")
    }
  }
}
