import Foundation

/// The calendar the phone is set to (Settings → General → Language & Region
/// → Calendar): the app's `Calendar.current` (`DeviceClock.calendar`) and
/// the calendar a calendar trigger's date components are read in. Foundation
/// names each by a `Calendar.Identifier` (Apple, "Calendar.Identifier").
///
/// A daily hour-and-minute trigger fires at the same instants under every
/// one of them (their days begin at midnight); a trigger that names a year,
/// month or day names that calendar's: `month: 1, day: 1` on a Hebrew phone
/// is 1 Tishrei, on a Buddhist phone `year: 2569` is 2026.
public enum PhoneCalendar: String, Sendable, CaseIterable {
  case gregorian
  /// Thai Buddhist era: the Gregorian months, years counted from 543 BCE.
  case buddhist
  /// The Gregorian months, years counted in the Japanese era.
  case japanese
  /// The Islamic calendar of Saudi Arabia (Umm al-Qura).
  case islamicUmmAlQura = "islamic-umm-al-qura"
  case hebrew
  case persian

  /// Foundation's identifier for it.
  public var identifier: Calendar.Identifier {
    switch self {
    case .gregorian: .gregorian
    case .buddhist: .buddhist
    case .japanese: .japanese
    case .islamicUmmAlQura: .islamicUmmAlQura
    case .hebrew: .hebrew
    case .persian: .persian
    }
  }
}
