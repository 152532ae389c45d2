import Foundation
import Testing
import TrigsimCore

@testable import TrigsimTracks

private let home = SyntheticTrack.Stop(
  name: "home", coordinate: Coordinate(latitude: 55.6761, longitude: 12.5683), dwell: .hours(8))
private let office = SyntheticTrack.Stop(
  name: "office", coordinate: Coordinate(latitude: 55.6867, longitude: 12.5701), dwell: .hours(8))
private let shop = SyntheticTrack.Stop(
  name: "shop", coordinate: Coordinate(latitude: 55.6790, longitude: 12.5600), dwell: .minutes(30))

private func routine(seed: UInt64 = 7, days: Int = 2, rate: Double = 0.1) -> SyntheticTrack {
  SyntheticTrack(
    start: SimulationInstant(millisecondsSinceEpoch: ms("2026-03-28T00:00:00Z")), days: days, sampleRate: rate,
    seed: seed, stops: [home, office, shop])
}

@Suite struct SyntheticTrackTests {
  @Test func sameArgumentsGiveByteIdenticalFiles() throws {
    let folder = temporaryFolder()
    for format in TrackFormat.allCases {
      let a = folder.appendingPathComponent("a.\(format.rawValue)").path
      let b = folder.appendingPathComponent("b.\(format.rawValue)").path
      try TrackWriter.write(routine(), to: a, format: format)
      try TrackWriter.write(routine(), to: b, format: format)
      #expect(FileManager.default.contents(atPath: a) == FileManager.default.contents(atPath: b))
    }
  }

  @Test func differentSeedsGiveDifferentTracks() {
    #expect(Array(routine(seed: 1).prefix(100)) != Array(routine(seed: 2).prefix(100)))
  }

  @Test func fixesComeAtTheSampleRateForTheWholeSpan() {
    let fixes = Array(routine(days: 1, rate: 0.5))
    #expect(fixes.count == 43_200)
    #expect(fixes.first?.instant.description == "2026-03-28T00:00:00.000Z")
    #expect(fixes.last?.instant.description == "2026-03-28T23:59:58.000Z")
    #expect(fixes.map(\.startsSegment).filter { $0 }.count == 1)
  }

  @Test func theRoutineVisitsEveryStop() {
    var nearest: [String: Double] = [:]
    for fix in routine(days: 1) {
      for stop in [home, office, shop] {
        nearest[stop.name] = min(nearest[stop.name] ?? .infinity, Geodesic.distance(fix.coordinate, stop.coordinate))
      }
    }
    #expect(nearest.values.allSatisfy { $0 < 30 }, "\(nearest)")
  }

  @Test func writtenCSVReadsBackToTheSameFixesWithinRounding() throws {
    let path = temporaryFolder().appendingPathComponent("r.csv").path
    let original = Array(routine(days: 1))
    try TrackWriter.write(original, to: path, format: .csv)
    let read = try samples(of: TrackFile(path: path))
    #expect(read.count == original.count)
    for (a, b) in zip(original, read) {
      #expect(a.instant == b.instant)
      #expect(abs(a.coordinate.latitude - b.coordinate.latitude) <= 0.5e-7)
      #expect(abs(a.coordinate.longitude - b.coordinate.longitude) <= 0.5e-7)
      #expect(abs(a.horizontalAccuracy! - b.horizontalAccuracy!) <= 0.05)
    }
  }

  @Test func writtenGPXReadsBackWithAccuracy() throws {
    let path = temporaryFolder().appendingPathComponent("r.gpx").path
    let original = Array(routine(days: 1, rate: 0.01))
    try TrackWriter.write(original, to: path, format: .gpx)
    let read = try samples(of: TrackFile(path: path))
    #expect(read.map(\.instant) == original.map(\.instant))
    #expect(read.map(\.horizontalAccuracy) == original.map(\.horizontalAccuracy))
  }

  @Test func csvRowsHaveEpochMillisecondsAndSevenDecimals() throws {
    let path = temporaryFolder().appendingPathComponent("r.csv").path
    try TrackWriter.write(
      [TrackSample(
        instant: SimulationInstant(millisecondsSinceEpoch: 1_774_674_000_000),
        coordinate: Coordinate(latitude: 55.6761, longitude: -0.00000004), horizontalAccuracy: 4.25)],
      to: path, format: .csv)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "time,latitude,longitude,accuracy\n1774674000000,55.6761000,0.0000000,4.3\n")
  }
}

/// The generated fixtures in `fixtures/tracks/` are exactly what the
/// generator gives today. `TRIGSIM_RECORD=1 swift test` rewrites them (and
/// still fails, so that a change is always reviewed).
@Suite struct GeneratedFixtureTests {
  static let copenhagenRoutine = SyntheticTrack(
    start: SimulationInstant(millisecondsSinceEpoch: 1_774_656_000_000),  // 2026-03-28T00:00:00Z
    days: 1, sampleRate: 1.0 / 60, seed: 2026,
    stops: [
      .init(name: "home", coordinate: Coordinate(latitude: 55.6761, longitude: 12.5683), dwell: .hours(8)),
      .init(name: "office", coordinate: Coordinate(latitude: 55.6867, longitude: 12.5701), dwell: .hours(8)),
      .init(name: "pharmacy", coordinate: Coordinate(latitude: 55.6790, longitude: 12.5600), dwell: .minutes(20)),
    ])

