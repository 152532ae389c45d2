import Foundation
import TrigsimCore
import Yams

/// A scenario file: the scenario, and how to check its run.
public struct ScenarioFile {
  /// The path as given by the caller.
  public var path: String
  public var scenario: Scenario
  public var checks: ScenarioChecks
  /// The scenario's text as read.
  public var yaml: String = ""
  /// The files the scenario names that decide its run (track, regions and
  /// places files), in reading order: what `inputDigest()` covers besides the scenario's text.
  public var inputFiles: [Input] = []
  /// How the loader read values the file leaves open, as warnings at their
  /// `file:line:column`: an instant written without a UTC offset, read as
  /// local time in the device zone (`trigsim run` prints them to standard error).
  public var readings: [Diagnostic] = []

  /// A file a scenario names, with its role (`track`, `regions`, `places`).
  public struct Input: Sendable, Equatable {
    public var role: String
    public var path: String
  }
}

/// What a scenario says about checking its run (`expect:` and `assert:`).
public struct ScenarioChecks: Sendable {
  /// The expected timeline's path (relative paths resolved against the
  /// scenario's folder): named by `expect:`, else `<name>.timeline` beside the
  /// scenario. Nil with `expect: none` (assertions only).
  public var expectedTimelinePath: String?
  /// How the timeline is compared: tolerances and filters from `expect:`.
  public var comparison: ComparisonOptions
  /// The `assert:` list, in file order, without its probability forms.
  public var assertions: [RunAssertion]
  /// The `trials:` section: checked by `verify` and `test` over that many seeded trials.
  public var trials: TrialSettings?
  /// The assertions of `assert:` with a `probability`, checked against the trial report.
  public var probabilityAssertions: [ProbabilityAssertion]
  /// Where `robust: true` is stated, if it is: every assertion must hold
  /// under every alternative of each assumption the run consults (`AssumptionReport`).
  public var robust: InputLocation?

  public init(
    expectedTimelinePath: String?, comparison: ComparisonOptions = ComparisonOptions(), assertions: [RunAssertion] = [],
    trials: TrialSettings? = nil, probabilityAssertions: [ProbabilityAssertion] = []
  ) {
    self.expectedTimelinePath = expectedTimelinePath
    self.comparison = comparison
    self.assertions = assertions
    self.trials = trials
    self.probabilityAssertions = probabilityAssertions
  }
}

/// A scenario's `trials:` section: `{ count: 500, seed: 7, expect: NAME.trials }`.
public struct TrialSettings: Sendable {
  /// The seed when neither the command line nor the scenario names one.
  public static let defaultSeed: UInt64 = 1

  public var count: Int
  public var seed: UInt64
  /// The expected trial report: `expect:` in the section, else `<name>.trials` beside the scenario.
  public var expectedReportPath: String
  public var origin: InputLocation?

  public init(count: Int, seed: UInt64 = TrialSettings.defaultSeed, expectedReportPath: String, origin: InputLocation? = nil) {
    self.count = count
    self.seed = seed
    self.expectedReportPath = expectedReportPath
    self.origin = origin
  }
}

/// The `expect:` and `assert:` sections (see the manual, "Checking runs").
extension ScenarioReader {
  static let expectKeys = ["file", "tolerance", "ignoreFields", "ignoreKinds", "ignoreHeader"]
  static let assertionNames = [
    "count", "nothingFired", "dosesNotified", "noPendingLimitDrops", "pendingPeak", "chainsEnd", "order", "locationFired",
    "silentVisit", "nothingAudible", "dosesPerceptible", "noPushShownWhileOff", "badge", "badgeCountsDoses",
    "dosesReached", "noSendAfterAnswer", "noSendWhileChannelOff", "robust",
  ]

  func readChecks(_ top: MappingFields, defaultName: String) -> ScenarioChecks {
    let defaultExpected = resolve(defaultName + ".timeline")
    var checks = ScenarioChecks(expectedTimelinePath: defaultExpected)
    if let node = top["expect"] { readExpect(node, into: &checks) }
    if !expectedFileNamed {
      // Implied, not written: reported at the top of the scenario.
      let written = (defaultExpected as NSString).lastPathComponent
      if !allows(
        defaultExpected, written: written, what: "expected timeline", at: InputLocation(file: document.file, line: 1, column: 1),
        implied: "no 'expect:' names an expected timeline, so it is '\(written)' beside the scenario; name one inside the root, or write 'expect: none'")
      {
        checks.expectedTimelinePath = nil
      }
    }
    // The dose table beside the expected timeline is read and written as it is: under a root it must resolve inside it too.
    if let timeline = checks.expectedTimelinePath, !medicineIDs.isEmpty || !unreadMedicineIDs.isEmpty {
      let doses = ScenarioVerifier.dosesPath(forTimeline: timeline)
      let written = (doses as NSString).lastPathComponent
      let at = top["expect"].map { document.location($0) } ?? InputLocation(file: document.file, line: 1, column: 1)
      if !allows(doses, written: written, what: "expected dose table", at: at,
                 implied: "a scenario with medicines keeps its dose table '\(written)' beside its expected timeline")
      {
        checks.expectedTimelinePath = nil
      }
    }
    if let node = top["trials"] { checks.trials = readTrials(node, defaultName: defaultName) }
    if let node = top["assert"], let list = document.sequence(node, what: "'assert'") {
      for item in list {
        switch readAnyAssertion(item) {
        case .run(let assertion)?: checks.assertions.append(assertion)
        case .robust(let origin)?:
          if checks.robust != nil {
            document.error(item, "'robust' is stated twice", notes: ["state it once: it applies to every assertion"])
          }
          checks.robust = origin
        case .probability(let assertion)?:
          if top["trials"] == nil {
            document.error(item, "an assertion with 'probability' is checked over trials, and the scenario has no 'trials:' section",
                           notes: ["add 'trials: { count: 1000, seed: 1 }' (how many seeded trials 'verify' and 'test' run)"])
          }
          checks.probabilityAssertions.append(assertion)
        case nil: break
        }
      }
    }
    if let expectNode = top["expect"], expectsNothing, top["assert"] == nil {
      document.error(expectNode, "'expect: none' without 'assert:' checks nothing", notes: ["name an expected timeline, or add assertions under 'assert:'"])
    }
    return checks
  }

