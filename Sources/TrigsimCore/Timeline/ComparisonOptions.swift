/// What a timeline comparison allows and leaves out.
///
/// The default compares everything exactly: header lines, every entry, every
/// field, instants to the millisecond.
public struct ComparisonOptions: Sendable {
  /// How far an actual instant may lie from the expected one, either way, and still match.
  public var tolerance = TimeTolerance()
  /// Fields left out of the comparison (titles, say).
  public var ignoredFields: [FieldFilter] = []
  /// Entry kinds left out entirely, on both sides.
  public var ignoredKinds: Set<TimelineEntry.Kind> = []
  /// Header keys left out (`track`, say); `ignoresWholeHeader` leaves out every header line.
  public var ignoredHeaderKeys: Set<String> = []
  public var ignoresWholeHeader = false

  public init() {}

  /// These options with `other`'s settings laid over them: `other`'s
  /// tolerances replace the same selectors here, and ignore lists are joined.
  /// The command line is laid over the scenario's `expect:` settings this way.
  public func overridden(by other: ComparisonOptions) -> ComparisonOptions {
    var merged = self
    if let global = other.tolerance.global { merged.tolerance.global = global }
    for rule in other.tolerance.rules { merged.tolerance.set(rule.duration, for: rule.selector) }
    merged.ignoredFields += other.ignoredFields.filter { !merged.ignoredFields.contains($0) }
    merged.ignoredKinds.formUnion(other.ignoredKinds)
    merged.ignoredHeaderKeys.formUnion(other.ignoredHeaderKeys)
    merged.ignoresWholeHeader = merged.ignoresWholeHeader || other.ignoresWholeHeader
    return merged
  }

  /// The entry's fields that take part in the comparison.
  func comparedFields(of entry: TimelineEntry) -> [TimelineField] {
    guard !ignoredFields.isEmpty else { return entry.fields }
    return entry.fields.filter { field in !ignoredFields.contains { $0.matches(field.key, in: entry.kind) } }
  }

  func comparesHeader(_ key: String) -> Bool { !ignoresWholeHeader && !ignoredHeaderKeys.contains(key) }
}

/// Instant tolerances: a global one and one per selector.
///
/// The tolerance for an entry is that of the most specific selector that
/// matches it (`fired medicine_met_reminder_0` before `fired medicine_met_*`
/// before `fired medicine_*` before `fired` before `geofence`; see
/// `EntrySelector.specificity`), else the global one, else zero. When equally
/// specific selectors match, the smallest tolerance applies, so the result
/// never depends on the order rules are written in. A later rule for the same
/// selector replaces an earlier one.
/// Bounds are inclusive: with `2s`, an entry 2000 ms away matches and one 2001 ms away does not.
public struct TimeTolerance: Sendable {
  public var global: SimulationDuration?
  public private(set) var rules: [(selector: EntrySelector, duration: SimulationDuration)] = []

  public init(global: SimulationDuration? = nil) { self.global = global }

  public mutating func set(_ duration: SimulationDuration, for selector: EntrySelector) {
    rules.removeAll { $0.selector == selector }
    rules.append((selector, duration))
  }

  public func tolerance(for entry: TimelineEntry) -> SimulationDuration {
    var best: (specificity: (Int, Int, Int), duration: SimulationDuration)?
    for rule in rules where rule.selector.matches(entry) {
      let specificity = rule.selector.specificity
      if let current = best {
        if specificity > current.specificity || (specificity == current.specificity && rule.duration < current.duration) {
          best = (specificity, rule.duration)
        }
      } else {
        best = (specificity, rule.duration)
      }
    }
    return best?.duration ?? global ?? .zero
  }

  /// The largest tolerance any entry may have (the dose tables' tolerance: a
  /// dose's instants come from entries of several kinds).
  public var largest: SimulationDuration { rules.map(\.duration).reduce(global ?? .zero, max) }

  /// Whether any tolerance is non-zero.
  public var isExact: Bool { (global ?? .zero) == .zero && rules.allSatisfy { $0.duration == .zero } }
}

/// A field left out of comparisons: `title` (in every kind) or `fired.title` (in one kind).
public struct FieldFilter: Hashable, Sendable, CustomStringConvertible {
  public var key: String
  public var kind: TimelineEntry.Kind?

  public init(key: String, kind: TimelineEntry.Kind? = nil) {
    self.key = key
    self.kind = kind
  }

  /// Reads `title` or `fired.title`; nil when the part before the dot names no kind.
  public init?(parsing text: String) {
    guard !text.isEmpty, !text.contains(" ") else { return nil }
    if let dot = text.firstIndex(of: ".") {
      guard let kind = TimelineEntry.Kind(rawValue: String(text[..<dot])) else { return nil }
      let key = String(text[text.index(after: dot)...])
      guard !key.isEmpty else { return nil }
      self.init(key: key, kind: kind)
    } else {
      self.init(key: text)
    }
  }

  public func matches(_ key: String, in kind: TimelineEntry.Kind) -> Bool {
    self.key == key && (self.kind == nil || self.kind == kind)
  }

  public var description: String { kind.map { "\($0.rawValue).\(key)" } ?? key }
}
