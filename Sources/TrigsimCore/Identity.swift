/// This build's version: `trigsim --version`, and the version a partial
/// report records (a merge refuses partials of another version).
public enum TrigsimVersion {
  public static let current = "0.1.0"
}
