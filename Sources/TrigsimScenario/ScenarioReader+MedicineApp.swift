import Foundation
import TrigsimCore
import Yams

/// The medicine-app sections of a scenario: `medicines`, `app`, `category`,
/// `badge`, `actions` and `respond` (see the manual, "Medicine reminders").
extension ScenarioReader {
  static let medicineKeys = [
    "id", "name", "dosage", "unit", "times", "location", "snooze", "interruptionLevel", "prescription", "created", "edits", "deleted",
    "appOpen",
  ]
  static let editKeys = ["at", "name", "dosage", "unit", "times", "location", "snooze", "interruptionLevel", "appOpen"]

  /// Reads the medicine-app sections; returns the app and the regions that
  /// medicine locations declare with `center` (added to the scenario's regions).
  func readMedicineApp(_ top: MappingFields) -> (app: MedicineApp, regions: [MonitoredRegion]) {
    var app = MedicineApp()
    var regions: [MonitoredRegion] = []
    var versions: [MedicineID: [Medicine]] = [:]
    var medicineOrder: [MedicineID] = []
    var prescription = Prescription.standard
    if let node = top["prescription"], let value = readPrescription(node, default: prescription) { prescription = value }
    if let node = top["policy"] { app.policy = readPolicy(node) }
    if let node = top["medicines"], let list = document.sequence(node, what: "'medicines'") {
      for item in list {
        guard let result = readMedicine(item, existing: medicineOrder, prescription: prescription) else { continue }
        medicineOrder.append(result.id)
        versions[result.id] = result.versions
        app.medicineChanges += result.changes
        regions += result.regions
      }
    }
    // Same-instant order: the scenario's order (stable sort by instant).
    app.medicineChanges = app.medicineChanges.enumerated().sorted { a, b in
      (a.element.instant, a.offset) < (b.element.instant, b.offset)
    }.map(\.element)
    if let node = top["category"] { app.category = readCategory(node) }
    if let node = top["app"] { app.appChanges = readAppChanges(node) }
    if top["medicines"] == nil {
      // A Swift app's notifications need no medicines for the patient to act on them: read on below.
      for key in ["badge", "actions", "respond", "policy", "prescription"] where top[key] != nil && !(hostedApp && ["actions", "respond"].contains(key)) {
        let note: String
        switch key {
        case "badge": note = "the badge counts the doses of the medicines under 'medicines:'"
        case "policy": note = "the policy says how the app schedules the medicines under 'medicines:'"
        case "prescription": note = "the prescription says when the doses of the medicines under 'medicines:' are due"
        default: note = "user actions apply to the notifications of the medicines under 'medicines:'"
        }
        document.error(top.keyNodes[key]!, "'\(Diagnostic.excerpt(key))' needs medicines", notes: [note])
      }
      if !hostedApp { return (app, regions) }
    }
    if let node = top["badge"], let policy = document.choice(node, what: "badge policy", BadgePolicy.allCases.map { ($0.rawValue, $0) }) {
      app.badge = policy
    }
    // What the unread medicines could have produced: stand-ins with as many
    // times as each lists and a location, so that no pattern meant for them is reported.
    let standIns = Dictionary(unreadMedicineIDs.map { text in
      let standIn = Medicine(
        id: MedicineID(text), name: text, dosage: "1", unit: "",
        times: (0..<(unreadMedicineTimeCounts[text] ?? 1)).map { DailyTime(hour: $0, minute: 0) },
        location: LocationReminder(region: RegionID("\(text)_area")), snooze: .productDefault)
      return (MedicineID(text), [standIn])
    }, uniquingKeysWith: { first, _ in first })
    let unreadProduced = ProducibleIdentifiers(
      versions: standIns, order: unreadMedicineIDs.map { MedicineID($0) }, policy: app.policy, days: clockDays(), places: placeIDsBySet)
    unreadNotificationIDs += unreadProduced.all
    let produced = ProducibleIdentifiers(
      versions: versions, order: medicineOrder, policy: app.policy, days: clockDays(), places: placeIDsBySet,
      unread: unreadProduced.all, unreadMedicines: unreadMedicineIDs)
    medicineNotificationIDs = produced.all
    medicineIDs = produced.medicines
    locationMedicineIDs = Set(versions.filter { $0.value.contains { $0.location != nil } }.keys.map(\.rawValue))
    if let node = top["actions"] { app.userActions = readUserActions(node, category: app.category, produced: produced) }
    if let node = top["respond"] { app.responseRules = readResponseRules(node, category: app.category, produced: produced) }
    return (app, regions)
  }

