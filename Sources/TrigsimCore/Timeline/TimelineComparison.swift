/// An expected timeline compared with an actual one, entry by entry.
///
/// Entries are paired in five passes, each over what the previous left unpaired:
/// 1. **Match**: same kind, subject, UTC offset and compared fields, and instants no
///    further apart than the entry's tolerance. Within one such group the
///    earliest unpaired expected entry takes the earliest actual entry in reach,
///    which pairs as many as any pairing can.
/// 2. **Shifted**: same kind, subject and fields, instants further apart than
///    the tolerance; paired in time order within the group.
/// 3. **Moved together**: same kind, subject and UTC offset, and every field
///    that differs moved with the instant (a `next` instant, a calendar
///    trigger's time; see `fieldsMovedTogether`): **shifted**, or a match when
///    within tolerance. Closest pairs first, among the 8 nearest actual
///    entries of that kind and subject either side in time.
/// 4. **Changed**: same kind and subject, instants within tolerance, fields
///    differ (a title edited, a `next` that moved alone) or the UTC offset differs
///    (the device was in another time zone; named `offset`).
/// 5. What is left is **missing** (expected only) or **unexpected** (actual only).
///
/// Entries matched at the same instant on both sides must also keep their
/// relative order, because the order of simultaneous events is part of the
/// timeline: those that do not are **reordered** (the fewest entries that
/// explain the change, from a longest increasing subsequence).
public struct TimelineComparison: Sendable {
  public let expected: Timeline
  public let actual: Timeline
  public let options: ComparisonOptions
  /// The differences, in the order the report prints them.
  public private(set) var differences: [TimelineDifference] = []
  public private(set) var headerDifferences: [HeaderDifference] = []
  /// Pairs that matched only thanks to a tolerance: (expected index, actual index, actual − expected).
  public private(set) var withinTolerance: [(expected: Int, actual: Int, offset: SimulationDuration)] = []
  /// Every compared entry in report order.
  private(set) var rows: [Row] = []

  public init(expected: Timeline, actual: Timeline, options: ComparisonOptions = ComparisonOptions()) {
    self.expected = expected
    self.actual = actual
    self.options = options
    compareHeaders()
    compareEntries()
  }

  /// Whether the timelines agree under the options.
  public var matches: Bool { differences.isEmpty && headerDifferences.isEmpty }

  // MARK: - Counts

  public var missingCount: Int { differences.count { $0.kind == .missing } }
  public var unexpectedCount: Int { differences.count { $0.kind == .unexpected } }
  public var changedCount: Int { differences.count { if case .changed = $0.kind { true } else { false } } }
  public var reorderedCount: Int { differences.count { $0.kind == .reordered } }
  public var shifts: [SimulationDuration] {
    differences.compactMap { if case .shifted(let by) = $0.kind { by } else { nil } }
  }

  // MARK: - Header

  /// Header lines are compared per key, in order: the n-th line with a key
  /// on one side against the n-th line with that key on the other.
  private mutating func compareHeaders() {
    let expectedHeader = expected.header.filter { options.comparesHeader($0.key) }
    let actualHeader = actual.header.filter { options.comparesHeader($0.key) }
    var keys: [String] = []
    for field in expectedHeader + actualHeader where !keys.contains(field.key) { keys.append(field.key) }
    for key in keys {
      let expectedValues = expectedHeader.filter { $0.key == key }.map(\.value)
      let actualValues = actualHeader.filter { $0.key == key }.map(\.value)
      for index in 0..<max(expectedValues.count, actualValues.count) {
        let expectedValue = index < expectedValues.count ? expectedValues[index] : nil
        let actualValue = index < actualValues.count ? actualValues[index] : nil
        if expectedValue != actualValue {
          headerDifferences.append(HeaderDifference(key: key, expected: expectedValue, actual: actualValue))
        }
      }
    }
  }

  // MARK: - Entries

  private struct Side {
    var entries: [TimelineEntry]
    var compared: [Bool]
    var signatures: [String]
    var identities: [String]
  }

  private func side(_ timeline: Timeline) -> Side {
    let compared = timeline.entries.map { !options.ignoredKinds.contains($0.kind) }
    var signatures: [String] = []
    var identities: [String] = []
    signatures.reserveCapacity(timeline.entries.count)
    for entry in timeline.entries {
      let identity = entry.kind.rawValue + "\u{1F}" + entry.subject
      identities.append(identity)
      var signature = identity + "\u{1F}" + String(entry.utcOffsetSeconds)
      for field in options.comparedFields(of: entry) { signature += "\u{1F}" + field.key + "\u{1E}" + field.value }
      signatures.append(signature)
    }
    return Side(entries: timeline.entries, compared: compared, signatures: signatures, identities: identities)
  }

