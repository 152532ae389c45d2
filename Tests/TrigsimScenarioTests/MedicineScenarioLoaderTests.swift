import Foundation
import Testing
import TrigsimCore
import TrigsimTestSupport

@testable import TrigsimScenario

/// The medicine-app sections of a scenario (`medicines`, `app`, `category`,
/// `actions`, `respond`, `platform.terminatedActions`): what a valid file
/// loads as, and every bad value reported at the line and column to change.
@Suite struct MedicineScenarioLoaderTests: LoaderDiagnosticAssertions {
  /// 2026-03-28 is the day before Copenhagen's spring-forward: +01:00 all day.
  static let header: String =
    "trigsim: 1\nclock: { start: 2026-03-28T06:00:00+01:00, end: 2026-03-28T12:00:00+01:00, timezone: Europe/Copenhagen }\n"

  /// One medicine with one daily time (08:00), for the action and rule tests.
  static let oneMedicine: String = header + "medicines:\n  - { id: 1, name: Metformin, dosage: 500, unit: mg, times: [\"08:00\"] }\n"

  // MARK: - Helpers

  func load(_ yaml: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Scenario {
    do {
      return try ScenarioLoader().load(yaml: yaml, file: "s.yaml")
    } catch let error as InputError {
      Issue.record("expected the scenario to load, got:\n\(error)", sourceLocation: sourceLocation)
      throw error
    }
  }

  func instant(_ text: String) throws -> SimulationInstant {
    try ValueSyntax.instant(text, zone: TimeZone(identifier: "UTC")!).get()
  }

  enum ChangeKind: Equatable {
    case create(MedicineID), edit(MedicineID), delete(MedicineID)
  }

  func kind(_ change: MedicineChange) -> ChangeKind {
    switch change.kind {
    case .create(let medicine): .create(medicine.id)
    case .edit(let medicine): .edit(medicine.id)
    case .delete(let id): .delete(id)
    }
  }

  func medicine(_ change: MedicineChange) -> Medicine? {
    switch change.kind {
    case .create(let medicine), .edit(let medicine): medicine
    case .delete: nil
    }
  }

  // MARK: - 1. A valid medicine

  @Test func validMedicinesLoadAsCreateEditAndDeleteChangesInTimeOrder() throws {
    let text = MarkedText(Self.header + """
      medicines:
        - 1️⃣id: 1
          name: Metformin
          dosage: 0.5
          unit: g
          times: ["08:00", "20:30"]
          edits:
            - 2️⃣{ at: 2026-03-28T09:00:00, dosage: 1000, unit: mg }
            - 3️⃣{ at: 2026-03-28T10:00:00, times: ["09:00"] }
          deleted: 4️⃣2026-03-28T11:00:00
        - { id: 2, name: Aspirin, dosage: 75, times: ["07:00"], snooze: none, created: 2026-03-28T09:30:00 }
        - { id: 3, name: Vitamin D, dosage: 1, unit: tablet, times: ["12:00"], snooze: { every: 5m, count: 3, schedule: onDelivery } }
      """)
    let scenario = try load(text.text)
    let changes = scenario.medicineApp.medicineChanges

    // Sorted by instant across medicines; ties (1 and 3 at the clock start) in file order.
    #expect(changes.map(kind) == [.create("1"), .create("3"), .edit("1"), .create("2"), .edit("1"), .delete("1")])
    #expect(
      try changes.map(\.instant) == [
        scenario.clock.start, scenario.clock.start, instant("2026-03-28T08:00:00Z"), instant("2026-03-28T08:30:00Z"),
        instant("2026-03-28T09:00:00Z"), instant("2026-03-28T10:00:00Z"),
      ])
    #expect(scenario.clock.start == (try instant("2026-03-28T05:00:00Z")))

    let created = try #require(medicine(changes[0]))
    #expect(created.id == "1")
    #expect(created.name == "Metformin")
    #expect(created.dosage == "0.5")
    #expect(created.unit == "g")
    #expect(created.body == "0.5 g")
    #expect(created.times == [DailyTime(hour: 8, minute: 0), DailyTime(hour: 20, minute: 30)])
    #expect(created.location == nil)
    #expect(created.snooze == SnoozeChainPolicy.productDefault)
    #expect(changes[0].origin == text.location("1️⃣", file: "s.yaml"))

    // Each edit starts from the previous version and changes only what it names.
    let firstEdit = try #require(medicine(changes[2]))
    #expect(firstEdit.name == "Metformin")
    #expect(firstEdit.dosage == "1000")
    #expect(firstEdit.unit == "mg")
    #expect(firstEdit.times == [DailyTime(hour: 8, minute: 0), DailyTime(hour: 20, minute: 30)])
    #expect(firstEdit.snooze == SnoozeChainPolicy.productDefault)
    #expect(changes[2].origin == text.location("2️⃣", file: "s.yaml"))
    let secondEdit = try #require(medicine(changes[4]))
    #expect(secondEdit.dosage == "1000")
    #expect(secondEdit.unit == "mg")
    #expect(secondEdit.times == [DailyTime(hour: 9, minute: 0)])
    #expect(changes[4].origin == text.location("3️⃣", file: "s.yaml"))
    #expect(changes[5].origin == text.location("4️⃣", file: "s.yaml"))

    let vitamin = try #require(medicine(changes[1]))
    #expect(vitamin.unit == "tablet")
    #expect(vitamin.snooze == SnoozeChainPolicy(every: .minutes(5), count: 3, scheduling: .onDelivery))

    let aspirin = try #require(medicine(changes[3]))
    #expect(aspirin.name == "Aspirin")
    #expect(aspirin.dosage == "75")
    #expect(aspirin.unit == "")
    #expect(aspirin.times == [DailyTime(hour: 7, minute: 0)])
    #expect(aspirin.snooze == nil)
  }

