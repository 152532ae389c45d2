import Foundation
import TrigsimCore
import TrigsimTracks

/// Every kind of file trigsim reads because a scenario names or implies it
/// (or, for `merge`, because the command line names it), and the one policy
/// every one of them is read under.
///
/// **The policy**, in the order it is applied, before anything of the file
/// is quoted:
/// 1. **Where.** Under `--root` (`ScenarioPathPolicy`) the path must resolve
///    inside the root after following symbolic links, and a regular file
///    must have one hard link. A partial file is the user's own command-line
///    argument, and `merge` has no root.
/// 2. **What.** Only a regular file (`RegularFile`): no folder, FIFO, device,
///    socket or `/proc` and `/sys` file.
/// 3. **How much.** At most `byteLimit` bytes, checked on the open file
///    before reading, and never read past (a track is streamed instead, in
///    bounded memory, by its reader's line and entity limits).
/// 4. **Its format.** The file's beginning must be the kind's format
///    (`signature`); until it is, the file is somebody else's, and its one
///    diagnostic names it and quotes nothing of it (`ForeignFile`).
/// 5. **Its lines.** A line of a text baseline holds at most
///    `Diagnostic.lineByteLimit` bytes; a diff quotes at most
///    `Diagnostic.diffLineLimit` scalars of a line, escaped
///    (`BaselineTextDifference`).
///
/// Each kind's reading goes through `read(_:policy:)`, and a test enumerates
/// `allCases`, so a new kind of file cannot skip the policy.
public enum ScenarioFileKind: String, CaseIterable, Sendable {
  /// The scenario's YAML.
  case scenario
  /// Its GPX or CSV track (`track: { file: … }`).
  case track
  /// A GeoJSON file of regions (`regions: - { file: … }`).
  case regions
  /// A places CSV (`places: { set: { file: … } }`).
  case places
  /// The expected timeline (`expect:`, or `<name>.timeline` beside the scenario).
  case expectedTimeline
  /// The expected dose table beside it (`x.doses`).
  case expectedDoses
  /// The expected assumption report beside it (`x.assumptions`).
  case expectedAssumptions
  /// The expected side-by-side table beside it (`x.platforms`).
  case expectedPlatforms
  /// The expected trial report (`trials: { expect: … }`, or `x.trials`).
  case expectedTrials
  /// A shard's partial file given to `trigsim merge`.
  case partial

  /// How messages name it: `expected assumption report`.
  public var what: String {
    switch self {
    case .scenario: "scenario"
    case .track: "track file"
    case .regions: "regions file"
    case .places: "places file"
    case .expectedTimeline: "expected timeline"
    case .expectedDoses: "expected dose table"
    case .expectedAssumptions: "expected assumption report"
    case .expectedPlatforms: "expected side-by-side table"
    case .expectedTrials: "expected trial report"
    case .partial: "partial file"
    }
  }

  /// The most bytes a file of this kind may hold; nil for a track, which is
  /// streamed (its reader holds at most 1 MiB and one line, "Tracks").
  ///
  /// An expected timeline may hold a run at the default entry limit
  /// (1,000,000 entries of up to 256 bytes); the other baselines are a line
  /// a dose or an assumption, and 16 MiB is thousands of times the largest
  /// bundled one; a partial holds a line per scenario or about 90 bytes per
  /// trial, so 64 MiB is some 700,000 trials of a shard.
  public var byteLimit: Int? {
    switch self {
    case .track: nil
    case .expectedTimeline: 256 << 20
    case .partial: 64 << 20
    case .scenario, .regions, .places, .expectedDoses, .expectedAssumptions, .expectedPlatforms, .expectedTrials: 16 << 20
    }
  }

  /// What the file's beginning must be, in words (the foreign-file message's note).
  public var signature: String {
    switch self {
    case .scenario: "a YAML mapping with 'trigsim: 1'"
    case .track: "a GPX root element, or a CSV header naming a track's columns"
    case .regions: "a GeoJSON object with \"type\": \"FeatureCollection\" or \"Feature\""
    case .places: "a CSV header naming id, latitude and longitude"
    case .expectedTimeline: "the line '\(Timeline.formatLine)', or a JSON object with \"format\": \"trigsim-…\""
    case .expectedDoses: "the line '\(DoseBaseline.formatLine)'"
    case .expectedAssumptions: "a line beginning '\(Self.assumptionsBeginning)'"
    case .expectedPlatforms: "a line beginning '\(Self.platformsBeginning)'"
    case .expectedTrials: "the line '\(Self.trialsBeginning)'"
    case .partial: "a JSON object with a \"format\": \"trigsim-…-partial-1\" member"
    }
  }

