import TrigsimFuzzTargets

/// libFuzzer on the geojson target, or a replayer of saved inputs (see `FuzzTarget.main`).
@main enum FuzzEntry {
  static func main() { FuzzTarget.geojson.main() }
}
