/*
 * check_timegrid - the time grid: bins of negative times (floor, not
 * truncation), coarsening that merges cells and keeps every sum, the
 * bound on cells, round
 * widths, the fixed grid's limit, and overflow reported, never wrapped.
 */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "analysis/timegrid.h"

Suite *timegrid_suite(void);

static const size_t one_u32[] = { sizeof(uint32_t) };

/* Sum of count and weight of every cell of series 0 in bin b, key k. */
static void cell_sum(const struct spaa_timegrid *tb, int64_t b, uint32_t k,
		     uint64_t *count, uint64_t *weight)
{
	*count = *weight = 0;
	for (uint32_t i = 0; i < spaa_timegrid_ncells(tb, 0); i++) {
		struct spaa_timegrid_sum s;
		int64_t bin;
		uint32_t key;

		memcpy(&key, spaa_timegrid_cell(tb, 0, i, &bin, &s), sizeof(key));
		if (bin == b && key == k) {
			*count += s.count;
			*weight += s.weight;
		}
	}
}

START_TEST(test_fixed_grid_and_negative_bins)
{
	struct spaa_timegrid tb;
	struct spaa_error err;
	int64_t b;
	uint64_t c, w;
	uint32_t k = 7;

	spaa_timegrid_init(&tb, 100, 10, true, 5, one_u32, 1);
	ck_assert_uint_eq(spaa_timegrid_nbins(&tb), 0);
	ck_assert_int_eq(spaa_timegrid_place(&tb, 100, &b, &err), 0);
	ck_assert_int_eq(b, 0);
	ck_assert_int_eq(spaa_timegrid_add(&tb, 0, b, &k, 1, 3, &err), 0);
	ck_assert_int_eq(spaa_timegrid_place(&tb, 99, &b, &err), 0);
	ck_assert_int_eq(b, -1);        /* floor(-1 / 10), not 0 */
	ck_assert_int_eq(spaa_timegrid_add(&tb, 0, b, &k, 1, 4, &err), 0);
	ck_assert_int_eq(spaa_timegrid_place(&tb, 90, &b, &err), 0);
	ck_assert_int_eq(b, -1);
	ck_assert_int_eq(spaa_timegrid_add(&tb, 0, b, &k, 1, 5, &err), 0);
	ck_assert_int_eq(spaa_timegrid_place(&tb, 139, &b, &err), 0);
	ck_assert_int_eq(b, 3);
	ck_assert_uint_eq(spaa_timegrid_nbins(&tb), 5);  /* -1 .. 3 */
	cell_sum(&tb, -1, 7, &c, &w);
	ck_assert_uint_eq(c, 2);
	ck_assert_uint_eq(w, 9);
	ck_assert_int_eq(spaa_timegrid_start(&tb, -1), 90);
	ck_assert_int_eq(spaa_timegrid_end(&tb, -1), 99);
	ck_assert_int_eq(spaa_timegrid_end(&tb, 3), 139);
	/* 140 would make six bins: a fixed grid refuses */
	ck_assert_int_eq(spaa_timegrid_place(&tb, 140, &b, &err), -1);
	ck_assert_str_eq(err.code, SPAA_E_LIMIT);
	ck_assert_uint_eq(spaa_timegrid_nbins(&tb), 5);
	spaa_timegrid_release(&tb);
}
END_TEST

