import Foundation
import TrigsimCore

/// The scenario's medicine-reminder app (`medicines:`, `policy:`, `category:`,
/// `badge:`, `places:` with `regionSet:`), written as an ordinary app against the public simulated device
/// API (`SimulatedDevice`), the API a team's own app uses.
///
/// `trigsim run` and the other commands run it, and `Simulation(scenario)`
/// (`TrigsimMedicineApp`). It replaced the engine's own built-in app, whose
/// output it reproduces byte for byte on every bundled scenario. It acts
/// only on the requests it added: a request of the scenario's
/// `notifications:` named like its own still counts for a dose (the ledger's
/// identifier templates), but the app neither decorates it nor acts on the
/// patient's responses to it. It hears locations only when the platform
/// runs its code (not while it is force-quit or the phone is off).
///
/// What it does:
/// - for each medicine the patient creates: a repeating calendar reminder per
///   daily time, each followed by its upfront chain of follow-ups for the
///   time's next occurrence (`snooze: { every, count, schedule: upfront }`),
///   then a repeating location reminder;
/// - an on-delivery chain (`schedule: onDelivery`) is added when app code
///   first hears of the dose's reminder: will-present in the foreground, or
///   the patient's action;
/// - "Taken" and dismiss cancel the dose's chain and clear its notifications;
///   snooze cancels the chain and adds one re-alert, as `policy: snooze:` says;
/// - whenever its code runs (coming to the foreground, an action,
///   will-present, a background push, its background refresh task) it tops
///   up upfront chains as `policy: reAddChains:` says, and sets its badge as
///   `badge:` says;
/// - with place sets it watches the nearest N places, recomputed where the
///   significant-change service reports the device.
public final class MedicineReminderApp: SimulatedApp, UserNotificationCenterDelegate, @unchecked Sendable {
  let device: SimulatedDevice
  let configuration: MedicineApp
  var policy: AppPolicy { configuration.policy }
  /// The places the patient saved (`places:`), the app's rule for watching
  /// the nearest of them (`regionSet:`) and the platform's region limit.
  let placeSets: [PlaceSet]
  let regionSet: RegionSetPolicy
  let nearestCount: Int
  let nearestIndexes: [NearestPlaces]

  /// What the app added under an identifier (it keeps this for the life of its process).
  struct Added {
    enum Role: Equatable {
      case reminder(Int, DailyTime)
      case location
      case followUp(Int)
      case snoozedAlert

      var isMain: Bool {
        switch self {
        case .reminder, .location: true
        case .followUp, .snoozedAlert: false
        }
      }
    }

    var medicine: MedicineID
    var role: Role
    var dose: DoseKey?
  }

  /// Why the app's code ran: the moments `policy: reAddChains:` names.
  enum Moment: String {
    case foreground = "launch (foreground)"
    case action = "an action handler"
    case willPresent = "will-present (foreground delivery)"
    case backgroundRefresh = "a background refresh"
    case silentPush = "a background push"
    case medicineChange = "the patient's change to a medicine"
  }

  /// The medicines the patient entered, and in which order they were created.
  var medicines: [MedicineID: Medicine] = [:]
  var creationOrder: [MedicineID] = []
  var added: [NotificationID: Added] = [:]
  /// Doses whose on-delivery chain question is settled (added, or not wanted after the patient acted).
  var chainSettled: Set<DoseKey> = []
  /// Doses for which the app added follow-ups or a snoozed alert.
  var chainAdded: Set<DoseKey> = []
  /// When the app's code ran, why, and which medicines' chains it re-added (nil: all).
  var codeRuns: [(at: SimulationInstant, moment: Moment, reAdded: [MedicineID]?)] = []
  /// Medicines created or edited at this instant whose requests wait for the
  /// end of the batch (add orders other than `interleaved`).
  var batch: [MedicineID] = []
  /// Whether the device has reported a location yet (the significant-change service's first report).
  var learnedLocation = false
  /// The places each medicine asked for at its last refresh (what the app
  /// believes it registered: a place the region limit dropped stays here, so
  /// the app does not ask for it again until it leaves the nearest N).
  var registeredPlaces: [MedicineID: Set<Int>] = [:]
  /// Where the app last computed a place set a medicine uses (the `moved` refreshes measure from here).
  var placesRefreshCentre: Coordinate?
  /// The last choice of nearest places of each set: when, where, which.
  var lastPlacesRefresh: [PlaceSetID: (at: SimulationInstant, position: Coordinate, selected: Set<Int>)] = [:]
  /// The last version of every medicine the patient entered, deleted ones included.
  var lastVersion: [MedicineID: Medicine] = [:]

  /// The action identifiers of the medicine category's snooze buttons, with their durations.
  let snoozeActions: [String: SimulationDuration]
  static let categoryIdentifier = "medicine"
  static let completeAction = "complete"