  private func resolve(_ file: String) -> String {
    file.hasPrefix("/") ? file : (baseDirectory as NSString).appendingPathComponent(file)
  }

  // MARK: - expect

  func readExpect(_ node: Node, into checks: inout ScenarioChecks) {
    if node.scalar != nil {
      guard let file = document.string(node, what: "'expect'") else { return }
      checks.expectedTimelinePath = expectedFile(file, at: node)
      return
    }
    guard let fields = document.mapping(node, what: "'expect'", keys: Self.expectKeys) else { return }
    if let fileNode = fields["file"], let file = document.string(fileNode, what: "expected timeline file") {
      checks.expectedTimelinePath = expectedFile(file, at: fileNode)
    }
    if let toleranceNode = fields["tolerance"] { readTolerance(toleranceNode, into: &checks.comparison.tolerance) }
    if let list = fields["ignoreFields"].flatMap({ document.sequence($0, what: "'ignoreFields'") }) {
      for item in list {
        guard let text = document.string(item, what: "a field name") else { continue }
        guard let filter = FieldFilter(parsing: text) else {
          document.error(item, "'\(Diagnostic.excerpt(text))' is not a field name", notes: ["write a field key such as 'title', or 'kind.key' such as 'fired.next' for one kind"])
          continue
        }
        checks.comparison.ignoredFields.append(filter)
      }
    }
    if let list = fields["ignoreKinds"].flatMap({ document.sequence($0, what: "'ignoreKinds'") }) {
      for item in list {
        if let kind = document.choice(item, what: "entry kind", TimelineEntry.Kind.allCases.map { ($0.rawValue, $0) }) {
          checks.comparison.ignoredKinds.insert(kind)
        }
      }
    }
    if let headerNode = fields["ignoreHeader"] {
      if headerNode.scalar != nil {
        if let all = document.bool(headerNode, what: "'ignoreHeader'") { checks.comparison.ignoresWholeHeader = all }
      } else if let list = document.sequence(headerNode, what: "'ignoreHeader'") {
        for item in list {
          if let key = document.string(item, what: "a header key") { checks.comparison.ignoredHeaderKeys.insert(key) }
        }
      }
    }
  }

  /// The expected file's path, or nil for `none`.
  private func expectedFile(_ file: String, at node: Node) -> String? {
    expectedFileNamed = true
    if file == "none" {
      expectsNothing = true
      return nil
    }
    if file.isEmpty {
      document.error(node, "the expected timeline file name is empty", notes: ["name a .timeline or .json file beside the scenario, or write 'none' to check assertions only"])
      return nil
    }
    let path = resolve(file)
    return allows(path, written: file, what: "expected timeline", at: document.location(node)) ? path : nil
  }

  /// `tolerance: 2s` (every entry) or `tolerance: { default: 0s, geofence: 500ms, enter: 1s, "fired medicine_1_*": 2s }`.
  func readTolerance(_ node: Node, into tolerance: inout TimeTolerance) {
    if node.scalar != nil {
      if let value = duration(node, what: "tolerance") { tolerance.global = value }
      return
    }
    guard let mapping = node.mapping else {
      document.error(node, "'tolerance' must be a duration or a mapping of selectors to durations", notes: ["e.g. 'tolerance: 2s' or 'tolerance: { geofence: 500ms }'"])
      return
    }
    for (keyNode, valueNode) in mapping {
      guard let key = document.string(keyNode, what: "a tolerance selector") else { continue }
      guard let value = duration(valueNode, what: "tolerance") else { continue }
      if key == "default" {
        tolerance.global = value
      } else if let selector = selector(key, at: keyNode, what: "tolerance selector") {
        tolerance.set(value, for: selector)
      }
    }
  }

  // MARK: - Selectors

