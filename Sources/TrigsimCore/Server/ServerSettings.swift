import Foundation

/// A way the app's reminder server reaches the patient.
public struct DeliveryChannel: RawRepresentable, Hashable, Sendable, CaseIterable, Comparable, CustomStringConvertible {
  /// The channel's name, as a policy step and the timeline write it.
  public let rawValue: String

  /// A channel named `name`: one the server ships (`allCases`), or one a
  /// team registers with the server (`PolicyServer.register(_:)`).
  public init(_ name: String) { rawValue = name }

  /// A channel a scenario can name: one the server ships; nil for any other name.
  public init?(rawValue: String) {
    guard Self.allCases.contains(where: { $0.rawValue == rawValue }) else { return nil }
    self.rawValue = rawValue
  }

  /// A remote push through the platform's push service (APNs, FCM) to every registered device.
  public static let push = DeliveryChannel("push")
  /// A text message to the patient's phone number.
  public static let sms = DeliveryChannel("sms")
  /// An email to the patient's address.
  public static let email = DeliveryChannel("email")
  /// An item in the app's own inbox, which the app fetches while it is open.
  public static let inbox = DeliveryChannel("inbox")

  /// The channels the server ships, in the order they are listed and sorted.
  public static let allCases: [DeliveryChannel] = [.push, .sms, .email, .inbox]

  public var description: String { rawValue }

  /// The shipped channels in `allCases` order, then any other by name.
  public static func < (lhs: Self, rhs: Self) -> Bool {
    let left = allCases.firstIndex(of: lhs) ?? allCases.count, right = allCases.firstIndex(of: rhs) ?? allCases.count
    return left != right ? left < right : lhs.rawValue < rhs.rawValue
  }
}

/// The app's reminder server (`server:` in a scenario): what it sends for
/// each prescribed dose, on which channel and when, the patient's channel
/// settings in the app, and the devices registered for pushes.
///
/// The server is an actor of the world beside the clock and the track: it
/// knows the prescription (the patient entered it in the app), learns of a
/// confirmation when the phone can reach it, and follows `policy` step by
/// step for every daily-time dose. A scenario without `server:` has none,
/// and its runs are exactly as before.
public struct ServerSettings: Sendable, Equatable {
  /// The escalation policy, in order; empty: no server.
  public var policy: [EscalationStep] = []
  public var sms = SMSChannelModel()
  public var email = EmailChannelModel()
  public var inbox = InboxChannelModel()
  public var push = PushChannelModel()
  /// The patient's devices that can register for pushes; the first is the
  /// simulated phone (`phone`), the others are devices trigsim does not simulate.
  public var devices: [ServerDevice] = [ServerDevice(id: ServerDevice.phone)]
  /// The patient's channel settings in the app at the start: every channel on, no quiet hours.
  public var preferences = ChannelPreferences()
  /// What changes over the run (settings, sign-in and sign-out, token refresh, app deletion), in time order.
  public var changes: [ServerChange] = []
  /// Where the scenario states `server:`, for messages.
  public var origin: InputLocation?

  public init() {}

  /// Whether the scenario has a server: a policy with at least one step.
  public var isActive: Bool { !policy.isEmpty }

