/// What the device does with a notification that has been delivered: the
/// step between `fired` and what the patient can perceive. A platform
/// profile provides it (`PlatformSettings.makePresenter`), beside the
/// location service; the engine asks it and records its answer.
///
/// Today's only presenter shows every delivery at once unless the user
/// denied notifications. Focus, Scheduled Summary, interruption levels and
/// the device's power state belong here as further presenters.
protocol NotificationPresenter {
  /// How a delivery at this instant is presented.
  func presentation(of request: NotificationRequest, permission: NotificationPermission) -> Presentation
}

/// The presenter's answer for one delivery.
enum Presentation: Equatable {
  /// Shown in Notification Center (and as a banner) now.
  case shown
  /// Not shown, and why (the request still counts as delivered).
  case notShown(reason: String)
}

/// iOS without Focus: a delivery is shown at once, unless notifications are
/// denied, in which case the platform shows nothing (`add()` still succeeds).
struct ImmediatePresenter: NotificationPresenter {
  func presentation(of request: NotificationRequest, permission: NotificationPermission) -> Presentation {
    switch permission {
    case .granted: .shown
    case .denied: .notShown(reason: "notification permission denied: the platform shows nothing")
    }
  }
}
