#include <stdlib.h>
#include <string.h>

#include "model/hashslot.h"
#include "model/repeats.h"
#include "model/util.h"

/* The fields of a frame, padding zeroed (map.h compares keys with memcmp). */
/* The context of a record, first part of its key; its metrics follow. */
struct record_head {
	int64_t pid, tid, cpu;
	uint32_t stack, event, comm, excl_frame;
	uint32_t absorbed, nweights, nexcl, labels;
};

void spaa_repeats_init(struct spaa_repeats *r)
{
	memset(r, 0, sizeof(*r));
	spaa_map_init(&r->frames, sizeof(struct spaa_frame_key));
	spaa_strtab_init(&r->stacks);
}

void spaa_repeats_release(struct spaa_repeats *r)
{
	spaa_map_release(&r->frames);
	free(r->frame_of);
	spaa_strtab_release(&r->stacks);
	free(r->stack_of);
	free(r->record_slots);
	free(r->key);
	free(r->key2);
	memset(r, 0, sizeof(*r));
	spaa_map_init(&r->frames, sizeof(struct spaa_frame_key));
}

static size_t stack_key(struct spaa_repeats *r, enum spaa_stack_type type,
			const uint32_t *frames, uint32_t n)
{
	size_t len = ((size_t)n + 1) * sizeof(uint32_t);
	uint32_t t = type;

	SPAA_ALLOC_GROW(r->key, len, r->key_alloc);
	memcpy(r->key, &t, sizeof(t));
	if (n)
		memcpy(r->key + sizeof(t), frames, (size_t)n * sizeof(uint32_t));
	return len;
}

/* A record whose frames are not its stack's was joined with a related stack. */
static bool joined(const struct spaa_profile *p, const struct spaa_record *rec)
{
	const struct spaa_stack *s = &p->stacks[rec->stack];

	return rec->frames != s->frames || rec->nframes != s->nframes;
}

/* Appends the metrics and units of n weights to the key (*key, *alloc) at *len. */
static void key_metrics(unsigned char **key, size_t *alloc, size_t *len,
			const struct spaa_weight *w, uint32_t n)
{
	SPAA_ALLOC_GROW(*key, *len + (size_t)n * 2 * sizeof(uint32_t), *alloc);
	for (uint32_t i = 0; i < n; i++) {
		memcpy(*key + *len, &w[i].metric, sizeof(uint32_t));
		memcpy(*key + *len + sizeof(uint32_t), &w[i].unit, sizeof(uint32_t));
		*len += 2 * sizeof(uint32_t);
	}
}

/*
 * The key of rec, whose weights and exclusive weights are w and x, into
 * the scratch buffer (*key, *alloc); returns its length.
 */
static size_t record_key(unsigned char **key, size_t *alloc, const struct spaa_record *rec,
			 const struct spaa_weight *w, const struct spaa_weight *x)
{
	struct record_head h;
	size_t len = sizeof(h);

	memset(&h, 0, sizeof(h));
	h.pid = rec->pid;
	h.tid = rec->tid;
	h.cpu = rec->cpu;
	h.stack = rec->stack;
	h.event = rec->event;
	h.comm = rec->comm;
	h.labels = rec->labels;
	h.excl_frame = rec->excl_frame;
	h.absorbed = rec->absorbed;
	h.nweights = rec->nweights;
	h.nexcl = rec->nexcl;
	SPAA_ALLOC_GROW(*key, len, *alloc);
	memcpy(*key, &h, sizeof(h));
	key_metrics(key, alloc, &len, w, rec->nweights);
	key_metrics(key, alloc, &len, x, rec->nexcl);
	return len;
}

static const struct spaa_weight *pool_at(const struct spaa_weight *pool,
					 uint32_t off, uint32_t n)
{
	return n ? pool + off : NULL;
}

/* The key of the model's record k into key2, or 0 for a joined record (never merged). */
static size_t model_record_key(struct spaa_repeats *r, const struct spaa_profile *p, uint32_t k)
{
	const struct spaa_record *rec = &p->records[k];

	if (joined(p, rec))
		return 0;
	return record_key(&r->key2, &r->key2_alloc, rec,
			  pool_at(p->weight_pool, rec->weights, rec->nweights),
			  pool_at(p->weight_pool, rec->excl, rec->nexcl));
}

/*
 * The slot of the indexed record whose key is the len bytes of r->key
 * (hash h), or the empty slot where it would go.  The record is
 * compared as the model holds it now.
 */