  init(_ device: SimulatedDevice, configuration: MedicineApp, placeSets: [PlaceSet], regionSet: RegionSetPolicy, platform: PlatformSettings) {
    self.device = device
    self.configuration = configuration
    self.placeSets = placeSets
    self.regionSet = regionSet
    nearestCount = regionSet.count(under: platform)
    nearestIndexes = placeSets.map { NearestPlaces(places: $0.places) }
    snoozeActions = Dictionary(
      (configuration.category.snoozeOptions + [configuration.category.defaultSnooze]).map { (HostedApp.defaultActionIdentifier(.snooze($0)), $0) },
      uniquingKeysWith: { first, _ in first })
  }

  /// The app for `scenario`, as `Simulation(scenario, app:)` and
  /// `TrialRunner(scenario, app:)` take it, with the scenario app's model:
  /// one instance for the run (`processModel: .persistent`), no `app` entry
  /// per callback or call, the chain in `medicine` entries, polygon regions.
  public static func hosted(for scenario: Scenario) -> HostedApp {
    let (configuration, placeSets, regionSet, platform) = (scenario.medicineApp, scenario.placeSets, scenario.regionSet, scenario.platform)
    var app = HostedApp(
      recordsCallbacks: false, recordsAppCalls: false, medicineEntriesShowChains: true, processModel: .persistent, acceptsPolygonRegions: true
    ) { device in
      MedicineReminderApp(device, configuration: configuration, placeSets: placeSets, regionSet: regionSet, platform: platform)
    }
    app.isScenarioMedicineApp = true
    let regions = UncheckedRegions(scenario.regions)
    app.makeAndroid = { device in MedicineReminderAndroidApp(device, configuration: configuration, regions: regions.value) }
    app.androidBroadcasts = MedicineReminderAndroidApp.broadcasts(configuration.policy.android)
    app.androidDefaultNotificationChannel = MedicineReminderAndroidApp.channel
    return app
  }

  var center: UserNotificationCenter { device.notificationCenter }
  var notes: SimulationNotes { device.simulation }

  // MARK: - SimulatedApp

  public func didFinishLaunching(reason: LaunchReason) async {
    center.delegate = self
    device.locationManager.delegate = self
    let snoozes = snoozeActions.keys.sorted().map { NotificationAction(identifier: $0, title: $0) }
    center.setNotificationCategories([
      NotificationCategory(
        identifier: Self.categoryIdentifier, actions: [NotificationAction(identifier: Self.completeAction, title: "Taken")] + snoozes,
        customDismissAction: configuration.category.customDismiss)
    ])
    // The nearest places follow the device: its location now, then the significant-change service,
    // and in the foreground every fix (the standard service).
    if !placeSets.isEmpty {
      device.locationManager.startMonitoringSignificantLocationChanges()
      device.locationManager.startUpdatingLocation()
    }
    // The refresh task runs whenever the system grants it (the scenario's `run: background-refresh`).
    try? device.application.submit(Self.refreshRequest)
  }

  static let refreshRequest = BackgroundRefreshRequest(identifier: "medicine-refresh")

  /// Coming to the foreground runs the app's launch code: it re-adds chains (its policy) and sets its badge.
  public func didBecomeActive() async {
    await codeRan(.foreground, medicine: nil)
    await setBadge()
  }

  /// A background push: the app's code runs in the background.
  public func didReceiveRemoteNotification(_ userInfo: [String: String]) async {
    await codeRan(.silentPush, medicine: nil)
    await setBadge()
  }

  public func performBackgroundRefresh(_ request: BackgroundRefreshRequest) async {
    // A request is used up when it runs: the next one is asked for at once.
    try? device.application.submit(Self.refreshRequest)
    await codeRan(.backgroundRefresh, medicine: nil)
    await setBadge()
  }

  public func patientChangedMedicine(_ change: MedicineEdit) async {
    switch change {
    case .created(let medicine):
      medicines[medicine.id] = medicine
      lastVersion[medicine.id] = medicine
      creationOrder.append(medicine.id)
      await added(medicine.id)
    case .edited(let medicine):
      await removePendingRequests(of: medicine.id, reason: "medicine edited")
      medicines[medicine.id] = medicine
      lastVersion[medicine.id] = medicine
      await added(medicine.id)
    case .deleted(let id):
      guard medicines[id] != nil else { return }
      await removePendingRequests(of: id, reason: "medicine deleted")
      let shown = await center.deliveredNotifications().map(\.request.id).filter { added[$0]?.medicine == id }
      notes.because("medicine deleted") { center.removeDeliveredNotifications(withIdentifiers: shown) }
      medicines[id] = nil
      batch.removeAll { $0 == id }
    }
  }

  /// A medicine was created or edited: its requests now (`addOrder: interleaved`), or with the batch.
  func added(_ id: MedicineID) async {
    batch.append(id)
    if policy.addOrder == .interleaved { await addBatch() }
  }

  /// The changes at this instant are all in: the batch's requests, in the policy's add order.
  public func patientFinishedChangingMedicines() async { await addBatch() }

