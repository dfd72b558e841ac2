/*
 * check_rank - the one order of table rows (analysis/rank.h): keys
 * descending, names ascending bytewise, ties by the tie value, the same
 * whatever the input order; and names of joined paths compared without
 * being made.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/rank.h"

Suite *rank_suite(void);

static const struct spaa_rank rank_rows[] = {
	{ 5, 1, "b", 0, 0 },
	{ 9, 0, "z", 0, 1 },
	{ 5, 3, "a", 0, 2 },
	{ 5, 1, "a", 2, 3 },
	{ 5, 1, "a", 1, 4 },
	{ 5, 1, NULL, 0, 5 },
	{ 5, 1, "", -1, 6 },
	{ 0, 9, "a", 0, 7 },
	{ UINT64_MAX, 0, "m", 0, 8 },
	{ 5, 1, "a", INT64_MIN, 9 },
	{ 5, 1, "ab", 0, 10 },
	{ 5, 1, "B", 0, 11 },
};

/*
 * key desc: 8 (2^64-1), 1 (9), then key 5, then 7 (0).
 * key 5, key2 desc: 2 (3), then key2 1 by name ("" = NULL < "B" < "a" <
 * "ab" < "b", bytewise): "" ties: 6 (-1), 5 (0); "B": 11; "a" ties:
 * 9 (INT64_MIN), 4 (1), 3 (2); "ab": 10; "b": 0.
 */
static const uint32_t rank_want[] = { 8, 1, 2, 6, 5, 11, 9, 4, 3, 10, 0, 7 };

START_TEST(test_rank_sort)
{
	const size_t n = sizeof(rank_rows) / sizeof(rank_rows[0]);
	struct spaa_rank r[sizeof(rank_rows) / sizeof(rank_rows[0])];

	/* every rotation of the input sorts the same way */
	for (size_t rot = 0; rot < n; rot++) {
		for (size_t i = 0; i < n; i++)
			r[i] = rank_rows[(i + rot) % n];
		if (rot & 1) {  /* and reversed */
			for (size_t i = 0; i < n / 2; i++) {
				struct spaa_rank t = r[i];

				r[i] = r[n - 1 - i];
				r[n - 1 - i] = t;
			}
		}
		spaa_rank_sort(r, n);
		for (size_t i = 0; i < n; i++)
			ck_assert_msg(r[i].idx == rank_want[i],
				      "rotation %zu, position %zu: %u, want %u",
				      rot, i, r[i].idx, rank_want[i]);
	}
	/* zero and one rows */
	spaa_rank_sort(r, 0);
	spaa_rank_sort(r, 1);
	ck_assert_uint_eq(r[0].idx, 8);
}
END_TEST


static const char *const names[] = { "main", "a", "ab", "b" };

static const char *name_of(const void *ctx, uint32_t id)
{
	(void)ctx;
	return names[id];
}

/*
 * Paths as id sequences: "main;b" (1), "main;a" (2), "main;ab" (3),
 * "main" (4), joined with ';'.  Same keys: by the joined names, where
 * "main" < "main;a" < "main;ab" < "main;b" bytewise; a higher key first.
 */
START_TEST(test_rank_sort_joined)
{
	static const uint32_t paths[][2] = { { 0, 3 }, { 0, 1 }, { 0, 2 }, { 0, 0 } };
	static const uint32_t lens[] = { 2, 2, 2, 1 };
	struct spaa_strtab t;
	struct spaa_rank r[5];
	static const uint32_t want[] = { 3, 4, 2, 1 };

	spaa_strtab_init(&t);
	for (int i = 0; i < 4; i++)
		ck_assert_uint_eq(spaa_strtab_intern(&t, paths[i], lens[i] * sizeof(uint32_t)),
				  (uint32_t)i + 1);
	for (int i = 0; i < 4; i++)
		r[i] = (struct spaa_rank){ 5, 0, NULL, 0, (uint32_t)i + 1 };
	r[2].key = 6;   /* "main;ab" ranks first whatever its name */
	spaa_rank_sort_joined(r, 4, &t, name_of, NULL, 1);
	for (int i = 0; i < 4; i++)
		ck_assert_uint_eq(r[i].idx, want[i]);
	spaa_strtab_release(&t);
}
END_TEST

static const char *const names2[] = { "main", "a", "a!", "ab", "b", "" };

static const char *name2_of(const void *ctx, uint32_t id)
{
	(void)ctx;
	return names2[id];
}

/*
 * Enough rows for a second thread to sort half of them (rank.c): the
 * order is the one spaa_rank_sort gives the joined names made as strings
 * (a second method), with one thread and with two.  Few keys, so most
 * rows tie on them; names where ';' sorts after a name's next byte
 * ("a!" against "a;...") and an empty one.
 */
START_TEST(test_rank_sort_joined_threads)
{
	enum { N = 20000, MAXLEN = 8, TEXT = MAXLEN * 5 };
	struct spaa_rank *r = malloc(N * sizeof(*r)), *want = malloc(N * sizeof(*want));
	char (*text)[TEXT] = calloc(N, sizeof(*text));
	struct spaa_strtab t;
	uint64_t x = 88172645463325252ULL;
	uint32_t nr = 0;

	spaa_strtab_init(&t);
	for (int i = 0; i < N; i++) {
		uint32_t seq[MAXLEN], len, idx;
		int at = 0;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		len = 1 + (uint32_t)(x % MAXLEN);
		for (uint32_t k = 0; k < len; k++)
			seq[k] = (uint32_t)((x >> (8 + 4 * k)) % 6);
		idx = spaa_strtab_intern(&t, seq, len * sizeof(uint32_t));
		if (idx <= nr)
			continue;       /* a path drawn before */
		nr = idx;
		for (uint32_t k = 0; k < len; k++)
			at += snprintf(text[nr - 1] + at, TEXT - (size_t)at, "%s%s",
				       k ? ";" : "", names2[seq[k]]);
		r[nr - 1] = (struct spaa_rank){ (x >> 48) % 3, 0, NULL, (int64_t)nr, idx };
		want[nr - 1] = r[nr - 1];
		want[nr - 1].name = text[nr - 1];
	}
	ck_assert_uint_ge(nr, 8192);    /* rank.c's RANK_SORT_SPLIT */
	spaa_rank_sort(want, nr);
	for (unsigned threads = 1; threads <= 2; threads++) {
		struct spaa_rank *got = malloc(nr * sizeof(*got));

		memcpy(got, r, nr * sizeof(*got));
		spaa_rank_sort_joined(got, nr, &t, name2_of, NULL, threads);
		for (uint32_t i = 0; i < nr; i++)
			ck_assert_msg(got[i].idx == want[i].idx,
				      "threads %u, row %u: path %u, want %u", threads, i,
				      got[i].idx, want[i].idx);
		free(got);
	}
	spaa_strtab_release(&t);
	free(text);
	free(want);
	free(r);
}
END_TEST

Suite *rank_suite(void)
{
	Suite *s = suite_create("rank");
	TCase *tc = tcase_create("rank");

	tcase_add_test(tc, test_rank_sort);
	tcase_add_test(tc, test_rank_sort_joined);
	tcase_add_test(tc, test_rank_sort_joined_threads);
	suite_add_tcase(s, tc);
	return s;
}
