/*
 * tc_parsers - Trace Compass's list of custom text trace definitions
 * (WORKSPACE/.metadata/.plugins/org.eclipse.tracecompass.tmf.core/
 * custom_txt_parsers.xml, and the files of File, Manage Custom Parsers,
 * Import): where each <Definition> of the list is, so that one can be
 * put in or taken out and every other byte of the file kept.
 *
 * The file is XML that Trace Compass writes with the JDK's transformer:
 * an optional declaration, comments, the root element
 * <CustomTxtTraceDefinitionList>, and in it <Definition category="..."
 * name="..."> elements, which it tells apart by category and name.  The
 * parser reads that much XML and checks that the file is well formed
 * as far as it goes (tags closed in order, attributes quoted, entity
 * references known, nothing after the root but comments); a DOCTYPE,
 * whose entities could change what the text means, is refused.  Attribute
 * order and white space are free, as in XML.  Errors name the file and
 * line (SPAA_E_PARSE), never crash: the file is the user's and may be
 * anything.
 *
 * The caller holds the whole text (the file is small: the caller bounds
 * it); struct spaa_tc_list borrows nothing from it and owns its
 * definitions' strings (spaa_tc_list_release).
 */
#ifndef SPAA_TC_PARSERS_H
#define SPAA_TC_PARSERS_H

#include <stdbool.h>
#include <stddef.h>

#include "model/error.h"
#include "model/sbuf.h"

/* The root element of the list, and its elements' name. */
#define SPAA_TC_PARSERS_ROOT "CustomTxtTraceDefinitionList"

struct spaa_tc_definition {
	char *category, *name;  /* owned; attribute values, entities decoded */
	size_t space;           /* offset where the white space before it starts */
	size_t begin, end;      /* offsets of its '<' and after its last '>' */
};

struct spaa_tc_list {
	struct spaa_tc_definition *defs;        /* owned, in file order */
	size_t nr, alloc;
	/*
	 * Where a new definition goes: the offset after the last non-space
	 * byte before the root's end tag; for an empty root written
	 * "<...List/>", the offset of its "/>" (self_closed).
	 */
	size_t insert;
	bool self_closed;
};

/*
 * Parses the n bytes of text (file names it in errors) into l
 * (initialized here; release it after a failure too).  0, or -1 with
 * SPAA_E_PARSE.
 */
int spaa_tc_list_parse(const char *text, size_t n, const char *file,
		       struct spaa_tc_list *l, struct spaa_error *err);
void spaa_tc_list_release(struct spaa_tc_list *l);

/* The index of the definition of category and name in l, or -1. */
long spaa_tc_list_find(const struct spaa_tc_list *l, const char *category,
		       const char *name);

/*
 * Appends to out the text (parsed into l) with every definition of
 * category and name taken out, white space before it included, and,
 * unless def is NULL, the deflen bytes of def put in as the list's last
 * element, on a line of its own.  text NULL (no file yet): a whole new
 * list holding def.
 */
void spaa_tc_list_merge(const char *text, size_t n, const struct spaa_tc_list *l,
			const char *category, const char *name,
			const char *def, size_t deflen, struct spaa_sbuf *out);

#endif
