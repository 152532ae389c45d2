import Foundation
import TrigsimCore

/// A dose baseline read from a file, with the line each dose is on.
public struct ExpectedDoses: Sendable {
  public var baseline: DoseBaseline
  /// The 1-based line of each of `baseline.doses`.
  public var doseLines: [Int]
  public var file: String
}

/// Reads a `.doses` file (`DoseBaseline.canonicalText`): the format line, the
/// two `#` lines of pending-slot accounting, then one line of `key=value`
/// fields per dose, values bare or quoted as in a timeline. Every problem is
/// reported at its line and column (1-based, in Unicode scalars); no line of
/// the file is quoted back, only the names and values that are wrong.
public struct ExpectedDosesReader {
  public init() {}

  /// Reads the file at `path` (as given; used in every location), under the
  /// policy of every file a scenario implies (`ScenarioFileKind`).
  ///
  /// - Throws: `FileAccessError` when the file cannot be read or is not
  ///   UTF-8; `InputError` with every problem located when it is malformed,
  ///   or when `policy` or the size limit refuses it.
  public func read(path: String, policy: ScenarioPathPolicy = .unrestricted) throws -> ExpectedDoses {
    let text = try ScenarioFileKind.expectedDoses.readText(path, policy: policy)
    return try read(text: text, file: path)
  }

  /// Reads `text`; `file` names it in every location.
  public func read(text: String, file: String) throws -> ExpectedDoses {
    var parser = DoseBaselineParser(file: file)
    let result = parser.parse(text)
    try parser.timelineParser.problems.throwIfAny()
    guard let result else {
      throw InputError(Diagnostic(at: InputLocation(file: file, line: 1, column: 1), "the expected dose table could not be read"))
    }
    return result
  }
}

/// The line-by-line parser behind `ExpectedDosesReader`; the field syntax is
/// the timeline's (`CanonicalTimelineParser.field`).
struct DoseBaselineParser {
  var timelineParser: CanonicalTimelineParser
  let file: String

  init(file: String) {
    self.file = file
    timelineParser = CanonicalTimelineParser(problems: ExpectedTimelineProblems(file: file))
  }

  static let recordNote = "record it again with 'trigsim record scenario.yaml', then review it"
  static let fieldKeys = Set(DoseBaseline.fieldKeys)

  private mutating func error(line: Int, column: Int, _ message: String, notes: [String] = []) {
    timelineParser.problems.error(line: line, column: column, message, notes: notes)
  }