  func addBatch() async {
    let ids = batch
    batch = []
    await addRequests(of: ids)
    // One request per nearest place, after the batch's other requests.
    for id in ids {
      guard let medicine = medicines[id], medicine.location?.places != nil else { continue }
      registeredPlaces[id] = []  // a new version: its requests were removed (an edit) or never added
      if let position = device.locationManager.location { await refreshPlaces(.medicineAdded, at: position) }
    }
  }

  // MARK: - UserNotificationCenterDelegate

  /// In the foreground the app shows every notification as the device would
  /// in the background; a medicine reminder's delivery runs its code first.
  public func willPresent(_ notification: UserNotification) async -> PresentationOptions {
    let id = notification.request.id
    if let dose = notes.dose(answeredBy: id), let medicine = added[id].flatMap({ medicines[$0.medicine] }) {
      await learned(of: id, dose: dose, medicine: medicine)
      await codeRan(.willPresent, medicine: medicine.id)
      await setBadge()
    }
    return [.banner, .list, .sound, .badge]
  }

  public func didReceive(_ response: NotificationResponse) async {
    let id = response.notification.request.id
    guard let dose = notes.dose(answeredBy: id), let info = added[id], let medicine = medicines[info.medicine] else { return }
    // In the background an action handler may be suspended before its
    // asynchronous work (`policy: handler: cut-short`): the cancellations run, the re-adds do not.
    let cutShort = policy.handler == .cutShort && device.application.applicationState != .foreground
    switch response.actionIdentifier {
    case Self.completeAction:
      await finish(dose, dismissed: false)
    case NotificationResponse.dismissActionIdentifier:
      await finish(dose, dismissed: true)
    case NotificationResponse.defaultActionIdentifier:
      if configuration.category.openCompletes {
        notes.countAsTaken(dose)
        await finish(dose, dismissed: false)
      } else if !cutShort {
        await learned(of: id, dose: dose, medicine: medicine)
      }
    case let action:
      guard let duration = snoozeActions[action] else { return }
      chainSettled.insert(dose)
      await cancelChain(of: dose, reason: "dose snoozed")
      guard !cutShort else {
        handlerCutShort(id, lost: "the snoozed alert", dose: dose)
        codeRuns.append((SimulationInstant(device.clock.now), .action, []))
        return
      }
      await snooze(id, dose: dose, medicine: medicine, for: duration)
    }
    guard !cutShort else {
      if medicine.snooze?.scheduling == .upfront, policy.chainReAdds.action != .none {
        handlerCutShort(id, lost: "the chain top-up", dose: dose)
      }
      codeRuns.append((SimulationInstant(device.clock.now), .action, []))
      return
    }
    await codeRan(.action, medicine: medicine.id)
    await setBadge()
  }

  /// The system suspended the app before its handler's re-adds ran.
  func handlerCutShort(_ id: NotificationID, lost: String, dose: DoseKey) {
    let state = device.application.applicationState.rawValue
    notes.warn(id.rawValue, "the action handler was cut short (policy handler: cut-short; the app was \(state)): \(lost) was never added")
    notes.remark("\(lost) lost at \(notes.timestamp(device.clock.now)): the action handler was cut short", onDoseOf: id)
  }

  // MARK: - Adding requests

  /// A request the app is about to add, with what it is for.
  struct Planned {
    var request: NotificationRequest
    var info: Added
    var isChain: Bool { !info.role.isMain }
  }

  /// Adds the requests of the medicines just created or edited, in the policy's add order.
  func addRequests(of ids: [MedicineID]) async {
    let now = device.clock.now
    var mains: [Planned] = []
    var chains: [Planned] = []
    var ordered: [Planned] = []
    for id in ids {
      guard let medicine = medicines[id] else { continue }
      let plan = plannedAdds(of: medicine, at: now)
      switch policy.addOrder {
      case .interleaved: ordered += plan
      case .perMedicine: ordered += plan.filter { !$0.isChain } + plan.filter(\.isChain)
      case .remindersFirst, .chainsFirst:
        mains += plan.filter { !$0.isChain }
        chains += plan.filter(\.isChain)
      }
    }
    if !ids.isEmpty { codeRuns.append((SimulationInstant(now), .medicineChange, ids)) }
    if policy.addOrder == .remindersFirst { ordered = mains + chains }
    if policy.addOrder == .chainsFirst { ordered = chains + mains }
    for planned in ordered { await add(planned) }
  }

  /// Adds a planned request under its identifier, remembering what it is for.
  func add(_ planned: Planned) async {
    var request = planned.request
    request.categoryIdentifier = Self.categoryIdentifier
    if let medicine = medicines[planned.info.medicine] {
      request.interruptionLevel = medicine.interruptionLevel
      if configuration.badge == .countAtAdd && request.badge == nil { request.badge = await waitingDoseCount() + 1 }
    }
    if planned.isChain, let dose = planned.info.dose { chainAdded.insert(dose) }
    added[request.id] = planned.info
    try? await center.add(request)
  }