  @Test func partialSnoozeMappingKeepsTheProductDefaultsForTheRest() throws {
    let scenario = try load(Self.header + "medicines:\n  - { id: 1, name: A, dosage: 1, times: [\"08:00\"], snooze: { count: 3 } }\n")
    let created = try #require(scenario.medicineApp.medicineChanges.first.flatMap(medicine))
    #expect(created.snooze == SnoozeChainPolicy(every: .minutes(6), count: 3, scheduling: .upfront))
  }

  @Test func editsOutOfTimeOrderAndDeletionBeforeTheLastEditAreRejected() {
    assertDiagnostics(
      Self.header + """
        medicines:
          - id: 1
            name: Metformin
            dosage: 500
            times: ["08:00"]
            edits:
              - { at: 2026-03-28T10:00:00, dosage: 1000 }
              - { at: 1️⃣2026-03-28T09:00:00, dosage: 750 }
            deleted: 2️⃣2026-03-28T09:30:00
        """,
      [
        Expected(marker: "1️⃣", message: "edits must be in time order and after the medicine is created"),
        Expected(marker: "2️⃣", message: "medicine '1' is deleted before it is created or last edited"),
      ])
  }

  // MARK: - 2. Times

  @Test func badDailyTimesAreReportedAtTheListItem() {
    assertDiagnostics(
      Self.header + """
        medicines:
          - { id: 1, name: A, dosage: 1, times: [1️⃣"25:00"] }
          - { id: 2, name: B, dosage: 1, times: [2️⃣"8:7"] }
          - { id: 3, name: C, dosage: 1, times: [3️⃣"08-00"] }
          - { id: 4, name: D, dosage: 1, times: ["08:00", 4️⃣"08:00"] }
          - { id: 5, name: E, dosage: 1, times: ["07:00", 5️⃣"08:60"] }
        """,
      [
        Expected(marker: "1️⃣", message: "time '25:00': hour 25 is outside 0...23"),
        Expected(marker: "2️⃣", message: "time '8:7' is not HH:MM", note: "write a 24-hour time such as \"08:00\" or \"20:30\" (quoted)"),
        Expected(marker: "3️⃣", message: "time '08-00' is not HH:MM"),
        Expected(marker: "4️⃣", message: "time '08:00' is listed twice"),
        Expected(marker: "5️⃣", message: "time '08:60': minute 60 is outside 0...59"),
      ])
  }

