import Foundation
import Testing
import TrigsimCore

@testable import TrigsimTracks

/// Real tracks from the shared corpus (`../shared/tracks`), read by path;
/// each test is skipped when its file is absent.
@Suite struct CorpusTrackTests {
  /// Why a test is skipped: the public track corpus is not beside the checkout.
  static let absent: Comment = "the public track corpus ../shared/tracks is absent (see README, \"Recorded tracks\")"
  static let appleWatch = corpus("walk-urban-1hz-applewatch-hacc-vacc.gpx")
  static let hike = corpus("hike-day-10s-garmin-2seg.gpx")
  static let androidFix = corpus("drive-1hz-android-fix-epoch-ms.csv")
  static let googleReverse = corpus("walk-sparse-60s-google-reverse-order-semicolon.csv")
  static let pauseMarkers = corpus("malformed-invalid-lat-100-200-pause-markers.gpx")
  static let sciNotation = corpus("malformed-csv-sci-notation-epoch-empty-alt.csv")
  static let emptyTrack = corpus("edge-empty-trk.gpx")
  static let duathlon = corpus("duathlon-run-mtb-crlf-latin1-11trk.gpx")
  static let gpsEpoch = corpus("drive-1hz-gps-epoch-ms-hdop.csv")

  @Test(.enabled(if: appleWatch != nil, Self.absent))
  func appleWatchWalkHasEveryPointWithTimesAndHAccAccuracy() throws {
    let fixes = try samples(of: TrackFile(path: Self.appleWatch!))
    #expect(fixes.count == 1856)
    #expect(fixes.first?.instant.description == "2019-12-15T20:19:55.000Z")
    #expect(fixes.last?.instant.description == "2019-12-15T20:50:53.000Z")
    #expect(fixes.allSatisfy { $0.horizontalAccuracy != nil })
    #expect(fixes.map(\.startsSegment).filter { $0 }.count == 1)
  }

  @Test(.enabled(if: hike != nil, Self.absent))
  func garminHikeHasTwoSegments() throws {
    let fixes = try samples(of: TrackFile(path: Self.hike!))
    #expect(fixes.count == 3540)
    #expect(fixes.map(\.startsSegment).filter { $0 }.count == 2)
  }

  @Test(.enabled(if: androidFix != nil, Self.absent))
  func androidFixCSVReadsWithAnExplicitColumnMapping() throws {
    var options = TrackReadingOptions()
    options.csv.columns = [
      .time: "UnixTimeMillis", .latitude: "LatitudeDegrees", .longitude: "LongitudeDegrees",
      .accuracy: "AccuracyMeters",
    ]
    options.csv.timeFormat = .epochMilliseconds
    let fixes = try samples(of: TrackFile(path: Self.androidFix!, options: options))
    #expect(fixes.count == 200)
    #expect(fixes.first?.instant.millisecondsSinceEpoch == 1_619_735_725_999)
    #expect(fixes.last?.instant.millisecondsSinceEpoch == 1_619_735_924_999)
    #expect(fixes.first?.coordinate == Coordinate(latitude: 37.395817, longitude: -122.102916))
    #expect(fixes.first?.horizontalAccuracy == 0.1)
    // The built-in names find the same columns.
    #expect(try samples(of: TrackFile(path: Self.androidFix!)) == fixes)
  }

  @Test(.enabled(if: googleReverse != nil, Self.absent))
  func reverseOrderedCSVIsAnErrorAtItsSecondRow() {
    #expect(problems(of: TrackFile(path: Self.googleReverse!)) == [
      "3:3: time goes backwards: 2012-12-18T21:29:34.000Z is earlier than 2012-12-18T21:30:35.000Z on line 2"
    ])
  }

  @Test(.enabled(if: googleReverse != nil, Self.absent))
  func reverseOrderedCSVReadsWhenSorted() throws {
    var options = TrackReadingOptions()
    options.sortByTime = true
    let fixes = try samples(of: TrackFile(path: Self.googleReverse!, options: options))
    #expect(fixes.count == 416)
    #expect(fixes.first?.instant.description == "2012-12-18T11:53:30.000Z")
    #expect(fixes.last?.instant.description == "2012-12-18T21:30:35.000Z")
    #expect(fixes.first?.line == 417)
  }

  @Test(.enabled(if: pauseMarkers != nil, Self.absent))
  func openTracksPauseMarkersAreOutOfRangeLatitudes() {
    #expect(problems(of: TrackFile(path: Self.pauseMarkers!)) == [
      "42:31: latitude '100' is outside -90...90",
      "46:31: latitude '200' is outside -90...90",
    ])
  }

  /// A spreadsheet turned 1589570000000-ish milliseconds into `1.58957E+12`:
  /// six significant digits, so every row gets the same instant, up to 2.8 h
  /// off. Reading it would replay a wrong track silently, so it is an error
  /// on every row, with a note on how to re-export.
  @Test(.enabled(if: sciNotation != nil, Self.absent))
  func spreadsheetExponentEpochIsRejectedOnEveryRow() {
    #expect(problems(of: TrackFile(path: Self.sciNotation!)) == [
      "2:57: time '1.58957E+12' is in exponent notation, which keeps only 6 significant digits",
      "3:58: time '1.58957E+12' is in exponent notation, which keeps only 6 significant digits",
      "4:57: time '1.58957E+12' is in exponent notation, which keeps only 6 significant digits",
    ])
  }

  @Test(.enabled(if: emptyTrack != nil, Self.absent))
  func emptyTrackHasNoPoints() {
    #expect(problems(of: TrackFile(path: Self.emptyTrack!)) == [
      "1:1: track has no points: the file has no trkpt, rtept or wpt elements"
    ])
  }

  @Test(.enabled(if: duathlon != nil, Self.absent))
  func latin1CRLFDuathlonParsesAndItsProblemsAreLocated() throws {
    // Two people's recordings in one file: the first 83 points have no time,
    // and the second recording starts earlier than the first one ends.
    #expect(problems(of: TrackFile(path: Self.duathlon!)) == [
      "180:40: the first point of the track has no time",
      "1541:8: time goes backwards: 2002-04-21T14:14:37.000Z is earlier than 2002-04-21T16:38:07.044Z on line 1528",
    ])
    var options = TrackReadingOptions()
    options.untimedTrackStart = SimulationInstant(millisecondsSinceEpoch: ms("2002-04-21T13:00:00Z"))
    options.sortByTime = true
    let fixes = try samples(of: TrackFile(path: Self.duathlon!, options: options))
    #expect(fixes.count == 348)
    #expect(fixes.first?.instant.description == "2002-04-21T13:00:00.000Z")
  }

  @Test(.enabled(if: gpsEpoch != nil, Self.absent))
  func gpsEpochColumnIsNeverTakenForATime() {
    #expect(problems(of: TrackFile(path: Self.gpsEpoch!), withNotes: true) == [
      """
      1:1: the header has no time column
      note: the header's columns are 'collectionName', 'phoneName', 'millisSinceGpsEpoch', 'latDeg', 'lngDeg', 'heightAboveWgs84EllipsoidM', 'timeSinceFirstFixSeconds', 'hDop' and 3 more
      note: \(CSVMessages.gpsEpochNote("millisSinceGpsEpoch"))
      note: name the column under `columns:` in the scenario's track, e.g. `columns: {time: <column>}`
      """
    ])
  }
}
