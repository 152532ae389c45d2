import TrigsimCore
import Yams

/// The scenario's `patient:`: when the patient looks at the phone (see the
/// manual, "From fired to seen", "The patient who looks").
extension ScenarioReader {
  static let patientKeys = ["looks", "day"]
  static let dayKeys = ["wake", "sleep", "pickups"]
  /// More looks a day than this is not looking, it is staring: a pickup a minute while awake.
  static let mostPickupsPerDay = 1440

  /// `patient: { looks: [instants], day: { wake, sleep, pickups } }`.
  func readPatientAttention(_ node: Node) -> PatientAttention {
    var attention = PatientAttention()
    guard let fields = document.mapping(node, what: "'patient'", keys: Self.patientKeys) else { return attention }
    if let looksNode = fields["looks"], let list = document.sequence(looksNode, what: "'looks'", example: "looks: [2026-05-05T07:45:00]") {
      var looks: [ScriptedLook] = []
      for item in list {
        if let instant = instantDuringRun(item, what: "a look") { looks.append(ScriptedLook(instant: instant, origin: document.location(item))) }
      }
      attention.looks = looks.enumerated().sorted { ($0.element.instant, $0.offset) < ($1.element.instant, $1.offset) }.map(\.element)
    }
    if let dayNode = fields["day"], let day = document.mapping(dayNode, what: "'day'", keys: Self.dayKeys) {
      let example = "e.g. day: { wake: \"07:00\", sleep: \"23:00\", pickups: 76 }"
      guard let wakeNode = day["wake"], let sleepNode = day["sleep"] else {
        document.error(dayNode, "'day' needs 'wake' and 'sleep'", notes: [example])
        return attention
      }
      let wake = dailyTime(wakeNode, what: "wake time")
      let sleep = dailyTime(sleepNode, what: "sleep time")
      var pickups = DailyRoutine.defaultPickupsPerDay
      if let node = day["pickups"] {
        guard let value = document.integer(node, what: "pickups", range: 1...Self.mostPickupsPerDay) else { return attention }
        pickups = value
      }
      guard let wake, let sleep else { return attention }
      guard wake != sleep else {
        document.error(sleepNode, "the patient sleeps at \(sleep), the time they wake", notes: ["give a waking span, e.g. wake \"07:00\", sleep \"23:00\""])
        return attention
      }
      attention.day = DailyRoutine(wake: wake, sleep: sleep, pickupsPerDay: pickups)
    }
    return attention
  }
}
