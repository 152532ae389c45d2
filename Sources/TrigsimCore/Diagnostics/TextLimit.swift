/// How long a text a user gives may be, in Unicode scalars (as columns
/// count). Each text a scenario gives is repeated: an identifier on every
/// timeline line about its request, a medicine id in every identifier its
/// templates make, a title on every delivery. Bounding each at the reader,
/// with a located error, keeps a small scenario from growing into gigabytes
/// (a 14,000-character medicine id in a template that repeats it 14,000
/// times made identifiers of about 196 MB each).
public enum TextLimit {
  /// Any single value in a scenario (a body, a path, a pattern): 4096.
  /// Checked on the parser's events, for every scalar, before anything reads it.
  public static let value = 4096

  /// An identifier: of a notification request (given, or made by an
  /// identifier template), a region, a push and its thread, a category, an action, a Focus:
  /// 256. Real apps use short, stable identifiers; 256 leaves room for
  /// reverse-DNS names and UUIDs several times over.
  public static let identifier = 256

  /// A medicine's or a place's id, which become parts of request
  /// identifiers (`medicine_{medicine}_reminder_0`, `…_location_<place>`): 64.
  public static let identifierPart = 64

  /// A name or title shown to a person (the scenario's name, a medicine's
  /// name and unit, a notification's title): 256. A notification
  /// title past that is cut on every iPhone screen anyway.
  public static let name = 256

  /// A notification's body: 4096, the size of a whole remote notification
  /// payload (Apple, "Generating a remote notification": at most 4 KB).
  public static let body = 4096

  /// The length of `text` in Unicode scalars, counting at most `limit + 1`
  /// of them (so a long text costs no more than the limit to check).
  public static func exceeds(_ text: some StringProtocol, _ limit: Int) -> Bool {
    var count = 0
    for _ in text.unicodeScalars {
      count += 1
      if count > limit { return true }
    }
    return false
  }

  /// `is 14000 characters long, more than 64`: completes a message about the value.
  public static func tooLong(_ text: some StringProtocol, _ limit: Int) -> String {
    "is \(text.unicodeScalars.count) characters long, more than \(limit)"
  }
}
