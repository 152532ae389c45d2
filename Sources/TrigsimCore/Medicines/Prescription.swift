import Foundation

/// When a medicine's doses are due, as the prescription says: the ground
/// truth the dose ledger holds notifications against. It is computed here
/// from the clock and the zones alone, never by the calendar-trigger
/// evaluator, so a reminder that the platform moves (a time-zone change, a
/// DST rule) or never fires shows up as a dose no notification answered.
public struct Prescription: Sendable, Equatable {
  /// Where a daily time is read.
  public enum Basis: Sendable, Equatable {
    /// In the zone the patient is in (the device's zone in force): a dose a
    /// flight east jumps over is due at the jump (the patient's clock passed
    /// the time). The default: floating reminders intend this.
    case local
    /// In a fixed zone, whatever zone the device is in (the patient keeps
    /// home time, as for a medicine taken at fixed intervals).
    case zone(TimeZone)
    /// Every `interval` of elapsed time from the first dose (the daily time's
    /// first occurrence after the medicine is created, in the device zone):
    /// "every 24 ± 1 h", blind to zones and DST.
    case every(SimulationDuration)
  }

  public var basis: Basis
  /// How early a notification may fire and still answer the dose.
  public var before: SimulationDuration
  /// How late a notification may fire and still answer the dose.
  public var after: SimulationDuration

  public init(basis: Basis = .local, before: SimulationDuration = .minutes(60), after: SimulationDuration = .minutes(60)) {
    self.basis = basis
    self.before = before
    self.after = after
  }

  /// The model's default: the daily time where the patient is, ±1 h.
  public static let standard = Prescription()

  /// Whether a notification firing at `fire` answers a dose due at `due`.
  public func accepts(_ fire: SimulationInstant, due: SimulationInstant) -> Bool {
    fire >= due.advanced(byMilliseconds: -before.milliseconds) && fire <= due.advanced(by: after)
  }

  /// `local ±1h`, `Europe/Copenhagen -30m+2h`, `every 24h ±1h`.
  public var summary: String {
    let window = before == after ? "±\(before)" : "-\(before)+\(after)"
    switch basis {
    case .local: return "local \(window)"
    case .zone(let zone): return "\(zone.identifier) \(window)"
    case .every(let interval): return "every \(interval) \(window)"
    }
  }
}

/// One prescribed dose of a daily time.
public struct PrescribedDose: Sendable, Equatable {
  public var due: SimulationInstant
  /// The local date the dose belongs to, as days since 1970-01-01.
  public var day: Int64
  /// 0, or 1 for a second dose on the same local date (after a flight west), and so on.
  public var repeatOnDay: Int
  /// Why the dose is due where it is, when the basis moved it: "the clock
  /// jumped past 20:00 at the time-zone change", "02:30 does not exist on
  /// this day (DST): due at 03:30".
  public var remark: String?
}

/// The prescribed doses of one daily time, from the clock's zones (pure).
public struct PrescriptionSchedule: Sendable {
  public let prescription: Prescription
  public let time: DailyTime
  /// The device zone from each instant on: the clock zone (from the
  /// beginning of time), then each change.
  let zones: [(from: SimulationInstant?, zone: TimeZone)]

  public init(prescription: Prescription, time: DailyTime, clock: ClockSettings) {
    self.prescription = prescription
    self.time = time
    var zones: [(from: SimulationInstant?, zone: TimeZone)] = [(nil, clock.timeZone)]
    for change in clock.timeZoneChanges { zones.append((change.instant, change.timeZone)) }
    self.zones = zones
  }

