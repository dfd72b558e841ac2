/*
 * changepoint - splits a binned timeline into phases where the
 * distribution of weight over labels (functions) changes.
 *
 * Input: observations (bin, label, weight, samples) over bins 0..nbins-1,
 * in any order, duplicates summed.  Output: phases, each a run of whole
 * bins, in time order, covering every bin, and a summary (samples,
 * weight, two heaviest labels) of every phase and every bin.
 *
 * Method: deterministic bottom-up merging.  Every bin starts as its own
 * segment, except that a run of at least idle_bins empty bins is one
 * idle segment.  The cost of merging two adjacent segments a and b is
 * the weighted Jensen-Shannon divergence of their distributions, in bits:
 *
 *     JS = H(M) - pa H(Pa) - pb H(Pb),   pa = Wa / (Wa + Wb), pb = 1 - pa,
 *     M = pa Pa + pb Pb,
 *
 * which is exactly the information lost by describing both with one
 * distribution (0: same mix of functions, 1: disjoint functions), minus
 * the value sampling noise alone gives on average, (k - 1) / (2 N ln 2)
 * with k the labels of both and N their samples (2 N JS ln 2 is the
 * G statistic of the 2 x k table, about chi-square with k - 1 degrees of
 * freedom when both come from one distribution).  Then:
 *   1. while the cheapest adjacent pair of non-idle segments costs less
 *      than penalty, merge it (a segment without samples merges first);
 *   2. while a non-idle segment is shorter than min_bins and has a
 *      non-idle neighbour, merge the shortest such segment into its
 *      cheaper neighbour;
 *   3. while there are more than max_phases segments, merge the cheapest
 *      pair, idle segments last (the result is then not idle).
 * Ties go to the leftmost pair, so the same input gives the same phases.
 * Each step scans the segments: O(bins^2 x labels) at worst, meant for a
 * few thousand bins.
 *
 * Ownership: a result owns its phases and bins; spaa_changepoint_result_release
 * frees and zeroes it, and a zeroed result may be released.
 */
#ifndef SPAA_CHANGEPOINT_H
#define SPAA_CHANGEPOINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/error.h"

#define SPAA_CHANGEPOINT_NO_LABEL UINT32_MAX

struct spaa_changepoint_obs {
	uint32_t bin;
	uint32_t label;
	uint64_t weight;
	uint64_t samples;
};

struct spaa_changepoint_opts {
	double penalty;         /* bits; 0.05 is a sensible default */
	uint32_t min_bins;      /* shortest non-idle phase; 0 or 1: no minimum */
	uint32_t idle_bins;     /* empty bins that make an idle phase; >= 1 */
	uint32_t max_phases;    /* 0: no maximum */
};

/* Samples, weight and the two heaviest labels (ties: smaller label). */
struct spaa_changepoint_summary {
	uint64_t samples, weight;
	uint32_t top[2];        /* SPAA_CHANGEPOINT_NO_LABEL when absent */
	uint64_t top_weight[2];
	uint32_t nlabels;       /* labels with weight or samples */
};

struct spaa_changepoint_phase {
	uint32_t first, last;   /* bins, inclusive */
	bool idle;              /* no samples at all */
	struct spaa_changepoint_summary sum;
};

struct spaa_changepoint_result {
	struct spaa_changepoint_phase *phases;   /* owned, time order */
	uint32_t nphases;
	struct spaa_changepoint_summary *bins;   /* owned, nbins of them */
	uint32_t nbins;
};

/*
 * Segments nbins bins (>= 1) from obs (every bin < nbins, asserted) into
 * res, which the caller releases with spaa_changepoint_result_release (also after
 * a failure).  Fails (SPAA_E_LIMIT) only if a sum overflows 64 bits.
 */
int spaa_changepoint_segment(const struct spaa_changepoint_obs *obs, size_t nobs, uint32_t nbins,
		    const struct spaa_changepoint_opts *opts, struct spaa_changepoint_result *res,
		    struct spaa_error *err);
void spaa_changepoint_result_release(struct spaa_changepoint_result *res);

/*
 * The merge cost above for two distributions given as weights over the
 * same n labels (zeros allowed), with their sample counts; exposed for
 * tests.  -HUGE_VAL when either side has no weight.
 */
double spaa_changepoint_cost(const uint64_t *wa, const uint64_t *wb, size_t n,
		    uint64_t samples_a, uint64_t samples_b);

#endif
