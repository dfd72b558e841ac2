/*
 * compare - two profiles side by side: matching by content and the
 * arithmetic of their differences (spaa-diff).
 *
 * Two loaded profiles share no indices, and their ids (frame ids, stack
 * ids, DSO ids) mean nothing across files.  A key space (struct
 * spaa_compare_keys) gives both of them common dense indices:
 *   function key  (function name, DSO name): the same function in both
 *                 files whatever its frame ids, addresses or build id;
 *   path key      the root-to-leaf sequence of function keys of a stack,
 *                 so stacks match whatever their ids, id mode or frame
 *                 order.  Inlined frames are functions like any other.
 * DSO names of the baseline may be renamed first ("OLD=NEW" pairs, the
 * --dso-map option), for a program rebuilt under another path.
 *
 * A side (struct spaa_compare_side) is one profile's sums by those keys: self
 * and total weight per function, weight per path, allocated and live
 * bytes per allocating function.  Sums are exact uint64 raw units.
 *
 * Differences are computed in the unit of the metric's class (ns, bytes,
 * the counter's unit: metrics.h) as doubles.  With T and B the two sides'
 * totals, a row of baseline b and target t has
 *   raw delta         t - b, always;
 *   normalized delta  t - b * T / B: the baseline scaled to the target's
 *                     total, so that runs of different lengths compare
 *                     fairly (only when the comparison is normalized);
 *   share delta       t / T - b / B;
 *   relative change   the compared delta over the baseline it is taken
 *                     from (b, or b * T / B); none when b is 0.
 * --normalize chooses which delta ranks rows and is compared: share (a
 * time profile: runs of different lengths) or none (raw: allocation
 * snapshots, whose bytes are what they are, whatever the other side's
 * total).  auto picks by the event (spaa_compare_default).  total is
 * share, kept for the scripts of its time: the normalized delta is shown
 * either way.
 *
 * Ownership: keys, sides, sums and the reduced baseline own their tables
 * and strings; each _release frees and zeroes its struct, and a zeroed
 * struct may be released.  Names handed out are borrowed from the keys.
 * The keys borrow their dso_map items, which must outlive them.
 */
#ifndef SPAA_COMPARE_H
#define SPAA_COMPARE_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/aggregate.h"
#include "analysis/filter.h"
#include "analysis/weights.h"
#include "formats/load.h"
#include "model/error.h"
#include "model/metrics.h"
#include "model/profile.h"
#include "model/strtab.h"

struct spaa_compare_keys {
	struct spaa_strtab fns;         /* "name\0dso" */
	struct spaa_strtab paths;       /* function keys (uint32_t), root first */
	const char *const *dso_map;     /* weak: "OLD=NEW" items */
	size_t ndso_map;
};

void spaa_compare_keys_init(struct spaa_compare_keys *k,
			    const char *const *dso_map, size_t ndso_map);
void spaa_compare_keys_release(struct spaa_compare_keys *k);

/* Fails (SPAA_E_USAGE) unless every dso_map item is "OLD=NEW". */
int spaa_compare_dso_map_check(const char *const *dso_map, size_t n,
			       struct spaa_error *err);

/* Number of function / path keys so far (key 0 is never used). */
static inline uint32_t spaa_compare_nfunctions(const struct spaa_compare_keys *k)
{
	return k->fns.nr;
}

static inline uint32_t spaa_compare_npaths(const struct spaa_compare_keys *k)
{
	return k->paths.nr;
}

/* Borrowed name and DSO name of a function key, valid until release. */
const char *spaa_compare_function_name(const struct spaa_compare_keys *k, uint32_t key);
const char *spaa_compare_function_dso(const struct spaa_compare_keys *k, uint32_t key);

/* "root;...;leaf" function names of a path key; the caller frees it. */
char *spaa_compare_path_name(const struct spaa_compare_keys *k, uint32_t key);

/* Number of functions on a path key, and function key i (root first). */
uint32_t spaa_compare_path_len(const struct spaa_compare_keys *k, uint32_t key);
uint32_t spaa_compare_path_function(const struct spaa_compare_keys *k, uint32_t key,
				uint32_t i);

/* Sums indexed by key; keys past the end read as 0. */
struct spaa_compare_sums {
	uint64_t *v;            /* owned */
	size_t alloc;
};

static inline uint64_t spaa_compare_get(const struct spaa_compare_sums *s, uint32_t key)
{
	return key < s->alloc ? s->v[key] : 0;
}

struct spaa_compare_side {
	bool baseline;          /* the side whose DSOs dso_map renames */
	uint64_t total;         /* of the compared metric */
	bool samples_known;     /* every stack carried a sample count */
	uint64_t samples;
	struct spaa_compare_sums fn_self, fn_total, path;
	/* allocation events (spec 9): by the function of the self frame */
	bool has_alloc, has_live;
	struct spaa_compare_sums alloc, live;
};

