// The synthetic inputs the tables share: the start instant and the routine's
// stops, the 1 Hz tracks, the benchmark scenario with four regions, the
// medicine app added to it, and the trials scenario.

import Foundation
import TrigsimCore
import TrigsimTracks

let start = SimulationInstant(millisecondsSinceEpoch: 1_772_323_200_000)  // 2026-03-01T00:00:00Z
let stops = [
  SyntheticTrack.Stop(name: "home", coordinate: Coordinate(latitude: 55.6761, longitude: 12.5683), dwell: .hours(8)),
  SyntheticTrack.Stop(name: "pharmacy", coordinate: Coordinate(latitude: 55.6795, longitude: 12.5775), dwell: .minutes(15)),
  SyntheticTrack.Stop(name: "office", coordinate: Coordinate(latitude: 55.6867, longitude: 12.5700), dwell: .hours(8)),
  SyntheticTrack.Stop(name: "park", coordinate: Coordinate(latitude: 55.6880, longitude: 12.5790), dwell: .minutes(45)),
]

/// The benchmark's synthetic 1 Hz track of `days` days, written to `path` once per work folder.
func syntheticTrack(days: Int, at path: String) throws -> SyntheticTrack {
  let track = SyntheticTrack(start: start, days: days, sampleRate: 1, seed: 7, stops: stops)
  if !FileManager.default.fileExists(atPath: path) { try TrackWriter.write(track, to: path, format: .csv) }
  return track
}

/// The benchmark scenario over `days` days of the track at `track`: four regions (three circles
/// and a polygon), two daily calendar requests, a 2-hour interval and four location requests.
func scenarioText(days: Int, track: String) -> String {
  let end = InstantFormatter.utc.string(for: start.advanced(by: .hours(Int64(days) * 24)))
  return """
    trigsim: 1
    name: Benchmark \(days)-day 1 Hz
    clock: { start: \(InstantFormatter.utc.string(for: start)), end: \(end), timezone: Europe/Copenhagen }
    track: { file: \(track) }
    regions:
      - { id: home, center: [55.6761, 12.5683] }
      - { id: pharmacy, center: [55.6795, 12.5775], radius: 80 }
      - { id: office, center: [55.6867, 12.5700], radius: 150 }
      - { id: park, polygon: [[55.6875, 12.5780], [55.6885, 12.5780], [55.6885, 12.5800], [55.6875, 12.5800]] }
    notifications:
      - { id: morning, title: Morning pills, trigger: { calendar: { hour: 8, minute: 0 }, repeats: true } }
      - { id: evening, title: Evening pills, trigger: { calendar: { hour: 20, minute: 0 }, repeats: true } }
      - { id: water, title: Drink water, trigger: { interval: 2h, repeats: true } }
      - { id: home, title: Welcome home, trigger: { region: home, on: [enter], repeats: true } }
      - { id: pharmacy, title: Pick up refill, trigger: { region: pharmacy, on: [enter], repeats: true } }
      - { id: office, title: Left the office, trigger: { region: office, on: [exit], repeats: true } }
      - { id: park, title: Walk done, trigger: { region: park, on: [enter, exit], repeats: true } }

    """
}

/// The medicine app added to the benchmark scenario: 6 medicines × 4 daily
/// times × (1 + 10 upfront follow-ups) = 264 requests at the start, so the
/// pending limit drops some every day; a location reminder on `home`; the
/// patient completes two medicines' alerts, snoozes one twice and ignores the rest.
let medicineAppText = """
  medicines:
    - { id: 1, name: Metformin, dosage: 500, unit: mg, times: ["07:00", "12:00", "17:00", "22:00"] }
    - { id: 2, name: Lisinopril, dosage: 10, unit: mg, times: ["07:30", "12:30", "17:30", "22:30"] }
    - { id: 3, name: Atorvastatin, dosage: 20, unit: mg, times: ["08:00", "13:00", "18:00", "23:00"] }
    - { id: 4, name: Levothyroxine, dosage: 50, unit: µg, times: ["06:00", "11:00", "16:00", "21:00"], snooze: { every: 6m, count: 10, schedule: onDelivery } }
    - { id: 5, name: Warfarin, dosage: 5, unit: mg, times: ["09:00", "14:00", "19:00", "23:30"] }
    - { id: 6, name: Insulin, dosage: 12, unit: IU, times: ["06:30", "11:30", "16:30", "21:30"], location: { region: home, on: [enter] } }
  respond:
    - { to: "medicine_1_*", after: 2m, actions: [complete] }
    - { to: "medicine_2_*", after: 1m, actions: [snooze 15m, snooze 15m, complete] }
    - { to: "medicine_6_*", after: 30s, actions: [open, complete] }

  """

extension Benchmark {
  /// The medicine benchmark scenario on a `days`-day synthetic track (written
  /// once), with the six medicines of `medicineAppText` and without the raw
  /// `notifications:` (iOS requests): what the two-phone, storm and server tables run.
  func medicineScenario(days: Int) throws -> String {
    let trackPath = "\(workDirectory)/synthetic-\(days)d-1hz.csv"
    _ = try syntheticTrack(days: days, at: trackPath)
    let full = scenarioText(days: days, track: trackPath)
    return String(full[..<full.range(of: "notifications:")!.lowerBound]) + medicineAppText
  }

  /// Writes the trials benchmark's scenario (a `days`-day 1 Hz synthetic track,
  /// four circles, five location requests, the app in the foreground) into the
  /// work folder; returns its path and the track's fix count.
  func writeTrialsScenario(days: Int = 1) throws -> (path: String, fixes: Int) {
    let trackPath = "\(workDirectory)/synthetic-\(days)d-1hz.csv"
    let track = SyntheticTrack(start: start, days: days, sampleRate: 1, seed: 7, stops: stops)
    if !FileManager.default.fileExists(atPath: trackPath) {
      if days > 30 { print("(writing the \(days)-day track \(trackPath) once: a few minutes)") }
      try TrackWriter.write(track, to: trackPath, format: .csv)
    }
    let trialsPath = "\(workDirectory)/benchmark-\(days)d-trials.yaml"
    let end = InstantFormatter.utc.string(for: start.advanced(by: .hours(24 * Int64(days))))
    try """
      trigsim: 1
      name: Benchmark trials, \(days)-day 1 Hz, four circles
      clock: { start: \(InstantFormatter.utc.string(for: start)), end: \(end), timezone: Europe/Copenhagen }
      platform: { location: ios }
      track: { file: \(trackPath) }
      regions:
        - { id: home, center: [55.6761, 12.5683] }
        - { id: pharmacy, center: [55.6795, 12.5775], radius: 80 }
        - { id: office, center: [55.6867, 12.5700], radius: 150 }
        - { id: park, center: [55.6880, 12.5790], radius: 120 }
      notifications:
        - { id: home, title: Welcome home, trigger: { region: home, on: [enter], repeats: true } }
        - { id: pharmacy, title: Pick up refill, trigger: { region: pharmacy, on: [enter], repeats: true } }
        - { id: office, title: Left the office, trigger: { region: office, on: [exit], repeats: true } }
        - { id: park, title: Walk done, trigger: { region: park, on: [enter, exit], repeats: true } }
      app:
        - { at: \(InstantFormatter.utc.string(for: start)), state: foreground }

      """.write(toFile: trialsPath, atomically: true, encoding: .utf8)
    return (trialsPath, Int(track.sampleCount))
  }
}
