import Foundation
import TrigsimCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// MARK: - Numbers

/// 10^k for k in 0...22, all exact doubles. A switch rather than a global
/// array: a global is initialised lazily, and the check for that showed up as
/// 2.5 % of a 30-day benchmark run (`swift_once` on every coordinate).
@inline(__always)
private func powerOfTen(_ k: Int) -> Double {
  switch k {
  case 0: 1
  case 1: 1e1
  case 2: 1e2
  case 3: 1e3
  case 4: 1e4
  case 5: 1e5
  case 6: 1e6
  case 7: 1e7
  case 8: 1e8
  case 9: 1e9
  case 10: 1e10
  case 11: 1e11
  case 12: 1e12
  case 13: 1e13
  case 14: 1e14
  case 15: 1e15
  case 16: 1e16
  case 17: 1e17
  case 18: 1e18
  case 19: 1e19
  case 20: 1e20
  case 21: 1e21
  default: 1e22
  }
}

/// Reads a plain decimal (`-12.5683`, `+3`, `.5`) without allocating; other
/// spellings (exponents, `nan`, `inf`, very long mantissas) go to `strtod`.
@inline(__always)
func parseDecimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
  let count = bytes.count
  if count == 0 { return nil }
  var p = 0
  var negative = false
  let first = bytes[0]
  if first == UInt8(ascii: "-") {
    negative = true
    p = 1
  } else if first == UInt8(ascii: "+") {
    p = 1
  }
  var mantissa: UInt64 = 0
  var fractionDigits = 0
  var digits = 0
  var seenDot = false
  while p < count {
    let c = bytes[p]
    let d = c &- 48
    if d < 10 {
      if mantissa >= 900_719_925_474_099 { return parseDecimalSlow(bytes) }  // keep below 2^53
      mantissa = mantissa &* 10 &+ UInt64(d)
      digits += 1
      if seenDot { fractionDigits += 1 }
    } else if c == UInt8(ascii: ".") && !seenDot {
      seenDot = true
    } else {
      return parseDecimalSlow(bytes)
    }
    p += 1
  }
  if digits == 0 || fractionDigits > 22 { return parseDecimalSlow(bytes) }
  // Exact: mantissa < 2^53 and 10^k ≤ 10^22 are both exact doubles, so one
  // division is correctly rounded (Clinger's fast path).
  let value = Double(mantissa) / powerOfTen(fractionDigits)
  return negative ? -value : value
}

/// Reads `[+-]digits[.digits]` at `p` in a buffer that holds a non-digit
/// after the data (the CSV scanner's sentinel), and moves `p` past it; nil
/// for anything else, or for more than 15 digits. What it accepts,
/// `parseDecimal` gives the same value for (the same exact division), so a
/// fast path can use it and leave every other spelling to `parseDecimal`.
@inline(__always)
func fastDecimal(_ b: UnsafePointer<UInt8>, _ p: inout Int, _ powers: PowersOfTen) -> Double? {
  var q = p
  let sign = b[q]
  let negative = sign == UInt8(ascii: "-")
  if negative || sign == UInt8(ascii: "+") { q += 1 }
  let digitsStart = q
  var mantissa = leadingDigits(b, &q, powers)
  var digits = q - digitsStart
  var fractionDigits = 0
  if b[q] == UInt8(ascii: ".") {
    q += 1
    let fractionStart = q
    let fraction = leadingDigits(b, &q, powers)
    fractionDigits = q - fractionStart
    guard fractionDigits <= 15 else { return nil }
    mantissa = mantissa &* powers.integer[fractionDigits] &+ fraction
    digits += fractionDigits
  }
  // 15 digits stay below 2^53, and so exact; the empty number is no number.
  guard digits > 0, digits <= 15 else { return nil }
  p = q
  // Converted as a signed integer (one instruction; exact below 2^53).
  let value = Double(Int64(bitPattern: mantissa)) / powers.double[fractionDigits]
  return negative ? -value : value
}

