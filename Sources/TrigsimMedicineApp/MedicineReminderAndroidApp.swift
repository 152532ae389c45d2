import Foundation
import TrigsimCore

/// The scenario's medicine app, Android build: the same medicines and
/// `policy:` as the iOS build, written as an ordinary Android app against
/// the simulated Android API (`AndroidDevice`), the API a team's own
/// Android build uses.
///
/// Android has no notification triggers: the app sets an alarm, its code
/// runs when the alarm fires, and it posts the notification then. So:
/// - each daily time has one alarm, for its next occurrence; when it fires
///   the app posts the reminder, sets the alarm for the next day, and, with
///   a follow-up chain, the alarm of follow-up 1 (`every` later). Each
///   follow-up's alarm sets the next one: the chain is scheduled at
///   delivery, one alarm at a time;
/// - the alarms are exact (`setExactAndAllowWhileIdle`), alarm-clock or
///   inexact (`setAndAllowWhileIdle`) as `policy: android: alarms:` says;
///   without the exact-alarm permission it falls back to inexact;
/// - "Taken" and a swipe (it sets a delete intent) cancel the dose's chain
///   alarm and clear its notifications; snooze cancels the chain and sets
///   one alarm `snooze` later;
/// - location reminders are geofences (enter/exit), added when the medicine
///   is created; the notification is posted from the transition's intent;
/// - it re-registers every alarm and geofence from its `BOOT_COMPLETED`
///   receiver (`policy: android: reRegisterAtBoot`), when the exact-alarm
///   permission is granted, and whenever the patient opens it (after a
///   force stop nothing else would), and with `policy: android: refreshWork`
///   also from a periodic WorkManager work;
/// - pushes (Firebase Cloud Messaging): a data message is the server's
///   "check your schedule" ping, and so is `onDeletedMessages`: the app
///   re-registers everything; a notification message while the app is open
///   is posted in the reminder channel, which is also the manifest's default
///   channel for notification messages the system shows.
public final class MedicineReminderAndroidApp: AndroidApp, @unchecked Sendable {
  let device: AndroidDevice
  let configuration: MedicineApp
  let regions: [MonitoredRegion]
  var policy: AndroidAppPolicy { configuration.policy.android }
  static let channel = "doses"
  static let completeAction = "complete"

  /// The medicines the patient entered, in creation order.
  var medicines: [MedicineID: Medicine] = [:]
  var creationOrder: [MedicineID] = []
  /// The dose each posted notification answers, and its daily time.
  var posted: [NotificationID: (medicine: MedicineID, time: DailyTime?, due: Date?)] = [:]
  let snoozeActions: [String: SimulationDuration]

  init(_ device: AndroidDevice, configuration: MedicineApp, regions: [MonitoredRegion]) {
    self.device = device
    self.configuration = configuration
    self.regions = regions
    snoozeActions = Dictionary(
      (configuration.category.snoozeOptions + [configuration.category.defaultSnooze]).map { (HostedApp.defaultActionIdentifier(.snooze($0)), $0) },
      uniquingKeysWith: { first, _ in first })
  }

  /// The system broadcasts the build's manifest registers, from its policy.
  static func broadcasts(_ policy: AndroidAppPolicy) -> Set<SystemBroadcast> {
    var broadcasts: Set<SystemBroadcast> = [.exactAlarmPermissionGranted, .locationProvidersChanged]
    if policy.reRegisterAtBoot {
      broadcasts.insert(.bootCompleted)
      if policy.directBootAware { broadcasts.insert(.lockedBootCompleted) }
    }
    return broadcasts
  }

  // MARK: - Entry points

  public func onCreate() async {
    device.notificationManager.createNotificationChannel(
      AndroidChannel(id: Self.channel, name: "Dose reminders", importance: policy.channelImportance))
    if policy.asksNotificationPermission && !device.notificationManager.areNotificationsEnabled() {
      _ = await device.notificationManager.requestPermission()
    }
    if let every = policy.refreshWork {
      // KEEP: a process start does not restart the period.
      let seconds = Double(every.milliseconds) / 1000
      device.workManager.enqueueUniquePeriodicWork(Self.refreshWork, every: seconds, delay: seconds, policy: .keep)
    }
  }