  mutating func parse(_ text: String) -> ExpectedDoses? {
    var body = Substring(text)
    if body.unicodeScalars.first == "\u{FEFF}" { body = Substring(body.unicodeScalars.dropFirst()) }
    // Split on the scalar: "\r\n" is one Character, so a Character split would keep CRLF lines whole.
    let lines = body.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0) }
    // A final newline does not start another line.
    let count = lines.last?.isEmpty == true ? lines.count - 1 : lines.count
    guard count > 0 else {
      error(line: 1, column: 1, "the dose table is empty", notes: [Self.recordNote])
      return nil
    }
    let first = lines[0].last == "\r" ? Array(lines[0].dropLast()) : lines[0]
    let firstText = String(String.UnicodeScalarView(first))
    guard firstText == DoseBaseline.formatLine else {
      if firstText.hasPrefix("# trigsim doses ") {
        error(
          line: 1, column: 1, "unsupported dose table format version '\(Diagnostic.excerpt(firstText.dropFirst("# trigsim doses ".count)))'",
          notes: ["this trigsim reads '\(DoseBaseline.formatLine)'", Self.recordNote])
      } else {
        var notes = [Self.recordNote]
        if firstText == Timeline.formatLine { notes.insert("this is an expected timeline; a dose table is the '.doses' file beside it", at: 0) }
        timelineParser.problems.foreignFile(format: "a trigsim dose table", whyNot: "its first line is not '\(DoseBaseline.formatLine)'", notes: notes)
      }
      return nil
    }

    var baseline = DoseBaseline()
    var doseLines: [Int] = []
    var sawPeak = false
    var sawDropped = false
    var reportedCarriageReturn = false
    for index in 1..<count {
      let lineNumber = index + 1
      var line = lines[index]
      if line.last == "\r" {
        if !reportedCarriageReturn {
          reportedCarriageReturn = true
          error(
            line: lineNumber, column: line.count, "line ends with a carriage return (CRLF line ends)",
            notes: ["save the file with LF line ends (in git: '*.doses text eol=lf' in .gitattributes)"])
        }
        line.removeLast()
      }
      if line.allSatisfy({ $0 == " " }) {
        error(line: lineNumber, column: 1, "blank line", notes: ["a dose table has no blank lines; remove it"])
        continue
      }
      if line.first == "#" {
        if !doseLines.isEmpty {
          error(line: lineNumber, column: 1, "header line after the doses", notes: ["the '#' lines come first, before the first dose; move it up"])
          continue
        }
        header(line, lineNumber: lineNumber, into: &baseline, sawPeak: &sawPeak, sawDropped: &sawDropped)
        continue
      }
      if let dose = dose(line, lineNumber: lineNumber) {
        baseline.doses.append(dose)
        doseLines.append(lineNumber)
      }
    }
    if !sawPeak { error(line: 1, column: 1, "the dose table has no '# pending peak: N' line", notes: [Self.recordNote]) }
    if !sawDropped { error(line: 1, column: 1, "the dose table has no '# dropped by the pending limit: N' line", notes: [Self.recordNote]) }
    return ExpectedDoses(baseline: baseline, doseLines: doseLines, file: file)
  }

  /// `# pending peak: N[ at INSTANT]` or `# dropped by the pending limit: N`.
  private mutating func header(_ line: [Unicode.Scalar], lineNumber: Int, into baseline: inout DoseBaseline, sawPeak: inout Bool, sawDropped: inout Bool) {
    let text = String(String.UnicodeScalarView(line))
    let peakPrefix = "# pending peak: "
    let droppedPrefix = "# dropped by the pending limit: "
    if text.hasPrefix(peakPrefix) {
      guard !sawPeak else {
        error(line: lineNumber, column: 1, "a second '# pending peak' line", notes: ["a dose table has one; remove this line or the other"])
        return
      }
      sawPeak = true
      let rest = text.dropFirst(peakPrefix.count)
      let parts = rest.split(separator: " ", omittingEmptySubsequences: false)
      guard let peak = Int(parts[0]), peak >= 0 else {
        error(line: lineNumber, column: peakPrefix.count + 1, "the pending peak '\(Diagnostic.excerpt(parts[0]))' is not a count", notes: ["write it as '# pending peak: 12 at 2026-05-04T07:00:00.000+02:00'"])
        return
      }
      baseline.pendingPeak = peak
      if parts.count > 1 {
        let atColumn = peakPrefix.count + parts[0].count + 2
        guard parts.count == 3, parts[1] == "at" else {
          error(line: lineNumber, column: atColumn, "expected 'at INSTANT' after the pending peak", notes: ["write it as '# pending peak: 12 at 2026-05-04T07:00:00.000+02:00'"])
          return
        }
        baseline.pendingPeakAt = instant(String(parts[2]), line: lineNumber, column: atColumn + 3, what: "pending peak")
      }
    } else if text.hasPrefix(droppedPrefix) {
      guard !sawDropped else {
        error(line: lineNumber, column: 1, "a second '# dropped by the pending limit' line", notes: ["a dose table has one; remove this line or the other"])
        return
      }
      sawDropped = true
      let rest = String(text.dropFirst(droppedPrefix.count))
      guard let dropped = Int(rest), dropped >= 0 else {
        error(line: lineNumber, column: droppedPrefix.count + 1, "the number dropped '\(Diagnostic.excerpt(rest))' is not a count", notes: ["write it as '# dropped by the pending limit: 0'"])
        return
      }
      baseline.droppedByPendingLimit = dropped
    } else {
      error(
        line: lineNumber, column: 1, "unknown header line",
        notes: ["a dose table's '#' lines are '# pending peak: N at INSTANT' and '# dropped by the pending limit: N'"])
    }
  }

  private mutating func instant(_ text: String, line: Int, column: Int, what: String) -> ZonedInstant? {
    switch ExpectedInstant.parse(text) {
    case .success(let parsed): return ZonedInstant(parsed.instant, utcOffsetSeconds: parsed.offsetSeconds)
    case .failure(let problem):
      error(line: line, column: column, "\(what) instant '\(Diagnostic.excerpt(text))' \(problem.message)", notes: problem.notes)
      return nil
    }
  }

  /// One dose line; nil after reporting its problems.
  private mutating func dose(_ line: [Unicode.Scalar], lineNumber: Int) -> DoseBaseline.Dose? {
    var scanner = CanonicalTimelineParser.LineScanner(scalars: line)
    if line.first == " " {
      error(line: lineNumber, column: 1, "dose line starts with a space", notes: ["a dose line starts with 'medicine=' at column 1"])
      return nil
    }
    var fields: [(key: String, value: String, column: Int)] = []
    var valid = true
    while true {
      scanner.skipSpaces()
      if scanner.atEnd { break }
      let column = scanner.column
      if let field = timelineParser.field(&scanner, lineNumber: lineNumber) {
        fields.append((field.key, field.value, column + field.key.unicodeScalars.count + 1))
      } else {
        valid = false
      }
    }
    guard valid else { return nil }
    var seen: [String: Int] = [:]
    for field in fields {
      guard Self.fieldKeys.contains(field.key) else {
        error(
          line: lineNumber, column: field.column - field.key.unicodeScalars.count - 1, "unknown field '\(Diagnostic.excerpt(field.key))'",
          notes: ["a dose line's fields are " + DoseBaseline.fieldKeys.joined(separator: ", ")])
        valid = false
        continue
      }
      if field.key != "note", let first = seen[field.key] {
        error(
          line: lineNumber, column: field.column - field.key.unicodeScalars.count - 1, "field '\(field.key)' appears twice (first at column \(first))",
          notes: ["keep one of them"])
        valid = false
      }
      seen[field.key] = seen[field.key] ?? field.column - field.key.unicodeScalars.count - 1
    }
    // The first field of each key (a repeated one is an error above; `note` repeats).
    var firstOfKey: [String: (value: String, column: Int)] = [:]
    for field in fields where firstOfKey[field.key] == nil { firstOfKey[field.key] = (field.value, field.column) }
    func value(_ key: String) -> (value: String, column: Int)? { firstOfKey[key] }
    for key in ["medicine", "reminder", "occurrence", "outcome", "scheduled"] where value(key) == nil {
      error(line: lineNumber, column: line.count + 1, "dose line has no '\(key)' field", notes: ["every dose has medicine, reminder, occurrence, outcome and scheduled"])
      valid = false
    }
    guard valid, let medicine = value("medicine"), let reminder = value("reminder"), let occurrence = value("occurrence"),
      let outcomeText = value("outcome"), let scheduledText = value("scheduled")
    else { return nil }
    guard let outcome = DoseOutcome(rawValue: outcomeText.value) else {
      error(
        line: lineNumber, column: outcomeText.column, "unknown outcome '\(Diagnostic.excerpt(outcomeText.value))'",
        notes: ["a dose's outcome is one of " + DoseOutcome.allCases.map(\.rawValue).joined(separator: ", ")])
      return nil
    }
    guard let scheduled = instant(scheduledText.value, line: lineNumber, column: scheduledText.column, what: "scheduled") else { return nil }
    var dose = DoseBaseline.Dose(medicine: MedicineID(medicine.value), reminder: reminder.value, occurrence: occurrence.value, outcome: outcome, scheduled: scheduled)
    func optionalInstant(_ key: String) -> ZonedInstant?? {
      guard let field = value(key) else { return .some(nil) }
      guard let parsed = instant(field.value, line: lineNumber, column: field.column, what: key) else { return nil }
      return .some(parsed)
    }
    func count(_ key: String) -> Int? {
      guard let field = value(key) else { return 0 }
      guard let number = Int(field.value), number >= 0 else {
        error(line: lineNumber, column: field.column, "'\(key)' must be a count, not '\(Diagnostic.excerpt(field.value))'")
        return nil
      }
      return number
    }
    guard let perceived = optionalInstant("perceived"), let reminderDelivered = optionalInstant("reminder-delivered"),
      let completed = optionalInstant("completed"), let dismissed = optionalInstant("dismissed"),
      let followUps = count("follow-ups"), let snoozedAlerts = count("snoozed-alerts"), let snoozes = count("snoozes")
    else { return nil }
    if let chain = value("chain"), chain.value != "ran-out" {
      error(line: lineNumber, column: chain.column, "'chain' is 'ran-out' or left out, not '\(Diagnostic.excerpt(chain.value))'")
      return nil
    }
    dose.perceived = perceived
    dose.kind = value("kind")?.value
    dose.how = value("how")?.value
    dose.by = value("by")?.value
    dose.role = value("role")?.value
    dose.channel = value("channel")?.value
    dose.reminderDelivered = reminderDelivered
    dose.followUps = followUps
    dose.chainRanOut = value("chain") != nil
    dose.snoozedAlerts = snoozedAlerts
    dose.snoozes = snoozes
    dose.completed = completed
    dose.dismissed = dismissed
    dose.reason = value("reason")?.value
    dose.notes = fields.filter { $0.key == "note" }.map(\.value)
    return dose
  }
}
