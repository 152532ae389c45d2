import ExampleReminderApp
import Foundation
import TrigsimCore

/// The example app's delegates on trigsim's simulated phone: what its
/// `UIApplicationDelegate`, `UNUserNotificationCenterDelegate` and
/// `CLLocationManagerDelegate` do on iOS, each a line that calls the app.
final class ReminderAppOnSimulatedDevice: SimulatedApp, UserNotificationCenterDelegate, LocationManagerDelegate {
  let device: SimulatedDevice
  let app: ReminderApp
  /// The places the patient saved, by identifier (the scenario's circles).
  let places: [String: SavedPlace]

  init(device: SimulatedDevice, configuration: ReminderApp.Configuration, places: [String: SavedPlace]) {
    self.device = device
    self.places = places
    app = ReminderApp(
      configuration: configuration, notifications: device.notificationCenter, regions: device.locationManager, clock: device.clock,
      store: device.storage)
  }

  /// The app on the simulated phone, for `Simulation`, `TrialRunner` and
  /// `assertScenario`: a new instance each time the system launches it.
  static func hosted(_ configuration: ReminderApp.Configuration = .shipping, places: [SavedPlace]) -> HostedApp {
    let book = Dictionary(places.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    return HostedApp(attribution: doseAttribution) { device in
      ReminderAppOnSimulatedDevice(device: device, configuration: configuration, places: book)
    }
  }

  /// Which dose each of the app's requests serves, read from its identifier (`ReminderID`).
  @Sendable static func doseAttribution(_ request: NotificationRequest) -> DoseAttribution? {
    guard let id = ReminderID(rawValue: request.id.rawValue) else { return nil }
    let medicine = MedicineID(id.medication)
    let time = id.time.map { DailyTime(hour: $0.hour, minute: $0.minute) }
    switch id {
    case .daily, .oneDay: return .reminder(medicine, time: time!)
    case .followUp(_, _, _, let number): return .followUp(medicine, time: time!, number: number)
    case .snoozed: return .snoozedAlert(medicine, time: time!)
    case .place: return .location(medicine)
    }
  }

  /// The medication the patient entered, in the app's model.
  func medication(_ medicine: Medicine) -> Medication {
    let place = medicine.location.map { location -> SavedPlace in
      guard let place = places[location.region.rawValue] else {
        preconditionFailure("medicine \(medicine.id) is taken at '\(location.region)', which is not among the saved places \(places.keys.sorted())")
      }
      return place
    }
    return Medication(
      id: medicine.id.rawValue, name: medicine.name, dose: medicine.body,
      times: medicine.times.map { ReminderTime(hour: $0.hour, minute: $0.minute) }, place: place)
  }

  // MARK: - SimulatedApp

  func didFinishLaunching(reason: LaunchReason) async {
    device.notificationCenter.delegate = self
    device.locationManager.delegate = self
    await app.didLaunch()
  }

  func didBecomeActive() async { await app.didBecomeActive() }

  func patientChangedMedicine(_ change: MedicineEdit) async {
    switch change {
    case .created(let medicine), .edited(let medicine): await app.save(medication(medicine))
    case .deleted(let id): await app.deleteMedication(id.rawValue)
    }
  }

  // MARK: - UserNotificationCenterDelegate

  /// Reminders show while the app is open too.
  func willPresent(_ notification: UserNotification) async -> PresentationOptions { [.banner, .list, .sound] }

  func didReceive(_ response: NotificationResponse) async {
    await app.handle(action: response.actionIdentifier, on: response.notification.request.id.rawValue, deliveredAt: response.notification.date)
  }

  // MARK: - LocationManagerDelegate

  func didEnterRegion(_ region: CircularRegionSpec) async { await app.patientArrived(at: region.identifier.rawValue) }
}

/// The circles of a scenario as the places the patient saved in the app.
func savedPlaces(of scenario: Scenario) -> [SavedPlace] {
  scenario.regions.compactMap { region in
    guard let circle = region.shape as? CircularRegion else { return nil }
    return SavedPlace(id: region.id.rawValue, latitude: circle.center.latitude, longitude: circle.center.longitude, radius: circle.radius)
  }
}
