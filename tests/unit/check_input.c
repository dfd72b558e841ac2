#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <zlib.h>
#include <zstd.h>

#include "io/input.h"
#include "model/util.h"
#include "testutil.h"

Suite *input_suite(void);

/*
 * Every test works in its own mkdtemp directory and builds its inputs
 * there with the zlib and zstd APIs, so no binary fixtures are needed.
 * Regular files are opened with THREADED, so that the decoding thread
 * reads even the small ones (by default they are read inline, which the
 * golden tests and standard input exercise); test_small_files_inline
 * checks the default.
 */
static const struct spaa_input_opts threaded = { .thread_min = 1 };
#define THREADED (&threaded)
static void setup(void)
{
	testutil_tmpdir_setup("check_input");
}

static void teardown(void)
{
	testutil_tmpdir_teardown();
}

/* A growable byte buffer for building inputs and expected outputs. */
struct bytes {
	unsigned char *p;
	size_t len, alloc;
};

static void bytes_add(struct bytes *b, const void *data, size_t len)
{
	SPAA_ALLOC_GROW(b->p, b->len + len + 1, b->alloc);
	if (len)
		memcpy(b->p + b->len, data, len);
	b->len += len;
}

static void bytes_adds(struct bytes *b, const char *s)
{
	bytes_add(b, s, strlen(s));
}

static void bytes_release(struct bytes *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

/* gzip format (windowBits 31); appends one member to out. */
static void gzip_add(struct bytes *out, const void *data, size_t len)
{
	z_stream zs;
	uLong bound;

	memset(&zs, 0, sizeof(zs));
	ck_assert_int_eq(deflateInit2(&zs, 6, Z_DEFLATED, 31, 8,
				      Z_DEFAULT_STRATEGY), Z_OK);
	bound = deflateBound(&zs, (uLong)len) + 32;
	SPAA_ALLOC_GROW(out->p, out->len + bound, out->alloc);
	zs.next_in = (unsigned char *)(uintptr_t)data;
	zs.avail_in = (uInt)len;
	zs.next_out = out->p + out->len;
	zs.avail_out = (uInt)bound;
	ck_assert_int_eq(deflate(&zs, Z_FINISH), Z_STREAM_END);
	out->len += bound - zs.avail_out;
	deflateEnd(&zs);
}

/* Appends one zstd frame (with a content checksum if asked) to out. */
static void zstd_add(struct bytes *out, const void *data, size_t len,
		     int checksum)
{
	size_t bound = ZSTD_compressBound(len), n;

	SPAA_ALLOC_GROW(out->p, out->len + bound, out->alloc);
	if (checksum) {
		ZSTD_CCtx *cc = ZSTD_createCCtx();

		ck_assert_ptr_nonnull(cc);
		ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, 3);
		ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 1);
		n = ZSTD_compress2(cc, out->p + out->len, bound, data, len);
		ZSTD_freeCCtx(cc);
	} else {
		n = ZSTD_compress(out->p + out->len, bound, data, len, 3);
	}
	ck_assert_msg(!ZSTD_isError(n), "%s", ZSTD_getErrorName(n));
	out->len += n;
}

static void compress_into(struct bytes *out, enum spaa_input_comp comp,
			  const void *data, size_t len)
{
	switch (comp) {
	case SPAA_INPUT_COMP_GZIP:
		gzip_add(out, data, len);
		break;
	case SPAA_INPUT_COMP_ZSTD:
		zstd_add(out, data, len, 1);
		break;
	case SPAA_INPUT_COMP_NONE:
		bytes_add(out, data, len);
		break;
	}
}

static const char *write_compressed(const char *name,
				    enum spaa_input_comp comp,
				    const void *data, size_t len)
{
	struct bytes b = { 0 };
	const char *path;

	compress_into(&b, comp, data, len);
	path = testutil_write(name, b.p, b.len);
	bytes_release(&b);
	return path;
}

/*
 * Reads every line of path and returns them joined by '\n' (each line
 * followed by one), so a whole file compares with one memcmp.  Returns
 * getline's final status (0 or -1); *nlines counts the lines returned.
 */
static int slurp(const char *path, size_t max_line, struct bytes *out,
		 unsigned long *nlines, struct spaa_error *err)
{
	struct spaa_input_opts opts = { .max_line = max_line, .thread_min = 1 };
	struct spaa_input *in;
	char *line;
	size_t len;
	int r;

	*nlines = 0;
	if (spaa_input_open(&in, path, &opts, err))
		return -2;
	while ((r = spaa_input_getline(in, &line, &len, err)) == 1) {
		ck_assert_int_eq(line[len], '\0');
		bytes_add(out, line, len);
		bytes_add(out, "\n", 1);
		(*nlines)++;
		ck_assert_uint_eq(spaa_input_lineno(in), *nlines);
	}
	if (r == 0) {
		/* the end is sticky */
		ck_assert_int_eq(spaa_input_getline(in, &line, &len, err), 0);
		ck_assert_uint_eq(spaa_input_bytes_read(in),
				  spaa_input_size(in));
	}
	spaa_input_close(in);
	return r;
}

/*
 * The reference splitter: LF ends a line, one CR before it is dropped, a
 * final line without LF counts.  Same output format as slurp.
 */
static unsigned long expected_lines(const unsigned char *p, size_t n,
				    struct bytes *out)
{
	unsigned long lines = 0;
	size_t start = 0, i;

	for (i = 0; i < n; i++) {
		if (p[i] != '\n')
			continue;
		bytes_add(out, p + start,
			  i - start - (i > start && p[i - 1] == '\r'));
		bytes_add(out, "\n", 1);
		lines++;
		start = i + 1;
	}
	if (start < n) {
		bytes_add(out, p + start, n - start);
		bytes_add(out, "\n", 1);
		lines++;
	}
	return lines;
}