START_TEST(test_adaptive_coarsening)
{
	struct spaa_timegrid tb;
	struct spaa_error err;
	int64_t b;
	uint64_t c, w, total = 0;

	spaa_timegrid_init(&tb, 0, 1000, false, 4, one_u32, 1);
	/* 0, 1000, 2000, 3000: four bins of 1 us, keys 1 and 2 alternating */
	for (uint32_t i = 0; i < 4; i++) {
		uint32_t k = 1 + i % 2;

		ck_assert_int_eq(spaa_timegrid_place(&tb, (int64_t)i * 1000, &b, &err), 0);
		ck_assert_int_eq(b, i);
		ck_assert_int_eq(spaa_timegrid_add(&tb, 0, b, &k, 1, 10 + i, &err), 0);
	}
	ck_assert_int_eq(tb.width, 1000);
	/* 4000 needs a fifth bin: 2 us bins, 0+1000 | 2000+3000 | 4000 */
	ck_assert_int_eq(spaa_timegrid_place(&tb, 4000, &b, &err), 0);
	ck_assert_int_eq(tb.width, 2000);
	ck_assert_int_eq(b, 2);
	ck_assert_uint_eq(spaa_timegrid_nbins(&tb), 3);
	cell_sum(&tb, 0, 1, &c, &w);
	ck_assert_uint_eq(c, 1);
	ck_assert_uint_eq(w, 10);
	cell_sum(&tb, 0, 2, &c, &w);
	ck_assert_uint_eq(w, 11);
	cell_sum(&tb, 1, 1, &c, &w);
	ck_assert_uint_eq(w, 12);
	/* 20000 at 2 us is bin 10: 2 us -> 10 us (next round multiple) */
	ck_assert_int_eq(spaa_timegrid_place(&tb, 20000, &b, &err), 0);
	ck_assert_int_eq(tb.width, 10000);
	ck_assert_int_eq(b, 2);
	ck_assert_int_eq(tb.lo, 0);
	ck_assert_int_eq(tb.hi, 2);
	ck_assert_uint_eq(tb.coarsenings, 2);
	cell_sum(&tb, 0, 1, &c, &w);
	ck_assert_uint_eq(c, 2);        /* the samples at 0 and 2000 */
	ck_assert_uint_eq(w, 22);
	cell_sum(&tb, 0, 2, &c, &w);
	ck_assert_uint_eq(w, 24);
	for (uint32_t i = 0; i < spaa_timegrid_ncells(&tb, 0); i++) {
		struct spaa_timegrid_sum s;

		spaa_timegrid_cell(&tb, 0, i, &b, &s);
		total += s.weight;
	}
	ck_assert_uint_eq(total, 10 + 11 + 12 + 13);
	spaa_timegrid_release(&tb);
}
END_TEST

START_TEST(test_coarsen_negative)
{
	struct spaa_timegrid tb;
	struct spaa_error err;
	int64_t b;
	uint32_t k = 0;
	uint64_t c, w;

	spaa_timegrid_init(&tb, 0, 10, false, 100, one_u32, 1);
	for (int64_t t = -30; t < 0; t += 10) {
		ck_assert_int_eq(spaa_timegrid_place(&tb, t, &b, &err), 0);
		ck_assert_int_eq(spaa_timegrid_add(&tb, 0, b, &k, 1, 1, &err), 0);
	}
	/* bins -3, -2, -1 by 2: floor gives -2, -1, -1 */
	ck_assert_int_eq(spaa_timegrid_coarsen(&tb, 2, &err), 0);
	ck_assert_int_eq(tb.lo, -2);
	ck_assert_int_eq(tb.hi, -1);
	cell_sum(&tb, -2, 0, &c, &w);
	ck_assert_uint_eq(c, 1);
	cell_sum(&tb, -1, 0, &c, &w);
	ck_assert_uint_eq(c, 2);
	ck_assert_int_eq(spaa_timegrid_start(&tb, -2), -40);
	spaa_timegrid_release(&tb);
}
END_TEST

START_TEST(test_round_width)
{
	ck_assert_int_eq(spaa_timegrid_round_width(1, 1), 1);
	ck_assert_int_eq(spaa_timegrid_round_width(3, 1), 5);
	ck_assert_int_eq(spaa_timegrid_round_width(6, 1), 10);
	ck_assert_int_eq(spaa_timegrid_round_width(1953126, 1), 2000000);
	ck_assert_int_eq(spaa_timegrid_round_width(2001, 1000), 5000);
	ck_assert_int_eq(spaa_timegrid_round_width(4000, 2000), 10000);
	ck_assert_int_eq(spaa_timegrid_round_width(2000001, 2000000), 10000000);
	ck_assert_int_eq(spaa_timegrid_round_width(20000001, 10000000), 50000000);
	/* no 1-2-5 width is a multiple of 3: the next multiple */
	ck_assert_int_eq(spaa_timegrid_round_width(7, 3), 9);
}
END_TEST

START_TEST(test_overflow)
{
	struct spaa_timegrid tb;
	struct spaa_error err;
	int64_t b;
	uint32_t k = 1;

	spaa_timegrid_init(&tb, INT64_MAX, 1, false, 10, one_u32, 1);
	spaa_error_init(&err);
	ck_assert_int_eq(spaa_timegrid_place(&tb, INT64_MIN, &b, &err), -1);
	ck_assert_str_eq(err.code, SPAA_E_LIMIT);
	ck_assert_int_eq(spaa_timegrid_place(&tb, INT64_MAX, &b, &err), 0);
	ck_assert_int_eq(spaa_timegrid_add(&tb, 0, b, &k, 1, UINT64_MAX, &err), 0);
	spaa_error_init(&err);
	ck_assert_int_eq(spaa_timegrid_add(&tb, 0, b, &k, 1, 1, &err), -1);
	ck_assert_str_eq(err.code, SPAA_E_LIMIT);
	/* the end of the last bin saturates instead of wrapping */
	ck_assert_int_eq(spaa_timegrid_end(&tb, 0), INT64_MAX);
	spaa_timegrid_release(&tb);
}
END_TEST

