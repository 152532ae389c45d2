import Testing
import TeamAppModel
import TrigsimCore

/// A test file that imports both the team's model and TrigsimCore, which
/// export `ReminderCategory` and `Medicine` alike: the bare names are
/// ambiguous ("ambiguous use of 'init'", or "'ReminderCategory' is ambiguous
/// for type lookup in this context"), so the team's own are written with
/// their module's name. TrigsimCore's names that the team does not have stay bare.
@Suite struct NameCollisionTests {
  @Test func theTeamsOwnTypesAreWrittenWithTheirModuleName() {
    let category = TeamAppModel.ReminderCategory(identifier: "dose", actionIdentifiers: ["taken", "snooze-15m"])
    let medicine = TeamAppModel.Medicine(name: "Metformin", hours: [8, 20])

    let platformCategory = NotificationCategory(
      identifier: category.identifier,
      actions: category.actionIdentifiers.map { NotificationAction(identifier: $0, title: $0) })
    let triggers = medicine.hours.map { hour in
      CalendarTrigger(components: CalendarComponents(hour: hour, minute: 0), repeats: true)
    }

    #expect(platformCategory.actions.map(\.identifier) == ["taken", "snooze-15m"])
    #expect(triggers.map(\.components.hour) == [8, 20])
  }

  @Test func trigsimsOwnTypeOfTheSameNameIsWrittenWithItsModuleName() {
    // TrigsimCore's scenario category, when a test needs it beside the team's.
    var scenarioCategory = TrigsimCore.ReminderCategory()
    scenarioCategory.openCompletes = true
    let teamCategory = TeamAppModel.ReminderCategory(identifier: "dose", actionIdentifiers: [])
    #expect(scenarioCategory.openCompletes)
    #expect(teamCategory.identifier == "dose")
  }
}
