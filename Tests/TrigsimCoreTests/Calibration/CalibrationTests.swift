import Foundation
import Testing

@testable import TrigsimCore

/// The statistics of the calibration table (`CalibrationResult`) and the
/// corpus's own consistency.
@Suite struct CalibrationTests {
  /// A dose chance with `latencies` (ms) in `due` trials (the rest missed).
  func dose(_ latencies: [Int64], due: Int) -> TrialReport.DoseChance {
    TrialReport.DoseChance(
      key: DoseKey(medicine: MedicineID("m"), slot: .location, occurrence: 1), medicineName: "M", reminder: "home on=enter",
      scheduled: SimulationInstant(millisecondsSinceEpoch: 0), due: due, latencies: LatencyDistribution(latencies), firstMiss: nil)
  }

  @Test func theNotifiedFractionCountsOnlyDelaysWithinItsLimitAndTakesTheWilsonInterval() {
    let chance = dose([1_000, 2_000, 700_000], due: 4)
    let within = CalibrationResult.measure(.notified(within: .minutes(10)), of: chance)
    #expect(within.value == 0.5)
    #expect(within.trials == 4)
    let wilson = wilsonInterval(successes: 2, trials: 4)
    #expect(within.interval.low == wilson.low && within.interval.high == wilson.high)
    #expect(CalibrationResult.measure(.notified(within: nil), of: chance).value == 0.75)
  }

  @Test func aPercentileCountsAMissedTrialAsAnInfiniteDelay() {
    // 10 due, 9 notified at 1..9 s: the median is 5 s; the 95th percentile falls on the miss.
    let chance = dose((1...9).map { Int64($0) * 1_000 }, due: 10)
    #expect(CalibrationResult.measure(.delay(percentile: 50), of: chance).value == 5_000)
    #expect(CalibrationResult.measure(.delay(percentile: 95), of: chance).value == .infinity)
  }

  @Test func thePercentileIntervalIsTheOrderStatisticsAroundItsRank() {
    // 100 values 1...100 ms: the median's ranks are 50 ∓ 1.96·5 = 40.2 and 59.8, so values 40 and 61.
    let (value, interval) = CalibrationResult.percentileWithInterval((1...100).map { Int64($0) }, of: 100, percentile: 50)
    #expect(value == 50)
    #expect(interval.low == 40)
    #expect(interval.high == 61)
  }

  @Test func theMeanIsInfiniteWhenATrialMissedAndHasTheNormalIntervalOtherwise() {
    #expect(CalibrationResult.meanWithInterval([1, 2, 3], of: 4).value == .infinity)
    let (mean, interval) = CalibrationResult.meanWithInterval([10, 20, 30, 40], of: 4)
    #expect(mean == 25)
    // s = 12.91, s/√4 = 6.455, × 1.96 = 12.65
    #expect(abs(interval.low - 12.348) < 0.01 && abs(interval.high - 37.652) < 0.01)
  }

  @Test func aRowOutsideItsBandIsAccountedForOnlyWithADisagreement() throws {
    var entry = try #require(CalibrationCorpus.entry("apple-region-dwell"))
    let outside = CalibrationResult(entry: entry, value: 30_000, interval: (30_000, 30_000), trials: 0)
    #expect(!outside.agrees && !outside.isAccountedFor)
    entry.disagreement = "an assumption carries it"
    let explained = CalibrationResult(entry: entry, value: 30_000, interval: (30_000, 30_000), trials: 0)
    #expect(!explained.agrees && explained.isAccountedFor)
  }

  @Test func everyEntryHasAUniqueNameASourceLinkAndABandInOrder() {
    let ids = CalibrationCorpus.entries.map(\.id)
    #expect(Set(ids).count == ids.count)
    for entry in CalibrationCorpus.entries {
      #expect(entry.link.hasPrefix("http"), "\(entry.id)")
      #expect(!entry.parameters.isEmpty, "\(entry.id)")
      #expect(entry.band.low <= entry.band.high, "\(entry.id)")
    }
  }

  @Test func everyDocumentedConstantAgreesWithItsFigure() {
    for entry in CalibrationCorpus.entries {
      guard case .constant(_, let value) = entry.measure else { continue }
      #expect(entry.band.contains(value()) || entry.disagreement != nil, "\(entry.id): \(value())")
    }
  }

  @Test func theMarkdownRowSaysTheValueTheIntervalTheBandAndTheVerdict() throws {
    let entry = try #require(CalibrationCorpus.entry("apple-region-3-to-5-minutes"))
    let row = CalibrationTable.markdown(
      [CalibrationResult(entry: entry, value: 270_000, interval: (260_000, 280_000), trials: 300)], trials: 300, seed: 1)
    #expect(row.contains("| 4m30s (4m20s to 4m40s) | 3m to 5m | agrees |"))
    #expect(row.hasSuffix("Measured with `trigsim calibrate --trials 300 --seed 1`.\n"))
  }
}
