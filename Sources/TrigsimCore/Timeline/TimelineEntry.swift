/// One line of the timeline: something that happened at an instant.
public struct TimelineEntry: Hashable, Sendable {
  /// What happened. The raw value is the word printed in every output format.
  public enum Kind: String, Hashable, Sendable, CaseIterable {
    /// A request became pending (`add`), with its first delivery when it has one.
    case scheduled
    /// An `add` replaced a pending request with the same identifier.
    case replaced
    /// A request's next delivery moved (a floating calendar trigger after a time-zone change).
    case rescheduled
    /// The notification was delivered.
    case fired
    /// The device entered a region.
    case enter
    /// The device left a region.
    case exit
    /// The device's location service reported an entry or exit later than,
    /// or differently from, the geometric crossing (`event`, `visit`,
    /// `after` the crossing, `reason`). Location requests deliver on it.
    case detected
    /// A geometric crossing the device did not detect, with the reason.
    case undetected
    /// The app removed a pending request.
    case removed
    /// The notification center dropped a request (pending or region limit), with the reason.
    case dropped
    /// Something the platform accepts silently but that never does what was meant.
    case warning
    /// The device changed time zone.
    case timezone
    /// The user created, edited or deleted a medicine in the app.
    case medicine
    /// The app changed state (foreground, background, terminated) or its notification permission changed.
    case app
    /// The user acted on a delivered notification (snooze, complete, dismiss, open, ignore).
    case action
    /// A notification left Notification Center because the app removed it (`removeDeliveredNotifications`).
    case cleared
    /// A delivery came due but was not shown (notification permission denied).
    case suppressed
    /// The track had no fix for longer than the gap limit (or a segment broke):
    /// the position was unknown and no crossing was interpolated.
    case gap
    /// What the patient could perceive of a delivery, when it is not an
    /// alert at once with banner, lock screen and sound (`how`, `reason`):
    /// a Focus broken through, sound off, shown after a Focus or in a
    /// summary, or delivered quietly to Notification Center.
    case presented
    /// A delivery (or, while the phone is off, a trigger) the device holds:
    /// until a Focus ends, the next Scheduled Summary, or the phone is on (`until`, `reason`).
    case held
    /// The patient looked at the phone and saw a notification listed without
    /// an alert (`how` it was listed, `listed` when, `look`: scripted,
    /// unlock, wake or pickup).
    case looked
    /// A Focus went on or off (`state`).
    case focus
    /// The phone was switched off or on, rebooted, unlocked, or Low Power Mode changed (`event`).
    case power
    /// The phone went offline or online (`state`).
    case network
    /// The patient changed the app's notification settings in Settings (the settings now in force).
    case settings
    /// The patient changed the app's own settings: push types, quiet hours.
    case preferences
    /// The app's icon badge changed (`to`, `from`, `by`).
    case badge
    /// The app's server sent a remote push.
    case sent
    /// The push service keeps a push while the device is unreachable.
    case stored
    /// The push service discarded a push (expired, or replaced by a later one while stored).
    case discarded
    /// The device received a remote push.
    case received
    /// The app's own settings stopped a push (`where`: server or app).
    case filtered
    /// The app refreshed the nearest places of a set it monitors (`medicine`,
    /// `cause`, `added`, `removed`, `nearest`, `at`); the `removed` and
    /// `scheduled` entries of its requests follow.
    case regions
    /// An Android alarm (`AlarmManager`): set, fired, deferred, cancelled, cleared or refused.
    case alarm
    /// Android WorkManager work: enqueued, replaced, kept, deferred, ran,
    /// cancelled, held (reboot), stopped (force stop) or rescheduled.
    case work
    /// The app's reminder server (`server:`): a policy step sent, skipped or
    /// waiting (`step`, `channel`, `status`, `reason`), a device's push token
    /// registered, replaced, rejected or dropped, the patient's channel settings.
    case server
    /// A text message the server sent: sent, held, delivered, failed or perceived (`status`).
    case sms
    /// An email the server sent: sent, delivered (with when it is read), failed or perceived.
    case email
    /// An item the server posted to the app's inbox: posted (with the fetch that shows it) or perceived.
    case inbox
  }

  public var instant: SimulationInstant
  /// The device's offset from UTC at `instant`, in seconds (for printing local time).
  public var utcOffsetSeconds: Int
  public var kind: Kind
  /// What the entry is about: a notification identifier, a region identifier, a time zone, or `track`.
  public var subject: String
  /// Further details in a fixed order per kind.
  public var fields: [TimelineField]

  public init(
    instant: SimulationInstant, utcOffsetSeconds: Int, kind: Kind, subject: String, fields: [TimelineField] = []
  ) {
    self.instant = instant
    self.utcOffsetSeconds = utcOffsetSeconds
    self.kind = kind
    self.subject = subject
    self.fields = fields
  }

  /// The value of the field named `key`, if present.
  public subscript(field key: String) -> String? { fields.first { $0.key == key }?.value }

  /// `2026-03-28T08:00:00.000+01:00`
  public var localInstant: String { InstantFormatter.format(instant, offsetSeconds: utcOffsetSeconds) }
}

/// A named detail of a timeline entry.
public struct TimelineField: Hashable, Sendable {
  public var key: String
  public var value: String

  public init(_ key: String, _ value: String) {
    self.key = key
    self.value = value
  }
}

/// The result of a run: a header describing the inputs and rules, and the
/// entries in the order they happened.
///
/// Entries are in non-decreasing instant order; entries at the same instant
/// are in the order the engine handled them (see `EventPhase`).
public struct Timeline: Hashable, Sendable {
  /// Ordered `key: value` lines describing the run (scenario, zone, clock, platform rules, track).
  public var header: [TimelineField]
  public var entries: [TimelineEntry]

  public init(header: [TimelineField] = [], entries: [TimelineEntry] = []) {
    self.header = header
    self.entries = entries
  }

  /// The entries of one kind.
  public func entries(_ kind: TimelineEntry.Kind) -> [TimelineEntry] { entries.filter { $0.kind == kind } }
}
