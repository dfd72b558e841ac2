/*
 * check_spares - what closed inputs leave for the next ones (io/spares.h):
 * a buffer comes back only for its own size, a full set or an oversized
 * buffer or decoder is freed, a decoder comes back with its default
 * parameters; and inputs that share a set read the same bytes as
 * without it, also after a corrupt file, a window too large for its
 * limit, or a long line.
 */
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include "io/input.h"
#include "io/spares.h"
#include "testutil.h"

Suite *spares_suite(void);

static void setup(void)
{
	testutil_tmpdir_setup("check_spares");
}

static void teardown(void)
{
	testutil_tmpdir_teardown();
}

START_TEST(test_buffers_by_size)
{
	struct spaa_spares *s = spaa_spares_new();
	void *a = malloc(100), *b = malloc(200), *bufs[SPAA_SPARES_MAX + 1];

	ck_assert_ptr_null(spaa_spares_take_buf(s, 100));
	spaa_spares_put_buf(s, a, 100);
	spaa_spares_put_buf(s, b, 200);
	ck_assert_ptr_null(spaa_spares_take_buf(s, 150));
	ck_assert_ptr_eq(spaa_spares_take_buf(s, 100), a);
	ck_assert_ptr_null(spaa_spares_take_buf(s, 100));
	ck_assert_ptr_eq(spaa_spares_take_buf(s, 200), b);
	free(a);
	free(b);

	/* one more than it keeps: that one is freed (ASan would see a leak) */
	for (int i = 0; i <= SPAA_SPARES_MAX; i++)
		spaa_spares_put_buf(s, malloc(64), 64);
	for (int i = 0; i < SPAA_SPARES_MAX; i++) {
		bufs[i] = spaa_spares_take_buf(s, 64);
		ck_assert_ptr_nonnull(bufs[i]);
		for (int j = 0; j < i; j++)
			ck_assert_ptr_ne(bufs[i], bufs[j]);
	}
	ck_assert_ptr_null(spaa_spares_take_buf(s, 64));
	for (int i = 0; i < SPAA_SPARES_MAX; i++)
		free(bufs[i]);

	/* too big to keep */
	spaa_spares_put_buf(s, malloc(SPAA_SPARES_BYTES_MAX + 1), SPAA_SPARES_BYTES_MAX + 1);
	ck_assert_ptr_null(spaa_spares_take_buf(s, SPAA_SPARES_BYTES_MAX + 1));

	/* what the set holds at the end is freed with it; NULL is a set of none */
	spaa_spares_put_buf(s, malloc(32), 32);
	spaa_spares_free(s);
	ck_assert_ptr_null(spaa_spares_take_buf(NULL, 32));
	spaa_spares_put_buf(NULL, malloc(32), 32);
	spaa_spares_free(NULL);
}
END_TEST

START_TEST(test_decoders_reset)
{
	struct spaa_spares *s = spaa_spares_new();
	ZSTD_DCtx *zd = ZSTD_createDCtx();
	ZSTD_CCtx *cc = ZSTD_createCCtx();
	size_t n = (size_t)4 << 20, zl;
	char *text = calloc(1, n), *z = malloc(ZSTD_compressBound(n)), *out = malloc(4096);
	ZSTD_inBuffer in;
	ZSTD_outBuffer o = { out, 4096, 0 };

	ck_assert_ptr_nonnull(text);
	/* a 4 MiB window, named in the frame */
	ck_assert(!ZSTD_isError(ZSTD_CCtx_setParameter(cc, ZSTD_c_windowLog, 22)));
	zl = ZSTD_compress2(cc, z, ZSTD_compressBound(n), text, n);
	ck_assert(!ZSTD_isError(zl));
	ZSTD_freeCCtx(cc);
	ck_assert_ptr_null(spaa_spares_take_zstd(s));

	/* a window bound of 1 KiB, forgotten: the frame then decodes */
	ck_assert(!ZSTD_isError(ZSTD_DCtx_setParameter(zd, ZSTD_d_windowLogMax, 10)));
	spaa_spares_put_zstd(s, zd);
	ck_assert_ptr_eq(spaa_spares_take_zstd(s), zd);
	in = (ZSTD_inBuffer){ z, zl, 0 };
	ck_assert(!ZSTD_isError(ZSTD_decompressStream(zd, &o, &in)));
	ck_assert_uint_gt(o.pos, 0);

	/* which grew it past the bound (streamed: the window is its own) */
	ck_assert_uint_gt(ZSTD_sizeof_DCtx(zd), SPAA_SPARES_BYTES_MAX);
	spaa_spares_put_zstd(s, zd);
	ck_assert_ptr_null(spaa_spares_take_zstd(s));
	spaa_spares_put_zstd(s, NULL);
	spaa_spares_put_zstd(s, ZSTD_createDCtx());     /* freed with the set */
	spaa_spares_free(s);
	free(text);
	free(z);
	free(out);
}
END_TEST

