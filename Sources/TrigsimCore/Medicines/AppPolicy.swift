import Foundation

/// How the medicine app's own code schedules: the choices that differ from
/// one app to another and decide whether its reminders survive the
/// platform's rules. The defaults are the model's idealised app (see the
/// the manual, "The app's policy").
public struct AppPolicy: Sendable {
  /// The order in which the app adds a batch of requests (what the pending
  /// limit keeps depends on it).
  public var addOrder: AddOrder = .interleaved
  /// How the app names its requests.
  public var identifiers = IdentifierTemplates()
  /// How the app implements a snooze.
  public var snooze = SnoozeImplementation()
  /// Which app code re-adds follow-up chains, and for which medicines.
  public var chainReAdds = ChainReAdds()
  /// Whether an action handler that runs in the background finishes its work.
  public var handler: HandlerCompletion = .complete
  /// The Android build's choices (used only on the `android` device).
  public var android = AndroidAppPolicy()
  /// Who reminds of the daily times: the app on the phone (`local`, the
  /// default), or the app's reminder server (`server`, with `server:`), in
  /// which case the app schedules no daily reminder of its own.
  public var dailyReminders = DailyReminderSource.local

  public init() {}

  /// Whether this is the model's idealised app.
  public var isDefault: Bool {
    addOrder == .interleaved && identifiers.isDefault && snooze == SnoozeImplementation() && chainReAdds == ChainReAdds()
      && handler == .complete && android == AndroidAppPolicy() && dailyReminders == .local
  }

  /// The `app` header line: every choice, when one differs from the default.
  var summary: String {
    var words = ["add-order=\(addOrder.rawValue)", "reminder-id=\(identifiers.reminder)", "location-id=\(identifiers.location)",
                 "followup-id=\(identifiers.followUp)", snooze.summary]
    words.append("re-add=" + (chainReAdds.summary ?? "default"))
    words.append("handler=\(handler.rawValue)")
    // Printed only when set, so that headers made before the Android build stay as they were.
    if android != AndroidAppPolicy() { words.append(android.summary) }
    if dailyReminders != .local { words.append("daily-reminders=\(dailyReminders.rawValue)") }
    return words.joined(separator: " ")
  }
}

/// Who reminds the patient of a medicine's daily times.
public enum DailyReminderSource: String, Sendable, CaseIterable {
  /// The app schedules them on the phone (a calendar notification on iOS, an alarm on Android).
  case local
  /// The app's reminder server sends them (`server:`); the phone schedules none.
  case server
}

/// The order in which the app adds the requests of the medicines it
/// schedules at one instant (creations and edits at the same instant are
/// one batch, as the app's "schedule all" code sees them).
///
/// Under a `last-added` retention the platform keeps the 64 requests added
/// last (Apple: the system keeps the soonest-firing 64 and discards the
/// rest; see the manual's pending-limit sources), so the order decides
/// which requests a batch over the limit loses.
public enum AddOrder: String, Sendable, CaseIterable {
  /// Medicine by medicine: each daily reminder followed by its follow-ups,
  /// then the location reminder (the model's default).
  case interleaved
  /// Medicine by medicine: all its reminders (daily, then location), then all its follow-ups.
  case perMedicine = "per-medicine"
  /// Every medicine's reminders first, then every medicine's follow-ups.
  case remindersFirst = "reminders-first"
  /// Every medicine's follow-ups first, then every medicine's reminders.
  case chainsFirst = "chains-first"
}

/// What the app does to re-alert after a snooze.
public struct SnoozeImplementation: Sendable, Equatable {
  /// The identifier of the snoozed alert.
  public var identifier: SnoozedIdentifier = .sameUnlessPending
  /// When the snoozed alert fires.
  public var trigger: SnoozeTrigger = .intervalFromNow
  /// With `calendarFromDue`: the app adds the alert only if its date is
  /// still in the future (the guard some apps have); without the guard a
  /// past date is added and never delivers.
  public var onlyIfFuture = true

  public init(identifier: SnoozedIdentifier = .sameUnlessPending, trigger: SnoozeTrigger = .intervalFromNow, onlyIfFuture: Bool = true) {
    self.identifier = identifier
    self.trigger = trigger
    self.onlyIfFuture = onlyIfFuture
  }

  /// `identifier=same-unless-pending trigger=interval`
  var summary: String {
    var words = ["snooze-id=\(identifier)", "snooze-trigger=\(trigger.rawValue)"]
    if trigger == .calendarFromDue { words.append("only-if-future=\(onlyIfFuture ? "yes" : "no")") }
    return words.joined(separator: " ")
  }
}

