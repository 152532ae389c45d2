import Foundation
import Testing
import TrigsimCore

@testable import TrigsimTracks

/// The rules shared by both readers: untimed points, order, sorting, shifts.
@Suite struct TrackNormalizerTests {
  // 0.001° of longitude on the equator is 111.319 490 8 m on WGS84; at 1.4 m/s
  // that takes 79.513 921 s, truncated to 79 513 ms.
  @Test func untimedPointsAreTimedFromThePreviousPointAtWalkingSpeed() throws {
    let fixes = try readCSV("time,lat,lon\n1774674000,0,0\n,0,0.001\n,0,0.002\n1774674200,0,0.002\n")
    #expect(fixes.map(\.instant.millisecondsSinceEpoch) == [
      1_774_674_000_000, 1_774_674_079_513, 1_774_674_159_026, 1_774_674_200_000,
    ])
  }

  @Test func untimedGPXPointsUseTheTrackStartAndTheConfiguredSpeed() throws {
    var options = TrackReadingOptions()
    options.untimedTrackStart = SimulationInstant(millisecondsSinceEpoch: 1_000_000)
    options.untimedPointSpeed = 10
    let fixes = try readGPX(
      """
      <gpx version="1.1"><rte><rtept lat="0" lon="0"/><rtept lat="0" lon="0.001"/></rte></gpx>
      """, options)
    // 111.3194908 m at 10 m/s = 11 131 ms.
    #expect(fixes.map(\.instant.millisecondsSinceEpoch) == [1_000_000, 1_011_131])
  }

  @Test func untimedFirstPointWithoutATrackStartIsAnError() {
    #expect(gpxProblems("<gpx version=\"1.1\"><wpt lat=\"0\" lon=\"0\"/></gpx>", withNotes: true) == [
      """
      1:40: the first point of the track has no time
      note: give the first point a time; later points without a time are timed from the point before them
      """
    ])
  }

  @Test func untimedPointThatOvertakesTheNextTimedPointIsOutOfOrder() {
    // 111 m at 1.4 m/s is 79 s, later than the next timed point at +10 s.
    #expect(csvProblems("time,lat,lon\n1774674000,0,0\n,0,0.001\n1774674010,0,0.001\n") == [
      "4:1: time goes backwards: 2026-03-28T05:00:10.000Z is earlier than 2026-03-28T05:01:19.513Z on line 3"
    ])
  }

  @Test func shiftByMovesEveryFix() throws {
    var options = TrackReadingOptions()
    options.timeShift = .by(.hours(-1))
    let fixes = try readCSV("time,lat,lon\n1774674000,1,2\n1774674001,1,2\n", options)
    #expect(fixes.map(\.instant.description) == ["2026-03-28T04:00:00.000Z", "2026-03-28T04:00:01.000Z"])
  }

  @Test func startAtPutsTheFirstFixOnTheInstant() throws {
    var options = TrackReadingOptions()
    options.timeShift = .startAt(SimulationInstant(millisecondsSinceEpoch: ms("2030-01-01T08:00:00Z")))
    let fixes = try readCSV("time,lat,lon\n1774674000,1,2\n1774674001.5,1,2\n", options)
    #expect(fixes.map(\.instant.description) == ["2030-01-01T08:00:00.000Z", "2030-01-01T08:00:01.500Z"])
  }

  @Test func sortingOrdersByTimeStablyAndThenShifts() throws {
    var options = TrackReadingOptions()
    options.sortByTime = true
    options.timeShift = .startAt(SimulationInstant(millisecondsSinceEpoch: 0))
    let fixes = try readCSV("time,lat,lon\n1774674005,5,0\n1774674001,1,0\n1774674005,6,0\n1774674003,3,0\n", options)
    #expect(fixes.map(\.coordinate.latitude) == [1, 3, 5, 6])
    #expect(fixes.map(\.instant.millisecondsSinceEpoch) == [0, 2000, 4000, 4000])
    #expect(fixes.map(\.line) == [3, 5, 2, 4])
    #expect(fixes.map(\.startsSegment) == [true, false, false, false])
  }
}

@Suite struct TrackFileTests {
  @Test func formatComesFromTheExtensionInAnyLetterCase() throws {
    let path = trackFile("time,lat,lon\n1774674000,1,2\n", name: "TRACK.CSV")
    #expect(try samples(of: TrackFile(path: path)).count == 1)
    #expect(try TrackFile(path: "x.Gpx").format() == .gpx)
  }

  @Test func explicitFormatOverridesTheExtension() throws {
    let path = trackFile("time,lat,lon\n1774674000,1,2\n", name: "track.txt")
    #expect(try samples(of: TrackFile(path: path, options: TrackReadingOptions(format: .csv))).count == 1)
  }

  @Test func unknownExtensionIsLocatedWhereTheScenarioNamesTheFile() {
    let path = trackFile("x", name: "track.txt")
    let scenario = InputLocation(file: "scenario.yaml", line: 7, column: 12)
    #expect(problems(of: TrackFile(path: path, referencedAt: scenario), withNotes: true) == [
      """
      7:12: cannot tell the format of track file '\(path)' from its extension '.txt'
      note: name the file *.gpx or *.csv, or set `format: gpx` or `format: csv` under track
      """
    ])
  }

  @Test func missingFileIsLocatedWhereTheScenarioNamesTheFile() throws {
    let scenario = InputLocation(file: "scenario.yaml", line: 3, column: 10)
    do {
      _ = try samples(of: TrackFile(path: "/nonexistent/walk.gpx", referencedAt: scenario))
      Issue.record("expected an error")
    } catch let error as InputError {
      #expect(error.description == """
        scenario.yaml:3:10: error: track file '/nonexistent/walk.gpx' not found
        note: looked for '/nonexistent/walk.gpx'
        """)
    }
  }

  @Test func missingFileWithoutAReferenceIsLocatedAtTheFileItself() {
    #expect(problems(of: CSVTrackReader(path: "/nonexistent/a.csv")) == ["1:1: track file '/nonexistent/a.csv' not found"])
  }
}
