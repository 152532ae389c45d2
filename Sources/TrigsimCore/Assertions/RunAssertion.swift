/// A property of a run, checked against its timeline and summary: the
/// questions an exact expected timeline answers too brittlely ("nothing fires
/// at night", "every dose is notified within 5 minutes").
public struct RunAssertion: Sendable {
  public enum Property: Sendable {
    /// The number of entries the selector picks (within the window) is in the range.
    case count(EntrySelector, window: AssertionWindow?, range: CountRange)
    /// No `fired` entry the selector picks lies in the window.
    case nothingFired(EntrySelector, window: AssertionWindow)
    /// No `fired` entry the selector picks happens while the device is inside the region:
    /// from an `enter` to the next `exit`, or from the first fix to the first `exit`
    /// when the device starts inside.
    case nothingFiredInside(EntrySelector, region: RegionID)
    /// Every dose (of one medicine, or all) is notified no later than `within`
    /// after it was due, and none is missed.
    case dosesNotified(within: SimulationDuration, medicine: MedicineID?)
    /// The pending limit dropped no request.
    case noPendingLimitDrops
    /// The most requests pending at once never exceeds the number.
    case pendingPeak(atMost: Int)
    /// Every notified dose's follow-up chain ends (completed, dismissed or
    /// exhausted) within the run, and delivers at most `maxFollowUps` follow-ups.
    case chainsEnd(medicine: MedicineID?, maxFollowUps: Int?)
    /// The first entry `first` picks comes before the first entry `then` picks;
    /// both must occur. At equal instants, timeline order decides.
    case order(first: EntrySelector, then: EntrySelector)
    /// No alert with sound (local or push, optionally only subjects the
    /// selector picks) is perceived in the window.
    case nothingAudible(IdentifierPattern?, window: AssertionWindow)
    /// Every dose (of one medicine, or all) could be perceived by the patient
    /// (an alert, not a quiet delivery) no later than `within` after it was
    /// due, and none is missed.
    case dosesPerceptible(within: SimulationDuration, medicine: MedicineID?)
    /// No push of the type (any type when nil) is shown (alert, summary or
    /// quietly) at an instant when the app's own toggle for its type is off.
    case noPushShownWhileTypeOff(type: String?)
    /// The app's badge shows `value` at the instant (after everything at that instant).
    case badgeEquals(at: SimulationInstant, label: String, value: Int)
    /// After every instant at which the badge or Notification Center changes,
    /// the badge equals the number of doses with a notification in Notification Center.
    case badgeCountsDoses
    /// No dose of the visits the expectation picks is notified, and it picks
    /// at least one (`index` is its place in `Scenario.visitExpectations`).
    case silentVisit(VisitExpectation, index: Int)
    /// Every dose (of one medicine, or all) is perceived no later than
    /// `within` after it was due through one of `channels` (an attempt of the
    /// reminder server's on that channel perceived in time); with no channels,
    /// by any means, the phone's own notifications included.
    case dosesReached(within: SimulationDuration, medicine: MedicineID?, channels: [DeliveryChannel])
    /// The server sent nothing on `channel` for a dose the patient had already taken or skipped.
    case noSendAfterAnswer(DeliveryChannel)
    /// The server sent nothing on `channel` while the patient's setting for
    /// it was off: off at the start (`initiallyOn` false) and after each switch to off.
    case noSendWhileChannelOff(DeliveryChannel, initiallyOn: Bool, switches: [ChannelSwitch])
  }

  public var property: Property
  /// Where the scenario states it.
  public var origin: InputLocation?

  public init(_ property: Property, origin: InputLocation? = nil) {
    self.property = property
    self.origin = origin
  }

