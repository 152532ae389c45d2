/// The device's record of the app under test: its lifecycle state and what
/// the patient allowed it (notifications, location authorization and
/// accuracy). Settings and the platform change it, never the app's code.
struct InstalledAppState {
  var state: AppState = .background
  var permission: NotificationPermission = .granted
  var locationAuthorization: LocationAuthorization = .whenInUse
  var locationAccuracy: LocationAccuracyAuthorization = .precise

  /// Why the platform does not monitor regions for location triggers now, if it does not.
  var regionMonitoringBlockedReason: String? {
    if !locationAuthorization.allowsRegionMonitoring {
      return "location authorization is \(locationAuthorization.rawValue): location triggers need when-in-use or always authorization, so the platform monitors no region"
    }
    if locationAccuracy == .approximate {
      return "precise location is off (approximate location): apps with reduced accuracy cannot use region monitoring"
    }
    return nil
  }
}
