import Foundation

/// The identifiers the app gives its requests. The medication's identifier
/// comes first, so a medication's requests share a prefix:
///
/// | request | identifier |
/// |---|---|
/// | daily reminder (repeating) | `metformin-0800` |
/// | one day's reminder (one-shot) | `metformin-0800-20260504` |
/// | follow-up n of a day's dose | `metformin-0800-20260504-f3` |
/// | snoozed alert of a day's dose | `metformin-0800-20260504-snoozed` |
/// | location reminder | `metformin-place` |
public enum ReminderID: Hashable, Sendable {
  case daily(medication: String, time: ReminderTime)
  case oneDay(medication: String, time: ReminderTime, day: DoseDay)
  case followUp(medication: String, time: ReminderTime, day: DoseDay, number: Int)
  case snoozed(medication: String, time: ReminderTime, day: DoseDay)
  case place(medication: String)

  public var rawValue: String {
    switch self {
    case .daily(let medication, let time): "\(medication)-\(time.compact)"
    case .oneDay(let medication, let time, let day): "\(medication)-\(time.compact)-\(day.compact)"
    case .followUp(let medication, let time, let day, let number): "\(medication)-\(time.compact)-\(day.compact)-f\(number)"
    case .snoozed(let medication, let time, let day): "\(medication)-\(time.compact)-\(day.compact)-snoozed"
    case .place(let medication): "\(medication)-place"
    }
  }

  /// Parses `rawValue`; nil for an identifier the app never makes.
  public init?(rawValue: String) {
    let parts = rawValue.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count >= 2, !parts[0].isEmpty else { return nil }
    let medication = String(parts[0])
    if parts.count == 2 && parts[1] == "place" {
      self = .place(medication: medication)
      return
    }
    guard let time = Self.time(parts[1]) else { return nil }
    if parts.count == 2 {
      self = .daily(medication: medication, time: time)
      return
    }
    guard let day = DoseDay(compact: parts[2]) else { return nil }
    switch parts.count {
    case 3: self = .oneDay(medication: medication, time: time, day: day)
    case 4 where parts[3] == "snoozed": self = .snoozed(medication: medication, time: time, day: day)
    case 4 where parts[3].first == "f":
      guard let number = Int(parts[3].dropFirst()), number > 0 else { return nil }
      self = .followUp(medication: medication, time: time, day: day, number: number)
    default: return nil
    }
  }

  /// The medication the request is for.
  public var medication: String {
    switch self {
    case .daily(let medication, _), .oneDay(let medication, _, _), .followUp(let medication, _, _, _), .snoozed(let medication, _, _),
      .place(let medication):
      medication
    }
  }

  /// The daily time the request reminds of; nil for the location reminder.
  public var time: ReminderTime? {
    switch self {
    case .daily(_, let time), .oneDay(_, let time, _), .followUp(_, let time, _, _), .snoozed(_, let time, _): time
    case .place: nil
    }
  }

  private static func time(_ text: Substring) -> ReminderTime? {
    guard text.count == 4, text.allSatisfy(\.isASCII), let value = Int(text), value / 100 < 24, value % 100 < 60 else { return nil }
    return ReminderTime(hour: value / 100, minute: value % 100)
  }
}
