#ifndef TRIGSIM_CLIBXML2_SHIM_H
#define TRIGSIM_CLIBXML2_SHIM_H
// libxml2's SAX2 push parser and structured errors, from Debian's libxml2-dev.
#include <libxml/xmlversion.h>
// Debian builds libxml2 with ICU, so its encoding.h would include ICU's
// headers, which clash with the copy Foundation ships (_FoundationICU). Swift
// never touches the ICU converter fields this hides (they sit inside
// xmlCharEncodingHandler, only ever used through pointers).
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>

// libxml2 reports some problems (an encoder failing on bytes that are not in
// the declared encoding, say) through the calling thread's error handlers
// rather than the parser's, and by default prints them on stderr. These
// helpers route them to the caller for the length of one parse. They are C
// because Swift cannot define the variadic function libxml2's generic handler
// must be.

/// The calling thread's libxml2 error handlers, to restore after a parse.
typedef struct {
  xmlGenericErrorFunc generic;
  void *genericContext;
  xmlStructuredErrorFunc structured;
  void *structuredContext;
} trigsim_xml_error_handlers;

static void trigsim_xml_drop_generic_error(void *context, const char *message, ...) {
  (void)context;
  (void)message;
}

/// Sends this thread's structured libxml2 errors to `structured` (called with
/// `context`), drops its unstructured messages, and returns the handlers that
/// were in place.
static inline trigsim_xml_error_handlers trigsim_xml_capture_errors(xmlStructuredErrorFunc structured, void *context) {
  trigsim_xml_error_handlers saved = {
    xmlGenericError, xmlGenericErrorContext, xmlStructuredError, xmlStructuredErrorContext
  };
  xmlSetGenericErrorFunc(NULL, trigsim_xml_drop_generic_error);
  xmlSetStructuredErrorFunc(context, structured);
  return saved;
}

/// Puts back the handlers `trigsim_xml_capture_errors` returned.
static inline void trigsim_xml_restore_errors(trigsim_xml_error_handlers saved) {
  xmlSetGenericErrorFunc(saved.genericContext, saved.generic);
  xmlSetStructuredErrorFunc(saved.structuredContext, saved.structured);
}
#endif