  /// A medicine's requests: each daily reminder and its upfront chain, then the location request.
  func plannedAdds(of medicine: Medicine, at now: Date) -> [Planned] {
    var plan: [Planned] = []
    // A server-driven app leaves the daily reminders (and their upfront chains) to its server.
    for (index, time) in medicine.times.enumerated() where policy.dailyReminders == .local {
      var request = NotificationRequest(
        id: policy.identifiers.reminder(medicine.id, index), title: medicine.name, body: medicine.body, trigger: .calendar(Self.daily(time)),
        userInfo: mainUserInfo(medicine, slot: .time(time)))
      request.doseAttribution = .reminder(medicine.id, time: time)
      plan.append(Planned(request: request, info: Added(medicine: medicine.id, role: .reminder(index, time))))
      if medicine.snooze?.scheduling == .upfront { plan += upfrontChain(of: medicine, time: time, after: now) }
    }
    if let location = medicine.location, location.places == nil {
      var request = NotificationRequest(
        id: policy.identifiers.location(medicine.id), title: medicine.name, body: medicine.body,
        trigger: .region(RegionTrigger(region: location.region, notifyOnEntry: location.onEntry, notifyOnExit: location.onExit, repeats: location.repeats)),
        userInfo: mainUserInfo(medicine, slot: .location))
      request.doseAttribution = .location(medicine.id)
      plan.append(Planned(request: request, info: Added(medicine: medicine.id, role: .location)))
    }
    return plan
  }

  static func daily(_ time: DailyTime) -> CalendarTrigger {
    CalendarTrigger(components: CalendarComponents(hour: time.hour, minute: time.minute), repeats: true)
  }

  /// A one-shot calendar trigger for the local date and time of `date`
  /// (floating, as the app builds it from date components).
  func dated(_ date: Date) -> CalendarTrigger {
    let parts = device.clock.calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
    let second = parts.second ?? 0
    return CalendarTrigger(
      components: CalendarComponents(
        year: parts.year, month: parts.month, day: parts.day, hour: parts.hour, minute: parts.minute, second: second == 0 ? nil : second),
      repeats: false)
  }

  func mainUserInfo(_ medicine: Medicine, slot: DoseSlot) -> [TimelineField] {
    var fields = [TimelineField("medicine", medicine.id.rawValue)]
    switch slot {
    case .time(let time): fields.append(TimelineField("reminder", String(medicine.times.firstIndex(of: time) ?? -1)))
    case .location: fields.append(TimelineField("location", medicine.location?.kind ?? ""))
    }
    return fields + [
      TimelineField("dosage", medicine.dosage), TimelineField("unit", medicine.unit), TimelineField("snooze", medicine.snooze?.summary ?? "none"),
    ]
  }

  func chainUserInfo(_ medicine: Medicine, dose: DoseKey, extra: TimelineField) -> [TimelineField] {
    var fields = [TimelineField("medicine", medicine.id.rawValue)]
    switch dose.slot {
    case .time(let time): fields.append(TimelineField("reminder", String(medicine.times.firstIndex(of: time) ?? -1)))
    case .location: fields.append(TimelineField("location", medicine.location?.kind ?? ""))
    }
    return fields + [extra, TimelineField("dose", dose.occurrenceLabel), TimelineField("dosage", medicine.dosage), TimelineField("unit", medicine.unit)]
  }

  // MARK: - Removing requests

  /// The pending requests the app added that `matches` selects, in add order.
  func pending(where matches: (NotificationID, Added) -> Bool) async -> [NotificationID] {
    await center.pendingNotificationRequests().map(\.id).filter { id in added[id].map { matches(id, $0) } ?? false }
  }

  /// Removes every pending request of a medicine (an edit or a deletion); a
  /// dose whose chain this cuts short gets a remark.
  func removePendingRequests(of medicine: MedicineID, reason: String) async {
    let ids = await pending { _, info in info.medicine == medicine }
    let now = notes.timestamp(device.clock.now)
    for id in ids {
      notes.because(reason) { center.removePendingNotificationRequests(withIdentifiers: [id]) }
      guard let info = added[id], !info.role.isMain, let dose = info.dose else { continue }
      notes.remark("chain removed: \(reason) at \(now)", on: dose)
    }
  }

  /// Removes the dose's pending follow-ups and snoozed alert: the chain
  /// requests the app recorded for this dose, and, `byIdentifier` (a
  /// completion or dismissal), as an app does, the follow-up identifiers of
  /// the dose's chain (its daily time, or the location), whatever dose
  /// trigsim's ledger says they answer (after a time-zone change a chain
  /// added the evening before may answer none by the ledger, and is still
  /// this dose's chain on the phone).
  func cancelChain(of dose: DoseKey, reason: String, byIdentifier: Bool = false) async {
    let chainIDs: Set<NotificationID> = !byIdentifier ? [] : medicines[dose.medicine].map { medicine in
      Set((0..<(medicine.snooze?.count ?? 0)).map { policy.identifiers.followUp(medicine, slot: dose.slot, index: $0 + 1, dose: dose) })
    } ?? []
    let ids = await pending { id, info in !info.role.isMain && (info.dose == dose || (info.medicine == dose.medicine && chainIDs.contains(id))) }
    notes.because(reason) { center.removePendingNotificationRequests(withIdentifiers: ids) }
  }

