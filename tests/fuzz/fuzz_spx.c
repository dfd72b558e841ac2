/*
 * The SPX reader.  A report is two files, so one input holds both: the
 * metadata JSON, then the event text from its "[events]" line on (the
 * seeds are KEY.json followed by the decompressed KEY.txt.gz).  Without
 * an "[events]" line everything is metadata and the event file is empty.
 * The event file is written as plain text: the reader sniffs compression
 * by content, and fuzz_spaa covers corrupt gzip.
 */
#include <string.h>

#include "formats/spx_reader.h"
#include "fuzz.h"

static int touch_sample(void *data, const struct spaa_profile *p,
			const struct spaa_sample *s, struct spaa_error *err)
{
	(void)p;
	(void)err;
	*(uint64_t *)data += s->period + (uint64_t)s->time;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char mark[] = "[events]";
	const uint8_t *ev = data + size;
	uint64_t sum = 0, done = 0;
	struct spaa_load_opts lo = {
		.on_sample = touch_sample, .data = &sum,
		.max_depth = SPAA_LOAD_MAX_DEPTH_DEFAULT,
		.max_strings = SPAA_LOAD_MAX_STRINGS_DEFAULT,
	};
	struct spaa_profile p;
	struct spaa_error err;
	const char *json;

	for (size_t i = 0; i + sizeof(mark) - 1 <= size; i++)
		if ((i == 0 || data[i - 1] == '\n') &&
		    !memcmp(data + i, mark, sizeof(mark) - 1)) {
			ev = data + i;
			break;
		}
	json = fuzz_write("r.json", data, (size_t)(ev - data));
	fuzz_write("r.txt.gz", ev, size - (size_t)(ev - data));
	spaa_error_init(&err);
	spaa_profile_init(&p);
	spaa_spx_reader_read(&p, json, &lo, NULL, 0, 0, &done, &err);
	spaa_profile_release(&p);
	return 0;
}
