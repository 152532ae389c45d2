import Testing

@testable import TrigsimCore

@Suite struct EventPhaseLayersTests {
  @Test func theNamedPhasesAreInProcessingOrderAndDistinct() {
    let orders = EventPhase.named.map(\.phase.order)
    #expect(orders == orders.sorted())
    #expect(Set(orders).count == orders.count)
    #expect(Set(EventPhase.named.map(\.name)).count == orders.count)
  }

  @Test func theWorldsPhasesFrameTheLayers() {
    #expect(EventPhase.timeZoneChange < .appChange)
    #expect(EventPhase.appAction < .position)
    #expect(EventPhase.position < .timeTrigger)
    #expect(EventPhase.userAction < .doseCheck)
  }

  @Test func anUndeclaredPhaseIsNamedByItsOrder() {
    #expect(EventPhase(order: 55).traceName == "phase55")
    #expect(EventPhase.look.traceName == "look")
  }
}