  /// `an expected timeline`, `a track file`.
  var indefinite: String { ("aeiou".contains(what.first!) ? "an " : "a ") + what }

  static let assumptionsBeginning = "assumptions consulted: "
  static let platformsBeginning = "# platforms: "
  static let trialsBeginning = "# trigsim trials"

  /// Whether a file of this kind is under `--root` (every kind a scenario names or implies; not `merge`'s own arguments).
  public var followsRoot: Bool { self != .partial }

  /// Whether the policy's format check is made here, on the first line
  /// (`true`), or by the kind's own reader, which knows its format better
  /// and applies the same `ForeignFile` rule (a GPX root element, a CSV
  /// header, a GeoJSON member, the timeline's and dose table's first line,
  /// a partial's `format` member, the scenario's YAML).
  var checksFirstLineHere: Bool {
    switch self {
    case .expectedAssumptions, .expectedPlatforms, .expectedTrials: true
    case .scenario, .track, .regions, .places, .expectedTimeline, .expectedDoses, .partial: false
    }
  }
}

extension Diagnostic {
  /// The most bytes one line of a text baseline (`.doses`, `.assumptions`,
  /// `.platforms`, `.trials`) may hold: a dose line with every field is under
  /// 2 KiB, so a longer line is no baseline trigsim wrote.
  public static let lineByteLimit = 64 << 10

  /// The most Unicode scalars of one line a diff quotes; a longer line is cut
  /// there and ends with `…`. Control characters are escaped
  /// (`ControlCharacterEscape`); each escape counts as one scalar.
  public static let diffLineLimit = 300
}

/// A file of a `ScenarioFileKind` that its policy refuses: where, what and
/// what to do, as one located diagnostic, and whether it is bad input (exit
/// 65) or a file that cannot be read (exit 66).
public struct ScenarioFileRefusal: Error, Sendable {
  public var diagnostic: Diagnostic
  /// Set for a file that is not a regular file or that the system will not
  /// open: what commands that read the file whole report (exit 66); nil for
  /// bad input (65).
  public var fileAccess: FileAccessError?
  /// Whether `record` may write a new baseline over it: a regular file inside
  /// the root whose content is wrong (too large, not its format, a line too
  /// long), not a file the path policy or the file type refuses.
  public var mayBeRewritten: Bool

  /// The diagnostic shows no line of the file (`showsSourceLine` false): a
  /// refused file is not the user's writing, or its line is too long to show.
  public init(_ diagnostic: Diagnostic, fileAccess: FileAccessError? = nil, mayBeRewritten: Bool = false) {
    var diagnostic = diagnostic
    diagnostic.showsSourceLine = false
    self.diagnostic = diagnostic
    self.fileAccess = fileAccess
    self.mayBeRewritten = mayBeRewritten
  }

  /// As the commands report it: `FileAccessError` (66) when it cannot be read, else `InputError` (65).
  public var error: any Error { fileAccess ?? InputError(diagnostic) }
}

extension ScenarioFileKind {
  /// Reads the file at `path` under the policy (see the type): nil when no
  /// file is there (each caller says what a missing file means), else its
  /// bytes.
  ///
  /// - Parameters:
  ///   - path: the file, as the command line or the scenario names it (resolved); every location names it so.
  ///   - policy: where scenario files may lie (`--root`); ignored for a partial.
  ///   - namedAt: where the scenario names or implies the file, for a
  ///     refusal by the path policy (a file that may not be read is reported
  ///     where it is named); nil: at the file itself.
  ///   - recordNote: what to do about a baseline that is refused, if it is one.
  /// - Throws: `ScenarioFileRefusal` located at `namedAt` when the path
  ///   policy, the file type or the size refuses it (the file named in the
  ///   message), or in the file when its content does (not its format, a line
  ///   too long, not UTF-8).
  public func read(_ path: String, policy: ScenarioPathPolicy, namedAt: InputLocation? = nil, recordNote: String? = nil) throws(ScenarioFileRefusal)
    -> Data?
  {
    let atFile = InputLocation(file: path, line: 1, column: 1)
    let notes = recordNote.map { [$0] } ?? []
    if followsRoot, let escape = policy.escape(of: path) {
      throw ScenarioFileRefusal(Diagnostic(at: namedAt ?? atFile, policy.message(what: what, path: path, escape: escape), notes: [ScenarioPathPolicy.note]))
    }
    let data: Data
    do {
      data = try RegularFile.contents(path, limit: byteLimit ?? .max)
    } catch .system(ENOENT) {
      return nil
    } catch .tooLarge(let size, let limit) {
      throw ScenarioFileRefusal(Diagnostic(
        at: namedAt ?? atFile, "\(what) \(Diagnostic.quotePath(path)) is \(size) bytes, more than the \(RegularFile.spelled(bytes: limit)) \(indefinite) may hold",
        notes: notes.isEmpty ? ["no \(what) trigsim writes is that large: check that this is the file you meant"] : notes), mayBeRewritten: true)
    } catch .system(let code) {
      throw ScenarioFileRefusal(
        Diagnostic(at: namedAt ?? atFile, "cannot read \(what) \(Diagnostic.quotePath(path)): \(String(cString: strerror(code)))", notes: notes),
        fileAccess: FileAccessError(path: path, reason: String(cString: strerror(code))))
    } catch {
      throw ScenarioFileRefusal(
        Diagnostic(at: namedAt ?? atFile, "\(what) \(Diagnostic.quotePath(path)) \(error.reason)", notes: [RegularFile.refusedKindsNote]),
        fileAccess: FileAccessError(path: path, reason: error.reason))
    }
    try checkTextBaseline(data, path: path, notes: notes)
    return data
  }

