/*
 * check_spaa_sample_scan - the differential test of the reader's two paths.
 *
 * Sample and stack records of the common shape are read by fast paths
 * that skip the JSON tree (spaa_sample_scan.h, spaa_stack_scan.h), most
 * of them scanned ahead on the decoding thread; everything else by the
 * general parser, and an error found after the scan by the same checks
 * in the same order.  All must give the same result, so each profile is
 * loaded three times, with spaa_load_opts.no_fast_path, with no_scanner
 * and with neither, and everything a load produces is written out as
 * text and compared, and again with 1, 2, 3 and 8 threads (the real
 * profiles of data/corpus and directories too):
 * the whole model, every sample handed to on_sample, every warning,
 * every finding of a validating load and the error (code, file, line,
 * message).
 *
 * The profiles: every SPAA file of tests/data (compressed ones too, and
 * the rejected ones of bad/ and validate/), and generated variants of
 * each, whose sample lines, and then stack lines, are rewritten in ways
 * the fast paths must either read the same or hand over: keys reordered,
 * whitespace, escapes,
 * null, repeated keys, unknown keys, exponents and leading zeros in
 * numbers, values at and past the 64-bit limits, times that round,
 * negative and fractional values, ids too long for the reader's id
 * cache, non-ASCII, and single bytes deleted at many places (broken
 * JSON, wrong types).
 */
#include <check.h>
#include <dirent.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/load.h"
#include "io/input.h"
#include "model/sbuf.h"
#include "model/util.h"
#include "testutil.h"

Suite *spaa_sample_scan_suite(void);

static void setup(void)
{
	testutil_tmpdir_setup("check_spaa_sample_scan");
}

static void teardown(void)
{
	testutil_tmpdir_teardown();
}

/* ---- a text rendering of everything a load produces ---------------------- */

static void on_warn(void *data, const char *file, unsigned long line,
		    const char *msg)
{
	spaa_sbuf_printf(data, "warn %s:%lu: %s\n", file, line, msg);
}

static void on_finding(void *data, const struct spaa_error *e)
{
	spaa_sbuf_printf(data, "finding %s %s:%lu: %s\n", e->code, e->file, e->line, e->msg);
}

static int on_sample(void *data, const struct spaa_profile *p,
		     const struct spaa_sample *s, struct spaa_error *err)
{
	(void)p;
	(void)err;
	spaa_sbuf_printf(data, "sample t=%" PRId64 " ev=%u st=%u pid=%" PRId64 " tid=%" PRId64
	    " cpu=%" PRId64 " per=%d/%" PRIu64 " pm=%u file=%u line=%lu\n",
	    s->time, s->event, s->stack, s->pid, s->tid, s->cpu, s->has_period,
	    s->period, s->period_metric, s->file, s->line);
	return 0;
}

/* The ways to load a profile that must agree. */
enum path { GENERAL, FAST_LINES, FAST, NPATHS };

static const char *const path_names[NPATHS] = {
	"general", "fast path line by line", "fast path scanned in blocks",
};

/* How often the reader announced a sample (only scanned ones are). */
static unsigned long nsoon;

static void on_sample_soon(void *data, uint32_t stack, bool near)
{
	(void)data;
	(void)stack;
	nsoon += near;
}

/* Where the loads below count the records of each path; NULL: nowhere. */
static struct spaa_load_stats *load_stats;

/*
 * Everything load of path (a file or a directory) with threads threads
 * (0: the default) produces, as text the caller frees.
 */
static char *load_text_threads(const char *path, enum path how, bool validating,
			       unsigned threads)
{
	struct spaa_sbuf t = { 0 };
	struct spaa_profile p;
	struct spaa_error err;
	struct spaa_load_opts o = {
		.warn = { on_warn, &t }, .on_sample = on_sample, .data = &t,
		.on_sample_soon = on_sample_soon,
		.no_fast_path = how == GENERAL,
		.no_scanner = how == FAST_LINES,
		.thread_min = 1,        /* small files too: the scanner is the point */
		.threads = threads,
		.stats = load_stats,
	};
	int ret;

	if (validating)
		o.findings = (struct spaa_load_finding_sink){ on_finding, &t };
	spaa_profile_init(&p);
	spaa_error_init(&err);
	ret = spaa_load(&p, &path, 1, &o, &err);
	spaa_sbuf_printf(&t, "ret %d %s %s:%lu: %s\n", ret, err.code, err.file, err.line, err.msg);
	if (!ret || validating)
		testutil_dump_model(&t, &p);
	spaa_profile_release(&p);
	return t.s;
}

static char *load_text(const char *path, enum path how, bool validating)
{
	return load_text_threads(path, how, validating, 0);
}

/*
 * Fails the test unless a load of path with 1, 2, 3 or 8 threads gives
 * what the general path gives: the count changes who reads, decodes and
 * scans, never what is read.
 */
static void check_threads(const char *path)
{
	static const unsigned counts[] = { 1, 2, 3, 8 };

	for (int validating = 0; validating < 2; validating++) {
		char *general = load_text_threads(path, GENERAL, validating, 1);

		for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
			char *other = load_text_threads(path, FAST, validating, counts[i]);

			ck_assert_msg(!strcmp(other, general),
				      "%u threads and the general path differ on %s%s",
				      counts[i], path, validating ? ", validating" : "");
			free(other);
		}
		free(general);
	}
}

