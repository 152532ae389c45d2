import Foundation
import TrigsimCore

/// Helpers for building scenarios in code, so engine tests read as the rule they check.
public enum Build {
  /// An instant from an ISO 8601 string with offset (test input is trusted).
  public static func instant(_ text: String) -> SimulationInstant {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    if let date = formatter.date(from: text) { return SimulationInstant(date) }
    formatter.formatOptions = [.withInternetDateTime]
    guard let date = formatter.date(from: text) else { fatalError("bad test instant \(text)") }
    return SimulationInstant(date)
  }

  public static func zone(_ identifier: String) -> TimeZone { TimeZone(identifier: identifier)! }

  public static func clock(_ start: String, _ end: String, zone: String = "UTC", changes: [TimeZoneChange] = []) -> ClockSettings {
    ClockSettings(start: instant(start), end: instant(end), timeZone: self.zone(zone), timeZoneChanges: changes)
  }

  public static func add(_ id: NotificationID, _ trigger: Trigger, at: String, title: String = "") -> ScheduledAppAction {
    ScheduledAppAction(instant: instant(at), action: .add(NotificationRequest(id: id, title: title, trigger: trigger)))
  }

  public static func remove(_ id: NotificationID, at: String) -> ScheduledAppAction {
    ScheduledAppAction(instant: instant(at), action: .removePending(id))
  }

  public static func daily(hour: Int, minute: Int = 0, timeZone: String? = nil) -> Trigger {
    .calendar(CalendarTrigger(components: CalendarComponents(hour: hour, minute: minute, timeZone: timeZone.map(zone)), repeats: true))
  }

  public static func interval(_ duration: SimulationDuration, repeats: Bool) -> Trigger {
    .interval(IntervalTrigger(interval: duration, repeats: repeats))
  }

  public static func fix(_ at: String, _ latitude: Double, _ longitude: Double, startsSegment: Bool = false) -> TrackSample {
    TrackSample(instant: instant(at), coordinate: Coordinate(latitude: latitude, longitude: longitude), startsSegment: startsSegment)
  }
}

extension Timeline {
  /// `kind subject @ local-instant` per entry: compact text for asserting order in tests.
  public var outline: [String] { entries.map { "\($0.kind.rawValue) \($0.subject) @ \($0.localInstant)" } }
}

/// A region for engine tests: everything north of a latitude. The path is
/// interpolated linearly in latitude, so crossing instants are easy to state.
public final class NorthOfLatitude: RegionShape {
  public let latitude: Double
  public init(_ latitude: Double) { self.latitude = latitude }

  public func contains(_ coordinate: Coordinate) -> Bool { coordinate.latitude >= latitude }

  public func appendCrossings(from a: TrackSample, to b: TrackSample, insideAtStart: Bool, into crossings: inout [BoundaryCrossing]) {
    let insideAtEnd = contains(b.coordinate)
    guard insideAtEnd != insideAtStart else { return }
    let span = Double(b.instant.millisecondsSinceEpoch - a.instant.millisecondsSinceEpoch)
    let fraction = (latitude - a.coordinate.latitude) / (b.coordinate.latitude - a.coordinate.latitude)
    var offset = Int64((fraction * span).rounded(.up))
    offset = max(1, min(Int64(span), offset))
    crossings.append(BoundaryCrossing(instant: a.instant.advanced(byMilliseconds: offset), entering: insideAtEnd))
  }

  public var summary: String { "north of \(latitude)" }
}

extension PlatformSettings {
  /// The default platform with the `ideal` location profile, for tests that
  /// state the engine's geometric rules (detections at the crossing instants).
  public static var idealLocation: PlatformSettings {
    var settings = PlatformSettings()
    settings.location = .ideal
    return settings
  }
}
