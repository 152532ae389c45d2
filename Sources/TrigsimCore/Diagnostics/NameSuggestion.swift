/// "Did you mean" suggestions for unknown names in any input file.
public enum NameSuggestion {
  /// The candidate nearest to `name` by edit distance, ignoring case, when it
  /// is near enough to be a likely typo: at most max(2, length / 3) edits.
  /// Among equally near candidates the earliest in `candidates` wins.
  public static func closest(to name: String, among candidates: [String]) -> String? {
    let target = Array(name.lowercased())
    var best: (name: String, distance: Int)?
    for candidate in candidates {
      let distance = editDistance(target, Array(candidate.lowercased()))
      if distance <= max(2, target.count / 3), best.map({ distance < $0.distance }) ?? true {
        best = (candidate, distance)
      }
    }
    return best?.name
  }

  /// Levenshtein distance: insertions, deletions and substitutions each cost 1.
  public static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var row = Array(0...b.count)
    for i in 1...a.count {
      var previousDiagonal = row[0]
      row[0] = i
      for j in 1...b.count {
        let old = row[j]
        row[j] = min(row[j] + 1, row[j - 1] + 1, previousDiagonal + (a[i - 1] == b[j - 1] ? 0 : 1))
        previousDiagonal = old
      }
    }
    return row[b.count]
  }
}
