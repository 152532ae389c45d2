import Foundation
import Testing
import TrigsimTestSupport

@testable import TrigsimCore

/// Firebase Cloud Messaging on the Android device (`FCMTransport`): a test
/// per rule. The phone is untouched from 07:00, so it dozes from 08:00, with
/// maintenance windows at 09:00 and 11:00:30.
@Suite struct FCMTransportTests {
  static func push(_ id: String, _ time: String, priority: Int = 10, title: String? = "T", data: Bool = false, channel: String? = nil) -> RemotePush {
    RemotePush(
      id: PushID(id), instant: Build.instant("2026-05-04T\(time)Z"), title: data ? nil : title, sound: true, contentAvailable: data, priority: priority,
      channel: channel)
  }

  /// An app with the dose channel and the notification permission; a data message makes it post `posts`.
  static func app(postsOnData: Bool = false) -> AndroidScript {
    var script = AndroidScript()
    script.created = { app in
      app.createDoseChannel()
      _ = await app.device.notificationManager.requestPermission()
    }
    if postsOnData { script.message = { app, message in app.notifyDose("from_\(message.messageID)") } }
    return script
  }

  static func run(
    _ pushes: [RemotePush], script: AndroidScript = app(), log: AppLog = AppLog(), defaultChannel: String? = nil,
    _ configure: (inout Scenario) -> Void = { _ in }
  ) throws -> SimulationReport {
    var scenario = AndroidScenario.make()
    scenario.pushes.pushes = pushes
    configure(&scenario)
    return try Simulation(scenario, app: ScriptedAndroidApp.hosted(script, log: log, defaultChannel: defaultChannel)).report()
  }

  /// `HH:MM subject` of each entry of `kind`.
  static func entries(_ report: SimulationReport, _ kind: TimelineEntry.Kind) -> [String] {
    report.timeline.entries.filter { $0.kind == kind }.map { "\($0.localInstant.dropFirst(11).prefix(5)) \($0.subject)" }
  }

  static func field(_ report: SimulationReport, _ kind: TimelineEntry.Kind, _ subject: String, _ key: String) -> String? {
    report.timeline.entries.first { $0.kind == kind && $0.subject == subject }?.fields.first { $0.key == key }?.value
  }

  // MARK: - Priority in Doze

  @Test func aHighPriorityMessageIsDeliveredAtOnceInDoze() throws {
    let log = AppLog()
    let report = try Self.run([Self.push("recall", "08:30:00")], log: log)
    #expect(Self.entries(report, .received) == ["08:30 recall"])
    #expect(Self.field(report, .received, "recall", "to") == "system-tray")
    #expect(Self.field(report, .received, "recall", "fcm-priority") == "high")
    // The system shows a notification message of an app in the background: its code does not run.
    #expect(!log.all.contains { $0.contains("onMessageReceived") })
    #expect(!report.timeline.entries.contains { $0.kind == .suppressed })
  }

  @Test func aNormalPriorityMessageInDozeWaitsUntilThePhoneLeavesDoze() throws {
    let report = try Self.run([Self.push("note", "08:30:00", priority: 5)]) { scenario in
      scenario.device.power = [PowerEvent(instant: Build.instant("2026-05-04T10:15:00Z"), kind: .unlock)]
    }
    #expect(Self.entries(report, .stored) == ["08:30 note"])
    #expect(Self.field(report, .stored, "note", "until") == "2026-05-04T10:15:00.000+00:00")
    #expect(Self.entries(report, .received) == ["10:15 note"])
  }

  @Test func withTheMaintenanceWindowReadingANormalPriorityMessageComesAtTheNextWindow() throws {
    let report = try Self.run([Self.push("note", "08:30:00", priority: 5)]) { scenario in
      scenario.platform.android?.fcm.normalPriorityInDoze = .maintenanceWindow
    }
    #expect(Self.entries(report, .received) == ["09:00 note"])
  }

  @Test func aNormalPriorityMessageOutsideDozeIsDeliveredAtOnce() throws {
    let report = try Self.run([Self.push("note", "07:30:00", priority: 5)])
    #expect(Self.entries(report, .received) == ["07:30 note"])
    #expect(Self.entries(report, .stored) == [])
  }

  @Test func aNormalPriorityMessageThatDozeHoldsPastTheRunsEndIsNeverReceived() throws {
    let report = try Self.run([Self.push("note", "11:30:00", priority: 5)])
    #expect(Self.field(report, .stored, "note", "until") == "after the run")
    #expect(Self.entries(report, .received) == [])
  }

  @Test func theDeviceHeaderOnAndroidNamesOnlyTheBootTimeNotTheIPhonesPushRules() throws {
    let report = try Self.run([Self.push("recall", "08:30:00")])
    #expect(report.timeline.header.first { $0.key == "device" }?.value == "boot=1m")
  }