  /// `KIND [PATTERN]`, `geofence [PATTERN]`, or a bare `PATTERN` meaning `fired PATTERN`.
  /// A pattern that matches nothing the scenario can produce is an error (likely a typo).
  func selector(_ text: String, at node: Node, what: String) -> EntrySelector? {
    let words = text.split(separator: " ", omittingEmptySubsequences: true)
    guard let selector = EntrySelector(parsing: text) else {
      var notes = ["write 'KIND PATTERN' such as 'fired medicine_1_*' or 'enter home', a kind alone, or a notification pattern alone (meaning 'fired PATTERN')"]
      if let word = words.first, let suggestion = NameSuggestion.closest(to: String(word), among: EntrySelector.scopeWords) {
        notes.insert("did you mean '\(suggestion)'?", at: 0)
      }
      document.error(node, "'\(Diagnostic.excerpt(text))' is not a \(what)", notes: notes)
      return nil
    }
    guard let pattern = selector.subject else { return selector }
    let candidates = subjects(for: selector.scope)
    guard let candidates else { return selector }
    if candidates.contains(where: { pattern.matches($0) }) { return selector }
    // A pattern that only an entry with its own error could match follows from that error: not reported.
    if unreadSubjects(for: selector.scope).contains(where: { pattern.matches($0) }) { return nil }
    if words.count == 1, let kind = NameSuggestion.closest(to: pattern.text, among: EntrySelector.scopeWords) {
      // A lone word close to a kind ('entr') is more likely a misspelt kind than a notification.
      document.error(node, "'\(Diagnostic.excerpt(text))' is neither an entry kind nor a notification in this scenario", notes: ["did you mean '\(kind)'?"])
      return nil
    }
    var notes = ["it would never match anything; check for a typo"]
    if let suggestion = NameSuggestion.closest(to: pattern.text, among: candidates) { notes.insert("did you mean '\(suggestion)'?", at: 0) }
    notes.append("'*' matches any run of characters, '?' one character")
    document.error(node, "pattern '\(Diagnostic.excerpt(pattern.text))' matches no \(subjectNoun(for: selector.scope)) in this scenario", notes: notes)
    return nil
  }

  /// The subjects that entries which could not be read (unread medicines and
  /// notifications) would have given entries of that scope.
  private func unreadSubjects(for scope: EntrySelector.Scope) -> [String] {
    switch scope {
    case .kind(.medicine): unreadMedicineIDs.map { "medicine_\($0)" }
    // The circle an unread medicine's location would have declared.
    case .kind(.enter), .kind(.exit), .kind(.detected), .kind(.undetected): unreadMedicineIDs.map { "medicine_\($0)_area" }
    case .geofence: unreadNotificationIDs + unreadMedicineIDs.map { "medicine_\($0)_area" }
    case .kind(.app), .kind(.gap), .kind(.timezone), .kind(.regions): []
    default: unreadNotificationIDs
    }
  }

  /// The subjects entries of that scope can have, or nil when they are not known from the scenario.
  private func subjects(for scope: EntrySelector.Scope) -> [String]? {
    // A Swift app's notification identifiers and callbacks are its own.
    if hostedApp {
      switch scope {
      case .geofence, .kind(.app), .kind(.warning), .kind(.scheduled), .kind(.replaced), .kind(.rescheduled), .kind(.fired), .kind(.removed),
        .kind(.dropped), .kind(.action), .kind(.cleared), .kind(.suppressed):
        return nil
      default: break
      }
    }
    let notifications = (Array(notificationIDs) + medicineNotificationIDs).sorted()
    switch scope {
    case .geofence: return (notifications + regionIDs).sorted()
    case .kind(.enter), .kind(.exit), .kind(.detected), .kind(.undetected): return regionIDs.sorted()
    case .kind(.medicine): return medicineIDs.map { "medicine_\($0)" }.sorted()
    case .kind(.app): return ["location", "location-accuracy", "permission", "state"]
    case .kind(.warning): return (notifications + regionIDs + ["phone"]).sorted()
    case .kind(.gap): return ["track"]
    case .kind(.timezone): return ([deviceZoneAtStart.identifier] + zoneChanges.map(\.timeZone.identifier)).sorted()
    case .kind(.scheduled), .kind(.replaced), .kind(.rescheduled), .kind(.fired), .kind(.removed), .kind(.dropped),
      .kind(.action), .kind(.cleared), .kind(.suppressed):
      return notifications
    // Attention-model entries: subjects include pushes and Focus names, not checked here.
    case .kind(.presented), .kind(.held), .kind(.looked), .kind(.focus), .kind(.power), .kind(.network), .kind(.settings), .kind(.preferences),
      .kind(.badge), .kind(.sent), .kind(.stored), .kind(.discarded), .kind(.received), .kind(.filtered):
      return nil
    // Alarm tags and work names are the app's own.
    case .kind(.alarm), .kind(.work): return nil
    // The reminder server's subjects are made from doses and devices as the run goes.
    case .kind(.server), .kind(.sms), .kind(.email), .kind(.inbox): return nil
    case .kind(.regions): return placeSetIDs.sorted()
    }
  }

  private func subjectNoun(for scope: EntrySelector.Scope) -> String {
    switch scope {
    case .geofence: "notification or region"
    case .kind(.enter), .kind(.exit), .kind(.detected), .kind(.undetected): "region"
    case .kind(.warning): "notification or region"
    case .kind(.medicine): "medicine (subjects are medicine_{id})"
    case .kind(.app): "app subject (state, permission, location or location-accuracy)"
    case .kind(.gap): "gap subject (track)"
    case .kind(.timezone): "time zone"
    default: "notification"
    }
  }

  // MARK: - trials

  static let trialKeys = ["count", "seed", "expect"]

