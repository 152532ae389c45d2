import TrigsimFuzzTargets

/// libFuzzer on the baselines target, or a replayer of saved inputs (see `FuzzTarget.main`).
@main enum FuzzEntry {
  static func main() { FuzzTarget.baselines.main() }
}
