/*
 * check_filter - the one filter of samples and records
 * (analysis/filter.h): a time range with both ends in it, a process and
 * a thread, and the time range results cover.
 */
#include <check.h>
#include <stdint.h>

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

Suite *filter_suite(void)
{
	Suite *s = suite_create("filter");
	TCase *tc = tcase_create("filter");

	tcase_add_test(tc, test_filter_passes_all);
	tcase_add_test(tc, test_filter_cuts);
	tcase_add_test(tc, test_filter_range);
	suite_add_tcase(s, tc);
	return s;
}
