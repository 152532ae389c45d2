#ifndef TRIGSIM_CLIBXML2HTML_SHIM_H
#define TRIGSIM_CLIBXML2HTML_SHIM_H
// libxml2's HTML and XML parsers, its structured errors and XPath, for the
// tests that query the DOM a browser rendered and check that the report's
// documents are well-formed (Debian's libxml2-dev). As in
// Sources/CLibXML2/shim.h, ICU's converter is hidden: its headers clash with
// Foundation's copy.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/xmlerror.h>
#include <libxml/globals.h>
#include <libxml/HTMLparser.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

/// libxml2's deallocator, which Swift sees as a global variable (not concurrency-safe to read).
static inline void trigsim_xml_free(void *pointer) { xmlFree(pointer); }
#endif