/// The identifier of a snoozed alert.
public enum SnoozedIdentifier: Sendable, Equatable, CustomStringConvertible {
  /// The identifier acted on, unless a request under it is pending (the
  /// repeating daily or location request, or a later dose's follow-up):
  /// then that identifier + `_snoozed` (the model's default).
  case sameUnlessPending
  /// Always the identifier acted on: a snooze of the repeating daily
  /// reminder replaces it with a one-shot request (`add` with a pending
  /// identifier replaces the request; Apple, `UNUserNotificationCenter.add`).
  case same
  /// The app's own name for it.
  case template(IdentifierTemplate)

  public var description: String {
    switch self {
    case .sameUnlessPending: "same-unless-pending"
    case .same: "same"
    case .template(let template): template.text
    }
  }
}

/// When a snoozed alert fires.
public enum SnoozeTrigger: String, Sendable, CaseIterable {
  /// A one-shot interval trigger of the duration, from the action (the default).
  case intervalFromNow = "interval"
  /// A one-shot calendar trigger at the dose's due time plus the duration
  /// (what apps that store the dose time compute).
  case calendarFromDue = "calendar-from-due"
}

/// Which medicines' chains the app re-adds when its code runs at one kind of moment.
public enum ChainReAddScope: String, Sendable, CaseIterable {
  /// None: the code that runs then does not schedule.
  case none
  /// Only the medicine the moment concerns (the notification acted on or presented).
  case medicine
  /// Every medicine.
  case all
}

/// The app code that re-adds upfront follow-up chains ("top up": the next
/// occurrence's chain for each daily time with no chain request pending).
/// The defaults are the model's app: launch code re-adds every medicine's
/// chains, an action handler or a will-present callback only the
/// medicine concerned, a background refresh or a silent push none.
public struct ChainReAdds: Sendable, Equatable {
  /// The app comes to the foreground (its launch code runs).
  public var foreground: ChainReAddScope = .all
  /// An action handler (`didReceive`) runs.
  public var action: ChainReAddScope = .medicine
  /// A delivery while in the foreground (`willPresent`).
  public var willPresent: ChainReAddScope = .medicine
  /// A background app refresh task runs (`BGAppRefreshTask`).
  public var backgroundRefresh: ChainReAddScope = .none
  /// A background (silent) push wakes the app.
  public var silentPush: ChainReAddScope = .none

  public init() {}

  /// `foreground=all action=medicine ...`, only the moments that differ from
  /// the default, for the header.
  var summary: String? {
    let defaults = ChainReAdds()
    let pairs: [(String, ChainReAddScope, ChainReAddScope)] = [
      ("foreground", foreground, defaults.foreground), ("action", action, defaults.action),
      ("will-present", willPresent, defaults.willPresent), ("background-refresh", backgroundRefresh, defaults.backgroundRefresh),
      ("silent-push", silentPush, defaults.silentPush),
    ]
    let changed = pairs.filter { $0.1 != $0.2 }.map { "\($0.0):\($0.1.rawValue)" }
    return changed.isEmpty ? nil : changed.joined(separator: ",")
  }
}

/// Whether an action handler running in the background finishes before
/// the system suspends the app. Apple: the app must call the completion
/// handler of `userNotificationCenter(_:didReceive:withCompletionHandler:)`
/// when it has finished, and the system suspends a background app soon
/// after; work the handler leaves to an asynchronous task may never run.
public enum HandlerCompletion: String, Sendable, CaseIterable {
  /// The handler does all its work: cancellations, re-adds, badge (the default).
  case complete
  /// In the background, the handler's synchronous work (cancelling the
  /// chain, clearing notifications, recording the dose) runs, but its
  /// asynchronous re-adds (the snoozed alert, the chain top-up) are lost.
  case cutShort = "cut-short"
}

/// How the app names its requests: one template per kind of request.
public struct IdentifierTemplates: Sendable, Equatable {
  /// The repeating daily reminder. Default `medicine_{medicine}_reminder_{reminder}`.
  public var reminder = IdentifierTemplate.productReminder
  /// The location reminder. Default `medicine_{medicine}_location`.
  public var location = IdentifierTemplate.productLocation
  /// A follow-up. Default `medicine_{medicine}_snooze_{followupOfMedicine}`:
  /// every chain of a medicine has its own numbers.
  public var followUp = IdentifierTemplate.productFollowUp

