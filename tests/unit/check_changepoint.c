/*
 * check_changepoint - the merge cost (weighted Jensen-Shannon divergence
 * minus its sampling noise) against values worked out by hand, and the
 * segmentation on small timelines whose phases are known: penalty,
 * idle runs, short gaps, --min-phase and --max-phases, and order
 * independence of the observations.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/changepoint.h"

Suite *changepoint_suite(void);

#define EPS 1e-9

/* sampling noise of k labels over n samples, bits: (k-1) / (2 n ln 2) */
static double noise(int k, double n)
{
	return (k - 1) / (2 * n * log(2));
}

START_TEST(test_cost_by_hand)
{
	const uint64_t a[] = { 10, 0 }, b[] = { 0, 10 }, mix[] = { 5, 5 };
	const uint64_t a20[] = { 20, 0 }, zero[] = { 0, 0 };

	/* disjoint: JS = 1 bit exactly */
	ck_assert_double_eq_tol(spaa_changepoint_cost(a, b, 2, 10, 10), 1 - noise(2, 20), EPS);
	/*
	 * (1, 0) against (.5, .5), equal weights: M = (.75, .25),
	 * JS = .5 log2(1/.75) + .5 (.5 log2(.5/.75) + .5 log2(.5/.25))
	 *    = .5 (0.4150375) + .5 (.5 (-0.5849625) + .5) = 0.3112781
	 */
	ck_assert_double_eq_tol(spaa_changepoint_cost(a, mix, 2, 10, 10),
				0.311278124459133 - noise(2, 20), EPS);
	/*
	 * Unequal weights 20 and 10: pa = 2/3, M = (2/3 + 1/6, 1/6) =
	 * (5/6, 1/6); JS = 2/3 log2(6/5) + 1/3 (.5 log2(3/5) + .5 log2(3))
	 *    = 2/3 (0.2630344) + 1/3 (-0.3684827 + 0.7924813) = 0.3166891
	 */
	ck_assert_double_eq_tol(spaa_changepoint_cost(a20, mix, 2, 20, 10),
				0.316689088315 - noise(2, 30), 1e-9);
	/* the same distribution: only noise, so below zero */
	ck_assert_double_eq_tol(spaa_changepoint_cost(mix, mix, 2, 10, 10), -noise(2, 20), EPS);
	/* a single label on both sides: k = 1, no noise term */
	ck_assert_double_eq_tol(spaa_changepoint_cost(a, a20, 2, 10, 20), 0, EPS);
	/* nothing to compare with: merges first */
	ck_assert(spaa_changepoint_cost(zero, a, 2, 0, 10) == -HUGE_VAL);
}
END_TEST

/* obs of a timeline given as one letter per bin: A, B, C (10 samples of
 * that label), M (5 of A and 5 of C), _ (empty). */
static size_t timeline(const char *s, struct spaa_changepoint_obs *o)
{
	size_t n = 0;

	for (uint32_t b = 0; s[b]; b++) {
		if (s[b] == 'M') {
			o[n++] = (struct spaa_changepoint_obs){ b, 0, 5, 5 };
			o[n++] = (struct spaa_changepoint_obs){ b, 2, 5, 5 };
		} else if (s[b] != '_') {
			o[n++] = (struct spaa_changepoint_obs){ b, (uint32_t)(s[b] - 'A'), 10, 10 };
		}
	}
	return n;
}

/* "first-last[i]" of each phase, e.g. "0-2 3-4 5-6i 7-8" */
static void describe(const struct spaa_changepoint_result *r, char *buf, size_t size)
{
	size_t at = 0;

	buf[0] = '\0';
	for (uint32_t i = 0; i < r->nphases && at < size; i++)
		at += (size_t)snprintf(buf + at, size - at, "%s%u-%u%s", i ? " " : "",
				       r->phases[i].first, r->phases[i].last,
				       r->phases[i].idle ? "i" : "");
}

static void check_segments(const char *tl, struct spaa_changepoint_opts o, const char *want)
{
	struct spaa_changepoint_obs obs[64];
	struct spaa_changepoint_result r;
	struct spaa_error err;
	size_t n = timeline(tl, obs);
	char got[256];

	ck_assert_int_eq(spaa_changepoint_segment(obs, n, (uint32_t)strlen(tl), &o, &r, &err), 0);
	describe(&r, got, sizeof(got));
	ck_assert_msg(!strcmp(got, want), "%s: got '%s', want '%s'", tl, got, want);
	spaa_changepoint_result_release(&r);
}

