import Foundation
import Testing
import TrigsimTestSupport
import TrigsimMedicineApp

@testable import TrigsimCore

private typealias F = MedicineFixture
private typealias S = ServerFixture

/// Seeded properties of the server over generated scenarios: two daily
/// doses, a random policy, random channel settings, devices, mail readings,
/// app openings, a Focus, a time off, looks. Each case names its seed.
@Suite struct ServerPropertyTests {
  static let seeds: [UInt64] = Array(0..<50)

  static func minute(_ minutes: Int64) -> SimulationInstant { F.at("06:00").advanced(by: .minutes(minutes)) }

  static func randomStep(_ random: inout TrialRandom, after: Int64) -> EscalationStep {
    let channel = DeliveryChannel.allCases[Int(random.next(below: 4))]
    let condition = StepCondition.allCases[Int(random.next(below: 3))]
    return EscalationStep(channel: channel, after: .minutes(after), condition: condition)
  }

  /// A scenario drawn from `seed`, and the stream where the drawing stopped, for the variant's own draws.
  static func randomScenario(seed: UInt64) -> (Scenario, TrialRandom) {
    var random = TrialRandom(seed: TrialRandom.trialSeed(0x5E87_E125, trial: Int(seed)))
    var scenario = S.scenario([], localNotifications: random.next(below: 3) == 0, times: ["08:00", "15:00"])
    var after: Int64 = 0
    for _ in 0...random.next(below: 4) {
      after += random.next(below: 7) * 10
      scenario.server.policy.append(randomStep(&random, after: after))
    }
    var server = scenario.server
    server.devices = [ServerDevice(id: ServerDevice.phone, signedIn: random.next(below: 4) != 0)]
    if random.next(below: 2) == 0 {
      server.devices.append(ServerDevice(id: "tablet", platform: .android, seenAfter: random.next(below: 2) == 0 ? .minutes(random.next(below: 120)) : nil))
    }
    server.sms.numberVerified = random.next(below: 5) != 0
    server.email.reads = [F.time("09:00"), F.time("13:00"), F.time("20:00")].filter { _ in random.next(below: 2) == 0 }
    if random.next(below: 3) == 0 {
      let channel = DeliveryChannel.allCases[Int(random.next(below: 4))]
      let from = 7 + random.next(below: 8)
      server.preferences.quietHours[channel] = QuietHours(from: DailyTime(hour: Int(from), minute: 0), to: DailyTime(hour: Int(from + 1 + random.next(below: 4)), minute: 0))
    }
    if random.next(below: 3) == 0 {
      server.changes.append(ServerChange(instant: minute(60 + random.next(below: 600)), what: .signOut(device: ServerDevice.phone)))
    }
    scenario.server = server
    for _ in 0..<random.next(below: 3) {
      let open = 60 + random.next(below: 900)
      scenario.medicineApp.appChanges += [
        AppChange(instant: minute(open), state: .foreground), AppChange(instant: minute(open + 1 + random.next(below: 30)), state: .background),
      ]
    }
    scenario.medicineApp.appChanges.sort { $0.instant < $1.instant }
    if random.next(below: 2) == 0 {
      let from = 60 + random.next(below: 600)
      scenario.device.focus = [FocusPeriod(name: "Work", schedule: .once(from: minute(from), to: minute(from + 30 + random.next(below: 240))))]
    }
    if random.next(below: 3) == 0 {
      let off = 60 + random.next(below: 600)
      scenario.device.power = [PowerEvent(instant: minute(off), kind: .switchOff), PowerEvent(instant: minute(off + 10 + random.next(below: 300)), kind: .switchOn)]
    }
    scenario.patientAttention.looks = (0..<random.next(below: 6)).map { _ in ScriptedLook(instant: minute(60 + random.next(below: 960))) }.sorted { $0.instant < $1.instant }
    return (scenario, random)
  }

  static func notified(_ report: SimulationReport) -> [DoseKey: SimulationInstant] {
    Dictionary(uniqueKeysWithValues: report.summary.doses.compactMap { dose in dose.notified.map { (dose.key, $0) } })
  }

  /// The scenario of `seed` with one of its policy's channels switched off,
  /// from the start (`preferences.off`) or from a drawn instant (a change).
  static func channelOffVariant(seed: UInt64) -> (scenario: Scenario, variant: Scenario, channel: DeliveryChannel) {
    var (scenario, random) = randomScenario(seed: seed)
    scenario.name = "property \(seed)"
    var variant = scenario
    let channel = scenario.server.policy[Int(random.next(below: Int64(scenario.server.policy.count)))].channel
    if random.next(below: 2) == 0 {
      variant.server.preferences.off.insert(channel)
    } else {
      variant.server.changes.append(ServerChange(instant: minute(60 + random.next(below: 600)), what: .channel(channel, on: false)))
      variant.server.changes.sort { $0.instant < $1.instant }
    }
    return (scenario, variant, channel)
  }

