import Foundation
import Testing
import TrigsimTestSupport
import TrigsimMedicineApp

@testable import TrigsimCore

/// `PartialTrialReport` and `TrialReport.merging`: K shards' partial reports,
/// written and read back, merge to the unsharded report byte for byte.
@Suite struct PartialTrialReportTests {
  static let identity = PartialTrialReport.ScenarioIdentity(path: "stop.yaml", digest: "sha256:0")

  /// Shard `shard`'s partial file text, and the partial read back from it.
  static func partial(_ runner: TrialRunner, count: Int, seed: UInt64, shard: Shard, jobs: Int = 2) throws -> (String, PartialTrialReport) {
    let report = try runner.run(TrialPlan(count: count, seed: seed, jobs: jobs, shard: shard))
    let text = PartialTrialReport(report, shard: shard, scenario: identity).canonicalJSON()
    return (text, try JSONDecoder().decode(PartialTrialReport.self, from: Data(text.utf8)))
  }

  @Test(arguments: [1, 2, 3, 4, 7])
  func theShardsOfARunMergeToItsReportByteForByte(shards: Int) throws {
    let runner = TrialRunner(TrialRunnerTests.scenario(TrialRunnerTests.stop(depth: 60, stay: 90, accuracy: 25)))
    for seed: UInt64 in [11, 2026] {
      let whole = try runner.run(TrialPlan(count: 90, seed: seed, jobs: 2))
      var parts: [TrialReport] = []
      for index in (1...shards).reversed() {  // any order
        let (_, partial) = try Self.partial(runner, count: 90, seed: seed, shard: Shard(index: index, count: shards)!)
        parts.append(try partial.report(largestTrialCount: 1_000_000))
      }
      let merged = TrialReport.merging(parts)
      #expect(merged.text == whole.text, "\(shards) shards, seed \(seed)")
      #expect(merged.json == whole.json, "\(shards) shards, seed \(seed)")
    }
    // Not vacuous: the trials disagree, and a miss is named.
    let whole = try runner.run(TrialPlan(count: 90, seed: 11, jobs: 2))
    let chance = try #require(whole.locationChances.first)
    #expect(chance.fired > 0 && chance.fired < chance.pending && chance.firstMissTrial != nil)
  }

  @Test func aShardRunsOnlyItsBlockAndNamesItsOwnFirstMiss() throws {
    let runner = TrialRunner(TrialRunnerTests.scenario(TrialRunnerTests.stop(depth: 60, stay: 90, accuracy: 25)))
    let (_, partial) = try Self.partial(runner, count: 90, seed: 11, shard: Shard(index: 3, count: 4)!)
    #expect(partial.trialNumbers == .init(first: 45, end: 67))
    let row = try #require(partial.locationRequests.first)
    #expect(row.pending == 22)
    #expect(row.firstMissTrial.map { (45..<67).contains($0) } == true)
  }

  @Test func thePartialIsTheSameBytesWhateverTheWorkers() throws {
    let runner = TrialRunner(TrialRunnerTests.scenario(TrialRunnerTests.stop(depth: 60, stay: 90, accuracy: 25)))
    let shard = Shard(index: 2, count: 3)!
    let (one, _) = try Self.partial(runner, count: 60, seed: 5, shard: shard, jobs: 1)
    for jobs in [2, 5] {
      #expect(try Self.partial(runner, count: 60, seed: 5, shard: shard, jobs: jobs).0 == one)
    }
  }

  /// A place set's dose keeps its place through a partial file (`DoseKey.place`), so shards merge each place's doses apart;
  /// a dose of no place set writes no `place` member.
  @Test func aPlaceSetDoseKeepsItsPlaceThroughThePartialFile() throws {
    let runner = TrialRunner(TrialRunnerTests.scenario(TrialRunnerTests.stop(depth: 60, stay: 90, accuracy: 25)))
    var (_, partial) = try Self.partial(runner, count: 20, seed: 5, shard: Shard(index: 1, count: 2)!)
    let crossing = try #require(partial.locationRequests.first)
    func row(_ place: String?) -> PartialTrialReport.DoseRow {
      PartialTrialReport.DoseRow(
        medicine: "2", medicineName: "Pickup", slot: "location", occurrence: 1, repeatOnDay: 0,
        reminder: place.map { "pharmacies/\($0) on=enter" } ?? "home on=enter", scheduledMs: crossing.crossingMs,
        utcOffsetSeconds: crossing.utcOffsetSeconds, due: 1, latenciesMs: [0], firstMiss: nil, expectedSilent: nil, place: place)
    }
    partial.doses = [row(nil), row("p0075"), row("p0352")]
    let text = partial.canonicalJSON()
    #expect(!text.contains("null"))
    let read = try JSONDecoder().decode(PartialTrialReport.self, from: Data(text.utf8))
    #expect(read.doses.map(\.place) == [nil, "p0075", "p0352"])
    let places = try read.report(largestTrialCount: 1_000_000).doses.map { $0.key.place?.rawValue ?? "-" }
    #expect(places.sorted() == ["-", "p0075", "p0352"])
  }

  @Test func aValueTrigsimDoesNotWriteIsAProblemAtItsMember() throws {
    let runner = TrialRunner(TrialRunnerTests.scenario(TrialRunnerTests.stop(depth: 60, stay: 90, accuracy: 25)))
    let (_, partial) = try Self.partial(runner, count: 40, seed: 5, shard: Shard(index: 1, count: 2)!)
    func problem(_ change: (inout PartialTrialReport) -> Void) -> PartialReportProblem? {
      var changed = partial
      change(&changed)
      do {
        _ = try changed.report(largestTrialCount: 1_000_000)
        return nil
      } catch {
        return error
      }
    }
    #expect(problem { $0.locationRequests[0].latenciesMs.removeLast() } == PartialReportProblem(
      [.member("locationRequests"), .element(0), .member("latenciesMs")],
      "\(partial.locationRequests[0].fired - 1) latencies for \(partial.locationRequests[0].fired) firing trials: there is one per firing trial"))
    #expect(problem { $0.trialNumbers.first = 1 } == PartialReportProblem(
      [.member("trialNumbers")], "shard 1/2 of 40 trials runs trials 0 to 19, not 1 to 19"))
    #expect(problem { $0.locationRequests[0].firstMissTrial = 30 } == PartialReportProblem(
      [.member("locationRequests"), .element(0), .member("firstMissTrial")], "trial 30 is not one of the shard's trials (0 to 19)"))
    #expect(problem { $0.shard.index = 3 } == PartialReportProblem([.member("shard")], "'shard' is 3/2, not I/K with 1 ≤ I ≤ K"))
    #expect(problem { $0.locationRequests[0].crossingMs = .max }?.message == "'crossingMs' is outside the years 1 to 9999")
    #expect(problem { $0.locationRequests[0].pending = 21 }?.message == "'pending' is 21, not a count from 0 to the shard's 20 trials")
    #expect(problem { _ in } == nil)
  }
}
