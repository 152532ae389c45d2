import Foundation

/// A point in simulated time: whole milliseconds since 1970-01-01T00:00:00Z.
///
/// Simulated time is an integer so that event ordering never depends on
/// floating-point rounding; the millisecond is the finest resolution of every
/// input format trigsim reads and of every instant it prints.
public struct SimulationInstant: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// Milliseconds since the Unix epoch (UTC).
  public var millisecondsSinceEpoch: Int64

  public init(millisecondsSinceEpoch: Int64) {
    self.millisecondsSinceEpoch = millisecondsSinceEpoch
  }

  /// The instant nearest to `date`, rounded to the millisecond. A date
  /// beyond what Int64 milliseconds hold (about ±292 million years) gives
  /// the nearest end of that range, rather than trapping in the conversion.
  public init(_ date: Date) {
    let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
    if milliseconds >= 0x1p63 {
      self.millisecondsSinceEpoch = .max
    } else if milliseconds >= -0x1p63 {
      self.millisecondsSinceEpoch = Int64(milliseconds)
    } else {
      self.millisecondsSinceEpoch = .min  // also NaN, which no Date holds
    }
  }

  /// The same instant as a Foundation `Date`.
  public var date: Date { Date(timeIntervalSince1970: Double(millisecondsSinceEpoch) / 1000) }

  public static func < (lhs: Self, rhs: Self) -> Bool {
    lhs.millisecondsSinceEpoch < rhs.millisecondsSinceEpoch
  }

  /// The instant `milliseconds` later (earlier when negative).
  public func advanced(byMilliseconds milliseconds: Int64) -> SimulationInstant {
    SimulationInstant(millisecondsSinceEpoch: millisecondsSinceEpoch + milliseconds)
  }

  public func advanced(by duration: SimulationDuration) -> SimulationInstant {
    advanced(byMilliseconds: duration.milliseconds)
  }

  /// The signed span from `self` to `other`.
  public func duration(to other: SimulationInstant) -> SimulationDuration {
    SimulationDuration(milliseconds: other.millisecondsSinceEpoch - millisecondsSinceEpoch)
  }

  /// UTC, ISO 8601 with milliseconds: `2026-03-28T05:00:00.000Z`.
  public var description: String { InstantFormatter.utc.string(for: self) }
}

/// A span of simulated time in whole milliseconds.
public struct SimulationDuration: Hashable, Comparable, Sendable, CustomStringConvertible {
  public var milliseconds: Int64

  public init(milliseconds: Int64) { self.milliseconds = milliseconds }
  public static func seconds(_ seconds: Int64) -> Self { Self(milliseconds: seconds * 1000) }
  public static func minutes(_ minutes: Int64) -> Self { .seconds(minutes * 60) }
  public static func hours(_ hours: Int64) -> Self { .minutes(hours * 60) }
  public static let zero = SimulationDuration(milliseconds: 0)

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.milliseconds < rhs.milliseconds }
  public static func + (lhs: Self, rhs: Self) -> Self { Self(milliseconds: lhs.milliseconds + rhs.milliseconds) }
  public static func * (lhs: Self, rhs: Int64) -> Self { Self(milliseconds: lhs.milliseconds * rhs) }

  public var seconds: Double { Double(milliseconds) / 1000 }

  /// The shortest spelling in the scenario syntax: `2h`, `1h30m`, `90s`, `1.5s`, `250ms`.
  public var description: String {
    if milliseconds == 0 { return "0s" }
    var rest = milliseconds.magnitude
    var text = milliseconds < 0 ? "-" : ""
    let units: [(UInt64, String)] = [(86_400_000, "d"), (3_600_000, "h"), (60_000, "m")]
    for (size, suffix) in units where rest >= size {
      text += "\(rest / size)\(suffix)"
      rest %= size
    }
    if rest > 0 {
      if rest % 1000 == 0 {
        text += "\(rest / 1000)s"
      } else if rest < 1000 {
        text += "\(rest)ms"
      } else {
        let fraction = String(rest % 1000)
        let padded = String(repeating: "0", count: 3 - fraction.count) + fraction
        var trimmed = Substring(padded)
        while trimmed.last == "0" { trimmed = trimmed.dropLast() }
        text += "\(rest / 1000).\(trimmed)s"
      }
    }
    return text
  }
}
