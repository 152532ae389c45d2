import TrigsimFuzzTargets

/// libFuzzer on the gpx target, or a replayer of saved inputs (see `FuzzTarget.main`).
@main enum FuzzEntry {
  static func main() { FuzzTarget.gpx.main() }
}