  private mutating func compareEntries() {
    let left = side(expected)
    let right = side(actual)
    var partnerOfExpected = [Int?](repeating: nil, count: left.entries.count)
    var partnerOfActual = [Int?](repeating: nil, count: right.entries.count)
    var pairKind: [Int: TimelineDifference.Kind?] = [:]  // by expected index; nil = matched

    func groups(_ side: Side, by key: [String], unpaired: (Int) -> Bool) -> [String: [Int]] {
      var groups: [String: [Int]] = [:]
      for index in side.entries.indices where side.compared[index] && unpaired(index) { groups[key[index], default: []].append(index) }
      return groups
    }

    // 1. Match within tolerance, and 2. shifted, per signature group.
    let expectedGroups = groups(left, by: left.signatures) { _ in true }
    let actualGroups = groups(right, by: right.signatures) { _ in true }
    for (signature, expectedIndices) in expectedGroups {
      guard let actualIndices = actualGroups[signature] else { continue }
      var unpairedExpected: [Int] = []
      var unpairedActual: [Int] = []
      var i = 0
      var j = 0
      while i < expectedIndices.count && j < actualIndices.count {
        let e = expectedIndices[i]
        let a = actualIndices[j]
        let tolerance = options.tolerance.tolerance(for: left.entries[e]).milliseconds
        let offset = right.entries[a].instant.millisecondsSinceEpoch - left.entries[e].instant.millisecondsSinceEpoch
        if abs(offset) <= tolerance {
          partnerOfExpected[e] = a
          partnerOfActual[a] = e
          pairKind[e] = .some(nil)
          if offset != 0 { withinTolerance.append((e, a, SimulationDuration(milliseconds: offset))) }
          i += 1
          j += 1
        } else if offset > 0 {
          unpairedExpected.append(e)
          i += 1
        } else {
          unpairedActual.append(a)
          j += 1
        }
      }
      unpairedExpected += expectedIndices[i...]
      unpairedActual += actualIndices[j...]
      for (e, a) in zip(unpairedExpected, unpairedActual) {
        partnerOfExpected[e] = a
        partnerOfActual[a] = e
        let offset = right.entries[a].instant.millisecondsSinceEpoch - left.entries[e].instant.millisecondsSinceEpoch
        pairKind[e] = .some(.shifted(by: SimulationDuration(milliseconds: offset)))
      }
    }

    // 3. Moved together: same kind, subject and UTC offset, instants apart, and
    // every differing field moved with the instant (`next`, a calendar trigger's
    // time; see `fieldsMovedTogether`). Among the `nearby` actual entries either
    // side in time, the closest pairs are taken first.
    let nearby = 8
    let movableActual = groups(right, by: right.identities) { partnerOfActual[$0] == nil }
      .mapValues { $0.sorted { (right.entries[$0].instant, $0) < (right.entries[$1].instant, $1) } }
    var candidates: [(distance: Int64, expected: Int, actual: Int, offset: Int64)] = []
    for e in left.entries.indices where left.compared[e] && partnerOfExpected[e] == nil {
      guard let group = movableActual[left.identities[e]] else { continue }
      let instant = left.entries[e].instant
      var low = 0
      var high = group.count
      while low < high {
        let mid = (low + high) / 2
        if right.entries[group[mid]].instant < instant { low = mid + 1 } else { high = mid }
      }
      let expectedFields = options.comparedFields(of: left.entries[e])
      for a in group[max(0, low - nearby)..<min(group.count, low + nearby)] where right.entries[a].utcOffsetSeconds == left.entries[e].utcOffsetSeconds {
        let offset = right.entries[a].instant.millisecondsSinceEpoch - instant.millisecondsSinceEpoch
        guard offset != 0, Self.fieldsMovedTogether(expectedFields, options.comparedFields(of: right.entries[a]), byMilliseconds: offset) else { continue }
        candidates.append((abs(offset), e, a, offset))
      }
    }
    candidates.sort { ($0.distance, $0.expected, $0.actual) < ($1.distance, $1.expected, $1.actual) }
    for candidate in candidates where partnerOfExpected[candidate.expected] == nil && partnerOfActual[candidate.actual] == nil {
      let (e, a) = (candidate.expected, candidate.actual)
      partnerOfExpected[e] = a
      partnerOfActual[a] = e
      let offset = SimulationDuration(milliseconds: candidate.offset)
      if candidate.distance <= options.tolerance.tolerance(for: left.entries[e]).milliseconds {
        pairKind[e] = .some(nil)
        withinTolerance.append((e, a, offset))
      } else {
        pairKind[e] = .some(.shifted(by: offset))
      }
    }

    // 4. Changed: same kind and subject, instants within tolerance, fields differ.
    let leftoverActual = groups(right, by: right.identities) { partnerOfActual[$0] == nil }
    var takenActual: Set<Int> = []
    for e in left.entries.indices where left.compared[e] && partnerOfExpected[e] == nil {
      guard let candidates = leftoverActual[left.identities[e]] else { continue }
      let tolerance = options.tolerance.tolerance(for: left.entries[e]).milliseconds
      let instant = left.entries[e].instant.millisecondsSinceEpoch
      guard let a = candidates.first(where: { !takenActual.contains($0) && abs(right.entries[$0].instant.millisecondsSinceEpoch - instant) <= tolerance })
      else { continue }
      takenActual.insert(a)
      partnerOfExpected[e] = a
      partnerOfActual[a] = e
      let expectedFields = options.comparedFields(of: left.entries[e])
      let actualFields = options.comparedFields(of: right.entries[a])
      var keys: [String] = []
      if left.entries[e].utcOffsetSeconds != right.entries[a].utcOffsetSeconds { keys.append("offset") }
      for field in expectedFields where !actualFields.contains(field) && !keys.contains(field.key) { keys.append(field.key) }
      for field in actualFields where !expectedFields.contains(field) && !keys.contains(field.key) { keys.append(field.key) }
      pairKind[e] = .some(.changed(fields: keys))
    }

    // Order of simultaneous entries: among pairs matched at the same instant on
    // both sides, keep the longest run that is in order; the rest are reordered.
    var pairsByInstant: [Int64: [(expected: Int, actual: Int)]] = [:]
    for e in left.entries.indices {
      guard let a = partnerOfExpected[e], case .some(nil) = pairKind[e],
        left.entries[e].instant == right.entries[a].instant
      else { continue }
      pairsByInstant[left.entries[e].instant.millisecondsSinceEpoch, default: []].append((e, a))
    }
    for pairs in pairsByInstant.values where pairs.count > 1 {
      let inOrder = Set(Self.longestIncreasingRun(pairs.map(\.actual)))
      for pair in pairs where !inOrder.contains(pair.actual) { pairKind[pair.expected] = .some(.reordered) }
    }

    // Every compared entry as a row, in report order: actual order, with each
    // missing entry after the actual partner of the expected entry before it.
    var keyed: [(key: (Int, Int, Int), row: Row)] = []
    for a in right.entries.indices where right.compared[a] {
      if let e = partnerOfActual[a] {
        let difference = pairKind[e].flatMap { $0 }.map { TimelineDifference(kind: $0, expectedIndex: e, actualIndex: a) }
        keyed.append(((a, 0, e), Row(difference: difference, expectedIndex: e, actualIndex: a)))
      } else {
        keyed.append(((a, 0, -1), Row(difference: TimelineDifference(kind: .unexpected, expectedIndex: nil, actualIndex: a), expectedIndex: nil, actualIndex: a)))
      }
    }
    var anchor = -1
    for e in left.entries.indices {
      if let a = partnerOfExpected[e] {
        anchor = a
      } else if left.compared[e] {
        keyed.append(((anchor, 1, e), Row(difference: TimelineDifference(kind: .missing, expectedIndex: e, actualIndex: nil), expectedIndex: e, actualIndex: nil)))
      }
    }
    keyed.sort { $0.key < $1.key }
    rows = keyed.map(\.row)
    differences = rows.compactMap(\.difference)
    withinTolerance.sort { ($0.actual, $0.expected) < ($1.actual, $1.expected) }
  }