  // MARK: - Medicines

  struct MedicineResult {
    var id: MedicineID
    var versions: [Medicine]
    var changes: [MedicineChange]
    var regions: [MonitoredRegion]
  }

  func readMedicine(_ item: Node, existing: [MedicineID], prescription: Prescription) -> MedicineResult? {
    guard let fields = document.mapping(item, what: "a medicine", keys: Self.medicineKeys) else { return nil }
    guard let idNode = fields["id"] else {
      document.error(item, "a medicine needs an 'id'", notes: ["the id names its requests: medicine_{id}_reminder_{n}"])
      return nil
    }
    guard let idText = document.string(idNode, what: "medicine id", limit: .identifierPart) else { return nil }
    guard !idText.isEmpty, idText.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
      document.error(idNode, "medicine id '\(Diagnostic.excerpt(idText))' must be letters and digits only", notes: ["it becomes part of request identifiers such as medicine_\(Diagnostic.excerpt(idText))_reminder_0"])
      markUnread(idText, fields: fields)
      return nil
    }
    let id = MedicineID(idText)
    if existing.contains(id) || unreadMedicineIDs.contains(idText) {
      document.error(idNode, "medicine '\(Diagnostic.excerpt(idText))' is declared twice", notes: ["medicine ids must be unique"])
      return nil
    }
    // Every field is read, so that each bad value is reported in one run; a
    // medicine with any problem is recorded in `unreadMedicineIDs`, so that
    // actions, rules and checks naming it are not reported as well.
    var valid = true
    var regions: [MonitoredRegion] = []
    let origin = document.location(item)
    let name = fields["name"].flatMap { document.string($0, what: "medicine name", limit: .name) }
    if fields["name"] == nil || name == "" {
      document.error(item, "medicine '\(Diagnostic.excerpt(idText))' needs a 'name'", notes: ["the name is the notification title, e.g. 'name: Metformin'"])
    }
    if name == nil || name == "" { valid = false }
    let dosage = fields["dosage"].flatMap { readDosage($0) }
    if fields["dosage"] == nil {
      document.error(item, "medicine '\(Diagnostic.excerpt(idText))' needs a 'dosage'", notes: ["write the amount, e.g. 'dosage: 500' with 'unit: mg'"])
    }
    if dosage == nil { valid = false }
    let unit = fields["unit"].flatMap { document.string($0, what: "unit", limit: .name) } ?? ""
    var times: [DailyTime] = []
    var remindersRead = true
    if let node = fields["times"] {
      if let read = readTimes(node) { times = read } else { remindersRead = false }
    }
    var location: LocationReminder?
    if let node = fields["location"] {
      if let read = readLocation(node, medicine: id, regionSuffix: "") {
        location = read.reminder
        regions += read.region.map { [$0] } ?? []
      } else {
        remindersRead = false
      }
    }
    if !remindersRead { valid = false }
    var snooze: SnoozeChainPolicy? = .productDefault
    if let node = fields["snooze"] {
      if let read = readSnooze(node) { snooze = read.policy } else { valid = false }
    }
    var level = InterruptionLevel.active
    if let node = fields["interruptionLevel"] {
      if let read = interruptionLevel(node) { level = read } else { valid = false }
    }
    // Only when 'times' and 'location' were read: a bad one is reported already.
    if remindersRead && times.isEmpty && location == nil {
      document.error(item, "medicine '\(Diagnostic.excerpt(idText))' has no reminder", notes: ["give 'times' (daily times), a 'location', or both"])
      valid = false
    }
    var first = Medicine(id: id, name: name ?? "", dosage: dosage ?? "1", unit: unit, times: times, location: location, snooze: snooze)
    first.interruptionLevel = level
    first.prescription = prescription
    if let node = fields["prescription"] {
      if let read = readPrescription(node, default: prescription) { first.prescription = read } else { valid = false }
    }
    var created = clockStart
    if let node = fields["created"] {
      created = instantDuringRun(node, what: "created")
      if created == nil { valid = false }
    }
    guard let created else {
      markUnread(idText, fields: fields)
      return nil
    }
    var changes = [MedicineChange(instant: created, kind: .create(first), origin: origin)]
    changes[0].appOpen = fields["appOpen"].flatMap { document.bool($0, what: "appOpen") } ?? false
    var versions = [first]
    var previousInstant = created
    if let node = fields["edits"], let list = document.sequence(node, what: "'edits'") {
      for (position, editNode) in list.enumerated() {
        guard let edit = document.mapping(editNode, what: "an edit", keys: Self.editKeys) else { continue }
        guard let atNode = edit["at"] else {
          document.error(editNode, "an edit needs 'at'", notes: ["say when the user saved the change: at: 2026-03-28T12:00:00"])
          continue
        }
        guard let at = instantDuringRun(atNode, what: "edit 'at'") else { continue }
        if at < previousInstant {
          document.error(atNode, "edits must be in time order and after the medicine is created")
          continue
        }
        var next = versions[versions.count - 1]
        if let node = edit["name"], let value = document.string(node, what: "medicine name", limit: .name) {
          if value.isEmpty { document.error(node, "a medicine's name cannot be empty", notes: ["the name is the notification title"]) }
          next.name = value
        }
        if let node = edit["dosage"], let value = readDosage(node) { next.dosage = value }
        if let node = edit["unit"], let value = document.string(node, what: "unit", limit: .name) { next.unit = value }
        if let node = edit["times"], let value = readTimes(node) { next.times = value }
        if let node = edit["location"] {
          if node.scalar?.string == "none" {
            next.location = nil
          } else if let read = readLocation(node, medicine: id, regionSuffix: "_edit\(position + 1)") {
            next.location = read.reminder
            regions += read.region.map { [$0] } ?? []
          }
        }
        if let node = edit["snooze"], let value = readSnooze(node) { next.snooze = value.policy }
        // Like every other key, an edit that does not name the level keeps the previous version's.
        if let node = edit["interruptionLevel"], let value = interruptionLevel(node) { next.interruptionLevel = value }
        if valid && next.times.isEmpty && next.location == nil {
          document.error(editNode, "after this edit medicine '\(Diagnostic.excerpt(idText))' has no reminder", notes: ["keep 'times' or a 'location', or delete the medicine with 'deleted:'"])
          continue
        }
        versions.append(next)
        var change = MedicineChange(instant: at, kind: .edit(next), origin: document.location(editNode))
        change.appOpen = edit["appOpen"].flatMap { document.bool($0, what: "appOpen") } ?? false
        changes.append(change)
        previousInstant = at
      }
    }
    if let node = fields["deleted"], let at = instantDuringRun(node, what: "deleted") {
      if at < previousInstant {
        document.error(node, "medicine '\(Diagnostic.excerpt(idText))' is deleted before it is created or last edited")
      } else {
        changes.append(MedicineChange(instant: at, kind: .delete(id), origin: document.location(node)))
      }
    }
    guard valid else {
      markUnread(idText, fields: fields)
      return nil
    }
    return MedicineResult(id: id, versions: versions, changes: changes, regions: regions)
  }

  /// Records a declared medicine that could not be read, with how many daily
  /// times it lists (at most 24), for the stand-in requests of `readMedicineApp`.
  private func markUnread(_ id: String, fields: MappingFields) {
    guard !unreadMedicineIDs.contains(id) else { return }
    unreadMedicineIDs.append(id)
    unreadMedicineTimeCounts[id] = min(24, max(1, fields["times"]?.sequence?.count ?? 1))
  }

  func readDosage(_ node: Node) -> String? {
    guard let text = document.string(node, what: "dosage") else { return nil }
    let decimal = !text.isEmpty && text.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") } && text.filter { $0 == "." }.count <= 1
    guard decimal, let value = DecimalNumber.value(text), value > 0 else {
      document.error(node, "dosage must be a positive number, not '\(Diagnostic.excerpt(text))'", notes: ["put the unit in 'unit': dosage: 500, unit: mg"])
      return nil
    }
    return text
  }

  /// `["08:00", "14:00"]`: distinct `HH:MM` wall-clock times; `repeatNote`
  /// says why a time may not repeat.
  func readTimes(_ node: Node, repeatNote: String = "each daily time is one reminder; remove the repeat") -> [DailyTime]? {
    guard let list = document.sequence(node, what: "'times'") else { return nil }
    var times: [DailyTime] = []
    var valid = true
    for item in list {
      guard let time = dailyTime(item) else {
        valid = false
        continue
      }
      if times.contains(time) {
        let text = item.scalar?.string ?? ""
        document.error(item, "time '\(Diagnostic.excerpt(text))' is listed twice", notes: [repeatNote])
        valid = false
        continue
      }
      times.append(time)
    }
    return valid ? times : nil
  }

  /// One `HH:MM` wall-clock time (`8:00` and `08:00` alike); `what` names it
  /// in messages ("time 'x' is not HH:MM").
  func dailyTime(_ node: Node, what: String = "time") -> DailyTime? {
    guard let text = document.string(node, what: "a \(what)") else { return nil }
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
      parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }), let hour = Int(parts[0]), let minute = Int(parts[1])
    else {
      document.error(node, "\(what) '\(Diagnostic.excerpt(text))' is not HH:MM", notes: ["write a 24-hour time such as \"08:00\" or \"20:30\" (quoted)"])
      return nil
    }
    guard (0...23).contains(hour) else {
      document.error(node, "\(what) '\(Diagnostic.excerpt(text))': hour \(hour) is outside 0...23", notes: ["use a 24-hour time; midnight is \"00:00\""])
      return nil
    }
    guard (0...59).contains(minute) else {
      document.error(node, "\(what) '\(Diagnostic.excerpt(text))': minute \(minute) is outside 0...59")
      return nil
    }
    return DailyTime(hour: hour, minute: minute)
  }

  /// `passive`, `active`, `timeSensitive` or `critical` (the platform's spellings).
  func interruptionLevel(_ node: Node) -> InterruptionLevel? {
    document.choice(node, what: "interruption level", InterruptionLevel.allCases.map { ($0.rawValue, $0) })
  }

  /// `{ region: home, on: [enter] }` or `{ center: [lat, lon], radius: 100, on: [exit] }`.
  func readLocation(_ node: Node, medicine: MedicineID, regionSuffix: String) -> (reminder: LocationReminder, region: MonitoredRegion?)? {
    guard let fields = document.mapping(node, what: "'location'", keys: ["region", "center", "radius", "places", "on", "repeats"]) else { return nil }
    var onEntry = true
    var onExit = false
    if let onNode = fields["on"], let list = document.sequence(onNode, what: "'on'") {
      let words = list.compactMap { document.choice($0, what: "region event", [("enter", "enter"), ("exit", "exit")]) }
      if list.isEmpty { document.error(onNode, "'on' lists no event", notes: ["use [enter], [exit] or [enter, exit]"]) }
      onEntry = words.contains("enter")
      onExit = words.contains("exit")
      guard onEntry || onExit else { return nil }
    }
    if fields["places"] != nil {  // a place set: ScenarioReader+Places.swift
      return readPlaceSetLocation(node, fields: fields, onEntry: onEntry, onExit: onExit).map { ($0, nil) }
    }
    let repeats = fields["repeats"].flatMap { document.bool($0, what: "repeats") } ?? true
    switch (fields["region"], fields["center"]) {
    case (let regionNode?, nil):
      if let radius = fields.keyNodes["radius"] {
        document.error(radius, "'radius' goes with 'center'", notes: ["a named region has its own size under 'regions:'"])
        return nil
      }
      guard let name = document.string(regionNode, what: "region") else { return nil }
      guard regionIDs.contains(name) else {
        var notes: [String] = []
        if let suggestion = NameSuggestion.closest(to: name, among: regionIDs) { notes.append("did you mean '\(suggestion)'?") }
        notes.append(regionIDs.isEmpty ? "declare it under 'regions:'" : "declared regions: \(YAMLDocument.nameList(regionIDs))")
        document.error(regionNode, "unknown region '\(Diagnostic.excerpt(name))'", notes: notes)
        return nil
      }
      return (LocationReminder(region: RegionID(name), onEntry: onEntry, onExit: onExit, repeats: repeats), nil)
    case (nil, let centerNode?):
      guard let radius = circleRadius(fields["radius"]) else { return nil }
      guard let center = coordinate(centerNode, what: "center") else { return nil }
      let regionID = RegionID("medicine_\(medicine)_area\(regionSuffix)")
      guard !regionIDs.contains(regionID.rawValue) else {
        document.error(node, "this location's circle would be region '\(Diagnostic.excerpt(regionID.rawValue))', which is already declared",
                       notes: ["rename the region under 'regions:', or use 'region: \(regionID)' here"])
        return nil
      }
      regionIDs.append(regionID.rawValue)
      let region = MonitoredRegion(id: regionID, shape: CircularRegion(center: center, radius: radius), origin: document.location(node))
      return (LocationReminder(region: regionID, onEntry: onEntry, onExit: onExit, repeats: repeats), region)
    case (nil, nil):
      document.error(node, "'location' needs 'region' (a declared region) or 'center' (a circle, 100 m unless 'radius' is given)")
      return nil
    case (_?, _?):
      document.error(node, "'location' has both 'region' and 'center'", notes: ["keep one"])
      return nil
    }
  }

  /// `none`, or `{ every: 6m, count: 10, schedule: upfront }` (each key
  /// optional, defaults from the product's chain). Nil when invalid; a nil
  /// `policy` for `none`.
  func readSnooze(_ node: Node) -> SnoozeSetting? {
    if let scalar = node.scalar {
      if scalar.string == "none" { return SnoozeSetting(policy: nil) }
      var notes: [String] = []
      if let text = scalar.string.split(separator: " ").first, NameSuggestion.closest(to: String(text), among: ["none"]) != nil { notes.append("did you mean 'none'?") }
      document.error(node, "snooze must be 'none' or a mapping such as { every: 6m, count: 10, schedule: upfront }", notes: notes)
      return nil
    }
    guard let fields = document.mapping(node, what: "'snooze'", keys: ["every", "count", "schedule"]) else { return nil }
    var policy = SnoozeChainPolicy.productDefault
    var valid = true
    if let every = fields["every"] {
      if let value = duration(every, what: "snooze 'every'"), value.milliseconds > 0 {
        policy.every = value
      } else {
        if ValueSyntax.duration(document.string(every, what: "every") ?? "") != nil { document.error(every, "snooze 'every' must be longer than zero") }
        valid = false
      }
    }
    if let count = fields["count"] {
      if let value = document.integer(count, what: "snooze 'count'", range: 0...64) { policy.count = value } else { valid = false }
    }
    if let schedule = fields["schedule"] {
      if let value = document.choice(schedule, what: "chain schedule", ChainScheduling.allCases.map { ($0.rawValue, $0) }) {
        policy.scheduling = value
      } else {
        valid = false
      }
    }
    return valid ? SnoozeSetting(policy: policy) : nil
  }

  /// A valid `snooze` value: a chain, or none.
  struct SnoozeSetting {
    var policy: SnoozeChainPolicy?
  }

  // MARK: - App, category

  /// Every `NotificationPermission` by its name, and `authorized` (the
  /// platform's `UNAuthorizationStatus.authorized`) for `granted`.
  static let permissionChoices: [(String, NotificationPermission)] =
    [(NotificationPermission.granted.rawValue, .granted), ("authorized", .granted)]
    + NotificationPermission.allCases.filter { $0 != .granted }.map { ($0.rawValue, $0) }

  /// What an `app:` change may set besides its `at`.
  static let appChangeKeys = ["state", "permission", "location", "locationAccuracy", "run", "exactAlarms", "channel", "standbyBucket"]

  /// `channel: { id: doses, importance: low }`: the patient changes an Android channel.
  func readChannelChange(_ node: Node) -> (id: String, importance: ChannelImportance)? {
    guard let fields = document.mapping(node, what: "'channel'", keys: ["id", "importance"]) else { return nil }
    guard let idNode = fields["id"], let importanceNode = fields["importance"] else {
      document.error(node, "a channel change needs 'id' and 'importance'", notes: ["e.g. channel: { id: doses, importance: low }"])
      return nil
    }
    guard let id = document.string(idNode, what: "channel id"),
      let importance = document.choice(importanceNode, what: "channel importance", ChannelImportance.allCases.map { ($0.rawValue, $0) })
    else { return nil }
    return (id, importance)
  }

  func readAppChanges(_ node: Node) -> [AppChange] {
    guard let list = document.sequence(node, what: "'app'") else { return [] }
    var changes: [AppChange] = []
    let keys = Self.appChangeKeys
    for item in list {
      guard let fields = document.mapping(item, what: "an app change", keys: ["at"] + Self.appChangeKeys) else { continue }
      guard let atNode = fields["at"] else {
        document.error(item, "an app change needs 'at'")
        continue
      }
      guard keys.contains(where: { fields[$0] != nil }) else {
        document.error(item, "an app change needs 'state', 'permission', 'location', 'locationAccuracy', 'run', 'exactAlarms', 'channel' or 'standbyBucket'",
                       notes: ["state: \(AppState.allCases.map(\.rawValue).joined(separator: "|")); permission: \(Self.permissionChoices.map(\.0).joined(separator: "|")); location: \(LocationAuthorization.allCases.map(\.rawValue).joined(separator: "|")); locationAccuracy: \(LocationAccuracyAuthorization.allCases.map(\.rawValue).joined(separator: "|")); run: background-refresh; exactAlarms (android): granted|revoked; channel (android): { id, importance }; standbyBucket (android): \(StandbyBucket.allCases.map(\.rawValue).joined(separator: "|"))"])
        continue
      }
      guard let at = instantDuringRun(atNode, what: "app change 'at'") else { continue }
      var change = AppChange(instant: at, origin: document.location(item))
      // Every field is read, so that each bad value is reported.
      var valid = true
      func read<T>(_ key: String, what: String, _ options: [(String, T)]) -> T? {
        guard let node = fields[key] else { return nil }
        let value = document.choice(node, what: what, options)
        if value == nil { valid = false }
        return value
      }
      change.state = read("state", what: "app state", AppState.allCases.map { ($0.rawValue, $0) })
      change.permission = read("permission", what: "permission", Self.permissionChoices)
      change.location = read("location", what: "location authorization", LocationAuthorization.allCases.map { ($0.rawValue, $0) })
      change.locationAccuracy = read(
        "locationAccuracy", what: "location accuracy", LocationAccuracyAuthorization.allCases.map { ($0.rawValue, $0) })
      change.backgroundRefresh = read("run", what: "app code to run", [("background-refresh", true)]) ?? false
      change.exactAlarms = read("exactAlarms", what: "exact-alarm permission", [("granted", true), ("revoked", false)])
      change.standbyBucket = read("standbyBucket", what: "standby bucket", StandbyBucket.allCases.map { ($0.rawValue, $0) })
      if let node = fields["channel"] {
        if let channel = readChannelChange(node) { change.channel = channel } else { valid = false }
      }
      guard valid else { continue }
      if let last = changes.last, at < last.instant {
        document.error(atNode, "app changes must be in time order", notes: ["this change is before the previous one"])
        continue
      }
      changes.append(change)
    }
    return changes
  }

  func readCategory(_ node: Node) -> ReminderCategory {
    var category = ReminderCategory()
    guard let fields = document.mapping(node, what: "'category'", keys: ["customDismiss", "snoozeOptions", "defaultSnooze", "open"]) else {
      return category
    }
    if let node = fields["customDismiss"], let value = document.bool(node, what: "customDismiss") { category.customDismiss = value }
    if let node = fields["snoozeOptions"], let list = document.sequence(node, what: "'snoozeOptions'") {
      let options = list.compactMap { item -> SimulationDuration? in
        guard let value = duration(item, what: "snooze option") else { return nil }
        guard value.milliseconds > 0 else {
          document.error(item, "a snooze option must be longer than zero")
          return nil
        }
        return value
      }
      if list.isEmpty { document.error(node, "'snoozeOptions' lists no duration", notes: ["e.g. [5m, 15m, 30m, 60m]"]) }
      if options.count == list.count && !options.isEmpty { category.snoozeOptions = options }
    }
    if let node = fields["defaultSnooze"], let value = duration(node, what: "defaultSnooze") {
      if category.snoozeOptions.contains(value) {
        category.defaultSnooze = value
      } else {
        document.error(node, "defaultSnooze \(value) is not one of the snooze options", notes: ["options: \(MessageList.joined(category.snoozeOptions.lazy.map(\.description)))"])
      }
    } else if fields["defaultSnooze"] == nil && !category.snoozeOptions.contains(category.defaultSnooze) {
      category.defaultSnooze = category.snoozeOptions[0]
    }
    if let node = fields["open"], let value = document.choice(node, what: "open behaviour", [("nothing", false), ("complete", true)]) {
      category.openCompletes = value
    }
    return category
  }

  // MARK: - User actions

  /// `snooze`, `snooze 15m`, `complete`, `dismiss`, `open`, `ignore`.
  func userAction(_ node: Node, category: ReminderCategory) -> UserAction? {
    guard let text = document.string(node, what: "action") else { return nil }
    let words = text.split(separator: " ", omittingEmptySubsequences: true)
    let options = MessageList.joined(category.snoozeOptions.lazy.map(\.description))
    switch words.first.map(String.init) {
    case "snooze":
      guard words.count <= 2 else { break }
      guard words.count == 2 else { return .snooze(category.defaultSnooze) }
      guard let value = ValueSyntax.duration(String(words[1])) else {
        document.error(node, "'\(Diagnostic.excerpt(words[1]))' in '\(Diagnostic.excerpt(text))' is not a duration", notes: ["the category offers: snooze \(options)"])
        return nil
      }
      guard category.snoozeOptions.contains(value) else {
        document.error(node, "the category offers no 'snooze \(value)'", notes: ["it offers: \(options) (change 'category: snoozeOptions' to add one)"])
        return nil
      }
      return .snooze(value)
    case "complete" where words.count == 1: return .complete
    case "dismiss" where words.count == 1: return .dismiss
    case "open" where words.count == 1: return .open
    case "ignore" where words.count == 1: return .ignore
    default: break
    }
    var notes: [String] = []
    if let first = words.first, let suggestion = NameSuggestion.closest(to: String(first), among: ["snooze", "complete", "dismiss", "open", "ignore"]) {
      notes.append("did you mean '\(suggestion)'?")
    }
    notes.append("actions: snooze, snooze <duration> (\(options)), complete, dismiss, open, ignore")
    document.error(node, "unknown action '\(Diagnostic.excerpt(text))'", notes: notes)
    return nil
  }

  func readUserActions(_ node: Node, category: ReminderCategory, produced: ProducibleIdentifiers) -> [ScheduledUserAction] {
    guard let list = document.sequence(node, what: "'actions'") else { return [] }
    var actions: [ScheduledUserAction] = []
    for item in list {
      guard let fields = document.mapping(item, what: "a user action", keys: ["at", "notification", "action"]) else { continue }
      guard let atNode = fields["at"], let idNode = fields["notification"], let actionNode = fields["action"] else {
        document.error(item, "a user action needs 'at', 'notification' and 'action'", notes: ["e.g. { at: 2026-03-28T08:02:00, notification: medicine_1_reminder_0, action: snooze 15m }"])
        continue
      }
      let at = instantDuringRun(atNode, what: "action 'at'")
      let id = document.string(idNode, what: "notification")
      let action = userAction(actionNode, category: category)
      guard let at, let id, let action else { continue }
      // A Swift app names its own notifications: they are checked when the run acts on them.
      guard hostedApp || produced.check(id, at: idNode, in: document) else { continue }
      actions.append(ScheduledUserAction(instant: at, notification: NotificationID(id), action: action, origin: document.location(item)))
    }
    return actions.enumerated().sorted { ($0.element.instant, $0.offset) < ($1.element.instant, $1.offset) }.map(\.element)
  }

  func readResponseRules(_ node: Node, category: ReminderCategory, produced: ProducibleIdentifiers) -> [ResponseRule] {
    guard let list = document.sequence(node, what: "'respond'") else { return [] }
    var rules: [ResponseRule] = []
    for item in list {
      guard let fields = document.mapping(item, what: "a response rule", keys: ["to", "after", "actions"]) else { continue }
      guard let toNode = fields["to"], let afterNode = fields["after"], let actionsNode = fields["actions"] else {
        document.error(item, "a response rule needs 'to', 'after' and 'actions'", notes: ["e.g. { to: \"medicine_1_*\", after: 2m, actions: [snooze 15m, complete] }"])
        continue
      }
      // Each of 'to', 'after' and 'actions' is checked, so that each problem is reported.
      let after = duration(afterNode, what: "'after'")
      var pattern: IdentifierPattern?
      if let patternText = document.string(toNode, what: "'to'") {
        let candidate = IdentifierPattern(patternText)
        if hostedApp || produced.all.contains(where: { candidate.matches($0) }) {
          pattern = candidate
        } else if !produced.unread.contains(where: { candidate.matches($0) }) {
          // A pattern that an unread medicine's requests could match follows from that medicine's error: not reported.
          var notes = ["it would never apply; check for a typo"]
          if let suggestion = NameSuggestion.closest(to: patternText, among: produced.all) { notes.insert("did you mean '\(suggestion)'?", at: 0) }
          notes.append("'*' matches any run of characters, '?' one character")
          document.error(toNode, "pattern '\(Diagnostic.excerpt(patternText))' matches no notification the medicines can produce", notes: notes)
        }
      }
      guard let actionList = document.sequence(actionsNode, what: "'actions'", example: "actions: [snooze 15m, complete]") else { continue }
      if actionList.isEmpty {
        document.error(actionsNode, "'actions' lists nothing", notes: ["list what the user does after each delivery, e.g. [snooze 15m, complete]; use [ignore] to ignore"])
        continue
      }
      let actions = actionList.compactMap { userAction($0, category: category) }
      guard actions.count == actionList.count, let pattern, let after else { continue }
      rules.append(ResponseRule(pattern: pattern, after: after, actions: actions, origin: document.location(item)))
    }
    return rules
  }
}