/* Fails the test (naming the file) unless all paths agree on path. */
static void check_same(const char *path, const char *what)
{
	for (int validating = 0; validating < 2; validating++) {
		char *general = load_text(path, GENERAL, validating);

		for (enum path how = GENERAL + 1; how < NPATHS; how++) {
			char *other = load_text(path, how, validating);

			ck_assert_msg(!strcmp(other, general),
				      "%s and general path differ on %s (%s%s)",
				      path_names[how], path, what,
				      validating ? ", validating" : "");
			free(other);
		}
		free(general);
	}
}

/* ---- variants ------------------------------------------------------------- */

/* The lines of a profile (decompressed), as one NUL-separated list. */
struct lines {
	char **line;
	size_t n, alloc;
};

static void read_lines(const char *path, struct lines *l)
{
	struct spaa_input *in;
	struct spaa_error err;
	char *line;
	size_t len;

	ck_assert_int_eq(spaa_input_open(&in, path, NULL, &err), 0);
	while (spaa_input_getline(in, &line, &len, &err) > 0) {
		SPAA_ALLOC_GROW(l->line, l->n + 1, l->alloc);
		l->line[l->n++] = spaa_xstrndup(line, len);
	}
	spaa_input_close(in);
}

static bool is_sample(const char *line)
{
	return strstr(line, "\"sample\"") != NULL;
}

static bool is_stack(const char *line)
{
	return strstr(line, "\"stack\"") != NULL;
}

/* Replaces the first match of from in s (a new string); NULL if none. */
static char *replace(const char *s, const char *from, const char *to)
{
	const char *at = strstr(s, from);
	size_t a, f = strlen(from), t = strlen(to);
	char *r;

	if (!at)
		return NULL;
	a = (size_t)(at - s);
	r = spaa_xmalloc(strlen(s) - f + t + 1);
	memcpy(r, s, a);
	memcpy(r + a, to, t);
	memcpy(r + a + t, at + f, strlen(at + f) + 1);
	return r;
}

/* Every ':' and ',' gets spaces around it, '{' and '}' a tab. */
static char *spaced(const char *s)
{
	char *r = spaa_xmalloc(strlen(s) * 3 + 3), *d = r;

	for (; *s; s++) {
		if (*s == ':' || *s == ',') {
			*d++ = ' ';
			*d++ = *s;
			*d++ = ' ';
		} else if (*s == '{' || *s == '}') {
			*d++ = '\t';
			*d++ = *s;
			*d++ = '\r';
		} else {
			*d++ = *s;
		}
	}
	*d = '\0';
	return r;
}

/* The first member moved to the end: {"a":1,REST} -> {REST,"a":1}. */
static char *rotated(const char *s)
{
	const char *comma = strchr(s, ','), *close = strrchr(s, '}');
	size_t first, rest;
	char *r;

	if (!comma || !close || s[0] != '{' || comma > close)
		return NULL;
	first = (size_t)(comma - s - 1);
	rest = (size_t)(close - comma - 1);
	r = spaa_xmalloc(strlen(s) + 2);
	r[0] = '{';
	memcpy(r + 1, comma + 1, rest);
	r[1 + rest] = ',';
	memcpy(r + 2 + rest, s + 1, first);
	memcpy(r + 2 + rest + first, close, strlen(close) + 1);
	return r;
}

/* Byte k deleted; NULL past the end. */
static char *deleted(const char *s, size_t k)
{
	size_t n = strlen(s);
	char *r;

	if (k >= n)
		return NULL;
	r = spaa_xmalloc(n);
	memcpy(r, s, k);
	memcpy(r + k, s + k + 1, n - k);
	return r;
}

/* Byte k replaced by a space; NULL past the end. */
static char *spaced_at(const char *s, size_t k)
{
	char *r;

	if (k >= strlen(s))
		return NULL;
	r = spaa_xstrdup(s);
	r[k] = ' ';
	return r;
}

/* Textual rewrites of one sample line: {from, to} pairs. */
static const char *const sample_rewrites[][2] = {
	{ "\"sample\"", "\"sampl\\u0065\"" },           /* escape in type */
	{ "\"type\"", "\"t\\u0079pe\"" },               /* escape in a key */
	{ "{", "{\"pid\":null," },                      /* null, then the real one */
	{ "{", "{\"x_note\":\"caf\xc3\xa9\"," },         /* unknown key, UTF-8 */
	{ "{", "{\"tid\":7," },                         /* a repeated key, first wins */
	{ "}", ",\"period\":3}" },                      /* a repeated key, maybe new */
	{ "}", ",\"x_period_metric\":\"wt\"}" },        /* the extension key */
	{ "}", ",\"event\":5}" },                       /* wrong type */
	{ "}", ",\"cpu\":-9223372036854775808}" },      /* out of range */
	{ "}", ",\"cpu\":1.0}" },                       /* fractional id */
	{ "}", ",\"period\":-1}" },                     /* negative period */
	{ "}", ",\"period\":18446744073709551615}" },   /* huge period: overflow */
	{ "}", ",\"period\":1e3}" },                    /* exponent */
	{ "}", "}x" },                                  /* trailing garbage */
	{ "}", ",}" },                                  /* trailing comma */
	{ "\"timestamp\":", "\"timestamp\":0" },        /* leading zero */
	{ "\"timestamp\":", "\"timestamp\":-" },        /* negative time */
	{ "\"timestamp\":", "\"timestamp\":9e99+" },    /* junk */
	{ "\"timestamp\":", "\"timestamp\":1E1,\"timestamp\":" },  /* exponent */
	{ "\"stack_id\":\"", "\"stack_id\":\"\\u0000" },  /* NUL in the id */
	{ "\"stack_id\":\"", "\"stack_id\":\"new-" },    /* an undefined stack */
	{ "\"stack_id\":", "\"stack_id\":12,\"x\":" },  /* a numeric id */
	{ "\"stack_id\":", "\"stack_id\":{}," "\"y\":" },       /* an object */
	{ "\"event\":\"", "\"event\":\"\x7f" },         /* DEL */
	{ "\"event\":\"", "\"event\":\"\x01" },         /* raw control byte */
};

