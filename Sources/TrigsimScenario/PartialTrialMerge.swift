import TrigsimCore

extension PartialTrialReport {
  /// What `trigsim merge` makes of trial partials `texts` (each file's path
  /// and text, read under `ScenarioFileKind.partial`): each decoded and its
  /// report checked, the set checked to be the shards 1…K of one run
  /// (`ShardedPart.checkComplete`), and the reports merged.
  ///
  /// - Throws: `InputError` located in the part that is wrong;
  ///   `MissingShards` when some shard is not among them.
  package static func merged(_ texts: [(path: String, text: String)]) throws -> TrialReport {
    var reports: [TrialReport] = []
    var parts: [ShardedPart] = []
    for (path, text) in texts {
      let partial = try PartialFile.decode(PartialTrialReport.self, text: text, path: path)
      do {
        reports.append(try partial.report(largestTrialCount: ScenarioLimitCeiling.largestTrialCount))
      } catch {
        throw PartialFile.located(error, text: text, path: path)
      }
      parts.append(ShardedPart(
        file: path, shard: partial.shardNumber!,
        shared: [
          .init([.member("trigsim")], "the trigsim version", "'\(Diagnostic.excerpt(partial.trigsim))'"),
          .init([.member("scenario"), .member("digest")], "the scenario's digest (its text, track, regions and places files)", Diagnostic.quotePath(partial.scenario.digest)),
          .init([.member("seed")], "the seed", String(partial.seed)),
          .init([.member("trials")], "the trial count", String(partial.trials)),
          .init([.member("shard"), .member("count")], "the shard count", String(partial.shard.count)),
        ]))
    }
    try ShardedPart.checkComplete(parts)
    return TrialReport.merging(reports)
  }
}
