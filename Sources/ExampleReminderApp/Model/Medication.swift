import Foundation

/// A medication as the patient entered it: daily times and, optionally, a
/// place where it is to be taken on arrival.
public struct Medication: Codable, Equatable, Sendable {
  /// Letters and digits: it names every request of the medication (`ReminderID`).
  public var id: String
  public var name: String
  /// What the notification says to take: `500 mg`.
  public var dose: String
  public var times: [ReminderTime]
  public var place: SavedPlace?

  public init(id: String, name: String, dose: String, times: [ReminderTime], place: SavedPlace? = nil) {
    self.id = id
    self.name = name
    self.dose = dose
    self.times = times
    self.place = place
  }
}

/// A local time of day, `08:00`.
public struct ReminderTime: Codable, Hashable, Comparable, Sendable, CustomStringConvertible {
  public var hour: Int
  public var minute: Int

  public init(hour: Int, minute: Int) {
    self.hour = hour
    self.minute = minute
  }

  /// `0800`, as it appears in request identifiers.
  public var compact: String { String(format: "%02d%02d", hour, minute) }
  public var description: String { String(format: "%02d:%02d", hour, minute) }
  public static func < (lhs: Self, rhs: Self) -> Bool { (lhs.hour, lhs.minute) < (rhs.hour, rhs.minute) }
}

/// One dose: a medication's time on one local day.
public struct DoseDay: Codable, Hashable, Comparable, Sendable {
  public var year: Int
  public var month: Int
  public var day: Int

  public init(year: Int, month: Int, day: Int) {
    self.year = year
    self.month = month
    self.day = day
  }

  /// The local day of `date` in `calendar`'s zone.
  public init(_ date: Date, in calendar: Calendar) {
    let parts = calendar.dateComponents([.year, .month, .day], from: date)
    self.init(year: parts.year!, month: parts.month!, day: parts.day!)
  }

  /// `20260504`, as it appears in request identifiers.
  public var compact: String { String(format: "%04d%02d%02d", year, month, day) }

  /// Parses `compact`.
  public init?(compact text: Substring) {
    guard text.count == 8, text.allSatisfy(\.isASCII), let value = Int(text) else { return nil }
    self.init(year: value / 10_000, month: value / 100 % 100, day: value % 100)
  }

  /// The instant of `time` on this day in `calendar`'s zone.
  public func date(at time: ReminderTime, in calendar: Calendar) -> Date? {
    calendar.date(from: DateComponents(year: year, month: month, day: day, hour: time.hour, minute: time.minute))
  }

  /// The day `days` after this one.
  public func adding(days: Int, in calendar: Calendar) -> DoseDay {
    let noon = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: 12))!
    return DoseDay(calendar.date(byAdding: .day, value: days, to: noon)!, in: calendar)
  }

  public static func < (lhs: Self, rhs: Self) -> Bool { (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day) }
}