/* Every line of the file at path, joined by '|', or "ERR: " and the error. */
static char *read_all(const char *path, const struct spaa_input_opts *o)
{
	struct spaa_input *in;
	struct spaa_error err;
	char *line, *all = calloc(1, 1);
	size_t len, n = 0;
	int r;

	spaa_error_init(&err);
	if (spaa_input_open(&in, path, o, &err))
		r = -1;
	else {
		while ((r = spaa_input_getline(in, &line, &len, &err)) > 0) {
			all = realloc(all, n + len + 2);
			memcpy(all + n, line, len);
			n += len;
			all[n++] = '|';
			all[n] = 0;
		}
		spaa_input_close(in);
	}
	if (r < 0) {
		size_t m = n + strlen(err.msg) + 8;

		all = realloc(all, m);
		snprintf(all + n, m - n, "ERR: %s", err.msg);
	}
	return all;
}

static const char *write_zstd(const char *name, const char *text, size_t len)
{
	size_t cap = ZSTD_compressBound(len);
	char *z = malloc(cap);
	size_t zl = ZSTD_compress(z, cap, text, len, 3);
	const char *path;

	ck_assert(!ZSTD_isError(zl));
	path = testutil_write(name, z, zl);
	free(z);
	return path;
}

static const char *write_gzip(const char *name, const char *text, size_t len)
{
	uLongf cap = compressBound((uLong)len) + 32;
	unsigned char *g = malloc(cap);
	z_stream zs = { 0 };
	const char *path;

	ck_assert_int_eq(deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
	zs.next_in = (unsigned char *)text;
	zs.avail_in = (uInt)len;
	zs.next_out = g;
	zs.avail_out = (uInt)cap;
	ck_assert_int_eq(deflate(&zs, Z_FINISH), Z_STREAM_END);
	path = testutil_write(name, g, zs.total_out);
	deflateEnd(&zs);
	free(g);
	return path;
}

/*
 * Files of each kind read in turn, twice over, by inputs that share a
 * set and by inputs that do not: the same lines and errors, file by file.
 */
START_TEST(test_inputs_share)
{
	static const char text[] = "one\ntwo\r\nthree";
	enum { NPATHS = 7 };
	char *paths[NPATHS], *longline = malloc(600001), *corrupt;
	size_t zl;
	struct spaa_input_opts lim = { .max_window = 1024 };
	struct spaa_input_opts shared = { .threads = 1 }, alone = { .threads = 1 };
	struct spaa_input_opts shared_lim = lim;

	memset(longline, 'x', 600000);
	longline[600000] = '\n';
	paths[0] = strdup(write_zstd("a.zst", text, strlen(text)));
	paths[1] = strdup(write_gzip("b.gz", text, strlen(text)));
	paths[2] = strdup(testutil_write("c.txt", text, strlen(text)));
	/* a line longer than the buffer: it grows, and is not kept */
	paths[3] = strdup(write_zstd("d.zst", longline, 600001));
	/* a frame of a 1 MiB window: too large for max_window 1024 */
	paths[4] = strdup(write_zstd("e.zst", longline, 600001));
	/* corrupt: the frame's last bytes cut off */
	corrupt = malloc(ZSTD_compressBound(strlen(text)));
	zl = ZSTD_compress(corrupt, ZSTD_compressBound(strlen(text)), text, strlen(text), 3);
	ck_assert(!ZSTD_isError(zl));
	paths[5] = strdup(testutil_write("f.zst", corrupt, zl - 3));
	paths[6] = strdup(write_zstd("g.zst", "after\n", 6));
	shared.spares = spaa_spares_new();
	shared_lim.spares = shared.spares;
	for (int round = 0; round < 2; round++)
		for (int i = 0; i < NPATHS; i++) {
			const struct spaa_input_opts *a = i == 4 ? &lim : &alone;
			const struct spaa_input_opts *b = i == 4 ? &shared_lim : &shared;
			char *want = read_all(paths[i], a), *got = read_all(paths[i], b);

			ck_assert_str_eq(got, want);
			if (i == 4 || i == 5)
				ck_assert(!strncmp(got, "ERR: ", 5) || strstr(got, "|ERR: "));
			else
				ck_assert_ptr_null(strstr(got, "ERR: "));
			free(want);
			free(got);
		}
	spaa_spares_free(shared.spares);
	for (int i = 0; i < NPATHS; i++)
		free(paths[i]);
	free(longline);
	free(corrupt);
}
END_TEST

Suite *spares_suite(void)
{
	Suite *s = suite_create("spares");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_buffers_by_size);
	tcase_add_test(tc, test_decoders_reset);
	tcase_add_test(tc, test_inputs_share);
	suite_add_tcase(s, tc);
	return s;
}
