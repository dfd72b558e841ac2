#include <stdlib.h>
#include <string.h>

#include "analysis/fold.h"
#include "model/util.h"

/* A fold key without padding bytes (map.h compares keys with memcmp). */
struct packed_key {
	uint32_t stack, event, period_metric, pad;
	int64_t pid, tid, cpu;
};

static struct packed_key packed(const struct spaa_fold_key *k)
{
	return (struct packed_key){
		k->stack, k->event, k->period_metric, 0, k->pid, k->tid, k->cpu,
	};
}

void spaa_fold_init(struct spaa_fold *f, const struct spaa_filter *filter)
{
	static const struct spaa_filter everything = {
		.begin = INT64_MIN, .end = INT64_MAX,
		.pid = SPAA_NO_ID, .tid = SPAA_NO_ID,
	};

	memset(f, 0, sizeof(*f));
	f->range = filter ? filter : &everything;
	spaa_map_init(&f->more, sizeof(struct packed_key));
}

void spaa_fold_release(struct spaa_fold *f)
{
	free(f->groups);
	free(f->all_period);
	free(f->head);
	spaa_map_release(&f->more);
	free(f->more_group);
	memset(f, 0, sizeof(*f));
}

_Static_assert(sizeof(struct spaa_fold_group) == 64,
	       "a fold group fills one cache line");

static bool fold_key_eq(const struct spaa_fold_key *a, const struct spaa_fold_key *b)
{
	return a->event == b->event && a->period_metric == b->period_metric &&
	       a->pid == b->pid && a->tid == b->tid && a->cpu == b->cpu;
}

/* A hash of the key without its stack (the head is the stack's). */
static uint32_t fold_tag(const struct spaa_fold_key *k)
{
	uint64_t h = (uint64_t)k->pid * 0x9e3779b97f4a7c15ULL ^
		     (uint64_t)k->tid * 0xc2b2ae3d27d4eb4fULL ^
		     (uint64_t)k->cpu * 0x165667b19e3779f9ULL ^
		     ((uint64_t)k->event << 32 | k->period_metric) * 0xd6e8feb86659fd93ULL;

	return (uint32_t)(h >> 32);
}

/* Room for one more group: doubled, copied, as realloc cannot align. */
static void fold_grow(struct spaa_fold *f)
{
	size_t n = f->alloc ? f->alloc * 2 : 256;
	struct spaa_fold_group *g = spaa_xaligned_alloc(64, n * sizeof(*g));

	if (f->nkeys)
		memcpy(g, f->groups, f->nkeys * sizeof(*g));
	free(f->groups);
	f->groups = g;
	f->all_period = spaa_xrealloc(f->all_period, n * sizeof(*f->all_period));
	f->alloc = n;
}

/* Heads for stacks up to stack: doubled, copied, as realloc cannot align. */
static void heads_grow(struct spaa_fold *f, uint32_t stack)
{
	size_t n = f->heads_alloc ? f->heads_alloc : 256;
	struct spaa_fold_head *h;

	while (n <= stack)
		n *= 2;
	h = spaa_xaligned_alloc(64, n * sizeof(*h));
	if (f->heads_alloc)
		memcpy(h, f->head, f->heads_alloc * sizeof(*h));
	for (size_t j = f->heads_alloc; j < n; j++)
		for (int x = 0; x < SPAA_FOLD_HEAD_GROUPS; x++)
			h[j].g[x] = SPAA_NONE, h[j].tag[x] = 0;
	free(f->head);
	f->head = h;
	f->heads_alloc = n;
}