/* Values given to a key of a sample line: {key, value} pairs. */
static const char *const sample_values[][2] = {
	{ "timestamp", "12345678901.123456789" },       /* more than 18 digits */
	{ "timestamp", "9223372036.854775807" },        /* the int64 limit in ns */
	{ "timestamp", "9223372036.854775808" },        /* just past it */
	{ "timestamp", "-5.25" },
	{ "timestamp", "-0" },
	{ "timestamp", "0.0000000005" },                /* rounds half away */
	{ "timestamp", "1.00000000049" },               /* rounds down */
	{ "timestamp", "1e-9" },
	{ "timestamp", "3" },
	{ "timestamp", "18446744073" },
	{ "pid", "-7" },
	{ "tid", "123456789012345678" },                /* 18 digits */
	{ "tid", "1234567890123456789" },               /* 19 digits */
	{ "cpu", "9223372036854775807" },
	{ "cpu", "-9223372036854775807" },
	{ "pid", "99999999999999999999" },
	{ "pid", "9999999999999999999" },               /* 19 digits, past int64 */
	{ "timestamp", "9999999999" },
	{ "period", "0" },
	{ "period", "-0" },
	{ "period", "123456789012345678" },
	{ "period", "18446744073709551615" },
	{ "period", "18446744073709551616" },
	{ "stack_id", "12" },
	{ "stack_id", "1.5" },
	{ "stack_id", "\"\"" },                        /* an empty id */
	{ "stack_id", "\"a-stack-id-longer-than-the-id-cache-holds\"" },
	{ "event", "\"no-such-event\"" },
};

/* Textual rewrites of one stack line: {from, to} pairs. */
static const char *const stack_rewrites[][2] = {
	{ "\"stack\"", "\"st\\u0061ck\"" },             /* escape in type */
	{ "\"frames\"", "\"fr\\u0061mes\"" },           /* escape in a key */
	{ "{", "{\"stack_type\":\"kernel\"," },           /* repeated in some */
	{ "{", "{\"stack_type\":\"bogus\"," },            /* an error */
	{ "{", "{\"stack_type\":null," },
	{ "{", "{\"related_stacks\":[]," },
	{ "{", "{\"x_note\":\"caf\xc3\xa9\"," },          /* unknown key, UTF-8 */
	{ "{", "{\"id\":\"first\"," },                    /* a repeated key, first wins */
	{ "{", "{\"context\":null," },                     /* null, then the real one */
	{ "\"frames\":[", "\"frames\":[999999," },         /* an unknown frame */
	{ "\"frames\":[", "\"frames\":[1.0," },            /* a fractional id */
	{ "\"frames\":[", "\"frames\":[-1," },
	{ "\"frames\":[", "\"frames\":[01," },             /* leading zero */
	{ "\"frames\":[", "\"frames\":[ \t" },            /* whitespace */
	{ "\"frames\":[", "\"frames\":[18446744073709551616," },
	{ "\"frames\":[", "\"frames\":[{}," },
	{ "\"weights\":[", "\"weights\":[{\"value\":3,\"metric\":\"x_other\"}," },
	{ "\"weights\":[", "\"weights\":[{\"value\":3,\"metric\":\"samples\"}," },
	{ "\"weights\":[", "\"weights\":[{\"value\":3,\"metric\":\"period\"}," },
	{ "\"weights\":[", "\"weights\":[7," },            /* not an object */
	{ "\"weights\":[", "\"weights\":[{\"value\":3}," },       /* no metric */
	{ "\"metric\":", "\"x_w\":1,\"metric\":" },       /* unknown weight key */
	{ "\"metric\":", "\"unit\":null,\"metric\":" },
	{ "\"context\":{", "\"context\":{\"labels\":{\"a\":\"b\"}," },
	{ "\"context\":{", "\"context\":{\"probe\":\"p\"," },  /* known, not scanned */
	{ "\"context\":{", "\"context\":{\"x_c\":1," },     /* unknown: a warning */
	{ "\"context\":{", "\"context\":{\"pid\":null," },
	{ "\"exclusive\":{", "\"exclusive\":{\"x_e\":1," },
	{ "\"id\":\"", "\"id\":\"\\u0000" },             /* NUL in the id */
	{ "\"id\":\"", "\"id\":\"new-" },                 /* its samples' stack undefined */
	{ "\"comm\":\"", "\"comm\":\"\x7f" },             /* DEL */
	{ "\"event\":\"", "\"event\":\"\x01" },           /* raw control byte */
};

