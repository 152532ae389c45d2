/// The one rule for a list inside a message or a note (missing shards, the
/// names a scenario declared, a header's columns, an action list): a
/// message names at most `limit` items, then says how many more there are,
/// so its length does not grow with the input (`merge` of one partial of
/// 10,000,000 shards once printed an 89 MB line naming every missing one).
///
///     joined(["a", "b", "c"])                      → a, b, c
///     joined(["a", "b", "c"], lastSeparator: " and ") → a, b and c
///     joined(twelveNames, limit: 8)                → n1, n2, n3, n4, n5, n6, n7, n8 and 4 more
///
/// Only the items shown are read: `items` may be a lazy collection of any
/// length whose `count` is cheap.
public enum MessageList {
  /// The most items a list in a message names, unless its caller says fewer.
  public static let limit = 8

  /// The first `limit` of `items`, joined with `", "` (and `lastSeparator`
  /// before the last when all are shown), then ` and N more` when some are not.
  public static func joined<Items: Collection>(_ items: Items, limit: Int = limit, lastSeparator: String = ", ") -> String
  where Items.Element == String {
    let total = items.count
    guard total > limit else {
      let shown = Array(items)
      guard let last = shown.last, shown.count > 1 else { return shown.first ?? "" }
      return shown.dropLast().joined(separator: ", ") + lastSeparator + last
    }
    return items.prefix(limit).joined(separator: ", ") + " and \(total - limit) more"
  }
}
