import Foundation

extension QuietHours {
  /// Whether the wall clock of `zone` at `instant` reads a time inside these hours.
  public func contains(_ instant: SimulationInstant, in zone: TimeZone) -> Bool {
    let local = Self.localMilliseconds(instant, zone)
    let minuteOfDay = Int(floorDivide(local, 60_000).quotient - floorDivide(local, 86_400_000).quotient * 1440)
    return contains((minuteOfDay / 60, minuteOfDay % 60))
  }

  /// The first instant at or after `instant` whose wall-clock time in `zone`
  /// is outside these hours: `instant` itself when it is outside already.
  ///
  /// The rule is the instant's, not the calendar's: quiet hours end when the
  /// clock on the wall stops reading a time inside them, whatever a zone
  /// transition does to the clock. Quiet hours 01:00–02:30 on a night when
  /// the clocks jump from 02:00 to 03:00 end at the jump (03:00 is outside),
  /// not at 03:30 as a calendar trigger's `dstGap` rule would give for a
  /// 02:30 that does not exist; in a repeated hour they end at the first
  /// 02:30 (a time inside them again after the clocks go back begins a new
  /// span, which the caller checks again). So the result is exact to the
  /// millisecond wherever the offset changes: the wall clock is followed
  /// from one offset change to the next (each found by bisection between two
  /// instants whose offsets differ, so any change of offset counts, not only
  /// daylight saving), at most 8 of them.
  public func firstInstantOutside(atOrAfter instant: SimulationInstant, in zone: TimeZone) -> SimulationInstant {
    var at = instant
    for _ in 0..<8 {
      if !contains(at, in: zone) { return at }
      // Milliseconds of wall-clock time until `to`, at this offset.
      let local = Self.localMilliseconds(at, zone)
      let sinceMidnight = floorDivide(local, 86_400_000).remainder
      let end = Int64(to.hour * 60 + to.minute) * 60_000
      var untilEnd = end - sinceMidnight
      if untilEnd <= 0 { untilEnd += 86_400_000 }
      let candidate = at.advanced(byMilliseconds: untilEnd)
      guard let change = Self.firstOffsetChange(after: at, upTo: candidate, zone) else { return candidate }
      at = change
    }
    return at
  }

  /// Milliseconds since the epoch of the wall clock in `zone` at `instant`.
  static func localMilliseconds(_ instant: SimulationInstant, _ zone: TimeZone) -> Int64 {
    instant.millisecondsSinceEpoch + Int64(zone.secondsFromGMT(for: instant.date)) * 1000
  }

  /// The first instant in `(after, upTo]` whose UTC offset differs from
  /// `after`'s, by bisection to the millisecond; nil when the offset at
  /// `upTo` is `after`'s (two changes that cancel out within a day do not
  /// occur in the zone database).
  static func firstOffsetChange(after: SimulationInstant, upTo: SimulationInstant, _ zone: TimeZone) -> SimulationInstant? {
    let offset = zone.secondsFromGMT(for: after.date)
    guard zone.secondsFromGMT(for: upTo.date) != offset else { return nil }
    var low = after.millisecondsSinceEpoch  // offset as at `after`
    var high = upTo.millisecondsSinceEpoch  // offset changed
    while high - low > 1 {
      let middle = low + (high - low) / 2
      if zone.secondsFromGMT(for: SimulationInstant(millisecondsSinceEpoch: middle).date) == offset { low = middle } else { high = middle }
    }
    return SimulationInstant(millisecondsSinceEpoch: high)
  }
}
