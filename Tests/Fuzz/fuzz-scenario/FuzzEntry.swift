import TrigsimFuzzTargets

/// libFuzzer on the scenario target, or a replayer of saved inputs (see `FuzzTarget.main`).
@main enum FuzzEntry {
  static func main() { FuzzTarget.scenario.main() }
}
