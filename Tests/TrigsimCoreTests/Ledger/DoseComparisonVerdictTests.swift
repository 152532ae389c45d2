import Foundation
import Testing
import TrigsimCore

/// A changed dose says whether the change is better or worse for the
/// patient (`DoseComparison.verdict(from:to:)`), and names its medicine by
/// name (with the identifier where two medicines share it).
@Suite struct DoseComparisonVerdictTests {
  typealias Dose = DoseBaseline.Dose

  static func dose(_ medicine: MedicineID = "2") -> Dose { DoseComparisonTests.dose(medicine, "13:00") }

  /// `dose` never notified: missed.
  static func missed(_ dose: Dose = dose()) -> Dose {
    var missed = dose
    missed.outcome = .missed
    missed.perceived = nil
    missed.kind = nil
    missed.how = nil
    missed.by = nil
    missed.role = nil
    missed.completed = nil
    return missed
  }

  static func perceived(at time: String, _ dose: Dose = dose()) -> Dose {
    var moved = dose
    moved.perceived = DoseComparisonTests.at(time)
    return moved
  }

  static func outcome(_ outcome: DoseOutcome, _ dose: Dose = dose()) -> Dose {
    var changed = dose
    changed.outcome = outcome
    if outcome != .completed { changed.completed = nil }
    return changed
  }

  /// Each direction of each rung of the order, named for what changes.
  static let cases: [(String, Dose, Dose, DoseComparison.Verdict)] = [
    ("notified → missed", dose(), missed(), .worse),
    ("missed → notified", missed(), dose(), .better),
    ("completed → unanswered", dose(), outcome(.unanswered), .worse),
    ("unanswered → completed", outcome(.unanswered), dose(), .better),
    ("dismissed → unanswered", outcome(.dismissed), outcome(.unanswered), .same),
    ("unanswered → missed", outcome(.unanswered), missed(), .worse),
    ("on time → 30 minutes late", dose(), perceived(at: "13:30"), .worse),
    ("30 minutes late → on time", perceived(at: "13:30"), dose(), .better),
    ("30 minutes late → 10 minutes early", perceived(at: "13:30"), perceived(at: "12:50"), .better),
    ("silent as expected → notified", outcome(.silent, missed()), outcome(.unanswered), .worse),
    ("notified → silent as expected", outcome(.unanswered), outcome(.silent, missed()), .better),
  ]

  @Test(arguments: cases)
  func theOrderOfOutcomes(_ name: String, old: Dose, new: Dose, verdict: DoseComparison.Verdict) {
    #expect(DoseComparison.verdict(from: old, to: new) == verdict, "\(name)")
  }

  @Test func atTheSameTimeAnAlertWithSoundBeatsASilentAlertWhichBeatsTheLockScreen() {
    var silent = Self.dose()
    silent.how = "banner+lock-screen"
    var lockScreen = Self.dose()
    lockScreen.kind = "after-focus"
    lockScreen.how = "lock-screen"
    #expect(DoseComparison.verdict(from: Self.dose(), to: silent) == .worse)
    #expect(DoseComparison.verdict(from: silent, to: lockScreen) == .worse)
    #expect(DoseComparison.verdict(from: lockScreen, to: Self.dose()) == .better)
  }

  @Test func aChangedDoseIsNamedByItsMedicinesNameAndSaysWhetherItIsWorse() {
    let comparison = DoseComparison(
      expected: DoseComparisonTests.table([Self.dose("2")]), actual: DoseComparisonTests.table([Self.missed(Self.dose("2"))]),
      medicineNames: ["2": "Levothyroxine", "3": "Metformin"])
    #expect(comparison.changes.map(\.verdict) == [.worse])
    #expect(comparison.changes[0].description.hasPrefix("Levothyroxine 2026-05-05 13:00 (worse for the patient): completed → missed;"))
    #expect(comparison.summaryLine == "1 of 1 dose changed (1 worse for the patient)")
  }

  @Test func twoMedicinesOfOneNameAreToldApartByTheirIdentifiers() {
    let comparison = DoseComparison(
      expected: DoseComparisonTests.table([Self.missed(Self.dose("2"))]), actual: DoseComparisonTests.table([Self.dose("2")]),
      medicineNames: ["2": "Levothyroxine", "3": "Levothyroxine"])
    #expect(comparison.changes[0].description.hasPrefix("Levothyroxine (2) 2026-05-05 13:00 (better for the patient): missed → completed;"))
    #expect(comparison.medicineLabel("3") == "Levothyroxine (3)")
    // A medicine the run does not name keeps its identifier.
    #expect(comparison.medicineLabel("9") == "9")
  }

  @Test func aChangeOnlyInTheRemarksHasNoVerdict() {
    var noted = Self.dose()
    noted.notes = ["a remark"]
    let comparison = DoseComparison(expected: DoseComparisonTests.table([Self.dose()]), actual: DoseComparisonTests.table([noted]))
    #expect(comparison.changes.map(\.verdict) == [nil])
    #expect(comparison.changes[0].description == "2 2026-05-05 13:00: remarks none → \"a remark\"")
  }

  @Test func aTimePerceivedInAnotherZoneThanTheDoseWasScheduledInCarriesItsOffset() {
    var abroad = Self.dose()
    // 13:30 in Copenhagen is 07:30 in New York.
    abroad.perceived = ZonedInstant(DoseComparisonTests.at("13:30").instant, utcOffsetSeconds: -4 * 3600)
    let comparison = DoseComparison(expected: DoseComparisonTests.table([Self.dose()]), actual: DoseComparisonTests.table([abroad]))
    #expect(comparison.changes[0].description == "2 2026-05-05 13:00 (worse for the patient): notified 13:00 alert → 07:30-04:00 alert")
  }
}
