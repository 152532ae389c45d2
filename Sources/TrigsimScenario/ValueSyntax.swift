import Foundation
import TrigsimCore

/// The scenario's spellings of durations and instants.
package enum ValueSyntax {
  /// Parses `2h`, `90s`, `1h30m`, `6m`, `500ms`, `1.5s`, `2d` into a duration;
  /// nil when `durationResult` finds a problem.
  package static func duration(_ text: String) -> SimulationDuration? {
    try? durationResult(text).get()
  }

  /// The longest duration a scenario can give: 10^15 ms (about 31,700
  /// years), far past any run, and small enough that adding durations to
  /// instants or multiplying them by a snooze count stays inside Int64.
  package static let longestDuration = SimulationDuration(milliseconds: 1_000_000_000_000_000)

  /// A clock span (`limits.clockSpan`, `--max-clock-span`): a whole number
  /// of years up to `ScenarioLimitCeiling.largestClockSpanYears` (`10y`, a
  /// year counts 365 days) or a duration (`400d`, `36h`); nil unless positive.
  package static func clockSpan(_ text: String) -> SimulationDuration? {
    let value: SimulationDuration?
    if text.hasSuffix("y"), let years = Int64(text.dropLast()), years >= 0 {
      value = years <= ScenarioLimitCeiling.largestClockSpanYears ? SimulationDuration(milliseconds: years * RunLimits.year) : nil
    } else {
      value = duration(text)
    }
    guard let value, value.milliseconds > 0 else { return nil }
    return value
  }

  package enum DurationProblem: Error, Equatable {
    case malformed, tooLong

    /// Completes "interval '...' ...".
    package var message: String {
      switch self {
      case .malformed: "is not a duration"
      case .tooLong: "is longer than the longest duration, 10^15 ms (about 31,700 years)"
      }
    }
  }

  /// Parses a duration: units `d`, `h`, `m` (minutes), `s`, `ms`. Parts are
  /// added; each part is a non-negative decimal number. A bare number is
  /// rejected, because the unit matters too much to guess. The sum is
  /// computed in floating point and checked against `longestDuration` before
  /// it becomes whole milliseconds, so no spelling can overflow.
  package static func durationResult(_ text: String) -> Result<SimulationDuration, DurationProblem> {
    var rest = Substring(text.trimmingCharacters(in: .whitespaces))
    guard !rest.isEmpty else { return .failure(.malformed) }
    var total = 0.0
    while !rest.isEmpty {
      let number = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
      guard !number.isEmpty, let value = Double(number) else { return .failure(.malformed) }
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
      default: return .failure(.malformed)
      }
      total += value * scale
    }
    guard total.rounded() <= Double(longestDuration.milliseconds) else { return .failure(.tooLong) }
    return .success(SimulationDuration(milliseconds: Int64(total.rounded())))
  }

  /// Parses an ISO 8601 instant (`ISO8601DateTime`'s grammar):
  /// `2026-03-28T06:00:00+01:00`, `...Z`, with up to three fractional-second
  /// digits. Without an offset the time is local time in `zone`; a local time
  /// that does not exist (skipped by a DST change) is rejected, and one that
  /// occurs twice means the first.
  package static func instant(_ text: String, zone: TimeZone) -> Result<SimulationInstant, InstantProblem> {
    var text = text
    let parsed = text.withUTF8 { ISO8601DateTime.parse($0) }
    switch parsed {
    case .failure(.malformed): return .failure(.malformed)
    case .failure(.outOfRange): return .failure(.outOfRange)
    case .success(let time):
      guard time.fractionDigits <= 3 else { return .failure(.tooPrecise) }
      if let offset = time.offsetMilliseconds {
        return .success(SimulationInstant(millisecondsSinceEpoch: time.localMilliseconds - offset))
      }
      return localInstant(time.localMilliseconds, in: zone)
    }
  }

  /// Whether `text` is an ISO 8601 date-time that states its UTC offset (`Z`, `+02:00`).
  package static func hasUTCOffset(_ text: String) -> Bool {
    var text = text
    guard case .success(let time) = text.withUTF8({ ISO8601DateTime.parse($0) }) else { return false }
    return time.offsetMilliseconds != nil
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