/* ---- round trips ---- */

/* Deterministic pseudo-random numbers for generated inputs. */
static uint32_t lcg(uint32_t *state)
{
	*state = *state * 1664525u + 1013904223u;
	return *state >> 8;
}

/* Many lines of 0..6000 bytes, some CRLF: boundaries fall everywhere. */
static void gen_mixed(struct bytes *b)
{
	uint32_t seed = 42;
	size_t i, j;

	for (i = 0; b->len < ((size_t)3 << 20); i++) {
		size_t n = lcg(&seed) % 6000;

		for (j = 0; j < n; j++) {
			char c = (char)('a' + lcg(&seed) % 26);

			bytes_add(b, &c, 1);
		}
		bytes_adds(b, i % 7 == 3 ? "\r\n" : "\n");
	}
}

/* A 1 MiB line between short ones, ending without LF. */
static void gen_long_line(struct bytes *b)
{
	size_t i;

	bytes_adds(b, "first\r\n");
	for (i = 0; i < ((size_t)1 << 20); i++)
		bytes_add(b, &"0123456789abcdef"[i % 16], 1);
	bytes_adds(b, "\r\nshort\n\nlast");
}

/* CR as the last byte of the first 256 KiB read, LF as the first of the next. */
static void gen_cr_on_boundary(struct bytes *b)
{
	size_t i;

	for (i = 0; b->len < ((size_t)256 << 10) - 1; i++)
		bytes_add(b, i % 100 == 99 ? "\n" : "x", 1);
	bytes_adds(b, "\r\nafter\r\n");
	ck_assert_int_eq(b->p[((size_t)256 << 10) - 1], '\r');
}

/*
 * 2 MiB of "x" CRLF lines: the decoding thread's 64 KiB blocks (2^16 = 1
 * mod 3, wherever the first starts) end after each byte of a line in
 * turn, the CR among them, for the lines returned from inside a block.
 */
static void gen_crlf_lines(struct bytes *b)
{
	while (b->len < ((size_t)2 << 20))
		bytes_adds(b, "x\r\n");
}

static const struct roundtrip_case {
	const char *name;
	const char *text;       /* NULL: generated */
	size_t len;             /* for texts with NULs; 0: strlen */
	void (*gen)(struct bytes *);
} roundtrip_cases[] = {
	{ "crlf-empty-final", "alpha\r\nbeta\n\n\r\ngamma \r delta\nlast", 0, NULL },
	{ "one-line-lf", "x\n", 0, NULL },
	{ "one-line-no-lf", "x", 0, NULL },
	{ "only-lf", "\n", 0, NULL },
	{ "only-crlf", "\r\n", 0, NULL },
	{ "only-cr", "\r", 0, NULL },
	{ "blank-lines", "\n\n\n", 0, NULL },
	{ "nul-bytes", "a\0b\n\0\nc", 8, NULL },
	{ "mixed-3mib", NULL, 0, gen_mixed },
	{ "line-1mib", NULL, 0, gen_long_line },
	{ "cr-on-boundary", NULL, 0, gen_cr_on_boundary },
	{ "crlf-2mib", NULL, 0, gen_crlf_lines },
};

#define NR_ROUNDTRIP (sizeof(roundtrip_cases) / sizeof(roundtrip_cases[0]))

static const enum spaa_input_comp all_comps[] = {
	SPAA_INPUT_COMP_NONE, SPAA_INPUT_COMP_GZIP, SPAA_INPUT_COMP_ZSTD,
};

START_TEST(test_roundtrip)
{
	const struct roundtrip_case *c = &roundtrip_cases[_i / 3];
	enum spaa_input_comp comp = all_comps[_i % 3];
	struct bytes text = { 0 }, want = { 0 }, got = { 0 };
	struct spaa_error err;
	struct spaa_input *in;
	unsigned long want_lines, got_lines;
	const char *path;

	spaa_error_init(&err);
	if (c->gen)
		c->gen(&text);
	else
		bytes_add(&text, c->text, c->len ? c->len : strlen(c->text));
	want_lines = expected_lines(text.p, text.len, &want);
	path = write_compressed("in", comp, text.p, text.len);

	ck_assert_int_eq(spaa_input_open(&in, path, THREADED, &err), 0);
	ck_assert_int_eq(spaa_input_compression(in), comp);
	ck_assert_str_eq(spaa_input_name(in), path);
	ck_assert_uint_eq(spaa_input_lineno(in), 0);
	spaa_input_close(in);

	ck_assert_msg(slurp(path, 0, &got, &got_lines, &err) == 0,
		      "%s: %s", c->name, err.msg);
	ck_assert_uint_eq(got_lines, want_lines);
	ck_assert_uint_eq(got.len, want.len);
	ck_assert_msg(!memcmp(got.p, want.p, want.len), "%s: content differs",
		      c->name);
	bytes_release(&text);
	bytes_release(&want);
	bytes_release(&got);
}
END_TEST

/* Empty, empty but compressed: no lines, no error. */
START_TEST(test_empty)
{
	enum spaa_input_comp comp = all_comps[_i];
	struct spaa_error err;
	struct spaa_input *in;
	char *line = NULL;
	size_t len = 0;
	const char *path = write_compressed("empty", comp, "", 0);

	spaa_error_init(&err);
	ck_assert_int_eq(spaa_input_open(&in, path, THREADED, &err), 0);
	ck_assert_int_eq(spaa_input_compression(in), comp);
	ck_assert_int_eq(spaa_input_getline(in, &line, &len, &err), 0);
	ck_assert_int_eq(spaa_input_getline(in, &line, &len, &err), 0);
	ck_assert_uint_eq(spaa_input_lineno(in), 0);
	ck_assert_str_eq(err.code, "");
	ck_assert_uint_eq(spaa_input_bytes_read(in), spaa_input_size(in));
	spaa_input_close(in);
}
END_TEST