  public init() {}

  public var isDefault: Bool { self == IdentifierTemplates() }
}

/// The values a template's placeholders stand for.
public struct IdentifierValues: Sendable, Equatable {
  public var medicine: MedicineID
  /// The daily time's position in `times`; the location reminder's chain
  /// counts as position `times.count`.
  public var reminder: Int?
  /// The follow-up's number in its dose's chain, 1...count.
  public var followUp: Int?
  /// `reminder × count + followUp`: unique among a medicine's chains.
  public var followUpOfMedicine: Int?
  /// The dose's local date as `yyyyMMdd`, or the location occurrence number.
  public var dose: String?

  public init(medicine: MedicineID, reminder: Int? = nil, followUp: Int? = nil, followUpOfMedicine: Int? = nil, dose: String? = nil) {
    self.medicine = medicine
    self.reminder = reminder
    self.followUp = followUp
    self.followUpOfMedicine = followUpOfMedicine
    self.dose = dose
  }
}

/// A request identifier pattern with placeholders in braces:
/// `{medicine}`, `{reminder}`, `{followup}`, `{followupOfMedicine}`, `{dose}`.
/// Everything else is literal. A template renders an identifier from
/// `IdentifierValues` and reads one back (`match`).
public struct IdentifierTemplate: Sendable, Equatable, CustomStringConvertible {
  public enum Placeholder: String, Sendable, CaseIterable {
    case medicine
    case reminder
    case followUp = "followup"
    case followUpOfMedicine = "followupOfMedicine"
    case dose
  }

  enum Part: Sendable, Equatable {
    case literal(String)
    case placeholder(Placeholder)
  }

  public let text: String
  let parts: [Part]

  public static let productReminder = IdentifierTemplate(validated: "medicine_{medicine}_reminder_{reminder}")
  public static let productLocation = IdentifierTemplate(validated: "medicine_{medicine}_location")
  public static let productFollowUp = IdentifierTemplate(validated: "medicine_{medicine}_snooze_{followupOfMedicine}")

  /// Parses a template; returns why it is not one.
  public static func parse(_ text: String) -> Result<IdentifierTemplate, TemplateError> {
    var parts: [Part] = []
    var literal = ""
    var index = text.startIndex
    while index < text.endIndex {
      let character = text[index]
      if character == "}" { return .failure(.unbalanced) }
      guard character == "{" else {
        literal.append(character)
        index = text.index(after: index)
        continue
      }
      guard let close = text[index...].firstIndex(of: "}") else { return .failure(.unbalanced) }
      let name = String(text[text.index(after: index)..<close])
      guard let placeholder = Placeholder(rawValue: name) else { return .failure(.unknownPlaceholder(name)) }
      if case .placeholder = parts.last, literal.isEmpty { return .failure(.adjacentPlaceholders) }
      if !literal.isEmpty { parts.append(.literal(literal)) }
      literal = ""
      parts.append(.placeholder(placeholder))
      index = text.index(after: close)
    }
    if !literal.isEmpty { parts.append(.literal(literal)) }
    guard parts.contains(.placeholder(.medicine)) else { return .failure(.noMedicine) }
    return .success(IdentifierTemplate(text: text, parts: parts))
  }

  public enum TemplateError: Error, Equatable, CustomStringConvertible {
    case unbalanced
    case unknownPlaceholder(String)
    case adjacentPlaceholders
    case noMedicine

    public var description: String {
      switch self {
      case .unbalanced: "a brace is not closed or not opened"
      case .unknownPlaceholder(let name): "unknown placeholder '{\(Diagnostic.excerpt(name))}'"
      case .adjacentPlaceholders: "two placeholders need a literal character between them"
      case .noMedicine: "a template needs '{medicine}': the app names every request after its medicine"
      }
    }
  }

  private init(text: String, parts: [Part]) {
    self.text = text
    self.parts = parts
  }

  private init(validated text: String) {
    guard case .success(let template) = Self.parse(text) else { preconditionFailure("invalid built-in template \(text)") }
    self = template
  }

  public var description: String { text }

  /// The most Unicode scalars an identifier made from this template can
  /// have: its literals, `TextLimit.identifierPart` for each `{medicine}`,
  /// and 20 for each number or `{dose}` (a 64-bit integer's digits and sign).
  /// Readers refuse a template whose identifiers could pass `TextLimit.identifier`.
  public var longestIdentifier: Int {
    parts.reduce(0) { length, part in
      switch part {
      case .literal(let literal): length + literal.unicodeScalars.count
      case .placeholder(.medicine): length + TextLimit.identifierPart
      case .placeholder: length + 20
      }
    }
  }