/// 10^k for k in 0...15 as exact doubles and as integers, in tables the
/// owner allocates once: indexing a table is branch-free, where a `switch`
/// on k compiles to an indirect jump that mispredicts as digit counts vary,
/// and a global array is initialised lazily and checked at every use.
struct PowersOfTen {
  let double: UnsafeMutablePointer<Double>
  let integer: UnsafeMutablePointer<UInt64>

  static func allocate() -> PowersOfTen {
    let tables = PowersOfTen(double: .allocate(capacity: 16), integer: .allocate(capacity: 16))
    var value: UInt64 = 1
    for k in 0..<16 {
      tables.integer[k] = value
      tables.double[k] = Double(value)  // exact: 10^15 < 2^53
      value *= 10
    }
    return tables
  }

  func deallocate() {
    double.deallocate()
    integer.deallocate()
  }
}

/// Reads an unsigned epoch time at `p` (`digits[.digits]`, at most 15 whole
/// digits) as `TrackTimeParser.parseEpoch` does, and moves `p` past it; nil
/// for anything else or for a time outside `TrackNormalizer.instants`.
@inline(__always)
func fastEpoch(_ b: UnsafePointer<UInt8>, _ p: inout Int, milliseconds: Bool?, _ powers: PowersOfTen) -> Int64? {
  var q = p
  let whole = leadingDigits(b, &q, powers)
  let wholeDigits = q - p
  guard wholeDigits > 0, wholeDigits <= 15 else { return nil }
  var fraction: UInt64 = 0
  if b[q] == UInt8(ascii: ".") {
    q += 1
    let fractionStart = q
    while b[q] &- 48 < 10 { q += 1 }
    // Milliseconds, truncated: the first three digits, padded with zeros.
    var k = fractionStart
    while k < fractionStart + 3 {
      let d = k < q ? UInt64(b[k] &- 48) : 0
      fraction = fraction * 10 + d
      k += 1
    }
  }
  let isMilliseconds = milliseconds ?? (whole >= 100_000_000_000)
  let value = isMilliseconds ? whole : whole * 1000 + fraction
  guard value <= UInt64(TrackNormalizer.instants.upperBound) else { return nil }
  p = q
  return Int64(value)
}

/// The decimal value of the run of ASCII digits at `p` (wrapping past 19
/// digits: callers bound the count), moving `p` past them. `b` must hold a
/// non-digit after the data (the CSV scanner's sentinel).
///
/// A digit at a time: on real tracks each column's digit counts repeat from
/// row to row, so the loop's exit branch is predicted; an 8-bytes-at-a-time
/// (SWAR) version measured 1.4 times slower on the 30-day track.
@inline(__always)
func leadingDigits(_ b: UnsafePointer<UInt8>, _ p: inout Int, _ powers: PowersOfTen) -> UInt64 {
  var value: UInt64 = 0
  var q = p
  while true {
    let d = b[q] &- 48
    if d >= 10 { break }
    value = value &* 10 &+ UInt64(d)
    q += 1
  }
  p = q
  return value
}

private func parseDecimalSlow(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
  if bytes.count > 120 { return nil }
  return withUnsafeTemporaryAllocation(of: CChar.self, capacity: bytes.count + 1) { text -> Double? in
    for i in 0..<bytes.count {
      let c = bytes[i]
      if c == 0 || c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D { return nil }  // strtod would skip or stop
      text[i] = CChar(bitPattern: c)
    }
    text[bytes.count] = 0
    var end: UnsafeMutablePointer<CChar>?
    let value = strtod(text.baseAddress!, &end)
    guard let end, end == text.baseAddress! + bytes.count else { return nil }
    return value
  }
}

// MARK: - Times

/// Why a time value could not be read.
enum TimeProblem: Error {
  case unreadable
  case exponent(significantDigits: Int)
  case outOfRange

