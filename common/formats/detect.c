#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "formats/detect.h"
#include "formats/dtrace.h"
#include "formats/folded.h"
#include "formats/perf_data.h"
#include "formats/perf_script.h"
#include "formats/pprof.h"
#include "formats/v8_cpu.h"
#include "model/util.h"

/*
 * The format the first line of text says.  listed: the file came with a
 * directory under a name no profile has, so the weak signs of a profile
 * do not do: SPAA's first line must be its header record, a folded line
 * must be a call path ("a;b 3", where a note may say "run 1").
 */
static enum spaa_detect_format detect_line(char *line, size_t len, bool listed)
{
	size_t i = strspn(line, " \t");
	struct spaa_folded_parser fp;
	uint32_t nframes;
	uint64_t count;
	int folded;

	if (i < len && line[i] == '{')
		return !listed || strstr(line, "\"header\"") ? SPAA_DETECT_SPAA :
		       SPAA_DETECT_UNKNOWN;
	if (spaa_perf_script_sniff(line, len))
		return SPAA_DETECT_PERF;
	spaa_folded_parser_init(&fp);
	folded = spaa_folded_parse(&fp, line, len, "", 1, &nframes, &count, NULL);
	spaa_folded_parser_release(&fp);
	return folded == 1 && (!listed || memchr(line, ';', len)) ? SPAA_DETECT_FOLDED :
	       SPAA_DETECT_UNKNOWN;
}

static int detect(struct spaa_input *in, bool listed,
		  enum spaa_detect_format *fmt, struct spaa_error *err)
{
	const char *data, *end, *nl;
	char *line;
	size_t len;

	if (spaa_input_peek(in, SPAA_DETECT_SNIFF_BYTES, &data, &len, err))
		return -1;
	if (spaa_perf_data_sniff(data, len)) {
		*fmt = SPAA_DETECT_PERF_DATA;
		return 0;
	}
	if (spaa_pprof_sniff((const unsigned char *)data, len,
			     len < SPAA_DETECT_SNIFF_BYTES)) {
		*fmt = SPAA_DETECT_PPROF;
		return 0;
	}
	if (spaa_v8_sniff(data, len) != SPAA_V8_NONE) {
		*fmt = SPAA_DETECT_V8;
		return 0;
	}
	if (spaa_dtrace_sniff(data, len, len < SPAA_DETECT_SNIFF_BYTES)) {
		*fmt = SPAA_DETECT_DTRACE;
		return 0;
	}
	for (end = data + len; data < end; data = nl + 1) {
		size_t n, i;

		nl = memchr(data, '\n', (size_t)(end - data));
		if (!nl)
			nl = end;
		n = (size_t)(nl - data);
		for (i = 0; i < n && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r'); i++)
			;
		if (i == n || data[i] == '#')
			continue;
		if (n && data[n - 1] == '\r')
			n--;
		line = spaa_xstrndup(data, n);  /* the sniffers want a C string */
		*fmt = detect_line(line, strlen(line), listed);
		free(line);
		return 0;
	}
	/* only comments so far: folded skips them too */
	*fmt = len < SPAA_DETECT_SNIFF_BYTES ? SPAA_DETECT_EMPTY :
	       listed ? SPAA_DETECT_UNKNOWN : SPAA_DETECT_FOLDED;
	return 0;
}

int spaa_detect(struct spaa_input *in, enum spaa_detect_format *fmt,
		struct spaa_error *err)
{
	return detect(in, false, fmt, err);
}

int spaa_detect_listed(struct spaa_input *in, enum spaa_detect_format *fmt,
		       struct spaa_error *err)
{
	return detect(in, true, fmt, err);
}
