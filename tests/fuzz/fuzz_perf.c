/*
 * The perf-script parser, line by line as spaa-convert feeds it.  Each
 * line is handed over in its own exact-size buffer so that reading past
 * it is caught; every field of every sample is read back.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "perf_script.h"

static size_t touch(const char *s)
{
	return s ? strlen(s) : 0;
}

static int on_sample(void *data, const struct perf_sample *s,
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t sum = 0;
	struct perf_script *ps = perf_script_new("fuzz", on_sample, &sum);
	struct spaa_error err;
	unsigned long lineno = 0;
	size_t at = 0;

	spaa_error_init(&err);
	while (at < size) {
		const uint8_t *nl = memchr(data + at, '\n', size - at);
		size_t len = nl ? (size_t)(nl - data) - at : size - at;
		char *line = malloc(len + 1);

		if (!line)
			abort();
		memcpy(line, data + at, len);
		line[len] = '\0';
		perf_script_sniff(line, len);
		if (perf_script_line(ps, line, len, ++lineno, &err)) {
			free(line);
			goto out;
		}
		free(line);
		at += len + 1;
	}
	perf_script_finish(ps, &err);
out:
	perf_script_free(ps);
	return 0;
}
