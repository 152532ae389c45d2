import TrigsimFuzzTargets

/// libFuzzer on the expected-doses target, or a replayer of saved inputs (see `FuzzTarget.main`).
@main enum FuzzEntry {
  static func main() { FuzzTarget.expectedDoses.main() }
}