/* Values given to a key of a stack line: {key, value} pairs. */
static const char *const stack_values[][2] = {
	{ "stack_type", "\"user\"" },
	{ "stack_type", "\"kernel\"" },
	{ "stack_type", "\"Unified\"" },
	{ "id", "12" },                 /* a number, kept as its text */
	{ "id", "1.50e2" },
	{ "id", "\"\"" },
	{ "id", "null" },
	{ "id", "[]" },
	{ "frames", "[]" },
	{ "frames", "[1]" },
	{ "frames", "[ 1 , 2 ]" },
	{ "frames", "{}" },
	{ "frames", "null" },
	{ "context", "{}" },
	{ "context", "null" },
	{ "context", "[]" },
	{ "context", "{\"tid\":1,\"pid\":2,\"cpu\":3,\"comm\":\"c\"}" },
	{ "weights", "[]" },
	{ "weights", "{}" },
	{ "weights", "null" },
	{ "exclusive", "{}" },
	{ "exclusive", "null" },
	{ "exclusive", "[]" },
	{ "value", "0" },               /* a warning */
	{ "value", "123456789012345678" },
	{ "value", "1234567890123456789" },     /* 19 digits: the general path's */
	{ "value", "18446744073709551615" },    /* totals overflow */
	{ "value", "18446744073709551616" },
	{ "value", "-1" },
	{ "value", "1e2" },
	{ "value", "\"5\"" },
	{ "metric", "\"other\"" },     /* the primary metric missing */
	{ "metric", "5" },
	{ "unit", "5" },
	{ "unit", "\"\"" },
	{ "event", "\"no-such-event\"" },
	{ "event", "5" },
	{ "pid", "-7" },
	{ "pid", "9223372036854775807" },
	{ "pid", "-9223372036854775808" },      /* out of range */
	{ "tid", "1.0" },
	{ "tid", "123456789012345678" },
	{ "cpu", "null" },
	{ "comm", "\"\"" },
	{ "comm", "5" },
	{ "frame", "999999" },          /* exclusive: not a known frame */
	{ "frame", "-1" },
	{ "frame", "\"1\"" },
};

/* Past the array or object at s, whose strings have no escaped quotes. */
static const char *past_value(const char *s)
{
	int depth = 0;

	do {
		if (*s == '"')
			s = strchr(s + 1, '"');
		else if (*s == '[' || *s == '{')
			depth++;
		else if (*s == ']' || *s == '}')
			depth--;
		s++;
	} while (depth && *s);
	return s;
}

/*
 * The value of key (a number, plain string, array or object) replaced;
 * NULL if absent.
 */
static char *with_value(const char *s, const char *key, const char *value)
{
	char pat[64];
	const char *at, *end;
	size_t a, v = strlen(value);
	char *r;

	snprintf(pat, sizeof(pat), "\"%s\":", key);
	if (!(at = strstr(s, pat)))
		return NULL;
	at += strlen(pat);
	end = at;
	if (*end == '"')
		end = strchr(end + 1, '"') + 1;
	else if (*end == '[' || *end == '{')
		end = past_value(end);
	else
		end += strcspn(end, ",}]");
	a = (size_t)(at - s);
	r = spaa_xmalloc(strlen(s) + v + 1);
	memcpy(r, s, a);
	memcpy(r + a, value, v);
	memcpy(r + a + v, end, strlen(end) + 1);
	return r;
}

/* Which sample lines a variant transforms. */
enum which { ALL, FIRST, ALTERNATE };

/*
 * Writes the variant of l where transform(line) replaces the lines is
 * picks (all of them, only the first, or every second one), and checks
 * it.  Every second one: the lines between set the scanner up (its id
 * numbers, its block), and the transformed line must read as the
 * general parser reads it all the same.
 */
static int variant(const struct lines *l, const char *name,
		   char *(*transform)(const char *line, const void *arg),
		   const void *arg, enum which which, bool (*is)(const char *line))
{
	struct spaa_sbuf t = { 0 };
	bool changed = false;
	size_t nsample = 0;
	const char *path;

	for (size_t i = 0; i < l->n; i++) {
		char *v = NULL;

		if (is(l->line[i]) &&
		    (which == ALL || (which == FIRST && !changed) ||
		     (which == ALTERNATE && nsample++ % 2)))
			v = transform(l->line[i], arg);
		spaa_sbuf_printf(&t, "%s\n", v ? v : l->line[i]);
		changed |= v != NULL;
		free(v);
	}
	if (changed) {
		path = testutil_write("variant.spaa", t.s, t.len);
		check_same(path, name);
	}
	free(t.s);
	return changed;
}

static char *do_rewrite(const char *line, const void *arg)
{
	const char *const *r = arg;

	return replace(line, r[0], r[1]);
}

static char *do_value(const char *line, const void *arg)
{
	const char *const *kv = arg;

	return with_value(line, kv[0], kv[1]);
}

static char *do_spaced(const char *line, const void *arg)
{
	(void)arg;
	return spaced(line);
}

