import Foundation
import Testing
import TrigsimTestSupport
import TrigsimMedicineApp

@testable import TrigsimCore

/// `SimulatedDevice.simulation` and the hosted app's settings for what the
/// timeline and the dose table say of app code: one rule per test.
@Suite struct SimulationNotesTests {
  static let eight = DailyTime(hour: 8, minute: 0)

  /// A scenario with medicine "1" taken at 08:00, created at the clock's start.
  static func withMedicine(_ start: String = "2026-05-04T07:00:00Z", _ end: String = "2026-05-04T12:00:00Z") -> Scenario {
    var scenario = HostedScenario.make(start, end)
    let medicine = Medicine(id: "1", name: "Metformin", dosage: "500", unit: "mg", times: [eight])
    scenario.medicineApp.medicineChanges = [MedicineChange(instant: scenario.clock.start, kind: .create(medicine))]
    return scenario
  }

  @Test func warnRecordsAWarningAtTheCallbacksInstant() throws {
    var script = AppScript()
    script.launched = { app, _ in app.device.simulation.warn("pill-chain", "follow-ups not added: the user turned them off") }
    let report = try Simulation(HostedScenario.make(), app: ScriptedApp.hosted(script, log: AppLog())).report()
    let warnings = HostedScenario.lines(report.timeline).filter { $0.contains(" warning ") }
    #expect(warnings == ["2026-05-04T07:00:00 warning pill-chain reason=follow-ups not added: the user turned them off"])
  }

