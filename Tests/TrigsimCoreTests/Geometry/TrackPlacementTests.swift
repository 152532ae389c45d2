import Testing
import TrigsimCore
import TrigsimTestSupport

/// Where an instant is on the track: interpolated inside a segment, held at
/// the last fix across a break and after the end, unknown before the first fix.
@Suite struct TrackPlacementTests {
  @Test func eachInstantGetsThePositionTheRuleGives() {
    let fixes = [
      Build.fix("2026-03-28T06:00:00Z", 55.68, 12.57),
      Build.fix("2026-03-28T06:01:00Z", 55.68, 12.58),
      Build.fix("2026-03-28T06:10:00Z", 55.69, 12.60, startsSegment: true),
    ]
    let instants = [
      "2026-03-28T05:59:59Z",  // before the first fix
      "2026-03-28T06:00:00Z",  // at it
      "2026-03-28T06:00:30Z",  // half way along the first segment
      "2026-03-28T06:05:00Z",  // in the break between segments
      "2026-03-28T06:10:00Z",  // at the second segment's first fix
      "2026-03-28T07:00:00Z",  // after the track
    ].map(Build.instant)
    var placement = TrackPlacement(instants: instants)
    for fix in fixes { placement.consume(fix) }
    placement.finish()
    let positions = placement.positions
    #expect(positions[0] == nil)
    #expect(positions[1] == fixes[0].coordinate)
    let middle = DevicePath(from: fixes[0], to: fixes[1]).position(at: instants[2])
    #expect(positions[2] == middle)
    #expect(abs(middle.longitude - 12.575) < 1e-4 && abs(middle.latitude - 55.68) < 1e-4)
    #expect(positions[3] == fixes[1].coordinate)
    #expect(positions[4] == fixes[2].coordinate)
    #expect(positions[5] == fixes[2].coordinate)
  }

  @Test func withoutAnyFixNothingIsPlaced() {
    var placement = TrackPlacement(instants: [Build.instant("2026-03-28T06:00:00Z")])
    placement.finish()
    #expect(placement.positions == [nil])
  }
}
