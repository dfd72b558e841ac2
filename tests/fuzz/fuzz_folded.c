/*
 * The folded-stacks parser and table, line by line as spaa-convert uses
 * them: each line in its own exact-size buffer, each parsed stack added
 * to a folded table, the table written at the end.
 */
#include <stdlib.h>
#include <string.h>

#include "folded.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct folded_parser fp;
	struct folded_table t;
	struct spaa_output *out = NULL;
	struct spaa_error err;
	unsigned long lineno = 0;
	size_t at = 0;

	spaa_error_init(&err);
	folded_parser_init(&fp);
	folded_table_init(&t);
	while (at < size) {
		const uint8_t *nl = memchr(data + at, '\n', size - at);
		size_t len = nl ? (size_t)(nl - data) - at : size - at;
		char *line = malloc(len + 1);
		uint64_t count;
		uint32_t n;
		int r;

		if (!line)
			abort();
		memcpy(line, data + at, len);
		line[len] = '\0';
		r = folded_parse(&fp, line, len, "fuzz", ++lineno, &n, &count, &err);
		if (r > 0) {
			folded_table_begin(&t);
			for (uint32_t i = 0; i < n; i++)
				folded_table_push(&t, fp.frames[i].name, fp.frames[i].len);
			r = folded_table_add(&t, count, &err);
		}
		free(line);
		if (r < 0)
			goto out;
		at += len + 1;
	}
	/* a file of the scratch directory: output goes to a temporary file
	 * renamed into place, which must never be /dev/null */
	if (!spaa_output_open(&out, fuzz_write("out.folded", "", 0),
			      SPAA_COMP_NONE, 0, &err)) {
		folded_table_write(&t, out, &err);
		spaa_output_close(out, &err);
	}
out:
	folded_table_release(&t);
	folded_parser_release(&fp);
	return 0;
}
