import Testing

@testable import TrigsimCore

/// Trials draw when each Doze maintenance window opens (`DozeRules.maintenanceSpread`).
@Suite struct DozeMaintenanceDrawTests {
  static let start = AlarmDispatcherTests.start
  static let end = start.advanced(by: .hours(48))

  static func openings(seed: UInt64?, doze: DozeRules = DozeRules()) -> [SimulationInstant] {
    let power = AndroidPowerTimeline(
      rules: doze, start: start, end: end, screenOn: [], charging: [], batterySaver: [], buckets: [], dozeEntryJitter: nil,
      maintenanceRandom: seed.map { TrialRandom(seed: $0) })
    return power.dozePeriods.flatMap(\.maintenanceWindows).map(\.lowerBound)
  }

  @Test func aSingleRunDrawsNothing() {
    // As before: 02:00, 04:00:30, 08:01, then every 6 h 30 s.
    let single = Self.openings(seed: nil)
    #expect(Array(single.prefix(3)) == [AlarmDispatcherTests.at(minutes: 120), Self.start.advanced(by: .seconds(4 * 3600 + 30)), AlarmDispatcherTests.at(minutes: 8 * 60 + 1)])
    let explicitNil = AndroidPowerTimeline(
      rules: DozeRules(), start: Self.start, end: Self.end, screenOn: [], charging: [], batterySaver: [], buckets: [], dozeEntryJitter: nil)
    #expect(explicitNil.dozePeriods == AndroidPowerTimeline(
      rules: DozeRules(), start: Self.start, end: Self.end, screenOn: [], charging: [], batterySaver: [], buckets: [], dozeEntryJitter: nil,
      maintenanceRandom: nil).dozePeriods)
  }

  @Test func maintenanceDrawsAreIdenticalForOneSeed() {
    #expect(Self.openings(seed: 7) == Self.openings(seed: 7))
  }

  @Test func maintenanceDrawsDifferAcrossSeeds() {
    #expect(Self.openings(seed: 7) != Self.openings(seed: 8))
    #expect(Self.openings(seed: 7) != Self.openings(seed: nil))
  }

  @Test func eachOpeningStaysInsideTheDocumentedSpread() {
    let doze = DozeRules()
    for seed in UInt64(0)..<50 {
      let periods = AndroidPowerTimeline(
        rules: doze, start: Self.start, end: Self.end, screenOn: [], charging: [], batterySaver: [], buckets: [], dozeEntryJitter: nil,
        maintenanceRandom: TrialRandom(seed: seed)
      ).dozePeriods
      for period in periods {
        var idleFrom = period.start
        for (index, window) in period.maintenanceWindows.enumerated() {
          let earliest = idleFrom.advanced(by: doze.idleSpan(before: index))
          #expect(window.lowerBound >= earliest)
          #expect(window.lowerBound < earliest.advanced(by: doze.maintenanceSpread))
          idleFrom = window.upperBound
        }
      }
    }
  }

  @Test func aZeroSpreadMovesNothing() {
    var doze = DozeRules()
    doze.maintenanceSpread = .zero
    #expect(Self.openings(seed: 7, doze: doze) == Self.openings(seed: nil, doze: doze))
    #expect(doze.summary.hasSuffix("maintenance-spread=0s"))
    #expect(!DozeRules().summary.contains("maintenance-spread"))
  }
}
