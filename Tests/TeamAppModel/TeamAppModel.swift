/// A team's own app model, as a module beside `TrigsimCore` in a test
/// target: it names its types as an app would (`ReminderCategory`,
/// `Medicine`), which TrigsimCore exports too. `NameCollisionTests` and
/// `ScopedImportTests` (ExampleReminderAppTests) show the ways to write such
/// a test file that compile.

/// The team's notification category: its identifier and its buttons' identifiers.
public struct ReminderCategory: Equatable, Sendable {
  public var identifier: String
  public var actionIdentifiers: [String]

  public init(identifier: String, actionIdentifiers: [String]) {
    self.identifier = identifier
    self.actionIdentifiers = actionIdentifiers
  }
}

/// The team's medicine: a name and the hours it is taken at.
public struct Medicine: Equatable, Sendable {
  public var name: String
  public var hours: [Int]

  public init(name: String, hours: [Int]) {
    self.name = name
    self.hours = hours
  }
}