  /// `trials: { count: 1000, seed: 7, expect: NAME.trials }`.
  func readTrials(_ node: Node, defaultName: String) -> TrialSettings? {
    guard let fields = document.mapping(node, what: "'trials'", keys: Self.trialKeys) else { return nil }
    guard let countNode = fields["count"] else {
      document.error(node, "'trials' needs 'count'", notes: ["how many seeded trials 'verify' and 'test' run, e.g. 'count: 1000'"])
      return nil
    }
    // Every value is checked, so one run reports every problem.
    let count = document.integer(countNode, what: "'count'", range: 1...ScenarioLimitCeiling.largestTrialCount).flatMap {
      withinCeiling($0, limitCeiling.trialCount, at: countNode, setting: "trials.count", option: "--max-trials") ? $0 : nil
    }
    var seed: UInt64? = TrialSettings.defaultSeed
    if let seedNode = fields["seed"] {
      seed = document.string(seedNode, what: "'seed'").flatMap { text in
        guard let value = UInt64(text) else {
          document.error(seedNode, "'seed' must be a whole number from 0 to 18446744073709551615", notes: ["any seed will do; the same seed gives the same report"])
          return nil
        }
        return value
      }
    }
    var path: String?
    if let expectNode = fields["expect"] {
      path = document.string(expectNode, what: "expected trial report").flatMap { file in
        guard !file.isEmpty, file != "none" else {
          document.error(expectNode, "the expected trial report needs a file name", notes: ["name a .trials file beside the scenario, or leave 'expect' out for '\(defaultName).trials'"])
          return nil
        }
        let path = resolve(file)
        return allows(path, written: file, what: "expected trial report", at: document.location(expectNode)) ? path : nil
      }
    } else {
      let implied = resolve(defaultName + ".trials")
      let written = defaultName + ".trials"
      path = allows(
        implied, written: written, what: "expected trial report", at: document.location(node),
        implied: "'trials' names no expected report, so it is '\(written)' beside the scenario; name one inside the root with 'expect:'") ? implied : nil
    }
    guard let count, let seed, let path else { return nil }
    return TrialSettings(count: count, seed: seed, expectedReportPath: path, origin: document.location(node))
  }

  // MARK: - assert

  /// An assertion of a single run, or the probability form checked over trials.
  enum AnyAssertion {
    case run(RunAssertion)
    case probability(ProbabilityAssertion)
    /// `robust: true`, where it is stated.
    case robust(InputLocation)
  }

  /// `probability: 0.95` (at least) or `probability: { atLeast: 0.9, atMost: 1 }`.
  func readProbabilityBound(_ node: Node) -> ProbabilityBound? {
    func probability(_ node: Node, what: String) -> Double? {
      guard let value = document.double(node, what: what) else { return nil }
      guard (0...1).contains(value) else {
        document.error(node, "\(what) must be between 0 and 1", notes: ["write a probability such as 0.95, not a percentage"])
        return nil
      }
      return value
    }
    if node.scalar != nil { return probability(node, what: "'probability'").map { ProbabilityBound(atLeast: $0) } }
    guard let fields = document.mapping(node, what: "'probability'", keys: ["atLeast", "atMost"]) else { return nil }
    if fields["atLeast"] == nil && fields["atMost"] == nil {
      document.error(node, "'probability' needs 'atLeast' or 'atMost'", notes: ["e.g. 'probability: { atMost: 0.05 }', or 'probability: 0.95' for at least 0.95"])
      return nil
    }
    var bound = ProbabilityBound()
    if let low = fields["atLeast"] { guard let value = probability(low, what: "'atLeast'") else { return nil }; bound.atLeast = value }
    if let high = fields["atMost"] { guard let value = probability(high, what: "'atMost'") else { return nil }; bound.atMost = value }
    if let low = bound.atLeast, let high = bound.atMost, low > high {
      document.error(fields.keyNodes["atMost"]!, "'atMost' \(high) is below 'atLeast' \(low)")
      return nil
    }
    return bound
  }

