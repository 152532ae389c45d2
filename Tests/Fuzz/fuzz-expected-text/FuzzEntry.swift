import TrigsimFuzzTargets

/// libFuzzer on the expected-text target, or a replayer of saved inputs (see `FuzzTarget.main`).
@main enum FuzzEntry {
  static func main() { FuzzTarget.expectedText.main() }
}
