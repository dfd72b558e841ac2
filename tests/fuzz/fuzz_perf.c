/*
 * The perf-script parser, line by line as spaa-convert feeds it.  Each
 * line is handed over in its own exact-size buffer so that reading past
 * it is caught; every field of every sample is read back.
 */
#include <string.h>

#include "formats/perf_script.h"
#include "fuzz.h"

static size_t touch(const char *s)
{
	return s ? strlen(s) : 0;
}

static int on_sample(void *data, const struct spaa_perf_script_sample *s,
		     struct spaa_error *err)
{
	size_t n = touch(s->comm) + touch(s->event);

	(void)err;
	for (uint32_t i = 0; i < s->nframes; i++)
		n += touch(s->frames[i].sym) + touch(s->frames[i].symoff) +
			touch(s->frames[i].dso) + touch(s->frames[i].srcline) +
			(size_t)s->frames[i].ip;
	*(size_t *)data += n + (size_t)s->time + (size_t)s->period;
	return 0;
}

static int on_line(void *ctx, const char *line, size_t len,
		   unsigned long lineno)
{
	struct spaa_error err;

	spaa_error_init(&err);
	spaa_perf_script_sniff(line, len);
	return spaa_perf_script_line(ctx, line, len, lineno, &err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t sum = 0;
	struct spaa_perf_script *ps = spaa_perf_script_new("fuzz", on_sample, &sum);
	struct spaa_error err;

	spaa_error_init(&err);
	if (!fuzz_each_line(data, size, on_line, ps))
		spaa_perf_script_finish(ps, &err);
	spaa_perf_script_free(ps);
	return 0;
}