  /// One item of `assert:`: a property of a single run, or its probability
  /// form (a `probability` bound), checked over the scenario's trials.
  func readAnyAssertion(_ item: Node) -> AnyAssertion? {
    guard let mapping = item.mapping, mapping.count == 1, let (keyNode, value) = mapping.first,
      let name = keyNode.scalar?.string
    else {
      document.error(item, "an assertion is one 'name: parameters' pair", notes: ["assertions: \(Self.assertionNames.joined(separator: ", "))"])
      return nil
    }
    guard Self.assertionNames.contains(name) else {
      var notes: [String] = []
      if let suggestion = NameSuggestion.closest(to: name, among: Self.assertionNames) { notes.append("did you mean '\(suggestion)'?") }
      notes.append("assertions: \(Self.assertionNames.joined(separator: ", "))")
      document.error(keyNode, "unknown assertion '\(Diagnostic.excerpt(name))'", notes: notes)
      return nil
    }
    let origin = document.location(item)
    switch name {
    case "robust":
      guard let required = document.bool(value, what: "'robust'") else { return nil }
      return required ? .robust(origin) : nil
    case "count":
      guard let fields = document.mapping(value, what: "'count'", keys: ["fired", "entries", "from", "to", "equals", "atLeast", "atMost"]) else { return nil }
      let selector: EntrySelector?
      switch (fields["fired"], fields["entries"]) {
      case (let node?, nil):
        selector = document.string(node, what: "'fired'").flatMap { self.selector("fired " + $0, at: node, what: "notification pattern") }
      case (nil, let node?):
        selector = document.string(node, what: "'entries'").flatMap { self.selector($0, at: node, what: "selector") }
      case (_?, _?):
        document.error(value, "'count' takes 'fired' or 'entries', not both")
        return nil
      case (nil, nil):
        document.error(value, "'count' needs 'fired: PATTERN' or 'entries: \"KIND PATTERN\"'")
        return nil
      }
      let window = readWindow(fields, in: value, required: false)
      let range = readCount(fields, in: value)
      guard let selector, let range, !window.isInvalid else { return nil }
      return .run(RunAssertion(.count(selector, window: window.value, range: range), origin: origin))

    case "nothingFired":
      guard let fields = document.mapping(value, what: "'nothingFired'", keys: ["from", "to", "inside", "matching"]) else { return nil }
      var selector = EntrySelector(.kind(.fired))
      if let node = fields["matching"] {
        guard let text = document.string(node, what: "'matching'"), let picked = self.selector("fired " + text, at: node, what: "notification pattern") else { return nil }
        selector = picked
      }
      if let insideNode = fields["inside"] {
        if fields["from"] != nil || fields["to"] != nil {
          document.error(value, "'nothingFired' takes a window ('from', 'to') or a region ('inside'), not both", notes: ["state them as two assertions"])
          return nil
        }
        guard let region = document.string(insideNode, what: "'inside'") else { return nil }
        guard regionIDs.contains(region) else {
          if unreadSubjects(for: .kind(.enter)).contains(region) { return nil }  // an unread medicine's circle: follows from its error
          var notes: [String] = []
          if let suggestion = NameSuggestion.closest(to: region, among: regionIDs) { notes.append("did you mean '\(suggestion)'?") }
          notes.append(regionIDs.isEmpty ? "the scenario declares no regions" : "declared regions: \(YAMLDocument.nameList(regionIDs))")
          document.error(insideNode, "unknown region '\(Diagnostic.excerpt(region))'", notes: notes)
          return nil
        }
        return .run(RunAssertion(.nothingFiredInside(selector, region: RegionID(region)), origin: origin))
      }
      let window = readWindow(fields, in: value, required: true)
      guard case .window(let found) = window else { return nil }
      return .run(RunAssertion(.nothingFired(selector, window: found), origin: origin))

    case "dosesNotified":
      guard let fields = document.mapping(value, what: "'dosesNotified'", keys: ["within", "medicine", "probability"]) else { return nil }
      guard let withinNode = fields["within"] else {
        document.error(value, "'dosesNotified' needs 'within'", notes: ["how late a dose may be notified, e.g. 'within: 5m' (0s for on time)"])
        return nil
      }
      guard let within = duration(withinNode, what: "'within'") else { return nil }
      let medicine = fields["medicine"].map { readMedicineReference($0) }
      if medicine == .some(nil) { return nil }
      if medicineIDs.isEmpty && unreadMedicineIDs.isEmpty {
        document.error(keyNode, "'dosesNotified' needs medicines", notes: ["doses come from the medicines under 'medicines:'"])
        return nil
      }
      guard let boundNode = fields["probability"] else {
        return .run(RunAssertion(.dosesNotified(within: within, medicine: medicine.flatMap { $0 }), origin: origin))
      }
      guard let bound = readProbabilityBound(boundNode) else { return nil }
      return .probability(ProbabilityAssertion(.dosesNotified(within: within, medicine: medicine.flatMap { $0 }, bound: bound), origin: origin))

    case "silentVisit":
      let selectorKeys = ["visit", "from", "staysUnder"]
      guard let fields = document.mapping(value, what: "'silentVisit'", keys: ["medicine", "visit", "from", "to", "staysUnder", "probability"]) else {
        return nil
      }
      guard let medicineNode = fields["medicine"] else {
        document.error(value, "'silentVisit' needs 'medicine'", notes: ["the medicine whose location reminder should stay silent, e.g. 'medicine: ins'"])
        return nil
      }
      guard let medicine = readMedicineReference(medicineNode) else { return nil }
      guard locationMedicineIDs.contains(medicine.rawValue) else {
        document.error(medicineNode, "medicine '\(medicine)' has no location reminder", notes: ["'silentVisit' picks visits of a medicine's 'location:' region"])
        return nil
      }
      if let toNode = fields["to"], fields["from"] == nil {
        document.error(toNode, "'to' goes with 'from': a window needs both", notes: ["e.g. 'from: \"08:00\", to: \"09:00\"'"])
        return nil
      }
      let given = selectorKeys.filter { fields[$0] != nil }
      guard given.count == 1 else {
        document.error(
          given.count > 1 ? fields[given[1]]! : value,
          given.isEmpty ? "'silentVisit' needs which visits" : "'silentVisit' picks visits one way, not by '\(given[0])' and '\(given[1])'",
          notes: ["by number ('visit: 1'), by when they begin ('from', 'to'), or by a short stay ('staysUnder: 1m')"])
        return nil
      }
      let selector: VisitExpectation.Selector
      if let node = fields["visit"] {
        guard let number = document.integer(node, what: "'visit'", range: 1...1_000_000_000) else { return nil }
        selector = .number(number)
      } else if let node = fields["staysUnder"] {
        guard let limit = duration(node, what: "'staysUnder'") else { return nil }
        guard limit > .zero else {
          document.error(node, "'staysUnder' must be longer than 0s", notes: ["no visit is shorter than nothing"])
          return nil
        }
        selector = .staysUnder(limit)
      } else {
        guard let window = readWindow(fields, in: value, required: true).value else { return nil }
        selector = .window(window)
      }
      let expectation = VisitExpectation(medicine: medicine, selector: selector, origin: origin)
      let index = visitExpectations.count
      visitExpectations.append(expectation)
      guard let boundNode = fields["probability"] else { return .run(RunAssertion(.silentVisit(expectation, index: index), origin: origin)) }
      guard let bound = readProbabilityBound(boundNode) else { return nil }
      return .probability(ProbabilityAssertion(.silentVisit(expectation, index: index, bound: bound), origin: origin))

    case "locationFired":
      guard let fields = document.mapping(value, what: "'locationFired'", keys: ["request", "within", "probability"]) else { return nil }
      guard let boundNode = fields["probability"] else {
        document.error(value, "'locationFired' needs 'probability'", notes: ["it is checked over trials: e.g. 'probability: 0.9', or '{ atMost: 0.05 }' for a pass that should not fire"])
        return nil
      }
      var pattern: IdentifierPattern?
      if let node = fields["request"] {
        guard let text = document.string(node, what: "'request'") else { return nil }
        let candidates = locationRequestIDs.sorted()
        let picked = IdentifierPattern(text)
        guard hostedApp || candidates.contains(where: { picked.matches($0) }) else {
          if unreadNotificationIDs.contains(where: { picked.matches($0) }) { return nil }  // follows from that entry's error
          var notes: [String] = []
          if let suggestion = NameSuggestion.closest(to: text, among: candidates) { notes.append("did you mean '\(suggestion)'?") }
          notes.append(candidates.isEmpty ? "the scenario has no location requests" : "location requests: \(YAMLDocument.nameList(candidates))")
          document.error(node, "pattern '\(Diagnostic.excerpt(text))' matches no location request in this scenario", notes: notes)
          return nil
        }
        pattern = picked
      } else if locationRequestIDs.isEmpty && unreadNotificationIDs.isEmpty && !hostedApp {
        document.error(keyNode, "'locationFired' needs location requests", notes: ["add a notification with a 'region' trigger, or a medicine with a 'location' reminder"])
        return nil
      }
      let within = fields["within"].map { duration($0, what: "'within'") }
      if within == .some(nil) { return nil }
      guard let bound = readProbabilityBound(boundNode) else { return nil }
      return .probability(ProbabilityAssertion(.locationFired(request: pattern, within: within.flatMap { $0 }, bound: bound), origin: origin))

    case "noPendingLimitDrops":
      guard document.bool(value, what: "'noPendingLimitDrops'") == true else {
        if value.scalar?.string == "false" || value.scalar?.string == "no" {
          document.error(value, "'noPendingLimitDrops: false' checks nothing", notes: ["remove the assertion, or write 'true'"])
        }
        return nil
      }
      return .run(RunAssertion(.noPendingLimitDrops, origin: origin))

    case "pendingPeak":
      guard let fields = document.mapping(value, what: "'pendingPeak'", keys: ["atMost"]) else { return nil }
      guard let node = fields["atMost"] else {
        document.error(value, "'pendingPeak' needs 'atMost'", notes: ["e.g. 'pendingPeak: { atMost: 60 }'"])
        return nil
      }
      guard let limit = document.integer(node, what: "'atMost'", range: 0...1_000_000) else { return nil }
      // The pending count never exceeds the platform's limit: the platform drops requests instead.
      guard limit < pendingLimit else {
        document.error(node, "'pendingPeak: { atMost: \(limit) }' can never fail: the platform keeps at most \(pendingLimit) requests pending and drops the rest", notes: [
          "to check that nothing is lost to the limit, assert 'noPendingLimitDrops: true'; to keep headroom, give a number below \(pendingLimit)",
        ])
        return nil
      }
      return .run(RunAssertion(.pendingPeak(atMost: limit), origin: origin))

    case "chainsEnd":
      if medicineIDs.isEmpty && unreadMedicineIDs.isEmpty {
        document.error(keyNode, "'chainsEnd' needs medicines", notes: ["follow-up chains come from the medicines under 'medicines:'"])
        return nil
      }
      if value.scalar != nil {
        guard document.bool(value, what: "'chainsEnd'") == true else { return nil }
        return .run(RunAssertion(.chainsEnd(medicine: nil, maxFollowUps: nil), origin: origin))
      }
      guard let fields = document.mapping(value, what: "'chainsEnd'", keys: ["medicine", "maxFollowUps"]) else { return nil }
      let medicine = fields["medicine"].map { readMedicineReference($0) }
      if medicine == .some(nil) { return nil }
      var maxFollowUps: Int?
      if let node = fields["maxFollowUps"] {
        guard let value = document.integer(node, what: "'maxFollowUps'", range: 0...10_000) else { return nil }
        maxFollowUps = value
      }
      return .run(RunAssertion(.chainsEnd(medicine: medicine.flatMap { $0 }, maxFollowUps: maxFollowUps), origin: origin))

    case "nothingAudible":
      guard let fields = document.mapping(value, what: "'nothingAudible'", keys: ["from", "to", "subject"]) else { return nil }
      var pattern: IdentifierPattern?
      if let node = fields["subject"] {
        guard let text = document.string(node, what: "'subject'"), let picked = audibleSubject(text, at: node) else { return nil }
        pattern = picked
      }
      let window = readWindow(fields, in: value, required: true)
      guard case .window(let found) = window else { return nil }
      return .run(RunAssertion(.nothingAudible(pattern, window: found), origin: origin))

    case "dosesPerceptible":
      guard let fields = document.mapping(value, what: "'dosesPerceptible'", keys: ["within", "medicine"]) else { return nil }
      guard let withinNode = fields["within"] else {
        document.error(value, "'dosesPerceptible' needs 'within'", notes: ["how late a dose may be perceived, e.g. 'within: 10m' (0s for on time)"])
        return nil
      }
      guard let within = duration(withinNode, what: "'within'") else { return nil }
      let medicine = fields["medicine"].map { readMedicineReference($0) }
      if medicine == .some(nil) { return nil }
      if medicineIDs.isEmpty && unreadMedicineIDs.isEmpty {
        document.error(keyNode, "'dosesPerceptible' needs medicines", notes: ["doses come from the medicines under 'medicines:'"])
        return nil
      }
      return .run(RunAssertion(.dosesPerceptible(within: within, medicine: medicine.flatMap { $0 }), origin: origin))

    case "dosesReached":
      return readDosesReached(value, keyNode: keyNode, origin: origin).map { .run($0) }
    case "noSendAfterAnswer", "noSendWhileChannelOff":
      return readChannelAssertion(name, value, keyNode: keyNode, origin: origin).map { .run($0) }
    case "noPushShownWhileOff":
      var type: String?
      if value.scalar != nil {
        guard document.bool(value, what: "'noPushShownWhileOff'") == true else {
          if value.scalar?.string == "false" || value.scalar?.string == "no" {
            document.error(value, "'noPushShownWhileOff: false' checks nothing", notes: ["remove the assertion, or write 'true' (any type) or '{ type: TYPE }'"])
          }
          return nil
        }
      } else {
        guard let fields = document.mapping(value, what: "'noPushShownWhileOff'", keys: ["type"]) else { return nil }
        guard let node = fields["type"] else {
          document.error(value, "'noPushShownWhileOff' needs 'type'", notes: ["e.g. 'noPushShownWhileOff: { type: new_comment }', or 'noPushShownWhileOff: true' for any type"])
          return nil
        }
        guard let text = document.string(node, what: "'type'") else { return nil }
        guard pushTypes.contains(text) else {
          var notes: [String] = []
          if let suggestion = NameSuggestion.closest(to: text, among: pushTypes) { notes.append("did you mean '\(suggestion)'?") }
          notes.append(pushTypes.isEmpty ? "no push under 'pushes: send:' has a 'type'" : "push types: \(YAMLDocument.nameList(pushTypes))")
          document.error(node, "unknown push type '\(Diagnostic.excerpt(text))'", notes: notes)
          return nil
        }
        type = text
      }
      if pushIDs.isEmpty {
        document.error(keyNode, "'noPushShownWhileOff' needs pushes", notes: ["it checks the pushes under 'pushes: send:'"])
        return nil
      }
      return .run(RunAssertion(.noPushShownWhileTypeOff(type: type), origin: origin))

    case "badge":
      guard let fields = document.mapping(value, what: "'badge'", keys: ["at", "equals"]) else { return nil }
      guard let atNode = fields["at"], let equalsNode = fields["equals"] else {
        document.error(value, "'badge' needs 'at' and 'equals'", notes: ["e.g. 'badge: { at: 2026-03-28T09:00:00, equals: 2 }'"])
        return nil
      }
      let at = instantDuringRun(atNode, what: "'at'")
      let equals = badgeNumber(equalsNode, what: "'equals'")
      guard let at, let equals, let label = atNode.scalar?.string else { return nil }
      return .run(RunAssertion(.badgeEquals(at: at, label: label, value: equals), origin: origin))

    case "badgeCountsDoses":
      guard document.bool(value, what: "'badgeCountsDoses'") == true else {
        if value.scalar?.string == "false" || value.scalar?.string == "no" {
          document.error(value, "'badgeCountsDoses: false' checks nothing", notes: ["remove the assertion, or write 'true'"])
        }
        return nil
      }
      if medicineIDs.isEmpty && unreadMedicineIDs.isEmpty {
        document.error(keyNode, "'badgeCountsDoses' needs medicines", notes: ["doses come from the medicines under 'medicines:'"])
        return nil
      }
      return .run(RunAssertion(.badgeCountsDoses, origin: origin))

    default:  // order
      guard let fields = document.mapping(value, what: "'order'", keys: ["first", "then"]) else { return nil }
      guard let firstNode = fields["first"], let thenNode = fields["then"] else {
        document.error(value, "'order' needs 'first' and 'then'", notes: ["e.g. 'order: { first: medicine_1_reminder_0, then: \"enter pharmacy\" }'"])
        return nil
      }
      let first = document.string(firstNode, what: "'first'").flatMap { selector($0, at: firstNode, what: "selector") }
      let then = document.string(thenNode, what: "'then'").flatMap { selector($0, at: thenNode, what: "selector") }
      guard let first, let then else { return nil }
      if first == then {
        document.error(thenNode, "'first' and 'then' pick the same entries, so the order can never hold", notes: ["name two different entries"])
        return nil
      }
      return .run(RunAssertion(.order(first: first, then: then), origin: origin))
    }
  }