  @Test func signedTimesAndNonDecimalDosagesAreRejected() {
    assertDiagnostics(
      Self.header + """
        medicines:
          - { id: 1, name: A, dosage: 1, times: [1️⃣"+7:30"] }
          - { id: 2, name: B, dosage: 2️⃣"0x10", times: ["08:00"] }
        """,
      [
        Expected(marker: "1️⃣", message: "time '+7:30' is not HH:MM"),
        Expected(marker: "2️⃣", message: "dosage must be a positive number, not '0x10'"),
      ])
  }

  @Test func anEditCannotEmptyTheName() {
    assertDiagnostics(
      Self.header + """
        medicines:
          - id: 1
            name: A
            dosage: 1
            times: ["08:00"]
            edits:
              - { at: 2026-03-28T09:00:00, name: 1️⃣"" }
        """,
      [Expected(marker: "1️⃣", message: "a medicine's name cannot be empty")])
  }

  @Test func aLocationCircleMayNotTakeTheIdentifierOfADeclaredRegion() {
    assertDiagnostics(
      Self.header + """
        regions:
          - { id: medicine_1_area, center: [55.0, 12.0] }
        medicines:
          - { id: 1, name: A, dosage: 1, location: 1️⃣{ center: [55.1, 12.1] } }
        """,
      [Expected(
        marker: "1️⃣", message: "this location's circle would be region 'medicine_1_area', which is already declared",
        note: "rename the region under 'regions:', or use 'region: medicine_1_area' here")])
  }

  // MARK: - 3. Medicine fields

  @Test func missingOrBadMedicineFieldsAreLocated() {
    assertDiagnostics(
      Self.header + """
        medicines:
          - 1️⃣{ id: 1, dosage: 500, times: ["08:00"] }
          - 2️⃣{ id: 2, name: B, times: ["08:00"] }
          - { id: 3, name: C, dosage: 3️⃣abc, times: ["08:00"] }
          - { id: 4, name: D, dosage: 4️⃣0, times: ["08:00"] }
          - 5️⃣{ id: 5, name: E, dosage: 5 }
          - { id: 6, name: F, dosage: 6, times: ["08:00"] }
          - { id: 6️⃣6, name: G, dosage: 7, times: ["09:00"] }
          - { id: 7️⃣a_b, name: H, dosage: 8, times: ["10:00"] }
          - 8️⃣{ name: I, dosage: 9, times: ["11:00"] }
        """,
      [
        Expected(marker: "1️⃣", message: "medicine '1' needs a 'name'"),
        Expected(marker: "2️⃣", message: "medicine '2' needs a 'dosage'"),
        Expected(marker: "3️⃣", message: "dosage must be a positive number, not 'abc'", note: "put the unit in 'unit': dosage: 500, unit: mg"),
        Expected(marker: "4️⃣", message: "dosage must be a positive number, not '0'"),
        Expected(marker: "5️⃣", message: "medicine '5' has no reminder", note: "give 'times' (daily times), a 'location', or both"),
        Expected(marker: "6️⃣", message: "medicine '6' is declared twice"),
        Expected(marker: "7️⃣", message: "medicine id 'a_b' must be letters and digits only"),
        Expected(marker: "8️⃣", message: "a medicine needs an 'id'"),
      ])
  }

  @Test func unknownMedicineKeyIsRejectedWithASuggestion() {
    assertDiagnostics(
      Self.header + "medicines:\n  - 2️⃣{ id: 1, name: A, dosage: 1, 1️⃣time: [\"08:00\"] }\n",
      [
        // With the misspelt key ignored, the medicine has no reminder (listed first: it is at the medicine, before the key).
        Expected(marker: "2️⃣", message: "medicine '1' has no reminder"),
        Expected(marker: "1️⃣", message: "unknown key 'time' in a medicine", note: "did you mean 'times'?"),
      ])
  }

