/*
 * check_timequanta - sums over time (timequanta.h): bin edges, exact bins
 * while every nanosecond has its own quantum, coarsening past
 * max_quanta (times in order and scrambled), negative times and
 * overflow.
 */
#include <check.h>
#include <stdint.h>

#include "analysis/timequanta.h"

Suite *timequanta_suite(void);

START_TEST(test_bin_shape)
{
	/* span 1000 in 4: width 250, 4 bins */
	ck_assert_uint_eq(spaa_timequanta_bin_width(1000, 2000, 4), 250);
	ck_assert_uint_eq(spaa_timequanta_nbins(1000, 2000, 4), 4);
	/* span 499 in 2: width ceil(249.5) = 250, ceil(499 / 250) = 2 */
	ck_assert_uint_eq(spaa_timequanta_bin_width(1000, 1499, 2), 250);
	ck_assert_uint_eq(spaa_timequanta_nbins(1000, 1499, 2), 2);
	/* span 100 in 3: width 34, bins [0,34) [34,68) [68,100] */
	ck_assert_uint_eq(spaa_timequanta_bin_width(0, 100, 3), 34);
	ck_assert_uint_eq(spaa_timequanta_nbins(0, 100, 3), 3);
	/* span 5 in 20: width 1, only 5 bins */
	ck_assert_uint_eq(spaa_timequanta_bin_width(0, 5, 20), 1);
	ck_assert_uint_eq(spaa_timequanta_nbins(0, 5, 20), 5);
	/* one instant: one bin */
	ck_assert_uint_eq(spaa_timequanta_nbins(7, 7, 20), 1);
	/* the whole int64 range does not overflow */
	ck_assert_uint_eq(spaa_timequanta_bin_width(INT64_MIN, INT64_MAX, 1), UINT64_MAX);
	ck_assert_uint_eq(spaa_timequanta_nbins(INT64_MIN, INT64_MAX, 1), 1);
}
END_TEST

START_TEST(test_exact_bins)
{
	struct spaa_timequanta t;
	struct spaa_error err;
	uint64_t out[4 * 2];
	static const struct { int64_t t; uint64_t v[2]; } in[] = {
		{ 1000, { 100, 1 } }, { 1249, { 1, 1 } }, { 1250, { 10, 1 } },
		{ 1999, { 5, 1 } }, { 2000, { 7, 1 } },
	};

	spaa_error_init(&err);
	spaa_timequanta_init(&t, 2, 0);
	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++)
		ck_assert_int_eq(spaa_timequanta_add(&t, in[i].t, in[i].v, &err), 0);
	ck_assert_uint_eq(t.shift, 0);
	ck_assert_int_eq(spaa_timequanta_bins(&t, 1000, 2000, 4, out, &err), 0);
	/* [1000,1250): 100 + 1; [1250,1500): 10; [1500,1750): 0;
	 * [1750,2000]: 5 + 7, the end included in the last bin */
	ck_assert_uint_eq(out[0], 101);
	ck_assert_uint_eq(out[1], 2);
	ck_assert_uint_eq(out[2], 10);
	ck_assert_uint_eq(out[4], 0);
	ck_assert_uint_eq(out[5], 0);
	ck_assert_uint_eq(out[6], 12);
	ck_assert_uint_eq(out[7], 2);
	spaa_timequanta_release(&t);
}
END_TEST

START_TEST(test_coarsening)
{
	struct spaa_timequanta t;
	struct spaa_error err;
	uint64_t one = 1, out[2], sum = 0;

	spaa_error_init(&err);
	spaa_timequanta_init(&t, 1, 4);
	/* times 0..99: 100 distinct ns, at most 4 quanta -> 2^5 = 32 ns quanta
	 * (0-31, 32-63, 64-95, 96-99) */
	for (int64_t i = 0; i < 100; i++)
		ck_assert_int_eq(spaa_timequanta_add(&t, i, &one, &err), 0);
	ck_assert_uint_le(t.quanta.nr, 4);
	ck_assert_uint_eq(t.shift, 5);
	ck_assert_uint_eq(t.added, 100);
	/* nothing is lost: [0,50) gets the quanta starting at 0 and 32 */
	ck_assert_int_eq(spaa_timequanta_bins(&t, 0, 100, 2, out, &err), 0);
	ck_assert_uint_eq(out[0], 64);
	ck_assert_uint_eq(out[1], 36);
	for (int i = 0; i < 2; i++)
		sum += out[i];
	ck_assert_uint_eq(sum, 100);
	spaa_timequanta_release(&t);
}
END_TEST

