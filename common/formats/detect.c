#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

/*
 * The first line of data that is not blank or a '#' comment: *n bytes
 * (without a CR at the end), line *lineno, its first character that is
 * not a blank at *text; NULL when there is none.
 */
static const char *first_line(const char *data, size_t len, size_t *n,
			      unsigned long *lineno, const char **text)
{
	const char *end = data + len, *nl, *p;

	for (*lineno = 1; data < end; data = nl + 1, (*lineno)++) {
		nl = memchr(data, '\n', (size_t)(end - data));
		if (!nl)
			nl = end;
		for (p = data; p < nl && (*p == ' ' || *p == '\t' || *p == '\r'); p++)
			;
		if (p == nl || *p == '#')
			continue;
		*n = (size_t)(nl - data) - (nl[-1] == '\r');
		*text = p;
		return data;
	}
	return NULL;
}

static int detect(struct spaa_input *in, bool listed,
		  enum spaa_detect_format *fmt, struct spaa_error *err)
{
	const char *data, *first, *text;
	unsigned long lineno;
	char *line;
	size_t len, n;

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
	if ((first = first_line(data, len, &n, &lineno, &text))) {
		line = spaa_xstrndup(first, n);  /* the sniffers want a C string */
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

/* A binary format by its magic, with what to do about it; NULL for none. */
static const char *binary_what(const unsigned char *d, size_t len)
{
	static const struct {
		const char *magic;
		size_t len;
		const char *what;
	} magics[] = {
		{ "\177ELF", 4, "an ELF executable, library or core file; profile the program with 'perf record -g' and give the perf.data it writes" },
		{ "PERFFILE", 8, "a perf.data file of version 1 ('PERFFILE'), which the tools do not read; give what 'perf script -F +pid,+period' prints for it" },
		{ "2ELIFREP", 8, "a perf.data file of the other byte order; run 'perf script -F +pid,+period' where it was recorded and give what it prints" },
		{ "\037\213", 2, "gzip data inside gzip (compressed twice?); decompress it once ('gzip -dc FILE > FILE2')" },
		{ "\050\265\057\375", 4, "zstd data inside zstd (compressed twice?); decompress it once ('zstd -dc FILE > FILE2')" },
		{ "BZh", 3, "bzip2-compressed data; the tools undo gzip and zstd only: decompress it first ('bzip2 -dc FILE | PROGRAM -')" },
		{ "\3757zXZ", 5, "xz-compressed data; the tools undo gzip and zstd only: decompress it first ('xz -dc FILE | PROGRAM -')" },
		{ "\004\042\115\030", 4, "lz4-compressed data; the tools undo gzip and zstd only: decompress it first ('lz4 -dc FILE | PROGRAM -')" },
		{ "PK\003\004", 4, "a ZIP archive; extract the profile first ('unzip FILE')" },
		{ "7z\274\257\047\034", 6, "a 7-Zip archive; extract the profile first" },
		{ "ustar", 0, "a tar archive; extract the profile first ('tar xf FILE')" },
		{ "%PDF", 4, "a PDF document" },
		{ "\211PNG", 4, "a PNG picture; give the profile it was drawn from" },
		{ "\377\330\377", 3, "a JPEG picture; give the profile it was drawn from" },
		{ "GIF8", 4, "a GIF picture; give the profile it was drawn from" },
		{ "SQLite format 3", 15, "an SQLite database" },
	};

	for (size_t i = 0; i < sizeof(magics) / sizeof(magics[0]); i++) {
		/* tar's magic is at byte 257 */
		if (!magics[i].len ? len >= 262 && !memcmp(d + 257, magics[i].magic, 5) :
		    len >= magics[i].len && !memcmp(d, magics[i].magic, magics[i].len))
			return magics[i].what;
	}
	return NULL;
}

/*
 * Bytes that text has no business holding (NUL and other controls but
 * tab, line ends, form feed and escape) among the first KiB.
 */
static bool binary(const unsigned char *d, size_t len)
{
	size_t n = len < 1024 ? len : 1024, odd = 0;

	for (size_t i = 0; i < n; i++) {
		if (!d[i])
			return true;
		odd += d[i] < 0x20 && !strchr("\t\n\r\f\033", d[i]);
	}
	return odd * 10 > n;
}

static bool contains(const char *data, size_t len, const char *needle)
{
	size_t n = strlen(needle);

	for (const char *p = data; (size_t)(data + len - p) >= n &&
	     (p = memchr(p, needle[0], (size_t)(data + len - p) - n + 1)); p++)
		if (!memcmp(p, needle, n))
			return true;
	return false;
}

static bool starts_nocase(const char *line, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && !strncasecmp(line, prefix, n);
}

/* Text by its first line (line, len: without the line end), or NULL. */
static const char *text_what(const char *line, size_t len, const char *data, size_t dlen)
{
	if (starts_nocase(line, len, "\xef\xbb\xbf{"))
		return "SPAA behind a UTF-8 byte order mark, which SPAA does not allow; remove those three bytes ('sed -i \"1s/^\\xEF\\xBB\\xBF//\" FILE')";
	if (starts_nocase(line, len, "<!doctype html") || starts_nocase(line, len, "<html"))
		return "an HTML page (a report or a flame graph?); give the profile it was made from";
	if (starts_nocase(line, len, "<svg") ||
	    (line[0] == '<' && contains(data, dlen, "<svg")))
		return "an SVG picture (a flame graph?); give the profile it was drawn from";
	if (line[0] == '<')
		return "XML or HTML";
	if (line[0] == '[')
		return "a JSON array";
	if (starts_nocase(line, len, "File: ") || starts_nocase(line, len, "Type: ") ||
	    starts_nocase(line, len, "Showing nodes accounting"))
		return "the text pprof prints, without stacks; give the pprof profile itself (the .pb.gz file)";
	if (memchr(line, '%', len) && (contains(line, len, "[.]") ||
				       contains(line, len, "[k]")))
		return "the text 'perf report' prints, without stacks; give perf.data, or what 'perf script' prints";
	if (memchr(line, ',', len))
		return "comma-separated values";
	return NULL;
}

/*
 * The error for content that looks like what (its advice after a ';', or
 * else the formats read).
 */
static int not_a_profile(struct spaa_input *in, unsigned long line, const char *what,
			 struct spaa_error *err)
{
	return spaa_error_at(err, SPAA_E_PARSE, spaa_input_name(in), line,
			     "not a profile: it looks like %s%s", what,
			     strchr(what, ';') ? "" : "; the tools read " SPAA_DETECT_FORMATS);
}

int spaa_detect_explain(struct spaa_input *in, enum spaa_detect_format *fmt,
			struct spaa_error *err)
{
	const char *data, *line, *text, *what;
	unsigned long lineno;
	size_t len, n;

	if (spaa_input_peek(in, SPAA_DETECT_SNIFF_BYTES, &data, &len, err))
		return -1;
	*fmt = SPAA_DETECT_SPAA;
	if (!len)
		return 0;
	what = binary_what((const unsigned char *)data, len);
	if (!what && binary((const unsigned char *)data, len))
		what = "binary data";
	if (what)
		return not_a_profile(in, 0, what, err);
	/* the line detect() looked at */
	if ((line = first_line(data, len, &n, &lineno, &text))) {
		/* a JSON string: a record gone wrong, which the SPAA reader words */
		if (*text == '"')
			return 0;
		if (memchr(line, ';', n)) {
			*fmt = SPAA_DETECT_FOLDED;
			return 0;
		}
		what = text_what(text, n - (size_t)(text - line), data, len);
		if (what)
			return not_a_profile(in, lineno, what, err);
		return spaa_error_at(err, SPAA_E_PARSE, spaa_input_name(in), lineno,
				     "not a profile: the line is not an SPAA record, a perf script sample header or folded stacks ('a;b;c COUNT'); the tools read "
				     SPAA_DETECT_FORMATS);
	}
	return spaa_error_at(err, SPAA_E_NO_DATA, spaa_input_name(in), 0,
			     "the input is empty: only blank lines and '#' comments");
}