/* The group of key k, created (with zero sums) on first sight. */
static uint32_t fold_group(struct spaa_fold *f, const struct spaa_fold_key *k)
{
	struct spaa_fold_head *h;
	uint32_t tag = fold_tag(k), i, m = SPAA_NONE;
	struct packed_key pk;
	bool created;
	int x;

	if (k->stack >= f->heads_alloc)
		heads_grow(f, k->stack);
	h = &f->head[k->stack];
	for (x = 0; x < SPAA_FOLD_HEAD_GROUPS && h->g[x] != SPAA_NONE; x++)
		if (h->tag[x] == tag && fold_key_eq(&f->groups[h->g[x]].key, k))
			return h->g[x];
	if (x == SPAA_FOLD_HEAD_GROUPS) {
		pk = packed(k);
		m = spaa_map_intern(&f->more, &pk, &created);
		if (!created)
			return f->more_group[m];
	}
	if (f->nkeys == f->alloc)
		fold_grow(f);
	i = f->nkeys++;
	f->groups[i] = (struct spaa_fold_group){ .key = *k };
	f->all_period[i] = true;
	if (x < SPAA_FOLD_HEAD_GROUPS) {
		h->g[x] = i;
		h->tag[x] = tag;
	} else {
		SPAA_ALLOC_GROW(f->more_group, (size_t)m + 1, f->more_alloc);
		f->more_group[m] = i;
	}
	return i;
}

void spaa_fold_prefetch(void *fold, uint32_t stack, bool near)
{
	const struct spaa_fold *f = fold;
	const struct spaa_fold_head *h;

	if (stack >= f->heads_alloc)
		return;
	/* fold_group's reads: the head, then the groups it names */
	h = &f->head[stack];
	if (!near) {
		__builtin_prefetch(h);
		return;
	}
	for (int x = 0; x < SPAA_FOLD_HEAD_GROUPS && h->g[x] != SPAA_NONE; x++)
		__builtin_prefetch(&f->groups[h->g[x]], 1);
}

int spaa_fold_add(struct spaa_fold *f, const struct spaa_sample *s,
		  struct spaa_error *err)
{
	struct spaa_fold_key k = {
		.stack = s->stack, .event = s->event, .period_metric = s->period_metric,
		.pid = s->pid, .tid = s->tid, .cpu = s->cpu,
	};
	uint32_t i = fold_group(f, &k);      /* may move groups */
	struct spaa_fold_group *g = &f->groups[i];

	g->count++;
	if (!spaa_filter_time(f->range, s->time))
		return 0;
	f->in_samples++;
	g->in_count++;
	if (!s->has_period)
		f->all_period[i] = false;
	else if (spaa_add_u64(g->in_period, s->period, &g->in_period))
		return spaa_error_set(err, SPAA_E_LIMIT, "a sum of weights overflows 64 bits");
	return 0;
}

uint32_t spaa_fold_record(const struct spaa_profile *p,
			  const struct spaa_fold_key *k)
{
	uint32_t any = SPAA_NONE;

	for (uint32_t r = p->stacks[k->stack].first_record; r != SPAA_NONE;
	     r = p->records[r].next_same_stack) {
		const struct spaa_record *rec = &p->records[r];

		if (rec->event != k->event || rec->absorbed)
			continue;
		if ((rec->pid == k->pid || rec->pid == SPAA_NO_ID || k->pid == SPAA_NO_ID) &&
		    (rec->tid == k->tid || rec->tid == SPAA_NO_ID || k->tid == SPAA_NO_ID))
			return r;
		if (any == SPAA_NONE)
			any = r;
	}
	return any;
}

int spaa_fold_on_sample(void *fold, const struct spaa_profile *p,
			const struct spaa_sample *s, struct spaa_error *err)
{
	(void)p;
	return spaa_fold_add(fold, s, err);
}

/*
 * The records of a stack, found without walking its list for each group:
 * a stack of 2,000 processes' records has a group for each of them.
 * Entry (stack, event, pid, tid) is the first record in list order of
 * that thread, entry (stack, event, any) the first of any thread.
 *
 * Only stacks of more than INDEX_MIN_RECORDS records are indexed.  Most
 * stacks have one record per event, and walking a list that short is
 * cheaper than two map entries per record and four look-ups per group
 * (on make bench's profile, 50,000 one-record stacks, the index was 8 %
 * of spaa-hotspots' CPU time); the walk finds the same record.
 */
#define INDEX_MIN_RECORDS 8

struct record_index {
	struct spaa_map first;          /* struct record_key -> rec */
	uint32_t *rec;                  /* by entry */
	size_t alloc;
	uint32_t *pos;                  /* by record: its place in its stack's list */
	bool *indexed;                  /* by stack; NULL: none is */
};

struct record_key {
	uint32_t stack, event, any, pad;
	int64_t pid, tid;
};

