import TrigsimFuzzTargets

/// libFuzzer on the report target, or a replayer of saved inputs (see `FuzzTarget.main`).
@main enum FuzzEntry {
  static func main() { FuzzTarget.report.main() }
}
