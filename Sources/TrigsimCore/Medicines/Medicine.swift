import Foundation

/// The identifier of a medicine in the reminder app (letters and digits, as
/// the app's database key). Every request the app makes for it is named
/// after it: `medicine_{id}_reminder_{n}`, `medicine_{id}_location`,
/// `medicine_{id}_snooze_{k}` by default (`AppPolicy.identifiers`).
public struct MedicineID: Hashable, Comparable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
  public let rawValue: String
  public init(_ rawValue: String) { self.rawValue = rawValue }
  public init(stringLiteral value: String) { self.rawValue = value }
  public var description: String { rawValue }
  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A wall-clock time of day in the device's zone, `08:00`.
public struct DailyTime: Hashable, Comparable, Sendable, CustomStringConvertible {
  public var hour: Int
  public var minute: Int

  /// - Precondition: `hour` in 0...23 and `minute` in 0...59.
  public init(hour: Int, minute: Int) {
    precondition((0...23).contains(hour) && (0...59).contains(minute), "not a time of day: \(hour):\(minute)")
    self.hour = hour
    self.minute = minute
  }

  public var description: String { String(format: "%02d:%02d", hour, minute) }
  public static func < (lhs: Self, rhs: Self) -> Bool { (lhs.hour, lhs.minute) < (rhs.hour, rhs.minute) }
}

/// One version of a medicine as the user entered it in the app.
///
/// The app turns it into notification requests (named by `IdentifierTemplates`):
/// one repeating floating calendar request per daily time, one location
/// request when `location` is set, and follow-ups per `snooze`.
public struct Medicine: Sendable {
  public var id: MedicineID
  public var name: String
  /// As written (`500`, `0.5`), so it prints exactly as the user typed it.
  public var dosage: String
  public var unit: String
  /// Daily reminder times, device-local and floating (they follow the device
  /// zone). Reminder index `n` is the position in this list.
  public var times: [DailyTime]
  public var location: LocationReminder?
  /// The follow-up chain after each reminder; nil = no chain.
  public var snooze: SnoozeChainPolicy?
  /// The interruption level of every request the app makes for this medicine.
  public var interruptionLevel: InterruptionLevel = .active
  /// When the doses are due: the ground truth the dose ledger holds the
  /// notifications against (default: each daily time where the patient is, ±1 h).
  public var prescription: Prescription = .standard

  public init(
    id: MedicineID, name: String, dosage: String, unit: String, times: [DailyTime], location: LocationReminder? = nil,
    snooze: SnoozeChainPolicy? = .productDefault
  ) {
    self.id = id
    self.name = name
    self.dosage = dosage
    self.unit = unit
    self.times = times
    self.location = location
    self.snooze = snooze
  }

  /// The notification body: `500 mg`.
  public var body: String { unit.isEmpty ? dosage : "\(dosage) \(unit)" }

  /// `name=Metformin dosage="500 mg" times=08:00,14:00 location="home on=enter" snooze="6m x10 upfront"`
  public var summaryFields: [TimelineField] {
    var fields = [TimelineField("name", name), TimelineField("dosage", body)]
    fields.append(TimelineField("times", times.isEmpty ? "none" : times.map(\.description).joined(separator: ",")))
    if let location { fields.append(TimelineField("location", location.summary)) }
    fields.append(TimelineField("snooze", snooze?.summary ?? "none"))
    if interruptionLevel != .active { fields.append(TimelineField("level", interruptionLevel.rawValue)) }
    if prescription != .standard { fields.append(TimelineField("prescription", prescription.summary)) }
    return fields
  }
}

/// A location reminder: the app adds one `UNLocationNotificationTrigger`
/// request for the region.
public struct LocationReminder: Sendable {
  public var region: RegionID
  public var onEntry: Bool
  public var onExit: Bool
  /// Whether the request stays armed after delivering (every arrival home).
  public var repeats: Bool
  /// A place set instead of one region: the app adds one request per place
  /// it monitors, for the nearest places (see `RegionSetPolicy`); `region` is then unused.
  public var places: PlaceSetID?

  public init(region: RegionID, onEntry: Bool = true, onExit: Bool = false, repeats: Bool = true) {
    self.region = region
    self.onEntry = onEntry
    self.onExit = onExit
    self.repeats = repeats
  }

  /// `home on=enter`; `places pharmacies on=enter` for a place set.
  public var summary: String {
    (places.map { "places \($0)" } ?? region.rawValue) + " on=" + [onEntry ? "enter" : nil, onExit ? "exit" : nil].compactMap { $0 }.joined(separator: ",")
  }

  /// `enter`, `exit` or `enter,exit`, for request metadata.
  public var kind: String { [onEntry ? "enter" : nil, onExit ? "exit" : nil].compactMap { $0 }.joined(separator: ",") }
}

/// The follow-ups the app schedules after a reminder so that an unanswered
/// dose keeps alerting: `count` one-shot notifications `every` apart.
public struct SnoozeChainPolicy: Sendable, Equatable {
  public var every: SimulationDuration
  public var count: Int
  public var scheduling: ChainScheduling

  public init(every: SimulationDuration, count: Int, scheduling: ChainScheduling) {
    self.every = every
    self.count = count
    self.scheduling = scheduling
  }

  /// The product's default: 10 follow-ups 6 minutes apart (one hour in all), added up front.
  public static let productDefault = SnoozeChainPolicy(every: .minutes(6), count: 10, scheduling: .upfront)

  /// `6m x10 upfront`
  public var summary: String { "\(every) x\(count) \(scheduling.rawValue)" }
}

/// When the app adds a dose's follow-ups. The platform runs app code only at
/// certain moments, so this decides whether a chain exists at all.
public enum ChainScheduling: String, Sendable, CaseIterable {
  /// Added with the reminder, as one-shot requests dated after the reminder's
  /// next occurrence. They hold pending slots until they fire. The app tops
  /// them up (for the next occurrence) whenever its code runs and a daily
  /// time has none pending. Location reminders get no upfront chain: their
  /// delivery time is not known in advance.
  case upfront
  /// Added when the app learns of the reminder's delivery: the app is in the
  /// foreground at that instant (its will-present callback runs) or the user
  /// acts on the notification. A delivery the app never hears of gets no chain.
  case onDelivery
}