  /// The periodic work of `policy: android: refreshWork`.
  static let refreshWork: WorkName = "refresh-alarms"

  public func doWork(_ work: WorkRequestInfo) async {
    if work.name == Self.refreshWork { reRegisterAll() }
  }

  public func onActivityResumed() async { reRegisterAll() }

  public func patientChangedMedicine(_ change: MedicineEdit) async {
    switch change {
    case .created(let medicine), .edited(let medicine):
      if medicines[medicine.id] == nil { creationOrder.append(medicine.id) }
      if medicines[medicine.id] != nil { cancelAll(of: medicine.id, reason: "the patient edited the medicine") }
      medicines[medicine.id] = medicine
      register(medicine)
    case .deleted(let id):
      cancelAll(of: id, reason: "the patient deleted the medicine")
      medicines[id] = nil
      creationOrder.removeAll { $0 == id }
    }
  }

  public func onAlarm(_ alarm: AlarmIntent) async {
    guard let name = alarm.extras["medicine"], let medicine = medicines[MedicineID(name)],
      let time = alarm.extras["time"].flatMap(Self.dailyTime), let due = alarm.extras["due"].flatMap(Double.init).map(Date.init(timeIntervalSince1970:))
    else { return }
    let id = medicine.id
    switch alarm.extras["role"] {
    case "reminder":
      postReminder(medicine, time: time, due: due)
      setReminderAlarm(medicine, time: time, after: due)
      if let chain = medicine.snooze, chain.count > 0 { setFollowUpAlarm(medicine, time: time, due: due, number: 1, after: alarm.firedAt, chain: chain) }
    case "followUp":
      guard let number = alarm.extras["number"].flatMap(Int.init), let chain = medicine.snooze else { return }
      post(
        id: followUpID(medicine, time, number, due: due), medicine, title: medicine.name,
        attribution: .followUp(id, time: time, number: number, due: due), time: time, due: due)
      if number < chain.count { setFollowUpAlarm(medicine, time: time, due: due, number: number + 1, after: alarm.firedAt, chain: chain) }
    case "snooze":
      let acted = alarm.extras["acted"].map(NotificationID.init(_:)) ?? reminderID(medicine, time, due: due)
      post(id: snoozedID(of: acted, medicine, time, due: due), medicine, title: medicine.name, attribution: .snoozedAlert(id, time: time, due: due), time: time, due: due)
    default:
      break
    }
  }

  public func onBroadcast(_ broadcast: SystemBroadcast) async {
    switch broadcast {
    case .bootCompleted, .lockedBootCompleted, .exactAlarmPermissionGranted, .locationProvidersChanged:
      reRegisterAll()
    }
  }

  public func onMessageReceived(_ message: RemoteMessage) async {
    guard message.isNotificationMessage else {
      reRegisterAll()
      return
    }
    // In the foreground FCM hands the notification to the app, which shows it itself.
    device.notificationManager.notify(
      NotificationID("push_\(message.messageID)"),
      AndroidNotification(title: message.title ?? "", body: message.body, channel: message.channel ?? Self.channel, category: policy.category))
  }

  public func onDeletedMessages() async { reRegisterAll() }

  public func onGeofenceTransition(_ event: GeofenceEvent) async {
    for id in creationOrder {
      guard let medicine = medicines[id], let location = medicine.location, location.region == event.geofence else { continue }
      guard (event.transition == .enter && location.onEntry) || (event.transition == .exit && location.onExit) else { continue }
      post(id: locationID(medicine), medicine, title: medicine.name, attribution: .location(id), time: nil, due: nil)
    }
  }

  public func onNotificationAction(_ action: AndroidNotificationResponse) async {
    guard let (medicine, time, due) = posted[action.notification] else { return }
    if action.action == Self.completeAction || action.action == AndroidNotificationResponse.dismissed {
      finish(medicine, time: time, due: due)
    } else if action.action == AndroidNotificationResponse.contentTap && configuration.category.openCompletes {
      // The app counts opening the reminder as taking the dose (`category: openCompletes`).
      if let dose = device.simulation.dose(answeredBy: action.notification) { device.simulation.countAsTaken(dose) }
      finish(medicine, time: time, due: due)
    } else if let duration = snoozeActions[action.action], let time, let due {
      cancelChain(medicine, time: time, reason: "the patient snoozed the dose")
      device.notificationManager.cancel(action.notification)
      var values = extras(medicine, time, due, role: "snooze")
      values["acted"] = action.notification.rawValue
      setAlarm(
        AlarmTag("medicine_\(medicine)_\(time.compact)_snooze"), at: device.clock.now.addingTimeInterval(Double(duration.milliseconds) / 1000),
        extras: values, attribution: .snoozedAlert(medicine, time: time, due: due))
    }
  }