  /// The `server` header line: the policy, then each channel model and the
  /// settings at the start (`policy=push,sms+30m,email+0s?push-failed devices=phone,ipad …`).
  public var summary: String {
    let steps = policy.map { step in
      step.channel.rawValue + (step.after.milliseconds > 0 ? "+\(step.after)" : "") + (step.condition == .unconfirmed ? "" : "?\(step.condition.rawValue)")
    }
    var words = ["policy=" + steps.joined(separator: ",")]
    let used = Set(policy.map(\.channel))
    if used.contains(.push) { words.append("push-unregistered-after=\(push.unregisteredAfter)") }
    if used.contains(.sms) {
      words.append("sms-number=\(sms.numberVerified ? "verified" : "none") sms-latency=\(sms.latency)±\(sms.latencySpread) sms-failure-rate=\(sms.failureRate) sms-carrier-storage=\(sms.carrierStorage)")
    }
    if used.contains(.email) {
      let reads = email.reads.isEmpty ? "none" : email.reads.map(\.description).joined(separator: ",")
      words.append("email-latency=\(email.latency)±\(email.latencySpread) email-failure-rate=\(email.failureRate) email-reads=\(reads) email-mean-read-delay=\(email.meanReadDelay)")
    }
    if used.contains(.inbox) { words.append("inbox-poll=\(inbox.pollInterval) inbox-fetch-on-open=\(inbox.fetchOnOpen ? "yes" : "no")") }
    if !preferences.off.isEmpty { words.append("off=" + preferences.off.sorted().map(\.rawValue).joined(separator: ",")) }
    for channel in DeliveryChannel.allCases {
      if let hours = preferences.quietHours[channel] { words.append("\(channel.rawValue)-quiet-hours=\(hours.from)-\(hours.to)") }
    }
    let devices = devices.map { device in
      device.id + (device.platform.map { ":\($0.rawValue)" } ?? "") + (device.signedIn ? "" : "(signed-out)") + (device.seenAfter.map { "(seen+\($0))" } ?? "")
    }
    words.append("devices=" + devices.joined(separator: ","))
    return words.joined(separator: " ")
  }

  /// What a trial draws for the server's channels (the trial report's
  /// header), or nil when its policy uses no channel with draws.
  var trialDraws: String? {
    let used = Set(policy.map(\.channel))
    var parts: [String] = []
    if used.contains(.sms) {
      parts.append("each text's latency uniform within \(sms.latency) ± \(sms.latencySpread), undelivered with probability \(sms.failureRate)")
    }
    if used.contains(.email) {
      parts.append("each email's latency uniform within \(email.latency) ± \(email.latencySpread), lost with probability \(email.failureRate), read after an exponential delay of mean \(email.meanReadDelay)")
    }
    return parts.isEmpty ? nil : "the server's channels: " + parts.joined(separator: "; ")
  }

  /// The server the run talks to: the policy's, or none.
  func makeServerLayer() -> any ServerLayer { isActive ? PolicyServer(self) : NoServer() }
}

/// One step of the escalation policy: send on `channel` at the dose's due
/// instant plus `after`, if `condition` holds then.
public struct EscalationStep: Sendable, Equatable {
  public var channel: DeliveryChannel
  /// From the dose's due instant; steps are in non-decreasing order of `after`.
  public var after: SimulationDuration
  public var condition: StepCondition
  public var origin: InputLocation?

  public init(channel: DeliveryChannel, after: SimulationDuration = .seconds(0), condition: StepCondition = .unconfirmed, origin: InputLocation? = nil) {
    self.channel = channel
    self.after = after
    self.condition = condition
    self.origin = origin
  }
}

/// When a step sends.
public enum StepCondition: String, Sendable, CaseIterable {
  /// The server has not heard that the dose was taken or skipped (the default).
  case unconfirmed
  /// Unconfirmed, and the dose's last push attempt reached no device: no
  /// device was registered, or the push service rejected every token.
  case pushFailed = "push-failed"
  /// Whatever the server knows.
  case always
}

/// The patient's channel settings in the app: each channel on or off, and
/// quiet hours per channel (device local time). A step whose channel is off
/// is skipped; one due in its channel's quiet hours waits for their end.
public struct ChannelPreferences: Sendable, Equatable {
  /// Channels switched off; every other channel is on.
  public var off: Set<DeliveryChannel> = []
  public var quietHours: [DeliveryChannel: QuietHours] = [:]

  public init() {}
}

/// A device of the patient's that registers with the server for pushes.
public struct ServerDevice: Sendable, Equatable {
  /// The simulated phone's identifier.
  public static let phone = "phone"
  public var id: String
  /// `ios` or `android`: which push service answers for it. The simulated
  /// phone's is the scenario's platform.
  public var platform: PlatformName?
  /// Signed in (its token registered) at the start.
  public var signedIn = true
  /// For a device trigsim does not simulate: how long after a push reaches
  /// it the patient sees it; nil (the default): never counted as seen.
  public var seenAfter: SimulationDuration?
  public var origin: InputLocation?

