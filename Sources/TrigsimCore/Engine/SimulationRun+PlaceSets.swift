import Foundation

extension SimulationRun {
  /// `places pharmacies: 500 circles r=100m from ../fixtures/places/city-pharmacies.csv, regions pharmacies/{place}`
  /// per set, and the app's policy; the places are not listed one by one.
  func placeSetHeader() -> [TimelineField] {
    guard !scenario.placeSets.isEmpty else { return [] }
    var fields: [TimelineField] = []
    for set in scenario.placeSets {
      let radii = set.places.map(\.radius)
      let low = radii.min() ?? 0, high = radii.max() ?? 0
      let radius = low == high ? "r=\(RegionSetPolicy.metres(low))" : "r=\(RegionSetPolicy.metres(low))…\(RegionSetPolicy.metres(high))"
      let source = set.source.map { " from \($0)" } ?? " listed in the scenario"
      fields.append(TimelineField("places \(set.id)", "\(set.places.count) circles \(radius)\(source), regions \(set.id)/{place}"))
    }
    fields.append(TimelineField("region set", scenario.regionSet.summary(under: scenario.platform)))
    return fields
  }
}