/*
 * Times in a scrambled order, so that coarsening merges quanta whose
 * halves were added far apart (the sums merge in place): every value
 * must land in its quantum.
 */
START_TEST(test_coarsening_scrambled)
{
	struct spaa_timequanta t;
	struct spaa_error err;
	uint64_t out[8 * 2];

	spaa_error_init(&err);
	spaa_timequanta_init(&t, 2, 8);
	/* i * 37 mod 1000 visits 0..999 once each (gcd(37, 1000) = 1) */
	for (int64_t i = 0; i < 1000; i++) {
		int64_t time = i * 37 % 1000;
		uint64_t v[2] = { (uint64_t)time, 1 };

		ck_assert_int_eq(spaa_timequanta_add(&t, time, v, &err), 0);
	}
	/* 8 quanta of 128 ns cover 0..999; 64 ns would need 16 */
	ck_assert_uint_eq(t.shift, 7);
	ck_assert_uint_eq(t.quanta.nr, 8);
	/* bins of 128 ns are the quanta: sums of 128b..min(128b+127, 999) */
	ck_assert_int_eq(spaa_timequanta_bins(&t, 0, 1024, 8, out, &err), 0);
	for (uint64_t b = 0; b < 8; b++) {
		uint64_t lo = 128 * b, hi = b == 7 ? 999 : 128 * b + 127;

		ck_assert_uint_eq(out[b * 2], (lo + hi) * (hi - lo + 1) / 2);
		ck_assert_uint_eq(out[b * 2 + 1], hi - lo + 1);
	}
	spaa_timequanta_release(&t);
}
END_TEST

START_TEST(test_negative_and_extreme_times)
{
	struct spaa_timequanta t;
	struct spaa_error err;
	uint64_t one = 1, out[2];

	spaa_error_init(&err);
	spaa_timequanta_init(&t, 1, 2);
	ck_assert_int_eq(spaa_timequanta_add(&t, INT64_MIN, &one, &err), 0);
	ck_assert_int_eq(spaa_timequanta_add(&t, -1, &one, &err), 0);
	ck_assert_int_eq(spaa_timequanta_add(&t, INT64_MAX, &one, &err), 0);
	ck_assert_uint_le(t.shift, 62);
	ck_assert_int_eq(spaa_timequanta_bins(&t, INT64_MIN, INT64_MAX, 2, out, &err), 0);
	ck_assert_uint_eq(out[0] + out[1], 3);
	spaa_timequanta_release(&t);
}
END_TEST

START_TEST(test_overflow)
{
	struct spaa_timequanta t;
	struct spaa_error err;
	uint64_t big = UINT64_MAX, one = 1, out[1];

	spaa_error_init(&err);
	spaa_timequanta_init(&t, 1, 0);
	ck_assert_int_eq(spaa_timequanta_add(&t, 5, &big, &err), 0);
	ck_assert_int_eq(spaa_timequanta_add(&t, 5, &one, &err), -1);
	ck_assert_str_eq(err.code, SPAA_E_LIMIT);
	/* two quanta that only overflow once binned together */
	spaa_timequanta_release(&t);
	spaa_timequanta_init(&t, 1, 0);
	ck_assert_int_eq(spaa_timequanta_add(&t, 5, &big, &err), 0);
	ck_assert_int_eq(spaa_timequanta_add(&t, 6, &one, &err), 0);
	spaa_error_init(&err);
	ck_assert_int_eq(spaa_timequanta_bins(&t, 0, 10, 1, out, &err), -1);
	ck_assert_str_eq(err.code, SPAA_E_LIMIT);
	spaa_timequanta_release(&t);
}
END_TEST

Suite *timequanta_suite(void)
{
	Suite *s = suite_create("timequanta");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_bin_shape);
	tcase_add_test(tc, test_exact_bins);
	tcase_add_test(tc, test_coarsening);
	tcase_add_test(tc, test_coarsening_scrambled);
	tcase_add_test(tc, test_negative_and_extreme_times);
	tcase_add_test(tc, test_overflow);
	suite_add_tcase(s, tc);
	return s;
}
