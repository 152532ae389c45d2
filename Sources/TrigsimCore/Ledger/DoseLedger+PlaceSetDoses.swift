import Foundation

/// The doses of a place set (`places:`): the ledger's truth, whichever places the app monitors.
extension DoseLedger {
  /// Every qualifying true crossing of a place of a set is a dose of the
  /// location slot of each medicine over that set (as `openLocationDoses`
  /// for one region), keyed by the place and its own crossing count
  /// (`DoseKey.place`). A crossing of a place whose request is not pending is
  /// missed at once: "not monitored: ..." when the place was not among the
  /// nearest at the app's last refresh, else why the request was lost.
  func openPlaceSetDoses(region index: Int, entering: Bool, visit: Int, in run: SimulationRun, at now: SimulationInstant) {
    guard now >= run.scenario.clock.start, let (setIndex, placeIndex) = run.scenario.place(ofRegion: index) else { return }
    let set = run.scenario.placeSets[setIndex]
    let place = set.places[placeIndex]
    for id in creationOrder {
      guard let medicine = medicines[id], let location = medicine.location, location.places == set.id,
        entering ? location.onEntry : location.onExit, locationArmed[id] == true
      else { continue }
      let requestID = run.scenario.medicineApp.policy.identifiers.placeLocation(id, place.id)
      let key = nextLocationDose(id, place: place.id)
      var dose = newDose(key, medicine: medicine, reminder: "\(set.regionID(of: place.id)) on=\(location.kind)", scheduled: now)
      dose.visit = DoseVisit(region: run.scenario.regions[index].id, number: visit, entering: entering)
      if run.layers.phone.core.center.pending[requestID] == nil {
        dose.reason = run.layers.app.placeNotMonitoredReason(set: setIndex, place: placeIndex, in: run) ?? lossReason[requestID]
          ?? "the location request was not pending"
      } else {
        dose.reason = "the device had not reported this crossing when the run ended"
      }
      doses[key] = dose
      locationDoseOfVisit[LocationVisit(medicine: id, region: index, visit: visit, entering: entering)] = key
    }
  }
}
