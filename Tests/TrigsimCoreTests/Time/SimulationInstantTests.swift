import Foundation
import Testing
import TrigsimCore

@Suite struct SimulationInstantTests {
  @Test func aDateIsRoundedToTheMillisecond() {
    #expect(SimulationInstant(Date(timeIntervalSince1970: 1.0006)).millisecondsSinceEpoch == 1001)
    #expect(SimulationInstant(Date(timeIntervalSince1970: -0.0004)).millisecondsSinceEpoch == 0)
  }

  @Test func aDateBeyondInt64MillisecondsGivesTheEndOfTheRangeInsteadOfTrapping() {
    #expect(SimulationInstant(Date(timeIntervalSince1970: 1e300)).millisecondsSinceEpoch == .max)
    #expect(SimulationInstant(Date(timeIntervalSince1970: -1e300)).millisecondsSinceEpoch == .min)
    #expect(SimulationInstant(Date(timeIntervalSince1970: 9.2e15)).millisecondsSinceEpoch == 9_200_000_000_000_000_000)
  }
}