  /// Complete or dismiss: cancel the rest of the chain and clear the dose's shown notifications.
  func finish(_ dose: DoseKey, dismissed: Bool) async {
    let reason = dismissed ? "dose dismissed" : "dose completed"
    chainSettled.insert(dose)
    await cancelChain(of: dose, reason: reason, byIdentifier: true)
    let shown = await center.deliveredNotifications().map(\.request.id).filter { notes.dose(answeredBy: $0) == dose }
    notes.because(reason) { center.removeDeliveredNotifications(withIdentifiers: shown) }
  }

  // MARK: - Chains

  /// The upfront chain of a daily time: one-shot requests dated `every`,
  /// 2 × `every`, … after the time's next occurrence.
  func upfrontChain(of medicine: Medicine, time: DailyTime, after now: Date) -> [Planned] {
    guard let chain = medicine.snooze, chain.count > 0, let occurrence = center.nextTriggerDate(for: Self.daily(time), after: now) else { return [] }
    let dose = notes.prescribedDose(of: medicine.id, at: time, firingAt: occurrence)
    return (1...chain.count).map { number in
      let at = occurrence.addingTimeInterval(Double(chain.every.milliseconds * Int64(number)) / 1000)
      var request = NotificationRequest(
        id: policy.identifiers.followUp(medicine, slot: .time(time), index: number, dose: dose), title: medicine.name, body: medicine.body,
        trigger: .calendar(dated(at)), userInfo: chainUserInfo(medicine, dose: dose, extra: TimelineField("followup", "\(number)/\(chain.count)")))
      request.doseAttribution = .followUpOfDose(dose, number: number, due: occurrence)
      return Planned(request: request, info: Added(medicine: medicine.id, role: .followUp(number), dose: dose))
    }
  }

  /// The on-delivery chain: one-shot intervals `every`, 2 × `every`, … from now.
  func addOnDeliveryChain(of medicine: Medicine, dose: DoseKey) async {
    guard let chain = medicine.snooze, chain.count > 0 else { return }
    chainSettled.insert(dose)
    let due = notes.record(of: dose)?.scheduled.date
    for number in 1...chain.count {
      var request = NotificationRequest(
        id: policy.identifiers.followUp(medicine, slot: dose.slot, index: number, dose: dose), title: medicine.name, body: medicine.body,
        trigger: .interval(IntervalTrigger(interval: chain.every * Int64(number), repeats: false)),
        userInfo: chainUserInfo(medicine, dose: dose, extra: TimelineField("followup", "\(number)/\(chain.count)")))
      request.doseAttribution = .followUpOfDose(dose, number: number, due: due)
      await add(Planned(request: request, info: Added(medicine: medicine.id, role: .followUp(number), dose: dose)))
    }
  }

  /// App code heard of a reminder (will-present or an action): its
  /// on-delivery chain starts if the dose has none yet.
  func learned(of id: NotificationID, dose: DoseKey, medicine: Medicine) async {
    guard let info = added[id], info.role.isMain, medicine.snooze?.scheduling == .onDelivery, !chainSettled.contains(dose),
      notes.record(of: dose)?.resolved == nil
    else { return }
    if notes.record(of: dose)?.notes.contains(where: { $0.hasPrefix("chain not scheduled") }) == true {
      notes.remark("chain added late, when the user acted at \(notes.timestamp(device.clock.now))", onDoseOf: id)
    }
    await addOnDeliveryChain(of: medicine, dose: dose)
  }

  /// App code ran: it re-adds upfront chains for the medicines the policy
  /// names for that moment (`policy: reAddChains:`).
  func codeRan(_ moment: Moment, medicine: MedicineID?) async {
    let scope: ChainReAddScope
    switch moment {
    case .foreground: scope = policy.chainReAdds.foreground
    case .action: scope = policy.chainReAdds.action
    case .willPresent: scope = policy.chainReAdds.willPresent
    case .backgroundRefresh: scope = policy.chainReAdds.backgroundRefresh
    case .silentPush: scope = policy.chainReAdds.silentPush
    case .medicineChange: scope = .none
    }
    let now = SimulationInstant(device.clock.now)
    switch scope {
    case .none:
      codeRuns.append((now, moment, []))
    case .medicine:
      codeRuns.append((now, moment, medicine.map { [$0] } ?? []))
      if let medicine, let current = medicines[medicine] { await topUpChains(of: current) }
    case .all:
      codeRuns.append((now, moment, nil))
      for id in creationOrder { if let current = medicines[id] { await topUpChains(of: current) } }
    }
  }

