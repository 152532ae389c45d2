/// The one quoting policy for every reader of a file a scenario names (a
/// track, a regions or places file, an expected timeline).
///
/// A reader first asks whether the file's beginning is its format (each
/// reader's rule is in its own documentation: a GPX root element, a CSV
/// header naming a known column, a GeoJSON object, the timeline's first
/// line). Until it is, the file is somebody else's text: a password file
/// named as a track, a credentials file named as a places CSV, a binary.
/// Its one diagnostic then names the file (its location) and says what its
/// beginning should be; it quotes nothing of the file and shows none of its
/// lines (`showsSourceLine` is false), so a scenario from an untrusted pull
/// request cannot make trigsim print a file into a public CI log.
///
/// Once the beginning is the format, the file is the user's own writing, and
/// its diagnostics quote values and show lines as every diagnostic does
/// (cut to `Diagnostic.quoteLimit`).
public enum ForeignFile {
  /// The diagnostic for `file`, read as `format`, whose beginning is not
  /// that format: `the file is not <format>: <whyNot>`, at `line`:`column`
  /// (where the reader stopped believing it, 1:1 by default), with `notes`
  /// saying what the format looks like. None of them may hold the file's text.
  public static func diagnostic(
    file: String, line: Int = 1, column: Int = 1, format: String, whyNot: String, notes: [String]
  ) -> Diagnostic {
    var diagnostic = Diagnostic(
      at: InputLocation(file: file, line: max(1, line), column: max(1, column)), "the file is not \(format): \(whyNot)", notes: notes)
    diagnostic.showsSourceLine = false
    return diagnostic
  }
}