  // MARK: - 4. Location

  @Test func locationNamingAnUndeclaredRegionSuggestsTheClosest() {
    assertDiagnostics(
      Self.header + """
        regions:
          - { id: home, center: [55.6761, 12.5683] }
        medicines:
          - { id: 1, name: A, dosage: 1, location: { region: 1️⃣hoem } }
        """,
      [Expected(marker: "1️⃣", message: "unknown region 'hoem'", note: "did you mean 'home'?")])
  }

  @Test func locationWithACenterAddsACircleRegionNamedAfterTheMedicine() throws {
    let text = MarkedText(Self.header + """
      regions:
        - { id: home, center: [55.6761, 12.5683] }
      medicines:
        - { id: 1, name: A, dosage: 1, location: 1️⃣{ center: [55.7, 12.6], radius: 50, on: [exit] } }
        - { id: 2, name: B, dosage: 1, times: ["08:00"], location: { region: home } }
      """)
    let scenario = try load(text.text)
    #expect(scenario.regions.map(\.id) == ["home", "medicine_1_area"])
    let area = try #require(scenario.regions.last)
    let circle = try #require(area.shape as? CircularRegion)
    #expect(circle.radius == 50)
    #expect(circle.center == Coordinate(latitude: 55.7, longitude: 12.6))
    #expect(area.origin == text.location("1️⃣", file: "s.yaml"))

    let medicines = scenario.medicineApp.medicineChanges.compactMap(medicine)
    #expect(medicines.map(\.id) == ["1", "2"])
    let areaReminder = try #require(medicines[0].location)
    #expect(areaReminder.region == "medicine_1_area")
    #expect(!areaReminder.onEntry)
    #expect(areaReminder.onExit)
    #expect(areaReminder.repeats)
    #expect(medicines[0].times.isEmpty)
    let homeReminder = try #require(medicines[1].location)
    #expect(homeReminder.region == "home")
    #expect(homeReminder.onEntry)
    #expect(!homeReminder.onExit)
  }

  // MARK: - 5. Snooze chain

  @Test func badSnoozeChainValuesAreLocated() {
    assertDiagnostics(
      Self.header + """
        medicines:
          - { id: 1, name: A, dosage: 1, times: ["08:00"], snooze: { every: 1️⃣0m } }
          - { id: 2, name: B, dosage: 1, times: ["08:00"], snooze: { count: 2️⃣100 } }
          - { id: 3, name: C, dosage: 1, times: ["08:00"], snooze: { schedule: 3️⃣later } }
          - { id: 4, name: D, dosage: 1, times: ["08:00"], snooze: { schedule: 4️⃣upfrnt } }
          - { id: 5, name: E, dosage: 1, times: ["08:00"], snooze: 5️⃣sometimes }
        """,
      [
        Expected(marker: "1️⃣", message: "snooze 'every' must be longer than zero"),
        Expected(marker: "2️⃣", message: "snooze 'count' must be between 0 and 64, not 100"),
        Expected(marker: "3️⃣", message: "unknown chain schedule 'later'", note: "choose one of: upfront, onDelivery"),
        Expected(marker: "4️⃣", message: "unknown chain schedule 'upfrnt'", note: "did you mean 'upfront'?"),
        Expected(marker: "5️⃣", message: "snooze must be 'none' or a mapping such as { every: 6m, count: 10, schedule: upfront }"),
      ])
  }

  // MARK: - 6. Scripted actions

