import Foundation
import TrigsimCore

/// The scenario's medicine-reminder app (`medicines:`, `policy:`, `category:`,
/// `badge:`), written as an ordinary app against the public simulated device
/// API (`SimulatedDevice`), the API a team's own app uses.
///
/// It is the port of the engine's built-in app (`App/BuiltIn/` in
/// `TrigsimCore`), which still runs the bundled scenarios until the port
/// gives byte-identical output for all of them;
/// `Tests/TrigsimMedicineAppTests` compares the two on every bundled
/// scenario and lists which already agree.
public final class MedicineReminderApp: SimulatedApp, UserNotificationCenterDelegate, LocationManagerDelegate, @unchecked Sendable {
  let device: SimulatedDevice
  let configuration: MedicineApp

  init(_ device: SimulatedDevice, configuration: MedicineApp) {
    self.device = device
    self.configuration = configuration
  }

  /// The app for `scenario`, as `Simulation(scenario, app:)` and
  /// `TrialRunner(scenario, app:)` take it: a new instance per process, and
  /// no `app` entry per callback (the built-in app's timelines have none).
  public static func hosted(for scenario: Scenario) -> HostedApp {
    let configuration = scenario.medicineApp
    return HostedApp(recordsCallbacks: false) { device in MedicineReminderApp(device, configuration: configuration) }
  }

  // MARK: - SimulatedApp

  public func didFinishLaunching(reason: LaunchReason) async {
    device.notificationCenter.delegate = self
    device.locationManager.delegate = self
  }

  // MARK: - UserNotificationCenterDelegate

  /// In the foreground the app shows every notification as the device would in the background.
  public func willPresent(_ notification: UserNotification) async -> PresentationOptions { [.banner, .list, .sound, .badge] }
}