void spaa_compare_side_init(struct spaa_compare_side *s, bool baseline);
void spaa_compare_side_release(struct spaa_compare_side *s);

/*
 * Adds an aggregate to the side under keys k: per function key, self and
 * total; per path key, weight.  a must have been built with
 * path_by_function set.  Fails only on overflow.
 */
int spaa_compare_side_add_agg(struct spaa_compare_side *s, struct spaa_compare_keys *k,
			  const struct spaa_aggregate *a, struct spaa_error *err);

/*
 * What spaa_compare_side_add_agg takes from an aggregate, kept without the
 * aggregate and its profile: functions are already function keys, paths
 * sequences of them but not path keys yet.  spaa_compare_side_take_sum gives
 * them their path keys, so that path keys are numbered in the order the
 * sides are added, not in the order their profiles were loaded.
 */
struct spaa_compare_sum {
	uint64_t total;
	bool samples_known;     /* every stack carried a sample count */
	uint64_t samples;
	struct spaa_compare_sums fn_self, fn_total; /* by function key */
	struct spaa_strtab paths;       /* function keys (uint32_t), root first */
	struct spaa_compare_sums path;      /* by index into paths */
};

void spaa_compare_sum_init(struct spaa_compare_sum *s);
void spaa_compare_sum_release(struct spaa_compare_sum *s);

/*
 * Sums a (built with path_by_function) into s under keys k, a baseline's
 * DSOs renamed by k's dso_map.  Fails only on overflow.
 */
int spaa_compare_sum_add_agg(struct spaa_compare_sum *s, struct spaa_compare_keys *k,
			 const struct spaa_aggregate *a, bool baseline,
			 struct spaa_error *err);

/*
 * Adds sum, summed under the same keys k, to the side and releases it,
 * failed or not: its paths are then path keys of k, which would be a
 * second copy of them.  Fails only on overflow.
 */
int spaa_compare_side_take_sum(struct spaa_compare_side *s, struct spaa_compare_keys *k,
			   struct spaa_compare_sum *sum, struct spaa_error *err);

/*
 * Adds alloc_bytes and live_bytes of every stack record of every
 * allocation event of p (spec 9), by the function of the self frame.
 * Sets has_alloc when p has an allocation event with alloc_bytes,
 * has_live when live_bytes were seen.  Records of the processes,
 * threads, commands and stacks filter leaves out are skipped (NULL:
 * none; its time range does not apply to records).
 */
int spaa_compare_side_add_allocs(struct spaa_compare_side *s, struct spaa_compare_keys *k,
			     const struct spaa_profile *p, const struct spaa_filter *filter,
			     struct spaa_error *err);

/*
 * Renamed binaries: a program built or installed under another name
 * (cwork -> cwork_hashslow) matches nothing, each of its call paths once
 * "new" and once "gone".  A DSO with weight on one side only whose
 * function names are mostly (more than half of either's, and at least
 * SPAA_COMPARE_PAIR_MIN) those of a DSO with weight on the other side
 * only is taken for the same program:
 * spaa_compare_pair_dsos pairs such DSOs, each at most once and the
 * pairs that share most names first, and with apply matches the
 * baseline's functions (sums, allocations and call paths) in a paired
 * DSO as the target DSO's, as --dso-map would.  The DSOs left unmatched
 * on both sides are listed too, for a hint.  Linear in the keys and the
 * names shared.
 *
 * Ownership: out owns its arrays (spaa_compare_dsos_release); the names
 * are borrowed from the keys.
 */
#define SPAA_COMPARE_PAIR_MIN 3

struct spaa_compare_dso_pair {
	const char *from, *to;          /* baseline's DSO, target's DSO */
	uint32_t common;                /* function names in both */
	uint32_t nfrom, nto;            /* function names of each */
};

struct spaa_compare_dsos {
	struct spaa_compare_dso_pair *pairs;
	size_t npairs;
	const char **only_base, **only_target;  /* unpaired, in key order */
	size_t nbase, ntarget;
};

int spaa_compare_pair_dsos(struct spaa_compare_keys *k, struct spaa_compare_side *b,
			   const struct spaa_compare_side *t, bool apply,
			   struct spaa_compare_dsos *out, struct spaa_error *err);
void spaa_compare_dsos_release(struct spaa_compare_dsos *d);

/*
 * A baseline profile reduced to what comparing it reads, so that its
 * model is released before the target's is loaded: two models would share
 * the peak of memory.  Which event is compared is known only with the
 * target (by default the baseline's first event the target also has), so
 * the reduction holds a choice for each event that can be asked for: the
 * one named by --event, or else every event of the baseline.
 */