static size_t record_probe(struct spaa_repeats *r, const struct spaa_profile *p,
			   size_t len, uint64_t h)
{
	size_t i = h & r->record_mask;

	for (; r->record_slots[i] != SPAA_HASHSLOT_EMPTY; i = (i + 1) & r->record_mask) {
		uint64_t slot = r->record_slots[i];

		if (spaa_hashslot_has(slot, h) &&
		    model_record_key(r, p, spaa_hashslot_index(slot)) == len &&
		    !memcmp(r->key2, r->key, len))
			break;
	}
	return i;
}

/* Twice the slots, the indexed records placed again by their keys now. */
static void records_rehash(struct spaa_repeats *r, const struct spaa_profile *p)
{
	size_t n = r->record_slots ? (r->record_mask + 1) * 2 : 256;
	uint64_t *old = r->record_slots;
	size_t old_n = old ? r->record_mask + 1 : 0;

	r->record_slots = spaa_hashslot_new(n);
	r->record_mask = n - 1;
	for (size_t j = 0; j < old_n; j++) {
		uint32_t k;
		size_t len, i;
		uint64_t h;

		if (old[j] == SPAA_HASHSLOT_EMPTY)
			continue;
		k = spaa_hashslot_index(old[j]);
		len = model_record_key(r, p, k);
		h = spaa_hash_bytes(r->key2, len);
		for (i = h & r->record_mask; r->record_slots[i] != SPAA_HASHSLOT_EMPTY;
		     i = (i + 1) & r->record_mask)
			;
		r->record_slots[i] = spaa_hashslot_of(h, k);
	}
	free(old);
}

void spaa_repeats_index(struct spaa_repeats *r, const struct spaa_profile *p)
{
	bool created;
	uint32_t k;

	for (; r->nframes < p->nframes; r->nframes++) {
		struct spaa_frame_key fk = spaa_frame_key(&p->frames[r->nframes]);

		k = spaa_map_intern(&r->frames, &fk, &created);
		if (created) {
			SPAA_ALLOC_GROW(r->frame_of, (size_t)k + 1, r->frame_of_alloc);
			r->frame_of[k] = r->nframes;
		}
	}
	for (; r->nstacks < p->nstacks; r->nstacks++) {
		const struct spaa_stack *s = &p->stacks[r->nstacks];
		size_t len;

		if (!s->defined)
			continue;
		len = stack_key(r, s->type, p->frame_pool + s->frames, s->nframes);
		k = spaa_strtab_intern(&r->stacks, r->key, len);
		if (k + 1 == r->stacks.nr) {
			SPAA_ALLOC_GROW(r->stack_of, (size_t)k + 1, r->stack_of_alloc);
			r->stack_of[k] = r->nstacks;
		}
	}
	for (; r->nrecords < p->nrecords; r->nrecords++) {
		const struct spaa_record *rec = &p->records[r->nrecords];
		size_t len, i;
		uint64_t h;

		if (joined(p, rec))
			continue;
		/* load under 1/2 (hashslot.h), with room for this one */
		if (2 * ((size_t)r->nrecord_keys + 1) > (r->record_slots ? r->record_mask + 1 : 0))
			records_rehash(r, p);
		len = record_key(&r->key, &r->key_alloc, rec,
				 pool_at(p->weight_pool, rec->weights, rec->nweights),
				 pool_at(p->weight_pool, rec->excl, rec->nexcl));
		h = spaa_hash_bytes(r->key, len);
		i = record_probe(r, p, len, h);
		if (r->record_slots[i] == SPAA_HASHSLOT_EMPTY) {
			r->record_slots[i] = spaa_hashslot_of(h, r->nrecords);
			r->nrecord_keys++;
		}
	}
}

uint32_t spaa_repeats_frame(struct spaa_repeats *r, const struct spaa_frame *f)
{
	struct spaa_frame_key fk = spaa_frame_key(f);
	uint32_t k = spaa_map_find(&r->frames, &fk);

	return k == SPAA_NONE ? SPAA_NONE : r->frame_of[k];
}

uint32_t spaa_repeats_stack(struct spaa_repeats *r, enum spaa_stack_type type,
			    const uint32_t *frames, uint32_t n)
{
	size_t len;
	uint32_t k;

	if (r->stacks.nr <= 1)
		return SPAA_NONE;
	len = stack_key(r, type, frames, n);
	k = spaa_strtab_find(&r->stacks, r->key, len);
	return k == SPAA_NONE ? SPAA_NONE : r->stack_of[k];
}

