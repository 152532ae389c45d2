// The places table: the 1-day 1 Hz track with a dynamic region set (5 000
// candidate places, the app monitoring the nearest 20) against the same track
// with the four fixed regions (the baseline), in turn, and the nearest-20 query
// in this process with the grid index and by brute force.

import Foundation
import TrigsimCore
import TrigsimTracks

/// 5 000 candidate pharmacies around the routine's stops: over 30 km × 30 km
/// (about 5.6 a square kilometre, the nearest 20 within about 1 km: a
/// region's pharmacies), and, as a stress case, over 8 km × 8 km (about 78
/// a square kilometre: every point lies in two or three 100 m circles, so
/// the true crossings themselves dominate the run).
let benchmarkPlaceSets = [
  (label: "30 km × 30 km", places: SyntheticPlaces(
    center: Coordinate(latitude: 55.6820, longitude: 12.5740), width: 30_000, height: 30_000, count: 5000, seed: 5)),
  (label: "8 km × 8 km", places: SyntheticPlaces(
    center: Coordinate(latitude: 55.6820, longitude: 12.5740), width: 8000, height: 8000, count: 5000, seed: 5)),
]
let benchmarkPlaces = benchmarkPlaceSets[0].places

/// The benchmark scenario with its four regions and their requests replaced
/// by a place set of `benchmarkPlaces` and one medicine whose location
/// reminder covers it (the app monitors the nearest 20, refreshed at every
/// significant-change report); the calendar and interval requests stay.
func placesScenarioText(days: Int, track: String, places: String) -> String {
  let end = InstantFormatter.utc.string(for: start.advanced(by: .hours(Int64(days) * 24)))
  return """
    trigsim: 1
    name: Benchmark \(days)-day 1 Hz, 5000 places
    clock: { start: \(InstantFormatter.utc.string(for: start)), end: \(end), timezone: Europe/Copenhagen }
    track: { file: \(track) }
    places:
      pharmacies: { file: \(places), radius: 100 }
    regionSet: { nearest: 20, refresh: 500m, significantChange: true }
    notifications:
      - { id: morning, title: Morning pills, trigger: { calendar: { hour: 8, minute: 0 }, repeats: true } }
      - { id: evening, title: Evening pills, trigger: { calendar: { hour: 20, minute: 0 }, repeats: true } }
      - { id: water, title: Drink water, trigger: { interval: 2h, repeats: true } }
    medicines:
      - { id: 1, name: Pickup, dosage: 1, unit: prescription, location: { places: pharmacies, on: [enter] }, snooze: none }

    """
}

extension Benchmark {
  func measurePlaces() throws {
    print("")
    print("places: median of \(runs) runs in turn; baseline = the same track through the four fixed regions, in the same run")
    print("| track | places | spread | 4 regions s | nearest 20 of places s | places ÷ 4 regions | refreshes | timeline lines | peak RSS MB |")
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|")
    let days = 1
    let trackPath = "\(workDirectory)/synthetic-\(days)d-1hz.csv"
    _ = try syntheticTrack(days: days, at: trackPath)
    let fixedPath = "\(workDirectory)/benchmark-\(days)d.yaml"
    try scenarioText(days: days, track: trackPath).write(toFile: fixedPath, atomically: true, encoding: .utf8)
    for (number, set) in benchmarkPlaceSets.enumerated() {
      let placesCSV = "\(workDirectory)/places-5000-\(number).csv"
      try set.places.csv.write(toFile: placesCSV, atomically: true, encoding: .utf8)
      let placesPath = "\(workDirectory)/benchmark-\(days)d-places-\(number).yaml"
      try placesScenarioText(days: days, track: trackPath, places: placesCSV).write(toFile: placesPath, atomically: true, encoding: .utf8)
      let outputPath = "\(workDirectory)/benchmark-\(days)d-places-\(number).timeline"
      var rounds: [(fixed: Measurement, places: Measurement)] = []
      for _ in 0..<runs {
        let fixed = measure([trigsim, "run", fixedPath, "--output", "\(workDirectory)/benchmark-\(days)d.timeline"])
        let places = measure([trigsim, "run", placesPath, "--output", outputPath])
        rounds.append((fixed, places))
      }
      let lines = try String(contentsOfFile: outputPath, encoding: .utf8).split(separator: "\n")
      let refreshes = lines.count { $0.dropFirst(30).hasPrefix("regions ") }
      // The benchmark must measure the region set at work: refreshes that change the set.
      guard refreshes >= 5 else { fatalError("the places scenario refreshed its region set only \(refreshes) times") }
      print(String(
        format: "| %d day | %d | %@ | %.3f | %.3f | %.2f× | %d | %d | %.1f |", days, set.places.count, set.label, middle(rounds.map(\.fixed.seconds)),
        middle(rounds.map(\.places.seconds)), middle(rounds.map { $0.places.seconds / $0.fixed.seconds }), refreshes, lines.count,
        Double(rounds.map(\.places.peakResidentBytes).max()!) / 1_048_576))
    }

    // The nearest-20 query alone: the grid index against measuring every place, at the track's positions.
    print("")
    print("nearest 20 of \(benchmarkPlaces.count) places: \(runs) rounds of 2 000 queries at positions of the 1-day track; baseline = brute force (every place measured), in the same run")
    print("| method | µs per query | brute force ÷ method |")
    print("|---|---:|---:|")
    let grid = NearestPlaces(places: benchmarkPlaces.places)
    var brute = grid
    brute.usesIndex = false
    let track = SyntheticTrack(start: start, days: 1, sampleRate: 1, seed: 7, stops: stops)
    var positions: [Coordinate] = []
    for (index, sample) in track.enumerated() where index % 43 == 0 && positions.count < 2000 { positions.append(sample.coordinate) }
    var gridTimes: [Double] = [], bruteTimes: [Double] = []
    for _ in 0..<runs {
      var fromGrid: [Int] = [], fromBrute: [Int] = []
      fromGrid.reserveCapacity(positions.count)
      fromBrute.reserveCapacity(positions.count)
      let t0 = monotonicSeconds()
      for position in positions { fromGrid.append(grid.nearest(20, to: position).last?.place ?? -1) }
      let t1 = monotonicSeconds()
      for position in positions { fromBrute.append(brute.nearest(20, to: position).last?.place ?? -1) }
      let t2 = monotonicSeconds()
      // Both give the same answer (the property tests check every place, not only the 20th).
      guard fromGrid == fromBrute else { fatalError("the grid and brute force disagree") }
      gridTimes.append((t1 - t0) / Double(positions.count))
      bruteTimes.append((t2 - t1) / Double(positions.count))
    }
    let gridMedian = middle(gridTimes), bruteMedian = middle(bruteTimes)
    print(String(format: "| brute force | %.1f | 1.00× |", bruteMedian * 1e6))
    print(String(format: "| grid index | %.1f | %.1f× |", gridMedian * 1e6, bruteMedian / gridMedian))
  }
}