static char *do_rotated(const char *line, const void *arg)
{
	(void)arg;
	return rotated(line);
}

static char *do_deleted(const char *line, const void *arg)
{
	return deleted(line, *(const size_t *)arg);
}

static char *do_spaced_at(const char *line, const void *arg)
{
	return spaced_at(line, *(const size_t *)arg);
}

/*
 * Checks l after a prefix of short lines: read from what sniffing the
 * compression read, before the decoding thread starts (input.c), so the
 * thread's line numbers must start after them.
 */
static void prefixed(const struct lines *l, const char *prefix)
{
	struct spaa_sbuf t = { 0 };

	spaa_sbuf_adds(&t, prefix);
	for (size_t i = 0; i < l->n; i++)
		spaa_sbuf_printf(&t, "%s\n", l->line[i]);
	check_same(testutil_write("prefixed.spaa", t.s, t.len), prefix);
	free(t.s);
}

/* The records a set of variants rewrites, and how. */
struct kind {
	const char *name;
	bool (*is)(const char *line);
	const char *const (*rewrites)[2];
	size_t nrewrites;
	const char *const (*values)[2];
	size_t nvalues;
	/*
	 * Bytes deleted, or made a space, every del_step or space_step of
	 * the first bytes bytes of a line: a stack line is longer, and
	 * each variant costs a load of the file six times over.
	 */
	size_t bytes, del_step, space_step;
};

#define TABLE(t) t, sizeof(t) / sizeof(t[0])

static const struct kind kinds[] = {
	{ "sample", is_sample, TABLE(sample_rewrites), TABLE(sample_values), 200, 3, 1 },
	{ "stack", is_stack, TABLE(stack_rewrites), TABLE(stack_values), 600, 13, 9 },
};

static void check_variants(const struct lines *l, const struct kind *kd)
{
	char what[96];

	variant(l, "spaced", do_spaced, NULL, ALL, kd->is);
	variant(l, "rotated", do_rotated, NULL, ALL, kd->is);
	variant(l, "spaced", do_spaced, NULL, ALTERNATE, kd->is);
	variant(l, "rotated", do_rotated, NULL, ALTERNATE, kd->is);
	for (size_t i = 0; i < kd->nrewrites; i++) {
		snprintf(what, sizeof(what), "%s rewrite %zu", kd->name, i);
		variant(l, what, do_rewrite, kd->rewrites[i], FIRST, kd->is);
		variant(l, what, do_rewrite, kd->rewrites[i], ALL, kd->is);
		variant(l, what, do_rewrite, kd->rewrites[i], ALTERNATE, kd->is);
	}
	for (size_t i = 0; i < kd->nvalues; i++) {
		snprintf(what, sizeof(what), "%s %s %s", kd->name, kd->values[i][0],
			 kd->values[i][1]);
		variant(l, what, do_value, kd->values[i], FIRST, kd->is);
		variant(l, what, do_value, kd->values[i], ALL, kd->is);
		variant(l, what, do_value, kd->values[i], ALTERNATE, kd->is);
	}
	for (size_t k = 0; k < kd->bytes; k += kd->del_step) {
		snprintf(what, sizeof(what), "%s byte %zu deleted", kd->name, k);
		if (!variant(l, what, do_deleted, &k, FIRST, kd->is))
			break;
		variant(l, what, do_deleted, &k, ALTERNATE, kd->is);
	}
	/* a space where a comma, quote, colon or digit was */
	for (size_t k = 0; k < kd->bytes; k += kd->space_step) {
		snprintf(what, sizeof(what), "%s byte %zu a space", kd->name, k);
		if (!variant(l, what, do_spaced_at, &k, ALTERNATE, kd->is))
			break;
	}
}

/*
 * Checks path as it is, and unless kd is NULL, its variants of the
 * records kd says.
 */
static void check_file_and_variants(const char *path, const struct kind *kd)
{
	struct lines l = { 0 };

	check_same(path, "as is");
	check_threads(path);
	if (!kd)
		return;
	read_lines(path, &l);
	prefixed(&l, "\n");
	prefixed(&l, "\n\n\n");
	check_variants(&l, kd);
	for (size_t i = 0; i < l.n; i++)
		free(l.line[i]);
	free(l.line);
}

static bool spaa_name(const char *name)
{
	return strstr(name, ".spaa") != NULL;
}

/*
 * Every SPAA file in dir, and unless kd is NULL its variants of the
 * records kd says; returns how many files had such records (kd NULL:
 * sample records).
 */
static unsigned check_dir(const char *dir, const struct kind *kd)
{
	const char *want = kd && kd->is == is_stack ? "\nstack " : "\nsample ";
	struct dirent **ents;
	unsigned with = 0;
	int n = scandir(dir, &ents, NULL, alphasort);

	ck_assert_int_ge(n, 0);
	for (int i = 0; i < n; i++) {
		char path[1024];
		char *general;

		if (spaa_name(ents[i]->d_name)) {
			snprintf(path, sizeof(path), "%s/%s", dir, ents[i]->d_name);
			check_file_and_variants(path, kd);
			general = load_text(path, GENERAL, true);
			with += strstr(general, want) != NULL;
			free(general);
		}
		free(ents[i]);
	}
	free(ents);
	return with;
}