  /// Adds the next occurrence's chain for every daily time that has no chain
  /// request pending. A pending snoozed alert may hold a follow-up's
  /// identifier, which the next chain reuses, so the app waits until it has fired.
  func topUpChains(of medicine: Medicine) async {
    guard medicine.snooze?.scheduling == .upfront else { return }
    for time in medicine.times {
      let pending = await pending { _, info in info.medicine == medicine.id && !info.role.isMain && info.dose?.slot == .time(time) }
      guard pending.isEmpty else { continue }
      for planned in upfrontChain(of: medicine, time: time, after: device.clock.now) { await add(planned) }
    }
  }

  // MARK: - Snooze

  /// The snoozed alert, as the policy implements it (`policy: snooze:`).
  func snooze(_ id: NotificationID, dose: DoseKey, medicine: Medicine, for duration: SimulationDuration) async {
    let implementation = policy.snooze
    let alertID: NotificationID
    switch implementation.identifier {
    case .sameUnlessPending:
      // Reusing the identifier of the notification acted on replaces it in
      // Notification Center; but when that identifier names a pending request
      // (the repeating daily or location request, the next dose's follow-up),
      // reusing it would replace that request.
      let pending = await center.pendingNotificationRequests().contains { $0.id == id }
      alertID = pending ? NotificationID(id.rawValue + "_snoozed") : id
    case .same:
      alertID = id
    case .template(let template):
      let reminder: Int
      switch dose.slot {
      case .time(let time): reminder = medicine.times.firstIndex(of: time) ?? medicine.times.count
      case .location: reminder = medicine.times.count
      }
      alertID = template.render(IdentifierValues(medicine: medicine.id, reminder: reminder, dose: dose.compactLabel))
    }
    let record = notes.record(of: dose)
    let trigger: Trigger
    switch implementation.trigger {
    case .intervalFromNow:
      trigger = .interval(IntervalTrigger(interval: duration, repeats: false))
    case .calendarFromDue:
      let now = device.clock.now
      let due = record?.scheduled.date ?? now
      let at = due.addingTimeInterval(Double(duration.milliseconds) / 1000)
      if at <= now && implementation.onlyIfFuture {
        notes.warn(
          alertID.rawValue,
          "snoozed alert not added: the dose's time \(notes.timestamp(due)) + \(duration) = \(notes.timestamp(at)) is not in the future (the app's only-if-future guard)")
        notes.remark("snooze at \(notes.timestamp(now)) added no alert: \(notes.timestamp(due)) + \(duration) had passed", onDoseOf: id)
        return
      }
      trigger = .calendar(dated(at))
    }
    var request = NotificationRequest(
      id: alertID, title: medicine.name, body: medicine.body, trigger: trigger,
      userInfo: chainUserInfo(medicine, dose: dose, extra: TimelineField("snoozed", String(record?.snoozes ?? 1))))
    request.doseAttribution = .snoozedAlertOfDose(dose, due: record?.scheduled.date)
    await add(Planned(request: request, info: Added(medicine: medicine.id, role: .snoozedAlert, dose: dose)))
  }

  // MARK: - Badge

  /// The doses with a notification in Notification Center.
  func waitingDoseCount() async -> Int {
    Set(await center.deliveredNotifications().compactMap { notes.dose(answeredBy: $0.request.id) }).count
  }

  /// The app's code sets the badge to the doses waiting (`badge: app-code`, `count-at-add`).
  func setBadge() async {
    guard configuration.badge != .none else { return }
    try? await center.setBadgeCount(await waitingDoseCount())
  }
}

// MARK: - The dose table's reasons

/// The dose table's reasons, from the app's own memory (its
/// identifiers, its chain policy, when its code ran).
extension MedicineReminderApp: DoseExplaining {
  public func missedReason(_ dose: MissedDose, facts: SimulationFacts) -> String? {
    let id = policy.identifiers.reminder(dose.medicine, dose.timeIndex)
    if let replaced = facts.replacement(of: id) { return "the daily reminder \(id) was \(replaced)" }
    if let loss = facts.lossReason(id) { return loss }
    if let pending = facts.pending(id), added[id]?.role == .reminder(dose.timeIndex, dose.time) {
      let fires = pending.nextDelivery.map { "next fires \(facts.timestamp($0))" } ?? "never fires"
      let window = "outside the prescription's window (\(dose.prescription.summary))"
      let clock = facts.scenario.clock
      if let change = clock.timeZoneChanges.last(where: { $0.instant <= dose.due.advanced(by: dose.prescription.after) }) {
        let from = clock.deviceZone(at: change.instant.advanced(byMilliseconds: -1)).identifier
        let cause = change.instant > dose.previousDue
          ? "time-zone change at \(facts.timestamp(change.instant)) (\(from) → \(change.timeZone.identifier))"
          : "device zone \(change.timeZone.identifier) since the time-zone change at \(facts.timestamp(change.instant))"
        return "\(cause): the floating \(dose.time) reminder \(fires), \(window)"
      }
      let zone = clock.deviceZone(at: dose.due)
      let dayStart = dose.due.advanced(by: .seconds(-43_200)).date
      let dayEnd = dose.due.advanced(by: .seconds(43_200)).date
      if zone.secondsFromGMT(for: dayStart) != zone.secondsFromGMT(for: dayEnd) {
        let platform = facts.scenario.platform
        let rules = "dst-gap=\(platform.dstGapPolicy.rawValue) repeated-time=\(platform.repeatedTimePolicy.rawValue)"
        return "DST change in \(zone.identifier): under the platform's rule (\(rules)) the \(dose.time) reminder \(fires), \(window)"
      }
      return "the \(dose.time) reminder \(fires), \(window)"
    }
    if added[id] == nil { return "never scheduled: the app added no request \(id)" }
    return "the reminder request was not pending (removed or replaced outside the app model)"
  }

