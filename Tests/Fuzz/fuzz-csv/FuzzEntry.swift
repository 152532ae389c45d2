import TrigsimFuzzTargets

/// libFuzzer on the csv target, or a replayer of saved inputs (see `FuzzTarget.main`).
@main enum FuzzEntry {
  static func main() { FuzzTarget.csv.main() }
}
