import Foundation

/// What the dose ledger knows about a request attributed to a dose: by the
/// app (`DoseAttribution`), or by the scenario's identifier templates.
struct MedicineRequestInfo {
  enum Role: Equatable {
    /// The repeating daily request for time `n` of `times`: `medicine_{id}_reminder_{n}`.
    case reminder(Int, DailyTime)
    /// The location request: `medicine_{id}_location`.
    case location
    /// Follow-up `index` (1-based) of a dose's chain: `medicine_{id}_snooze_{k}`.
    case followUp(index: Int)
    /// The re-alert the app adds when the user snoozes.
    case snoozedAlert

    /// `daily reminder`, `location reminder`, `follow-up 3`, `snoozed alert`.
    var description: String {
      switch self {
      case .reminder: "daily reminder"
      case .location: "location reminder"
      case .followUp(let index): "follow-up \(index)"
      case .snoozedAlert: "snoozed alert"
      }
    }

    /// A reminder or location request: the notification that opens a dose.
    var isMain: Bool {
      switch self {
      case .reminder, .location: true
      case .followUp, .snoozedAlert: false
      }
    }
  }

  var medicine: MedicineID
  var role: Role
  /// Fixed for follow-ups and snoozed alerts; reminders and location
  /// requests open a new dose at each delivery.
  var dose: DoseKey?
  /// When `dose` was due.
  var doseScheduled: SimulationInstant?
  /// For a raw follow-up (`notifications:`): the daily time its identifier names.
  var rawReminder: Int? = nil
  /// For a hosted app's follow-up or snoozed alert: the daily time it names
  /// (the medicine may not exist yet when the request is added).
  var chainTime: DailyTime? = nil
  /// For a hosted app's follow-up or snoozed alert: the due instant of the
  /// dose it serves, when the app named one (`DoseAttribution`'s `due:`).
  var chainDue: SimulationInstant? = nil
}

