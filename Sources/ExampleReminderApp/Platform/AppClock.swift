import Foundation

/// Where the app reads the time. App code never calls `Date()`: the phone's
/// clock is injected, so tests can run the app in another time.
public protocol AppClock: AnyObject {
  /// Now.
  var now: Date { get }
  /// A Gregorian calendar in the phone's current time zone.
  var calendar: Calendar { get }
}