  /// The property in words, for messages: `nothing fired from 22:00 to 07:00 (every day, device time)`.
  public var description: String {
    switch property {
    case .count(let selector, let window, let range):
      return "count of '\(selector)'\(window.map { " \($0)" } ?? "") \(range)"
    case .nothingFired(let selector, let window):
      return "nothing fired\(Self.restriction(selector)) \(window)"
    case .nothingFiredInside(let selector, let region):
      return "nothing fired\(Self.restriction(selector)) while inside '\(region)'"
    case .dosesNotified(let within, let medicine):
      return "every dose\(medicine.map { " of medicine '\($0)'" } ?? "") notified within \(within) of its time, none missed"
    case .noPendingLimitDrops:
      return "no request dropped by the pending limit"
    case .pendingPeak(let limit):
      return "pending peak at most \(limit)"
    case .chainsEnd(let medicine, let maxFollowUps):
      return "every follow-up chain\(medicine.map { " of medicine '\($0)'" } ?? "") ends (completed, dismissed or exhausted)"
        + (maxFollowUps.map { " with at most \($0) follow-up\($0 == 1 ? "" : "s")" } ?? "")
    case .order(let first, let then):
      return "'\(first)' before '\(then)'"
    case .nothingAudible(let pattern, let window):
      return "nothing audible\(pattern.map { " matching '\($0.text)'" } ?? "") \(window)"
    case .dosesPerceptible(let within, let medicine):
      return "every dose\(medicine.map { " of medicine '\($0)'" } ?? "") perceptible within \(within) of its time, none missed"
    case .noPushShownWhileTypeOff(let type):
      return "no push\(type.map { " of type '\($0)'" } ?? "") shown while the app's toggle for its type is off"
    case .badgeEquals(_, let label, let value):
      return "badge is \(value) at \(label)"
    case .badgeCountsDoses:
      return "the badge always counts the doses waiting in Notification Center"
    case .dosesReached(let within, let medicine, let channels):
      return "every dose\(medicine.map { " of medicine '\($0)'" } ?? "") perceived within \(within) by \(channels.isEmpty ? "any channel" : channels.map(\.rawValue).joined(separator: " or "))"
    case .noSendAfterAnswer(let channel):
      return "no \(channel.rawValue) sent for a dose already taken or skipped"
    case .noSendWhileChannelOff(let channel, _, _):
      return "no \(channel.rawValue) sent while the patient's \(channel.rawValue) setting was off"
    case .silentVisit(let expectation, _):
      return expectation.description
    }
  }

  private static func restriction(_ selector: EntrySelector) -> String {
    selector.subject.map { " matching '\($0.text)'" } ?? ""
  }
}

/// When an assertion looks: one span of the run, or the same local hours every day.
public enum AssertionWindow: Sendable, CustomStringConvertible {
  /// From `from` (inclusive) to `to` (exclusive).
  case between(from: SimulationInstant, to: SimulationInstant, label: String)
  /// Every day, device local time, from `from` (inclusive) to `to` (exclusive);
  /// a window that ends earlier than it starts spans midnight (22:00 to 07:00).
  case daily(from: DailyTime, to: DailyTime)

  public func contains(_ entry: TimelineEntry) -> Bool { contains(entry.instant, utcOffsetSeconds: entry.utcOffsetSeconds) }

  /// Whether an instant, at the device's offset from UTC then, is in the window.
  public func contains(_ instant: SimulationInstant, utcOffsetSeconds: Int) -> Bool {
    switch self {
    case .between(let from, let to, _):
      return instant >= from && instant < to
    case .daily(let from, let to):
      let localSeconds = instant.millisecondsSinceEpoch / 1000 + Int64(utcOffsetSeconds)
      let secondOfDay = Int(((localSeconds % 86_400) + 86_400) % 86_400)
      let start = from.hour * 3600 + from.minute * 60
      let end = to.hour * 3600 + to.minute * 60
      return start <= end ? (secondOfDay >= start && secondOfDay < end) : (secondOfDay >= start || secondOfDay < end)
    }
  }

  public var description: String {
    switch self {
    case .between(_, _, let label): label
    case .daily(let from, let to): "from \(from) to \(to) (every day, device time)"
    }
  }
}

/// How many: exactly, at least, at most, or between.
public struct CountRange: Sendable, CustomStringConvertible {
  public var atLeast: Int?
  public var atMost: Int?

  public init(atLeast: Int? = nil, atMost: Int? = nil) {
    self.atLeast = atLeast
    self.atMost = atMost
  }

  public static func exactly(_ count: Int) -> CountRange { CountRange(atLeast: count, atMost: count) }

  public func contains(_ count: Int) -> Bool { (atLeast.map { count >= $0 } ?? true) && (atMost.map { count <= $0 } ?? true) }

  public var description: String {
    switch (atLeast, atMost) {
    case (let low?, let high?) where low == high: "is \(low)"
    case (let low?, let high?): "is between \(low) and \(high)"
    case (let low?, nil): "is at least \(low)"
    case (nil, let high?): "is at most \(high)"
    case (nil, nil): "is any number"
    }
  }
}

/// The patient switches a channel on or off at an instant (for `RunAssertion.Kind.noSendWhileChannelOff`).
public struct ChannelSwitch: Sendable, Equatable {
  public var instant: SimulationInstant
  public var on: Bool

  public init(instant: SimulationInstant, on: Bool) {
    self.instant = instant
    self.on = on
  }
}
