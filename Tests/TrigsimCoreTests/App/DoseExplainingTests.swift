import Foundation
import Testing
import TrigsimTestSupport
import TrigsimMedicineApp

@testable import TrigsimCore

/// An app's own account of its doses (`DoseExplaining`): each hook reaches
/// the dose table or the timeline, and nil keeps trigsim's own account.
@Suite struct DoseExplainingTests {
  static let eight = DailyTime(hour: 8, minute: 0)

  /// An app that adds "pill" (the 08:00 reminder of medicine 1) unless told
  /// not to, and explains everything with a recognisable text.
  final class ExplainingApp: SimulatedApp, UserNotificationCenterDelegate, DoseExplaining, @unchecked Sendable {
    let device: SimulatedDevice
    let addsPill: Bool
    let explains: Bool
    let log: AppLog
    init(_ device: SimulatedDevice, addsPill: Bool, explains: Bool, log: AppLog) {
      (self.device, self.addsPill, self.explains, self.log) = (device, addsPill, explains, log)
    }

    func didFinishLaunching(reason: LaunchReason) async {
      device.notificationCenter.delegate = self
      device.notificationCenter.setNotificationCategories([NotificationCategory(identifier: "dose", actions: [NotificationAction(identifier: "complete", title: "Taken")])])
      guard addsPill else { return }
      var request = HostedScenario.daily("pill", hour: 8)
      request.doseAttribution = .reminder("1", time: DoseExplainingTests.eight)
      try? await device.notificationCenter.add(request)
    }

    func missedReason(_ dose: MissedDose, facts: SimulationFacts) -> String? {
      explains ? "the app's reason: \(dose.medicine) \(dose.time) due \(facts.timestamp(dose.due))" : nil
    }
    func unansweredRemark(_ dose: DoseRecord, facts: SimulationFacts) -> String? {
      explains && dose.resolved == nil ? "the app's remark: never answered" : nil
    }
    func locationDoseObstacle(_ medicine: MedicineID, region: RegionID, facts: SimulationFacts) -> String? {
      explains ? "the app's obstacle at \(region)" : nil
    }
    func dismissNotReportedReason(_ id: NotificationID, facts: SimulationFacts) -> String? {
      explains ? "the app's reason: \(id) dismissed unheard" : nil
    }
    func actionEntryFields(_ id: NotificationID, actionIdentifier: String, state: AppState) -> [TimelineField] {
      explains ? [TimelineField("heard-in", state.rawValue)] : []
    }
    func deliveredWithoutAppCode(_ notification: UserNotification, dose: DoseKey, state: AppState, notes: SimulationNotes) {
      log.add("delivered \(notification.request.id) unheard (\(state))")
      if explains { notes.warn(notification.request.id.rawValue, "delivered while the app was \(state)") }
    }
  }

  static func app(addsPill: Bool = true, explains: Bool, log: AppLog = AppLog(), model: AppProcessModel = .platform) -> HostedApp {
    HostedApp(processModel: model) { ExplainingApp($0, addsPill: addsPill, explains: explains, log: log) }
  }

  static func withMedicine(location: Bool = false) -> Scenario {
    var scenario = HostedScenario.make()
    var medicine = Medicine(id: "1", name: "Metformin", dosage: "500", unit: "mg", times: [eight])
    if location { medicine.location = LocationReminder(region: "home") }
    scenario.medicineApp.medicineChanges = [MedicineChange(instant: scenario.clock.start, kind: .create(medicine))]
    return scenario
  }