START_TEST(test_data_files)
{
	/* not a test that passes on nothing: some files have samples */
	ck_assert_uint_ge(check_dir("tests/data", &kinds[0]), 5);
}
END_TEST

START_TEST(test_data_files_stacks)
{
	ck_assert_uint_ge(check_dir("tests/data", &kinds[1]), 20);
}
END_TEST

/* The real profiles, and directories (loaded as one profile), by thread count. */
START_TEST(test_thread_counts)
{
	check_dir("tests/data/corpus", NULL);
	check_threads("tests/data/dir");
	check_threads("tests/data/corpus");
}
END_TEST

START_TEST(test_rejected_files)
{
	check_dir("tests/data/bad", NULL);
	check_dir("tests/data/validate", &kinds[0]);
	check_dir("tests/data/validate", &kinds[1]);
}
END_TEST

/* The hand-made profiles' header (one event, "c") and dso, lines 1 and 2. */
#define HEAD \
	"{\"type\":\"header\",\"format\":\"spaa\",\"version\":\"1.0\",\"source_tool\":\"perf\"," \
	"\"frame_order\":\"leaf_to_root\",\"stack_id_mode\":\"local\",\"events\":[{\"name\":\"c\"," \
	"\"kind\":\"software\",\"sampling\":{\"mode\":\"period\",\"primary_metric\":\"period\"}}]}\n" \
	"{\"type\":\"dso\",\"id\":1,\"name\":\"d\"}\n"

/* A hand-made case whose fast-path reading is known, not just compared. */
START_TEST(test_fast_path_reads)
{
	static const char text[] =
		HEAD
		"{\"type\":\"frame\",\"id\":1,\"func\":\"f\",\"dso\":1}\n"
		"{\"type\":\"stack\",\"id\":\"s\",\"frames\":[1],\"weights\":[{\"metric\":\"period\",\"value\":5}]}\n"
		"{ \"stack_id\" : \"s\", \"period\":5,\"type\":\"sample\",\"timestamp\":1.000000002,\"cpu\":-1 }\n";
	const char *path = testutil_write("one.spaa", text, sizeof(text) - 1);
	char *fast = load_text(path, FAST, false);

	ck_assert_ptr_nonnull(strstr(fast, "sample t=1000000002 ev=0 st=0 pid=" "-9223372036854775808"
				      " tid=-9223372036854775808 cpu=-1 per=1/5 pm=0 file=0 line=5\n"));
	free(fast);
	check_same(path, "hand-made");
}
END_TEST

/*
 * Which path reads which record, counted (spaa_load_stats): without the
 * fast paths the JSON parser reads all; with them, the records of the
 * common shape (two stacks, three samples) are theirs whether the
 * scanner runs or not, with one thread or two, and the others (a stack
 * with an unknown key, a sample with one) the parser's.
 */
START_TEST(test_paths_taken)
{
	static const char text[] =
		HEAD
		"{\"type\":\"frame\",\"id\":1,\"func\":\"f\",\"dso\":1}\n"
		"{\"type\":\"stack\",\"id\":\"s\",\"frames\":[1],\"weights\":[{\"metric\":\"period\",\"value\":5}]}\n"
		"{\"type\":\"stack\",\"id\":\"u\",\"frames\":[1],\"stack_type\":\"user\",\"x_note\":1,"
		"\"weights\":[{\"metric\":\"period\",\"value\":5}]}\n"
		"{\"context\":{\"tid\":3},\"type\":\"stack\",\"id\":7,\"frames\":[1,1],"
		"\"weights\":[{\"value\":2,\"metric\":\"period\"}]}\n"
		"{\"type\":\"sample\",\"timestamp\":1,\"stack_id\":\"s\"}\n"
		"{\"type\":\"sample\",\"timestamp\":2,\"stack_id\":\"u\"}\n"
		"{\"type\":\"sample\",\"timestamp\":3,\"stack_id\":7}\n"
		"{\"type\":\"sample\",\"timestamp\":4,\"stack_id\":\"s\",\"x_note\":1}\n";
	static const struct { enum path how; unsigned threads; uint64_t stacks_fast, samples_fast; } runs[] = {
		{ GENERAL, 1, 0, 0 }, { FAST_LINES, 1, 2, 3 }, { FAST, 1, 2, 3 }, { FAST, 2, 2, 3 },
	};
	const char *path = testutil_write("paths.spaa", text, sizeof(text) - 1);

	for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		struct spaa_load_stats st = { 0 };
		char *out;

		load_stats = &st;
		out = load_text_threads(path, runs[i].how, false, runs[i].threads);
		load_stats = NULL;
		ck_assert_ptr_nonnull(strstr(out, "ret 0 "));
		free(out);
		ck_assert_uint_eq(st.stacks_scanned + st.stacks_fast, runs[i].stacks_fast);
		ck_assert_uint_eq(st.stacks_general, 3 - runs[i].stacks_fast);
		ck_assert_uint_eq(st.scanned + st.fast, runs[i].samples_fast);
		ck_assert_uint_eq(st.general, 4 - runs[i].samples_fast);
	}
	check_same(path, "paths");
}
END_TEST

