/// A position in an input file.
public struct InputLocation: Hashable, Sendable, CustomStringConvertible {
  /// The file path as given on the command line or in the scenario.
  public var file: String
  /// The 1-based line number.
  public var line: Int
  /// The 1-based column, counted in Unicode scalars (as Yams and libyaml count).
  public var column: Int

  public init(file: String, line: Int, column: Int) {
    self.file = file
    self.line = line
    self.column = column
  }

  /// `file:line:column`, the form editors and CI annotators recognise; the
  /// file name written by `ControlCharacterEscape`'s rule, so a name with
  /// ESC or a line break cannot recolour the terminal or split the line.
  public var description: String { "\(ControlCharacterEscape.escaping(file)):\(line):\(column)" }
}

/// A problem found in the input, located where the user can fix it.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
  public enum Severity: String, Sendable { case error, warning }

  public var severity: Severity
  public var location: InputLocation
  /// Lower-case, no trailing period; user values in single quotes.
  public var message: String
  /// Follow-up lines: what to do, or a "did you mean" suggestion.
  public var notes: [String]
  /// Whether a printer may quote the line at `location` under the message.
  /// False when the file is not the kind of text the user meant to give
  /// (a track that is not XML at all, such as `/etc/shadow` named as GPX):
  /// its lines are nobody's to echo.
  public var showsSourceLine = true

  public init(_ severity: Severity = .error, at location: InputLocation, _ message: String, notes: [String] = []) {
    self.severity = severity
    self.location = location
    self.message = message
    self.notes = notes
  }

  /// `file:line:column: error: message`, followed by one `note:` line per note.
  public var description: String {
    var text = "\(location): \(severity.rawValue): \(message)"
    for note in notes { text += "\nnote: \(note)" }
    return text
  }
}

/// Bad input: every problem found in one stage of loading, in file order.
public struct InputError: Error, Sendable, CustomStringConvertible {
  public var diagnostics: [Diagnostic]

  public init(_ diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }
  public init(_ diagnostic: Diagnostic) { self.diagnostics = [diagnostic] }

  public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}

/// Collects diagnostics for one file, keeping at most `limit` of them so that
/// a file with a million bad rows still gives a readable report in bounded
/// memory: past the limit problems are only counted, and the last diagnostic
/// kept ends with the note "… and N more problems in this file".
public struct DiagnosticCollector: Sendable {
  /// How many diagnostics one file reports at most (the manual's "Errors").
  public static let defaultLimit = 100
  public private(set) var diagnostics: [Diagnostic] = []
  public private(set) var suppressed = 0
  public let limit: Int
  /// Whether the diagnostics kept are the first by location (line, then
  /// column, then the order they were found) rather than the first found.
  public let keepsFirstByLocation: Bool

  public init(limit: Int = DiagnosticCollector.defaultLimit, keepsFirstByLocation: Bool = false) {
    self.limit = limit
    self.keepsFirstByLocation = keepsFirstByLocation
  }

  public var hasErrors: Bool { !diagnostics.isEmpty }

  public mutating func append(_ diagnostic: Diagnostic) {
    guard keepsFirstByLocation else {
      if diagnostics.count < limit { diagnostics.append(diagnostic) } else { suppressed += 1 }
      return
    }
    // Problems usually arrive in file order, so the common case is one
    // comparison with the last kept diagnostic.
    func key(_ d: Diagnostic) -> (Int, Int) { (d.location.line, d.location.column) }
    if diagnostics.count == limit {
      guard let last = diagnostics.last, key(diagnostic) < key(last) else {
        suppressed += 1
        return
      }
      diagnostics.removeLast()
      suppressed += 1
    }
    let index = diagnostics.lastIndex { key($0) <= key(diagnostic) }.map { $0 + 1 } ?? 0
    diagnostics.insert(diagnostic, at: index)
  }

  /// Appends the diagnostic `make` composes for a problem at `location`,
  /// calling `make` only when the diagnostic is kept: past the limit a
  /// problem costs a count, not a message.
  public mutating func append(at location: InputLocation, _ make: () -> Diagnostic) {
    let kept: Bool
    if diagnostics.count < limit {
      kept = true
    } else if keepsFirstByLocation, let last = diagnostics.last {
      kept = (location.line, location.column) < (last.location.line, last.location.column)
    } else {
      kept = false
    }
    if kept { append(make()) } else { suppressed += 1 }
  }

  /// The note that ends the report when `count` problems past the first
  /// `limit` were not kept.
  public static func moreProblemsNote(_ count: Int, limit: Int = defaultLimit) -> String {
    "… and \(count) more problem\(count == 1 ? "" : "s") in this file (only the first \(limit) are listed)"
  }

  /// Throws the collected diagnostics, if any. When some were suppressed, the
  /// last diagnostic's last note says how many (`moreProblemsNote`).
  public func throwIfAny() throws {
    guard var last = diagnostics.last else { return }
    var all = diagnostics
    if suppressed > 0 {
      last.notes.append(Self.moreProblemsNote(suppressed, limit: limit))
      all[all.count - 1] = last
    }
    throw InputError(all)
  }
}
