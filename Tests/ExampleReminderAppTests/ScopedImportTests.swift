import Testing
import TrigsimCore
import struct TeamAppModel.Medicine
import struct TeamAppModel.ReminderCategory

/// The other way out of a name collision: a scoped import of the team's
/// types (`import struct TeamAppModel.ReminderCategory`) beside `import
/// TrigsimCore`. In this file the bare names are then the team's: a scoped
/// import shadows a whole-module import. Scoped imports hold per file.
@Suite struct ScopedImportTests {
  @Test func theBareNamesAreTheTeamsUnderAScopedImport() {
    let category = ReminderCategory(identifier: "dose", actionIdentifiers: ["taken"])
    let medicine = Medicine(name: "Metformin", hours: [8])

    let platformCategory = NotificationCategory(
      identifier: category.identifier,
      actions: category.actionIdentifiers.map { NotificationAction(identifier: $0, title: $0) })

    #expect(platformCategory.identifier == "dose")
    #expect(medicine.hours == [8])
  }
}