/* Files shorter than a magic number. */
static const struct short_case {
	const char *data;
	size_t len;
	enum spaa_input_comp comp;
	int rc;                 /* of the first getline */
	const char *line;
} short_cases[] = {
	{ "ab", 2, SPAA_INPUT_COMP_NONE, 1, "ab" },
	{ "a", 1, SPAA_INPUT_COMP_NONE, 1, "a" },
	{ "\x28\xb5\x2f", 3, SPAA_INPUT_COMP_NONE, 1, "\x28\xb5\x2f" },
	{ "\x1f", 1, SPAA_INPUT_COMP_NONE, 1, "\x1f" },
	{ "\x1f\x8b", 2, SPAA_INPUT_COMP_GZIP, -1, NULL },
	{ "\x28\xb5\x2f\xfd", 4, SPAA_INPUT_COMP_ZSTD, -1, NULL },
};

START_TEST(test_short_file)
{
	const struct short_case *c = &short_cases[_i];
	struct spaa_error err;
	struct spaa_input *in;
	char *line;
	size_t len;
	const char *path = testutil_write("short", c->data, c->len);

	spaa_error_init(&err);
	ck_assert_int_eq(spaa_input_open(&in, path, THREADED, &err), 0);
	ck_assert_int_eq(spaa_input_compression(in), c->comp);
	ck_assert_int_eq(spaa_input_getline(in, &line, &len, &err), c->rc);
	if (c->rc == 1) {
		ck_assert_uint_eq(len, c->len);
		ck_assert_str_eq(line, c->line);
		ck_assert_int_eq(spaa_input_getline(in, &line, &len, &err), 0);
	} else {
		ck_assert_str_eq(err.code, SPAA_E_DECOMPRESS);
		ck_assert_ptr_nonnull(strstr(err.msg, "truncated"));
	}
	spaa_input_close(in);
}
END_TEST

/* ---- concatenation ---- */

START_TEST(test_gzip_members)
{
	struct bytes b = { 0 }, got = { 0 };
	struct spaa_error err;
	unsigned long n;
	const char *path;

	spaa_error_init(&err);
	gzip_add(&b, "one\ntwo-", 8);
	gzip_add(&b, "", 0);    /* an empty member is still a member */
	gzip_add(&b, "continued\nthree\n", 16);
	path = testutil_write("cat.gz", b.p, b.len);
	ck_assert_int_eq(slurp(path, 0, &got, &n, &err), 0);
	ck_assert_uint_eq(n, 3);
	bytes_add(&got, "", 1);
	ck_assert_str_eq((char *)got.p, "one\ntwo-continued\nthree\n");
	bytes_release(&b);
	bytes_release(&got);
}
END_TEST

START_TEST(test_zstd_frames)
{
	/* a skippable frame (magic 0x184D2A50, 4 bytes of payload) */
	static const unsigned char skippable[] = {
		0x50, 0x2a, 0x4d, 0x18, 4, 0, 0, 0, 'j', 'u', 'n', 'k',
	};
	struct bytes b = { 0 }, got = { 0 };
	struct spaa_error err;
	struct spaa_input *in;
	unsigned long n;
	const char *path;

	spaa_error_init(&err);
	/* first, as pzstd writes it: the magic is still recognised */
	bytes_add(&b, skippable, sizeof(skippable));
	zstd_add(&b, "one\ntwo-", 8, 0);
	bytes_add(&b, skippable, sizeof(skippable));
	zstd_add(&b, "continued\nthree\n", 16, 1);
	zstd_add(&b, "", 0, 0);
	path = testutil_write("cat.zst", b.p, b.len);
	ck_assert_int_eq(spaa_input_open(&in, path, THREADED, &err), 0);
	ck_assert_int_eq(spaa_input_compression(in), SPAA_INPUT_COMP_ZSTD);
	spaa_input_close(in);
	ck_assert_int_eq(slurp(path, 0, &got, &n, &err), 0);
	ck_assert_uint_eq(n, 3);
	bytes_add(&got, "", 1);
	ck_assert_str_eq((char *)got.p, "one\ntwo-continued\nthree\n");
	bytes_release(&b);
	bytes_release(&got);
}
END_TEST

/* ---- damaged compressed input ---- */

enum damage { CUT_TAIL, FLIP_MIDDLE, APPEND_GARBAGE, APPEND_BYTE, APPEND_MAGIC };

static const struct damage_case {
	enum spaa_input_comp comp;
	enum damage damage;
	const char *msg;        /* expected at the start of err.msg */
} damage_cases[] = {
	{ SPAA_INPUT_COMP_GZIP, CUT_TAIL, "truncated gzip stream" },
	{ SPAA_INPUT_COMP_GZIP, FLIP_MIDDLE, "corrupt gzip data: " },
	{ SPAA_INPUT_COMP_GZIP, APPEND_GARBAGE, "trailing garbage after gzip stream" },
	{ SPAA_INPUT_COMP_GZIP, APPEND_BYTE, "trailing garbage after gzip stream" },
	{ SPAA_INPUT_COMP_GZIP, APPEND_MAGIC, "truncated gzip stream" },
	{ SPAA_INPUT_COMP_ZSTD, CUT_TAIL, "truncated zstd stream" },
	{ SPAA_INPUT_COMP_ZSTD, FLIP_MIDDLE, "corrupt zstd data: " },
	{ SPAA_INPUT_COMP_ZSTD, APPEND_GARBAGE, "corrupt zstd data: " },
	{ SPAA_INPUT_COMP_ZSTD, APPEND_MAGIC, "truncated zstd stream" },
};

