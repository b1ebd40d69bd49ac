/* Debian's libxml2 is built with ICU and encoding.h would then include the system <unicode/ucnv.h>, whose
 * UErrorCode clashes with the newer ICU inside Foundation (_FoundationICU) when both modules are imported.
 * Entitle never uses libxml2's ICU converters (only pointers to xmlCharEncodingHandler, never by value). */
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/c14n.h>
#include <libxml/xpath.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlIO.h>