/*
 * The scanner numbers the ids of stack records parsed ahead as it numbers
 * those of samples, and the reader binds each number to the stack it
 * reads, so that samples find their stack by number from the first one
 * on; a stack record without a tree, by the id at the start of its line
 * (with one thread, check_threads).  Ids as texts: a number, an escape,
 * a sample before its stack, ids that share a first or a last byte, and
 * a stack record the reader rejects (no binding, the sample's id then
 * never defined).  The stack of each sample is known by hand.
 */
START_TEST(test_stack_ids_numbered)
{
	static const char head[] =
		HEAD
		"{\"type\":\"frame\",\"id\":1,\"func\":\"f\",\"dso\":1}\n"
		"{\"type\":\"frame\",\"id\":2,\"func\":\"g\",\"dso\":1}\n";
	static const char good[] =
		"{\"type\":\"stack\",\"id\":42,\"frames\":[1],\"weights\":[{\"metric\":\"period\",\"value\":5}]}\n"
		"{\"type\":\"stack\",\"id\":\"e\\u0031\",\"frames\":[2],\"weights\":[{\"metric\":\"period\",\"value\":5}]}\n"
		"{\"type\":\"sample\",\"timestamp\":1,\"period\":1,\"stack_id\":\"42\"}\n"
		"{\"type\":\"sample\",\"timestamp\":2,\"period\":1,\"stack_id\":\"e1\"}\n"
		"{\"type\":\"sample\",\"timestamp\":3,\"period\":1,\"stack_id\":\"late\"}\n"
		"{\"type\":\"stack\",\"id\":\"late\",\"frames\":[1,2],\"weights\":[{\"metric\":\"period\",\"value\":5}]}\n"
		"{\"type\":\"sample\",\"timestamp\":4,\"period\":1,\"stack_id\":\"late\"}\n"
		"{\"type\":\"sample\",\"timestamp\":5,\"period\":1,\"stack_id\":42}\n"
		"{\"type\":\"sample\",\"timestamp\":6,\"period\":1,\"stack_id\":\"e1\"}\n"
		"{\"type\":\"stack\",\"id\":\"ab\",\"frames\":[1],\"weights\":[{\"metric\":\"period\",\"value\":5}]}\n"
		"{\"type\":\"stack\",\"id\":\"b\",\"frames\":[2],\"weights\":[{\"metric\":\"period\",\"value\":5}]}\n"
		"{\"type\":\"stack\",\"id\":\"a\",\"frames\":[2,1],\"weights\":[{\"metric\":\"period\",\"value\":5}]}\n"
		"{\"type\":\"sample\",\"timestamp\":7,\"period\":1,\"stack_id\":\"a\"}\n"
		"{\"type\":\"sample\",\"timestamp\":8,\"period\":1,\"stack_id\":\"b\"}\n"
		"{\"type\":\"sample\",\"timestamp\":9,\"period\":1,\"stack_id\":\"ab\"}\n";
	static const char bad[] =
		"{\"type\":\"stack\",\"id\":\"b\",\"frames\":[99999],\"weights\":[{\"metric\":\"period\",\"value\":5}]}\n"
		"{\"type\":\"sample\",\"timestamp\":1,\"period\":1,\"stack_id\":\"b\"}\n";
	/*
	 * Line of each sample of good after the FILL frames, and its stack:
	 * 42, e1, late (defined later), then ab, b and a, whose ids a number
	 * one byte off at either end would mix up.  The frames put the stacks
	 * past what the input reads before its decoding thread starts.
	 */
	enum { FILL = 4000 };
	static const struct { unsigned long line; unsigned stack; } want[] = {
		{ 7, 0 }, { 8, 1 }, { 9, 2 }, { 11, 2 }, { 12, 0 }, { 13, 1 },
		{ 17, 5 }, { 18, 4 }, { 19, 3 },
	};
	struct spaa_sbuf t = { 0 }, fill = { 0 };
	const char *path;
	char *fast, *c;
	size_t n = 0;

	for (int f = 3; f < 3 + FILL; f++)
		spaa_sbuf_printf(&fill, "{\"type\":\"frame\",\"id\":%d,\"func\":\"h%d\",\"dso\":1}\n", f, f);
	spaa_sbuf_printf(&t, "%s%s%s", head, fill.s, good);
	path = testutil_write("ids.spaa", t.s, t.len);
	fast = load_text(path, FAST, false);
	for (c = fast; c; c = strchr(c, '\n'), c = c ? c + 1 : NULL) {
		unsigned stack;
		unsigned long line;

		if (strncmp(c, "sample ", 7))
			continue;
		ck_assert(sscanf(strstr(c, " st="), " st=%u", &stack) == 1);
		ck_assert(sscanf(strstr(c, " line="), " line=%lu", &line) == 1);
		ck_assert_uint_lt(n, sizeof(want) / sizeof(want[0]));
		ck_assert_uint_eq(line, want[n].line + FILL);
		ck_assert_uint_eq(stack, want[n].stack);
		n++;
	}
	ck_assert_uint_eq(n, sizeof(want) / sizeof(want[0]));
	free(fast);
	check_same(path, "stack ids");
	check_threads(path);

	t.len = 0;
	spaa_sbuf_printf(&t, "%s%s%s", head, fill.s, bad);
	path = testutil_write("ids-bad.spaa", t.s, t.len);
	fast = load_text(path, FAST, true);
	ck_assert_ptr_nonnull(strstr(fast, "stack 'b' is referenced but never defined"));
	ck_assert_ptr_nonnull(strstr(fast, "stack 'b' references unknown frame id 99999"));
	free(fast);
	check_same(path, "stack ids, rejected");
	check_threads(path);
	free(fill.s);
	free(t.s);
}
END_TEST

