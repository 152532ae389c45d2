/// How much of a timeline difference a report shows.
public enum DiffStyle: String, Sendable, CaseIterable {
  /// The summary line and one line per group of same-cause differences.
  case compact
  /// The summary line and every difference with its context (`report`).
  case full
}

/// Differences of one cause: the same entry kind, the same subject (or the
/// same subject up to a trailing number) and the same description.
public struct DifferenceGroup: Hashable, Sendable {
  public var entryKind: TimelineEntry.Kind
  /// The one subject of the group, or the shared stem with `*` for the trailing number (`medicine_1_snooze_*`).
  public var subject: String
  /// `shifted by +1m`, `changed: title`, `missing`, `unexpected`, `reordered`.
  public var description: String
  public var count: Int
  /// The first difference of the group, in report order.
  public var first: TimelineDifference
}

extension TimelineComparison {
  /// The differences grouped by cause, in the order each group's first
  /// difference appears in the report.
  ///
  /// Two differences share a group when their entries have the same kind,
  /// their subjects are equal once a trailing run of digits is replaced by
  /// `*` (`medicine_1_snooze_11` and `medicine_1_snooze_12`, but not
  /// `medicine_1_…` and `medicine_2_…`), and their descriptions are equal (a
  /// shift by the same amount, the same changed fields). A group whose
  /// entries all have one subject is named by it.
  public var differenceGroups: [DifferenceGroup] {
    var groups: [DifferenceGroup] = []
    var position: [String: Int] = [:]
    var subjects: [Int: String] = [:]  // group position → its one subject, or "" when several
    for difference in differences {
      guard let entry = difference.actualIndex.map({ actual.entries[$0] }) ?? difference.expectedIndex.map({ expected.entries[$0] }) else { continue }
      let stem = Self.subjectStem(entry.subject)
      let description = describe(difference)
      let key = entry.kind.rawValue + "\u{1F}" + stem + "\u{1F}" + description
      if let index = position[key] {
        groups[index].count += 1
        if subjects[index] != entry.subject { subjects[index] = "" }
      } else {
        position[key] = groups.count
        subjects[groups.count] = entry.subject
        groups.append(DifferenceGroup(entryKind: entry.kind, subject: entry.subject, description: description, count: 1, first: difference))
      }
    }
    for index in groups.indices where subjects[index] == "" { groups[index].subject = Self.subjectStem(groups[index].subject) }
    return groups
  }

  /// `medicine_1_snooze_11` → `medicine_1_snooze_*`; a subject without a trailing number is its own stem.
  static func subjectStem(_ subject: String) -> String {
    let digits = subject.reversed().prefix { $0.isASCII && $0.isNumber }.count
    guard digits > 0, digits < subject.count else { return subject }
    return String(subject.dropLast(digits)) + "*"
  }

  /// The words a compact line uses for a difference: `missing`,
  /// `unexpected`, `shifted by +1m`, `changed: title`, `changed: trigger,
  /// next (moved by +1m)` (see `fieldsMoved`), `reordered`.
  func describe(_ difference: TimelineDifference) -> String {
    switch difference.kind {
    case .missing: return "missing"
    case .unexpected: return "unexpected"
    case .shifted(let by): return "shifted by \(Self.signed(by))"
    case .changed(let fields):
      return "changed: \(fields.joined(separator: ", "))" + (fieldsMoved(difference).map { " (moved by \(Self.signed($0)))" } ?? "")
    case .reordered: return "reordered"
    }
  }

  /// For a changed pair whose differing fields all moved by one amount, as
  /// `fieldsMovedTogether` reads it (the amount is that of the first differing
  /// instant-valued field), that amount: a reminder scheduled at the same
  /// instant whose `next` and calendar trigger moved by +1m. Nil otherwise.
  public func fieldsMoved(_ difference: TimelineDifference) -> SimulationDuration? {
    guard case .changed = difference.kind, let e = difference.expectedIndex, let a = difference.actualIndex,
      expected.entries[e].utcOffsetSeconds == actual.entries[a].utcOffsetSeconds
    else { return nil }
    let expectedFields = options.comparedFields(of: expected.entries[e])
    let actualFields = options.comparedFields(of: actual.entries[a])
    for (left, right) in zip(expectedFields, actualFields) where left.value != right.value {
      guard let from = Self.instantMilliseconds(left.value), let to = Self.instantMilliseconds(right.value) else { continue }
      guard to != from, Self.fieldsMovedTogether(expectedFields, actualFields, byMilliseconds: to - from) else { return nil }
      return SimulationDuration(milliseconds: to - from)
    }
    return nil
  }

  /// The summary line, then one line per group of same-cause differences
  /// (`differenceGroups`) with where its first entry is, then one line per
  /// differing header line:
  ///
  ///     timeline differs from base.timeline: 0 missing, 0 unexpected, 21 shifted by +1m
  ///      7 × fired medicine_1_reminder_1 shifted by +1m (first: expected line 31, actual line 31)
  ///     14 × fired medicine_1_snooze_* shifted by +1m (first: expected line 33, actual line 33)
  ///
  /// Line numbers are as in `report`.
  public func compactReport(expectedName: String, expectedLocations: [InputLocation]? = nil) -> String {
    guard !matches else { return report(expectedName: expectedName, actualName: "") }
    var text = "timeline differs from \(ControlCharacterEscape.escaping(expectedName)): \(summaryLine)\n"
    for difference in headerDifferences {
      let escaped = ControlCharacterEscape.escaping
      text += "  header '\(escaped(difference.key))': expected \(difference.expected.map { "'\(escaped($0))'" } ?? "none"), actual \(difference.actual.map { "'\(escaped($0))'" } ?? "none")\n"
    }
    let groups = differenceGroups
    let width = String(groups.map(\.count).max() ?? 0).count
    for group in groups {
      let count = String(group.count)
      var places: [String] = []
      if let index = group.first.expectedIndex { places.append("expected line \(expectedLine(index, expectedLocations))") }
      if let index = group.first.actualIndex { places.append("actual line \(actualLine(index))") }
      text += String(repeating: " ", count: width - count.count) + "\(count) × \(group.entryKind.rawValue) \(group.subject) \(group.description)"
      text += " (first: \(places.joined(separator: ", ")))\n"
    }
    return text
  }

  /// The line of expected entry `index`: from `expectedLocations` when given, else in the canonical text.
  func expectedLine(_ index: Int, _ expectedLocations: [InputLocation]?) -> Int {
    if let expectedLocations, index < expectedLocations.count { return expectedLocations[index].line }
    return expected.header.count + 2 + index
  }

  /// The line of actual entry `index` in the actual timeline's canonical text.
  func actualLine(_ index: Int) -> Int { actual.header.count + 2 + index }
}
