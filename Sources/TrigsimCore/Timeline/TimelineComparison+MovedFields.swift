/// Fields derived from an entry's instant, which move when the instant moves.
///
/// An entry whose instant moved by *d* usually carries fields that moved with
/// it: the `next` delivery of a repeating request, the calendar trigger that
/// produced it (`calendar hour=14 minute=0` becomes `minute=1` when the time
/// moves by +1m), and any other instant-valued field (`until`, `at`). Such a
/// pair is the same entry, shifted, not one entry missing and another unexpected.
///
/// Two field lists **moved together by d** when they have the same keys in
/// the same order and each value pair is equal, or
/// - both are canonical instants (`2026-05-04T14:00:00.000+02:00`) and the
///   actual one is exactly *d* later (UTC, so the printed offset may differ), or
/// - both are calendar trigger texts with the same words apart from the date
///   and time components, whose wall-clock time moved by *d*: exactly when
///   year, month and day are all given; modulo a week when a weekday is given
///   instead of a day; modulo a day for daily times; an hour for `minute=`
///   alone; a minute for `second=` alone.
extension TimelineComparison {
  /// Whether `actual` is `expected` with every differing field moved by `milliseconds` (see the type's rule).
  static func fieldsMovedTogether(_ expected: [TimelineField], _ actual: [TimelineField], byMilliseconds offset: Int64) -> Bool {
    guard expected.count == actual.count else { return false }
    for (left, right) in zip(expected, actual) {
      guard left.key == right.key else { return false }
      if left.value == right.value { continue }
      if let from = instantMilliseconds(left.value), let to = instantMilliseconds(right.value) {
        if to - from != offset { return false }
        continue
      }
      guard calendarTriggerMoved(from: left.value, to: right.value, byMilliseconds: offset) else { return false }
    }
    return true
  }

  /// Milliseconds since the epoch of a canonical instant with an offset; nil for anything else.
  static func instantMilliseconds(_ text: String) -> Int64? {
    guard text.utf8.count >= 20, text.utf8.first.map({ $0 >= 0x30 && $0 <= 0x39 }) == true else { return nil }
    var bytes = Array(text.utf8)
    return bytes.withUnsafeMutableBufferPointer { buffer in
      guard case .success(let value) = ISO8601DateTime.parse(UnsafeBufferPointer(buffer)), let offset = value.offsetMilliseconds else { return nil }
      return value.localMilliseconds - offset
    }
  }

  /// Whether two `calendar …` trigger texts differ only in a wall-clock time moved by `milliseconds`.
  static func calendarTriggerMoved(from expected: String, to actual: String, byMilliseconds offset: Int64) -> Bool {
    guard offset % 1000 == 0, let left = CalendarText(expected), let right = CalendarText(actual),
      left.otherWords == right.otherWords, left.components.keys.sorted() == right.components.keys.sorted(),
      let leftWall = left.wallSeconds, let rightWall = right.wallSeconds
    else { return false }
    let moved = rightWall.seconds - leftWall.seconds - offset / 1000
    guard let period = leftWall.period else { return moved == 0 }
    return moved % period == 0
  }

  /// A calendar trigger text split into its date and time components and the other words (`tz=…`).
  private struct CalendarText {
    static let componentKeys: Set<String> = ["year", "month", "day", "weekday", "hour", "minute", "second"]
    var components: [String: Int64] = [:]
    var otherWords: [String] = []

    init?(_ text: String) {
      let words = text.split(separator: " ")
      guard words.first == "calendar" else { return nil }
      for word in words.dropFirst() {
        if let equals = word.firstIndex(of: "="), Self.componentKeys.contains(String(word[..<equals])) {
          guard let value = Int64(word[word.index(after: equals)...]) else { return nil }
          components[String(word[..<equals])] = value
        } else {
          otherWords.append(String(word))
        }
      }
    }

    /// The components as seconds on a wall clock, with the period they repeat
    /// in (nil: a fixed date); nil when the form has no such reading (a month without a day).
    var wallSeconds: (seconds: Int64, period: Int64?)? {
      let time = (components["hour"] ?? 0) * 3600 + (components["minute"] ?? 0) * 60 + (components["second"] ?? 0)
      if let year = components["year"], let month = components["month"], let day = components["day"] {
        return (daysSinceEpoch(year: year, month: month, day: day) * 86_400 + time, nil)
      }
      if components["year"] != nil || components["month"] != nil || components["day"] != nil { return nil }
      if let weekday = components["weekday"] { return (weekday * 86_400 + time, 7 * 86_400) }
      if components["hour"] != nil { return (time, 86_400) }
      if components["minute"] != nil { return (time, 3600) }
      if components["second"] != nil { return (time, 60) }
      return nil
    }
  }
}
