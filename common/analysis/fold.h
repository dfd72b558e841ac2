/*
 * fold - sample records folded as they stream past: grouped by (stack,
 * event, period metric, pid, tid, cpu), each group counting its samples
 * over the whole run and within a time range, and summing the periods of
 * those in range.  Memory grows with the groups, never with the samples.
 * aggregate.h turns the groups into weights (spaa_aggregate_add_fold).
 *
 * Ownership: spaa_fold_init makes an empty fold (nothing allocated);
 * the fold owns its arrays; spaa_fold_release frees them and zeroes the
 * struct, so a zeroed or released fold may be released again.
 */
#ifndef SPAA_FOLD_H
#define SPAA_FOLD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/filter.h"
#include "formats/load.h"
#include "model/error.h"
#include "model/profile.h"
#include "model/util.h"

/* What a group of samples shares. */
struct spaa_fold_key {
	uint32_t stack, event;
	uint32_t period_metric; /* what the period measures, 0 = "period" */
	int64_t pid, tid, cpu;
};

/*
 * The sums of one group, beside its key: 64 bytes, allocated on 64-byte
 * boundaries, so a sample touches one cache line of groups.
 */
struct spaa_fold_group {
	struct spaa_fold_key key;
	uint64_t count;         /* samples */
	uint64_t in_count;      /* samples in range */
	uint64_t in_period;     /* sum of their periods */
};

/*
 * The first groups of a stack with a hash of their keys (tag), so that
 * finding a sample's group reads no other group: a stack has one or a
 * few groups (its thread, the CPUs it ran on, times its events: four in
 * make bench's mixed shape, where a chain of two cost 2.5 times the
 * folding of the plain one).  32 bytes, two to a cache line.
 */
#define SPAA_FOLD_HEAD_GROUPS 4

struct spaa_fold_head {
	uint32_t g[SPAA_FOLD_HEAD_GROUPS];      /* group indices, or SPAA_NONE */
	uint32_t tag[SPAA_FOLD_HEAD_GROUPS];
};

struct spaa_fold {
	/*
	 * Weak: its time range is what counts as "in range", read at each
	 * sample, since a range from the profile's start becomes absolute
	 * only at the first one (filter.h).
	 */
	const struct spaa_filter *range;
	/*
	 * Groups in order of first appearance.  Found through head[stack],
	 * then the chain of next from its last group, not a hash table:
	 * every sample record looks its group up.
	 */
	struct spaa_fold_group *groups;         /* owned, 64-byte aligned */
	uint32_t nkeys;
	size_t alloc;
	bool *all_period;       /* by group: every sample in range has a period */
	uint32_t *next;         /* by group: next of its stack after head's, or SPAA_NONE */
	struct spaa_fold_head *head;    /* owned, 64-byte aligned; by stack index */
	size_t heads_alloc;
	uint64_t in_samples;    /* samples in range */
};

/*
 * An empty fold counting the samples in filter's time range (NULL: all;
 * else filter must outlive the fold).
 */
void spaa_fold_init(struct spaa_fold *f, const struct spaa_filter *filter);
void spaa_fold_release(struct spaa_fold *f);
int spaa_fold_add(struct spaa_fold *f, const struct spaa_sample *s,
		  struct spaa_error *err);

/*
 * Prefetches what spaa_fold_add of a sample of stack reads (a load_opts
 * on_sample_soon): the stack's head, when near its groups.
 */
void spaa_fold_prefetch(void *fold, uint32_t stack, bool near);

/* The key of sample group i (0 <= i < f->nkeys); borrowed. */
static inline const struct spaa_fold_key *spaa_fold_key(const struct spaa_fold *f,
							uint32_t i)
{
	return &f->groups[i].key;
}

/*
 * The stack record a sample group stands for: same stack and event, not
 * absorbed, and the same thread where both say which; else any record of
 * that stack and event; SPAA_NONE when there is none.
 */
uint32_t spaa_fold_record(const struct spaa_profile *p,
			  const struct spaa_fold_key *k);

/*
 * What the groups of a fold stand for among the stack records: the
 * record of each group (spaa_fold_record, SPAA_NONE when none) and each
 * record's samples over the whole run, the denominator when a record's
 * weights are shared out to the samples in range.  Owned arrays, freed
 * by spaa_fold_records_release.
 */
struct spaa_fold_records {
	uint32_t *of;           /* by group: its record, or SPAA_NONE */
	uint64_t *samples;      /* by record: samples of all its groups */
};

void spaa_fold_records_init(struct spaa_fold_records *r, const struct spaa_fold *f,
			    const struct spaa_profile *p);
void spaa_fold_records_release(struct spaa_fold_records *r);

/*
 * The part of v, a weight of group i's record, that the group's samples
 * in range stand for, rounded to nearest (the group must have a record).
 */
static inline uint64_t spaa_fold_records_share(const struct spaa_fold_records *r,
					       const struct spaa_fold *f,
					       uint32_t i, uint64_t v)
{
	return spaa_share_of(v, f->groups[i].in_count, r->samples[r->of[i]]);
}

/*
 * An spaa_load_opts.on_sample callback (data: the fold): spaa_fold_add.
 */
int spaa_fold_on_sample(void *fold, const struct spaa_profile *p,
			const struct spaa_sample *s, struct spaa_error *err);

#endif
