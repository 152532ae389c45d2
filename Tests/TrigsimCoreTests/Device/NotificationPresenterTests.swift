import Testing

@testable import TrigsimCore

@Suite struct NotificationPresenterTests {
  let request = NotificationRequest(id: "pills", title: "Pills", trigger: .interval(IntervalTrigger(interval: .minutes(5), repeats: false)))

  @Test func aDeliveryIsShownAtOnceWhileNotificationsAreAllowed() {
    #expect(ImmediatePresenter().presentation(of: request, permission: .granted) == .shown)
  }

  @Test func nothingIsShownWhileNotificationsAreDenied() {
    #expect(ImmediatePresenter().presentation(of: request, permission: .denied)
      == .notShown(reason: "notification permission denied: the platform shows nothing"))
  }
}
