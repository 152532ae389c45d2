import Foundation

/// Renders instants as ISO 8601 with milliseconds and a numeric UTC offset,
/// in a given time zone: `2026-03-28T08:00:00.000+01:00`.
///
/// The offset is the zone's offset *at that instant*, so instants on both
/// sides of a daylight-saving change print with their own offsets.
/// Formatting is done with integer arithmetic on the offset that
/// `TimeZone.secondsFromGMT(for:)` returns; no locale is involved.
public struct InstantFormatter: Sendable {
  public let timeZone: TimeZone

  public init(timeZone: TimeZone) { self.timeZone = timeZone }

  public static let utc = InstantFormatter(timeZone: TimeZone(identifier: "UTC")!)

  public func string(for instant: SimulationInstant) -> String {
    let offsetSeconds = timeZone.secondsFromGMT(for: instant.date)
    return Self.format(instant, offsetSeconds: offsetSeconds, zulu: timeZone.identifier == "UTC" || timeZone.identifier == "GMT")
  }

  /// Formats `instant` as local time at a fixed offset from UTC.
  public static func format(_ instant: SimulationInstant, offsetSeconds: Int, zulu: Bool = false) -> String {
    let local = instant.millisecondsSinceEpoch + Int64(offsetSeconds) * 1000
    let (days, msOfDay) = floorDivide(local, 86_400_000)
    let (year, month, day) = civilDate(fromDaysSinceEpoch: days)
    let hour = msOfDay / 3_600_000
    let minute = (msOfDay / 60_000) % 60
    let second = (msOfDay / 1000) % 60
    let millisecond = msOfDay % 1000
    var text = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2)).\(pad(millisecond, 3))"
    if zulu && offsetSeconds == 0 {
      text += "Z"
    } else {
      let sign = offsetSeconds < 0 ? "-" : "+"
      let magnitude = abs(offsetSeconds)
      text += "\(sign)\(pad(Int64(magnitude / 3600), 2)):\(pad(Int64((magnitude / 60) % 60), 2))"
      if magnitude % 60 != 0 { text += ":\(pad(Int64(magnitude % 60), 2))" }
    }
    return text
  }

  private static func pad(_ value: Int64, _ width: Int) -> String {
    let digits = String(value.magnitude)
    let sign = value < 0 ? "-" : ""
    return sign + String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}

/// Floor division and its non-negative remainder.
@inline(__always)
func floorDivide(_ a: Int64, _ b: Int64) -> (quotient: Int64, remainder: Int64) {
  var q = a / b
  var r = a % b
  if r < 0 { q -= 1; r += b }
  return (q, r)
}

/// Proleptic Gregorian calendar date for a day count since 1970-01-01
/// (Howard Hinnant's `civil_from_days` algorithm).
func civilDate(fromDaysSinceEpoch days: Int64) -> (year: Int64, month: Int64, day: Int64) {
  let z = days + 719_468
  let era = (z >= 0 ? z : z - 146_096) / 146_097
  let dayOfEra = z - era * 146_097
  let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
  let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
  let mp = (5 * dayOfYear + 2) / 153
  let day = dayOfYear - (153 * mp + 2) / 5 + 1
  let month = mp < 10 ? mp + 3 : mp - 9
  let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
  return (year, month, day)
}

/// Days since 1970-01-01 for a proleptic Gregorian date (`days_from_civil`).
@inlinable
public func daysSinceEpoch(year: Int64, month: Int64, day: Int64) -> Int64 {
  let y = month <= 2 ? year - 1 : year
  let era = (y >= 0 ? y : y - 399) / 400
  let yearOfEra = y - era * 400
  let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
  let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
  return era * 146_097 + dayOfEra - 719_468
}