  public var placeholders: Set<Placeholder> {
    Set(parts.compactMap { if case .placeholder(let p) = $0 { p } else { nil } })
  }

  /// The identifier for `values`; a placeholder without a value renders as `0`.
  public func render(_ values: IdentifierValues) -> NotificationID {
    var text = ""
    for part in parts {
      switch part {
      case .literal(let literal): text += literal
      case .placeholder(let placeholder):
        switch placeholder {
        case .medicine: text += values.medicine.rawValue
        case .reminder: text += String(values.reminder ?? 0)
        case .followUp: text += String(values.followUp ?? 0)
        case .followUpOfMedicine: text += String(values.followUpOfMedicine ?? 0)
        case .dose: text += values.dose ?? "0"
        }
      }
    }
    return NotificationID(text)
  }

  /// The values an identifier was rendered from, if it has this template's
  /// form: literals match exactly; `{medicine}` and `{dose}` a run of
  /// letters and digits, the numbers a run of digits. Matching is greedy
  /// and literal-anchored, so a placeholder ends at the next literal.
  public func match(_ identifier: String) -> IdentifierValues? {
    var rest = Substring(identifier)
    var values = IdentifierValues(medicine: "")
    for (position, part) in parts.enumerated() {
      switch part {
      case .literal(let literal):
        guard rest.hasPrefix(literal) else { return nil }
        rest = rest.dropFirst(literal.count)
      case .placeholder(let placeholder):
        let value: Substring
        if position + 1 < parts.count, case .literal(let next) = parts[position + 1] {
          guard let range = rest.range(of: next) else { return nil }
          value = rest[..<range.lowerBound]
        } else {
          value = rest
        }
        guard !value.isEmpty, value.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return nil }
        rest = rest[value.endIndex...]
        switch placeholder {
        case .medicine: values.medicine = MedicineID(String(value))
        case .dose: values.dose = String(value)
        case .reminder, .followUp, .followUpOfMedicine:
          guard value.allSatisfy(\.isNumber), let number = Int(value) else { return nil }
          switch placeholder {
          case .reminder: values.reminder = number
          case .followUp: values.followUp = number
          default: values.followUpOfMedicine = number
          }
        }
      }
    }
    return rest.isEmpty ? values : nil
  }
}

/// Request identifiers, as the app names them (its `IdentifierTemplates`).
extension IdentifierTemplates {
  public func reminder(_ medicine: MedicineID, _ index: Int) -> NotificationID {
    reminder.render(IdentifierValues(medicine: medicine, reminder: index))
  }

  public func location(_ medicine: MedicineID) -> NotificationID {
    location.render(IdentifierValues(medicine: medicine))
  }

  /// Follow-up `index` (1...count) of the chain after reminder `slot`, for
  /// `dose`. The chain's reminder number is the daily time's position in
  /// `times`, or `times.count` for the location reminder; `{followupOfMedicine}`
  /// is `n × count + index`, so every chain of a medicine has its own numbers.
  public func followUp(_ medicine: Medicine, slot: DoseSlot, index: Int, dose: DoseKey) -> NotificationID {
    let count = medicine.snooze?.count ?? 0
    let chain: Int
    switch slot {
    case .time(let time): chain = medicine.times.firstIndex(of: time) ?? medicine.times.count
    case .location: chain = medicine.times.count
    }
    return followUp.render(
      IdentifierValues(medicine: medicine.id, reminder: chain, followUp: index, followUpOfMedicine: chain * count + index, dose: dose.compactLabel))
  }
}

extension DoseKey {
  /// `20260328` (`20260328r1` for a second dose that day), or the location occurrence number: for `{dose}`.
  public var compactLabel: String {
    switch slot {
    case .time:
      let date = civilDate(fromDaysSinceEpoch: occurrence)
      return String(format: "%04lld%02lld%02lld", date.year, date.month, date.day) + (repeatOnDay > 0 ? "r\(repeatOnDay)" : "")
    case .location:
      return String(occurrence)
    }
  }
}

/// The app's request for one place of a set: the location template
/// followed by `_{place}` (`medicine_{id}_location_{place}` by default).
extension IdentifierTemplates {
  public func placeLocation(_ medicine: MedicineID, _ place: PlaceID) -> NotificationID {
    NotificationID(location(medicine).rawValue + "_\(place)")
  }
}