  // MARK: - Scheduling

  /// Every daily time's next alarm and the location geofences: at creation,
  /// after a boot, a grant of the exact-alarm permission, and each opening.
  func reRegisterAll() {
    for id in creationOrder { if let medicine = medicines[id] { register(medicine) } }
  }

  func register(_ medicine: Medicine) {
    // A server-driven app leaves the daily reminders to its server.
    for time in medicine.times where configuration.policy.dailyReminders == .local { setReminderAlarm(medicine, time: time, after: device.clock.now) }
    if let location = medicine.location, let region = regions.first(where: { $0.id == location.region }),
      let circle = region.shape as? CircularRegion
    {
      var transitions: Set<GeofenceTransition> = []
      if location.onEntry { transitions.insert(.enter) }
      if location.onExit { transitions.insert(.exit) }
      try? device.geofencingClient.addGeofences(
        [Geofence(id: region.id, center: circle.center, radius: circle.radius, options: GeofenceOptions(transitions: transitions))])
    }
  }

  /// The alarm of `time`'s next occurrence after `date` (its tag stays the same: setting it replaces the pending one).
  func setReminderAlarm(_ medicine: Medicine, time: DailyTime, after date: Date) {
    var components = DateComponents()
    components.hour = time.hour
    components.minute = time.minute
    guard let next = device.clock.calendar.nextDate(after: date, matching: components, matchingPolicy: .nextTime) else { return }
    setAlarm(
      AlarmTag("medicine_\(medicine.id)_\(time.compact)"), at: next, extras: extras(medicine.id, time, next, role: "reminder"),
      attribution: .postedReminder(medicine.id, time: time, due: next))
  }

  func setFollowUpAlarm(_ medicine: Medicine, time: DailyTime, due: Date, number: Int, after fired: Date, chain: SnoozeChainPolicy) {
    var values = extras(medicine.id, time, due, role: "followUp")
    values["number"] = String(number)
    setAlarm(
      AlarmTag("medicine_\(medicine.id)_\(time.compact)_chain"), at: fired.addingTimeInterval(Double(chain.every.milliseconds) / 1000), extras: values,
      attribution: .followUp(medicine.id, time: time, number: number, due: due))
  }

  /// Sets an alarm of the policy's kind; without the exact-alarm permission,
  /// an inexact while-idle alarm instead (as the Android 14 documentation asks).
  func setAlarm(_ tag: AlarmTag, at date: Date, extras: [String: String], attribution: DoseAttribution? = nil) {
    let manager = device.alarmManager
    let preferred: AndroidAlarmKind
    switch policy.alarms {
    case .exactWithFallback: preferred = .exactWhileIdle
    case .alarmClock: preferred = .alarmClock
    case .inexact: preferred = .inexactWhileIdle
    }
    if preferred.needsExactPermission && manager.canScheduleExactAlarms() {
      if (try? manager.set(preferred, at: date, tag: tag, extras: extras, attribution: attribution)) != nil { return }
    }
    try? manager.set(.inexactWhileIdle, at: date, tag: tag, extras: extras, attribution: attribution)
  }

  func extras(_ medicine: MedicineID, _ time: DailyTime, _ due: Date, role: String) -> [String: String] {
    ["medicine": medicine.rawValue, "time": time.description, "due": String(due.timeIntervalSince1970), "role": role]
  }

  // MARK: - Posting

  func postReminder(_ medicine: Medicine, time: DailyTime, due: Date) {
    post(id: reminderID(medicine, time, due: due), medicine, title: medicine.name, attribution: .postedReminder(medicine.id, time: time, due: due), time: time, due: due)
  }