  /// The `subject` of `nothingAudible`: a pattern over the notifications
  /// and pushes the scenario can produce; one that matches none is an error.
  private func audibleSubject(_ text: String, at node: Node) -> IdentifierPattern? {
    let pattern = IdentifierPattern(text)
    let candidates = (Array(notificationIDs) + medicineNotificationIDs + pushIDs).sorted()
    if hostedApp || candidates.contains(where: { pattern.matches($0) }) { return pattern }
    if unreadNotificationIDs.contains(where: { pattern.matches($0) }) { return nil }  // follows from that entry's error
    var notes = ["it would never match anything; check for a typo"]
    if let suggestion = NameSuggestion.closest(to: text, among: candidates) { notes.insert("did you mean '\(suggestion)'?", at: 0) }
    notes.append("'*' matches any run of characters, '?' one character")
    document.error(node, "pattern '\(Diagnostic.excerpt(text))' matches no notification or push in this scenario", notes: notes)
    return nil
  }

  /// A declared medicine's id; `.some(nil)` after reporting an unknown one.
  func readMedicineReference(_ node: Node) -> MedicineID? {
    guard let text = document.string(node, what: "medicine") else { return nil }
    guard medicineIDs.contains(text) else {
      if unreadMedicineIDs.contains(text) { return nil }  // declared, with its own error already reported
      var notes: [String] = []
      if let suggestion = NameSuggestion.closest(to: text, among: medicineIDs) { notes.append("did you mean '\(suggestion)'?") }
      notes.append(medicineIDs.isEmpty ? "declare medicines under 'medicines:'" : "declared medicines: \(YAMLDocument.nameList(medicineIDs))")
      document.error(node, "unknown medicine '\(Diagnostic.excerpt(text))'", notes: notes)
      return nil
    }
    return MedicineID(text)
  }

