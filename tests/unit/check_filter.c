/*
 * check_filter - the one filter of samples and records
 * (analysis/filter.h): a time range with both ends in it, a process and
 * a thread, the time range results cover, and a range moved from
 * another clock.
 */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "analysis/filter.h"

Suite *filter_suite(void);

START_TEST(test_filter_passes_all)
{
	struct spaa_filter f;

	spaa_filter_init(&f);
	ck_assert(!spaa_filter_has_range(&f));
	ck_assert(spaa_filter_time(&f, INT64_MIN) && spaa_filter_time(&f, INT64_MAX));
	ck_assert(spaa_filter_thread(&f, SPAA_NO_ID, SPAA_NO_ID));
	ck_assert(spaa_filter_thread(&f, 5, 6));
}
END_TEST

START_TEST(test_filter_cuts)
{
	struct spaa_filter f;

	spaa_filter_init(&f);
	f.has_begin = true;
	f.begin = 10;
	ck_assert(spaa_filter_has_range(&f));
	ck_assert(!spaa_filter_time(&f, 9));
	ck_assert(spaa_filter_time(&f, 10));
	f.has_end = true;
	f.end = 20;
	ck_assert(spaa_filter_time(&f, 20) && !spaa_filter_time(&f, 21));
	f.pid = 5;
	ck_assert(spaa_filter_thread(&f, 5, 99));
	ck_assert(!spaa_filter_thread(&f, 6, 99));
	/* a record that does not say its process is not that process's */
	ck_assert(!spaa_filter_thread(&f, SPAA_NO_ID, 99));
	f.tid = 7;
	ck_assert(spaa_filter_thread(&f, 5, 7) && !spaa_filter_thread(&f, 5, 8));
}
END_TEST

START_TEST(test_filter_range)
{
	struct spaa_profile p;
	struct spaa_filter f;
	int64_t b, e;

	spaa_profile_init(&p);
	spaa_filter_init(&f);
	spaa_filter_range(&f, &p, &b, &e);
	ck_assert(b == 0 && e == 0);            /* no time at all */
	spaa_profile_cover_time(&p, 100, 200);
	spaa_filter_range(&f, &p, &b, &e);
	ck_assert(b == 100 && e == 200);        /* the profile's span */
	f.has_begin = true;
	f.begin = 150;
	spaa_filter_range(&f, &p, &b, &e);
	ck_assert(b == 150 && e == 200);
	f.has_end = true;
	f.end = 300;                            /* beyond the profile: as asked */
	spaa_filter_range(&f, &p, &b, &e);
	ck_assert(b == 150 && e == 300);
	f.has_end = false;
	f.begin = 500;                          /* after the profile's end */
	spaa_filter_range(&f, &p, &b, &e);
	ck_assert(b == 500 && e == 500);
	spaa_profile_release(&p);
}
END_TEST

START_TEST(test_filter_shift)
{
	struct spaa_filter f;
	struct spaa_error err;

	spaa_filter_init(&f);
	f.has_begin = f.has_end = true;
	f.begin = 1000;
	f.end = 1500;
	ck_assert_int_eq(spaa_filter_shift(&f, 400, "given", &err), 0);
	ck_assert(f.begin == 600 && f.end == 1100 && f.clock_offset == 400);
	ck_assert_str_eq(f.clock_from, "given");
	/* a bound not given stays open */
	spaa_filter_init(&f);
	f.has_begin = true;
	f.begin = -5;
	ck_assert_int_eq(spaa_filter_shift(&f, -10, "x", &err), 0);
	ck_assert(f.begin == 5 && f.end == INT64_MAX);
	/* past 64 bits: refused, nothing moved */
	spaa_filter_init(&f);
	f.has_end = true;
	f.end = INT64_MIN + 3;
	ck_assert_int_eq(spaa_filter_shift(&f, 4, "x", &err), -1);
	ck_assert_str_eq(err.code, SPAA_E_USAGE);
	ck_assert(f.end == INT64_MIN + 3 && !f.clock_from[0]);
}
END_TEST

START_TEST(test_filter_overlap)
{
	struct spaa_profile p;
	struct spaa_filter f;
	struct spaa_error err;

	spaa_profile_init(&p);
	spaa_profile_cover_time(&p, 100, 200);
	spaa_filter_init(&f);
	f.has_begin = f.has_end = true;
	f.begin = 300;
	f.end = 400;
	/* not moved: a window after the profile is only empty */
	ck_assert_int_eq(spaa_filter_check_overlap(&f, &p, &err), 0);
	ck_assert_int_eq(spaa_filter_shift(&f, 50, "--clock-offset", &err), 0);
	ck_assert_int_eq(spaa_filter_check_overlap(&f, &p, &err), -1);  /* 250..350 */
	ck_assert_str_eq(err.code, SPAA_E_NO_DATA);
	ck_assert_ptr_nonnull(strstr(err.msg, "250 to 350 ns"));
	ck_assert_ptr_nonnull(strstr(err.msg, "covers 100 to 200 ns"));
	/* touching one end is overlap: both ends are inclusive */
	f.begin = 200;
	ck_assert_int_eq(spaa_filter_check_overlap(&f, &p, &err), 0);
	f.begin = 0;
	f.end = 99;
	ck_assert_int_eq(spaa_filter_check_overlap(&f, &p, &err), -1);
	f.end = 100;
	ck_assert_int_eq(spaa_filter_check_overlap(&f, &p, &err), 0);
	spaa_profile_release(&p);
}
END_TEST

Suite *filter_suite(void)
{
	Suite *s = suite_create("filter");
	TCase *tc = tcase_create("filter");

	tcase_add_test(tc, test_filter_passes_all);
	tcase_add_test(tc, test_filter_cuts);
	tcase_add_test(tc, test_filter_range);
	tcase_add_test(tc, test_filter_shift);
	tcase_add_test(tc, test_filter_overlap);
	suite_add_tcase(s, tc);
	return s;
}
