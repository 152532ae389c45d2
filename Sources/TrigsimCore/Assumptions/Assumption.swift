/// A registry setting's name: the key a scenario writes to state it, in the
/// mapping the entry's `Assumption.place` names (`powerOffCatchUp` under
/// `platform:`, `storedCollapseKeysKept` under `platform: android: fcm:`),
/// dotted when it sits deeper (`sms.latency` under `server:`), so that the
/// setting is the scenario's choice rather than trigsim's assumption.
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
  /// One reading of the setting: its YAML spelling and how it sets the scenario's rules.
  public struct Reading: Sendable {
    /// As a scenario writes it (`none`, `recent 15m`).
    public var yaml: String
    /// Sets the scenario's rules to this reading: the iPhone's platform rules,
    /// the Android rules (through `Scenario.updateAndroidRules(_:)`, so a
    /// scenario run on both phones reads it on Android), or the server's.
    public var apply: @Sendable (inout Scenario) -> Void

    public init(_ yaml: String, apply: @escaping @Sendable (inout Scenario) -> Void) {
      self.yaml = yaml
      self.apply = apply
    }

    /// A reading of an iPhone or shared platform rule (`PlatformSettings`).
    public static func platform(_ yaml: String, _ apply: @escaping @Sendable (inout PlatformSettings) -> Void) -> Reading {
      Reading(yaml) { apply(&$0.platform) }
    }

    /// A reading of an Android rule (`AndroidSettings`).
    public static func android(_ yaml: String, _ apply: @escaping @Sendable (inout AndroidSettings) -> Void) -> Reading {
      Reading(yaml) { $0.updateAndroidRules(apply) }
    }

    /// A reading of a server rule (`ServerSettings`).
    public static func server(_ yaml: String, _ apply: @escaping @Sendable (inout ServerSettings) -> Void) -> Reading {
      Reading(yaml) { apply(&$0.server) }
    }
  }

  /// Where a scenario states the setting: the YAML mappings, outermost
  /// first, in which the setting's (dotted) id is the key (`["platform"]`,
  /// `["platform", "android", "fcm"]`, `["server"]`).
  public var place: [String]

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

  /// - Parameters:
  ///   - id: the setting's key.
  ///   - place: the mappings the key sits in (`platform:` unless given).
  ///   - question: the question the setting answers.
  ///   - defaultReading: the reading trigsim assumes.
  ///   - alternatives: the other readings the sources allow.
  ///   - sources: the sources, by name.
  ///   - whyDefault: why the default is the default.
  public init(
    _ id: AssumptionID, place: [String] = ["platform"], question: String, defaultReading: Reading, alternatives: [Reading], sources: [String],
    whyDefault: String
  ) {
    self.id = id
    self.place = place
    self.question = question
    self.defaultReading = defaultReading
    self.alternatives = alternatives
    self.sources = sources
    self.whyDefault = whyDefault
  }

  /// The scenario with this setting read as `reading`.
  public func applying(_ reading: Reading, to scenario: Scenario) -> Scenario {
    var scenario = scenario
    reading.apply(&scenario)
    scenario.statedAssumptions.insert(id)
    return scenario
  }

  /// `platform.android.fcm.storedCollapseKeysKept`, `server.sms.latency`: where a scenario writes it.
  public var key: String { (place + [id.rawValue]).joined(separator: ".") }

  /// `powerOffCatchUp=none`.
  public func label(_ reading: Reading) -> String { "\(id)=\(reading.yaml)" }
}
