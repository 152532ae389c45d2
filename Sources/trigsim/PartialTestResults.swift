import Foundation
import TrigsimCore
import TrigsimScenario

/// One shard's results of `trigsim test --shard I/K --partial FILE`, for
/// `trigsim merge`: every `ScenarioResult` (what the failure blocks, the
/// table and the JUnit report print, its measured duration included) with
/// its position among all the scenarios, and what the count line and the
/// exit code need besides.
///
/// The file is JSON, members sorted by name, two-space indentation; format
/// `trigsim-test-partial-1` (the manual's "Sharding across machines"
/// describes the members).
struct PartialTestResults: Codable, Equatable {
  static let formatName = "trigsim-test-partial-1"

  /// The scenarios of the whole batch, before sharding: how many, and the
  /// SHA-256 of their sorted paths, one a line. Shards of one batch agree on it.
  struct Selection: Codable, Equatable {
    var count: Int
    var digest: String

    init(count: Int, digest: String) {
      self.count = count
      self.digest = digest
    }

    init(_ paths: [String]) {
      var digest = SHA256Digest()
      for path in paths { digest.update(Array((path + "\n").utf8)) }
      self.init(count: paths.count, digest: "sha256:" + digest.hexDigest())
    }
  }

  struct Positioned: Codable, Equatable {
    /// The scenario's 0-based position among all the batch's scenarios, sorted by path.
    var position: Int
    var result: ScenarioResult
  }

  var format: String
  var trigsim: String
  var shard: PartialTrialReport.ShardNumber
  var selection: Selection
  /// The verifier's settings (comparison, diff, record and root options, as
  /// `ScenarioBatch.workerArguments` passes them): they change the results, so shards must agree.
  var settings: [String]
  /// `--jobs` of the shard (the count line says it).
  var jobs: Int
  /// The shard's wall-clock time, seconds.
  var seconds: Double
  var results: [Positioned]
  /// The `--reports` files the shard wrote (`report: FILE` lines).
  var reportFiles: [String]
  /// 0, or the exit code of a `--reports` file the shard could not write.
  var outputsExitCode: Int32

  init(
    shard: Shard, collected: [String], settings: [String], jobs: Int, seconds: Double, positions: [Int], results: [ScenarioResult],
    reportFiles: [String], outputsExitCode: Int32
  ) {
    format = Self.formatName
    trigsim = TrigsimVersion.current
    self.shard = PartialTrialReport.ShardNumber(index: shard.index, count: shard.count)
    selection = Selection(collected)
    self.settings = settings
    self.jobs = jobs
    self.seconds = seconds
    self.results = zip(positions, results).map { Positioned(position: $0.0, result: $0.1) }
    self.reportFiles = reportFiles
    self.outputsExitCode = outputsExitCode
  }

  func canonicalJSON() -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(self) else { preconditionFailure("partial test results did not encode") }
    return String(decoding: data, as: UTF8.self) + "\n"
  }

  /// The shard, after checking that the file holds what `test` writes: a
  /// shard I/K, exactly the positions `Shard.select` gives it of the
  /// selection's scenarios in ascending order, a duration of 0 or more, and
  /// a documented exit code.
  func checkedShard() throws(PartialReportProblem) -> Shard {
    guard let shard = Shard(index: shard.index, count: shard.count) else {
      throw PartialReportProblem([.member("shard")], "'shard' is \(self.shard.index)/\(self.shard.count), not I/K with 1 ≤ I ≤ K")
    }
    guard (0...10_000_000).contains(selection.count) else {
      throw PartialReportProblem([.member("selection"), .member("count")], "'count' is \(selection.count), not a number of scenarios")
    }
    let expected = shard.select(Array(0..<selection.count))
    guard results.count == expected.count else {
      throw PartialReportProblem(
        [.member("results")], "shard \(shard) of \(selection.count) scenarios has \(expected.count) results, not \(results.count)")
    }
    for (index, (result, position)) in zip(results, expected).enumerated() where result.position != position {
      throw PartialReportProblem(
        [.member("results"), .element(index), .member("position")],
        "position \(result.position) is not the shard's; result \(index) of shard \(shard) is the scenario at position \(position)")
    }
    for (index, result) in results.enumerated() where !(result.result.seconds >= 0 && result.result.seconds < 1e9) {
      throw PartialReportProblem([.member("results"), .element(index), .member("result"), .member("seconds")], "'seconds' is not a duration")
    }
    guard seconds >= 0 && seconds < 1e9 else { throw PartialReportProblem([.member("seconds")], "'seconds' is not a duration") }
    guard (1...1_000_000).contains(jobs) else { throw PartialReportProblem([.member("jobs")], "'jobs' is \(jobs), not a number of jobs") }
    let codes = [
      TrigsimExitCode.success, TrigsimExitCode.timelineDiffers, TrigsimExitCode.invalidInput, TrigsimExitCode.cannotReadInput,
      TrigsimExitCode.internalError, TrigsimExitCode.cannotWriteOutput, TrigsimExitCode.limitExceeded,
    ]
    guard codes.contains(outputsExitCode) else {
      throw PartialReportProblem([.member("outputsExitCode")], "'outputsExitCode' is \(outputsExitCode), not one of trigsim's exit codes")
    }
    return shard
  }
}