START_TEST(test_damaged)
{
	const struct damage_case *c = &damage_cases[_i];
	struct bytes text = { 0 }, b = { 0 };
	struct spaa_error err, again;
	struct spaa_input *in;
	char *line;
	size_t len;
	const char *path;
	int r;

	spaa_error_init(&err);
	spaa_error_init(&again);
	gen_mixed(&text);
	compress_into(&b, c->comp, text.p, text.len);
	switch (c->damage) {
	case CUT_TAIL:
		b.len -= 10;
		break;
	case FLIP_MIDDLE:
		b.p[b.len / 2] ^= 0x55;
		break;
	case APPEND_GARBAGE:
		bytes_adds(&b, "garbage\n");
		break;
	case APPEND_BYTE:
		bytes_add(&b, "\0", 1);
		break;
	case APPEND_MAGIC:
		bytes_add(&b, c->comp == SPAA_INPUT_COMP_GZIP ? "\x1f\x8b" :
			  "\x28\xb5\x2f\xfd", c->comp == SPAA_INPUT_COMP_GZIP ? 2 : 4);
		break;
	}
	path = testutil_write("damaged", b.p, b.len);
	ck_assert_int_eq(spaa_input_open(&in, path, THREADED, &err), 0);
	while ((r = spaa_input_getline(in, &line, &len, &err)) == 1)
		;
	ck_assert_int_eq(r, -1);
	ck_assert_str_eq(err.code, SPAA_E_DECOMPRESS);
	ck_assert_msg(!strncmp(err.msg, c->msg, strlen(c->msg)),
		      "got '%s', want '%s'", err.msg, c->msg);
	ck_assert_str_eq(err.file, path);
	/* the error sticks */
	ck_assert_int_eq(spaa_input_getline(in, &line, &len, &again), -1);
	ck_assert_str_eq(again.msg, err.msg);
	spaa_input_close(in);
	bytes_release(&text);
	bytes_release(&b);
}
END_TEST

/*
 * A peek that meets the damage holds the error back: getline returns the
 * same lines and then the same error, naming the same line, as without
 * the peek (a format is told by a peek before the reader reads).
 */
static unsigned long lines_before_error(const char *path, size_t peek,
					struct spaa_error *err)
{
	struct spaa_input *in;
	unsigned long n = 0;
	const char *data;
	char *line;
	size_t len;

	ck_assert_int_eq(spaa_input_open(&in, path, THREADED, err), 0);
	/* a peek fails at once only when no whole line came before the damage */
	if (!peek || !spaa_input_peek(in, peek, &data, &len, err))
		while (spaa_input_getline(in, &line, &len, err) == 1)
			n++;
	spaa_input_close(in);
	return n;
}

START_TEST(test_damaged_after_peek)
{
	const struct damage_case *c = &damage_cases[_i];
	struct bytes text = { 0 }, b = { 0 };
	struct spaa_error plain, peeked;
	const char *path;
	unsigned long n;

	if (c->damage != APPEND_GARBAGE && c->damage != CUT_TAIL)
		return;
	spaa_error_init(&plain);
	spaa_error_init(&peeked);
	/* small enough for one peek to reach the damage */
	for (int i = 0; i < 300; i++)
		bytes_adds(&text, i % 3 ? "a short line\n" : "another line\r\n");
	compress_into(&b, c->comp, text.p, text.len);
	if (c->damage == APPEND_GARBAGE)
		bytes_adds(&b, "garbage\n");
	else
		b.len -= 10;
	path = testutil_write("damaged", b.p, b.len);
	n = lines_before_error(path, 0, &plain);
	ck_assert_int_eq(lines_before_error(path, text.len * 2, &peeked), n);
	ck_assert_str_eq(peeked.code, plain.code);
	ck_assert_str_eq(peeked.msg, plain.msg);
	ck_assert_uint_eq(peeked.line, plain.line);
	ck_assert_uint_eq(peeked.line, n + 1);
	bytes_release(&text);
	bytes_release(&b);
}
END_TEST

/*
 * A hand-made frame: no content size, not single-segment, so the window
 * descriptor (10 + exponent, in log2) is what the decoder must reserve;
 * then one raw last block holding "ab\n".  Exponent 21 asks for 2 GiB and
 * is refused; exponent 0 (1 KiB) is the control.
 */
START_TEST(test_zstd_window_limit)
{
	unsigned char frame[] = {
		0x28, 0xb5, 0x2f, 0xfd,
		0x00,           /* frame header descriptor */
		0x00,           /* window descriptor, set below */
		0x19, 0x00, 0x00, /* last, raw, 3 bytes */
		'a', 'b', '\n',
	};
	struct spaa_error err;
	struct spaa_input *in;
	char *line;
	size_t len;
	const char *path;
	int big;

	/* 0: a 1 KiB window; 1: 2 GiB (zstd --long=31), past the default
	 * bound; 2: the same with the bound raised to it */
	for (big = 0; big < 3; big++) {
		struct spaa_input_opts raised = *THREADED;

		raised.max_window = (uint64_t)2 << 30;
		spaa_error_init(&err);
		frame[5] = big ? 21 << 3 : 0;
		path = testutil_write("window.zst", frame, sizeof(frame));
		ck_assert_int_eq(spaa_input_open(&in, path, big == 2 ? &raised : THREADED,
						 &err), 0);
		if (big == 1) {
			ck_assert_int_eq(spaa_input_getline(in, &line, &len,
							    &err), -1);
			ck_assert_str_eq(err.code, SPAA_E_LIMIT);
			ck_assert_str_eq(err.msg, "the zstd frame needs a window of more than 128 MiB, the limit (SPAA_MAX_ZSTD_WINDOW, in bytes, up to 2 GiB, raises it)");
		} else {
			ck_assert_int_eq(spaa_input_getline(in, &line, &len,
							    &err), 1);
			ck_assert_str_eq(line, "ab");
			ck_assert_int_eq(spaa_input_getline(in, &line, &len,
							    &err), 0);
		}
		spaa_input_close(in);
	}
}
END_TEST

