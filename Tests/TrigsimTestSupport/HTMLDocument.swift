import CLibXML2HTML
import Foundation

/// An HTML document parsed by libxml2's HTML parser, queried with XPath 1.0:
/// how the browser tests read the DOM Chromium rendered (inline SVG included;
/// the parser keeps its elements, with lower-case names).
public final class HTMLDocument {
  private let document: htmlDocPtr?

  public init(_ html: String) {
    let options = Int32(HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_NONET.rawValue)
    document = html.withCString { text in htmlReadMemory(text, Int32(strlen(text)), "page.html", "UTF-8", options) }
  }

  deinit { if let document { xmlFreeDoc(document) } }

  /// The number `expression` evaluates to (`count(…)`, `sum(…)`); NaN when
  /// it is not a number or the document did not parse.
  public func number(xpath expression: String) -> Double {
    evaluate(expression) { result in result.pointee.type == XPATH_NUMBER ? result.pointee.floatval : .nan } ?? .nan
  }

  /// How many nodes `expression` selects.
  public func count(xpath expression: String) -> Int { Int(number(xpath: "count(\(expression))")) }

  /// The string values of the nodes `expression` selects (attributes' values, elements' text), in document order.
  public func attributeValues(xpath expression: String) -> [String] {
    evaluate(expression) { result -> [String] in
      guard result.pointee.type == XPATH_NODESET, let set = result.pointee.nodesetval else { return [] }
      return (0..<Int(set.pointee.nodeNr)).compactMap { index in
        guard let node = set.pointee.nodeTab[index], let content = xmlNodeGetContent(node) else { return nil }
        defer { trigsim_xml_free(content) }
        return String(cString: content)
      }
    } ?? []
  }

  private func evaluate<T>(_ expression: String, _ read: (xmlXPathObjectPtr) -> T) -> T? {
    guard let document, let context = xmlXPathNewContext(document) else { return nil }
    defer { xmlXPathFreeContext(context) }
    guard let result = xmlXPathEvalExpression(expression, context) else { return nil }
    defer { xmlXPathFreeObject(result) }
    return read(result)
  }
}
