import Foundation

/// Why app code runs to refresh the nearest places it monitors.
enum RegionSetRefreshCause: String {
  /// The device's first fix: the app learns where it is.
  case firstFix = "first fix"
  /// A medicine over a place set was created or edited while the position was known.
  case medicineAdded = "medicine added"
  /// In the foreground, the device is `refresh` metres from where the set was last computed.
  case moved = "moved"
  /// The significant-change service woke the app with a new location.
  case significantChange = "significant change"
}

/// One computation of a place set's nearest places.
struct RegionSetRefresh {
  var at: SimulationInstant
  var position: Coordinate
  /// The places selected (indices into the set), nearest first.
  var selected: [Int]
  var selectedSet: Set<Int>
}

/// The app's region-set bookkeeping during a run, and the significant-change
/// service that wakes it (see `RegionSetPolicy`, `SignificantChangeRules`).
struct RegionSetState {
  /// One nearest-places index per place set.
  var indexes: [NearestPlaces]
  /// Where the app last computed its sets (nil before the first computation).
  var refreshCentre: Coordinate?
  /// The last computation of each set.
  var lastRefresh: [RegionSetRefresh?]
  /// The device's last fix.
  var knownPosition: Coordinate?
  /// The significant-change service's last report (it starts at the first fix).
  var changeReportedAt: SimulationInstant?
  var changeReportedPosition: Coordinate?
  /// The places each medicine asked for at its last refresh (what the app
  /// believes it registered; a place the region limit dropped stays here, so
  /// the app does not ask for it again until it leaves the nearest N).
  var registered: [MedicineID: Set<Int>] = [:]
  var cosineBound = CosineUpperBound()
  /// The last exact distance `isAtLeast` measured, per question (significant change, moved), and from where.
  var lastExact: [Int: (origin: Coordinate, position: Coordinate, distance: Double)] = [:]

  init(scenario: Scenario) {
    indexes = scenario.placeSets.map { NearestPlaces(places: $0.places) }
    lastRefresh = Array(repeating: nil, count: scenario.placeSets.count)
  }

  /// Whether `b` is at least `distance` metres from `a`, asked at every
  /// fix: cheap bounds first (the bound from `a`, then the last exact
  /// distance measured for this `question` plus the bound from where it was
  /// measured), so a device waiting diagonally 400 m away measures once.
  mutating func isAtLeast(_ distance: Double, from a: Coordinate, to b: Coordinate, question: Int) -> Bool {
    if Geodesic.lengthUpperBound(a, b, cosLatitudeA: cosineBound.value(atLatitude: a.latitude)) < distance { return false }
    if let last = lastExact[question], last.origin == a,
      last.distance + Geodesic.lengthUpperBound(last.position, b, cosLatitudeA: cosineBound.value(atLatitude: last.position.latitude)) < distance
    {
      return false
    }
    let exact = Geodesic.distance(a, b)
    lastExact[question] = (a, b, exact)
    return exact >= distance
  }
}

/// The app's request for one place of a set: the location template
/// followed by `_{place}` (`medicine_{id}_location_{place}` by default).
extension IdentifierTemplates {
  public func placeLocation(_ medicine: MedicineID, _ place: PlaceID) -> NotificationID {
    NotificationID(location(medicine).rawValue + "_\(place)")
  }
}

extension SimulationRun {
  // MARK: - When app code refreshes

  /// After each fix: the device's known position, the significant-change
  /// service's reports, and the app's refreshes they cause (queued at the
  /// fix, after the position events of that instant). Costs two cheap
  /// distance bounds per fix, whatever the number of places.
  ///
  /// - The first fix: the app computes its sets.
  /// - With `significantChange`, a report at the first fix at least
  ///   `significantChange.distance` from the last report and at least
  ///   `minimumInterval` after it: the app, woken in any state, refreshes.
  /// - Otherwise, in the foreground (the app receives every fix), a fix at
  ///   least `refresh` metres from where the sets were last computed.
  mutating func observeForRegionSets(_ fix: TrackSample) {
    guard !scenario.placeSets.isEmpty else { return }
    let position = fix.coordinate
    let firstFix = regionSets.knownPosition == nil
    regionSets.knownPosition = position
    let policy = scenario.regionSet
    let rules = scenario.platform.significantChange
    if firstFix {
      regionSets.changeReportedAt = fix.instant
      regionSets.changeReportedPosition = position
      scheduleRegionSetRefresh(.firstFix, at: fix)
      return
    }
    if policy.significantChange, let last = regionSets.changeReportedPosition, let lastAt = regionSets.changeReportedAt,
      lastAt.duration(to: fix.instant) >= rules.minimumInterval, regionSets.isAtLeast(rules.distance, from: last, to: position, question: 0)
    {
      regionSets.changeReportedAt = fix.instant
      regionSets.changeReportedPosition = position
      scheduleRegionSetRefresh(.significantChange, at: fix)
      return
    }
    if installedApp.state == .foreground, let centre = regionSets.refreshCentre,
      regionSets.isAtLeast(policy.refresh, from: centre, to: position, question: 1)
    {
      scheduleRegionSetRefresh(.moved, at: fix)
    }
  }

