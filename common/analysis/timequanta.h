/*
 * timequanta - sums of values over time, in bounded memory, binned at the end.
 *
 * Samples stream past before the time range of the profile is known
 * (a later file or sample may extend it), so they cannot be put in their
 * final bins as they arrive.  A timequanta keeps, per time quantum of 2^k
 * ns, the sums of a fixed number of uint64 values.  k starts at 0 (one
 * quantum per distinct nanosecond: exact) and grows by one, merging
 * neighbouring quanta, whenever more than max_quanta quanta are in use;
 * memory is therefore bounded by max_quanta, never by the number of
 * samples.
 *
 * Binning [begin, end] into n bins: width w = ceil((end - begin) / n)
 * (1 when end == begin), bin i covers [begin + i*w, begin + (i+1)*w),
 * the last one ends at end and includes it, and there are
 * ceil((end - begin) / w) bins (at least 1, at most n).  A quantum goes
 * to the bin of its start time (clamped into [begin, end]), so bins are
 * exact while k is 0 and otherwise off by less than one quantum at their
 * edges.  Callers add only times inside [begin, end] when they want the
 * bins to hold exactly the samples in range.
 */
/*
 * Not timegrid.h: that one decides its bins as the samples come, in round
 * widths, for spaa-phases; this one bins at the end, into equal bins of a
 * range the caller chooses then (spaa-allocs' --bins).
 *
 * Ownership: a timequanta owns its sums; spaa_timequanta_release frees and
 * zeroes it, and a zeroed one may be released.
 */
#ifndef SPAA_TIMEQUANTA_H
#define SPAA_TIMEQUANTA_H

#include <stddef.h>
#include <stdint.h>

#include "model/error.h"
#include "model/map.h"

#define SPAA_TIMEQUANTA_MAX_DEFAULT 65536u

struct spaa_timequanta {
	size_t nvalues;
	uint32_t max_quanta;
	unsigned shift;         /* quantum = 2^shift ns */
	struct spaa_map quanta; /* int64 quantum number (floor(time / 2^shift)) */
	uint64_t *sums;         /* owned; nvalues per quantum */
	size_t alloc;           /* quanta allocated in sums */
	uint64_t added;         /* calls to spaa_timequanta_add */
};

/* nvalues >= 1; max_quanta 0 = the default (at least 2 otherwise). */
void spaa_timequanta_init(struct spaa_timequanta *t, size_t nvalues,
			uint32_t max_quanta);
void spaa_timequanta_release(struct spaa_timequanta *t);

/*
 * Adds v[0..nvalues) at time; -1 (SPAA_E_LIMIT) if a sum would overflow,
 * after which the timequanta is fit only to be released.
 */
int spaa_timequanta_add(struct spaa_timequanta *t, int64_t time, const uint64_t *v,
		      struct spaa_error *err);

/* Width and number of the bins of [begin, end] (begin <= end) in n >= 1. */
uint64_t spaa_timequanta_bin_width(int64_t begin, int64_t end, size_t n);
size_t spaa_timequanta_nbins(int64_t begin, int64_t end, size_t n);

/*
 * Writes the sums of each bin: out[bin * nvalues + j], for
 * spaa_timequanta_nbins(begin, end, n) bins; out is zeroed here.
 * Returns -1 (SPAA_E_LIMIT) if a bin's sum would overflow.
 */
int spaa_timequanta_bins(const struct spaa_timequanta *t, int64_t begin,
		       int64_t end, size_t n, uint64_t *out,
		       struct spaa_error *err);

#endif
