import TrigsimFuzzTargets

/// libFuzzer on the expected-json target, or a replayer of saved inputs (see `FuzzTarget.main`).
@main enum FuzzEntry {
  static func main() { FuzzTarget.expectedJSON.main() }
}
