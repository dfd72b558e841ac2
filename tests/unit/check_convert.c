/*
 * check_convert - spaa-convert's work in one call (report/convert.h): the
 * input format told by content (comments and blank lines skipped, stdin
 * or not), folded stacks to SPAA and back, SPAA to folded, and the
 * refusals that name their reason.  Outputs are compared as whole files.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/convert.h"
#include "testutil.h"

Suite *convert_suite(void);

static void setup(void)
{
	testutil_tmpdir_setup("check_convert");
}

static void teardown(void)
{
	testutil_tmpdir_teardown();
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, 1 << 16);
	size_t n;

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(buf);
	n = fread(buf, 1, (1 << 16) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static int convert(const char *in, const char *out, enum spaa_convert_format to,
		   struct spaa_error *err)
{
	struct spaa_convert_opts o = {
		.from = SPAA_CONVERT_AUTO, .to = to, .input = in, .output = out,
		.compress = -1,
	};

	o.load.max_depth = SPAA_LOAD_MAX_DEPTH_DEFAULT;
	spaa_error_init(err);
	return spaa_convert(&o, err);
}

/* Folded in, SPAA out, folded again: the same stacks and counts, sorted. */
START_TEST(test_folded_round_trip)
{
	static const char folded[] =
		"# a comment, then a blank line\n\n"
		"main;parse;lex 3\n"
		"main;run 5\n"
		"main;parse;lex 2\n"
		"main;idle 0\n";
	const char *in = testutil_write("in.folded", folded, strlen(folded));
	const char *spaa = testutil_path("out.spaa");
	const char *back = testutil_path("back.folded");
	struct spaa_error err;
	char *text;

	ck_assert_msg(!convert(in, spaa, SPAA_CONVERT_SPAA, &err), "%s", err.msg);
	text = slurp(spaa);
	ck_assert_ptr_nonnull(strstr(text, "\"source_tool\":\"folded\""));
	free(text);
	ck_assert_msg(!convert(spaa, back, SPAA_CONVERT_FOLDED, &err), "%s", err.msg);
	text = slurp(back);
	ck_assert_str_eq(text, "main;parse;lex 5\nmain;run 5\n");
	free(text);
}
END_TEST

START_TEST(test_refusals)
{
	const char *empty = testutil_write("empty.txt", "\n\n# only comments\n", 18);
	struct spaa_convert_opts o = {
		.from = SPAA_CONVERT_SPX, .to = SPAA_CONVERT_SPAA, .input = "-",
		.output = testutil_path("x"), .compress = -1,
	};
	struct spaa_error err;

	/* an empty input: nothing to convert, and no output file */
	ck_assert_int_eq(convert(empty, testutil_path("e.spaa"), SPAA_CONVERT_SPAA, &err), -1);
	ck_assert_str_eq(err.code, SPAA_E_NO_DATA);
	ck_assert_str_eq(err.msg, "the input is empty: only blank lines and '#' comments");
	ck_assert_int_eq(access(testutil_path("e.spaa"), F_OK), -1);
	/* an SPX report is two files: never standard input */
	spaa_error_init(&err);
	ck_assert_int_eq(spaa_convert(&o, &err), -1);
	ck_assert_str_eq(err.code, SPAA_E_USAGE);
	/* a missing input names itself */
	ck_assert_int_eq(convert(testutil_path("none"), testutil_path("y"),
				 SPAA_CONVERT_FOLDED, &err), -1);
	ck_assert_str_eq(err.code, SPAA_E_NOT_FOUND);
}
END_TEST

/* An SPX report to folded: every call path of the report, by wall time. */
START_TEST(test_spx_to_folded)
{
	const char *out = testutil_path("spx.folded");
	struct spaa_error err;
	unsigned long long sum = 0, v;
	char *text, *line, *save = NULL;

	ck_assert_msg(!convert("tests/data/spx/basic.json", out, SPAA_CONVERT_FOLDED, &err),
		      "%s", err.msg);
	text = slurp(out);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		ck_assert_int_eq(sscanf(strrchr(line, ' '), " %llu", &v), 1);
		sum += v;
	}
	free(text);
	/* the lines add up to the total wall time the reader finds, in ns */
	{
		struct spaa_profile p;
		const char *path = "tests/data/spx/basic.json";
		struct spaa_load_opts lo = { 0 };

		spaa_profile_init(&p);
		ck_assert(!spaa_load(&p, &path, 1, &lo, &err));
		ck_assert_uint_eq(sum, spaa_profile_total(&p, 0, testutil_str(&p, "wt")));
		ck_assert_uint_gt(sum, 0);
		spaa_profile_release(&p);
	}
}
END_TEST

Suite *convert_suite(void)
{
	Suite *s = suite_create("convert");
	TCase *tc = tcase_create("convert");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_folded_round_trip);
	tcase_add_test(tc, test_refusals);
	tcase_add_test(tc, test_spx_to_folded);
	suite_add_tcase(s, tc);
	return s;
}
