/// A line diff for failure messages: `-` expected, `+` actual, with two lines
/// of context around each change, from a longest-common-subsequence alignment.
public enum TextDiff {
  public static func lines(expected: String, actual: String, context: Int = 2) -> String {
    let a = expected.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let b = actual.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    // LCS table; timelines in tests are small enough for O(n·m).
    var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in stride(from: a.count - 1, through: 0, by: -1) {
      for j in stride(from: b.count - 1, through: 0, by: -1) {
        table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
      }
    }
    var operations: [(Character, String)] = []
    var i = 0, j = 0
    while i < a.count || j < b.count {
      if i < a.count, j < b.count, a[i] == b[j] {
        operations.append((" ", a[i])); i += 1; j += 1
      } else if j < b.count, i == a.count || table[i][j + 1] >= table[i + 1][j] {
        operations.append(("+", b[j])); j += 1
      } else {
        operations.append(("-", a[i])); i += 1
      }
    }
    let changed = operations.indices.filter { operations[$0].0 != " " }
    guard !changed.isEmpty else { return "" }
    var shown = Set<Int>()
    for index in changed { for k in max(0, index - context)...min(operations.count - 1, index + context) { shown.insert(k) } }
    var text = ""
    var last = -1
    for index in shown.sorted() {
      if last >= 0 && index != last + 1 { text += "  ...\n" }
      text += "\(operations[index].0) \(operations[index].1)\n"
      last = index
    }
    return text
  }
}