  /// "no follow-ups: …": a dose of an upfront chain the patient never
  /// answered, for which the app added no follow-up, and why no app code added one.
  public func unansweredRemark(_ dose: DoseRecord, facts: SimulationFacts) -> String? {
    guard dose.resolved == nil, dose.followUpsDelivered == 0, !chainAdded.contains(dose.key), case .time = dose.key.slot,
      let medicine = medicines[dose.key.medicine] ?? lastVersion[dose.key.medicine],
      let chain = medicine.snooze, chain.scheduling == .upfront, chain.count > 0
    else { return nil }
    guard let last = codeRuns.last(where: { $0.at < dose.scheduled }) else {
      return "no follow-ups: no app code ran before this dose to add them"
    }
    let what: String
    switch (last.moment, last.reAdded) {
    case (.medicineChange, _):
      what = "added the chains of the doses right after it only"
    case (_, nil):
      what = "found a chain of this daily time still pending, so added none"
    case (_, let medicines?) where medicines.contains(dose.key.medicine):
      what = "found a chain of this daily time still pending, so added none"
    case (_, let medicines?) where medicines.isEmpty:
      what = last.moment == .action && policy.handler == .cutShort ? "was cut short before re-adding chains" : "re-adds no chains (policy reAddChains)"
    case (_, let medicines?):
      what = "re-added only medicine \(medicines.map(\.rawValue).joined(separator: ", "))'s chains"
    }
    return "no follow-ups: the last app code before this dose, \(last.moment.rawValue) at \(facts.timestamp(last.at)), \(what)"
  }

  public func locationDoseObstacle(_ medicine: MedicineID, region: RegionID, facts: SimulationFacts) -> String? {
    let id = policy.identifiers.location(medicine)
    return facts.pending(id) == nil ? facts.lossReason(id) ?? "the location request was not pending" : nil
  }

  public func locationDetectionLoss(_ medicine: MedicineID, region: RegionID, facts: SimulationFacts) -> String? {
    facts.lossReason(policy.identifiers.location(medicine))
  }

  /// A crossing of a place the app did not watch: it was not among the nearest at the last refresh.
  public func placeNotMonitoredReason(set: PlaceSetID, place: PlaceID, facts: SimulationFacts) -> String? {
    guard let index = placeSets.firstIndex(where: { $0.id == set }), let placeIndex = placeSets[index].places.firstIndex(where: { $0.id == place })
    else { return nil }
    guard let refresh = lastPlacesRefresh[set] else {
      return "not monitored: the app had not registered the nearest places yet (no fix before this crossing)"
    }
    guard !refresh.selected.contains(placeIndex) else { return nil }
    let distance = Geodesic.distance(refresh.position, placeSets[index].places[placeIndex].center)
    return "not monitored: \(place) was not among the nearest \(nearestCount) at the last refresh (at \(facts.timestamp(refresh.at)), \(RegionSetPolicy.metres(distance.rounded())) away)"
  }

  /// `handler=cut-short`: the system suspends a background action handler
  /// before its re-adds (`policy: handler: cut-short`).
  public func actionEntryFields(_ id: NotificationID, actionIdentifier: String, state: AppState) -> [TimelineField] {
    policy.handler == .cutShort && state != .foreground && actionIdentifier != "ignore" ? [TimelineField("handler", "cut-short")] : []
  }

  public func dismissNotReportedReason(_ id: NotificationID, facts: SimulationFacts) -> String? {
    "the category has no custom dismiss action, so the app is not told and the dose's chain goes on"
  }

  /// An on-delivery chain starts only when app code hears of the reminder:
  /// delivered in the background or while terminated, it does not start.
  public func deliveredWithoutAppCode(_ notification: UserNotification, dose: DoseKey, state: AppState, notes: SimulationNotes) {
    let id = notification.request.id
    guard let info = added[id], info.role.isMain, let medicine = medicines[info.medicine], let chain = medicine.snooze,
      chain.scheduling == .onDelivery, chain.count > 0, !chainSettled.contains(dose)
    else { return }
    let why = "follow-up chain not scheduled: the app was \(state.isTerminated ? "terminated" : "in the background") at delivery, so its will-present callback did not run; the \(chain.count) follow-ups are added only if the user acts on this notification"
    notes.warn(id.rawValue, why)
    notes.remark("chain not scheduled at delivery (app \(state.rawValue))", on: dose)
  }
}

