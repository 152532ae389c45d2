import Foundation

/// The visit of a location reminder's region that opened a dose: which
/// region, the geometric visit (`visit=N` in the timeline), whether the dose
/// is for the entry or the exit, and how long the true path stayed inside.
public struct DoseVisit: Sendable, Equatable {
  public var region: RegionID
  public var number: Int
  public var entering: Bool
  /// From the visit's `enter` to its `exit`; nil while the path was still inside when the run ended.
  public var stay: SimulationDuration?

  public init(region: RegionID, number: Int, entering: Bool, stay: SimulationDuration? = nil) {
    self.region = region
    self.number = number
    self.entering = entering
    self.stay = stay
  }
}

/// Visits of a medicine's location reminder that should not notify: a
/// pass-through the team wants silent (`silentVisit:` under `assert:`). Such a
/// visit's dose is `silent`, not `missed`, when nothing notified it, and a
/// notification for it fails the assertion.
///
/// A visit is picked by its number, by when it began (its crossing in a
/// window), or by how long the true path stayed inside (shorter than
/// `staysUnder`; a visit still going on when the run ends is not picked).
public struct VisitExpectation: Sendable {
  public enum Selector: Sendable {
    case number(Int)
    case window(AssertionWindow)
    case staysUnder(SimulationDuration)
  }

  public var medicine: MedicineID
  public var selector: Selector
  public var origin: InputLocation?

  public init(medicine: MedicineID, selector: Selector, origin: InputLocation? = nil) {
    self.medicine = medicine
    self.selector = selector
    self.origin = origin
  }

  /// Whether a dose of `medicine` opened by `visit` at `scheduled` (its crossing, at `utcOffsetSeconds`) is one of these visits.
  public func matches(medicine: MedicineID, visit: DoseVisit, scheduled: SimulationInstant, utcOffsetSeconds: Int) -> Bool {
    guard medicine == self.medicine else { return false }
    switch selector {
    case .number(let number): return visit.number == number
    case .window(let window): return window.contains(scheduled, utcOffsetSeconds: utcOffsetSeconds)
    case .staysUnder(let limit): return visit.stay.map { $0 < limit } ?? false
    }
  }

  /// How the visits are picked, for a dose's remark: `visit 1`, `staying under 1m`, `beginning from 08:00 to 09:00 (every day, device time)`.
  public var selectorDescription: String {
    switch selector {
    case .number(let number): "visit \(number)"
    case .window(let window): "beginning \(window)"
    case .staysUnder(let limit): "staying under \(limit)"
    }
  }

  /// `visit 1 of medicine 'ins' is silent`, `visits of medicine 'ins' staying under 1m are silent`.
  public var description: String {
    switch selector {
    case .number(let number): "visit \(number) of medicine '\(medicine)' is silent"
    case .window(let window): "visits of medicine '\(medicine)' beginning \(window) are silent"
    case .staysUnder(let limit): "visits of medicine '\(medicine)' staying under \(limit) are silent"
    }
  }
}