  /// The format check of a text baseline: its first line begins as the
  /// kind's (else, where the check is made here, `ForeignFile`: named, never
  /// quoted; a dose table's own reader says more about its first line), and
  /// then, the file being trigsim's format, no line is longer than
  /// `Diagnostic.lineByteLimit` and the text is UTF-8.
  func checkTextBaseline(_ data: Data, path: String, notes: [String]) throws(ScenarioFileRefusal) {
    guard let beginning = textBeginning else { return }
    guard data.starts(with: Array(beginning.utf8)) else {
      guard checksFirstLineHere else { return }
      throw ScenarioFileRefusal(ForeignFile.diagnostic(
        file: path, format: "a trigsim \(what.replacingOccurrences(of: "expected ", with: ""))", whyNot: "its first line does not begin '\(beginning)'",
        notes: notes), mayBeRewritten: true)
    }
    if let tooLong = Self.firstLongLine(data) {
      throw ScenarioFileRefusal(Diagnostic(
        at: InputLocation(file: path, line: tooLong.line, column: 1),
        "line \(tooLong.line) of the \(what) is \(tooLong.bytes) bytes, more than the \(RegularFile.spelled(bytes: Diagnostic.lineByteLimit)) a line of it may hold",
        notes: notes), mayBeRewritten: true)
    }
    if String(data: data, encoding: .utf8) == nil {
      throw ScenarioFileRefusal(Diagnostic(at: InputLocation(file: path, line: 1, column: 1), "the \(what) is not UTF-8 text", notes: notes), mayBeRewritten: true)
    }
  }

  /// How a text baseline kept line by line begins; nil for the other kinds.
  var textBeginning: String? {
    switch self {
    case .expectedDoses: "# trigsim doses "
    case .expectedAssumptions: Self.assumptionsBeginning
    case .expectedPlatforms: Self.platformsBeginning
    case .expectedTrials: Self.trialsBeginning
    case .scenario, .track, .regions, .places, .expectedTimeline, .partial: nil
    }
  }

  /// The first line (1-based) longer than `Diagnostic.lineByteLimit`, with its length in bytes.
  static func firstLongLine(_ data: Data) -> (line: Int, bytes: Int)? {
    var line = 1
    var lineStart = data.startIndex
    for index in data.indices where data[index] == UInt8(ascii: "\n") {
      if index - lineStart > Diagnostic.lineByteLimit { return (line, index - lineStart) }
      line += 1
      lineStart = index + 1
    }
    let last = data.endIndex - lineStart
    return last > Diagnostic.lineByteLimit ? (line, last) : nil
  }
}

extension RegularFile {
  /// What a refusal of a file that is not a regular one adds.
  package static let refusedKindsNote =
    "trigsim reads regular files only: folders, named pipes, devices, sockets and files under /proc or /sys are refused before reading"
}

extension ScenarioFileKind {
  /// `read(_:policy:namedAt:recordNote:)` as UTF-8 text, for the readers
  /// that parse a whole file.
  ///
  /// - Throws: `FileAccessError` (no such file, cannot be read, not UTF-8),
  ///   or `InputError` with the refusal's diagnostic.
  public func readText(_ path: String, policy: ScenarioPathPolicy = .unrestricted, namedAt: InputLocation? = nil) throws -> String {
    let data: Data?
    do {
      data = try read(path, policy: policy, namedAt: namedAt)
    } catch {
      throw error.error
    }
    guard let data else { throw FileAccessError(path: path, reason: "no such file") }
    guard let text = String(data: data, encoding: .utf8) else { throw FileAccessError(path: path, reason: "the file is not UTF-8 text") }
    return text
  }
}