  /// The message, with the value as `Diagnostic.quote` shows it.
  func message(quoted text: String, format: CSVTimeFormat) -> String {
    switch self {
    case .unreadable:
      switch format {
      case .auto: return "cannot read time \(text)"
      case .iso8601: return "time \(text) is not an ISO 8601 date and time"
      case .epochSeconds: return "time \(text) is not a number of seconds since 1970"
      case .epochMilliseconds: return "time \(text) is not a number of milliseconds since 1970"
      }
    case .exponent(let digits):
      return "time \(text) is in exponent notation, which keeps only \(digits) significant digit\(digits == 1 ? "" : "s")"
    case .outOfRange: return "time \(text) is out of range"
    }
  }

  func notes(format: CSVTimeFormat) -> [String] {
    switch self {
    case .unreadable:
      return [
        "write times as ISO 8601 ('2026-03-28T07:00:00Z', '2026-03-28 08:00:00.250+01:00') or as epoch seconds or milliseconds ('1774681200', '1774681200250')"
      ]
    case .exponent:
      return [
        "spreadsheets write long numbers this way and round them; re-export the column as whole numbers (format the cells as Number with 0 decimal places)"
      ]
    case .outOfRange: return [TrackMessages.instantRangeNote]
    }
  }
}

/// Parses ISO 8601 and epoch times from bytes, resolving offset-less
/// (naive) times in one zone. Holds a small cache, so it is a mutable value.
///
/// Naive times are resolved like this: a local time that exists once maps to
/// that instant; one that exists twice (the hour repeated when daylight
/// saving ends) maps to the earlier instant; one that does not exist (the
/// hour skipped when it starts) is moved forward by the length of the gap
/// (02:30 becomes 03:30).
struct TrackTimeParser {
  let naiveTimeZone: TimeZone
  let naiveIsUTC: Bool
  private var cachedMinute: Int64 = .min
  private var cachedOffsetMilliseconds: Int64 = 0

  init(naiveTimeZone: TimeZone) {
    self.naiveTimeZone = naiveTimeZone
    self.naiveIsUTC = ["UTC", "GMT", "Etc/UTC", "Etc/GMT", "GMT+0", "GMT-0", "UTC+0"].contains(naiveTimeZone.identifier)
  }

  @inline(__always)
  mutating func parseCSVTime(_ bytes: UnsafeBufferPointer<UInt8>, format: CSVTimeFormat) -> Result<Int64, TimeProblem> {
    switch format {
    case .iso8601:
      return parseISO8601(bytes).map { .success($0) } ?? .failure(.unreadable)
    case .epochSeconds: return parseEpoch(bytes, milliseconds: false)
    case .epochMilliseconds: return parseEpoch(bytes, milliseconds: true)
    case .auto:
      // Numeric first: digits with an optional sign and one dot.
      var p = 0
      let count = bytes.count
      if count > 0 && (bytes[0] == UInt8(ascii: "-") || bytes[0] == UInt8(ascii: "+")) { p = 1 }
      var numeric = p < count
      var dots = 0
      var hasExponent = false
      while p < count {
        let c = bytes[p]
        if c &- 48 < 10 {
        } else if c == UInt8(ascii: ".") {
          dots += 1
        } else if c == UInt8(ascii: "e") || c == UInt8(ascii: "E") {
          hasExponent = true
          numeric = false
          break
        } else {
          numeric = false
          break
        }
        p += 1
      }
      if numeric && dots <= 1 { return parseEpoch(bytes, milliseconds: nil) }
      if hasExponent, let problem = exponentProblem(bytes) { return .failure(problem) }
      for i in 0..<count {
        let c = bytes[i]
        if c == UInt8(ascii: "-") || c == UInt8(ascii: "T") || c == UInt8(ascii: ":") {
          return parseISO8601(bytes).map { .success($0) } ?? .failure(.unreadable)
        }
      }
      return .failure(.unreadable)
    }
  }

  /// `.exponent` when `bytes` is a number in exponent notation.
  private func exponentProblem(_ bytes: UnsafeBufferPointer<UInt8>) -> TimeProblem? {
    guard parseDecimal(bytes) != nil else { return nil }
    var significant = 0
    var leading = true
    for c in bytes {
      if c == UInt8(ascii: "e") || c == UInt8(ascii: "E") { break }
      if c &- 48 < 10 {
        if c == UInt8(ascii: "0") && leading { continue }
        leading = false
        significant += 1
      }
    }
    return .exponent(significantDigits: significant)
  }