  @Test(arguments: TrackFormat.allCases)
  func generatedRoutineFixtureMatchesTheGenerator(format: TrackFormat) throws {
    let fixturePath = fixture("tracks/synthetic-copenhagen-routine-1day.\(format.rawValue)")
    let fresh = temporaryFolder().appendingPathComponent("fresh.\(format.rawValue)").path
    try TrackWriter.write(Self.copenhagenRoutine, to: fresh, format: format)
    if ProcessInfo.processInfo.environment["TRIGSIM_RECORD"] == "1" {
      try? FileManager.default.removeItem(atPath: fixturePath)
      try FileManager.default.copyItem(atPath: fresh, toPath: fixturePath)
      Issue.record("recorded new fixture \(fixturePath)")
      return
    }
    #expect(
      FileManager.default.contents(atPath: fresh) == FileManager.default.contents(atPath: fixturePath),
      "\(fixturePath) differs from the generator's output; if intended, re-run with TRIGSIM_RECORD=1 and review")
    #expect(try samples(of: TrackFile(path: fixturePath)).count == 1440)
  }
}

/// Broken inputs kept as files, named after the test that reads them.
@Suite struct InvalidFixtureTests {
  @Test func csvRowsWithSeveralProblemsAreReportedTogether() {
    #expect(problems(of: TrackFile(path: fixture("invalid/csvRowsWithSeveralProblemsAreReportedTogether.csv"))) == [
      "3:22: latitude '95.1' is outside -90...90",
      "4:1: cannot read time '2026-03-28T25:00:00Z'",
      "5:2: row has no position: latitude and longitude are both empty",
      "6:30: longitude 'twelve' is not a number",
    ])
  }

  @Test func gpxPointsWithBadCoordinatesAndTimesAreReportedTogether() {
    #expect(problems(of: TrackFile(path: fixture("invalid/gpxPointsWithBadCoordinatesAndTimesAreReportedTogether.gpx"))) == [
      "5:33: latitude 'y' is not a number",
      "6:46: cannot read time '2026-03-28T05:00:02'Z'",
    ])
  }
}

/// Arguments that would overflow an instant are refused by `SyntheticTrack.problem`, not trapped on.
@Suite struct SyntheticTrackArgumentTests {
  let start = SimulationInstant(millisecondsSinceEpoch: 1_772_323_200_000)  // 2026-03-01

  @Test func theDefaultRoutineIsFine() {
    #expect(SyntheticTrack.problem(start: start, days: 30, sampleRate: 1, stops: [home, office, shop]) == nil)
  }

  @Test func daysEndingAfterTheYear9999AreRefused() {
    #expect(SyntheticTrack.problem(start: start, days: Int.max, sampleRate: 1, stops: [home])
      == "\(Int.max) days from 2026-03-01T00:00:00.000Z would end after the year 9999")
    #expect(SyntheticTrack.problem(start: start, days: 3_000_000, sampleRate: 1, stops: [home]) != nil)
  }

  @Test func aHugeDwellOrRateOrABadCoordinateIsRefused() {
    let forever = SyntheticTrack.Stop(name: "away", coordinate: home.coordinate, dwell: SimulationDuration(milliseconds: .max))
    #expect(SyntheticTrack.problem(start: start, days: 1, sampleRate: 1, stops: [home, forever])
      == "stop 'away' stays \(SimulationDuration(milliseconds: .max)): a dwell must lie within 0s...366d")
    #expect(SyntheticTrack.problem(start: start, days: 1, sampleRate: 1e300, stops: [home]) != nil)
    #expect(SyntheticTrack.problem(start: start, days: 1, sampleRate: .nan, stops: [home]) != nil)
    let nowhere = SyntheticTrack.Stop(name: "nowhere", coordinate: Coordinate(latitude: .nan, longitude: 0), dwell: .hours(1))
    #expect(SyntheticTrack.problem(start: start, days: 1, sampleRate: 1, stops: [home, nowhere])
      == "stop 'nowhere' has no valid latitude and longitude")
  }

  @Test func theLongestRoutineEndsWithoutOverflow() {
    let slowStop = SyntheticTrack.Stop(name: "slow", coordinate: office.coordinate, dwell: SyntheticTrack.maximumDwell)
    let track = SyntheticTrack(start: start, days: 400, sampleRate: 1e-5, seed: 1, stops: [home, slowStop])
    let fixes = Array(track)
    #expect(fixes.count == 345)
    #expect(zip(fixes, fixes.dropFirst()).allSatisfy { $0.instant < $1.instant })
  }
}