  private mutating func scheduleRegionSetRefresh(_ cause: RegionSetRefreshCause, at fix: TrackSample) {
    guard fix.instant <= end else { return }
    queue.schedule(.regionSetRefresh(cause, at: fix.coordinate), at: fix.instant, phase: .position, rank: Int.max)
  }

  /// A medicine whose location reminder covers a place set was created or
  /// edited: the app registers its nearest places now if it knows where the
  /// device is, else at the first fix.
  mutating func addPlaceSetRequests(of medicine: Medicine, at now: SimulationInstant) {
    ledger.locationArmed[medicine.id] = true
    regionSets.registered[medicine.id] = []  // a new version: its requests were removed (an edit) or never added
    if let position = regionSets.knownPosition { refreshRegionSets(.medicineAdded, at: position, now: now) }
  }

  // MARK: - The refresh

  /// App code computes the nearest places of every set a medicine uses,
  /// from `position`, and for each such medicine removes the requests of
  /// places that left the set and adds those of places that entered it
  /// (nearest first, so the platform's region limit drops the farthest). A
  /// `regions` entry sums up each change. In the foreground only for `moved`.
  mutating func refreshRegionSets(_ cause: RegionSetRefreshCause, at position: Coordinate, now: SimulationInstant) {
    if cause == .moved && installedApp.state != .foreground { return }
    var computed = false
    for (setIndex, set) in scenario.placeSets.enumerated() {
      let medicines = ledger.creationOrder.compactMap { ledger.medicines[$0] }.filter { $0.location?.places == set.id }
      guard !medicines.isEmpty else { continue }
      let count = scenario.regionSet.count(under: scenario.platform)
      let selected = regionSets.indexes[setIndex].nearest(count, to: position).map(\.place)
      regionSets.lastRefresh[setIndex] = RegionSetRefresh(at: now, position: position, selected: selected, selectedSet: Set(selected))
      computed = true
      for medicine in medicines { applySelection(selected, of: setIndex, to: medicine, cause: cause, at: position, now: now) }
    }
    if computed { regionSets.refreshCentre = position }
  }

  private mutating func applySelection(
    _ selected: [Int], of setIndex: Int, to medicine: Medicine, cause: RegionSetRefreshCause, at position: Coordinate,
    now: SimulationInstant
  ) {
    let set = scenario.placeSets[setIndex]
    guard let location = medicine.location else { return }
    let count = scenario.regionSet.count(under: scenario.platform)
    let chosen = Set(selected)
    let registered = regionSets.registered[medicine.id] ?? []
    regionSets.registered[medicine.id] = chosen
    // The app removes the places that left (those still pending: the platform ignores the others) and adds those that entered.
    let leaving = registered.filter {
      !chosen.contains($0) && center.pending[policy.identifiers.placeLocation(medicine.id, set.places[$0].id)] != nil
    }.sorted()
    let entering = selected.filter { !registered.contains($0) }
    guard !leaving.isEmpty || !entering.isEmpty else { return }
    record(
      .regions, set.id.rawValue, at: now,
      [TimelineField("medicine", medicine.id.rawValue), TimelineField("cause", cause.rawValue), TimelineField("added", String(entering.count)),
       TimelineField("removed", String(leaving.count)), TimelineField("nearest", String(count)), TimelineField("at", position.description)])
    for place in leaving {
      removePending(policy.identifiers.placeLocation(medicine.id, set.places[place].id), reason: "region set refresh: not among the nearest \(count)", at: now)
    }
    for place in entering {
      let id = policy.identifiers.placeLocation(medicine.id, set.places[place].id)
      ledger.requestInfo[id] = MedicineRequestInfo(medicine: medicine.id, role: .location)
      let trigger = RegionTrigger(
        region: set.regionID(of: set.places[place].id), notifyOnEntry: location.onEntry, notifyOnExit: location.onExit, repeats: true)
      add(
        NotificationRequest(id: id, title: medicine.name, body: medicine.body, trigger: .region(trigger), userInfo: mainUserInfo(medicine, slot: .location)),
        at: now)
    }
  }