  @Test(arguments: [true, false])
  func aMissedDoseTakesTheAppsReasonOrTrigsims(explains: Bool) throws {
    let report = try Simulation(Self.withMedicine(), app: Self.app(addsPill: false, explains: explains)).report()
    let dose = try #require(report.summary.doses.first)
    #expect(dose.outcome == .missed)
    #expect(dose.reason == (explains
      ? "the app's reason: 1 08:00 due 2026-05-04T08:00:00.000+00:00"
      : "never scheduled: the app added no request it attributes to the 08:00 reminder of medicine 1"))
  }

  @Test(arguments: [true, false])
  func anUnansweredDoseGetsTheAppsRemarkOnlyWhenItGivesOne(explains: Bool) throws {
    let report = try Simulation(Self.withMedicine(), app: Self.app(explains: explains)).report()
    let dose = try #require(report.summary.doses.first)
    #expect(dose.notified == Build.instant("2026-05-04T08:00:00Z"))
    #expect(dose.notes.contains("the app's remark: never answered") == explains)
  }

  @Test(arguments: [true, false])
  func aDismissalTheAppIsNotToldOfCarriesTheAppsReason(explains: Bool) throws {
    var scenario = Self.withMedicine()
    scenario.medicineApp.userActions = [HostedScenario.act(.dismiss, on: "pill", at: "2026-05-04T08:01:00Z")]
    let report = try Simulation(scenario, app: Self.app(explains: explains)).report()
    let action = try #require(report.timeline.entries.first { $0.kind == .action })
    #expect(action[field: "reason"] == (explains ? "the app's reason: pill dismissed unheard" : "the category has no custom dismiss action, so the app is not told"))
  }

  @Test func theAppsActionFieldsFollowThePatientsAction() throws {
    var scenario = Self.withMedicine()
    scenario.medicineApp.userActions = [HostedScenario.act(.complete, on: "pill", at: "2026-05-04T08:01:00Z")]
    let report = try Simulation(scenario, app: Self.app(explains: true)).report()
    let action = try #require(report.timeline.entries.first { $0.kind == .action })
    #expect(action.fields.map(\.key) == ["action", "by", "dose", "heard-in"])
    #expect(action[field: "heard-in"] == "background")
  }

  @Test func aLocationDoseTheAppIsNotSetForTakesTheAppsObstacle() throws {
    for explains in [true, false] {
      var scenario = Self.withMedicine(location: true)
      AppLifecycleTests.walkHome(&scenario)
      let report = try Simulation(scenario, app: Self.app(explains: explains)).report()
      let dose = try #require(report.summary.doses.first { $0.key.slot == .location })
      #expect(dose.outcome == .missed)
      #expect(dose.reason == (explains
        ? "the app's obstacle at home"
        : "the app added no location request for home it attributes to medicine 1, and does not monitor home"), "explains: \(explains)")
    }
  }

  /// The phone is off from 07:30 to 07:40 (unlocked at once); "pill" is delivered at 08:00 with the app terminated.
  @Test func aDeliveryNoAppCodeHearsReachesTheInstanceThatIsStillThere() throws {
    for (model, heard) in [(AppProcessModel.platform, [String]()), (.persistent, ["delivered pill unheard (terminated)"])] {
      var scenario = Self.withMedicine()
      scenario.device.power = [
        PowerEvent(instant: Build.instant("2026-05-04T07:30:00Z"), kind: .switchOff), PowerEvent(instant: Build.instant("2026-05-04T07:40:00Z"), kind: .switchOn),
        PowerEvent(instant: Build.instant("2026-05-04T07:40:00Z"), kind: .unlock),
      ]
      let log = AppLog()
      let report = try Simulation(scenario, app: Self.app(explains: true, log: log, model: model)).report()
      // On the platform the power-off ended the app's process: no instance is left to ask.
      #expect(log.all == heard, "\(model)")
      let warning = report.timeline.entries.first { $0.kind == .warning && $0.subject == "pill" }
      #expect(warning?[field: "reason"] == (model == .persistent ? "delivered while the app was terminated" : nil), "\(model)")
    }
  }

  @Test func aBackgroundDeliveryIsExplainedRightAfterItFired() throws {
    let log = AppLog()
    let report = try Simulation(Self.withMedicine(), app: Self.app(explains: true, log: log)).report()
    #expect(log.all == ["delivered pill unheard (background)"])
    let atEight = report.timeline.entries.filter { $0.instant == Build.instant("2026-05-04T08:00:00Z") }.map { "\($0.kind.rawValue) \($0.subject)" }
    #expect(atEight == ["fired pill", "warning pill"])
  }

  /// An app whose hook changes the device when no app code runs.
  final class MeddlingApp: SimulatedApp, DoseExplaining, @unchecked Sendable {
    let device: SimulatedDevice
    init(_ device: SimulatedDevice) { self.device = device }
    func didFinishLaunching(reason: LaunchReason) async {
      var request = HostedScenario.daily("pill", hour: 8)
      request.doseAttribution = .reminder("1", time: DoseExplainingTests.eight)
      try? await device.notificationCenter.add(request)
    }
    func deliveredWithoutAppCode(_ notification: UserNotification, dose: DoseKey, state: AppState, notes: SimulationNotes) {
      device.notificationCenter.removeAllPendingNotificationRequests()
    }
  }

  @Test func aDeliveryHookThatChangesTheDeviceStopsTheRun() throws {
    #expect {
      try Simulation(Self.withMedicine(), app: HostedApp { MeddlingApp($0) }).report()
    } throws: { error in
      guard let error = error as? AppCodeError else { return false }
      return error.callback == "deliveredWithoutAppCode" && error.problem.hasPrefix("UserNotificationCenter.removeAllPendingNotificationRequests was called from DoseExplaining.deliveredWithoutAppCode")
    }
  }
}
