import Testing
import TrigsimCore
import Yams

@testable import TrigsimScenario

/// The `android: work:` keys (`ScenarioReader.readAndroidWork`) and the
/// medicine app's `policy: android: refreshWork`: values as written, and each
/// bad value at its line and column.
@Suite struct AndroidWorkLoaderTests {
  static func read(_ yaml: String) -> (rules: AndroidWorkRules, diagnostics: [Diagnostic]) {
    let document = YAMLDocument(file: "s.yaml", text: yaml)
    let reader = ScenarioReader(document: document, baseDirectory: "/")
    guard let root = document.root() else { return (AndroidWorkRules(), document.diagnostics.diagnostics) }
    let rules = reader.readAndroidWork(root)
    return (rules, document.diagnostics.diagnostics)
  }

  static func located(_ diagnostics: [Diagnostic]) -> [String] {
    diagnostics.sorted { ($0.location.line, $0.location.column) < ($1.location.line, $1.location.column) }
      .map { "\($0.location.line):\($0.location.column) \($0.message)" }
  }

  @Test func everySettingIsReadAsWritten() {
    let (rules, diagnostics) = Self.read(
      """
      minPeriodicInterval: 30m
      minFlex: 10m
      jobWindow: 5m
      workingSetJobsEvery: 1h
      frequentJobsEvery: 4h
      rareJobsEvery: 12h
      restrictedJobsEvery: 2d
      batterySaverJobs: unrestricted
      """)
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    #expect(rules.minPeriodicInterval == .minutes(30) && rules.minFlex == .minutes(10))
    #expect(rules.workingSetJobs == JobWindowLimit(window: .minutes(5), every: .hours(1)))
    #expect(rules.frequentJobs == JobWindowLimit(window: .minutes(5), every: .hours(4)))
    #expect(rules.rareJobs == JobWindowLimit(window: .minutes(5), every: .hours(12)))
    #expect(rules.restrictedJobs == JobWindowLimit(window: .zero, every: .hours(48)))
    #expect(rules.batterySaverJobs == .unrestricted)
  }

  @Test func anEmptyMappingKeepsTheDefaults() {
    let (rules, diagnostics) = Self.read("{}\n")
    #expect(diagnostics.isEmpty)
    #expect(rules == AndroidWorkRules())
  }

  @Test func badValuesAreReportedAtTheirLineAndColumn() {
    let (_, diagnostics) = Self.read(
      """
      minFlex: 0s
      rareJobsEvery: 8d
      batterySaverJobs: sometimes
      jobsEvery: 1h
      """)
    let found = Self.located(diagnostics)
    #expect(found.count == 4, "\(found)")
    #expect(found.first?.hasPrefix("1:10 minFlex must be longer than zero") == true, "\(found)")
    #expect(found.dropFirst().first?.hasPrefix("2:16 rareJobsEvery must be longer than zero and at most 7 days, not 8d") == true, "\(found)")
    #expect(found.dropFirst(2).first?.hasPrefix("3:19 unknown") == true, "\(found)")
    #expect(found.last?.hasPrefix("4:1 unknown key 'jobsEvery'") == true, "\(found)")
  }

  @Test func refreshWorkIsOffByDefaultAndReadAsWritten() {
    #expect(AndroidAppPolicy().refreshWork == nil)
    let document = YAMLDocument(file: "s.yaml", text: "refreshWork: 1d\n")
    let reader = ScenarioReader(document: document, baseDirectory: "/")
    let policy = document.root().map(reader.readAndroidPolicy)
    #expect(document.diagnostics.diagnostics.isEmpty)
    #expect(policy?.refreshWork == .hours(24))
    #expect(policy?.summary.hasSuffix(" refresh-work=1d") == true)
  }

  @Test func refreshWorkShorterThanWorkManagersPeriodIsRefused() {
    let document = YAMLDocument(file: "s.yaml", text: "refreshWork: 5m\n")
    let reader = ScenarioReader(document: document, baseDirectory: "/")
    let policy = document.root().map(reader.readAndroidPolicy)
    #expect(policy?.refreshWork == nil)
    #expect(Self.located(document.diagnostics.diagnostics).first?.hasPrefix("1:14 refreshWork must be at least 15m") == true)
  }
}
