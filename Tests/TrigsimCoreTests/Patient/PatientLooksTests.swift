import Foundation
import Testing
import TrigsimTestSupport
import TrigsimMedicineApp

@testable import TrigsimCore

private typealias F = MedicineFixture

/// When the patient looks: the daily routine's looks in a single run, the
/// Poisson pickups of trials, unlocks as looks, and responses once per dose per look.
@Suite struct PatientLooksTests {
  /// A Focus that holds every active dose from 22:30 to 07:30; a 07:00 dose without a chain.
  func sleepingScenario(days: Int = 1) -> Scenario {
    var scenario = F.scenario(
      MedicineApp(medicineChanges: [F.create(F.medicine("a", times: ["07:00"], snooze: nil), at: "06:00")]),
      start: "2026-03-28T06:00:00Z", end: days == 1 ? "2026-03-28T13:00:00Z" : "2026-04-0\(days)T06:00:00Z")
    scenario.device.focus = [FocusPeriod(name: "Sleep", schedule: .daily(from: F.time("22:30"), to: F.time("07:30"), weekdays: nil))]
    return scenario
  }

  @Test func theRoutineLooksOnWakingAndThenEvenlyWhileAwake() throws {
    var scenario = sleepingScenario()
    // Awake 07:40–11:40: four looks, 07:40, 08:40, 09:40, 10:40.
    scenario.patientAttention.day = DailyRoutine(wake: F.time("07:40"), sleep: F.time("11:40"), pickupsPerDay: 4)
    var run = SimulationRun(scenario)
    var looks: [String] = []
    run.eventObserver = { event in if case .layer(.patient(.look(let cause))) = event.kind { looks.append("\(cause) \(InstantFormatter.format(event.instant, offsetSeconds: 0))") } }
    try run.execute()
    #expect(looks == ["wake 2026-03-28T07:40:00.000+00:00", "pickup 2026-03-28T08:40:00.000+00:00", "pickup 2026-03-28T09:40:00.000+00:00",
                      "pickup 2026-03-28T10:40:00.000+00:00"])
    // The 07:00 dose, listed when Sleep ended at 07:30, is seen on waking.
    #expect(run.summary().dose("a", .time(F.time("07:00")))?.notified == F.at("07:40"))
  }

  @Test func aRunThatStartsWhileThePatientIsAwakeLooksFromTheStart() throws {
    var scenario = sleepingScenario()
    scenario.device.focus = []
    scenario.medicineApp.appChanges = [AppChange(instant: F.at("06:00"), permission: .provisional)]
    // Awake 05:00–21:00 with 16 looks: one an hour; the run starts at 06:00, so the first look is at 07:00.
    scenario.patientAttention.day = DailyRoutine(wake: F.time("05:00"), sleep: F.time("21:00"), pickupsPerDay: 16)
    let report = try Simulation(scenario).report()
    // The quiet 07:00 delivery is seen at the 07:00 look (looks come after deliveries at an instant).
    #expect(report.summary.dose("a", .time(F.time("07:00")))?.notified == F.at("07:00"))
    #expect(report.timeline.entries(.looked).map { $0[field: "look"] } == ["pickup"])
  }

  @Test func anUnlockIsALookAndALookWhileOffSeesNothing() throws {
    var scenario = sleepingScenario()
    scenario.patientAttention.looks = [ScriptedLook(instant: F.at("07:40"))]
    scenario.device.power = [
      PowerEvent(instant: F.at("07:35"), kind: .switchOff), PowerEvent(instant: F.at("07:50"), kind: .switchOn),
      PowerEvent(instant: F.at("08:10"), kind: .unlock),
    ]
    let report = try Simulation(scenario).report()
    // Listed at 07:30; the look at 07:40 finds the phone off; the unlock at 08:10 sees it.
    #expect(report.summary.dose("a", .time(F.time("07:00")))?.notified == F.at("08:10"))
    #expect(report.timeline.entries(.looked).map { $0[field: "look"] } == ["unlock"])
  }

  /// Provisional authorization lists the 07:00 dose quietly; the patient is awake 06:00–22:00 with 16 looks a day.
  func quietScenario() -> Scenario {
    var scenario = F.scenario(
      MedicineApp(
        medicineChanges: [F.create(F.medicine("a", times: ["07:00"], snooze: nil), at: "06:00")],
        appChanges: [AppChange(instant: F.at("06:00"), permission: .provisional)]),
      start: "2026-03-28T05:00:00Z", end: "2026-04-04T05:00:00Z")
    scenario.patientAttention.day = DailyRoutine(wake: F.time("06:00"), sleep: F.time("22:00"), pickupsPerDay: 16)
    return scenario
  }

  @Test func trialsDrawPickupsAsAPoissonProcessFromTheirOwnSeed() throws {
    // A single run: looks every hour from 06:00, so each 07:00 dose is seen at once.
    let single = try Simulation(quietScenario()).report()
    #expect(single.summary.doses.count == 7)
    #expect(single.summary.doses.allSatisfy { $0.notified == $0.scheduled })

    let one = try TrialRunner(quietScenario()).run(TrialPlan(count: 40, seed: 5, jobs: 1))
    let two = try TrialRunner(quietScenario()).run(TrialPlan(count: 40, seed: 5, jobs: 2))
    #expect(one.text == two.text)
    let latencies = one.doses.flatMap(\.latencies.sorted)
    #expect(latencies.count == 7 * 40)
    // In trials the pickups are a Poisson process with the same mean gap (an hour): the wait from
    // 07:00 to the next pickup varies from trial to trial and averages about an hour.
    #expect(Set(latencies).count > 200)
    let meanMinutes = Double(latencies.reduce(0, +)) / Double(latencies.count) / 60_000
    #expect((45...75).contains(meanMinutes), "mean wait \(meanMinutes) min")
    // Another seed draws other looks.
    let other = try TrialRunner(quietScenario()).run(TrialPlan(count: 40, seed: 6, jobs: 1))
    #expect(other.doses.flatMap(\.latencies.sorted) != latencies)
  }

  @Test func aBurstOfOneDoseSeenAtOneLookIsAnsweredOnceOnItsMostRecentNotification() throws {
    var scenario = F.scenario(
      MedicineApp(
        medicineChanges: [
          F.create(F.medicine("a", times: ["08:00"], snooze: SnoozeChainPolicy(every: .minutes(6), count: 4, scheduling: .upfront)), at: "06:00")
        ],
        responseRules: [ResponseRule(pattern: IdentifierPattern("medicine_a_*"), after: .minutes(1), actions: [.snooze(.minutes(15)), .complete])]),
      start: "2026-03-28T06:00:00Z", end: "2026-03-28T11:00:00Z")
    scenario.platform.attention.powerOffCatchUp = .all
    scenario.device.power = [
      PowerEvent(instant: F.at("07:00"), kind: .switchOff), PowerEvent(instant: F.at("09:00"), kind: .switchOn),
      PowerEvent(instant: F.at("09:05"), kind: .unlock),
    ]
    let report = try Simulation(scenario).report()
    #expect(report.timeline.entries(.looked).count == 5)
    let actions = report.timeline.entries(.action).map { "\($0.localInstant) \($0.subject) \($0[field: "action"] ?? "")" }
    #expect(actions == [
      "\(F.local("09:06")) medicine_a_snooze_4 snooze 15m", "\(F.local("09:22")) medicine_a_snooze_4 complete",
    ])
  }
}
