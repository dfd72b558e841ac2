#include <stdlib.h>
#include <string.h>

#include "analysis/fold.h"
#include "model/util.h"

void spaa_fold_init(struct spaa_fold *f, const struct spaa_filter *filter)
{
	static const struct spaa_filter everything = {
		.begin = INT64_MIN, .end = INT64_MAX,
		.pid = SPAA_NO_ID, .tid = SPAA_NO_ID,
	};

	memset(f, 0, sizeof(*f));
	f->range = filter ? filter : &everything;
}

void spaa_fold_release(struct spaa_fold *f)
{
	free(f->groups);
	free(f->all_period);
	free(f->next);
	free(f->head);
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
	f->next = spaa_xrealloc(f->next, n * sizeof(*f->next));
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
	enum { LAST = SPAA_FOLD_HEAD_GROUPS - 1 };
	struct spaa_fold_head *h;
	uint32_t tag = fold_tag(k), i;
	int x;

	if (k->stack >= f->heads_alloc)
		heads_grow(f, k->stack);
	h = &f->head[k->stack];
	for (x = 0; x < SPAA_FOLD_HEAD_GROUPS && h->g[x] != SPAA_NONE; x++)
		if (h->tag[x] == tag && fold_key_eq(&f->groups[h->g[x]].key, k))
			return h->g[x];
	if (x == SPAA_FOLD_HEAD_GROUPS)
		for (i = f->next[h->g[LAST]]; i != SPAA_NONE; i = f->next[i])
			if (fold_key_eq(&f->groups[i].key, k))
				return i;
	if (f->nkeys == f->alloc)
		fold_grow(f);
	i = f->nkeys++;
	f->groups[i] = (struct spaa_fold_group){ .key = *k };
	f->all_period[i] = true;
	f->next[i] = SPAA_NONE;
	if (x < SPAA_FOLD_HEAD_GROUPS) {
		h->g[x] = i;
		h->tag[x] = tag;
	} else {                /* the chain's order does not matter */
		f->next[i] = f->next[h->g[LAST]];
		f->next[h->g[LAST]] = i;
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

void spaa_fold_records_init(struct spaa_fold_records *r, const struct spaa_fold *f,
			    const struct spaa_profile *p)
{
	r->samples = spaa_xcalloc((size_t)p->nrecords + 1, sizeof(*r->samples));
	r->of = spaa_xmalloc(((size_t)f->nkeys + 1) * sizeof(*r->of));
	/* every sample of a record, in range or not, is its denominator */
	for (uint32_t i = 0; i < f->nkeys; i++) {
		r->of[i] = spaa_fold_record(p, &f->groups[i].key);
		if (r->of[i] != SPAA_NONE)
			r->samples[r->of[i]] += f->groups[i].count;
	}
}

void spaa_fold_records_release(struct spaa_fold_records *r)
{
	SPAA_FREE_AND_NULL(r->of);
	SPAA_FREE_AND_NULL(r->samples);
}