// MARK: - Many places: the nearest N

extension MedicineReminderApp: LocationManagerDelegate {
  /// Why the app recomputes the nearest places it watches.
  enum PlacesRefreshCause: String {
    /// The first location the device reports: the app learns where it is.
    case firstFix = "first fix"
    /// A medicine over a place set was created or edited while the location was known.
    case medicineAdded = "medicine added"
    /// The significant-change service woke the app with a new location.
    case significantChange = "significant change"
    /// In the foreground, the device is `regionSet: refresh` metres from where the places were last computed.
    case moved = "moved"
  }

  /// The significant-change service's report: the first is where the device
  /// is; later ones refresh only when `regionSet: significantChange` is on.
  /// The standard service's (every fix in the foreground): a refresh once
  /// the device is `regionSet: refresh` metres from where the places were last computed.
  public func didUpdateLocation(_ coordinate: Coordinate, from service: LocationUpdateService) async {
    switch service {
    case .significantChange:
      let cause: PlacesRefreshCause = learnedLocation ? .significantChange : .firstFix
      learnedLocation = true
      await refreshPlaces(cause, at: coordinate)
      if !regionSet.significantChange { device.locationManager.stopMonitoringSignificantLocationChanges() }
    case .standard:
      guard let centre = placesRefreshCentre, Geodesic.distance(centre, coordinate) >= regionSet.refresh else { return }
      await refreshPlaces(.moved, at: coordinate)
    }
  }

  /// For every place set a medicine uses: the nearest places from
  /// `position`, and for each such medicine the requests of places that left
  /// the set removed and of those that entered added (nearest first, so the
  /// platform's region limit drops the farthest), with a `regions` entry.
  func refreshPlaces(_ cause: PlacesRefreshCause, at position: Coordinate) async {
    for (index, set) in placeSets.enumerated() {
      let users = creationOrder.compactMap { medicines[$0] }.filter { $0.location?.places == set.id }
      guard !users.isEmpty else { continue }
      let selected = nearestIndexes[index].nearest(nearestCount, to: position).map(\.place)
      lastPlacesRefresh[set.id] = (SimulationInstant(device.clock.now), position, Set(selected))
      placesRefreshCentre = position
      for medicine in users { await apply(selected, of: set, to: medicine, cause: cause, at: position) }
    }
  }

  private func apply(_ selected: [Int], of set: PlaceSet, to medicine: Medicine, cause: PlacesRefreshCause, at position: Coordinate) async {
    guard let location = medicine.location else { return }
    let chosen = Set(selected)
    let registered = registeredPlaces[medicine.id] ?? []
    registeredPlaces[medicine.id] = chosen
    let pending = Set(await center.pendingNotificationRequests().map(\.id))
    // Removes the places that left (those still pending: the platform ignores the others), adds those that entered.
    let leaving = registered.filter {
      !chosen.contains($0) && pending.contains(policy.identifiers.placeLocation(medicine.id, set.places[$0].id))
    }.sorted()
    let entering = selected.filter { !registered.contains($0) }
    guard !leaving.isEmpty || !entering.isEmpty else { return }
    notes.placesChanged(set.id, [
      TimelineField("medicine", medicine.id.rawValue), TimelineField("cause", cause.rawValue), TimelineField("added", String(entering.count)),
      TimelineField("removed", String(leaving.count)), TimelineField("nearest", String(nearestCount)), TimelineField("at", position.description),
    ])
    for place in leaving {
      notes.because("region set refresh: not among the nearest \(nearestCount)") {
        center.removePendingNotificationRequests(withIdentifiers: [policy.identifiers.placeLocation(medicine.id, set.places[place].id)])
      }
    }
    for place in entering {
      let trigger = RegionTrigger(
        region: set.regionID(of: set.places[place].id), notifyOnEntry: location.onEntry, notifyOnExit: location.onExit, repeats: true)
      var request = NotificationRequest(
        id: policy.identifiers.placeLocation(medicine.id, set.places[place].id), title: medicine.name, body: medicine.body, trigger: .region(trigger),
        userInfo: mainUserInfo(medicine, slot: .location))
      request.doseAttribution = .location(medicine.id)
      await add(Planned(request: request, info: Added(medicine: medicine.id, role: .location)))
    }
  }
}

/// The scenario's regions, handed to each new instance of the Android build.
/// Regions are immutable values the run only reads (`MonitoredRegion` holds
/// an existential shape, so it is not `Sendable` by type).
struct UncheckedRegions: @unchecked Sendable {
  let value: [MonitoredRegion]
  init(_ value: [MonitoredRegion]) { self.value = value }
}
