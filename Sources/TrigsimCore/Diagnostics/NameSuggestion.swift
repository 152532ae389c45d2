/// "Did you mean" suggestions for unknown names in any input file.
public enum NameSuggestion {
  /// The longest name, in characters, that is compared at all. A longer name
  /// (or candidate) gets no suggestion: nobody mistypes a 65-character name
  /// into another one, and comparing two names costs their lengths multiplied.
  public static let longestComparedName = 64

  /// The candidate nearest to `name` by edit distance, ignoring case, when it
  /// is near enough to be a likely typo: at most max(2, length / 3) edits.
  /// Among equally near candidates the earliest in `candidates` wins. Names
  /// and candidates longer than `longestComparedName` are never compared, so
  /// the cost is at most 64 × 64 steps per candidate whatever the input.
  public static func closest(to name: String, among candidates: [String]) -> String? {
    guard isComparable(name) else { return nil }
    let target = Array(name.lowercased())
    let budget = max(2, target.count / 3)
    var best: (name: String, distance: Int)?
    for candidate in candidates where isComparable(candidate) {
      // Only a strictly nearer candidate can replace the best one.
      let limit = min(budget, (best?.distance ?? budget + 1) - 1)
      guard limit >= 0, let distance = editDistance(target, Array(candidate.lowercased()), atMost: limit) else { continue }
      best = (candidate, distance)
    }
    return best?.name
  }

  /// Levenshtein distance: insertions, deletions and substitutions each cost 1.
  public static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    editDistance(a, b, atMost: max(a.count, b.count))!
  }

  /// The Levenshtein distance when it is at most `limit`, else nil.
  ///
  /// Only the diagonal band of width 2 × `limit` + 1 is computed (a cell
  /// further from the diagonal already costs more than `limit`), and the
  /// computation stops as soon as a whole row exceeds `limit`: O(`limit` ×
  /// length) steps instead of O(length²).
  public static func editDistance(_ a: [Character], _ b: [Character], atMost limit: Int) -> Int? {
    guard limit >= 0, abs(a.count - b.count) <= limit else { return nil }
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    let beyond = limit + 1  // any value over the limit; cells outside the band hold it
    var row = (0...b.count).map { $0 <= limit ? $0 : beyond }
    for i in 1...a.count {
      let low = max(1, i - limit)
      let high = min(b.count, i + limit)
      var previousDiagonal = row[low - 1]
      row[low - 1] = low == 1 && i <= limit ? i : beyond
      var rowMinimum = row[low - 1]
      for j in low...high {
        let old = row[j]
        let value = min(row[j] + 1, row[j - 1] + 1, previousDiagonal + (a[i - 1] == b[j - 1] ? 0 : 1))
        row[j] = min(value, beyond)
        rowMinimum = min(rowMinimum, row[j])
        previousDiagonal = old
      }
      if high < b.count { row[high + 1] = beyond }
      if rowMinimum > limit { return nil }
    }
    return row[b.count] <= limit ? row[b.count] : nil
  }

  /// Whether `name` is at most `longestComparedName` characters, found
  /// without counting past the limit.
  static func isComparable(_ name: String) -> Bool {
    name.index(name.startIndex, offsetBy: longestComparedName, limitedBy: name.endIndex).map { $0 == name.endIndex } ?? true
  }
}