/* ---- line length limit ---- */

static const struct limit_case {
	size_t line_len;        /* of line 3 */
	const char *ending;
	int ok;
} limit_cases[] = {
	{ 100, "\n", 1 },
	{ 100, "\r\n", 1 },     /* the CR does not count */
	{ 100, "", 1 },         /* final line without LF */
	{ 101, "\n", 0 },
	{ 101, "", 0 },
	{ 100, "\r", 0 },       /* a lone final CR is content */
	{ 5000000, "\n", 0 },   /* caught early, long before the end */
};

START_TEST(test_line_limit)
{
	const struct limit_case *c = &limit_cases[_i / 3];
	enum spaa_input_comp comp = all_comps[_i % 3];
	struct bytes text = { 0 }, got = { 0 };
	struct spaa_error err;
	unsigned long n;
	size_t i;
	const char *path;

	spaa_error_init(&err);
	bytes_adds(&text, "short\n\n");
	for (i = 0; i < c->line_len; i++)
		bytes_add(&text, "y", 1);
	bytes_adds(&text, c->ending);
	if (*c->ending == '\n' || !strcmp(c->ending, "\r\n"))
		bytes_adds(&text, "after\n");
	path = write_compressed("limit", comp, text.p, text.len);
	if (c->ok) {
		ck_assert_int_eq(slurp(path, 100, &got, &n, &err), 0);
		ck_assert_uint_eq(n, *c->ending == '\n' ||
				  !strcmp(c->ending, "\r\n") ? 4 : 3);
	} else {
		ck_assert_int_eq(slurp(path, 100, &got, &n, &err), -1);
		ck_assert_uint_eq(n, 2);
		ck_assert_str_eq(err.code, SPAA_E_LIMIT);
		ck_assert_uint_eq(err.line, 3);
		ck_assert_str_eq(err.file, path);
		ck_assert_str_eq(err.msg, "line 3 is longer than 100 bytes (SPAA_MAX_LINE)");
	}
	bytes_release(&text);
	bytes_release(&got);
}
END_TEST

/*
 * Runs of blank lines skipped at once count as lines, across the
 * decoder's blocks; a line not blank, or blank but past the bound, is
 * left to getline.
 */
START_TEST(test_skip_blank)
{
	enum spaa_input_comp comp = all_comps[_i];
	struct spaa_input_opts opts = { .max_line = 4, .thread_min = 1 };
	static const char *const want[] = { "a", "b", "c" };
	static const unsigned long want_line[] = { 1, 6, 200007 };
	struct bytes text = { 0 };
	struct spaa_input *in;
	struct spaa_error err;
	unsigned long blanks = 0, skipped = 0, calls = 0;
	size_t nseen = 0;
	const char *path;
	char *line;
	size_t len;
	int r;

	spaa_error_init(&err);
	bytes_adds(&text, "a\n\n \t\n\r\n  \nb\n");
	for (int i = 0; i < 200000; i++)
		bytes_adds(&text, "\n");
	bytes_adds(&text, "c\n      \nd\n");
	path = write_compressed("blank", comp, text.p, text.len);
	ck_assert_int_eq(spaa_input_open(&in, path, &opts, &err), 0);
	/* as a reader does: a blank line, then the run it starts */
	while ((r = spaa_input_getline(in, &line, &len, &err)) == 1) {
		unsigned long n;

		if (len && strspn(line, " \t\r") < len) {
			ck_assert_uint_lt(nseen, 3);
			ck_assert_str_eq(line, want[nseen]);
			ck_assert_uint_eq(spaa_input_lineno(in), want_line[nseen]);
			/* after "c", a blank line past the bound: left to getline */
			if (++nseen == 3)
				ck_assert_uint_eq(spaa_input_skip_blank(in), 0);
			continue;
		}
		n = spaa_input_skip_blank(in);
		blanks++;
		skipped += n;
		calls += n > 0;
	}
	ck_assert_uint_eq(nseen, 3);
	ck_assert_uint_eq(blanks + skipped, 4 + 200000);
	/* a few calls for the lot: blocks of the decoder, not lines */
	ck_assert_uint_ge(calls, 1);
	ck_assert_uint_le(blanks, 100);
	/* six blanks: past the bound, which getline reports */
	ck_assert_int_eq(r, -1);
	ck_assert_str_eq(err.code, SPAA_E_LIMIT);
	ck_assert_uint_eq(err.line, 200008);
	spaa_input_close(in);
	bytes_release(&text);
}
END_TEST

/* ---- counters ---- */

START_TEST(test_progress)
{
	enum spaa_input_comp comp = all_comps[_i];
	struct bytes text = { 0 };
	struct spaa_error err;
	struct spaa_input *in;
	struct stat st;
	uint64_t last = 0;
	char *line;
	size_t len;
	int r;
	const char *path;

	spaa_error_init(&err);
	gen_mixed(&text);
	path = write_compressed("progress", comp, text.p, text.len);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(spaa_input_open(&in, path, THREADED, &err), 0);
	ck_assert_uint_eq(spaa_input_size(in), (uint64_t)st.st_size);
	while ((r = spaa_input_getline(in, &line, &len, &err)) == 1) {
		uint64_t now = spaa_input_bytes_read(in);

		ck_assert_uint_ge(now, last);
		ck_assert_uint_le(now, (uint64_t)st.st_size);
		last = now;
	}
	ck_assert_int_eq(r, 0);
	ck_assert_uint_eq(spaa_input_bytes_read(in), (uint64_t)st.st_size);
	spaa_input_close(in);
	bytes_release(&text);
}
END_TEST