  @Test func badScriptedActionsAreLocated() {
    assertDiagnostics(
      Self.oneMedicine + """
        actions:
          - { at: 2026-03-28T08:01:00, notification: 1️⃣medicine_9_reminder_0, action: complete }
          - { at: 2026-03-28T08:01:00, notification: 2️⃣medicine_1_reminder_5, action: complete }
          - { at: 2026-03-28T08:01:00, notification: medicine_1_reminder_0, action: 3️⃣snooze 7m }
          - { at: 2026-03-28T08:01:00, notification: medicine_1_reminder_0, action: 4️⃣snoze }
        """,
      [
        Expected(marker: "1️⃣", message: "unknown medicine '9' in 'medicine_9_reminder_0'", note: "declared medicines: 1"),
        Expected(marker: "2️⃣", message: "no medicine produces the notification 'medicine_1_reminder_5'", note: "did you mean 'medicine_1_reminder_0'?"),
        Expected(
          marker: "3️⃣", message: "the category offers no 'snooze 7m'",
          note: "it offers: 5m, 15m, 30m, 1h (change 'category: snoozeOptions' to add one)"),
        Expected(marker: "4️⃣", message: "unknown action 'snoze'", note: "did you mean 'snooze'?"),
      ])
  }

  @Test func plainSnoozeUsesTheCategoryDefaultOfFifteenMinutes() throws {
    let text = MarkedText(Self.oneMedicine + """
      actions:
        - 1️⃣{ at: 2026-03-28T08:20:00, notification: medicine_1_reminder_0_snoozed, action: complete }
        - 2️⃣{ at: 2026-03-28T08:01:00, notification: medicine_1_reminder_0, action: snooze }
        - { at: 2026-03-28T08:30:00, notification: medicine_1_snooze_10, action: snooze 30m }
      """)
    let scenario = try load(text.text)
    #expect(scenario.medicineApp.category.defaultSnooze == .minutes(15))
    let actions = scenario.medicineApp.userActions
    // In time order, not file order.
    #expect(actions.map(\.notification) == ["medicine_1_reminder_0", "medicine_1_reminder_0_snoozed", "medicine_1_snooze_10"])
    #expect(actions.map(\.action) == [.snooze(.minutes(15)), .complete, .snooze(.minutes(30))])
    #expect(try actions.map(\.instant) == [instant("2026-03-28T07:01:00Z"), instant("2026-03-28T07:20:00Z"), instant("2026-03-28T07:30:00Z")])
    #expect(actions[0].origin == text.location("2️⃣", file: "s.yaml"))
    #expect(actions[1].origin == text.location("1️⃣", file: "s.yaml"))
  }

  @Test func categorySnoozeOptionsDecideWhichSnoozesAreValid() throws {
    let scenario = try load(Self.oneMedicine + """
      category: { snoozeOptions: [10m], defaultSnooze: 10m }
      actions:
        - { at: 2026-03-28T08:01:00, notification: medicine_1_reminder_0, action: snooze 10m }
        - { at: 2026-03-28T08:12:00, notification: medicine_1_reminder_0_snoozed, action: snooze }
      """)
    #expect(scenario.medicineApp.category.snoozeOptions == [.minutes(10)])
    #expect(scenario.medicineApp.category.defaultSnooze == .minutes(10))
    #expect(scenario.medicineApp.userActions.map(\.action) == [.snooze(.minutes(10)), .snooze(.minutes(10))])

    // The default category does not offer 10 minutes.
    assertDiagnostics(
      Self.oneMedicine + """
        actions:
          - { at: 2026-03-28T08:01:00, notification: medicine_1_reminder_0, action: 1️⃣snooze 10m }
        """,
      [Expected(marker: "1️⃣", message: "the category offers no 'snooze 10m'", note: "it offers: 5m, 15m, 30m, 1h (change 'category: snoozeOptions' to add one)")])
  }

  // MARK: - 7. Response rules

  @Test func badResponseRulesAreLocated() {
    assertDiagnostics(
      Self.oneMedicine + """
        respond:
          - { to: 1️⃣"medcine_1_*", after: 2m, actions: [complete] }
          - 2️⃣{ to: "medicine_1_*", actions: [complete] }
          - { to: "medicine_1_*", after: 2m, actions: 3️⃣[] }
        """,
      [
        Expected(marker: "1️⃣", message: "pattern 'medcine_1_*' matches no notification the medicines can produce", note: "it would never apply; check for a typo"),
        Expected(marker: "2️⃣", message: "a response rule needs 'to', 'after' and 'actions'"),
        Expected(marker: "3️⃣", message: "'actions' lists nothing"),
      ])
  }

