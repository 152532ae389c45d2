import CLibXML2HTML
import Foundation

/// Whether a document trigsim wrote parses cleanly with libxml2: an SVG
/// picture with its XML parser (strict XML 1.0: any error counts), the HTML
/// report with its HTML parser. No browser is needed, so the check runs
/// everywhere the tests do.
public enum MarkupWellFormedness {
  /// One error libxml2 reported: where (1-based) and what.
  public struct Problem: Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var message: String
    /// libxml2's error code (`xmlParserErrors`).
    public var code: Int

    public var description: String { "\(line):\(column): \(message) (libxml2 error \(code))" }
  }

  /// The errors libxml2's XML parser reports for `text`, in order; empty when
  /// it is well-formed XML 1.0. No recovery, no network, no entity loaded.
  public static func xmlProblems(_ text: String) -> [Problem] {
    let data = Array(text.utf8)
    return collecting { collector in
      guard let context = xmlNewParserCtxt() else { return }
      defer { xmlFreeParserCtxt(context) }
      let options = Int32(XML_PARSE_NONET.rawValue)
      let document = data.withUnsafeBufferPointer { bytes in
        bytes.withMemoryRebound(to: CChar.self) { chars in
          xmlCtxtReadMemory(context, chars.baseAddress, Int32(chars.count), "picture.svg", "UTF-8", options)
        }
      }
      if let document { xmlFreeDoc(document) }
      // A document that is not well-formed always has an error; this guards a silent failure.
      if (document == nil || context.pointee.wellFormed == 0) && collector.problems.isEmpty {
        collector.problems.append(Problem(line: 1, column: 1, message: "not well-formed (libxml2 gave no error)", code: -1))
      }
    }
  }

  /// The errors libxml2's HTML parser reports for `text`, in order; empty
  /// when it parses cleanly. libxml2 2.9's HTML parser knows HTML 4's
  /// elements only, so "tag … invalid" (`XML_HTML_UNKNOWN_TAG`), which it
  /// says of HTML5's `main`, `section`, `header`, `footer` and of inline
  /// SVG's elements, is not counted; every other error is (a stray `<` or
  /// `&`, an end tag that closes nothing, a character HTML does not allow).
  public static func htmlProblems(_ text: String) -> [Problem] {
    let data = Array(text.utf8)
    return collecting { collector in
      let options = Int32(HTML_PARSE_NONET.rawValue)
      let document = data.withUnsafeBufferPointer { bytes in
        bytes.withMemoryRebound(to: CChar.self) { chars in
          htmlReadMemory(chars.baseAddress, Int32(chars.count), "page.html", "UTF-8", options)
        }
      }
      if let document { xmlFreeDoc(document) } else if collector.problems.isEmpty {
        collector.problems.append(Problem(line: 1, column: 1, message: "no document (libxml2 gave no error)", code: -1))
      }
    }
    .filter { $0.code != Int(XML_HTML_UNKNOWN_TAG.rawValue) }
  }

  /// Collects the errors (not the warnings) libxml2 raises on this thread
  /// while `parse` runs; the thread's handlers are put back after.
  private static func collecting(_ parse: (ErrorCollector) -> Void) -> [Problem] {
    _ = initialized
    let collector = ErrorCollector()
    let savedHandler = __xmlStructuredError().pointee
    let savedContext = __xmlStructuredErrorContext().pointee
    xmlSetStructuredErrorFunc(Unmanaged.passUnretained(collector).toOpaque()) { context, error in
      guard let context, let error, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
      let collector = Unmanaged<ErrorCollector>.fromOpaque(context).takeUnretainedValue()
      let message = error.pointee.message.map { String(cString: $0) } ?? "?"
      collector.problems.append(
        Problem(
          line: Int(error.pointee.line), column: Int(error.pointee.int2),
          message: message.trimmingCharacters(in: .whitespacesAndNewlines), code: Int(error.pointee.code)))
    }
    defer { xmlSetStructuredErrorFunc(savedContext, savedHandler) }
    withExtendedLifetime(collector) { parse(collector) }
    return collector.problems
  }

  private final class ErrorCollector {
    var problems: [Problem] = []
  }

  /// libxml2's global state, set up once before any thread parses.
  private static let initialized: Void = xmlInitParser()
}