static int scan_nothing(void *ctx, void *block, const char *line, size_t len, void *rec)
{
	(void)ctx;
	(void)block;
	(void)line;
	(void)len;
	(void)rec;
	return 0;
}

/*
 * A file below thread_min is read inline (no thread: nothing would be
 * scanned), one at it gets the thread unless threads is 1; read ahead or
 * not, the lines are the same.
 */
START_TEST(test_small_files_inline)
{
	static const char text[] = "one\ntwo\nthree";
	const struct spaa_input_scanner sc = { .scan = scan_nothing, .rec_size = 8 };
	const char *path = testutil_write("small.txt", text, strlen(text));
	const struct spaa_input_opts at = { .thread_min = strlen(text) };
	const struct spaa_input_opts above = { .thread_min = strlen(text) + 1 };
	const struct spaa_input_opts alone = { .thread_min = strlen(text), .threads = 1 };
	const struct spaa_input_opts *opts[] = { NULL, &above, &alone, &at };
	struct spaa_error err;

	for (int i = 0; i < 4; i++) {
		struct spaa_input *in;
		char *line;
		size_t len;

		ck_assert_int_eq(spaa_input_open(&in, path, opts[i], &err), 0);
		spaa_input_readahead(in);
		ck_assert_int_eq(spaa_input_inline(in), i < 2);
		ck_assert_int_eq(spaa_input_set_scanner(in, &sc), i == 3);
		ck_assert_int_eq(spaa_input_getline(in, &line, &len, &err), 1);
		ck_assert_str_eq(line, "one");
		ck_assert_int_eq(spaa_input_getline(in, &line, &len, &err), 1);
		ck_assert_str_eq(line, "two");
		ck_assert_int_eq(spaa_input_getline(in, &line, &len, &err), 1);
		ck_assert_str_eq(line, "three");
		ck_assert_int_eq(spaa_input_getline(in, &line, &len, &err), 0);
		spaa_input_close(in);
	}
}
END_TEST

/* What scan_a_lines keeps of a line: its length and its first byte after 'a'. */
struct line_rec {
	uint64_t len;
	char second;
};

/* A scanner of the lines that start with 'a' (the others get no record). */
static int scan_a_lines(void *ctx, void *block, const char *line, size_t len, void *rec)
{
	struct line_rec *r = rec;

	(void)ctx;
	(void)block;
	if (!len || line[0] != 'a')
		return 0;
	r->len = len;
	r->second = len > 1 ? line[1] : 0;
	return 1;
}

/*
 * The reader takes a scanned line's end from its scan entry, not by
 * looking for the LF again (input.c, pipe_line): over many blocks, with
 * scanned and unscanned lines mixed, CRLF ends, runs of blank lines
 * skipped as a reader skips them, and lines longer than a block (which
 * go through the line buffer), every line comes out as it is in the
 * text, with its own scan record, with 1, 2 and 3 threads (1: the reader
 * fills and scans each block itself, and counts its line feeds in the
 * scan).  The lines are cut from the text here, independently of
 * input.c.
 */
START_TEST(test_scanned_line_ends)
{
	const struct spaa_input_scanner sc = { .scan = scan_a_lines,
					       .rec_size = sizeof(struct line_rec) };
	const struct spaa_input_opts opts = { .thread_min = 1, .threads = 1 + (unsigned)_i };
	struct bytes text = { 0 };
	uint64_t x = 99;
	size_t at = 0, nlines = 0, nscanned = 0;
	struct spaa_input *in;
	struct spaa_error err;
	const char *path;
	char *line;
	size_t len;
	int r;

	spaa_error_init(&err);
	for (int i = 0; i < 120000; i++) {
		char buf[96];
		int n;

		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		n = (int)(x >> 59);     /* 0 to 31 */
		if (n == 0)
			bytes_adds(&text, "\n \t\n\n");
		if (i % 40000 == 7) {
			/* longer than a block of the decoding thread */
			for (int k = 0; k < (700 << 10); k++)
				bytes_add(&text, i % 80000 == 7 ? "a" : "b", 1);
			bytes_adds(&text, "\n");
		}
		snprintf(buf, sizeof(buf), "%c%c line %d %.*s%s", n % 3 ? 'a' : 'z',
			 'A' + n, i, n, "0123456789012345678901234567890123", n % 5 ? "\n" : "\r\n");
		bytes_adds(&text, buf);
	}
	path = testutil_write("scanned-ends.txt", text.p, text.len);
	ck_assert_int_eq(spaa_input_open(&in, path, &opts, &err), 0);
	ck_assert_int_eq(spaa_input_set_scanner(in, &sc), 1);
	while ((r = spaa_input_getline(in, &line, &len, &err)) == 1) {
		const char *nl = memchr(text.p + at, '\n', text.len - at);
		size_t want;
		const struct line_rec *rec;

		ck_assert_ptr_nonnull(nl);
		want = (size_t)(nl - (const char *)(text.p + at));
		if (want && text.p[at + want - 1] == '\r')
			want--;
		ck_assert_uint_eq(len, want);
		ck_assert_int_eq(memcmp(line, text.p + at, len), 0);
		ck_assert_uint_eq(strlen(line), len);
		at = (size_t)(nl - (const char *)text.p) + 1;
		nlines++;
		ck_assert_uint_eq(spaa_input_lineno(in), nlines);
		rec = spaa_input_scanned(in);
		if (rec) {
			ck_assert_uint_eq(rec->len, len);
			ck_assert_int_eq(rec->second, line[1]);
			nscanned++;
		}
		if (len && strspn(line, " \t\r") < len)
			continue;
		/* a blank line, then the run it starts, as the reader skips it */
		for (unsigned long n = spaa_input_skip_blank(in); n; n--) {
			nl = memchr(text.p + at, '\n', text.len - at);
			ck_assert_ptr_nonnull(nl);
			ck_assert_uint_eq(strspn((const char *)text.p + at, " \t\r"),
					  (size_t)(nl - (const char *)(text.p + at)));
			at = (size_t)(nl - (const char *)text.p) + 1;
			nlines++;
		}
		ck_assert_uint_eq(spaa_input_lineno(in), nlines);
	}
	ck_assert_int_eq(r, 0);
	ck_assert_uint_eq(at, text.len);
	/* most 'a' lines have a record (those across two blocks have none) */
	ck_assert_uint_gt(nscanned, 120000 / 2);
	spaa_input_close(in);
	bytes_release(&text);
}
END_TEST