  /// The scenario of `seed` with a drawn step appended to its policy, no earlier than its last.
  static func fallbackVariant(seed: UInt64) -> (scenario: Scenario, variant: Scenario, fallback: EscalationStep) {
    var (scenario, random) = randomScenario(seed: seed)
    scenario.name = "property \(seed)"
    var variant = scenario
    let last = scenario.server.policy.last!.after.milliseconds / 60_000
    let fallback = randomStep(&random, after: last + random.next(below: 7) * 10)
    variant.server.policy.append(fallback)
    return (scenario, variant, fallback)
  }

  @Test(arguments: seeds)
  func turningAChannelOffNeverMakesAnyDosePerceivedEarlier(seed: UInt64) throws {
    let (scenario, variant, channel) = Self.channelOffVariant(seed: seed)
    let before = Self.notified(try S.report(scenario))
    let after = Self.notified(try S.report(variant))
    for (dose, at) in after {
      let was = before[dose]
      #expect(was != nil && was! <= at, "seed \(seed), \(channel) off: \(dose.medicine) \(dose.slotLabel) notified at \(at), with the channel on at \(String(describing: was))")
    }
  }

  @Test(arguments: seeds)
  func appendingAFallbackStepNeverLosesADoseNorNotifiesItLater(seed: UInt64) throws {
    let (scenario, variant, fallback) = Self.fallbackVariant(seed: seed)
    let without = Self.notified(try S.report(scenario))
    let with = Self.notified(try S.report(variant))
    for (dose, at) in without {
      let now = with[dose]
      #expect(now != nil && now! <= at, "seed \(seed), fallback \(fallback.channel) after \(fallback.after): \(dose.medicine) \(dose.slotLabel) notified at \(at) without it, \(String(describing: now)) with it")
    }
  }

  @Test(arguments: seeds)
  func everyAttemptIsSentThenDeliveredThenPerceivedAndTheTimelineStaysInTimeOrder(seed: UInt64) throws {
    let (scenario, _) = Self.randomScenario(seed: seed)
    let report = try S.report(scenario)
    for attempt in report.summary.channelAttempts {
      let label = "seed \(seed) \(attempt.subject)"
      if let delivered = attempt.delivered { #expect(attempt.sent.map { $0 <= delivered } == true, "\(label): delivered \(delivered), sent \(String(describing: attempt.sent))") }
      if let perceived = attempt.perceived { #expect(attempt.delivered.map { $0 <= perceived } == true, "\(label): perceived \(perceived), delivered \(String(describing: attempt.delivered))") }
      if attempt.sent == nil { #expect(attempt.failure != nil, "\(label): not sent, and no failure says why") }
      // A dose notified by a server channel was notified no later than this attempt's perception.
      if let perceived = attempt.perceived {
        let notified = report.summary.doses.first { $0.key == attempt.dose }?.notified
        #expect(notified.map { $0 <= perceived } == true, "\(label): perceived \(perceived), the dose notified \(String(describing: notified))")
      }
    }
    let entries = report.timeline.entries
    #expect(zip(entries, entries.dropFirst()).allSatisfy { $0.instant <= $1.instant }, "seed \(seed)")
  }

  /// The properties are not vacuous: the server notifies doses on every
  /// channel in the generated scenarios, and in a good share of seeds the
  /// variant changes when some dose is notified.
  @Test func theGeneratedScenariosExerciseTheProperties() throws {
    var channelsNotifying: Set<DeliveryChannel> = []
    var offChanges = 0
    var fallbackChanges = 0
    for seed in Self.seeds {
      let off = Self.channelOffVariant(seed: seed)
      let base = try S.report(off.scenario)
      channelsNotifying.formUnion(base.summary.doses.compactMap { $0.perception?.channel })
      if Self.notified(base) != Self.notified(try S.report(off.variant)) { offChanges += 1 }
      let fallback = Self.fallbackVariant(seed: seed)
      if Self.notified(base) != Self.notified(try S.report(fallback.variant)) { fallbackChanges += 1 }
    }
    #expect(channelsNotifying == Set(DeliveryChannel.allCases))
    #expect(offChanges >= 5, "\(offChanges) of \(Self.seeds.count) seeds")
    #expect(fallbackChanges >= 5, "\(fallbackChanges) of \(Self.seeds.count) seeds")
  }
}
