import Foundation

/// What makes a notification request deliver: a calendar match, an elapsed
/// interval, or the device crossing a region boundary.
public enum Trigger: Sendable {
  case calendar(CalendarTrigger)
  case interval(IntervalTrigger)
  case region(RegionTrigger)
  /// Shown at once, with no trigger: Android's `NotificationManager.notify`,
  /// which app code calls when its alarm or geofence callback runs (iOS: a
  /// request without a trigger).
  case posted

  /// Whether the request stays pending after it delivers.
  /// A location trigger (`.region`).
  public var isRegion: Bool {
    if case .region = self { return true }
    return false
  }

  /// Posted at once by app code (`.posted`).
  public var isPosted: Bool {
    if case .posted = self { return true }
    return false
  }

  public var repeats: Bool {
    switch self {
    case .calendar(let trigger): trigger.repeats
    case .interval(let trigger): trigger.repeats
    case .region(let trigger): trigger.repeats
    case .posted: false
    }
  }

  /// One line for the timeline: `calendar hour=8 minute=0`, `interval 2h`, `region clinic on=enter`.
  public var summary: String {
    switch self {
    case .calendar(let trigger): trigger.summary
    case .interval(let trigger): "interval \(trigger.interval)"
    case .region(let trigger): "region \(trigger.region) on=\(trigger.onSummary)"
    case .posted: "notify"
    }
  }
}

/// `UNCalendarNotificationTrigger(dateMatching:repeats:)`: delivers when the
/// device calendar matches the given components.
///
/// Only the components given are matched; the rest are free. The zone is
/// the components' own, as Apple has it (`DateComponents.timeZone` in the
/// date components the trigger matches): without one the components are
/// *floating*: they follow the device's current time zone, including after
/// a time-zone change during the run. With one (`CalendarComponents.timeZone`)
/// they are pinned to that zone, and name a fixed instant whatever zone the
/// device moves to. (Apple's documentation does not state the rule; trigsim
/// follows the iOS 18.5 probe in the manual, "Trigger semantics".)
public struct CalendarTrigger: Sendable {
  /// What to match, with the zone they are read in (`components.timeZone`).
  public var components: CalendarComponents
  public var repeats: Bool

  /// `UNCalendarNotificationTrigger(dateMatching: components, repeats:)`.
  public init(components: CalendarComponents, repeats: Bool) {
    self.components = components
    self.repeats = repeats
  }

  /// The earlier spelling, with the zone beside the components. A non-nil
  /// `timeZone` is written into `components.timeZone`.
  @available(*, deprecated, message: "set the zone in the date components (CalendarComponents(timeZone:)), as DateComponents.timeZone on the platform")
  public init(components: CalendarComponents, timeZone: TimeZone?, repeats: Bool) {
    var components = components
    if let timeZone { components.timeZone = timeZone }
    self.init(components: components, repeats: repeats)
  }

  /// The zone the trigger is pinned to: its components' (`components.timeZone`);
  /// nil = floating (the device zone at the time of evaluation).
  public var timeZone: TimeZone? {
    get { components.timeZone }
    set { components.timeZone = newValue }
  }

  public var summary: String {
    var text = "calendar \(components)"
    if let timeZone { text += " tz=\(timeZone.identifier)" }
    return text
  }
}

/// A subset of `DateComponents` that calendar triggers match on.
public struct CalendarComponents: Hashable, Sendable, CustomStringConvertible {
  public var year: Int?
  public var month: Int?
  public var day: Int?
  /// 1 = Sunday … 7 = Saturday, as Foundation's Gregorian calendar numbers them.
  public var weekday: Int?
  public var hour: Int?
  public var minute: Int?
  public var second: Int?
  /// The zone the components are read in (`DateComponents.timeZone`): set,
  /// it pins a calendar trigger to that zone; nil, the trigger floats with
  /// the device's zone. It is not matched as a component and is not in `named`.
  public var timeZone: TimeZone?

  public init(
    year: Int? = nil, month: Int? = nil, day: Int? = nil, weekday: Int? = nil, hour: Int? = nil,
    minute: Int? = nil, second: Int? = nil, timeZone: TimeZone? = nil
  ) {
    self.timeZone = timeZone
    self.year = year
    self.month = month
    self.day = day
    self.weekday = weekday
    self.hour = hour
    self.minute = minute
    self.second = second
  }

  public var isEmpty: Bool { named.isEmpty }

  /// The components that are set, largest first.
  public var named: [(name: String, value: Int)] {
    [("year", year), ("month", month), ("day", day), ("weekday", weekday), ("hour", hour), ("minute", minute),
     ("second", second)]
      .compactMap { name, value in value.map { (name, $0) } }
  }

  /// The components to match, without the zone (the evaluator sets the
  /// zone on its calendar instead).
  public var dateComponents: DateComponents {
    DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second, weekday: weekday)
  }

  /// `hour=8 minute=0`
  public var description: String { named.map { "\($0.name)=\($0.value)" }.joined(separator: " ") }
}

/// `UNTimeIntervalNotificationTrigger`: delivers a fixed time after it is added.
///
/// The first delivery is at add time + interval. Repeats are anchored to that
/// first delivery (add + k × interval), so they never drift.
public struct IntervalTrigger: Sendable {
  /// Greater than zero; at least 60 s when repeating (the platform raises otherwise).
  public var interval: SimulationDuration
  public var repeats: Bool

  public init(interval: SimulationDuration, repeats: Bool) {
    self.interval = interval
    self.repeats = repeats
  }

  /// The platform's shortest repeating interval.
  public static let minimumRepeatingInterval = SimulationDuration.seconds(60)
}

/// `UNLocationNotificationTrigger`: delivers when the device enters or exits a region.
public struct RegionTrigger: Sendable {
  public var region: RegionID
  public var notifyOnEntry: Bool
  public var notifyOnExit: Bool
  public var repeats: Bool

  public init(region: RegionID, notifyOnEntry: Bool = true, notifyOnExit: Bool = true, repeats: Bool) {
    self.region = region
    self.notifyOnEntry = notifyOnEntry
    self.notifyOnExit = notifyOnExit
    self.repeats = repeats
  }

  var onSummary: String {
    [notifyOnEntry ? "enter" : nil, notifyOnExit ? "exit" : nil].compactMap { $0 }.joined(separator: ",")
  }
}