  /// A window read from `from`/`to`: none given, given but wrong (reported), or read.
  enum WindowReading {
    case absent, invalid
    case window(AssertionWindow)

    var value: AssertionWindow? { if case .window(let window) = self { window } else { nil } }
    var isInvalid: Bool { if case .invalid = self { true } else { false } }
  }

  /// `from`/`to` as two local times of day (`22:00`, every day) or two instants (one span).
  func readWindow(_ fields: MappingFields, in node: Node, required: Bool) -> WindowReading {
    switch (fields["from"], fields["to"]) {
    case (nil, nil):
      if required {
        document.error(node, "a window needs 'from' and 'to'", notes: ["two times of day ('22:00' to '07:00', every day) or two instants (2026-03-28T22:00:00 to 2026-03-29T07:00:00)"])
        return .invalid
      }
      return .absent
    case (let fromNode?, let toNode?):
      guard let fromText = document.string(fromNode, what: "'from'"), let toText = document.string(toNode, what: "'to'") else { return .invalid }
      let fromTime = Self.timeOfDay(fromText)
      let toTime = Self.timeOfDay(toText)
      if let fromTime, let toTime {
        if fromTime == toTime {
          document.error(toNode, "the window from \(fromTime) to \(toTime) is empty", notes: ["'from' is inclusive and 'to' exclusive; a window that ends earlier than it starts spans midnight"])
          return .invalid
        }
        return .window(.daily(from: fromTime, to: toTime))
      }
      for (text, node) in [(fromText, fromNode), (toText, toNode)] where Self.timeOfDay(text) == nil && !text.contains("T") && text.contains(":") {
        document.error(node, "'\(Diagnostic.excerpt(text))' is not a time of day", notes: ["write HH:MM with two digits each, 00:00 to 23:59, e.g. 06:00"])
        return .invalid
      }
      if fromTime != nil || toTime != nil {
        document.error(fromTime == nil ? fromNode : toNode, "'from' and 'to' must both be times of day or both be instants")
        return .invalid
      }
      guard let from = instant(fromNode, what: "'from'"), let to = instant(toNode, what: "'to'") else { return .invalid }
      guard from < to else {
        document.error(toNode, "the window ends at or before its start", notes: ["'from' is inclusive and 'to' exclusive"])
        return .invalid
      }
      if let start = clockStart, let end = clockEnd, to <= start || from > end {
        document.error(fromNode, "the window from \(fromText) to \(toText) lies outside the clock (\(InstantFormatter.utc.string(for: start)) to \(InstantFormatter.utc.string(for: end))): nothing can happen in it, so the assertion can never fail", notes: [
          "move the window into the clock, or the clock over the window",
        ])
        return .invalid
      }
      return .window(.between(from: from, to: to, label: "from \(fromText) to \(toText)"))
    default:
      document.error(node, "a window needs both 'from' and 'to'")
      return .invalid
    }
  }