  /// The doses due strictly after `start` and at or before `end`, in time order.
  public func doses(after start: SimulationInstant, through end: SimulationInstant) -> [PrescribedDose] {
    var doses: [PrescribedDose] = []
    switch prescription.basis {
    case .zone(let zone):
      doses = Self.daily(time, in: zone, from: start, to: end).filter { $0.due > start && $0.due <= end }
    case .local:
      for (position, segment) in zones.enumerated() {
        let from = segment.from ?? start
        let until = position + 1 < zones.count ? zones[position + 1].from! : end.advanced(byMilliseconds: 1)
        guard until > start, from <= end else { continue }
        doses += Self.daily(time, in: segment.zone, from: max(from, start), to: until).filter {
          $0.due >= from && $0.due < until && $0.due > start && $0.due <= end
        }
        // A change that moves the clock forward jumps over the wall times
        // between the two readings: a daily time among them is due at the jump.
        if let change = segment.from, position > 0, change > start, change <= end {
          let before = Self.wallSeconds(change, in: zones[position - 1].zone)
          let after = Self.wallSeconds(change, in: segment.zone)
          if after > before {
            var day = floorDivide(before, 86_400).quotient
            while day * 86_400 + Int64(time.secondOfDay) < after {
              let wall = day * 86_400 + Int64(time.secondOfDay)
              if wall >= before {
                doses.append(PrescribedDose(
                  due: change, day: day, repeatOnDay: 0,
                  remark: "the time-zone change at this instant (\(zones[position - 1].zone.identifier) → \(segment.zone.identifier)) moved the clock past \(time): due at the change"))
              }
              day += 1
            }
          }
        }
      }
      doses.sort { ($0.due, $0.day) < ($1.due, $1.day) }
    case .every(let interval):
      guard let first = Self.daily(time, in: zones[0].zone, from: start, to: end.advanced(by: .seconds(86_400 * 2))).first(where: { $0.due > start })
      else { return [] }
      var due = first.due
      let zone = zonesAt(first.due)
      while due <= end {
        doses.append(PrescribedDose(due: due, day: floorDivide(Self.wallSeconds(due, in: zone), 86_400).quotient, repeatOnDay: 0))
        due = due.advanced(by: interval)
      }
    }
    // Number the doses of one local date.
    var seen: [Int64: Int] = [:]
    for index in doses.indices {
      let count = seen[doses[index].day, default: 0]
      doses[index].repeatOnDay = count
      seen[doses[index].day] = count + 1
    }
    return doses
  }

  private func zonesAt(_ instant: SimulationInstant) -> TimeZone {
    var zone = zones[0].zone
    for segment in zones.dropFirst() where segment.from! <= instant { zone = segment.zone }
    return zone
  }

  /// The occurrence of `time` on every local date in `zone` from the day
  /// before `from` to the day after `to`. A wall time that does not exist
  /// (a DST gap) is due as many seconds after the gap as it was into it
  /// (02:30 → 03:30); one that occurs twice is due at its first occurrence.
  static func daily(_ time: DailyTime, in zone: TimeZone, from: SimulationInstant, to: SimulationInstant) -> [PrescribedDose] {
    let firstDay = floorDivide(wallSeconds(from, in: zone), 86_400).quotient - 1
    let lastDay = floorDivide(wallSeconds(to, in: zone), 86_400).quotient + 1
    guard firstDay <= lastDay else { return [] }
    var doses: [PrescribedDose] = []
    for day in firstDay...lastDay {
      let wall = day * 86_400 + Int64(time.secondOfDay)
      let (instant, remark) = resolve(wall: wall, in: zone, time: time)
      doses.append(PrescribedDose(due: instant, day: day, repeatOnDay: 0, remark: remark))
    }
    return doses
  }

  /// The instant a wall-clock second (seconds since 1970-01-01 00:00 local) names in `zone`.
  static func resolve(wall: Int64, in zone: TimeZone, time: DailyTime) -> (SimulationInstant, String?) {
    let earlyOffset = Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(wall - 43_200))))
    let lateOffset = Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(wall + 43_200))))
    let candidates = [wall - earlyOffset, wall - lateOffset].filter { utc in
      Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(utc)))) == wall - utc
    }
    if let first = candidates.min() { return (SimulationInstant(millisecondsSinceEpoch: first * 1000), nil) }
    // In a gap: keep the offset before it, which lands as far past the gap as the time was into it.
    let utc = wall - earlyOffset
    let shown = SimulationInstant(millisecondsSinceEpoch: utc * 1000)
    return (shown, "\(time) does not exist on this day in \(zone.identifier) (the clock skips it): due at the same elapsed time after the change")
  }

  /// Seconds since 1970-01-01 00:00 on the wall clock of `zone` at `instant`.
  static func wallSeconds(_ instant: SimulationInstant, in zone: TimeZone) -> Int64 {
    floorDivide(instant.millisecondsSinceEpoch, 1000).quotient + Int64(zone.secondsFromGMT(for: instant.date))
  }
}

extension DailyTime {
  /// Seconds since local midnight.
  var secondOfDay: Int { hour * 3600 + minute * 60 }
}
