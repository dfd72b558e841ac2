/*
 * timegrid - sums of a sample stream in time bins of one width, with
 * memory bounded by a bin count, whatever the number of samples.
 *
 * Bin b covers [origin + b*width, origin + (b+1)*width) ns; b may be
 * negative, because samples need not arrive in time order.  Beside the
 * grid, a timegrid holds one or more series: tables of (bin, key) -> sums
 * (count, weight), where the key is whatever the caller groups by within
 * a bin (a stack index, a (pid, tid) pair, a CPU).  All series share the
 * grid, so a sample is placed once and added to each series.
 *
 * Bounded memory: when the bins in use (lowest to highest holding data)
 * would exceed max_bins, the grid coarsens: the width grows to the next
 * round width that is a multiple of it (1, 2, 5 x 10^k ns: 1us, 2us,
 * 10us, 20us, 100us, ...) and the cells of each group of old bins merge.
 * So a stream whose span is unknown up front (no time range in the
 * header) starts fine and ends with at most max_bins bins.  A fixed grid
 * (a width the user chose) never coarsens and fails instead.
 *
 * Memory is (bins in use) x (distinct keys per bin) cells per series,
 * never proportional to the number of samples; with max_cells set, the
 * grid also coarsens when the cells would exceed it, so memory stays
 * under a fixed bound however many distinct keys each bin holds.
 */
/*
 * Why two time modules: timegrid decides its bins while the samples
 * stream (round widths, keyed series, coarsened as needed) and is what
 * spaa-phases cuts into phases; timequanta (timequanta.h) keeps exact
 * sums per quantum and cuts them into N equal bins of a range known only
 * at the end, what spaa-allocs' timeline shows.
 *
 * Ownership: a grid owns its series; spaa_timegrid_release frees and zeroes
 * it, and a zeroed grid may be released.  Cell keys it hands out are
 * borrowed until the next place, add or coarsening.
 */
#ifndef SPAA_TIMEGRID_H
#define SPAA_TIMEGRID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/error.h"
#include "model/map.h"

struct spaa_timegrid_sum {
	uint64_t count;         /* samples */
	uint64_t weight;        /* sum of the weights given to spaa_timegrid_add */
};

/* A cell recently added to, for keys of up to SPAA_TIMEGRID_CACHED bytes. */
#define SPAA_TIMEGRID_CACHED 24
struct spaa_timegrid_cached {
	uint64_t key[SPAA_TIMEGRID_CACHED / 8];  /* bin, the caller's key, zeros */
	uint32_t cell;          /* index + 1; 0: empty */
};

struct spaa_timegrid_series {
	size_t keybytes;        /* caller's key size */
	size_t keysize;         /* keybytes rounded up to 8 (zero padding) */
	struct spaa_map cells;  /* key: int64_t bin, then the caller's key */
	struct spaa_timegrid_sum *sums;  /* owned, by cell index */
	size_t alloc;
	unsigned char *scratch; /* owned, one cell key */
	/*
	 * Samples come in time order, so a bin's cells are added to again
	 * and again while it lasts: a direct-mapped cache of them saves the
	 * hash table's lookup, two cache misses in a table of many cells.
	 * NULL when the keys are longer than SPAA_TIMEGRID_CACHED.
	 */
	struct spaa_timegrid_cached *cache;      /* owned */
};

struct spaa_timegrid {
	int64_t origin, width;  /* ns; width >= 1 */
	bool fixed;             /* never coarsen: fail past max_bins */
	uint32_t max_bins;
	/*
	 * Bound on the cells of all series together, kept by
	 * spaa_timegrid_limit_cells (0: none).  Set by the caller after init.
	 */
	uint32_t max_cells;
	bool any;               /* some sample was placed */
	int64_t lo, hi;         /* lowest and highest bin placed */
	unsigned coarsenings;   /* how often the grid coarsened */
	struct spaa_timegrid_series *series;     /* owned */
	size_t nseries;
};

/*
 * Starts an empty grid and nseries series; keysizes[i] is the size of
 * the keys of series i (callers zero any padding in their key structs,
 * as for spaa_map).  width >= 1 and max_bins >= 1 (asserted).
 */
void spaa_timegrid_init(struct spaa_timegrid *tb, int64_t origin, int64_t width,
		       bool fixed, uint32_t max_bins, const size_t *keysizes,
		       size_t nseries);
void spaa_timegrid_release(struct spaa_timegrid *tb);

/*
 * The bin of time t in the grid, coarsening it first if t would put more
 * than max_bins bins in use.  Fails (SPAA_E_LIMIT) when the grid is fixed
 * and t is too far from the other samples, or when t is so far from the
 * origin that the bin does not fit 64 bits.  The bin stays valid until
 * the next call.
 */
int spaa_timegrid_place(struct spaa_timegrid *tb, int64_t t, int64_t *bin,
		       struct spaa_error *err);

/*
 * Adds count and weight to the cell (bin, key) of series s; bin comes
 * from the last spaa_timegrid_place.  Fails (SPAA_E_LIMIT) on overflow.
 */
int spaa_timegrid_add(struct spaa_timegrid *tb, size_t s, int64_t bin,
		     const void *key, uint64_t count, uint64_t weight,
		     struct spaa_error *err);

/*
 * Coarsens the grid (as spaa_timegrid_place does) until the cells of all
 * series number at most max_cells; nothing when max_cells is 0 or the
 * grid is fixed.  Bins from spaa_timegrid_place are stale afterwards, so
 * call it after the adds of a sample.  Fails like spaa_timegrid_coarsen.
 */
int spaa_timegrid_limit_cells(struct spaa_timegrid *tb, struct spaa_error *err);

/*
 * Multiplies the width by factor (>= 1), merging the cells of each
 * group of factor bins.  Fails (SPAA_E_LIMIT) if the width overflows.
 */
int spaa_timegrid_coarsen(struct spaa_timegrid *tb, int64_t factor,
			 struct spaa_error *err);

/* The smallest width in {1, 2, 5} x 10^k ns that is >= at_least (>= 1)
 * and a multiple of multiple_of (>= 1); at_least rounded up to a
 * multiple when no round width up to 5e18 fits. */
int64_t spaa_timegrid_round_width(int64_t at_least, int64_t multiple_of);

/* Bins from lo to hi inclusive (0 before the first sample). */
uint64_t spaa_timegrid_nbins(const struct spaa_timegrid *tb);

/* Start and inclusive end of bin b in ns, saturated to int64. */
int64_t spaa_timegrid_start(const struct spaa_timegrid *tb, int64_t b);
int64_t spaa_timegrid_end(const struct spaa_timegrid *tb, int64_t b);

/* Number of cells of series s. */
static inline uint32_t spaa_timegrid_ncells(const struct spaa_timegrid *tb, size_t s)
{
	return tb->series[s].cells.nr;
}

/*
 * Cell i of series s: its bin, its key (borrowed, 8-byte aligned, valid
 * until the next place/add/coarsen) and its sums.
 */
const void *spaa_timegrid_cell(const struct spaa_timegrid *tb, size_t s,
			      uint32_t i, int64_t *bin,
			      struct spaa_timegrid_sum *sum);

#endif