  // MARK: - Doses

  /// Every qualifying true crossing of a place of a set is a dose of the
  /// location slot of each medicine over that set (as `openLocationDoses`
  /// for one region). A crossing of a place whose request is not pending is
  /// missed at once: "not monitored: ..." when the place was not among the
  /// nearest at the app's last refresh, else why the request was lost.
  mutating func openPlaceSetDoses(region index: Int, entering: Bool, visit: Int, at now: SimulationInstant) {
    guard now >= scenario.clock.start, let (setIndex, placeIndex) = scenario.place(ofRegion: index) else { return }
    let set = scenario.placeSets[setIndex]
    let place = set.places[placeIndex]
    for id in ledger.creationOrder {
      guard let medicine = ledger.medicines[id], let location = medicine.location, location.places == set.id,
        entering ? location.onEntry : location.onExit, ledger.locationArmed[id] == true
      else { continue }
      let requestID = policy.identifiers.placeLocation(id, place.id)
      let occurrence = (ledger.locationOccurrences[id] ?? 0) + 1
      ledger.locationOccurrences[id] = occurrence
      let key = DoseKey(medicine: id, slot: .location, occurrence: occurrence)
      var dose = newDose(key, medicine: medicine, reminder: "\(set.regionID(of: place.id)) on=\(location.kind)", scheduled: now)
      if center.pending[requestID] == nil {
        dose.reason = appLayer.placeNotMonitoredReason(set: setIndex, place: placeIndex, in: self) ?? ledger.lossReason[requestID]
          ?? "the location request was not pending"
      } else {
        dose.reason = "the device had not reported this crossing when the run ended"
      }
      ledger.doses[key] = dose
      ledger.locationDoseOfVisit[DoseLedger.LocationVisit(medicine: id, region: index, visit: visit, entering: entering)] = key
    }
  }

  /// Why a place was not monitored, when the app's last refresh left it out
  /// (nil when it was among the nearest: its request was lost otherwise).
  func notMonitoredReason(set setIndex: Int, place placeIndex: Int) -> String? {
    let place = scenario.placeSets[setIndex].places[placeIndex]
    guard let refresh = regionSets.lastRefresh[setIndex] else {
      return "not monitored: the app had not registered the nearest places yet (no fix before this crossing)"
    }
    guard !refresh.selectedSet.contains(placeIndex) else { return nil }
    let distance = Geodesic.distance(refresh.position, place.center)
    let count = scenario.regionSet.count(under: scenario.platform)
    return "not monitored: \(place.id) was not among the nearest \(count) at the last refresh (at \(format(refresh.at)), \(RegionSetPolicy.metres(distance.rounded())) away)"
  }

  // MARK: - Header

  /// `places pharmacies: 500 circles r=100m from ../fixtures/places/city-pharmacies.csv, regions pharmacies/{place}`
  /// per set, and the app's policy; the places are not listed one by one.
  func placeSetHeader() -> [TimelineField] {
    guard !scenario.placeSets.isEmpty else { return [] }
    var fields: [TimelineField] = []
    for set in scenario.placeSets {
      let radii = set.places.map(\.radius)
      let low = radii.min() ?? 0, high = radii.max() ?? 0
      let radius = low == high ? "r=\(RegionSetPolicy.metres(low))" : "r=\(RegionSetPolicy.metres(low))…\(RegionSetPolicy.metres(high))"
      let source = set.source.map { " from \($0)" } ?? " listed in the scenario"
      fields.append(TimelineField("places \(set.id)", "\(set.places.count) circles \(radius)\(source), regions \(set.id)/{place}"))
    }
    fields.append(TimelineField("region set", scenario.regionSet.summary(under: scenario.platform)))
    return fields
  }
}