START_TEST(test_two_series)
{
	static const size_t sizes[] = { sizeof(uint32_t), 2 * sizeof(int64_t) };
	struct spaa_timegrid tb;
	struct spaa_error err;
	int64_t b, pair[2] = { 10, 11 };
	uint32_t k = 3;

	spaa_timegrid_init(&tb, 0, 5, false, 8, sizes, 2);
	for (int64_t t = 0; t < 100; t += 5) {
		ck_assert_int_eq(spaa_timegrid_place(&tb, t, &b, &err), 0);
		ck_assert_int_eq(spaa_timegrid_add(&tb, 0, b, &k, 1, 2, &err), 0);
		ck_assert_int_eq(spaa_timegrid_add(&tb, 1, b, pair, 1, 2, &err), 0);
	}
	/* both series coarsened together: one cell per bin each */
	ck_assert_uint_eq(spaa_timegrid_ncells(&tb, 0), spaa_timegrid_nbins(&tb));
	ck_assert_uint_eq(spaa_timegrid_ncells(&tb, 1), spaa_timegrid_nbins(&tb));
	ck_assert_uint_le(spaa_timegrid_nbins(&tb), 8);
	for (uint32_t i = 0; i < spaa_timegrid_ncells(&tb, 1); i++) {
		struct spaa_timegrid_sum s;
		const int64_t *key = spaa_timegrid_cell(&tb, 1, i, &b, &s);

		ck_assert_int_eq(key[0], 10);
		ck_assert_int_eq(key[1], 11);
	}
	spaa_timegrid_release(&tb);
}
END_TEST

/*
 * The cell bound: 10 bins of 1 ns, keys 0..3 in every bin (40 cells) and
 * at most 12 cells.  Width 2 leaves 20 cells; the next round width that
 * is a multiple of 2 is 10 (5 is not), which leaves one bin of 4 cells,
 * each key's sums those of its 10 old cells (count 10, weight 10 (k + 1)).
 */
START_TEST(test_cell_bound)
{
	struct spaa_timegrid tb;
	struct spaa_error err;
	uint64_t count, weight;
	int64_t b;

	spaa_timegrid_init(&tb, 0, 1, false, 100, one_u32, 1);
	tb.max_cells = 12;
	for (int64_t t = 0; t < 10; t++) {
		ck_assert_int_eq(spaa_timegrid_place(&tb, t, &b, &err), 0);
		for (uint32_t k = 0; k < 4; k++)
			ck_assert_int_eq(spaa_timegrid_add(&tb, 0, b, &k, 1, k + 1, &err), 0);
	}
	ck_assert_uint_eq(spaa_timegrid_ncells(&tb, 0), 40);
	ck_assert_int_eq(spaa_timegrid_limit_cells(&tb, &err), 0);
	ck_assert_int_eq(tb.width, 10);
	ck_assert_uint_eq(spaa_timegrid_ncells(&tb, 0), 4);
	ck_assert_uint_eq(spaa_timegrid_nbins(&tb), 1);
	for (uint32_t k = 0; k < 4; k++) {
		cell_sum(&tb, 0, k, &count, &weight);
		ck_assert_uint_eq(count, 10);
		ck_assert_uint_eq(weight, 10 * (k + 1));
	}
	spaa_timegrid_release(&tb);

	/* a fixed grid is never coarsened for cells */
	spaa_timegrid_init(&tb, 0, 1, true, 100, one_u32, 1);
	tb.max_cells = 1;
	for (uint32_t k = 0; k < 3; k++) {
		ck_assert_int_eq(spaa_timegrid_place(&tb, k, &b, &err), 0);
		ck_assert_int_eq(spaa_timegrid_add(&tb, 0, b, &k, 1, 1, &err), 0);
	}
	ck_assert_int_eq(spaa_timegrid_limit_cells(&tb, &err), 0);
	ck_assert_int_eq(tb.width, 1);
	ck_assert_uint_eq(spaa_timegrid_ncells(&tb, 0), 3);
	spaa_timegrid_release(&tb);
}
END_TEST

Suite *timegrid_suite(void)
{
	Suite *s = suite_create("timegrid");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_fixed_grid_and_negative_bins);
	tcase_add_test(tc, test_adaptive_coarsening);
	tcase_add_test(tc, test_coarsen_negative);
	tcase_add_test(tc, test_round_width);
	tcase_add_test(tc, test_overflow);
	tcase_add_test(tc, test_two_series);
	tcase_add_test(tc, test_cell_bound);
	suite_add_tcase(s, tc);
	return s;
}
