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

/// xmlFree is a global function pointer variable: call it through a function.
static inline void cx_free(void *p) { xmlFree(p); }

#endif
