import Foundation

/// Computes the next delivery of calendar triggers with Foundation's
/// `Calendar.nextDate(after:matching:matchingPolicy:repeatedTimePolicy:direction:)`
/// on the calendar the phone is set to (`calendar`, Gregorian by default),
/// the same algorithm the platform's Foundation uses.
///
/// Rules:
/// - The next delivery is strictly after the given instant.
/// - Floating triggers (no time zone) are evaluated in the device zone passed in.
/// - A wall-clock time that does not exist (the hour skipped when clocks go
///   forward) follows `dstGapPolicy`; a wall-clock time that occurs twice
///   (clocks go back) follows `repeatedTimePolicy`.
/// - The answer must fall on a day that has the requested year, month, day
///   and weekday. Foundation's non-strict policies also "roll" dates, so when
///   it does not:
///   - a full date (year, month and day) that exists but has passed never
///     delivers (an iOS 18.5 probe: `nextTriggerDate()` is nil and the request
///     is not kept);
///   - a date no calendar has (31 June, 30 February) follows
///     `impossibleDatePolicy`.
public struct CalendarTriggerEvaluator: Sendable {
  public var dstGapPolicy: DSTGapPolicy
  public var repeatedTimePolicy: RepeatedTimeChoice
  public var impossibleDatePolicy: ImpossibleDatePolicy
  /// The phone's calendar, in which the components are read.
  public var calendar: PhoneCalendar

  public init(
    dstGapPolicy: DSTGapPolicy, repeatedTimePolicy: RepeatedTimeChoice, impossibleDatePolicy: ImpossibleDatePolicy = .rollOver,
    calendar: PhoneCalendar = .gregorian
  ) {
    self.calendar = calendar
    self.dstGapPolicy = dstGapPolicy
    self.repeatedTimePolicy = repeatedTimePolicy
    self.impossibleDatePolicy = impossibleDatePolicy
  }

  /// The first instant strictly after `instant` that matches, or nil when none does.
  ///
  /// A daily time (`steadyDailyTime`) where the zone's offset is steady is
  /// computed directly, about 50 times faster than Foundation's search and
  /// with the same answer; everything else is Foundation's search.
  public func nextDelivery(
    of trigger: CalendarTrigger, after instant: SimulationInstant, deviceTimeZone: TimeZone
  ) -> SimulationInstant? {
    let zone = trigger.timeZone ?? deviceTimeZone
    if let next = Self.steadyDailyTime(trigger.components, after: instant, in: zone) { return next }
    return searchedDelivery(of: trigger, after: instant, deviceTimeZone: deviceTimeZone)
  }

  /// The margin around a daily time within which the zone's offset must not
  /// change for `steadyDailyTime` to answer: wider than any offset change a
  /// zone has made (Samoa skipped a whole day in 2011).
  static let steadyMargin: Int64 = 2 * 86_400_000

  /// The next instant strictly after `instant` at which the wall clock in
  /// `zone` shows the components' hour and minute (and second, else 0),
  /// when the components are only those and the zone's UTC offset is the
  /// same from `steadyMargin` before `instant` to `steadyMargin` after the
  /// answer, and is a whole number of minutes: then every wall-clock time in
  /// between occurs exactly once, the DST and date policies have nothing to
  /// decide, and the answer is Foundation's. Nil otherwise (the caller
  /// searches with Foundation).
  static func steadyDailyTime(_ components: CalendarComponents, after instant: SimulationInstant, in zone: TimeZone) -> SimulationInstant? {
    guard components.year == nil, components.month == nil, components.day == nil, components.weekday == nil,
      let hour = components.hour, let minute = components.minute, (0...23).contains(hour), (0...59).contains(minute),
      (0...59).contains(components.second ?? 0)
    else { return nil }
    let milliseconds = instant.millisecondsSinceEpoch
    // Far from the era of time zones and of Foundation's Julian calendar, nothing is assumed.
    guard milliseconds > Self.earliestSteadyInstant, milliseconds < Self.latestSteadyInstant else { return nil }
    let day: Int64 = 86_400_000
    let offset = Int64(zone.secondsFromGMT(for: instant.date)) * 1000
    // A local mean time with seconds (Apia's -11:26:56 until 1911): Foundation answers otherwise.
    guard offset % 60_000 == 0 else { return nil }
    let wallTime = Int64(hour * 3600 + minute * 60 + (components.second ?? 0)) * 1000
    var next = floorDivide(milliseconds + offset, day).quotient * day + wallTime - offset
    if next <= milliseconds { next += day }
    let windowStart = SimulationInstant(millisecondsSinceEpoch: milliseconds - steadyMargin)
    let windowEnd = SimulationInstant(millisecondsSinceEpoch: next + steadyMargin)
    guard Int64(zone.secondsFromGMT(for: windowStart.date)) * 1000 == offset,
      Int64(zone.secondsFromGMT(for: windowEnd.date)) * 1000 == offset,
      zone.nextDaylightSavingTimeTransition(after: windowStart.date).map({ SimulationInstant($0) > windowEnd }) ?? true
    else { return nil }
    return SimulationInstant(millisecondsSinceEpoch: next)
  }