/*
 * Compressed files are decoded by a thread a few blocks (of 1 MiB) ahead
 * of the reader: text over many blocks comes out whole and in order, and
 * closing after the first line, while the thread waits for room, ends
 * it cleanly (valgrind and ASan see no leak, no hang).
 */
START_TEST(test_decoder_thread)
{
	enum spaa_input_comp comp = all_comps[1 + _i];
	struct bytes text = { 0 }, got = { 0 };
	struct spaa_error err;
	struct spaa_input *in;
	unsigned long n;
	char line[64];
	char *l;
	size_t len;
	const char *path;

	for (unsigned i = 0; i < 400000; i++) {
		snprintf(line, sizeof(line), "line %u of the decoder test\n", i);
		bytes_adds(&text, line);
	}
	ck_assert_uint_gt(text.len, (size_t)8 << 20);
	path = write_compressed("big", comp, text.p, text.len);
	ck_assert_int_eq(slurp(path, 0, &got, &n, &err), 0);
	ck_assert_uint_eq(n, 400000);
	ck_assert_uint_eq(got.len, text.len);
	ck_assert(!memcmp(got.p, text.p, text.len));

	ck_assert_int_eq(spaa_input_open(&in, path, THREADED, &err), 0);
	ck_assert_int_eq(spaa_input_getline(in, &l, &len, &err), 1);
	ck_assert_str_eq(l, "line 0 of the decoder test");
	usleep(100000);         /* the thread fills every block and waits */
	spaa_input_close(in);
	bytes_release(&text);
	bytes_release(&got);
}
END_TEST

/* ---- standard input ---- */

/*
 * Makes fd 0 a pipe fed by a child with gen_mixed() compressed as comp.
 * The child writes the first byte alone and pauses, so the reader's
 * first read is short.  It builds its own copy of the data and frees it,
 * so under valgrind (CK_FORK=no) its exit reports no leak.
 */
static pid_t stdin_from_pipe(enum spaa_input_comp comp, int *saved)
{
	int fds[2];
	pid_t pid;

	ck_assert_int_eq(pipe(fds), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		struct bytes text = { 0 }, b = { 0 };
		struct timespec ts = { 0, 20 * 1000 * 1000 };
		size_t off = 0;
		int status = 0;

		close(fds[0]);
		gen_mixed(&text);
		compress_into(&b, comp, text.p, text.len);
		while (off < b.len) {
			size_t n = off ? b.len - off : 1;
			ssize_t w = write(fds[1], b.p + off, n);

			if (w < 0) {
				status = 1;
				break;
			}
			off += (size_t)w;
			if (off == 1)
				nanosleep(&ts, NULL);
		}
		close(fds[1]);
		bytes_release(&text);
		bytes_release(&b);
		_exit(status);
	}
	close(fds[1]);
	*saved = dup(0);
	ck_assert_int_ge(*saved, 0);
	ck_assert_int_eq(dup2(fds[0], 0), 0);
	close(fds[0]);
	return pid;
}

