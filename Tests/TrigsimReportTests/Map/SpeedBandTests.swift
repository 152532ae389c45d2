import Testing
import TrigsimCore
import TrigsimTestSupport

@testable import TrigsimReport

/// Speed bands change only past their hysteresis thresholds, and the speed
/// is measured over thirty seconds, not from one jittery fix to the next.
@Suite struct SpeedBandTests {
  @Test func theBandMovesOnlyPastAThreshold() {
    #expect(SpeedBand.next(after: .still, speed: 0.6) == .still)
    #expect(SpeedBand.next(after: .still, speed: 0.8) == .walking)
    #expect(SpeedBand.next(after: .walking, speed: 0.4) == .walking)
    #expect(SpeedBand.next(after: .walking, speed: 0.2) == .still)
    #expect(SpeedBand.next(after: .walking, speed: 2.6) == .walking)
    #expect(SpeedBand.next(after: .fast, speed: 2.4) == .fast)
    #expect(SpeedBand.next(after: .still, speed: 30) == .vehicle)
    #expect(SpeedBand.next(after: .vehicle, speed: 0) == .still)
  }

  @Test func jitterBackAndForthAtOneHertzReadsAsStill() {
    var meter = SpeedMeter()
    // 4 m back and forth every second: 4 m/s fix to fix, nothing over thirty seconds.
    for second in 0..<120 {
      let point = PlanePoint(x: second % 2 == 0 ? 0 : 4, y: 0)
      let band = meter.band(at: SimulationInstant(millisecondsSinceEpoch: Int64(second) * 1000), point)
      // No measurement before a fix thirty seconds old.
      #expect(band == (second < 30 ? nil : .still), "second \(second)")
    }
    // Then a drive at 15 m/s.
    var band: SpeedBand?
    for second in 120..<180 {
      band = meter.band(at: SimulationInstant(millisecondsSinceEpoch: Int64(second) * 1000), PlanePoint(x: Double(second - 120) * 15, y: 0))
    }
    #expect(band == .vehicle)
  }

  @Test func aSegmentTooShortToMeasureIsJudgedOverItsWholeLength() {
    var meter = SpeedMeter()
    // Five seconds at 20 m/s: no measurement, but the provisional band is vehicle.
    for second in 0...5 {
      #expect(meter.band(at: SimulationInstant(millisecondsSinceEpoch: Int64(second) * 1000), PlanePoint(x: Double(second) * 20, y: 0)) == nil)
    }
    #expect(meter.provisionalBand == .vehicle)
  }
}
