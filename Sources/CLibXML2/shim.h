#ifndef HERALD_CLIBXML2_SHIM_H
#define HERALD_CLIBXML2_SHIM_H
// Debian's libxml2 headers pull in ICU, which clashes with Foundation's copy of it
// ('UErrorCode' has different definitions): switch the ICU part off before the rest.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/SAX2.h>
#include <libxml/HTMLparser.h>
#include <libxml/xmlerror.h>
#include <libxml/parserInternals.h>
#include <libxml/entities.h>
#include <libxml/encoding.h>
#include <libxml/uri.h>

/// xmlFree is a global function pointer variable: call it through a function.
static inline void cx_free(void *p) { xmlFree(p); }

/// libxml2's generic error channel is variadic (Swift cannot create one): a no-op, so that
/// messages outside a parser context never reach stderr.
static inline void cx_ignore_generic_error(void *ctx, const char *msg, ...) { (void)ctx; (void)msg; }
static inline void cx_silence_generic_errors(void) { xmlSetGenericErrorFunc(NULL, cx_ignore_generic_error); }
static inline void cx_restore_generic_errors(void) { xmlSetGenericErrorFunc(NULL, NULL); }

/// The line the parser is at (for errors raised without a line of their own).
static inline int cx_ctxt_line(xmlParserCtxtPtr ctxt) {
    return (ctxt != NULL && ctxt->input != NULL) ? ctxt->input->line : 0;
}

#endif
