/*
 * check_timechart - stacked bars over time: the order of the series, the
 * "other" band, the geometry of timechart.h, and the refusals.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/svg.h"
#include "report/timechart.h"
#include "testutil.h"

Suite *timechart_suite(void);

static void setup(void)
{
	testutil_tmpdir_setup("check_timechart");
}

static void teardown(void)
{
	testutil_tmpdir_teardown();
}

/* The document spaa_timechart_write_file wrote (owned by the caller). */
static char *drawn(const struct spaa_timechart *tc,
		   const struct spaa_timechart_opts *o)
{
	const char *path = testutil_path("chart.svg");
	struct spaa_error err;
	char *s = NULL;
	size_t n = 0;
	FILE *f;

	spaa_error_init(&err);
	ck_assert_msg(!spaa_timechart_write_file(tc, o, path, &err), "%s", err.msg);
	f = fopen(path, "rb");
	ck_assert_ptr_nonnull(f);
	s = malloc(1 << 20);
	n = fread(s, 1, (1 << 20) - 1, f);
	s[n] = '\0';
	fclose(f);
	return s;
}

START_TEST(test_timechart_bands_and_other)
{
	/*
	 * Bin 0: a 3, b 1; bin 1: b 2, c 1.  Series by total: a 3, b 3 (tie:
	 * name order), c 1; top 2 draws a and b, c is "other".  The tallest
	 * bin weighs 4 = 300 px; bins of (1200 - 100) / 2 = 550 px from x 80.
	 */
	struct spaa_timechart *tc = spaa_timechart_new(1000, 10, 2);
	struct spaa_timechart_opts o = { .top = 2, .title = "T" };
	struct spaa_error err;
	char *s;

	spaa_error_init(&err);
	ck_assert(!spaa_timechart_add(tc, 1, "c", 1, 1, &err));
	ck_assert(!spaa_timechart_add(tc, 0, "b", 1, 1, &err));
	ck_assert(!spaa_timechart_add(tc, 0, "a", 1, 2, &err));
	ck_assert(!spaa_timechart_add(tc, 1, "b", 1, 2, &err));
	ck_assert(!spaa_timechart_add(tc, 0, "a", 1, 1, &err));
	spaa_timechart_span(tc, 0, 0, "1: a");
	spaa_timechart_span(tc, 1, 1, "2: b");
	s = drawn(tc, &o);
	ck_assert_ptr_nonnull(strstr(s, "<rect data-s=\"0\" x=\"80.00\" y=\"171.00\" "
				     "width=\"550.00\" height=\"225.00\""));
	ck_assert_ptr_nonnull(strstr(s, "<rect data-s=\"1\" x=\"80.00\" y=\"96.00\" "
				     "width=\"550.00\" height=\"75.00\""));
	ck_assert_ptr_nonnull(strstr(s, "<rect data-s=\"1\" x=\"630.00\" y=\"246.00\" "
				     "width=\"550.00\" height=\"150.00\""));
	ck_assert_ptr_nonnull(strstr(s, "<rect data-s=\"2\" x=\"630.00\" y=\"171.00\" "
				     "width=\"550.00\" height=\"75.00\" fill=\"#bebebe\""));
	ck_assert_ptr_nonnull(strstr(s, "<line x1=\"630.00\" y1=\"80\" x2=\"630.00\" y2=\"396\""));
	ck_assert_ptr_nonnull(strstr(s, ">1 series beyond the top 2 drawn as &apos;other&apos; "
				     "(14.29 % of the weight)</text>"));
	ck_assert_ptr_nonnull(strstr(s, "<title>from 10 ns to 20 ns (1010 to 1019 ns)\n"
				     "weight 3\nb 2 (66.7 %)\nc 1 (33.3 %)</title>"));
	ck_assert_ptr_nonnull(strstr(s, "data-name=\"other\""));
	free(s);
	spaa_timechart_free(tc);
}
END_TEST

START_TEST(test_timechart_refusals)
{
	struct spaa_timechart *tc = spaa_timechart_new(0, 1, 3);
	struct spaa_timechart_opts o = { 0 };
	struct spaa_error err;

	spaa_error_init(&err);
	ck_assert(spaa_timechart_write_file(tc, &o, testutil_path("x.svg"), &err));
	ck_assert_str_eq(err.code, SPAA_E_NO_DATA);
	ck_assert(!spaa_timechart_add(tc, 0, "a", 1, UINT64_MAX, &err));
	ck_assert(spaa_timechart_add(tc, 1, "b", 1, 1, &err));
	ck_assert_str_eq(err.code, SPAA_E_LIMIT);
	o.width = 299;
	ck_assert(spaa_timechart_write_file(tc, &o, testutil_path("x.svg"), &err));
	ck_assert_str_eq(err.code, SPAA_E_USAGE);
	spaa_timechart_free(tc);

	tc = spaa_timechart_new(0, 1, SPAA_SVG_MAX_SHAPES / 2 + 1);
	o.width = 0;
	ck_assert(!spaa_timechart_add(tc, 0, "a", 1, 1, &err));
	ck_assert(spaa_timechart_write_file(tc, &o, testutil_path("x.svg"), &err));
	ck_assert_str_eq(err.code, SPAA_E_LIMIT);
	spaa_timechart_free(tc);
}
END_TEST

START_TEST(test_timechart_bound_on_bands)
{
	/* 5000 bins of 4 series: at most 20000 bands, so 3 series drawn */
	struct spaa_timechart *tc = spaa_timechart_new(0, 1, 5000);
	struct spaa_timechart_opts o = { 0 };
	struct spaa_error err;
	char *s;

	spaa_error_init(&err);
	for (uint32_t b = 0; b < 5000; b++)
		for (int k = 0; k < 4; k++)
			ck_assert(!spaa_timechart_add(tc, b, &"abcd"[k], 1, 4 - (uint64_t)k, &err));
	s = drawn(tc, &o);
	ck_assert_ptr_nonnull(strstr(s, ">1 series beyond the top 3 drawn as &apos;other&apos; "
				     "(10.00 % of the weight); at most 20000 bands in a picture<"));
	ck_assert_ptr_null(strstr(s, "data-s=\"4\""));
	free(s);
	spaa_timechart_free(tc);
}
END_TEST

Suite *timechart_suite(void)
{
	Suite *s = suite_create("timechart");
	TCase *tc = tcase_create("timechart");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_timechart_bands_and_other);
	tcase_add_test(tc, test_timechart_refusals);
	tcase_add_test(tc, test_timechart_bound_on_bands);
	suite_add_tcase(s, tc);
	return s;
}
