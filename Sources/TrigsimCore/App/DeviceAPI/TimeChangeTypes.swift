import Foundation

/// An app that re-plans when the device's time changes significantly:
/// `UIApplicationDelegate.applicationSignificantTimeChange(_:)` (with
/// `UIApplication.significantTimeChangeNotification`) and
/// `NSNotification.Name.NSSystemTimeZoneDidChange`, as one callback.
///
/// Optional, as the delegate method is on the platform: trigsim calls it
/// only on an app instance that adopts this protocol, and records its `app
/// significantTimeChange` entry only then, so an app that does not observe
/// time changes has the same timeline as before.
///
/// When it runs (Apple, "applicationSignificantTimeChange(_:)": "If your app
/// is currently suspended, this message is queued until your app returns to
/// the foreground, at which point it is delivered. If multiple time changes
/// occur, only the most recent one is delivered."):
/// - in the foreground: at the change's instant;
/// - in the background (trigsim's background app is suspended): queued, and
///   delivered when the app next comes to the foreground, before its
///   `didBecomeActive`; only the latest queued change is delivered. The
///   change's instant has an entry with `ran=no` saying it was queued;
/// - terminated: not delivered, and the queue is lost with the process (a
///   new process reads `device.clock.timeZone` when it launches; the system
///   does not launch an app for a time change). Under
///   `processModel: .persistent` the kept instance is told with `ran=no`.
///
/// Modelled causes: the device's zone changes (the scenario's
/// `clock: timeZoneChanges`, travel), each midnight in the device's zone, and
/// each daylight-saving change of that zone, the causes Apple names (a
/// carrier's time update is not modelled: the virtual clock is always right).
public protocol SignificantTimeChangeObserving: AnyObject {
  /// The device's time changed significantly; read the new zone from
  /// `change.timeZone` or `device.clock.timeZone`.
  func significantTimeChange(_ change: SignificantTimeChange) async
}

/// What changed the device's time (`SignificantTimeChangeObserving`).
public struct SignificantTimeChange: Sendable, Equatable {
  /// Why the time changed.
  public enum Cause: String, Sendable, CaseIterable {
    /// The device's time zone changed (travel; `NSSystemTimeZoneDidChange`).
    case timeZone = "time-zone"
    /// Midnight in the device's zone.
    case midnight
    /// The device's zone changed its offset (daylight saving time began or ended).
    case daylightSaving = "daylight-saving"
  }

  public var cause: Cause
  /// When the change happened (virtual time); a queued change is delivered later.
  public var date: Date
  /// The device's zone after the change.
  public var timeZone: TimeZone
  /// The device's zone before it (the same zone for midnight and daylight saving).
  public var previousTimeZone: TimeZone

  public init(cause: Cause, date: Date, timeZone: TimeZone, previousTimeZone: TimeZone) {
    self.cause = cause
    self.date = date
    self.timeZone = timeZone
    self.previousTimeZone = previousTimeZone
  }
}
