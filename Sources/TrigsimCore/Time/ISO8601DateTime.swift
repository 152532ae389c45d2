/// The fields of an ISO 8601 date-time as written, before any time-zone rule.
///
/// Grammar: `YYYY-MM-DD` then `T`, `t` or a space, then `hh:mm`, optional
/// `:ss`, an optional fraction after `.` or `,` (any number of digits), and an
/// optional offset: `Z`, `z`, `±hh`, `±hhmm` or `±hh:mm`. The date must exist
/// (no 30 February) and the time must be 00:00:00–23:59:59.
///
/// Readers share this grammar and differ only in policy: the scenario
/// loader rejects more than three fraction digits and local times skipped by
/// daylight saving; track readers truncate the fraction and move a skipped
/// local time forward.
public struct ISO8601DateTime: Hashable, Sendable {
  /// The wall-clock time as milliseconds since 1970-01-01T00:00 on the same
  /// clock (no offset applied), with the fraction truncated to the millisecond.
  public var localMilliseconds: Int64
  /// How many fraction digits were written.
  public var fractionDigits: Int
  /// The written offset from UTC in milliseconds (`Z` is 0); nil when none was written.
  public var offsetMilliseconds: Int64?

  @inlinable
  public init(localMilliseconds: Int64, fractionDigits: Int, offsetMilliseconds: Int64?) {
    self.localMilliseconds = localMilliseconds
    self.fractionDigits = fractionDigits
    self.offsetMilliseconds = offsetMilliseconds
  }

  public enum Problem: Error, Hashable, Sendable {
    /// The text does not follow the grammar.
    case malformed
    /// It does, but names a date or time that does not exist (30 February, 24:00).
    case outOfRange
  }

  /// Parses `bytes` (UTF-8). Allocates nothing; fast enough for every row of a track.
  @inlinable
  public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<ISO8601DateTime, Problem> {
    let count = bytes.count
    var p = 0
    @inline(__always) func digits(_ n: Int) -> Int64? {
      guard p + n <= count else { return nil }
      var value: Int64 = 0
      for i in 0..<n {
        let d = bytes[p + i] &- 48
        if d >= 10 { return nil }
        value = value * 10 + Int64(d)
      }
      p += n
      return value
    }
    @inline(__always) func expect(_ c: UInt8) -> Bool {
      guard p < count, bytes[p] == c else { return false }
      p += 1
      return true
    }
    guard let year = digits(4), expect(0x2D), let month = digits(2), expect(0x2D), let day = digits(2) else {
      return .failure(.malformed)
    }
    guard p < count, bytes[p] == 0x54 || bytes[p] == 0x74 || bytes[p] == 0x20 else { return .failure(.malformed) }  // T t space
    p += 1
    guard let hour = digits(2), expect(0x3A), let minute = digits(2) else { return .failure(.malformed) }
    var second: Int64 = 0
    var millisecond: Int64 = 0
    var fractionDigits = 0
    if expect(0x3A) {
      guard let s = digits(2) else { return .failure(.malformed) }
      second = s
      if p < count && (bytes[p] == 0x2E || bytes[p] == 0x2C) {  // . ,
        p += 1
        while p < count, bytes[p] &- 48 < 10 {
          if fractionDigits < 3 { millisecond = millisecond * 10 + Int64(bytes[p] &- 48) }
          fractionDigits += 1
          p += 1
        }
        if fractionDigits == 0 { return .failure(.malformed) }
        for _ in min(fractionDigits, 3)..<3 { millisecond *= 10 }
      }
    }
    var offset: Int64?
    if p < count {
      let c = bytes[p]
      p += 1
      if c == 0x5A || c == 0x7A {  // Z z
        offset = 0
      } else if c == 0x2B || c == 0x2D {  // + -
        guard let offsetHours = digits(2), offsetHours <= 23 else { return .failure(.malformed) }
        var offsetMinutes: Int64 = 0
        if p < count {
          _ = expect(0x3A)
          guard let m = digits(2), m <= 59 else { return .failure(.malformed) }
          offsetMinutes = m
        }
        offset = (c == 0x2B ? 1 : -1) * (offsetHours * 60 + offsetMinutes) * 60_000
      } else {
        return .failure(.malformed)
      }
      guard p == count else { return .failure(.malformed) }
    }
    guard (1...12).contains(month), day >= 1, day <= daysInMonth(year: year, month: month), hour <= 23, minute <= 59,
      second <= 59
    else { return .failure(.outOfRange) }
    let days = daysSinceEpoch(year: year, month: month, day: day)
    let local = (((days * 24 + hour) * 60 + minute) * 60 + second) * 1000 + millisecond
    return .success(ISO8601DateTime(localMilliseconds: local, fractionDigits: fractionDigits, offsetMilliseconds: offset))
  }
}

/// The number of days in a month of the proleptic Gregorian calendar.
@inlinable
public func daysInMonth(year: Int64, month: Int64) -> Int64 {
  switch month {
  case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
  case 4, 6, 9, 11: return 30
  default: return 31
  }
}
