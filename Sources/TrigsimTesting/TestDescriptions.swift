import Testing
import TrigsimCore

// In a team's failed Swift Testing expectation, a dose, a timeline entry
// and a run summary are shown as the CLI prints them (their `description`:
// the dose table's row, the canonical timeline line, the summary text),
// not as Swift Testing's dump of their stored properties.

extension DoseRecord: CustomTestStringConvertible {
  /// The dose table's row (`description`).
  public var testDescription: String { description }
}

extension TimelineEntry: CustomTestStringConvertible {
  /// The entry's canonical timeline line (`description`).
  public var testDescription: String { description }
}

extension RunSummary: CustomTestStringConvertible {
  /// The summary text of `run --summary` (`description`).
  public var testDescription: String { description }
}