  // MARK: - Who gets it

  @Test func aDataMessageRunsOnMessageReceivedWithItsPriority() throws {
    let log = AppLog()
    let report = try Self.run([Self.push("sync", "08:30:00", data: true)], log: log)
    #expect(log.all.contains("#1 onMessageReceived sync high"))
    #expect(Self.field(report, .received, "sync", "to") == "onMessageReceived")
  }

  @Test func aNotificationMessageReachesTheAppInTheForegroundAndIsNotShownByTheSystem() throws {
    let log = AppLog()
    let report = try Self.run([Self.push("hello", "07:10:00")], log: log) { scenario in
      var open = AppChange(instant: Build.instant("2026-05-04T07:05:00Z"))
      open.state = .foreground
      scenario.medicineApp.appChanges.append(open)
    }
    #expect(log.all.contains("#1 onMessageReceived hello high"))
    #expect(Self.field(report, .received, "hello", "to") == "onMessageReceived")
    #expect(!report.timeline.entries.contains { $0.kind == .presented && $0.subject == "hello" })
  }

  @Test func aForceStoppedAppReceivesNoMessage() throws {
    let log = AppLog()
    let report = try Self.run([Self.push("sync", "07:30:00", data: true), Self.push("recall", "07:40:00")], log: log) { scenario in
      var stop = AppChange(instant: Build.instant("2026-05-04T07:20:00Z"))
      stop.state = .forceQuit
      scenario.medicineApp.appChanges.append(stop)
    }
    #expect(Self.entries(report, .suppressed) == ["07:30 sync", "07:40 recall"])
    #expect(Self.entries(report, .received) == [])
    #expect(!log.all.contains { $0.contains("onMessageReceived") })
  }

  // MARK: - Deprioritization

  @Test func aHighPriorityMessageThatShowedNothingMakesFCMDeprioritizeTheNext() throws {
    let report = try Self.run([Self.push("sync", "07:30:00", data: true), Self.push("refill", "08:30:00")]) { scenario in
      scenario.device.power = [PowerEvent(instant: Build.instant("2026-05-04T10:00:00Z"), kind: .unlock)]
    }
    #expect(Self.entries(report, .stored) == ["08:30 refill"])
    #expect(Self.entries(report, .received) == ["07:30 sync", "10:00 refill"])
    #expect(Self.field(report, .received, "refill", "fcm-priority") == "normal")
    #expect(Self.field(report, .received, "refill", "sent-as") == "high")
    #expect(Self.field(report, .received, "refill", "reason")?.contains("deprioritized") == true)
  }

  @Test func aDataMessageWhoseCodePostsANotificationDoesNotDeprioritize() throws {
    let report = try Self.run([Self.push("sync", "07:30:00", data: true), Self.push("refill", "08:30:00")], script: Self.app(postsOnData: true))
    #expect(Self.entries(report, .received) == ["07:30 sync", "08:30 refill"])
    #expect(Self.field(report, .received, "refill", "fcm-priority") == "high")
  }

  @Test func deprioritizationOffDeliversEveryHighPriorityMessageAtOnce() throws {
    let report = try Self.run([Self.push("sync", "07:30:00", data: true), Self.push("refill", "08:30:00")]) { scenario in
      scenario.platform.android?.fcm.deprioritizeAfterUnnotified = 0
    }
    #expect(Self.entries(report, .received) == ["07:30 sync", "08:30 refill"])
  }

  @Test func deprioritizationLooksBackOnlyOverItsWindow() throws {
    let report = try Self.run([Self.push("sync", "07:30:00", data: true), Self.push("refill", "08:30:00")]) { scenario in
      scenario.platform.android?.fcm.deprioritizationWindow = .minutes(30)
    }
    #expect(Self.entries(report, .received) == ["07:30 sync", "08:30 refill"])
  }

  // MARK: - Standby bucket quotas

  /// Six high-priority notification messages in Doze, one a minute from 08:10, with the app in the rare bucket.
  static func sixInRareBucket(android version: Int, scope: BucketAlarmLimitScope = .beforeAndroid13) throws -> SimulationReport {
    try run((0..<6).map { push("m\($0)", "08:1\($0):00") }) { scenario in
      scenario.platform.android?.alarms.androidVersion = version
      scenario.platform.android?.alarms.standbyBucket = .rare
      scenario.platform.android?.fcm.bucketQuotaScope = scope
      scenario.device.power = [PowerEvent(instant: Build.instant("2026-05-04T10:00:00Z"), kind: .unlock)]
    }
  }

