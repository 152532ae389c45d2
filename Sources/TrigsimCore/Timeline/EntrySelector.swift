/// Picks timeline entries by kind and subject: `fired`, `fired medicine_1_*`,
/// `enter home`, `geofence` (every entry a region crossing causes), or a bare
/// notification pattern `medicine_1_*` (short for `fired medicine_1_*`).
///
/// Tolerances and assertions use the same selectors, so one spelling works everywhere.
public struct EntrySelector: Hashable, Sendable, CustomStringConvertible {
  public enum Scope: Hashable, Sendable {
    /// Entries of one kind.
    case kind(TimelineEntry.Kind)
    /// `enter`, `exit`, `detected` and `undetected` entries, and entries whose `trigger` field is a region
    /// trigger (`scheduled`, `fired`, ... of region-triggered requests): the
    /// instants that move when a track or its interpolation changes.
    case geofence
  }

  public var scope: Scope
  /// A glob over the entry's subject (`*` any run, `?` one character); nil matches every subject.
  public var subject: IdentifierPattern?

  public init(_ scope: Scope, subject: IdentifierPattern? = nil) {
    self.scope = scope
    self.subject = subject
  }

  /// Reads `KIND [PATTERN]`, `geofence [PATTERN]`, or a bare `PATTERN`
  /// meaning `fired PATTERN` (a single word that names no kind); nil for
  /// anything else (an unknown first word followed by a pattern, three words).
  public init?(parsing text: String) {
    let words = text.split(separator: " ", omittingEmptySubsequences: true)
    guard (1...2).contains(words.count) else { return nil }
    let first = String(words[0])
    let pattern = words.count == 2 ? IdentifierPattern(String(words[1])) : nil
    if first == "geofence" {
      self.init(.geofence, subject: pattern)
    } else if let kind = TimelineEntry.Kind(rawValue: first) {
      self.init(.kind(kind), subject: pattern)
    } else if words.count == 1 {
      self.init(.kind(.fired), subject: IdentifierPattern(first))
    } else {
      return nil
    }
  }

  /// The words a selector may start with: every entry kind, then `geofence`.
  public static var scopeWords: [String] { TimelineEntry.Kind.allCases.map(\.rawValue) + ["geofence"] }

  public func matches(_ entry: TimelineEntry) -> Bool {
    if let subject, !subject.matches(entry.subject) { return false }
    switch scope {
    case .kind(let kind): return entry.kind == kind
    case .geofence: return entry.isGeofenceEntry
    }
  }

  /// How specific the selector is, for picking the one tolerance that applies,
  /// compared in this order: an exact subject beats a glob, which beats none;
  /// among globs, more literal characters beat fewer (`medicine_met_*` beats
  /// `medicine_*`); then a kind beats `geofence`.
  var specificity: (subject: Int, literals: Int, scope: Int) {
    let scopeRank = scope == .geofence ? 0 : 1
    guard let subject else { return (0, 0, scopeRank) }
    let literals = subject.text.count { $0 != "*" && $0 != "?" }
    let isGlob = subject.text.contains { $0 == "*" || $0 == "?" }
    return (isGlob ? 1 : 2, literals, scopeRank)
  }

  public var description: String {
    let head = switch scope {
    case .kind(let kind): kind.rawValue
    case .geofence: "geofence"
    }
    return subject.map { "\(head) \($0.text)" } ?? head
  }

  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.scope == rhs.scope && lhs.subject?.text == rhs.subject?.text }
  public func hash(into hasher: inout Hasher) {
    hasher.combine(scope)
    hasher.combine(subject?.text)
  }
}

extension TimelineEntry {
  /// A region crossing, or an entry about a region-triggered request.
  public var isGeofenceEntry: Bool {
    kind == .enter || kind == .exit || kind == .detected || kind == .undetected || (self[field: "trigger"]?.hasPrefix("region ") ?? false)
  }
}
