/*
 * The folded-stacks parser and table, line by line as spaa-convert uses
 * them: each line in its own exact-size buffer, each parsed stack added
 * to a folded table, the table written at the end.
 */
#include "formats/folded.h"
#include "fuzz.h"

struct state {
	struct spaa_folded_parser fp;
	struct spaa_folded_table t;
};

static int on_line(void *ctx, const char *line, size_t len,
		   unsigned long lineno)
{
	struct state *st = ctx;
	struct spaa_error err;
	uint64_t count;
	uint32_t n;
	int r;

	spaa_error_init(&err);
	r = spaa_folded_parse(&st->fp, line, len, "fuzz", lineno, &n, &count, &err);
	if (r > 0) {
		spaa_folded_table_begin(&st->t);
		for (uint32_t i = 0; i < n; i++)
			spaa_folded_table_push(&st->t, st->fp.frames[i].name,
					  st->fp.frames[i].len);
		r = spaa_folded_table_add(&st->t, count, &err);
	}
	return r < 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct state st;
	struct spaa_output *out = NULL;
	struct spaa_error err;

	spaa_error_init(&err);
	spaa_folded_parser_init(&st.fp);
	spaa_folded_table_init(&st.t);
	/* a file of the scratch directory: output goes to a temporary file
	 * renamed into place, which must never be /dev/null */
	if (!fuzz_each_line(data, size, on_line, &st) &&
	    !spaa_output_open(&out, fuzz_write("out.folded", "", 0),
			      SPAA_INPUT_COMP_NONE, 0, &err)) {
		spaa_folded_table_write(&st.t, out, NULL, NULL, &err);
		spaa_output_close(out, &err);
	}
	spaa_folded_table_release(&st.t);
	spaa_folded_parser_release(&st.fp);
	return 0;
}
