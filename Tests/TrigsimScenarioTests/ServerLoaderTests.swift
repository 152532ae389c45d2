import Testing
import TrigsimCore
import TrigsimTestSupport

@testable import TrigsimScenario

/// The `server:` section (`ScenarioReader.readServer`), `policy: dailyReminders`
/// and the channel assertions: values as written, defaults, and each bad
/// value at its line and column with what to do.
@Suite struct ServerLoaderTests: LoaderDiagnosticAssertions {
  static let header = """
    trigsim: 1
    clock: { start: 2026-05-05T07:00:00+02:00, end: 2026-05-06T09:00:00+02:00, timezone: Europe/Copenhagen }
    medicines:
      - { id: met, name: Metformin, dosage: 500, unit: mg, times: ["08:00"] }

    """

  func load(_ yaml: String) throws -> ScenarioFile { try ScenarioLoader().loadFile(yaml: yaml, file: "s.yaml", defaultName: "s") }

  @Test func aScenarioWithoutServerHasNone() throws {
    let scenario = try load(Self.header).scenario
    #expect(scenario.server == ServerSettings())
    #expect(!scenario.server.isActive)
    #expect(scenario.medicineApp.policy.dailyReminders == .local)
  }

  @Test func everySettingIsReadAsWritten() throws {
    let scenario = try load(
      Self.header + """
        policy: { dailyReminders: server }
        server:
          policy:
            - { channel: push }
            - { channel: email, if: push-failed }
            - { channel: sms, after: 30m, if: always }
          push: { unregisteredAfter: 2d }
          sms: { verified: false, latency: 5s, latencySpread: 2s, failureRate: 0.1, carrierStorage: 48h }
          email: { latency: 2m, latencySpread: 30s, failureRate: 0.01, reads: ["07:30", "20:00"], meanReadDelay: 6h }
          inbox: { pollInterval: 10m, fetchOnOpen: false }
          channels: { email: off, inbox: on }
          quietHours: { sms: { from: "22:00", to: "07:00" } }
          devices:
            - { id: ipad, platform: ios, seenAfter: 5m }
            - { id: phone, signedIn: false }
          changes:
            - { at: 2026-05-05T12:00:00, signIn: phone }
            - { at: 2026-05-05T10:00:00, channels: { sms: off } }
            - { at: 2026-05-05T13:00:00, refreshToken: ipad }
            - { at: 2026-05-05T14:00:00, deleteApp: ipad }
            - { at: 2026-05-05T15:00:00, quietHours: { sms: { enabled: false } } }
            - { at: 2026-05-05T16:00:00, smsNumber: verified }
            - { at: 2026-05-05T17:00:00, signOut: phone }

        """).scenario
    let server = scenario.server
    #expect(scenario.medicineApp.policy.dailyReminders == .server)
    #expect(server.policy.map(\.channel) == [.push, .email, .sms])
    #expect(server.policy.map(\.after) == [.seconds(0), .seconds(0), .minutes(30)])
    #expect(server.policy.map(\.condition) == [.unconfirmed, .pushFailed, .always])
    #expect(server.push.unregisteredAfter == .hours(48))
    #expect(!server.sms.numberVerified && server.sms.latency == .seconds(5) && server.sms.latencySpread == .seconds(2))
    #expect(server.sms.failureRate == 0.1 && server.sms.carrierStorage == .hours(48))
    #expect(server.email.latency == .minutes(2) && server.email.latencySpread == .seconds(30) && server.email.failureRate == 0.01)
    #expect(server.email.reads == [DailyTime(hour: 7, minute: 30), DailyTime(hour: 20, minute: 0)] && server.email.meanReadDelay == .hours(6))
    #expect(server.inbox.pollInterval == .minutes(10) && !server.inbox.fetchOnOpen)
    #expect(server.preferences.off == [.email])
    #expect(server.preferences.quietHours[.sms] == QuietHours(from: DailyTime(hour: 22, minute: 0), to: DailyTime(hour: 7, minute: 0)))
    // The simulated phone comes first, whatever the order written.
    #expect(server.devices.map(\.id) == ["phone", "ipad"])
    #expect(server.devices[0].signedIn == false && server.devices[1].platform == .ios && server.devices[1].seenAfter == .minutes(5))
    // Changes in time order.
    #expect(server.changes.map(\.what) == [
      .channel(.sms, on: false), .signIn(device: "phone"), .tokenRefresh(device: "ipad"), .appDeleted(device: "ipad"),
      .quietHours(.sms, nil), .smsNumber(verified: true), .signOut(device: "phone"),
    ])
    #expect(server.summary.hasPrefix("policy=push,email?push-failed,sms+30m?always "))
  }

  @Test func theDefaultsAreThePessimisticReadings() {
    let server = ServerSettings()
    #expect(server.devices.map(\.id) == ["phone"] && server.devices[0].signedIn)
    #expect(server.push.unregisteredAfter == .hours(24 * 14))
    #expect(server.sms.numberVerified && server.sms.latency == .seconds(30) && server.sms.failureRate == 0.05 && server.sms.carrierStorage == .hours(24))
    #expect(server.email.reads.isEmpty && server.email.meanReadDelay == .hours(16))
    #expect(server.inbox.pollInterval == .minutes(5) && server.inbox.fetchOnOpen)
  }

  @Test func badPolicyStepsAreReportedWhereTheyAre() {
    assertDiagnostics(
      Self.header + """
        server:
          policy:
            - { channel: 1️⃣fax }
            - { channel: sms, after: 30m, if: 2️⃣unread }
            - { channel: email, after: 3️⃣10m }
            - 4️⃣{ after: 1h }

        """,
      [
        Expected(marker: "1️⃣", message: "unknown channel 'fax'"),
        Expected(marker: "2️⃣", message: "unknown step condition 'unread'"),
        Expected(
          marker: "3️⃣", message: "this step's 'after' (10m) is earlier than the step before it (30m)",
          note: "steps run in order, each at the dose's due time plus 'after': list them in order of 'after'"),
        Expected(marker: "4️⃣", message: "a policy step needs a 'channel'"),
      ])
  }

  @Test func aServerNeedsAPolicyAndAServerDrivenAppNeedsAServer() {
    assertDiagnostics(
      Self.header + "server: 1️⃣{ sms: { latency: 5s } }\n",
      [Expected(marker: "1️⃣", message: "a server needs a 'policy': the steps it sends for each dose")])
    assertDiagnostics(
      Self.header + "policy: 1️⃣{ dailyReminders: server }\n",
      [Expected(
        marker: "1️⃣", message: "'dailyReminders: server' leaves the daily reminders to a server, and the scenario has none",
        note: "add a 'server:' with a policy (e.g. 'server: { policy: [ { channel: push } ] }'), or remove 'dailyReminders'")])
  }

  @Test func badChannelValuesAreReportedWhereTheyAre() {
    assertDiagnostics(
      Self.header + """
        server:
          policy: [ { channel: sms } ]
          sms: { failureRate: 1️⃣1.5, carrierStorage: 2️⃣0s }
          email: { reads: [3️⃣"25:00"] }
          channels: { sms: 4️⃣maybe }
          5️⃣pager: { on: true }

        """,
      [
        Expected(marker: "1️⃣", message: "failureRate must be between 0 and 1, not 1.5"),
        Expected(marker: "2️⃣", message: "carrierStorage must be longer than zero and at most 366d, not 0s"),
        Expected(marker: "3️⃣", message: "mail reading time '25:00': hour 25 is outside 0...23"),
        Expected(marker: "4️⃣", message: "sms must be on or off, not 'maybe'"),
        Expected(marker: "5️⃣", message: "unknown key 'pager' in 'server'"),
      ])
  }

  @Test func badDevicesAndChangesAreReportedWhereTheyAre() {
    assertDiagnostics(
      Self.header + """
        server:
          policy: [ { channel: push } ]
          devices:
            - { id: phone, platform: 1️⃣android }
            - { id: ipad, seenAfter: 5m }
            - { id: 2️⃣ipad }
          changes:
            - 3️⃣{ at: 2026-05-05T12:00:00, signIn: phone, signOut: phone }
            - { at: 2026-05-05T12:00:00, signOut: 4️⃣watch }
            - { at: 2026-05-05T12:00:00, deleteApp: 5️⃣phone }
            - 6️⃣{ signOut: phone }

        """,
      [
        Expected(marker: "1️⃣", message: "the simulated phone's platform is the scenario's"),
        Expected(marker: "2️⃣", message: "device 'ipad' is listed twice"),
        Expected(marker: "3️⃣", message: "a server change names one thing, not signIn and signOut"),
        Expected(marker: "4️⃣", message: "unknown device 'watch'"),
        Expected(
          marker: "5️⃣", message: "deleting the app from the simulated phone is not modelled",
          note: "delete it from another of the patient's devices (list one under 'server: devices:'), or sign the phone out with 'signOut: phone'"),
        Expected(marker: "6️⃣", message: "a server change needs 'at'"),
      ])
  }

  @Test func theDevicesMustIncludeTheSimulatedPhone() {
    assertDiagnostics(
      Self.header + """
        server:
          policy: [ { channel: push } ]
          devices: 1️⃣[ { id: ipad } ]

        """,
      [Expected(marker: "1️⃣", message: "the devices must include the simulated phone, 'phone'", note: "add '- { id: phone }' (with 'signedIn: false' if it starts signed out)")])
  }

  @Test func channelAssertionsAreReadAndNeedAServer() throws {
    let file = try load(
      Self.header + """
        server:
          policy: [ { channel: push }, { channel: sms, after: 30m } ]
          channels: { sms: off }
          changes: [ { at: 2026-05-05T10:00:00, channels: { sms: on } } ]
        assert:
          - dosesReached: { within: 45m, by: [sms, push], medicine: met }
          - dosesReached: { within: 1h }
          - noSendAfterAnswer: { channel: sms }
          - noSendWhileChannelOff: { channel: sms }

        """)
    let properties = file.checks.assertions.map(\.property)
    #expect(properties.count == 4)
    guard properties.count == 4 else { return }
    guard case .dosesReached(let within, let medicine, let channels) = properties[0] else { Issue.record("\(properties[0])"); return }
    #expect(within == .minutes(45) && medicine == "met" && channels == [.sms, .push])
    guard case .dosesReached(let anyWithin, nil, let anyChannels) = properties[1] else { Issue.record("\(properties[1])"); return }
    #expect(anyWithin == .hours(1) && anyChannels.isEmpty)
    guard case .noSendAfterAnswer(.sms) = properties[2] else { Issue.record("\(properties[2])"); return }
    guard case .noSendWhileChannelOff(.sms, let initiallyOn, let switches) = properties[3] else { Issue.record("\(properties[3])"); return }
    let switchedOn = try #require(file.scenario.server.changes.first?.instant)
    #expect(!initiallyOn && switches == [ChannelSwitch(instant: switchedOn, on: true)])

    assertDiagnostics(
      Self.header + """
        assert:
          - dosesReached: { within: 45m, by: 1️⃣[sms] }
          - 2️⃣noSendAfterAnswer: { channel: sms }
          - noSendWhileChannelOff: { channel: 3️⃣fax }

        """,
      [
        Expected(marker: "1️⃣", message: "'by' names the server's channels, and the scenario has no server"),
        Expected(marker: "2️⃣", message: "'noSendAfterAnswer' checks the server's messages, and the scenario has no server"),
        Expected(marker: "3️⃣", message: "unknown channel 'fax'"),
      ])
  }
}