struct spaa_compare_choice {
	/* the event's name as asked for; NULL: the profile declares no events */
	char *event;                    /* owned */
	/*
	 * spaa_weights_select failed for it: err says why, naming no file
	 * (weights.c's messages do not say which side they are about), and
	 * nothing below is set.
	 */
	bool unselectable;
	char *metric;                   /* owned: the metric's name */
	bool primary;                   /* metric is the event's primary metric */
	struct spaa_metrics_sem sem;
	struct spaa_weights_left_out left_out;  /* the other events' records and samples */
	bool overflows;                 /* a sum overflows: err says so */
	struct spaa_compare_sum sum;        /* under the function keys of k, until taken */
	struct spaa_error err;
};

struct spaa_compare_base {
	char **events;                  /* owned: the event names, in order */
	uint32_t nevents;
	struct spaa_compare_choice *choices;        /* owned */
	uint32_t nchoices;
};

/*
 * Reduces p for event (NULL: for each of its events) and metric (NULL:
 * each event's primary metric), as spaa_weights_select resolves them.
 * Functions get their keys in k (DSOs renamed by its dso_map), in the
 * order spaa_compare_side_add_agg of p would give them.  Nothing fails here:
 * a choice that cannot be compared says why, for the run that chooses it.
 * Only the records filter keeps are summed (spaa_aggregate_add_records;
 * NULL: all); filter is read only during the call.
 */
void spaa_compare_base_init(struct spaa_compare_base *b, struct spaa_compare_keys *k,
			const struct spaa_profile *p, const char *event,
			const char *metric, const struct spaa_filter *filter);
void spaa_compare_base_release(struct spaa_compare_base *b);

/*
 * The choice for event, borrowed (its sum may be taken): NULL asks for
 * the first event, as spaa_weights_select does; event must be NULL, the
 * event b was reduced for or one of b's events.
 */
struct spaa_compare_choice *spaa_compare_base_choice(struct spaa_compare_base *b,
					     const char *event);

/* "'a', 'b'": the event names of b, for messages, in buf. */
const char *spaa_compare_base_event_list(const struct spaa_compare_base *b, char *buf,
				     size_t size);

enum spaa_compare_normalize {
	SPAA_COMPARE_AUTO,      /* spaa_compare_default */
	SPAA_COMPARE_SHARE,
	SPAA_COMPARE_TOTAL,     /* as share */
	SPAA_COMPARE_NONE,
};

/*
 * The comparison that suits an event of kind: raw for allocation events
 * (a heap that doubled did double), shares for everything else (time
 * profiles whose lengths differ).
 */
enum spaa_compare_normalize spaa_compare_default(enum spaa_event_kind kind);

/* The comparison of one metric between a baseline and a target. */
struct spaa_compare {
	enum spaa_compare_normalize mode;       /* SHARE or NONE */
	struct spaa_metrics_sem bsem, tsem;      /* same class and unit */
	uint64_t btotal, ttotal;                /* raw, both non-zero */
	double scale;           /* b' = b * scale, in class units */
};

/*
 * Sets up c (resolve AUTO first, spaa_compare_default; TOTAL and AUTO
 * become SHARE).  Fails with SPAA_E_USAGE when the metric means different
 * things on the two sides (a duration here, a size there), with
 * SPAA_E_NO_DATA when a side has no weight for it.
 */
int spaa_compare_init(struct spaa_compare *c, enum spaa_compare_normalize mode,
		  const struct spaa_metrics_sem *bsem, uint64_t btotal,
		  const struct spaa_metrics_sem *tsem, uint64_t ttotal,
		  struct spaa_error *err);

struct spaa_compare_delta {
	double base, target;    /* as measured, class units */
	double raw;             /* target - base */
	double normalized;      /* target - base * T / B */
	double delta;           /* the compared one: normalized or raw */
	double bshare, tshare, share_delta;
	double relative;        /* delta over its baseline; NAN when b is 0 */
};

/* The row of raw sums b (baseline) and t (target). */
void spaa_compare_compute(const struct spaa_compare *c, uint64_t b, uint64_t t,
		      struct spaa_compare_delta *d);

/*
 * Ranking rows: |delta| descending, then |share delta| descending, then
 * target descending, then name, then name2 ascending (NULL as "").
 */
struct spaa_compare_rank {
	double key, key2, key3;
	const char *name, *name2;
	uint32_t idx;
};

void spaa_compare_rank_sort(struct spaa_compare_rank *r, size_t n);

/*
 * Sorts rows of path keys (r[i].idx) alike, the name being the path's
 * (spaa_compare_path_name) and name2 none, but compares the names where they
 * are, without making them: a comparison of many call paths need not hold
 * all their names at once.  r[i].name and name2 are not read.
 */
void spaa_compare_rank_paths(const struct spaa_compare_keys *k, struct spaa_compare_rank *r,
			 size_t n);

/*
 * spaa_load for side part (0 or 1) of nparts: the caller's progress
 * callback sees one bar over all parts, each part a 1/nparts slice.
 */
int spaa_compare_load(struct spaa_profile *p, const char *path, unsigned part,
		  unsigned nparts, const struct spaa_load_opts *opts,
		  struct spaa_error *err);

#endif
