import Foundation

/// The medications and the doses taken, kept as JSON in the app's
/// `KeyValueStore` so that a relaunched app finds them.
public final class MedicationStore {
  private let store: KeyValueStore
  static let medicationsKey = "medications.v1"
  static let takenKey = "taken-doses.v1"
  static let snoozedKey = "snoozed-doses.v1"
  /// The most taken (and snoozed) doses remembered (older ones no longer matter to scheduling).
  static let takenLimit = 200

  public init(_ store: KeyValueStore) { self.store = store }

  /// Every medication, by identifier.
  public var medications: [Medication] {
    guard let data = store.data(forKey: Self.medicationsKey) else { return [] }
    return (try? JSONDecoder().decode([Medication].self, from: data)) ?? []
  }

  public func medication(_ id: String) -> Medication? { medications.first { $0.id == id } }

  /// Adds or replaces the medication with `medication.id`.
  public func save(_ medication: Medication) {
    var all = medications.filter { $0.id != medication.id }
    all.append(medication)
    write(all.sorted { $0.id < $1.id }, forKey: Self.medicationsKey)
  }

  public func delete(_ id: String) {
    write(medications.filter { $0.id != id }, forKey: Self.medicationsKey)
  }

  /// Whether the patient took the dose of `medication` at `time` on `day`.
  public func isTaken(_ medication: String, _ time: ReminderTime, on day: DoseDay) -> Bool {
    takenDoses.contains(TakenDose(medication: medication, time: time, day: day))
  }

  public func markTaken(_ medication: String, _ time: ReminderTime, on day: DoseDay) {
    remember(TakenDose(medication: medication, time: time, day: day), under: Self.takenKey)
  }

  /// Whether the patient snoozed the dose (its follow-ups then give way to the snoozed alert).
  public func isSnoozed(_ medication: String, _ time: ReminderTime, on day: DoseDay) -> Bool {
    doses(under: Self.snoozedKey).contains(TakenDose(medication: medication, time: time, day: day))
  }

  public func markSnoozed(_ medication: String, _ time: ReminderTime, on day: DoseDay) {
    remember(TakenDose(medication: medication, time: time, day: day), under: Self.snoozedKey)
  }

  private func remember(_ dose: TakenDose, under key: String) {
    var doses = doses(under: key)
    guard !doses.contains(dose) else { return }
    doses.append(dose)
    write(Array(doses.suffix(Self.takenLimit)), forKey: key)
  }

  /// A dose the patient acted on.
  struct TakenDose: Codable, Equatable {
    var medication: String
    var time: ReminderTime
    var day: DoseDay
  }

  private var takenDoses: [TakenDose] { doses(under: Self.takenKey) }

  private func doses(under key: String) -> [TakenDose] {
    guard let data = store.data(forKey: key) else { return [] }
    return (try? JSONDecoder().decode([TakenDose].self, from: data)) ?? []
  }

  private func write<T: Encodable>(_ value: T, forKey key: String) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    store.set(try? encoder.encode(value), forKey: key)
  }
}