static void stdin_restore(pid_t pid, int saved)
{
	int status;

	ck_assert_int_eq(dup2(saved, 0), 0);
	close(saved);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

START_TEST(test_stdin_pipe)
{
	enum spaa_input_comp comp = all_comps[_i];
	struct bytes text = { 0 }, b = { 0 }, want = { 0 }, got = { 0 };
	struct spaa_error err;
	struct spaa_input *in;
	unsigned long want_lines, n = 0;
	char *line;
	size_t len;
	pid_t pid;
	int saved, r;

	spaa_error_init(&err);
	/* forked before this side allocates: the child's exit leaks nothing */
	pid = stdin_from_pipe(comp, &saved);
	gen_mixed(&text);
	want_lines = expected_lines(text.p, text.len, &want);
	compress_into(&b, comp, text.p, text.len);

	ck_assert_int_eq(spaa_input_open(&in, "-", NULL, &err), 0);
	ck_assert_int_eq(spaa_input_compression(in), comp);
	ck_assert_str_eq(spaa_input_name(in), "-");
	ck_assert_uint_eq(spaa_input_size(in), 0);
	while ((r = spaa_input_getline(in, &line, &len, &err)) == 1) {
		bytes_add(&got, line, len);
		bytes_add(&got, "\n", 1);
		n++;
	}
	ck_assert_int_eq(r, 0);
	ck_assert_uint_eq(n, want_lines);
	ck_assert_uint_eq(got.len, want.len);
	ck_assert(!memcmp(got.p, want.p, want.len));
	ck_assert_uint_eq(spaa_input_bytes_read(in), b.len);
	spaa_input_close(in);
	/* closing the reader leaves the caller's stdin open */
	ck_assert_int_ne(fcntl(0, F_GETFD), -1);
	stdin_restore(pid, saved);
	bytes_release(&text);
	bytes_release(&b);
	bytes_release(&want);
	bytes_release(&got);
}
END_TEST

/* stdin redirected from a regular file: its size is known. */
START_TEST(test_stdin_file)
{
	struct spaa_error err;
	struct spaa_input *in;
	char *line;
	size_t len;
	const char *path = testutil_write("stdin.txt", "abc\ndef\n", 8);
	int fd = open(path, O_RDONLY), saved = dup(0);

	spaa_error_init(&err);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(dup2(fd, 0), 0);
	close(fd);
	ck_assert_int_eq(spaa_input_open(&in, "-", NULL, &err), 0);
	ck_assert_uint_eq(spaa_input_size(in), 8);
	ck_assert_int_eq(spaa_input_getline(in, &line, &len, &err), 1);
	ck_assert_str_eq(line, "abc");
	spaa_input_close(in);
	ck_assert_int_ne(fcntl(0, F_GETFD), -1);
	ck_assert_int_eq(dup2(saved, 0), 0);
	close(saved);
}
END_TEST

/* ---- open errors ---- */

START_TEST(test_open_missing)
{
	struct spaa_error err;
	struct spaa_input *in = (struct spaa_input *)&err;
	const char *path = testutil_path("missing.spaa");

	spaa_error_init(&err);
	ck_assert_int_eq(spaa_input_open(&in, path, THREADED, &err), -1);
	ck_assert_ptr_null(in);
	ck_assert_str_eq(err.code, SPAA_E_NOT_FOUND);
	ck_assert_str_eq(err.msg, "no such file or directory");
	ck_assert_str_eq(err.file, path);
	ck_assert_uint_eq(err.line, 0);
}
END_TEST

START_TEST(test_open_directory)
{
	struct spaa_error err;
	struct spaa_input *in;

	spaa_error_init(&err);
	ck_assert_int_eq(spaa_input_open(&in, testutil_tmpdir(), NULL, &err), -1);
	ck_assert_str_eq(err.code, SPAA_E_IO);
	ck_assert_str_eq(err.msg, "is a directory");
	ck_assert_str_eq(err.file, testutil_tmpdir());
}
END_TEST

static int open_unreadable(const char *path, struct spaa_error *err)
{
	struct spaa_input *in;
	int r = spaa_input_open(&in, path, THREADED, err);

	spaa_input_close(r ? NULL : in);
	return r;
}

START_TEST(test_open_unreadable)
{
	struct spaa_error err;
	const char *path = testutil_write("secret.spaa", "x\n", 2);
	pid_t pid;
	int status;

	spaa_error_init(&err);
	ck_assert_int_eq(chmod(path, 0), 0);
	if (geteuid() != 0) {
		ck_assert_int_eq(open_unreadable(path, &err), -1);
		ck_assert_str_eq(err.code, SPAA_E_IO);
		ck_assert_str_eq(err.msg, "permission denied");
		ck_assert_str_eq(err.file, path);
		return;
	}
	/* root reads anything: check as nobody in a child instead */
	ck_assert_int_eq(chmod(testutil_tmpdir(), 0755), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		if (setgid(65534) || setuid(65534))
			_exit(77);
		if (open_unreadable(path, &err) != -1)
			_exit(1);
		if (strcmp(err.code, SPAA_E_IO) ||
		    strcmp(err.msg, "permission denied") ||
		    strcmp(err.file, path))
			_exit(2);
		_exit(0);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	/* 77: could not drop privileges, nothing to check */
	ck_assert_msg(WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 77,
		      "child status %d", WEXITSTATUS(status));
}
END_TEST

Suite *input_suite(void)
{
	Suite *s = suite_create("input");
	TCase *tc;

	tc = tcase_create("read");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_roundtrip, 0, (int)NR_ROUNDTRIP * 3);
	tcase_add_loop_test(tc, test_empty, 0, 3);
	tcase_add_loop_test(tc, test_short_file, 0,
			    (int)(sizeof(short_cases) / sizeof(short_cases[0])));
	tcase_add_test(tc, test_gzip_members);
	tcase_add_test(tc, test_zstd_frames);
	tcase_add_loop_test(tc, test_damaged_after_peek, 0,
			    (int)(sizeof(damage_cases) / sizeof(damage_cases[0])));
	tcase_add_loop_test(tc, test_damaged, 0,
			    (int)(sizeof(damage_cases) / sizeof(damage_cases[0])));
	tcase_add_test(tc, test_zstd_window_limit);
	tcase_add_loop_test(tc, test_line_limit, 0,
			    (int)(sizeof(limit_cases) / sizeof(limit_cases[0])) * 3);
	tcase_add_loop_test(tc, test_progress, 0, 3);
	tcase_add_loop_test(tc, test_skip_blank, 0, 3);
	tcase_add_test(tc, test_small_files_inline);
	tcase_add_loop_test(tc, test_scanned_line_ends, 0, 3);
	tcase_add_loop_test(tc, test_decoder_thread, 0, 2);
	tcase_add_loop_test(tc, test_stdin_pipe, 0, 3);
	tcase_add_test(tc, test_stdin_file);
	suite_add_tcase(s, tc);

	tc = tcase_create("open");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_open_missing);
	tcase_add_test(tc, test_open_directory);
	tcase_add_test(tc, test_open_unreadable);
	suite_add_tcase(s, tc);
	return s;
}