/*
 * A profile of several MiB, larger than the decoding thread's blocks
 * (input.c), so that sample lines straddle block boundaries, with CRLF
 * line ends, runs of blank lines, whitespace, reordered keys, long ids and the event named or
 * not mixed in: the scanned path must read every kind at every place.
 */
START_TEST(test_scanned_blocks)
{
	enum { NSTACKS = 300, NSAMPLES = 60000 };
	struct spaa_sbuf t = { 0 };
	uint64_t x = 12345;
	const char *path;
	char *fast, want[64];

	spaa_sbuf_printf(&t, "{\"type\":\"header\",\"format\":\"spaa\",\"version\":\"1.0\","
	    "\"source_tool\":\"perf\",\"frame_order\":\"leaf_to_root\",\"stack_id_mode\":\"local\","
	    "\"events\":[{\"name\":\"c\",\"kind\":\"software\",\"sampling\":{\"mode\":\"period\","
	    "\"primary_metric\":\"period\"}}],\"time_range\":{\"start\":0,\"end\":100000,"
	    "\"unit\":\"seconds\"}}\n{\"type\":\"dso\",\"id\":1,\"name\":\"d\"}\n");
	for (int f = 1; f <= 20; f++)
		spaa_sbuf_printf(&t, "{\"type\":\"frame\",\"id\":%d,\"func\":\"f%d\",\"dso\":1}\n", f, f);
	for (int s = 0; s < NSTACKS; s++)
		spaa_sbuf_printf(&t, "{\"type\":\"stack\",\"id\":\"%s%d\",\"frames\":[%d,%d],"
		    "\"weights\":[{\"metric\":\"period\",\"value\":1}]}\n",
		    s % 5 ? "s" : "a-stack-id-longer-than-the-cache-", s, s % 20 + 1, (s / 20) % 20 + 1);
	for (int i = 0; i < NSAMPLES; i++) {
		int s;
		char ts[64], id[64], ev[32];

		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		s = (int)(x >> 33) % NSTACKS;
		snprintf(ts, sizeof(ts), "%d.%0*d", i, (int)(x >> 20) % 10, (int)(x >> 40) % 1000);
		snprintf(id, sizeof(id), "%s%d", s % 5 ? "s" : "a-stack-id-longer-than-the-cache-", s);
		snprintf(ev, sizeof(ev), "%s", i % 3 ? ",\"event\":\"c\"" : "");
		if (i % 17 == 0)
			spaa_sbuf_printf(&t, "{\"stack_id\":\"%s\",\"period\":%d%s,\"tid\":%d,"
			    "\"type\":\"sample\",\"timestamp\":%s}", id, i, ev, i % 9, ts);
		else if (i % 11 == 0)
			spaa_sbuf_printf(&t, "{ \"type\" : \"sample\" , \"timestamp\" : %s ,"
			    " \"pid\" : 7, \"stack_id\" : \"%s\" }", ts, id);
		else
			spaa_sbuf_printf(&t, "{\"type\":\"sample\",\"timestamp\":%s,\"pid\":7,"
			    "\"tid\":%d,\"cpu\":%d%s,\"period\":%" PRIu64 ",\"stack_id\":\"%s\"}",
			    ts, i % 9, i % 2, ev, x >> 44, id);
		spaa_sbuf_printf(&t, i % 7 ? "\n" : "\r\n");
		/* runs of blank lines: the reader skips them in the blocks */
		if (i % 997 == 0)
			spaa_sbuf_printf(&t, "\n \t\n%s", i % 2 ? "\r\n" : "");
	}
	ck_assert_uint_gt(t.len, (size_t)3 << 20);
	path = testutil_write("blocks.spaa", t.s, t.len);
	free(t.s);

	nsoon = 0;
	fast = load_text(path, FAST, false);
	/* every sample read, and the scanner's records used for most */
	snprintf(want, sizeof(want), "samples %d\n", NSAMPLES);
	ck_assert_ptr_nonnull(strstr(fast, want));
	ck_assert_uint_gt(nsoon, NSAMPLES / 2);
	free(fast);
	check_same(path, "blocks");
	check_threads(path);
}
END_TEST

Suite *spaa_sample_scan_suite(void)
{
	Suite *s = suite_create("spaa_sample_scan");
	TCase *tc = tcase_create("differential");

	tcase_add_checked_fixture(tc, setup, teardown);
	/* generous: under ThreadSanitizer the whole case took 145 s here */
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_fast_path_reads);
	tcase_add_test(tc, test_paths_taken);
	tcase_add_test(tc, test_stack_ids_numbered);
	tcase_add_test(tc, test_scanned_blocks);
	tcase_add_test(tc, test_data_files);
	tcase_add_test(tc, test_data_files_stacks);
	tcase_add_test(tc, test_thread_counts);
	tcase_add_test(tc, test_rejected_files);
	suite_add_tcase(s, tc);
	return s;
}
