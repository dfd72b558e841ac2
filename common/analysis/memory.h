/*
 * memory - allocation accounting for memory profiles (SPAA spec section 9,
 * doc/SPAA.md).
 *
 * Who allocates, who frees, what is still live.  The unit of accounting
 * is a *site stack*: the stack of an allocation with its allocator
 * frames (malloc, operator new, je_*, ...) taken off the leaf, as a
 * sequence of functions ((name, DSO) pairs, not stack ids), in one
 * process.  The first function of that sequence is the allocation site.
 *
 *   - Records of `allocation` events add what they carry of the seven
 *     standard metrics (alloc_bytes, alloc_count, free_bytes, free_count,
 *     live_bytes, live_count, peak_bytes) to their site stack.  An event
 *     whose records lack alloc_bytes but whose primary metric is a size
 *     (unit "bytes") counts that metric as alloc_bytes.
 *   - Records of `deallocation` events add free_bytes (or their primary
 *     metric when it is a size) and free_count to the site stack with the
 *     same content once allocator frames are taken off: "free" and
 *     "malloc" are both allocator frames, so a free of memory allocated
 *     from parse() -> main() lands on parse's site stack whether the
 *     profiler recorded the allocating stack or the freeing one.
 *   - Derived metrics fill only what the profile does not say:
 *       live  = allocated - freed (at least 0: a stack may free memory
 *               allocated before the profile began), when every
 *               allocation record of the site stack lacks the native
 *               metric and frees are known (some free metric, a
 *               deallocation event, or tracks_frees true); else unknown;
 *       freed = 0 when frees are known but none was recorded;
 *       peak  is never derived: known only when every allocation record
 *               of the site stack carries peak_bytes (the sum of those).
 *     spaa_memory.native / .derived say, per metric, where the numbers came
 *     from, so a table title can say it.
 *
 * With a fold (struct spaa_fold, fold.h) the records are replaced by the sample
 * records inside a time range: each group of samples (stack, event, pid,
 * tid) stands for its stack record scaled by the share of that record's
 * samples in range, except the bytes of the event (alloc_bytes of an
 * allocation event, free_bytes of a deallocation event), which are the
 * sum of the samples' periods when every sample in range has one.  Peak
 * bytes cannot be cut in time and are unknown then.  A range covering
 * every sample gives the records' own sums.
 *
 * All sums are uint64; an overflow is an error (SPAA_E_LIMIT).
 *
 * Ownership: a struct spaa_memory owns its paths and groups and borrows its
 * profile (names only, once built); struct spaa_memory_skip owns its
 * compiled patterns.  Both _release functions free and zero; a zeroed
 * struct may be released.
 */
#ifndef SPAA_MEMORY_H
#define SPAA_MEMORY_H

#include <regex.h>
#include <stdbool.h>
#include <stdint.h>

#include "analysis/aggregate.h"
#include "analysis/timegrid.h"
#include "formats/load.h"
#include "model/error.h"
#include "model/map.h"
#include "model/profile.h"
#include "model/strtab.h"

/* ---- allocator frames ------------------------------------------------- */

/*
 * The default allocator-frame patterns: POSIX extended regexes matched
 * against function names (regexec: anywhere in the name unless anchored,
 * as these are).  NULL-terminated.  The man page lists them.
 */
extern const char *const spaa_memory_default_skip[];

struct spaa_memory_skip {
	regex_t *res;           /* owned, nr compiled patterns */
	size_t nr, alloc;
};

/*
 * Compiles the default patterns (when defaults) followed by the extra
 * ones (may be NULL with nextra 0).  A pattern that does not compile is
 * SPAA_E_USAGE naming it; s is then released.
 */
int spaa_memory_skip_init(struct spaa_memory_skip *s, bool defaults,
			const char *const *extra, size_t nextra,
			struct spaa_error *err);
void spaa_memory_skip_release(struct spaa_memory_skip *s);
bool spaa_memory_skip_match(const struct spaa_memory_skip *s, const char *name);

/* ---- accounting -------------------------------------------------------- */

enum spaa_memory_metric {
	SPAA_MEMORY_ALLOC_BYTES,
	SPAA_MEMORY_ALLOC_COUNT,
	SPAA_MEMORY_FREE_BYTES,
	SPAA_MEMORY_FREE_COUNT,
	SPAA_MEMORY_LIVE_BYTES,
	SPAA_MEMORY_LIVE_COUNT,
	SPAA_MEMORY_PEAK_BYTES,
	SPAA_MEMORY_NMETRICS
};

#define SPAA_MEMORY_BIT(m) (1u << (m))

/* "alloc_bytes", ... as spec 9.2 spells them. */
const char *spaa_memory_metric_name(enum spaa_memory_metric m);

/* One site stack in one process, after spaa_memory_build. */
struct spaa_memory_group {
	uint32_t path;          /* index into spaa_memory.paths */
	uint32_t site;          /* function index of the site */
	int64_t pid;            /* SPAA_NO_ID when unknown */
	uint64_t v[SPAA_MEMORY_NMETRICS];
	unsigned known;         /* SPAA_MEMORY_BIT(m) when v[m] is known */
};