/// Every notification identifier the scenario's medicines can produce, to
/// reject actions and patterns that name none of them.
struct ProducibleIdentifiers {
  /// Sorted, for suggestions.
  let all: [String]
  let medicines: [String]
  /// What medicines that could not be read would have produced (sorted), and
  /// their ids: naming one of these is not reported again.
  let unread: [String]
  let unreadMedicines: [String]
  private let set: Set<String>
  private let policy: AppPolicy

  /// `days`: the local dates of the clock window (as `yyyyMMdd`), for templates with `{dose}`.
  /// `places`: every place's id by set, for a location reminder over a place set.
  init(
    versions: [MedicineID: [Medicine]], order: [MedicineID], policy: AppPolicy = AppPolicy(), days: [String] = [],
    places: [PlaceSetID: [PlaceID]] = [:], unread: [String] = [], unreadMedicines: [String] = []
  ) {
    self.unread = unread
    self.unreadMedicines = unreadMedicines
    var ids: [String] = []
    let templates = policy.identifiers
    func doses(_ template: IdentifierTemplate) -> [String?] {
      template.placeholders.contains(.dose) ? days.map { Optional($0) } : [nil]
    }
    for id in order {
      let list = versions[id] ?? []
      let maxTimes = list.map(\.times.count).max() ?? 0
      let hasLocation = list.contains { $0.location != nil && $0.location?.places == nil }
      var mains: [(NotificationID, Int)] = (0..<maxTimes).map { (templates.reminder(id, $0), $0) }
      if hasLocation { mains.append((templates.location(id), maxTimes)) }
      // A place set: one request per place (`medicine_{id}_location_{place}`).
      for set in Set(list.compactMap { $0.location?.places }).sorted(by: { $0.rawValue < $1.rawValue }) {
        for place in places[set] ?? [] { mains.append((NotificationID(templates.location(id).rawValue + "_\(place)"), maxTimes)) }
      }
      for (main, reminder) in mains {
        ids.append(main.rawValue)
        switch policy.snooze.identifier {
        case .sameUnlessPending: ids.append(main.rawValue + "_snoozed")
        case .same: break
        case .template(let template):
          for dose in doses(template) {
            ids.append(template.render(IdentifierValues(medicine: id, reminder: reminder, dose: dose)).rawValue)
          }
        }
      }
      for medicine in list {
        let count = medicine.snooze?.count ?? 0
        guard count > 0 else { continue }
        let chains = medicine.times.count + (medicine.location == nil ? 0 : 1)
        for chain in 0..<chains {
          for number in 1...count {
            for dose in doses(templates.followUp) {
              let values = IdentifierValues(
                medicine: id, reminder: chain, followUp: number, followUpOfMedicine: chain * count + number, dose: dose)
              ids.append(templates.followUp.render(values).rawValue)
            }
          }
        }
      }
    }
    self.all = Array(Set(ids)).sorted()
    self.set = Set(ids)
    self.medicines = order.map(\.rawValue)
    self.policy = policy
  }

