import Foundation
import TrigsimCore

/// The scenario's spellings of durations and instants.
package enum ValueSyntax {
  /// Parses `2h`, `90s`, `1h30m`, `6m`, `500ms`, `1.5s`, `2d` into a duration.
  ///
  /// Units: `d`, `h`, `m` (minutes), `s`, `ms`. Parts are added; each part is
  /// a non-negative decimal number. A bare number is rejected, because the
  /// unit matters too much to guess.
  package static func duration(_ text: String) -> SimulationDuration? {
    var rest = Substring(text.trimmingCharacters(in: .whitespaces))
    guard !rest.isEmpty else { return nil }
    var total = 0.0
    while !rest.isEmpty {
      let number = rest.prefix { $0.isNumber || $0 == "." }
      guard !number.isEmpty, let value = Double(number) else { return nil }
      rest = rest.dropFirst(number.count)
      let unit = rest.prefix { $0.isLetter }
      rest = rest.dropFirst(unit.count)
      let scale: Double
      switch unit {
      case "d": scale = 86_400_000
      case "h": scale = 3_600_000
      case "m", "min": scale = 60_000
      case "s": scale = 1000
      case "ms": scale = 1
      default: return nil
      }
      total += value * scale
    }
    guard total.isFinite, total < 1e15 else { return nil }
    return SimulationDuration(milliseconds: Int64(total.rounded()))
  }

  /// Parses an ISO 8601 instant: `2026-03-28T06:00:00+01:00`, `...Z`, with up
  /// to three fractional-second digits. Without an offset the time is local
  /// time in `zone`; a local time that does not exist (skipped by a DST
  /// change) is rejected, and one that occurs twice means the first.
  package static func instant(_ text: String, zone: TimeZone) -> Result<SimulationInstant, InstantProblem> {
    let scalars = Array(text.utf8)
    var index = 0
    func number(_ digits: Int) -> Int? {
      guard index + digits <= scalars.count else { return nil }
      var value = 0
      for i in index..<(index + digits) {
        let c = scalars[i]
        guard c >= 48 && c <= 57 else { return nil }
        value = value * 10 + Int(c - 48)
      }
      index += digits
      return value
    }
    func expect(_ c: UInt8) -> Bool {
      guard index < scalars.count, scalars[index] == c else { return false }
      index += 1
      return true
    }
    guard let year = number(4), expect(UInt8(ascii: "-")), let month = number(2), expect(UInt8(ascii: "-")),
      let day = number(2)
    else { return .failure(.malformed) }
    guard index < scalars.count, scalars[index] == UInt8(ascii: "T") || scalars[index] == UInt8(ascii: " ") else {
      return .failure(.malformed)
    }
    index += 1
    guard let hour = number(2), expect(UInt8(ascii: ":")), let minute = number(2) else { return .failure(.malformed) }
    var second = 0
    var millisecond = 0
    if expect(UInt8(ascii: ":")) {
      guard let s = number(2) else { return .failure(.malformed) }
      second = s
      if expect(UInt8(ascii: ".")) {
        var digits = 0
        while index < scalars.count, scalars[index] >= 48, scalars[index] <= 57 {
          digits += 1
          guard digits <= 3 else { return .failure(.tooPrecise) }
          millisecond = millisecond * 10 + Int(scalars[index] - 48)
          index += 1
        }
        guard digits > 0 else { return .failure(.malformed) }
        for _ in digits..<3 { millisecond *= 10 }
      }
    }
    guard (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute),
      (0...59).contains(second)
    else { return .failure(.outOfRange) }
    let days = daysSinceEpoch(year: Int64(year), month: Int64(month), day: Int64(day))
    // Reject 31 June and friends: the day must survive a round trip.
    let check = daysSinceEpoch(year: Int64(year), month: Int64(month), day: 1) + Int64(day - 1)
    guard check == days, day <= daysInMonth(year: year, month: month) else { return .failure(.outOfRange) }
    let localMilliseconds = (days * 86_400 + Int64(hour * 3600 + minute * 60 + second)) * 1000 + Int64(millisecond)
    if index == scalars.count {
      return localInstant(localMilliseconds, in: zone)
    }
    if expect(UInt8(ascii: "Z")) {
      guard index == scalars.count else { return .failure(.malformed) }
      return .success(SimulationInstant(millisecondsSinceEpoch: localMilliseconds))
    }
    guard index < scalars.count, scalars[index] == UInt8(ascii: "+") || scalars[index] == UInt8(ascii: "-") else {
      return .failure(.malformed)
    }
    let sign: Int64 = scalars[index] == UInt8(ascii: "-") ? -1 : 1
    index += 1
    guard let offsetHours = number(2) else { return .failure(.malformed) }
    _ = expect(UInt8(ascii: ":"))
    guard let offsetMinutes = number(2), index == scalars.count, offsetHours <= 18, offsetMinutes < 60 else {
      return .failure(.malformed)
    }
    let offset = sign * Int64(offsetHours * 3600 + offsetMinutes * 60) * 1000
    return .success(SimulationInstant(millisecondsSinceEpoch: localMilliseconds - offset))
  }

  static func daysInMonth(year: Int, month: Int) -> Int {
    switch month {
    case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// The instant whose local time in `zone` is `localMilliseconds` (ms since the epoch, as if UTC).
  static func localInstant(_ localMilliseconds: Int64, in zone: TimeZone) -> Result<SimulationInstant, InstantProblem> {
    // Try the offsets in force around that local time; keep the earliest that round-trips.
    let guess = Date(timeIntervalSince1970: Double(localMilliseconds) / 1000)
    let offsets = Set([-86_400.0, 0, 86_400].map { zone.secondsFromGMT(for: guess.addingTimeInterval($0)) })
    let candidates = offsets.map { SimulationInstant(millisecondsSinceEpoch: localMilliseconds - Int64($0) * 1000) }
      .filter { Int64(zone.secondsFromGMT(for: $0.date)) * 1000 + $0.millisecondsSinceEpoch == localMilliseconds }
      .sorted()
    guard let first = candidates.first else { return .failure(.nonexistentLocalTime(zone.identifier)) }
    return .success(first)
  }

  package enum InstantProblem: Error, Equatable {
    case malformed, tooPrecise, outOfRange
    case nonexistentLocalTime(String)

    package var message: String {
      switch self {
      case .malformed: "is not an ISO 8601 date-time"
      case .tooPrecise: "has more than three fractional-second digits (instants are exact to the millisecond)"
      case .outOfRange: "is not a valid date and time"
      case .nonexistentLocalTime(let zone): "does not exist in \(zone) (clocks skip it for daylight saving)"
      }
    }
  }
}
