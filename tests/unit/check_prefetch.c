/*
 * check_prefetch - files opened and read ahead by a thread (io/prefetch.h)
 * come out in list order with their own bytes, plain or compressed, small
 * (read ahead) or not (only opened); a missing file's error comes at its
 * turn; files left untaken are closed by spaa_prefetch_free.
 */
#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "io/prefetch.h"
#include "testutil.h"

Suite *prefetch_suite(void);

static void setup(void)
{
	testutil_tmpdir_setup("check_prefetch");
}

static void teardown(void)
{
	testutil_tmpdir_teardown();
}

#define NFILES 9

/* File k: "file K line J" for J < k + 1, zstd for every third. */
static const char *make_file(int k)
{
	char name[32], text[256];
	size_t len = 0;

	for (int j = 0; j <= k; j++)
		len += (size_t)snprintf(text + len, sizeof(text) - len, "file %d line %d\n", k, j);
	if (k % 3 == 2) {
		char z[512];
		size_t zl = ZSTD_compress(z, sizeof(z), text, len, 3);

		ck_assert(!ZSTD_isError(zl));
		snprintf(name, sizeof(name), "f%d.zst", k);
		return testutil_write(name, z, zl);
	}
	snprintf(name, sizeof(name), "f%d.txt", k);
	return testutil_write(name, text, len);
}

/* The list of the NFILES paths, each a file when listed. */
static void make_list(struct spaa_pathlist *list, char *const *paths)
{
	struct spaa_error err;

	for (int k = 0; k < NFILES; k++)
		ck_assert_int_eq(spaa_pathlist_expand(paths[k], list, &err), 0);
}

/* Reads all of in and checks it is file k. */
static void check_lines(struct spaa_input *in, int k)
{
	struct spaa_error err;
	char want[64], *line;
	size_t len;

	for (int j = 0; j <= k; j++) {
		ck_assert_int_eq(spaa_input_getline(in, &line, &len, &err), 1);
		snprintf(want, sizeof(want), "file %d line %d", k, j);
		ck_assert_str_eq(line, want);
	}
	ck_assert_int_eq(spaa_input_getline(in, &line, &len, &err), 0);
}

/*
 * _i % 2: 0 every file small (decoded ahead), 1 every file gets a
 * thread; _i / 2: one thread ahead, or four, each on a file of its own.
 */
START_TEST(test_in_order)
{
	char *paths[NFILES];
	struct spaa_pathlist list = { 0 };
	bool want[NFILES];
	const struct spaa_input_opts opts = {
		.thread_min = _i % 2 ? 1 : 0, .threads = _i / 2 ? 5 : 0,
	};
	struct spaa_prefetch *pf;
	struct spaa_error err;

	for (int k = 0; k < NFILES; k++) {
		/* file 4 goes once listed, file 6 is not the thread's to open */
		paths[k] = strdup(k == 4 ? testutil_write("missing.txt", "", 0) : make_file(k));
		want[k] = k != 6;
	}
	make_list(&list, paths);
	ck_assert_int_eq(unlink(paths[4]), 0);
	pf = spaa_prefetch_start(&list, want, &opts);
	ck_assert_ptr_nonnull(pf);
	for (int k = 0; k < NFILES; k++) {
		struct spaa_input *in = NULL;

		spaa_error_init(&err);
		if (k == 4) {
			ck_assert_int_eq(spaa_prefetch_take(pf, (size_t)k, &in, &err), -1);
			ck_assert_str_eq(err.code, SPAA_E_NOT_FOUND);
			ck_assert_str_eq(err.file, paths[k]);
			continue;
		}
		ck_assert_int_eq(spaa_prefetch_take(pf, (size_t)k, &in, &err), 0);
		ck_assert_str_eq(spaa_input_name(in), paths[k]);
		ck_assert_int_eq(spaa_input_inline(in), !(_i % 2));
		check_lines(in, k);
		spaa_input_close(in);
	}
	spaa_prefetch_free(pf);
	spaa_pathlist_release(&list);
	for (int k = 0; k < NFILES; k++)
		free(paths[k]);
}
END_TEST

START_TEST(test_free_untaken)
{
	char *paths[NFILES];
	struct spaa_pathlist list = { 0 };
	bool want[NFILES];
	struct spaa_prefetch *pf;
	struct spaa_input *in;
	struct spaa_error err;

	for (int k = 0; k < NFILES; k++) {
		paths[k] = strdup(make_file(k));
		want[k] = true;
	}
	make_list(&list, paths);
	pf = spaa_prefetch_start(&list, want, NULL);
	ck_assert_ptr_nonnull(pf);
	ck_assert_int_eq(spaa_prefetch_take(pf, 0, &in, &err), 0);
	check_lines(in, 0);
	spaa_input_close(in);
	/* the thread may hold the next files: freed with the prefetch */
	spaa_prefetch_free(pf);
	spaa_prefetch_free(NULL);
	spaa_pathlist_release(&list);
	for (int k = 0; k < NFILES; k++)
		free(paths[k]);
}
END_TEST

Suite *prefetch_suite(void)
{
	Suite *s = suite_create("prefetch");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, test_in_order, 0, 4);
	tcase_add_test(tc, test_free_untaken);
	suite_add_tcase(s, tc);
	return s;
}