/* Adds n weights w to those at pool offset off, all or none (-1: overflow). */
static int add_values(struct spaa_profile *p, uint32_t off, const struct spaa_weight *w,
		      uint32_t n)
{
	uint64_t sum;

	for (uint32_t i = 0; i < n; i++)
		if (spaa_add_u64(p->weight_pool[off + i].value, w[i].value, &sum))
			return -1;
	for (uint32_t i = 0; i < n; i++)
		p->weight_pool[off + i].value += w[i].value;
	return 0;
}

/*
 * Whether rec's exclusive weights are its weights, one copy in the pool
 * (an SPX path's cost is exclusive already): kept so when merged or moved.
 */
static bool one_copy(const struct spaa_record *rec)
{
	return rec->nweights && rec->excl == rec->weights && rec->nexcl == rec->nweights;
}

/* The indexed record rec (weights w, x) merges into, or SPAA_NONE. */
static uint32_t merge_target(struct spaa_repeats *r, struct spaa_profile *p,
			     const struct spaa_record *rec,
			     const struct spaa_weight *w, const struct spaa_weight *x)
{
	uint32_t into;
	uint64_t sum, slot;
	size_t len;

	if (!r->nrecord_keys || joined(p, rec))
		return SPAA_NONE;
	len = record_key(&r->key, &r->key_alloc, rec, w, x);
	slot = r->record_slots[record_probe(r, p, len, spaa_hash_bytes(r->key, len))];
	if (slot == SPAA_HASHSLOT_EMPTY)
		return SPAA_NONE;
	into = spaa_hashslot_index(slot);
	if (one_copy(rec) != one_copy(&p->records[into]))
		return SPAA_NONE;
	/* checked before adding, so that an overflow leaves both records whole */
	for (uint32_t i = 0; i < rec->nexcl; i++)
		if (spaa_add_u64(p->weight_pool[p->records[into].excl + i].value, x[i].value, &sum))
			return SPAA_NONE;
	return into;
}

uint32_t spaa_repeats_merge_records(struct spaa_repeats *r, struct spaa_profile *p,
				    uint32_t record_base, uint32_t window_entry_base,
				    uint32_t weight_base)
{
	size_t nw = p->nweight_pool - weight_base;
	struct spaa_weight *old;
	uint32_t out = record_base, merged = 0;

	if (!r->nrecord_keys || record_base >= p->nrecords)
		return 0;
	/* this file's records head their stacks' lists: unlink them */
	for (uint32_t i = record_base; i < p->nrecords; i++) {
		struct spaa_stack *s = &p->stacks[p->records[i].stack];

		while (s->first_record != SPAA_NONE && s->first_record >= record_base)
			s->first_record = p->records[s->first_record].next_same_stack;
	}
	old = spaa_xmalloc((nw + 1) * sizeof(*old));
	if (nw)
		memcpy(old, p->weight_pool + weight_base, nw * sizeof(*old));
	p->nweight_pool = weight_base;
	for (uint32_t i = record_base; i < p->nrecords; i++) {
		struct spaa_record rec = p->records[i];
		const struct spaa_weight *w = pool_at(old, rec.weights - weight_base, rec.nweights);
		const struct spaa_weight *x = pool_at(old, rec.excl - weight_base, rec.nexcl);
		uint32_t into = merge_target(r, p, &rec, w, x);
		bool shared = one_copy(&rec);

		if (into != SPAA_NONE && !add_values(p, p->records[into].weights, w, rec.nweights)) {
			if (!shared)
				add_values(p, p->records[into].excl, x, rec.nexcl);
			merged++;
			continue;
		}
		rec.weights = spaa_profile_add_weights(p, w, rec.nweights);
		rec.excl = shared ? rec.weights : spaa_profile_add_weights(p, x, rec.nexcl);
		rec.next_same_stack = p->stacks[rec.stack].first_record;
		p->stacks[rec.stack].first_record = out;
		p->records[out++] = rec;
	}
	for (uint32_t i = window_entry_base; i < p->nwindow_entries; i++) {
		struct spaa_window_entry *e = &p->window_entries[i];

		e->weights = spaa_profile_add_weights(p, pool_at(old, e->weights - weight_base, e->nweights),
						      e->nweights);
	}
	p->nrecords = out;
	free(old);
	return merged;
}