  /// Epoch seconds or milliseconds; `milliseconds == nil` picks milliseconds
  /// when the magnitude is at least 1e11. Fractions are truncated to the ms.
  /// A value outside `TrackNormalizer.instants` (the years 0000–9999) is
  /// `.outOfRange`.
  @inline(__always)
  func parseEpoch(_ bytes: UnsafeBufferPointer<UInt8>, milliseconds: Bool?) -> Result<Int64, TimeProblem> {
    let count = bytes.count
    var p = 0
    var negative = false
    if count > 0 && bytes[0] == UInt8(ascii: "-") {
      negative = true
      p = 1
    } else if count > 0 && bytes[0] == UInt8(ascii: "+") {
      p = 1
    }
    var whole: Int64 = 0
    var wholeDigits = 0
    while p < count {
      let d = bytes[p] &- 48
      if d >= 10 { break }
      if whole > 92_233_720_368_547 { return .failure(.outOfRange) }  // keeps whole * 1000 + 999 in range
      whole = whole * 10 + Int64(d)
      wholeDigits += 1
      p += 1
    }
    var fraction: Int64 = 0  // milliseconds of a seconds value, truncated
    var fractionDigits = 0
    if p < count && bytes[p] == UInt8(ascii: ".") {
      p += 1
      while p < count {
        let d = bytes[p] &- 48
        if d >= 10 { break }
        if fractionDigits < 3 { fraction = fraction * 10 + Int64(d) }
        fractionDigits += 1
        p += 1
      }
    }
    if p != count || (wholeDigits == 0 && fractionDigits == 0) {
      if let problem = exponentProblem(bytes) { return .failure(problem) }
      return .failure(.unreadable)
    }
    for _ in min(fractionDigits, 3)..<3 { fraction *= 10 }
    let isMilliseconds = milliseconds ?? (whole >= 100_000_000_000)
    let value: Int64 = isMilliseconds ? whole : whole * 1000 + fraction
    let signed = negative ? -value : value
    guard TrackNormalizer.instants.contains(signed) else { return .failure(.outOfRange) }
    return .success(signed)
  }

  /// An ISO 8601 date-time (`ISO8601DateTime`'s grammar) to milliseconds since
  /// the epoch; without an offset it is local time in the naive zone.
  @inline(__always)
  mutating func parseISO8601(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
    guard case .success(let time) = ISO8601DateTime.parse(bytes) else { return nil }
    if let offset = time.offsetMilliseconds { return time.localMilliseconds - offset }
    return time.localMilliseconds - naiveOffsetMilliseconds(time.localMilliseconds)
  }

  /// The zone's offset for a local (wall-clock) time, in milliseconds.
  @inline(__always)
  mutating func naiveOffsetMilliseconds(_ local: Int64) -> Int64 {
    if naiveIsUTC { return 0 }
    let minute = local >= 0 ? local / 60_000 : (local - 59_999) / 60_000
    if minute == cachedMinute { return cachedOffsetMilliseconds }
    let localSeconds = Double(minute * 60)
    func offset(at utcSeconds: Double) -> Int64 {
      Int64(naiveTimeZone.secondsFromGMT(for: Date(timeIntervalSince1970: utcSeconds)))
    }
    let before = offset(at: localSeconds - 86_400)
    let after = offset(at: localSeconds + 86_400)
    let valid = Set([before, after]).filter { offset(at: localSeconds - Double($0)) == $0 }
    let chosen: Int64
    if valid.isEmpty {
      chosen = before  // in a gap: keep the offset from before it, which moves the time forward
    } else {
      chosen = valid.max()!  // in an overlap, the larger offset is the earlier instant
    }
    cachedMinute = minute
    cachedOffsetMilliseconds = chosen * 1000
    return cachedOffsetMilliseconds
  }
}
