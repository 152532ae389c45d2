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

  /// The kinds of text a reader bounds one by one (the value bound is
  /// checked on the parser's events, for every value).
  public enum Kind: Sendable {
    case identifier, identifierPart, name

    /// The most Unicode scalars a text of this kind may have.
    public var characters: Int {
      switch self {
      case .identifier: TextLimit.identifier
      case .identifierPart: TextLimit.identifierPart
      case .name: TextLimit.name
      }
    }
  }

  /// The problem of `text`, given as `what` ("medicine id"), when it is
  /// longer than `kind` allows: the message (`medicine id 'mmm…' is 14000
  /// characters long, more than 64`) and what to do; nil when it fits.
  /// Counts at most `kind.characters + 1` scalars of a text that fits.
  public static func problem(_ text: some StringProtocol, _ kind: Kind, what: String) -> (message: String, notes: [String])? {
    var count = 0
    for _ in text.unicodeScalars {
      count += 1
      if count > kind.characters { break }
    }
    guard count > kind.characters else { return nil }
    let message = "\(what) \(Diagnostic.quote(text)) is \(text.unicodeScalars.count) characters long, more than \(kind.characters)"
    let note =
      switch kind {
      case .identifierPart: "it becomes part of every request identifier made from it; use a short id (at most \(kind.characters) characters)"
      case .identifier: "identifiers are at most \(kind.characters) characters; use a short, stable one"
      case .name: "\(what) is at most \(kind.characters) characters; shorten it"
      }
    return (message, [note])
  }
}
