import Testing

@testable import TrigsimCore

/// `Shard`: the trial blocks and the scenario deal of `--shard I/K`.
@Suite struct ShardTests {
  @Test func theBlocksOfKShardsAreContiguousDisjointAndCoverEveryTrial() {
    for total in [1, 7, 10, 1000, 1_000_000] {
      for count in [1, 2, 3, 4, 7] where count <= total {
        let blocks = (1...count).map { Shard(index: $0, count: count)!.trials(of: total) }
        #expect(blocks.first?.lowerBound == 0 && blocks.last?.upperBound == total, "\(count) of \(total)")
        for (a, b) in zip(blocks, blocks.dropFirst()) { #expect(a.upperBound == b.lowerBound) }
        // ⌊N/K⌋ or ⌈N/K⌉ trials each.
        #expect(blocks.allSatisfy { $0.count == total / count || $0.count == (total + count - 1) / count })
      }
    }
    #expect((1...4).map { Shard(index: $0, count: 4)!.trials(of: 10) } == [0..<2, 2..<5, 5..<7, 7..<10])
  }

  @Test func scenariosAreDealtRoundRobin() {
    let items = Array(0..<10)
    #expect(Shard(index: 1, count: 3)!.select(items) == [0, 3, 6, 9])
    #expect(Shard(index: 3, count: 3)!.select(items) == [2, 5, 8])
    #expect(Shard.whole.select(items) == items)
  }

  @Test func aShardOutsideOneToKIsNotOne() {
    #expect(Shard(index: 0, count: 4) == nil)
    #expect(Shard(index: 5, count: 4) == nil)
    #expect(Shard(index: 1, count: 0) == nil)
    #expect(Shard(index: 2, count: 4)?.description == "2/4")
  }
}