  @Test func onAndroid12TheRareBucketsQuotaTurnsTheSixthHighPriorityMessageIntoANormalOne() throws {
    let report = try Self.sixInRareBucket(android: 12)
    #expect(Self.entries(report, .received) == ["08:10 m0", "08:11 m1", "08:12 m2", "08:13 m3", "08:14 m4", "10:00 m5"])
    #expect(Self.field(report, .stored, "m5", "reason")?.hasPrefix("standby bucket rare allows 5 high-priority messages a day") == true)
  }

  @Test func onAndroid14TheBucketQuotaDoesNotApplyAsDocumented() throws {
    let report = try Self.sixInRareBucket(android: 14)
    #expect(Self.entries(report, .received) == ["08:10 m0", "08:11 m1", "08:12 m2", "08:13 m3", "08:14 m4", "08:15 m5"])
  }

  @Test func theBucketQuotaOnEveryVersionWhenSetSo() throws {
    let report = try Self.sixInRareBucket(android: 14, scope: .allVersions)
    #expect(Self.entries(report, .received).last == "10:00 m5")
  }

  // MARK: - Storage while unreachable

  static func offline(from: String, to: String) -> [NetworkChange] {
    [NetworkChange(instant: Build.instant("2026-05-04T\(from)Z"), online: false), NetworkChange(instant: Build.instant("2026-05-04T\(to)Z"), online: true)]
  }

  @Test func aMessageWithTimeToLiveZeroIsDiscardedWhenThePhoneIsUnreachable() throws {
    var now = Self.push("live", "07:20:00")
    now.expiration = now.instant
    let report = try Self.run([now]) { $0.device.network = Self.offline(from: "07:10:00", to: "07:30:00") }
    #expect(Self.entries(report, .discarded) == ["07:20 live"])
    #expect(Self.entries(report, .received) == [])
  }

  @Test func storedMessagesAreAllDeliveredWhenThePhoneIsBackUnlikeAPNsWhichKeepsOne() throws {
    let report = try Self.run([Self.push("a", "07:15:00"), Self.push("b", "07:20:00")]) { $0.device.network = Self.offline(from: "07:10:00", to: "07:30:00") }
    #expect(Self.entries(report, .stored) == ["07:15 a", "07:20 b"])
    #expect(Self.entries(report, .received) == ["07:30 a", "07:30 b"])
  }

  @Test func aCollapsibleMessageReplacesTheStoredOneWithItsKey() throws {
    var first = Self.push("score1", "07:15:00")
    first.collapseID = "score"
    var second = Self.push("score2", "07:20:00")
    second.collapseID = "score"
    let report = try Self.run([first, second]) { $0.device.network = Self.offline(from: "07:10:00", to: "07:30:00") }
    #expect(Self.entries(report, .discarded) == ["07:20 score1"])
    #expect(Self.entries(report, .received) == ["07:30 score2"])
  }

  /// Five messages with five collapse keys, 07:12 to 07:20, while the phone is offline from 07:10 to 07:30.
  static let fiveKeys: [RemotePush] = (1...5).map { number in
    var push = Self.push("k\(number)", "07:\(10 + 2 * number):00")
    push.collapseID = "key\(number)"
    return push
  }

  static func runFiveKeys(trial: Int? = nil, _ configure: @escaping (inout Scenario) -> Void = { _ in }) throws -> SimulationReport {
    var scenario = AndroidScenario.make()
    scenario.pushes.pushes = fiveKeys
    scenario.device.network = offline(from: "07:10:00", to: "07:30:00")
    configure(&scenario)
    let simulation = Simulation(scenario, app: ScriptedAndroidApp.hosted(app(), log: AppLog(), defaultChannel: nil))
    return try trial.map { try simulation.report(trial: $0, seed: 42) } ?? simulation.report()
  }

