import Foundation
import Testing
import TrigsimTestSupport
import TrigsimMedicineApp

@testable import TrigsimCore

/// Seeded properties of whole runs over random tracks and circular regions.
/// A failure names its seed; re-run that seed to reproduce it.
@Suite struct SimulationPropertyTests {
  static let seeds: [UInt64] = Array(0..<150)

  /// A random walk of a few minutes around a centre, fixes 1–8 s apart, with
  /// occasional segment breaks, and three 20–120 m circles near its path.
  static func randomScenario(seed: UInt64) -> (Scenario, [TrackSample], [CircularRegion]) {
    var random = SplitMix64(seed: seed)
    let centre = Coordinate(latitude: Double.random(in: -60...60, using: &random), longitude: Double.random(in: -170...170, using: &random))
    let start = SimulationInstant(millisecondsSinceEpoch: 1_774_674_000_000 + Int64.random(in: 0..<86_400_000, using: &random))
    var samples: [TrackSample] = []
    var position = centre
    var instant = start
    for index in 0..<40 {
      samples.append(TrackSample(instant: instant, coordinate: position, startsSegment: index > 0 && Int.random(in: 0..<25, using: &random) == 0))
      instant = instant.advanced(byMilliseconds: Int64.random(in: 1000...8000, using: &random))
      position = Geodesic.destination(from: position, azimuth: Double.random(in: 0..<360, using: &random), distance: Double.random(in: 0...60, using: &random))
    }
    let regions = (0..<3).map { _ in
      CircularRegion(
        center: Geodesic.destination(from: centre, azimuth: Double.random(in: 0..<360, using: &random), distance: Double.random(in: 0...150, using: &random)),
        radius: Double.random(in: 20...120, using: &random))
    }
    var platform = PlatformSettings()
    platform.location = .ideal
    platform.trackGapLimit = .seconds(6)
    let scenario = Scenario(
      name: "property \(seed)",
      clock: ClockSettings(start: start, end: instant, timeZone: TimeZone(identifier: "UTC")!),
      regions: regions.enumerated().map { MonitoredRegion(id: RegionID("r\($0.offset)"), shape: $0.element) },
      actions: regions.indices.map {
        ScheduledAppAction(instant: start, action: .add(NotificationRequest(id: NotificationID("n\($0)"), title: "", trigger: .region(RegionTrigger(region: RegionID("r\($0)"), repeats: true)))))
      },
      track: InMemoryTrack(samples: samples), platform: platform)
    return (scenario, samples, regions)
  }

  @Test(arguments: seeds)
  func timelineNeverGoesBackInTimeAndEnterExitAlternate(seed: UInt64) throws {
    let (scenario, _, _) = Self.randomScenario(seed: seed)
    let timeline = try Simulation(scenario).run()
    #expect(zip(timeline.entries, timeline.entries.dropFirst()).allSatisfy { $0.instant <= $1.instant }, "seed \(seed)")
    for region in scenario.regions {
      let kinds = timeline.entries.filter { $0.subject == region.id.rawValue && ($0.kind == .enter || $0.kind == .exit) }.map(\.kind)
      #expect(zip(kinds, kinds.dropFirst()).allSatisfy { $0 != $1 }, "seed \(seed) region \(region.id): \(kinds)")
    }
    // Every crossing delivers the region's repeating enter-and-exit request once, at the same instant.
    let crossings = timeline.entries.filter { $0.kind == .enter || $0.kind == .exit }
    let fired = timeline.entries(.fired)
    #expect(crossings.map(\.instant) == fired.map(\.instant), "seed \(seed)")
  }

  /// Within a segment and the gap limit, the device is on the side the
  /// timeline says at every millisecond: sampling the interpolated path at
  /// each whole millisecond finds exactly the reported crossings.
  @Test(arguments: seeds.prefix(40))
  func crossingInstantsAgreeWithDenseSamplingOfThePath(seed: UInt64) throws {
    let (scenario, samples, regions) = Self.randomScenario(seed: seed)
    let timeline = try Simulation(scenario).run()
    for (index, region) in regions.enumerated() {
      let reported = timeline.entries.filter { $0.subject == "r\(index)" && $0.cause == nil && ($0.kind == .enter || $0.kind == .exit) }
        .map { "\($0.kind.rawValue)@\($0.instant.millisecondsSinceEpoch)" }
      var sampled: [String] = []
      for (a, b) in zip(samples, samples.dropFirst()) where !b.startsSegment && a.instant.duration(to: b.instant) <= scenario.platform.trackGapLimit {
        let path = DevicePath(from: a, to: b)
        var inside = region.contains(a.coordinate)
        var t = a.instant.millisecondsSinceEpoch + 1
        while t <= b.instant.millisecondsSinceEpoch {
          let now = region.contains(path.position(at: SimulationInstant(millisecondsSinceEpoch: t)))
          if now != inside { sampled.append("\(now ? "enter" : "exit")@\(t)") }
          inside = now
          t += 1
        }
      }
      #expect(reported == sampled, "seed \(seed) region r\(index)")
    }
  }
}

extension TimelineEntry {
  var cause: String? { self[field: "cause"] }
}