  @Test func validResponseRuleLoads() throws {
    let scenario = try load(Self.oneMedicine + "respond:\n  - { to: \"medicine_1_*\", after: 2m, actions: [snooze 15m, snooze, complete] }\n")
    let rule = try #require(scenario.medicineApp.responseRules.first)
    #expect(scenario.medicineApp.responseRules.count == 1)
    #expect(rule.pattern.text == "medicine_1_*")
    #expect(rule.after == .minutes(2))
    #expect(rule.actions == [.snooze(.minutes(15)), .snooze(.minutes(15)), .complete])
  }

  // MARK: - 8. App state changes

  @Test func badAppChangesAreLocated() {
    assertDiagnostics(
      Self.oneMedicine + """
        app:
          - { at: 2026-03-28T07:00:00, state: 1️⃣foregrund }
          - { at: 2026-03-28T09:00:00, state: background }
          - { at: 2️⃣2026-03-28T08:00:00, state: foreground }
          - { at: 3️⃣2026-03-28T13:00:00, state: terminated }
        """,
      [
        Expected(marker: "1️⃣", message: "unknown app state 'foregrund'", note: "did you mean 'foreground'?"),
        Expected(marker: "2️⃣", message: "app changes must be in time order"),
        Expected(marker: "3️⃣", message: "app change 'at' '2026-03-28T13:00:00' is outside the clock window"),
      ])
  }

  @Test func validAppChangesLoadInOrder() throws {
    let scenario = try load(Self.oneMedicine + """
      app:
        - { at: 2026-03-28T07:00:00, state: foreground }
        - { at: 2026-03-28T09:00:00, state: terminated, permission: denied }
      """)
    let changes = scenario.medicineApp.appChanges
    #expect(changes.map(\.state) == [.foreground, .terminated])
    #expect(changes.map(\.permission) == [nil, .denied])
    #expect(try changes.map(\.instant) == [instant("2026-03-28T06:00:00Z"), instant("2026-03-28T08:00:00Z")])
  }

  // MARK: - 9. Actions without medicines

  @Test func actionsOrRulesWithoutMedicinesAreRejectedAtTheirKey() {
    let (text, found) = diagnostics(
      Self.header + """
        1️⃣actions:
          - { at: 2026-03-28T08:01:00, notification: medicine_1_reminder_0, action: complete }
        2️⃣respond:
          - { to: "medicine_*", after: 1m, actions: [complete] }
        """)
    let needs = found.filter { $0.message.hasSuffix("needs medicines") }
    #expect(needs.map(\.message) == ["'actions' needs medicines", "'respond' needs medicines"], "found: \(found.map(\.description))")
    #expect(needs.map(\.location) == [text.location("1️⃣", file: "s.yaml"), text.location("2️⃣", file: "s.yaml")])
    #expect(needs.first?.notes.contains("user actions apply to the notifications of the medicines under 'medicines:'") == true)
  }

  @Test func emptyActionsListWithoutMedicinesIsStillRejected() {
    assertDiagnostics(
      Self.header + "1️⃣actions: []\n",
      [Expected(marker: "1️⃣", message: "'actions' needs medicines")])
  }

  // MARK: - 10. Platform

  @Test func terminatedActionsPolicyLoads() throws {
    let lost = try load(Self.oneMedicine + "platform: { terminatedActions: lost }\n")
    #expect(lost.platform.terminatedActions == .lost)
    let handled = try load(Self.oneMedicine + "platform: { terminatedActions: handled }\n")
    #expect(handled.platform.terminatedActions == .handled)
    let unset = try load(Self.oneMedicine)
    #expect(unset.platform.terminatedActions == .handled)
  }

  @Test func unknownTerminatedActionsPolicySuggestsTheClosest() {
    assertDiagnostics(
      Self.oneMedicine + "platform: { terminatedActions: 1️⃣lsot }\n",
      [Expected(marker: "1️⃣", message: "unknown terminated-app action delivery 'lsot'", note: "did you mean 'lost'?")])
  }
}