  func post(id: NotificationID, _ medicine: Medicine, title: String, attribution: DoseAttribution, time: DailyTime?, due: Date?) {
    var actions = [Self.completeAction]
    actions += configuration.category.snoozeOptions.map { HostedApp.defaultActionIdentifier(.snooze($0)) }
    let notification = AndroidNotification(
      title: title, body: medicine.body, channel: Self.channel, category: policy.category, actions: actions, reportsDismissal: true,
      userInfo: [TimelineField("medicine", medicine.id.rawValue)], doseAttribution: attribution)
    posted[id] = (medicine.id, time, due)
    device.notificationManager.notify(id, notification)
  }

  /// The identifiers are the iOS build's (`policy: identifiers:`), so a
  /// scenario's scripted actions name the same notifications on both phones.
  var templates: IdentifierTemplates { configuration.policy.identifiers }

  func values(_ medicine: Medicine, _ time: DailyTime?, due: Date?, followUp: Int? = nil) -> IdentifierValues {
    let reminder = time.flatMap { medicine.times.firstIndex(of: $0) } ?? medicine.times.count
    let count = medicine.snooze?.count ?? 0
    var label: String?
    if let due {
      let parts = device.clock.calendar.dateComponents([.year, .month, .day], from: due)
      label = String(format: "%04d%02d%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }
    return IdentifierValues(
      medicine: medicine.id, reminder: reminder, followUp: followUp, followUpOfMedicine: followUp.map { reminder * count + $0 }, dose: label)
  }

  func reminderID(_ medicine: Medicine, _ time: DailyTime, due: Date) -> NotificationID {
    templates.reminder.render(values(medicine, time, due: due))
  }
  func followUpID(_ medicine: Medicine, _ time: DailyTime, _ number: Int, due: Date) -> NotificationID {
    templates.followUp.render(values(medicine, time, due: due, followUp: number))
  }
  func locationID(_ medicine: Medicine) -> NotificationID { templates.location.render(values(medicine, nil, due: nil)) }

  /// The snoozed re-alert's identifier, by `policy: snooze: identifier:`:
  /// `same` reuses the one acted on; `same-unless-pending` (the default)
  /// adds `_snoozed` to a reminder's or location reminder's identifier, as
  /// the iOS build does because those requests stay pending there; a template renders.
  func snoozedID(of acted: NotificationID, _ medicine: Medicine, _ time: DailyTime, due: Date) -> NotificationID {
    switch configuration.policy.snooze.identifier {
    case .same: return acted
    case .sameUnlessPending:
      return acted == reminderID(medicine, time, due: due) ? NotificationID(acted.rawValue + "_snoozed") : acted
    case .template(let template): return template.render(values(medicine, time, due: due))
    }
  }

  // MARK: - Finishing

  /// Taken or dismissed: the chain's alarm is cancelled and the dose's notifications cleared.
  func finish(_ medicine: MedicineID, time: DailyTime?, due: Date?) {
    if let time {
      cancelChain(medicine, time: time, reason: "the patient answered the dose")
      for (id, entry) in posted.sorted(by: { $0.key < $1.key }) where entry.medicine == medicine && entry.time == time && entry.due == due {
        device.notificationManager.cancel(id)
      }
    }
  }

  func cancelChain(_ medicine: MedicineID, time: DailyTime, reason: String) {
    device.alarmManager.cancel(AlarmTag("medicine_\(medicine)_\(time.compact)_chain"))
    device.alarmManager.cancel(AlarmTag("medicine_\(medicine)_\(time.compact)_snooze"))
  }

  func cancelAll(of medicine: MedicineID, reason: String) {
    guard let old = medicines[medicine] else { return }
    for time in old.times {
      device.alarmManager.cancel(AlarmTag("medicine_\(medicine)_\(time.compact)"))
      cancelChain(medicine, time: time, reason: reason)
    }
    if let location = old.location { device.geofencingClient.removeGeofences([location.region]) }
  }

  static func dailyTime(_ text: String) -> DailyTime? {
    let parts = text.split(separator: ":").compactMap { Int($0) }
    guard parts.count == 2 else { return nil }
    return DailyTime(hour: parts[0], minute: parts[1])
  }
}

extension DailyTime {
  /// `0800`: the time in an identifier.
  var compact: String { String(format: "%02d%02d", hour, minute) }
}
