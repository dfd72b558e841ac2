/*
 * check_output - writing a stream (io/output.h): a file appears under its
 * name only when closed, nothing is left behind by an abort, gzip and
 * zstd streams read back (through io/input.h, the other half) to the
 * bytes written, and errors name the file.
 */
#include <check.h>
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/input.h"
#include "io/output.h"
#include "testutil.h"

Suite *output_suite(void);

static void setup(void)
{
	testutil_tmpdir_setup("check_output");
}

static void teardown(void)
{
	testutil_tmpdir_teardown();
}

/* Files in the scratch directory. */
static int nfiles(void)
{
	DIR *d = opendir(testutil_tmpdir());
	struct dirent *de;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d)))
		n += de->d_name[0] != '.';
	closedir(d);
	return n;
}

/* Writes lines 0..n-1 as "line I" through out, with comp; the path. */
static const char *write_lines(const char *name, enum spaa_input_comp comp, int n)
{
	const char *path = testutil_path(name);
	struct spaa_output *out;
	struct spaa_error err;
	struct stat before, now;
	bool existed = !stat(path, &before);

	spaa_error_init(&err);
	ck_assert_int_eq(spaa_output_open(&out, path, comp, 0, &err), 0);
	for (int i = 0; i < n; i++)
		ck_assert_int_eq(spaa_output_printf(out, &err, "line %d\n", i), 0);
	/* the name holds what it held until the output is closed */
	ck_assert_int_eq(!stat(path, &now), existed);
	if (existed)
		ck_assert(now.st_ino == before.st_ino && now.st_size == before.st_size);
	ck_assert_int_eq(spaa_output_close(out, &err), 0);
	return path;
}

static void read_lines(const char *path, enum spaa_input_comp comp, int n)
{
	struct spaa_input *in;
	struct spaa_error err;
	char want[32], *line;
	size_t len;
	int i = 0;

	spaa_error_init(&err);
	ck_assert_int_eq(spaa_input_open(&in, path, NULL, &err), 0);
	ck_assert_int_eq(spaa_input_compression(in), comp);
	while (spaa_input_getline(in, &line, &len, &err) > 0) {
		snprintf(want, sizeof(want), "line %d", i++);
		ck_assert_str_eq(line, want);
	}
	ck_assert_str_eq(err.code, "");
	ck_assert_int_eq(i, n);
	spaa_input_close(in);
}

START_TEST(test_round_trips)
{
	/* 100000 lines: more than one buffer of compressed output */
	read_lines(write_lines("plain.txt", SPAA_INPUT_COMP_NONE, 100000),
		   SPAA_INPUT_COMP_NONE, 100000);
	read_lines(write_lines("z.gz", SPAA_INPUT_COMP_GZIP, 100000),
		   SPAA_INPUT_COMP_GZIP, 100000);
	read_lines(write_lines("z.zst", SPAA_INPUT_COMP_ZSTD, 100000),
		   SPAA_INPUT_COMP_ZSTD, 100000);
	read_lines(write_lines("empty.zst", SPAA_INPUT_COMP_ZSTD, 0),
		   SPAA_INPUT_COMP_ZSTD, 0);
	/* no temporary file is left beside them */
	ck_assert_int_eq(nfiles(), 4);
}
END_TEST

START_TEST(test_replaces_and_aborts)
{
	const char *path = testutil_write("old.txt", "old\n", 4);
	struct spaa_output *out;
	struct spaa_error err;
	struct stat st;

	spaa_error_init(&err);
	ck_assert_int_eq(spaa_output_open(&out, path, SPAA_INPUT_COMP_NONE, 0, &err), 0);
	ck_assert_int_eq(spaa_output_write(out, "new!\n", 5, &err), 0);
	spaa_output_abort(out);
	/* the old file is whole, and nothing else is there */
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_size, 4);
	ck_assert_int_eq(nfiles(), 1);
	spaa_output_abort(NULL);
	read_lines(write_lines("old.txt", SPAA_INPUT_COMP_NONE, 2), SPAA_INPUT_COMP_NONE, 2);
	ck_assert_int_eq(nfiles(), 1);
}
END_TEST

START_TEST(test_errors)
{
	const char *path = testutil_path("no/such/dir/out.txt");
	struct spaa_output *out = NULL;
	struct spaa_error err;

	spaa_error_init(&err);
	ck_assert_int_eq(spaa_output_open(&out, path, SPAA_INPUT_COMP_NONE, 0, &err), -1);
	ck_assert_str_eq(err.code, SPAA_E_IO);
	ck_assert_str_eq(err.file, path);
	ck_assert_int_eq(spaa_output_comp_parse("none"), SPAA_INPUT_COMP_NONE);
	ck_assert_int_eq(spaa_output_comp_parse("gzip"), SPAA_INPUT_COMP_GZIP);
	ck_assert_int_eq(spaa_output_comp_parse("zstd"), SPAA_INPUT_COMP_ZSTD);
	ck_assert_int_eq(spaa_output_comp_parse("xz"), -1);
	ck_assert_int_eq(spaa_output_comp_parse("ZSTD"), -1);
}
END_TEST

Suite *output_suite(void)
{
	Suite *s = suite_create("output");
	TCase *tc = tcase_create("output");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_round_trips);
	tcase_add_test(tc, test_replaces_and_aborts);
	tcase_add_test(tc, test_errors);
	suite_add_tcase(s, tc);
	return s;
}
