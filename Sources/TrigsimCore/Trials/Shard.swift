/// One machine's part of a sharded run: shard `index` of `count`, 1-based
/// (`--shard I/K`).
///
/// **Trials.** Shard I of K runs the contiguous block of global trial
/// numbers `⌊(I−1)·N/K⌋ ..< ⌊I·N/K⌋` of an N-trial run. Each trial draws from
/// its own stream (`TrialRunner.variation(trial:seed:profile:)`), so the K
/// blocks together are exactly the trials of the unsharded run, and their
/// partial reports merge to its report.
///
/// **Scenarios** (`trigsim test --shard I/K`): of the scenarios sorted by
/// path, shard I keeps those at 0-based positions p with p mod K = I−1.
public struct Shard: Sendable, Hashable, CustomStringConvertible {
  public let index: Int
  public let count: Int

  /// The whole run: shard 1 of 1.
  public static let whole = Shard(index: 1, count: 1)!

  /// Nil unless 1 ≤ `index` ≤ `count`.
  public init?(index: Int, count: Int) {
    guard count >= 1, (1...count).contains(index) else { return nil }
    self.index = index
    self.count = count
  }

  /// `2/4`.
  public var description: String { "\(index)/\(count)" }

  /// The trial numbers of this shard of a `total`-trial run (see the type's rule).
  public func trials(of total: Int) -> Range<Int> {
    Self.boundary(index - 1, of: count, total: total)..<Self.boundary(index, of: count, total: total)
  }

  /// ⌊part·total/count⌋, computed without overflow for any Int operands in range.
  private static func boundary(_ part: Int, of count: Int, total: Int) -> Int {
    let product = part.multipliedFullWidth(by: total)
    return count.dividingFullWidth(product).quotient
  }

  /// The elements of `items` at positions p with p mod count = index − 1.
  public func select<Item>(_ items: [Item]) -> [Item] {
    items.enumerated().filter { $0.offset % count == index - 1 }.map(\.element)
  }
}