START_TEST(test_phases_known)
{
	struct spaa_changepoint_opts o = { .penalty = 0.05, .min_bins = 2, .idle_bins = 2 };

	check_segments("AAABB__MM", o, "0-2 3-4 5-6i 7-8");
	/* a one-bin gap is not idle: it joins the phase on its left */
	check_segments("AA_AA", o, "0-4");
	/* one bin of B among A is shorter than two bins: absorbed (left on ties) */
	check_segments("AABAA", o, "0-2 3-4");
	o.min_bins = 1;
	check_segments("AABAA", o, "0-1 2-2 3-4");
	/* penalty 1.0: even disjoint functions are one phase (idle stays) */
	o.penalty = 1.0;
	check_segments("AAABB__MM", o, "0-4 5-6i 7-8");
	/* at most two phases: A+B first, then idle joins its left neighbour */
	o.penalty = 0.05;
	o.max_phases = 2;
	check_segments("AAABB__MM", o, "0-6 7-8");
	o.max_phases = 1;
	check_segments("AAABB__MM", o, "0-8");
	/* a single phase */
	o.max_phases = 0;
	check_segments("MMMMMM", o, "0-5");
}
END_TEST

START_TEST(test_summaries)
{
	struct spaa_changepoint_opts o = { .penalty = 0.05, .min_bins = 2, .idle_bins = 2 };
	struct spaa_changepoint_obs obs[64];
	struct spaa_changepoint_result r;
	struct spaa_error err;
	size_t n = timeline("AAABB__MM", obs);

	ck_assert_int_eq(spaa_changepoint_segment(obs, n, 9, &o, &r, &err), 0);
	ck_assert_uint_eq(r.nphases, 4);
	ck_assert_uint_eq(r.phases[0].sum.samples, 30);
	ck_assert_uint_eq(r.phases[0].sum.top[0], 0);
	ck_assert_uint_eq(r.phases[0].sum.top[1], SPAA_CHANGEPOINT_NO_LABEL);
	ck_assert_uint_eq(r.phases[2].sum.samples, 0);
	ck_assert_uint_eq(r.phases[2].sum.top[0], SPAA_CHANGEPOINT_NO_LABEL);
	/* A and C tie at 10: the smaller label first */
	ck_assert_uint_eq(r.phases[3].sum.top[0], 0);
	ck_assert_uint_eq(r.phases[3].sum.top[1], 2);
	ck_assert_uint_eq(r.phases[3].sum.top_weight[1], 10);
	ck_assert_uint_eq(r.nbins, 9);
	ck_assert_uint_eq(r.bins[4].top[0], 1);
	ck_assert_uint_eq(r.bins[5].samples, 0);
	spaa_changepoint_result_release(&r);
}
END_TEST

START_TEST(test_order_independent)
{
	struct spaa_changepoint_opts o = { .penalty = 0.05, .min_bins = 2, .idle_bins = 2 };
	struct spaa_changepoint_obs obs[64], rev[64];
	struct spaa_changepoint_result r1, r2;
	struct spaa_error err;
	size_t n = timeline("AAMMBB__MMAAB", obs);

	for (size_t i = 0; i < n; i++)
		rev[i] = obs[n - 1 - i];
	ck_assert_int_eq(spaa_changepoint_segment(obs, n, 13, &o, &r1, &err), 0);
	ck_assert_int_eq(spaa_changepoint_segment(rev, n, 13, &o, &r2, &err), 0);
	ck_assert_uint_eq(r1.nphases, r2.nphases);
	ck_assert(!memcmp(r1.phases, r2.phases, r1.nphases * sizeof(*r1.phases)));
	spaa_changepoint_result_release(&r1);
	spaa_changepoint_result_release(&r2);
}
END_TEST

Suite *changepoint_suite(void)
{
	Suite *s = suite_create("changepoint");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_cost_by_hand);
	tcase_add_test(tc, test_phases_known);
	tcase_add_test(tc, test_summaries);
	tcase_add_test(tc, test_order_independent);
	suite_add_tcase(s, tc);
	return s;
}