  @Test func pastFourCollapseKeysTheNewMessageIsDiscardedByDefaultMarkedUncertainAndTheSettingConsulted() throws {
    let report = try Self.runFiveKeys()
    #expect(Self.entries(report, .discarded) == ["07:20 k5"])
    #expect(Self.field(report, .discarded, "k5", "reason")
      == "FCM stores at most 4 collapse keys for a device, with no guarantee which it keeps; it keeps the 4 it holds (platform storedCollapseKeysKept: oldest)")
    #expect(Self.field(report, .discarded, "k5", "uncertain") != nil)
    #expect(Self.entries(report, .received) == ["07:30 k1", "07:30 k2", "07:30 k3", "07:30 k4"])
    #expect(report.summary.consultedAssumptions == [.storedCollapseKeysKept])
  }

  @Test func underNewestTheKeyStoredLongestIsDiscarded() throws {
    let report = try Self.runFiveKeys { $0.updateAndroidRules { $0.fcm.collapseKeysKept = .newest } }
    #expect(Self.entries(report, .discarded) == ["07:20 k1"])
    #expect(Self.field(report, .discarded, "k1", "reason")
      == "FCM stores at most 4 collapse keys for a device, with no guarantee which it keeps; it discards collapse key 'key1' for 'k5' (platform storedCollapseKeysKept: newest)")
    #expect(Self.entries(report, .received) == ["07:30 k2", "07:30 k3", "07:30 k4", "07:30 k5"])
  }

  @Test func aTrialDrawsTheDiscardedCollapseKeyAmongTheFiveFromItsSeed() throws {
    var discarded: Set<String> = []
    for trial in 0..<40 {
      let report = try Self.runFiveKeys(trial: trial)
      let dropped = Self.entries(report, .discarded)
      #expect(dropped.count == 1, "trial \(trial)")
      #expect(Self.entries(report, .received).count == 4, "trial \(trial)")
      let subject = String(dropped.first?.dropFirst(6) ?? "")
      #expect(Self.field(report, .discarded, subject, "reason")?.hasSuffix("(this trial draws the one discarded among the 5 keys)") == true)
      discarded.insert(subject)
      // The same trial draws the same key.
      #expect(Self.entries(try Self.runFiveKeys(trial: trial), .discarded) == dropped)
    }
    // Each of the five can be the one (40 draws of five: all five appear unless the stream is broken).
    #expect(discarded == ["k1", "k2", "k3", "k4", "k5"])
  }

  @Test func aNormalPriorityMessageHeldWhenAMaintenanceWindowComesFirstConsultsNormalPriorityInDoze() throws {
    // 08:30 in Doze: the 09:00 window comes before the 10:15 unlock, so the two readings differ.
    let held = try Self.run([Self.push("note", "08:30:00", priority: 5)]) { scenario in
      scenario.device.power = [PowerEvent(instant: Build.instant("2026-05-04T10:15:00Z"), kind: .unlock)]
    }
    #expect(held.summary.consultedAssumptions == [.normalPriorityInDoze])
    // Outside Doze nothing is held and nothing is consulted.
    #expect(try Self.run([Self.push("note", "07:30:00", priority: 5)]).summary.consultedAssumptions.isEmpty)
  }

  @Test func overTheStoredLimitEveryStoredMessageIsDiscardedAndTheAppHearsOnDeletedMessages() throws {
    let log = AppLog()
    let pushes = [Self.push("a", "07:12:00"), Self.push("b", "07:14:00"), Self.push("c", "07:16:00")]
    let report = try Self.run(pushes, log: log) { scenario in
      scenario.platform.android?.fcm.storedMessageLimit = 2
      scenario.device.network = Self.offline(from: "07:10:00", to: "07:30:00")
    }
    #expect(Self.entries(report, .discarded) == ["07:16 a", "07:16 b", "07:16 c"])
    #expect(Self.entries(report, .received) == [])
    #expect(log.all.last == "#1 onDeletedMessages")
  }

  @Test func aStoredMessageWhoseTimeToLiveEndsIsDiscardedAtReconnection() throws {
    var short = Self.push("short", "07:15:00")
    short.expiration = Build.instant("2026-05-04T07:20:00Z")
    let report = try Self.run([short]) { $0.device.network = Self.offline(from: "07:10:00", to: "07:30:00") }
    #expect(Self.entries(report, .discarded) == ["07:30 short"])
  }

  // MARK: - Channels

  @Test func aNotificationMessageIsShownInItsChannelElseTheManifestsElseFCMsFallback() throws {
    let pushes = [
      Self.push("named", "07:10:00", channel: "doses"), Self.push("unknown", "07:20:00", channel: "family"), Self.push("none", "07:30:00"),
    ]
    let withDefault = try Self.run(pushes, defaultChannel: "doses")
    #expect(["named", "unknown", "none"].map { Self.field(withDefault, .received, $0, "channel") } == ["doses", "doses", "doses"])
    let without = try Self.run(pushes)
    #expect(["named", "unknown", "none"].map { Self.field(without, .received, $0, "channel") } == ["doses", FCMTransport.fallbackChannel, FCMTransport.fallbackChannel])
    // The FCM library creates its fallback channel once, with default importance: sound, no heads-up banner.
    let created = without.timeline.entries.filter {
      $0.kind == .app && $0.subject == "channel" && $0.fields.contains(TimelineField("id", FCMTransport.fallbackChannel))
    }
    #expect(created.count == 1)
    #expect(created.first?.fields.contains(TimelineField("importance", "default")) == true)
    #expect(Self.field(without, .presented, "none", "how") == "lock-screen+sound")
  }
}