  @Test func becauseGivesTheRemovalsAndClearingsInsideItTheAppsReason() throws {
    var script = AppScript()
    script.launched = { app, _ in
      app.device.notificationCenter.setNotificationCategories([HostedScenario.doseCategory])
      for (id, seconds) in [("shown-1", 60), ("shown-2", 120), ("chain-1", 3600), ("chain-2", 3660), ("chain-3", 3720)] {
        await app.add(HostedScenario.after(id, seconds: Int64(seconds)))
      }
    }
    script.received = { app, _ in
      let center = app.device.notificationCenter
      app.device.simulation.because("dose completed") {
        center.removePendingNotificationRequests(withIdentifiers: ["chain-1"])
        center.removeDeliveredNotifications(withIdentifiers: ["shown-2"])
        app.device.simulation.because("chain replaced") { center.removePendingNotificationRequests(withIdentifiers: ["chain-2"]) }
        center.removePendingNotificationRequests(withIdentifiers: ["chain-3"])
      }
      center.removeAllPendingNotificationRequests()
    }
    var scenario = HostedScenario.make()
    scenario.medicineApp.userActions = [HostedScenario.act(.complete, on: "shown-1", at: "2026-05-04T07:05:00Z")]
    // A request still pending after the handler, for the default reason of `removeAll`.
    script.launched = { [launched = script.launched] app, reason in
      await launched(app, reason)
      await app.add(HostedScenario.after("later", seconds: 7200))
    }
    let report = try Simulation(scenario, app: ScriptedApp.hosted(script, log: AppLog())).report()
    let removals = HostedScenario.lines(report.timeline).filter { $0.contains(" removed ") || $0.contains(" cleared ") }
    #expect(removals == [
      "2026-05-04T07:05:00 removed chain-1 trigger=interval 1h reason=dose completed",
      "2026-05-04T07:05:00 cleared shown-2 reason=dose completed",
      "2026-05-04T07:05:00 removed chain-2 trigger=interval 1h1m reason=chain replaced",
      "2026-05-04T07:05:00 removed chain-3 trigger=interval 1h2m reason=dose completed",
      "2026-05-04T07:05:00 removed later trigger=interval 2h reason=removed by the app (all)",
    ])
  }

  @Test func aRemarkReachesTheDoseTheNotificationAnsweredOnce() throws {
    let log = AppLog()
    var script = AppScript()
    script.launched = { app, _ in
      app.device.notificationCenter.setNotificationCategories([HostedScenario.doseCategory])
      await app.add(HostedScenario.daily("pill", hour: 8))
    }
    script.received = { app, response in
      let notes = app.device.simulation
      let id = response.notification.request.id
      app.log.add("remark \(notes.remark("taken from the lock screen", onDoseOf: id))")
      app.log.add("again \(notes.remark("taken from the lock screen", onDoseOf: id))")
      app.log.add("unknown \(notes.remark("about nothing", onDoseOf: "no-such-request"))")
    }
    var scenario = Self.withMedicine()
    scenario.medicineApp.userActions = [HostedScenario.act(.complete, on: "pill", at: "2026-05-04T08:01:00Z")]
    let attribution: @Sendable (NotificationRequest) -> DoseAttribution? = { _ in .reminder("1", time: Self.eight) }
    let report = try Simulation(scenario, app: ScriptedApp.hosted(script, log: log, attribution: attribution)).report()
    #expect(log.all.filter { !$0.hasPrefix("#") } == ["remark true", "again true", "unknown false"])
    let dose = try #require(report.summary.doses.first)
    #expect(dose.notes.filter { $0 == "taken from the lock screen" }.count == 1)
    #expect(!dose.notes.contains("about nothing"))
  }

  @Test func withoutCallbackEntriesTheTimelineStillSaysWhichCallbacksCouldNotRun() throws {
    var script = AppScript()
    script.sets.notificationDelegate = false
    script.launched = { app, _ in await app.add(HostedScenario.after("pill", seconds: 60)) }
    var scenario = HostedScenario.make("2026-05-04T07:00:00Z", "2026-05-04T07:10:00Z")
    scenario.medicineApp.appChanges = [AppChange(instant: scenario.clock.start, state: .foreground)]
    let recorded = try Simulation(scenario, app: ScriptedApp.hosted(script, log: AppLog())).report()
    let quiet = try Simulation(scenario, app: ScriptedApp.hosted(script, log: AppLog(), recordsCallbacks: false)).report()
    let ran = ["didFinishLaunching", "didBecomeActive"]
    #expect(recorded.timeline.entries.filter { $0.kind == .app }.map(\.subject) == ["state", "didFinishLaunching", "didBecomeActive", "willPresent"])
    #expect(quiet.timeline.entries.filter { $0.kind == .app }.map(\.subject) == ["state", "willPresent"])
    let notRun = try #require(quiet.timeline.entries.first { $0.subject == "willPresent" })
    #expect(notRun.fields.contains(TimelineField("ran", "no")))
    // Nothing else differs.
    let rest = recorded.timeline.entries.filter { !($0.kind == .app && ran.contains($0.subject)) }
    #expect(rest.map(\.canonicalLine) == quiet.timeline.entries.map(\.canonicalLine))
  }

  /// Day 1's 08:00 chain has a follow-up at 08:30 on day 2, after day 2's
  /// dose is due: naming the due instant keeps it with day 1's dose.
  @Test(arguments: [true, false])
  func aFollowUpWithItsDueInstantServesThatDoseNotTheLatest(namesDue: Bool) throws {
    var script = AppScript()
    script.launched = { app, _ in
      await app.add(HostedScenario.daily("pill", hour: 8))
      let late = CalendarComponents(year: 2026, month: 5, day: 5, hour: 8, minute: 30)
      await app.add(NotificationRequest(id: "pill-followup", title: "pill", trigger: .calendar(CalendarTrigger(components: late, repeats: false))))
    }
    let dayOne = Build.instant("2026-05-04T08:00:00Z").date
    let attribution: @Sendable (NotificationRequest) -> DoseAttribution? = { request in
      request.id == "pill" ? .reminder("1", time: Self.eight) : .followUp("1", time: Self.eight, number: 1, due: namesDue ? dayOne : nil)
    }
    let scenario = Self.withMedicine("2026-05-04T07:00:00Z", "2026-05-05T12:00:00Z")
    let report = try Simulation(scenario, app: ScriptedApp.hosted(script, log: AppLog(), attribution: attribution)).report()
    let doses = report.summary.doses.sorted { $0.scheduled < $1.scheduled }
    #expect(doses.map(\.scheduled) == [Build.instant("2026-05-04T08:00:00Z"), Build.instant("2026-05-05T08:00:00Z")])
    #expect(doses.map(\.followUpsDelivered) == (namesDue ? [1, 0] : [0, 1]))
  }

  @Test func theAppReadsTheDoseANotificationAnsweredAndWhatTheTableKnowsOfIt() throws {
    let log = AppLog()
    var script = AppScript()
    script.launched = { app, _ in
      app.device.notificationCenter.setNotificationCategories([HostedScenario.doseCategory])
      await app.add(HostedScenario.daily("pill", hour: 8))
    }
    // The prescription has the medicine once the patient has entered it.
    script.medicine = { app, _ in
      let notes = app.device.simulation
      let dose = notes.prescribedDose(of: "1", at: SimulationNotesTests.eight, firingAt: Build.instant("2026-05-04T08:20:00Z").date)
      let outside = notes.prescribedDose(of: "1", at: SimulationNotesTests.eight, firingAt: Build.instant("2026-05-04T11:00:00Z").date)
      app.log.add("prescribed \(dose.occurrenceLabel) \(dose.isPrescribed), outside \(outside.isPrescribed)")
      app.log.add("before delivery \(notes.dose(answeredBy: "pill").map(\.occurrenceLabel) ?? "none") \(notes.record(of: dose) == nil)")
      app.log.add("remark before \(notes.remark("early", on: dose))")
      app.log.add("stamp \(notes.timestamp(Build.instant("2026-05-04T08:00:00Z").date))")
    }
    script.received = { app, response in
      let notes = app.device.simulation
      guard let dose = notes.dose(answeredBy: response.notification.request.id), let record = notes.record(of: dose) else { return }
      app.log.add("answered \(dose.occurrenceLabel) due \(record.scheduled) snoozes \(record.snoozes) completed \(record.completed != nil)")
      app.log.add("remark on \(notes.remark("taken at the door", on: dose))")
    }
    var scenario = Self.withMedicine()
    scenario.medicineApp.userActions = [HostedScenario.act(.complete, on: "pill", at: "2026-05-04T08:01:00Z")]
    let attribution: @Sendable (NotificationRequest) -> DoseAttribution? = { _ in .reminder("1", time: Self.eight) }
    let report = try Simulation(scenario, app: ScriptedApp.hosted(script, log: log, attribution: attribution)).report()
    #expect(log.all.filter { !$0.hasPrefix("#") } == [
      "prescribed 2026-05-04 true, outside false",
      "before delivery none true",
      "remark before false",
      "stamp 2026-05-04T08:00:00.000+00:00",
      // The patient's act is in the table before the app's handler runs.
      "answered 2026-05-04 due 2026-05-04T08:00:00.000Z snoozes 0 completed true",
      "remark on true",
    ])
    #expect(try #require(report.summary.doses.first).notes.contains("taken at the door"))
  }

  /// An app that records a dose as taken when the patient opens its
  /// notification says so (`countAsTaken`): the dose table says completed at
  /// the open; an app that does not leaves the open an open.
  @Test func countAsTakenRecordsTheOpenAsTheDosesCompletion() throws {
    for counts in [false, true] {
      var script = AppScript()
      script.launched = { app, _ in
        app.device.notificationCenter.setNotificationCategories([HostedScenario.doseCategory])
        await app.add(HostedScenario.daily("pill", hour: 8))
      }
      script.received = { app, response in
        guard counts, let dose = app.device.simulation.dose(answeredBy: response.notification.request.id) else { return }
        app.device.simulation.countAsTaken(dose)
      }
      var scenario = Self.withMedicine()
      scenario.medicineApp.userActions = [HostedScenario.act(.open, on: "pill", at: "2026-05-04T08:05:00Z")]
      let attribution: @Sendable (NotificationRequest) -> DoseAttribution? = { _ in .reminder("1", time: Self.eight) }
      let report = try Simulation(scenario, app: ScriptedApp.hosted(script, log: AppLog(), attribution: attribution)).report()
      let dose = try #require(report.summary.doses.first)
      #expect(dose.outcome == (counts ? .completed : .unanswered))
      #expect(dose.completed == (counts ? Build.instant("2026-05-04T08:05:00Z") : nil))
    }
  }

  /// Only the patient's response counts: called from will-present (the app
  /// in the foreground at the delivery), it is an app code error.
  @Test func countAsTakenOutsideAResponseIsAnAppCodeError() throws {
    var script = AppScript()
    script.launched = { app, _ in await app.add(HostedScenario.daily("pill", hour: 8)) }
    script.willPresent = { app, notification in
      if let dose = app.device.simulation.dose(answeredBy: notification.request.id) { app.device.simulation.countAsTaken(dose) }
      return [.banner]
    }
    var scenario = Self.withMedicine()
    scenario.medicineApp.appChanges = [HostedScenario.state(.foreground, at: "2026-05-04T07:00:00Z")]
    let attribution: @Sendable (NotificationRequest) -> DoseAttribution? = { _ in .reminder("1", time: Self.eight) }
    let error = #expect(throws: AppCodeError.self) {
      try Simulation(scenario, app: ScriptedApp.hosted(script, log: AppLog(), attribution: attribution)).report()
    }
    #expect(error?.callback == "willPresent")
    #expect(error?.problem.hasPrefix("SimulationNotes.countAsTaken(1 2026-05-04) was called outside didReceive") == true)
  }

  @Test func nextTriggerDateIsTheDevicesOwnUnderItsZoneAndDSTRules() throws {
    // Europe/Copenhagen springs forward at 02:00 on 2026-03-29: 02:30 does not exist that day.
    let log = AppLog()
    var script = AppScript()
    script.launched = { app, _ in
      let center = app.device.notificationCenter
      let trigger = CalendarTrigger(components: CalendarComponents(hour: 2, minute: 30), repeats: true)
      let first = center.nextTriggerDate(for: trigger, after: app.device.clock.now)
      let never = center.nextTriggerDate(
        for: CalendarTrigger(components: CalendarComponents(year: 2020, month: 1, day: 1, hour: 0, minute: 0), repeats: false), after: app.device.clock.now)
      app.log.add("next \(first.map { SimulationInstant($0).description } ?? "none"), past \(never == nil)")
    }
    var scenario = HostedScenario.make("2026-03-28T12:00:00Z", "2026-03-28T13:00:00Z")
    scenario.clock = Build.clock("2026-03-28T12:00:00Z", "2026-03-28T13:00:00Z", zone: "Europe/Copenhagen")
    _ = try Simulation(scenario, app: ScriptedApp.hosted(script, log: log)).report()
    // The platform's default DST-gap rule moves 02:30 to 03:30 local (01:30Z).
    #expect(log.all.last == "next 2026-03-29T01:30:00.000Z, past true")
  }

  @Test func aRequestsOwnAttributionComesBeforeTheAppsFunction() throws {
    var script = AppScript()
    script.launched = { app, _ in
      var own = HostedScenario.daily("pill", hour: 8)
      own.doseAttribution = .reminder("1", time: SimulationNotesTests.eight)
      await app.add(own)
      await app.add(HostedScenario.daily("other", hour: 9))
    }
    // The app's function attributes nothing: only the request that names its dose serves one.
    let attribution: @Sendable (NotificationRequest) -> DoseAttribution? = { _ in nil }
    let report = try Simulation(Self.withMedicine(), app: ScriptedApp.hosted(script, log: AppLog(), attribution: attribution)).report()
    let fired = report.timeline.entries.filter { $0.kind == .fired }.map { "\($0.subject) \($0[field: "dose"] ?? "-")" }
    #expect(fired == ["pill 2026-05-04", "other -"])
    #expect(report.summary.doses.map(\.notified) == [Build.instant("2026-05-04T08:00:00Z")])
  }

  @Test func aFollowUpOfAnExactDoseServesItEvenAfterTheNextIsDue() throws {
    var script = AppScript()
    script.medicine = { app, _ in
      var daily = HostedScenario.daily("pill", hour: 8)
      daily.doseAttribution = .reminder("1", time: SimulationNotesTests.eight)
      await app.add(daily)
      let dayOne = app.device.simulation.prescribedDose(of: "1", at: SimulationNotesTests.eight, firingAt: Build.instant("2026-05-04T08:00:00Z").date)
      let late = CalendarComponents(year: 2026, month: 5, day: 5, hour: 8, minute: 30)
      var followUp = NotificationRequest(id: "pill-f1", title: "pill", trigger: .calendar(CalendarTrigger(components: late, repeats: false)))
      followUp.doseAttribution = .followUpOfDose(dayOne, number: 1)
      await app.add(followUp)
    }
    let scenario = Self.withMedicine("2026-05-04T07:00:00Z", "2026-05-05T12:00:00Z")
    let report = try Simulation(scenario, app: ScriptedApp.hosted(script, log: AppLog())).report()
    let doses = report.summary.doses.sorted { $0.scheduled < $1.scheduled }
    #expect(doses.map(\.followUpsDelivered) == [1, 0])
    let fired = try #require(report.timeline.entries.first { $0.kind == .fired && $0.subject == "pill-f1" })
    #expect(fired.instant == Build.instant("2026-05-05T08:30:00Z"))
  }

  @Test func aReusedIdentifierAnswersForItsPendingRequestAndItsLastDeliverySeparately() throws {
    // "pill-f1" serves day 1's dose, is delivered, then is added again for day 2's.
    let log = AppLog()
    var script = AppScript()
    script.medicine = { app, change in
      let notes = app.device.simulation
      // Created: day 1's follow-up (07:30 on the 4th); edited at 07:40: day 2's (07:30 on the 5th).
      let day = if case .created = change { 4 } else { 5 }
      let due = Build.instant(String(format: "2026-05-%02dT08:00:00Z", day)).date
      let dose = notes.prescribedDose(of: "1", at: SimulationNotesTests.eight, firingAt: due)
      let components = CalendarComponents(year: 2026, month: 5, day: day, hour: 7, minute: 30)
      var followUp = NotificationRequest(id: "pill-f1", title: "pill", trigger: .calendar(CalendarTrigger(components: components, repeats: false)))
      followUp.doseAttribution = .followUpOfDose(dose, number: 1, due: due)
      await app.add(followUp)
      app.log.add("pending \(notes.dose(ofPending: "pill-f1")?.occurrenceLabel ?? "none"), delivered \(notes.dose(answeredBy: "pill-f1")?.occurrenceLabel ?? "none")")
    }
    var scenario = Self.withMedicine("2026-05-04T07:00:00Z", "2026-05-05T12:00:00Z")
    // Day 2's is added after day 1's has fired: at 07:40 on day 1.
    scenario.medicineApp.medicineChanges.append(
      MedicineChange(instant: Build.instant("2026-05-04T07:40:00Z"), kind: .edit(Medicine(id: "1", name: "Metformin", dosage: "500", unit: "mg", times: [Self.eight]))))
    _ = try Simulation(scenario, app: ScriptedApp.hosted(script, log: log)).report()
    #expect(log.all.filter { !$0.hasPrefix("#") } == ["pending 2026-05-04, delivered none", "pending 2026-05-05, delivered 2026-05-04"])
  }

  @Test func placesChangedRecordsARegionsEntry() throws {
    var script = AppScript()
    script.launched = { app, _ in
      app.device.simulation.placesChanged("pharmacies", [TimelineField("medicine", "2"), TimelineField("added", "3")])
    }
    let report = try Simulation(HostedScenario.make(), app: ScriptedApp.hosted(script, log: AppLog())).report()
    #expect(HostedScenario.lines(report.timeline).filter { $0.contains(" regions ") } == ["2026-05-04T07:00:00 regions pharmacies medicine=2 added=3"])
  }
}
