extension RandomAccessCollection {
  /// The index of the first element for which `belongsToSecondPart` is true,
  /// or `endIndex`, in O(log n) comparisons. The collection must be
  /// partitioned by it: every element for which it is false comes first.
  func partitioningIndex(where belongsToSecondPart: (Element) throws -> Bool) rethrows -> Index {
    var low = startIndex
    var count = self.count
    while count > 0 {
      let half = count / 2
      let middle = index(low, offsetBy: half)
      if try belongsToSecondPart(self[middle]) {
        count = half
      } else {
        low = index(after: middle)
        count -= half + 1
      }
    }
    return low
  }
}
