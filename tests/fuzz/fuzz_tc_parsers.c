/*
 * Trace Compass's parser list (formats/tc_parsers.h) as a user's file:
 * parsed; when it parses, a definition merged in must give a list that
 * parses, holding it once and every other definition, and taking it out
 * one that holds only the others.
 */
#include <stdlib.h>
#include <string.h>

#include "formats/tc_parsers.h"
#include "fuzz.h"

#define CATEGORY "spaa-tools"
#define NAME "SPAA profile"
#define OURS "<Definition category=\"" CATEGORY "\" name=\"" NAME "\"><X a='1'/></Definition>"

static size_t ours_in(const struct spaa_tc_list *l)
{
	size_t hits = 0;

	for (size_t i = 0; i < l->nr; i++)
		hits += !strcmp(l->defs[i].category, CATEGORY) && !strcmp(l->defs[i].name, NAME);
	return hits;
}

static void check_merge(const char *text, size_t n, const struct spaa_tc_list *l,
			bool add)
{
	struct spaa_sbuf out = { 0 };
	struct spaa_tc_list again;
	struct spaa_error err;
	size_t others = l->nr - ours_in(l);

	spaa_tc_list_merge(text, n, l, CATEGORY, NAME, add ? OURS : NULL,
			   strlen(OURS), &out);
	spaa_sbuf_add(&out, "", 1);
	if (spaa_tc_list_parse(out.s, out.len - 1, "merged", &again, &err) ||
	    ours_in(&again) != (add ? 1u : 0u) || again.nr != others + add)
		abort();
	spaa_tc_list_release(&again);
	free(out.s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct spaa_tc_list l;
	struct spaa_error err;
	char *text = malloc(size + 1);

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (!spaa_tc_list_parse(text, size, "fuzz", &l, &err)) {
		check_merge(text, size, &l, true);
		check_merge(text, size, &l, false);
	}
	spaa_tc_list_release(&l);
	free(text);
	return 0;
}
