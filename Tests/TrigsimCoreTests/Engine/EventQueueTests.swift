import Testing
import TrigsimTestSupport

@testable import TrigsimCore

@Suite struct EventQueueTests {
  @Test func eventsComeOutByInstantThenPhaseThenRankThenSchedulingOrder() {
    var queue = EventQueue()
    let t0 = SimulationInstant(millisecondsSinceEpoch: 1000)
    let t1 = SimulationInstant(millisecondsSinceEpoch: 2000)
    queue.schedule(.phone(.appAction(5)), at: t1, phase: .appAction, rank: 0)
    queue.schedule(.phone(.timeTriggerDue("b", token: 0)), at: t0, phase: .timeTrigger, rank: 2)
    queue.schedule(.phone(.timeTriggerDue("a", token: 0)), at: t0, phase: .timeTrigger, rank: 1)
    queue.schedule(.phone(.appAction(1)), at: t0, phase: .appAction, rank: 7)
    queue.schedule(.phone(.timeTriggerDue("c", token: 0)), at: t0, phase: .timeTrigger, rank: 1)
    queue.schedule(.timeZoneChange(0), at: t0, phase: .timeZoneChange, rank: 0)
    var order: [String] = []
    while let event = queue.popNext(notAfter: t1) {
      switch event.kind {
      case .layer(.phone(.appAction(let index))): order.append("action\(index)@\(event.instant.millisecondsSinceEpoch)")
      case .layer(.phone(.timeTriggerDue(let id, _))): order.append("due-\(id)")
      case .timeZoneChange: order.append("zone")
      default: order.append("other")
      }
    }
    #expect(order == ["zone", "action1@1000", "due-a", "due-c", "due-b", "action5@2000"])
  }

  @Test func popNextLeavesEventsAfterTheHorizonQueued() {
    var queue = EventQueue()
    queue.schedule(.phone(.appAction(0)), at: SimulationInstant(millisecondsSinceEpoch: 10), phase: .appAction, rank: 0)
    #expect(queue.popNext(notAfter: SimulationInstant(millisecondsSinceEpoch: 9)) == nil)
    #expect(queue.nextInstant == SimulationInstant(millisecondsSinceEpoch: 10))
    #expect(queue.popNext(notAfter: SimulationInstant(millisecondsSinceEpoch: 10)) != nil)
    #expect(queue.isEmpty)
  }

  @Test func phasesAreDeclaredInProcessingOrder() {
    #expect([EventPhase.timeZoneChange, .appAction, .position, .timeTrigger] == [EventPhase.timeTrigger, .position, .appAction, .timeZoneChange].sorted())
  }
}