struct spaa_memory {
	const struct spaa_profile *p;   /* weak */
	/*
	 * Site stacks as function-index sequences, root first, site last
	 * (as spaa_memory_path_name prints them); index 0 is the empty string
	 * and never a site stack.
	 */
	struct spaa_strtab paths;
	struct spaa_memory_group *groups; /* owned, ngroups of them */
	uint32_t ngroups;
	unsigned native;                /* metrics some group read from the profile */
	unsigned derived;               /* metrics some group derived */
	unsigned unknown;               /* metrics unknown in some group */
	bool frees_known;               /* the profile says what was freed */
	bool ranged;                    /* built from a fold */
	uint64_t records;               /* allocation/deallocation records used */
};

/*
 * Builds the site stacks of every allocation and deallocation record of
 * p (fold NULL) or of the folded samples in range, of the processes,
 * threads and commands filter keeps, whose site stacks pass its
 * --focus/--ignore (NULL: all; its time range is the fold's business).
 * p must be loaded and
 * outlive h; skip is only used during the call.  Of p, only the names
 * (functions, DSOs, strings, threads, events) are read after the call:
 * its stacks and records may then be released (spaa_profile_release_stacks),
 * and so may the fold.  h is initialized here; release it with
 * spaa_memory_release even after a failure.
 */
int spaa_memory_build(struct spaa_memory *h, const struct spaa_profile *p,
		    const struct spaa_memory_skip *skip,
		    const struct spaa_fold *fold, const struct spaa_filter *filter,
		    struct spaa_error *err);
void spaa_memory_release(struct spaa_memory *h);

/* "root;...;site" function names of path, malloc'ed; the caller owns it. */
char *spaa_memory_path_name(const struct spaa_memory *h, uint32_t path);

/* spaa_rank_sort_joined (rank.h) of the site stacks' call paths. */
void spaa_memory_rank_paths(const struct spaa_memory *h, struct spaa_rank *r, size_t n);

/* True when an event kind is allocation or deallocation. */
bool spaa_memory_event(const struct spaa_profile *p, uint32_t event);

/*
 * True when p has a stack record of an allocation or deallocation
 * event.  *seen (0 at first) counts the records already looked at, so
 * calls made while p loads (from a sample callback) look at each record
 * once, and every call after a true one is true at once.
 */
bool spaa_memory_has_records(const struct spaa_profile *p, uint32_t *seen);

/* ---- allocated bytes over time ---------------------------------------- */

/*
 * The bytes of allocation samples (a sample's bytes are its period, as in
 * the timeline table) over time per stack, and of deallocation samples
 * per bin, for spaa-allocs' picture: a
 * timegrid (timegrid.h) of at most max_bins bins of round widths, whose
 * origin is the file's time range's start (its first sample's time
 * without one), or --begin when later, keyed by
 * stack, so memory is bins x distinct stacks per bin, never the number
 * of samples, and at most SPAA_MEMORY_TIME_MAX_CELLS cells (the grid
 * coarsens past them).  Samples without a period count no bytes.
 *
 * Ownership: the grid is owned; spaa_memory_time_release frees and zeroes,
 * and a zeroed struct may be released.
 */
#define SPAA_MEMORY_TIME_MAX_CELLS (1u << 17)

struct spaa_memory_time {
	struct spaa_timegrid grid;
	bool started;
	uint32_t max_bins;
};

/* Starts an empty one of at most max_bins (>= 1) bins. */
void spaa_memory_time_init(struct spaa_memory_time *mt, uint32_t max_bins);
void spaa_memory_time_release(struct spaa_memory_time *mt);

/*
 * Adds s (a sample of an allocation or deallocation event, inside the
 * range: the caller checks) to mt; f gives the origin.  Fails like
 * spaa_timegrid_place/add.
 */
int spaa_memory_time_add(struct spaa_memory_time *mt, const struct spaa_profile *p,
			 const struct spaa_filter *f, const struct spaa_sample *s,
			 struct spaa_error *err);

/*
 * Hands fn every (bin, site function, bytes) of mt, bin counted from the
 * first bin in use (0 .. spaa_timegrid_nbins - 1): the bytes of the
 * stacks whose site (the first function that is not an allocator frame,
 * as spaa_memory_build finds it) is that function.  p's stacks must still
 * be loaded.  A site function may come several times per bin (once per
 * stack): fn sums.  Stops at, and returns, fn's first non-zero return.
 */
int spaa_memory_time_sites(const struct spaa_memory_time *mt,
			   const struct spaa_profile *p,
			   const struct spaa_memory_skip *skip,
			   int (*fn)(void *data, uint32_t bin, uint32_t site,
				     uint64_t bytes, struct spaa_error *err),
			   void *data, struct spaa_error *err);

/*
 * live[b] for each bin b from the first in use (spaa_timegrid_nbins of
 * them, none before the first sample): the bytes allocated minus freed
 * from the first bin to the end of b, never below 0 (a free of memory
 * allocated before the first bin stops at 0), saturated at UINT64_MAX.
 */
void spaa_memory_time_live(const struct spaa_memory_time *mt, uint64_t *live);

#endif
