import TrigsimFuzzTargets

/// libFuzzer on the scenario-files target, or a replayer of saved inputs (see `FuzzTarget.main`).
@main enum FuzzEntry {
  static func main() { FuzzTarget.scenarioFiles.main() }
}
