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

  /// `file:line:column`, the form editors and CI annotators recognise.
  public var description: String { "\(file):\(line):\(column)" }
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

/// Collects diagnostics for one file, stopping at a limit so that a file with
/// a million bad rows still gives a readable report.
public struct DiagnosticCollector: Sendable {
  public static let defaultLimit = 50
  public private(set) var diagnostics: [Diagnostic] = []
  public private(set) var suppressed = 0
  public let limit: Int

  public init(limit: Int = DiagnosticCollector.defaultLimit) { self.limit = limit }

  public var hasErrors: Bool { !diagnostics.isEmpty }

  public mutating func append(_ diagnostic: Diagnostic) {
    if diagnostics.count < limit { diagnostics.append(diagnostic) } else { suppressed += 1 }
  }

  /// Throws the collected diagnostics, if any. When some were suppressed, the
  /// last diagnostic says how many.
  public func throwIfAny() throws {
    guard var last = diagnostics.last else { return }
    var all = diagnostics
    if suppressed > 0 {
      last.notes.append("\(suppressed) further problem(s) in this file were not listed")
      all[all.count - 1] = last
    }
    throw InputError(all)
  }
}