  /// Reports an identifier no medicine produces; returns whether it is valid.
  func check(_ id: String, at node: Node, in document: YAMLDocument) -> Bool {
    if set.contains(id) { return true }
    let parts = id.split(separator: "_")
    // Follows from an unread medicine's own error: not reported again.
    if unread.contains(id) || (parts.count >= 3 && parts[0] == "medicine" && unreadMedicines.contains(String(parts[1]))) { return false }
    if policy.identifiers.isDefault, parts.count >= 3, parts[0] == "medicine", !medicines.contains(String(parts[1])) {
      var notes: [String] = []
      if let suggestion = NameSuggestion.closest(to: String(parts[1]), among: medicines) { notes.append("did you mean medicine '\(suggestion)'?") }
      notes.append(medicines.isEmpty ? "declare medicines under 'medicines:'" : "declared medicines: \(YAMLDocument.nameList(medicines))")
      document.error(node, "unknown medicine '\(Diagnostic.excerpt(parts[1]))' in '\(Diagnostic.excerpt(id))'", notes: notes)
      return false
    }
    var notes: [String] = []
    if let suggestion = NameSuggestion.closest(to: id, among: all) { notes.append("did you mean '\(suggestion)'?") }
    let ids = policy.identifiers
    notes.append("actions apply to medicine notifications: \(ids.reminder), \(ids.location), \(ids.followUp), and snoozed alerts (\(policy.snooze.identifier))")
    document.error(node, "no medicine produces the notification '\(Diagnostic.excerpt(id))'", notes: notes)
    return false
  }
}