  public init(id: String, platform: PlatformName? = nil, signedIn: Bool = true, seenAfter: SimulationDuration? = nil, origin: InputLocation? = nil) {
    self.id = id
    self.platform = platform
    self.signedIn = signedIn
    self.seenAfter = seenAfter
    self.origin = origin
  }

  public var isSimulatedPhone: Bool { id == Self.phone }
}

/// Something that changes for the server at an instant.
public struct ServerChange: Sendable, Equatable {
  public enum What: Sendable, Equatable {
    /// The patient turns a channel on or off in the app.
    case channel(DeliveryChannel, on: Bool)
    /// The patient sets (or, nil, clears) a channel's quiet hours.
    case quietHours(DeliveryChannel, QuietHours?)
    /// The patient signs in on a device: the app registers its push token.
    case signIn(device: String)
    /// The patient signs out: the app unregisters the device's token first.
    case signOut(device: String)
    /// The push service issues the device a new token; the app sends it to the server, which replaces the old one.
    case tokenRefresh(device: String)
    /// The app is deleted from a device: its token is invalid, and the server is not told.
    case appDeleted(device: String)
    /// The patient verifies (or removes) the phone number SMS go to.
    case smsNumber(verified: Bool)
  }

  public var instant: SimulationInstant
  public var what: What
  public var origin: InputLocation?

  public init(instant: SimulationInstant, what: What, origin: InputLocation? = nil) {
    self.instant = instant
    self.what = what
    self.origin = origin
  }
}

// MARK: - Channel models

/// The push channel's server-side rules (the manual, "Server side"): the
/// device's own push path (APNs or FCM, store-and-forward, Focus, the
/// patient's looks) does the rest.
public struct PushChannelModel: Sendable, Equatable {
  /// How long after the app is deleted the push service keeps accepting
  /// pushes to its token before it answers "unregistered" (APNs 410
  /// Unregistered, FCM 404 UNREGISTERED). Apple and Google give no figure;
  /// developers report APNs accepting pushes two weeks after an uninstall
  /// (sideshow/apns2 #77, node-apn/node-apn #824), so the default is 14 days:
  /// until then a push to the deleted app is accepted and goes nowhere.
  public var unregisteredAfter = SimulationDuration.seconds(14 * 86_400)

  public init() {}
}

/// Text messages (the manual, "Server side"): sent only to a verified
/// number; delivered after `latency`; while the phone cannot receive (off,
/// airplane mode, no network) the carrier stores the message for up to
/// `carrierStorage`, then gives up. In trials the latency is drawn within
/// `latency ± latencySpread` and a message fails with `failureRate`.
public struct SMSChannelModel: Sendable, Equatable {
  /// Whether the patient's number is verified at the start. Default true.
  public var numberVerified = true
  public var latency = SimulationDuration.seconds(30)
  public var latencySpread = SimulationDuration.seconds(30)
  /// Trials only: the chance a message is not delivered.
  public var failureRate = 0.05
  public var carrierStorage = SimulationDuration.seconds(24 * 3600)

  public init() {}
}

/// Email: delivered to the mailbox after `latency` (the phone plays no
/// part); perceived only when the patient reads mail: at the first of the
/// daily `reads` at or after delivery in a single run (none: never), after a
/// delay drawn from an exponential distribution of mean `meanReadDelay` in trials.
public struct EmailChannelModel: Sendable, Equatable {
  public var latency = SimulationDuration.seconds(60)
  public var latencySpread = SimulationDuration.seconds(60)
  /// Trials only: the chance a message is not delivered (a bounce or the spam folder).
  public var failureRate = 0.0
  /// When the patient reads mail, device local time, every day.
  public var reads: [DailyTime] = []
  public var meanReadDelay = SimulationDuration.seconds(16 * 3600)

  public init() {}
}

/// The app's in-app inbox: the server posts an item at once; the app
/// fetches the inbox when it comes to the foreground and every
/// `pollInterval` while it stays there; an item is perceived when a fetch
/// while the app is open brings it.
public struct InboxChannelModel: Sendable, Equatable {
  public var pollInterval = SimulationDuration.seconds(300)
  /// Whether the app fetches the inbox the moment it is opened (else at its first poll).
  public var fetchOnOpen = true

  public init() {}
}