  /// One compared entry in report order: a difference, or a matched pair (context).
  struct Row: Sendable {
    var difference: TimelineDifference?
    var expectedIndex: Int?
    var actualIndex: Int?
  }

  /// The elements of a longest strictly increasing subsequence of `values` (patience sorting).
  package static func longestIncreasingRun(_ values: [Int]) -> [Int] {
    var tails: [Int] = []  // indices into values
    var previous = [Int](repeating: -1, count: values.count)
    for (index, value) in values.enumerated() {
      var low = 0
      var high = tails.count
      while low < high {
        let mid = (low + high) / 2
        if values[tails[mid]] < value { low = mid + 1 } else { high = mid }
      }
      if low > 0 { previous[index] = tails[low - 1] }
      if low == tails.count { tails.append(index) } else { tails[low] = index }
    }
    var result: [Int] = []
    var index = tails.last ?? -1
    while index >= 0 {
      result.append(values[index])
      index = previous[index]
    }
    return result.reversed()
  }
}

/// One way the actual timeline departs from the expected one.
public struct TimelineDifference: Hashable, Sendable {
  public enum Kind: Hashable, Sendable {
    /// In the expected timeline only.
    case missing
    /// In the actual timeline only.
    case unexpected
    /// The same entry, further away in time than the tolerance allows (actual − expected).
    case shifted(by: SimulationDuration)
    /// Same kind, subject and instant (within tolerance); these fields differ.
    case changed(fields: [String])
    /// Same entry and instant, but in a different order among the entries at that instant.
    case reordered
  }

  public var kind: Kind
  /// Index into the expected timeline's entries.
  public var expectedIndex: Int?
  /// Index into the actual timeline's entries.
  public var actualIndex: Int?

  public init(kind: Kind, expectedIndex: Int?, actualIndex: Int?) {
    self.kind = kind
    self.expectedIndex = expectedIndex
    self.actualIndex = actualIndex
  }
}

/// A header line that differs: absent on one side (nil) or with another value.
public struct HeaderDifference: Hashable, Sendable {
  public var key: String
  public var expected: String?
  public var actual: String?

  public init(key: String, expected: String?, actual: String?) {
    self.key = key
    self.expected = expected
    self.actual = actual
  }
}