static uint32_t index_find(const struct record_index *x, struct record_key k)
{
	uint32_t m = spaa_map_find(&x->first, &k);

	return m == SPAA_NONE ? SPAA_NONE : x->rec[m];
}

static void index_add(struct record_index *x, struct record_key k, uint32_t rec)
{
	bool created;
	uint32_t m = spaa_map_intern(&x->first, &k, &created);

	if (created) {
		SPAA_ALLOC_GROW(x->rec, (size_t)m + 1, x->alloc);
		x->rec[m] = rec;
	}
}

static void index_build(struct record_index *x, const struct spaa_profile *p)
{
	spaa_map_init(&x->first, sizeof(struct record_key));
	x->rec = NULL;
	x->alloc = 0;
	x->pos = NULL;
	x->indexed = NULL;
	for (uint32_t s = 0; s < p->nstacks; s++) {
		uint32_t n = 0, r;

		for (r = p->stacks[s].first_record; r != SPAA_NONE && n <= INDEX_MIN_RECORDS;
		     r = p->records[r].next_same_stack)
			n++;
		if (n <= INDEX_MIN_RECORDS)
			continue;
		if (!x->indexed) {
			x->indexed = spaa_xcalloc(p->nstacks, sizeof(*x->indexed));
			x->pos = spaa_xmalloc(((size_t)p->nrecords + 1) * sizeof(*x->pos));
		}
		x->indexed[s] = true;
		n = 0;
		for (r = p->stacks[s].first_record; r != SPAA_NONE;
		     r = p->records[r].next_same_stack) {
			const struct spaa_record *rec = &p->records[r];

			x->pos[r] = n++;
			if (rec->absorbed)
				continue;
			index_add(x, (struct record_key){ s, rec->event, 0, 0, rec->pid, rec->tid }, r);
			index_add(x, (struct record_key){ s, rec->event, 1, 0, 0, 0 }, r);
		}
	}
}

/*
 * spaa_fold_record through the index: of the records whose pid and tid
 * are the group's or absent, the first in list order.  A group without
 * pid or tid matches every record on it: the list is walked.
 */
static uint32_t index_record(const struct record_index *x, const struct spaa_profile *p,
			     const struct spaa_fold_key *k)
{
	const int64_t pids[2] = { k->pid, SPAA_NO_ID }, tids[2] = { k->tid, SPAA_NO_ID };
	uint32_t best = SPAA_NONE;

	if (k->pid == SPAA_NO_ID || k->tid == SPAA_NO_ID || !x->indexed ||
	    !x->indexed[k->stack])
		return spaa_fold_record(p, k);
	for (int i = 0; i < 2; i++)
		for (int j = 0; j < 2; j++) {
			uint32_t r = index_find(x, (struct record_key){
				k->stack, k->event, 0, 0, pids[i], tids[j],
			});

			if (r != SPAA_NONE && (best == SPAA_NONE || x->pos[r] < x->pos[best]))
				best = r;
		}
	if (best == SPAA_NONE)
		best = index_find(x, (struct record_key){ k->stack, k->event, 1, 0, 0, 0 });
	return best;
}

void spaa_fold_records_init(struct spaa_fold_records *r, const struct spaa_fold *f,
			    const struct spaa_profile *p)
{
	struct record_index x;

	r->samples = spaa_xcalloc((size_t)p->nrecords + 1, sizeof(*r->samples));
	r->of = spaa_xmalloc(((size_t)f->nkeys + 1) * sizeof(*r->of));
	if (!f->nkeys)
		return;
	index_build(&x, p);
	/* every sample of a record, in range or not, is its denominator */
	for (uint32_t i = 0; i < f->nkeys; i++) {
		r->of[i] = index_record(&x, p, &f->groups[i].key);
		if (r->of[i] != SPAA_NONE)
			r->samples[r->of[i]] += f->groups[i].count;
	}
	spaa_map_release(&x.first);
	free(x.rec);
	free(x.pos);
	free(x.indexed);
}

void spaa_fold_records_release(struct spaa_fold_records *r)
{
	SPAA_FREE_AND_NULL(r->of);
	SPAA_FREE_AND_NULL(r->samples);
}