  /// `HH:MM`, 00:00 to 23:59.
  static func timeOfDay(_ text: String) -> DailyTime? {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
      let hour = Int(parts[0]), let minute = Int(parts[1]), (0...23).contains(hour), (0...59).contains(minute)
    else { return nil }
    return DailyTime(hour: hour, minute: minute)
  }

  /// `equals`, or `atLeast` and/or `atMost`.
  func readCount(_ fields: MappingFields, in node: Node) -> CountRange? {
    func number(_ key: String) -> Int?? {
      guard let node = fields[key] else { return .some(nil) }
      guard let value = document.integer(node, what: "'\(Diagnostic.excerpt(key))'", range: 0...10_000_000) else { return nil }
      return .some(value)
    }
    guard let equals = number("equals"), let atLeast = number("atLeast"), let atMost = number("atMost") else { return nil }
    if let equals {
      if atLeast != nil || atMost != nil {
        document.error(fields.keyNodes["equals"]!, "'equals' cannot be combined with 'atLeast' or 'atMost'")
        return nil
      }
      return .exactly(equals)
    }
    if atLeast == nil && atMost == nil {
      document.error(node, "'count' needs 'equals', 'atLeast' or 'atMost'")
      return nil
    }
    if atLeast == 0 && atMost == nil {
      document.error(fields.keyNodes["atLeast"]!, "'atLeast: 0' alone accepts every count, so the assertion can never fail", notes: [
        "give a bound that can fail, e.g. 'atLeast: 1' or 'atMost: 0'",
      ])
      return nil
    }
    if let atLeast, let atMost, atLeast > atMost {
      document.error(fields.keyNodes["atMost"]!, "'atMost' \(atMost) is below 'atLeast' \(atLeast)")
      return nil
    }
    return CountRange(atLeast: atLeast, atMost: atMost)
  }
}