  /// 1900-01-01T00:00:00Z and 9999-12-31T00:00:00Z: the span where `steadyDailyTime` answers.
  static let earliestSteadyInstant: Int64 = -2_208_988_800_000
  static let latestSteadyInstant: Int64 = 253_402_214_400_000

  /// `nextDelivery` by Foundation's search alone, whatever the components
  /// (the tests compare `steadyDailyTime` with it).
  func searchedDelivery(
    of trigger: CalendarTrigger, after instant: SimulationInstant, deviceTimeZone: TimeZone
  ) -> SimulationInstant? {
    var calendar = Calendar(identifier: self.calendar.identifier)
    calendar.timeZone = trigger.timeZone ?? deviceTimeZone
    let components = trigger.components
    guard let next = search(calendar, components, after: instant, policy: dstGapPolicy.matchingPolicy) else { return nil }
    if fallsOnRequestedDay(next, components, calendar) { return next }
    if let year = components.year, let month = components.month, let day = components.day,
      calendar.date(from: DateComponents(year: year, month: month, day: day)).map({
        calendar.component(.day, from: $0) == day
      }) == true
    {
      return nil  // A real date that has passed.
    }
    return search(calendar, components, after: instant, policy: impossibleDatePolicy.matchingPolicy)
  }

  /// Foundation's next match strictly after `instant`. Foundation matches
  /// whole seconds, so the search starts at the current second and steps past
  /// any answer that is not strictly later.
  private func search(
    _ calendar: Calendar, _ components: CalendarComponents, after instant: SimulationInstant, policy: Calendar.MatchingPolicy
  ) -> SimulationInstant? {
    var after = SimulationInstant(millisecondsSinceEpoch: floorDivide(instant.millisecondsSinceEpoch, 1000).quotient * 1000)
    for _ in 0..<4 {
      guard
        let date = calendar.nextDate(
          after: after.date, matching: components.dateComponents, matchingPolicy: policy,
          repeatedTimePolicy: repeatedTimePolicy.foundationPolicy, direction: .forward)
      else { return nil }
      let next = SimulationInstant(date)
      if next > instant { return next }
      after = next
    }
    return nil
  }

  private func fallsOnRequestedDay(_ instant: SimulationInstant, _ components: CalendarComponents, _ calendar: Calendar) -> Bool {
    let found = calendar.dateComponents([.year, .month, .day, .weekday], from: instant.date)
    return (components.year == nil || components.year == found.year) && (components.month == nil || components.month == found.month)
      && (components.day == nil || components.day == found.day) && (components.weekday == nil || components.weekday == found.weekday)
  }
}

/// What a calendar trigger does with a date that no month has (day 31 in
/// June, 30 February).
public enum ImpossibleDatePolicy: String, Sendable, CaseIterable {
  /// Default: the first moment after it, e.g. 1 July 00:00 for 31 June
  /// (Foundation's `.nextTime`; reported on iOS in Open Radar 32865247).
  case rollOver = "roll-over"
  /// Skip to the next month that has the day (Foundation's `.strict`).
  case skip

  var matchingPolicy: Calendar.MatchingPolicy { self == .rollOver ? .nextTime : .strict }
}

/// What a calendar trigger does when its wall-clock time falls in the hour
/// skipped when clocks go forward (and, for impossible dates such as 31 June,
/// which date it moves to). Names follow `Calendar.MatchingPolicy`.
public enum DSTGapPolicy: String, Sendable, CaseIterable {
  /// Default. 02:30 on a spring-forward day fires at 03:30 (observed on iOS 18.5).
  case nextTimePreservingSmallerComponents = "next-time-preserving-smaller-components"
  /// 02:30 fires at 03:00, the next existing time.
  case nextTime = "next-time"
  /// 02:30 fires at 01:30.
  case previousTimePreservingSmallerComponents = "previous-time-preserving-smaller-components"
  /// The day is skipped: 02:30 fires the next day it exists.
  case strict

  var matchingPolicy: Calendar.MatchingPolicy {
    switch self {
    case .nextTimePreservingSmallerComponents: .nextTimePreservingSmallerComponents
    case .nextTime: .nextTime
    case .previousTimePreservingSmallerComponents: .previousTimePreservingSmallerComponents
    case .strict: .strict
    }
  }
}

/// Which of two occurrences of a repeated wall-clock time (clocks going back) a calendar trigger uses.
public enum RepeatedTimeChoice: String, Sendable, CaseIterable {
  /// Default: the earlier occurrence; a daily 01:30 reminder fires once on fall-back day.
  case first
  case last

  var foundationPolicy: Calendar.RepeatedTimePolicy { self == .first ? .first : .last }
}

extension CalendarTriggerEvaluator {
  /// The evaluator with `platform`'s rules for daylight-saving gaps, repeated times, impossible dates and its calendar.
  init(_ platform: PlatformSettings) {
    self.init(
      dstGapPolicy: platform.dstGapPolicy, repeatedTimePolicy: platform.repeatedTimePolicy,
      impossibleDatePolicy: platform.impossibleDatePolicy, calendar: platform.calendar)
  }
}
