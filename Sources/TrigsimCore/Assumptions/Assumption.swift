/// A registry setting's name: the key a scenario writes under `platform:`
/// to state it (`powerOffCatchUp`), so that the setting is the scenario's
/// choice rather than trigsim's assumption.
public struct AssumptionID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  public var rawValue: String

  public init(rawValue: String) { self.rawValue = rawValue }
  public init(_ rawValue: String) { self.rawValue = rawValue }

  public var description: String { rawValue }
}

/// A setting whose default rests on no source, or on sources that disagree
/// (the manual, "Assumptions"). Its default is the reading under which
/// trigsim never reports a dose as reached that a real phone could have
/// lost, unless a documented source says otherwise.
///
/// A run marks an assumption *consulted* where its reading could change
/// what happens, and only when the scenario does not state the setting
/// (`RunSummary.consultedAssumptions`); the assumption report reruns the
/// scenario under each alternative of each consulted assumption.
public struct Assumption: Sendable {
  /// One reading of the setting: its YAML spelling and how it sets the platform rules.
  public struct Reading: Sendable {
    /// As a scenario writes it (`none`, `recent 15m`).
    public var yaml: String
    /// Sets the scenario's platform rules to this reading.
    public var apply: @Sendable (inout PlatformSettings) -> Void

    public init(_ yaml: String, apply: @escaping @Sendable (inout PlatformSettings) -> Void) {
      self.yaml = yaml
      self.apply = apply
    }
  }

  public var id: AssumptionID
  /// The question the setting answers, in one sentence.
  public var question: String
  /// The reading trigsim assumes when the scenario says nothing.
  public var defaultReading: Reading
  /// The other readings the sources allow, in the order the report tries them.
  public var alternatives: [Reading]
  /// The sources, by name (documentation, forum threads, issues).
  public var sources: [String]
  /// Why the default is the default.
  public var whyDefault: String

  public init(
    _ id: AssumptionID, question: String, defaultReading: Reading, alternatives: [Reading], sources: [String], whyDefault: String
  ) {
    self.id = id
    self.question = question
    self.defaultReading = defaultReading
    self.alternatives = alternatives
    self.sources = sources
    self.whyDefault = whyDefault
  }

  /// The scenario with this setting read as `reading`.
  public func applying(_ reading: Reading, to scenario: Scenario) -> Scenario {
    var scenario = scenario
    reading.apply(&scenario.platform)
    scenario.statedAssumptions.insert(id)
    return scenario
  }

  /// `powerOffCatchUp=none`.
  public func label(_ reading: Reading) -> String { "\(id)=\(reading.yaml)" }
}
