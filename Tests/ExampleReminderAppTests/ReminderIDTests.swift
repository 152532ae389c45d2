import ExampleReminderApp
import Testing

@Suite struct ReminderIDTests {
  static let time = ReminderTime(hour: 8, minute: 5)
  static let day = DoseDay(year: 2026, month: 5, day: 4)

  @Test(arguments: [
    (ReminderID.daily(medication: "metformin", time: time), "metformin-0805"),
    (.oneDay(medication: "metformin", time: time, day: day), "metformin-0805-20260504"),
    (.followUp(medication: "metformin", time: time, day: day, number: 10), "metformin-0805-20260504-f10"),
    (.snoozed(medication: "metformin", time: time, day: day), "metformin-0805-20260504-snoozed"),
    (.place(medication: "vitd"), "vitd-place"),
  ])
  func anIdentifierReadsBackAsTheRequestItNames(id: ReminderID, text: String) {
    #expect(id.rawValue == text)
    #expect(ReminderID(rawValue: text) == id)
  }

  @Test(arguments: ["", "-0800", "metformin", "metformin-2400", "metformin-0860", "metformin-0800-2026054", "metformin-0800-20260504-f0",
    "metformin-0800-20260504-later", "metformin-place-extra", "metformin-08:0"])
  func anIdentifierTheAppNeverMakesIsNotRead(text: String) {
    #expect(ReminderID(rawValue: text) == nil)
  }
}
