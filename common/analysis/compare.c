#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "analysis/weights.h"
#include "model/util.h"

static int overflow(struct spaa_error *err)
{
	return spaa_error_set(err, SPAA_E_LIMIT,
			      "a sum of weights overflows 64 bits");
}

void spaa_compare_keys_init(struct spaa_compare_keys *k,
			    const char *const *dso_map, size_t ndso_map)
{
	memset(k, 0, sizeof(*k));
	spaa_strtab_init(&k->fns);
	spaa_strtab_init(&k->paths);
	k->dso_map = dso_map;
	k->ndso_map = ndso_map;
}

void spaa_compare_keys_release(struct spaa_compare_keys *k)
{
	spaa_strtab_release(&k->fns);
	spaa_strtab_release(&k->paths);
	memset(k, 0, sizeof(*k));
}

int spaa_compare_dso_map_check(const char *const *dso_map, size_t n,
			       struct spaa_error *err)
{
	for (size_t i = 0; i < n; i++) {
		const char *eq = strchr(dso_map[i], '=');

		if (!eq || eq == dso_map[i] || !eq[1])
			return spaa_error_set(err, SPAA_E_USAGE,
					      "invalid value '%s' for '--dso-map': expected BASELINE_DSO=TARGET_DSO",
					      dso_map[i]);
	}
	return 0;
}

/* The DSO name a baseline DSO is matched under: the last mapping wins. */
static const char *mapped_dso(const struct spaa_compare_keys *k, const char *dso)
{
	const char *to = dso;
	size_t len = strlen(dso);

	for (size_t i = 0; i < k->ndso_map; i++) {
		const char *item = k->dso_map[i];

		if (!strncmp(item, dso, len) && item[len] == '=')
			to = item + len + 1;
	}
	return to;
}

static uint32_t intern_function(struct spaa_compare_keys *k, const char *name,
				const char *dso)
{
	size_t nl = strlen(name), dl = strlen(dso);
	/* "name\0dso": a name cannot hold NUL, so the split is unambiguous */
	char *buf = spaa_xmalloc(nl + 1 + dl);
	uint32_t key;

	memcpy(buf, name, nl + 1);
	memcpy(buf + nl + 1, dso, dl);
	key = spaa_strtab_intern(&k->fns, buf, nl + 1 + dl);
	free(buf);
	return key;
}

static uint32_t function_key(struct spaa_compare_keys *k, const struct spaa_profile *p,
			     uint32_t fn, bool baseline)
{
	const char *name = spaa_profile_str(p, p->functions[fn].name);
	const char *dso = spaa_profile_str(p, p->dsos[p->functions[fn].dso].name);

	return intern_function(k, name, baseline ? mapped_dso(k, dso) : dso);
}

const char *spaa_compare_function_name(const struct spaa_compare_keys *k, uint32_t key)
{
	return spaa_strtab_get(&k->fns, key);
}

const char *spaa_compare_function_dso(const struct spaa_compare_keys *k, uint32_t key)
{
	const char *name = spaa_strtab_get(&k->fns, key);

	return name + strlen(name) + 1;
}

static const char *function_name(const void *ctx, uint32_t fn)
{
	return spaa_compare_function_name(ctx, fn);
}

char *spaa_compare_path_name(const struct spaa_compare_keys *k, uint32_t key)
{
	return spaa_strtab_join(&k->paths, key, function_name, k, ';');
}

uint32_t spaa_compare_path_len(const struct spaa_compare_keys *k, uint32_t key)
{
	return spaa_strtab_len(&k->paths, key) / sizeof(uint32_t);
}

uint32_t spaa_compare_path_function(const struct spaa_compare_keys *k, uint32_t key,
				uint32_t i)
{
	uint32_t fn;

	/* strtab entries are byte strings: no alignment to rely on */
	memcpy(&fn, spaa_strtab_get(&k->paths, key) + (size_t)i * sizeof(fn),
	       sizeof(fn));
	return fn;
}

static int sums_add(struct spaa_compare_sums *s, uint32_t key, uint64_t v,
		    struct spaa_error *err)
{
	if (key >= s->alloc) {
		size_t old = s->alloc;

		SPAA_ALLOC_GROW(s->v, (size_t)key + 1, s->alloc);
		memset(s->v + old, 0, (s->alloc - old) * sizeof(*s->v));
	}
	return spaa_add_u64(s->v[key], v, &s->v[key]) ? overflow(err) : 0;
}

void spaa_compare_side_init(struct spaa_compare_side *s, bool baseline)
{
	memset(s, 0, sizeof(*s));
	s->baseline = baseline;
	s->samples_known = true;
}

void spaa_compare_side_release(struct spaa_compare_side *s)
{
	free(s->fn_self.v);
	free(s->fn_total.v);
	free(s->path.v);
	free(s->alloc.v);
	free(s->live.v);
	memset(s, 0, sizeof(*s));
}

/* Function keys of every function of p; the caller frees the array. */
static uint32_t *function_keys(struct spaa_compare_keys *k, const struct spaa_profile *p,
			       bool baseline)
{
	uint32_t nfn = spaa_profile_nfunctions(p);
	uint32_t *keys = spaa_xmalloc(((size_t)nfn + 1) * sizeof(*keys));

	for (uint32_t f = 0; f < nfn; f++)
		keys[f] = function_key(k, p, f, baseline);
	return keys;
}

void spaa_compare_sum_init(struct spaa_compare_sum *s)
{
	memset(s, 0, sizeof(*s));
	s->samples_known = true;
	spaa_strtab_init(&s->paths);
}

void spaa_compare_sum_release(struct spaa_compare_sum *s)
{
	free(s->fn_self.v);
	free(s->fn_total.v);
	spaa_strtab_release(&s->paths);
	free(s->path.v);
	memset(s, 0, sizeof(*s));
}

static int add_paths(struct spaa_compare_sum *s, const struct spaa_aggregate *a,
		     const uint32_t *keys, struct spaa_error *err)
{
	uint32_t *seq = NULL;
	size_t seq_alloc = 0;
	int ret = -1;

	/* path 0 is the empty sequence of the string table, never a stack */
	for (uint32_t i = 1; i < a->paths.nr; i++) {
		const char *local = spaa_strtab_get(&a->paths, i);
		uint32_t n = spaa_strtab_len(&a->paths, i) / sizeof(uint32_t);
		uint32_t fn;

		if (!a->path_weight[i])
			continue;
		SPAA_ALLOC_GROW(seq, n, seq_alloc);
		for (uint32_t j = 0; j < n; j++) {
			memcpy(&fn, local + j * sizeof(fn), sizeof(fn));
			seq[j] = keys[fn];
		}
		/*
		 * Two local paths may meet in one key (functions that differ
		 * only in build id): their weights add up.
		 */
		if (sums_add(&s->path, spaa_strtab_intern(&s->paths, seq,
				n * sizeof(uint32_t)), a->path_weight[i], err))
			goto out;
	}
	ret = 0;
out:
	free(seq);
	return ret;
}

int spaa_compare_sum_add_agg(struct spaa_compare_sum *s, struct spaa_compare_keys *k,
			 const struct spaa_aggregate *a, bool baseline,
			 struct spaa_error *err)
{
	const struct spaa_profile *p = a->p;
	uint32_t *keys = function_keys(k, p, baseline);
	int ret = -1;

	if (spaa_add_u64(s->total, a->total, &s->total)) {
		overflow(err);
		goto out;
	}
	if (!a->samples_known)
		s->samples_known = false;
	for (uint32_t f = 0; f < spaa_profile_nfunctions(p); f++) {
		if (sums_add(&s->fn_self, keys[f], a->fn_self[f], err) ||
		    sums_add(&s->fn_total, keys[f], a->fn_total[f], err))
			goto out;
		if (a->samples_known &&
		    spaa_add_u64(s->samples, a->fn_samples[f], &s->samples)) {
			overflow(err);
			goto out;
		}
	}
	ret = add_paths(s, a, keys, err);
out:
	free(keys);
	return ret;
}

int spaa_compare_side_take_sum(struct spaa_compare_side *s, struct spaa_compare_keys *k,
			   struct spaa_compare_sum *sum, struct spaa_error *err)
{
	int ret = -1;

	if (spaa_add_u64(s->total, sum->total, &s->total) ||
	    spaa_add_u64(s->samples, sum->samples, &s->samples)) {
		overflow(err);
		goto out;
	}
	if (!sum->samples_known)
		s->samples_known = false;
	for (uint32_t key = 0; key < sum->fn_self.alloc; key++)
		if (sums_add(&s->fn_self, key, sum->fn_self.v[key], err))
			goto out;
	for (uint32_t key = 0; key < sum->fn_total.alloc; key++)
		if (sums_add(&s->fn_total, key, sum->fn_total.v[key], err))
			goto out;
	/* in the order the sum first met them: the order of its aggregate */
	for (uint32_t i = 1; i < sum->paths.nr; i++)
		if (sums_add(&s->path, spaa_strtab_intern(&k->paths,
				spaa_strtab_get(&sum->paths, i),
				spaa_strtab_len(&sum->paths, i)),
			     spaa_compare_get(&sum->path, i), err))
			goto out;
	ret = 0;
out:
	spaa_compare_sum_release(sum);
	return ret;
}

int spaa_compare_side_add_agg(struct spaa_compare_side *s, struct spaa_compare_keys *k,
			  const struct spaa_aggregate *a, struct spaa_error *err)
{
	struct spaa_compare_sum sum;

	spaa_compare_sum_init(&sum);
	if (spaa_compare_sum_add_agg(&sum, k, a, s->baseline, err)) {
		spaa_compare_sum_release(&sum);
		return -1;
	}
	return spaa_compare_side_take_sum(s, k, &sum, err);
}

static uint32_t find_string(const struct spaa_profile *p, const char *s)
{
	return spaa_strtab_find(&p->strings, s, strlen(s));
}

int spaa_compare_side_add_allocs(struct spaa_compare_side *s, struct spaa_compare_keys *k,
			     const struct spaa_profile *p, const struct spaa_filter *filter,
			     struct spaa_error *err)
{
	uint32_t alloc = find_string(p, "alloc_bytes");
	uint32_t live = find_string(p, "live_bytes");
	uint32_t *keys;
	uint8_t *memo = NULL;   /* spaa_filter_stack's */
	int ret = -1;

	if (alloc == SPAA_NONE)
		return 0;
	keys = function_keys(k, p, s->baseline);
	if (filter && spaa_filter_has_stacks(filter))
		memo = spaa_xcalloc((size_t)spaa_profile_nfunctions(p) + 1, 1);
	for (uint32_t i = 0; i < p->nrecords; i++) {
		const struct spaa_record *r = &p->records[i];
		uint32_t frame = r->excl_frame != SPAA_NONE ? r->excl_frame :
				 spaa_profile_record_frames(p, r)[0];
		uint32_t key = keys[p->frames[frame].fn];
		uint64_t v;

		if (r->absorbed || p->events[r->event].kind != SPAA_EV_ALLOCATION ||
		    !spaa_profile_weights_get(p, r->weights, r->nweights, alloc, &v))
			continue;
		if (filter && (!spaa_filter_context(filter, p, r->pid, r->tid, r->comm) ||
			       (memo && !spaa_filter_stack(filter, p, spaa_profile_record_frames(p, r),
							   r->nframes, memo))))
			continue;
		s->has_alloc = true;
		if (sums_add(&s->alloc, key, v, err))
			goto out;
		if (live != SPAA_NONE &&
		    spaa_profile_weights_get(p, r->weights, r->nweights, live, &v)) {
			s->has_live = true;
			if (sums_add(&s->live, key, v, err))
				goto out;
		}
	}
	ret = 0;
out:
	free(memo);
	free(keys);
	return ret;
}

/* ---- renamed binaries ------------------------------------------------ */

enum { ON_BASE = 1, ON_TARGET = 2 };

/* A DSO with weight: on which sides, how many functions with weight on each. */
struct dso_info {
	const char *name;               /* borrowed from the keys */
	unsigned sides;                 /* ON_BASE | ON_TARGET */
	uint32_t nbase, ntarget;
	bool done;                      /* paired, or listed as unmatched */
};

/* A baseline-only and a target-only DSO that share function names. */
struct dso_overlap {
	uint32_t base, target;          /* DSO ids */
};

/* A candidate pair, by DSO ids. */
struct candidate {
	uint32_t base, target, common;
	const struct dso_info *info;
};

static unsigned key_sides(const struct spaa_compare_side *b,
			  const struct spaa_compare_side *t, uint32_t key)
{
	return (spaa_compare_get(&b->fn_total, key) || spaa_compare_get(&b->alloc, key) ?
		ON_BASE : 0) |
	       (spaa_compare_get(&t->fn_total, key) || spaa_compare_get(&t->alloc, key) ?
		ON_TARGET : 0);
}

static int move_sum(struct spaa_compare_sums *s, uint32_t from, uint32_t to,
		    struct spaa_error *err)
{
	uint64_t v = spaa_compare_get(s, from);

	if (!v)
		return 0;
	s->v[from] = 0;
	return sums_add(s, to, v, err);
}

/* The baseline's call paths through remapped functions, under new path keys. */
static int rekey_paths(struct spaa_compare_keys *k, struct spaa_compare_side *b,
		       const uint32_t *remap, uint32_t nremap,
		       struct spaa_error *err)
{
	uint32_t npaths = k->paths.nr, *seq = NULL;
	size_t seq_alloc = 0;
	int ret = -1;

	for (uint32_t p = 1; p < npaths; p++) {
		uint64_t w = spaa_compare_get(&b->path, p);
		uint32_t n = spaa_compare_path_len(k, p);
		bool moved = false;

		if (!w)
			continue;
		SPAA_ALLOC_GROW(seq, n, seq_alloc);
		for (uint32_t i = 0; i < n; i++) {
			uint32_t fn = spaa_compare_path_function(k, p, i);

			seq[i] = fn < nremap ? remap[fn] : fn;
			moved |= seq[i] != fn;
		}
		if (!moved)
			continue;
		b->path.v[p] = 0;
		if (sums_add(&b->path, spaa_strtab_intern(&k->paths, seq,
				n * sizeof(*seq)), w, err))
			goto out;
	}
	ret = 0;
out:
	free(seq);
	return ret;
}

/*
 * The baseline's functions in DSO from of each pair become the target
 * DSO's, their sums and the paths through them with them.
 */
static int apply_pairs(struct spaa_compare_keys *k, struct spaa_compare_side *b,
		       const struct spaa_compare_dsos *dsos, struct spaa_error *err)
{
	uint32_t nkeys = k->fns.nr;
	uint32_t *remap = spaa_xmalloc(((size_t)nkeys + 1) * sizeof(*remap));
	struct spaa_strtab from;        /* entry i + 1: pair i's from */
	int ret = -1;

	spaa_strtab_init(&from);
	for (size_t i = 0; i < dsos->npairs; i++)
		spaa_strtab_intern(&from, dsos->pairs[i].from, strlen(dsos->pairs[i].from));
	for (uint32_t key = 0; key < nkeys; key++) {
		const char *dso = spaa_compare_function_dso(k, key);
		uint32_t i = key ? spaa_strtab_find(&from, dso, strlen(dso)) : SPAA_NONE;

		remap[key] = key;
		if (i == SPAA_NONE || !i)
			continue;
		remap[key] = intern_function(k, spaa_compare_function_name(k, key),
					     dsos->pairs[i - 1].to);
		if (move_sum(&b->fn_self, key, remap[key], err) ||
		    move_sum(&b->fn_total, key, remap[key], err) ||
		    move_sum(&b->alloc, key, remap[key], err) ||
		    move_sum(&b->live, key, remap[key], err))
			goto out;
	}
	ret = rekey_paths(k, b, remap, nkeys, err);
out:
	spaa_strtab_release(&from);
	free(remap);
	return ret;
}

static int candidate_cmp(const void *x, const void *y)
{
	const struct candidate *a = x, *b = y;
	int c;

	if (a->common != b->common)
		return a->common > b->common ? -1 : 1;
	if ((c = strcmp(a->info[a->base].name, b->info[b->base].name)))
		return c;
	return strcmp(a->info[a->target].name, b->info[b->target].name);
}

/* Per DSO with weight (ids of dsos): its info; per key, its DSO id (0: none). */
static struct dso_info *dso_sides(const struct spaa_compare_keys *k,
				  const struct spaa_compare_side *b,
				  const struct spaa_compare_side *t,
				  struct spaa_strtab *dsos, uint32_t *key_dso)
{
	struct dso_info *info = spaa_xcalloc((size_t)k->fns.nr + 1, sizeof(*info));

	for (uint32_t key = 1; key < k->fns.nr; key++) {
		unsigned sides = key_sides(b, t, key);
		const char *dso = spaa_compare_function_dso(k, key);
		uint32_t d;

		/* an unnamed DSO is no program to pair */
		if (!sides || !*dso)
			continue;
		/* at most one DSO per key: ids stay below the keys' count */
		d = spaa_strtab_intern(dsos, dso, strlen(dso));
		info[d].name = dso;
		info[d].sides |= sides;
		info[d].nbase += !!(sides & ON_BASE);
		info[d].ntarget += !!(sides & ON_TARGET);
		key_dso[key] = d;
	}
	return info;
}

/*
 * The candidate pairs: for each baseline-only function, the target-only
 * functions of its name (chained by name), counted per pair of DSOs.
 */
static struct candidate *candidates(const struct spaa_compare_keys *k,
				    const struct dso_info *info,
				    const uint32_t *key_dso, size_t *ncand)
{
	uint32_t nkeys = k->fns.nr;
	uint32_t *first = spaa_xcalloc((size_t)nkeys + 1, sizeof(*first));
	uint32_t *next = spaa_xcalloc((size_t)nkeys + 1, sizeof(*next));
	uint32_t *counts = NULL;
	size_t counts_alloc = 0, n = 0;
	struct spaa_strtab names;
	struct spaa_map overlaps;
	struct candidate *cand;

	spaa_strtab_init(&names);
	spaa_map_init(&overlaps, sizeof(struct dso_overlap));
	for (uint32_t key = 1; key < nkeys; key++) {
		const char *name = spaa_compare_function_name(k, key);
		uint32_t nm;

		if (info[key_dso[key]].sides != ON_TARGET)
			continue;
		nm = spaa_strtab_intern(&names, name, strlen(name));
		next[key] = first[nm];
		first[nm] = key;
	}
	for (uint32_t key = 1; key < nkeys; key++) {
		const char *name = spaa_compare_function_name(k, key);
		uint32_t nm;

		if (info[key_dso[key]].sides != ON_BASE ||
		    (nm = spaa_strtab_find(&names, name, strlen(name))) == SPAA_NONE)
			continue;
		for (uint32_t tk = first[nm]; tk; tk = next[tk]) {
			struct dso_overlap o = { key_dso[key], key_dso[tk] };
			uint32_t i = spaa_map_intern(&overlaps, &o, NULL);

			if (i >= counts_alloc) {
				size_t old = counts_alloc;

				SPAA_ALLOC_GROW(counts, (size_t)i + 1, counts_alloc);
				memset(counts + old, 0, (counts_alloc - old) * sizeof(*counts));
			}
			counts[i]++;
		}
	}
	cand = spaa_xcalloc((size_t)overlaps.nr + 1, sizeof(*cand));
	for (uint32_t i = 0; i < overlaps.nr; i++) {
		const struct dso_overlap *o = spaa_map_key(&overlaps, i);
		uint32_t nb = info[o->base].nbase, nt = info[o->target].ntarget;

		/*
		 * Most of both, and a few: a shared "main" or "(anonymous)"
		 * makes no two programs one.
		 */
		if (counts[i] >= SPAA_COMPARE_PAIR_MIN &&
		    (uint64_t)counts[i] * 2 > (nb > nt ? nb : nt))
			cand[n++] = (struct candidate){ o->base, o->target, counts[i], info };
	}
	qsort(cand, n, sizeof(*cand), candidate_cmp);
	*ncand = n;
	free(counts);
	free(first);
	free(next);
	spaa_map_release(&overlaps);
	spaa_strtab_release(&names);
	return cand;
}

int spaa_compare_pair_dsos(struct spaa_compare_keys *k, struct spaa_compare_side *b,
			   const struct spaa_compare_side *t, bool apply,
			   struct spaa_compare_dsos *out, struct spaa_error *err)
{
	uint32_t nkeys = k->fns.nr;
	uint32_t *key_dso = spaa_xcalloc((size_t)nkeys + 1, sizeof(*key_dso));
	struct spaa_strtab dsos;
	struct dso_info *info;
	struct candidate *cand;
	size_t ncand;
	int ret;

	memset(out, 0, sizeof(*out));
	spaa_strtab_init(&dsos);
	info = dso_sides(k, b, t, &dsos, key_dso);
	cand = candidates(k, info, key_dso, &ncand);
	out->pairs = spaa_xcalloc(ncand + 1, sizeof(*out->pairs));
	for (size_t i = 0; i < ncand; i++) {
		struct dso_info *bi = &info[cand[i].base], *ti = &info[cand[i].target];

		if (bi->done || ti->done)
			continue;
		bi->done = ti->done = true;
		out->pairs[out->npairs++] = (struct spaa_compare_dso_pair){
			bi->name, ti->name, cand[i].common, bi->nbase, ti->ntarget,
		};
	}
	out->only_base = spaa_xcalloc((size_t)dsos.nr + 1, sizeof(*out->only_base));
	out->only_target = spaa_xcalloc((size_t)dsos.nr + 1, sizeof(*out->only_target));
	for (uint32_t d = 1; d < dsos.nr; d++) {
		if (info[d].done || info[d].sides == (ON_BASE | ON_TARGET))
			continue;
		if (info[d].sides == ON_BASE)
			out->only_base[out->nbase++] = info[d].name;
		else
			out->only_target[out->ntarget++] = info[d].name;
	}
	ret = apply && out->npairs ? apply_pairs(k, b, out, err) : 0;
	free(cand);
	free(info);
	free(key_dso);
	spaa_strtab_release(&dsos);
	return ret;
}

void spaa_compare_dsos_release(struct spaa_compare_dsos *d)
{
	free(d->pairs);
	free(d->only_base);
	free(d->only_target);
	memset(d, 0, sizeof(*d));
}

/* What comparing p under event (NULL: the first) and metric takes of it. */
static void choice_init(struct spaa_compare_choice *c, struct spaa_compare_keys *k,
			const struct spaa_profile *p, const char *event,
			const char *metric, const struct spaa_filter *filter)
{
	struct spaa_aggregate a;
	uint32_t ev, m;

	memset(c, 0, sizeof(*c));
	spaa_error_init(&c->err);
	spaa_compare_sum_init(&c->sum);
	c->event = event ? spaa_xstrdup(event) : NULL;
	if (spaa_weights_select(p, event, metric, &ev, &m, &c->err)) {
		c->unselectable = true;
		return;
	}
	c->metric = spaa_xstrdup(spaa_profile_str(p, m));
	c->primary = m == p->events[ev].primary_metric;
	spaa_metrics_semantics(p, ev, m, spaa_metrics_unit(p, ev, m), &c->sem);
	spaa_weights_left_out_event(&c->left_out, p, ev);
	spaa_aggregate_init(&a, p);
	a.path_by_function = true;
	c->overflows = spaa_aggregate_add_records(&a, ev, m, filter, &c->err) ||
		       spaa_compare_sum_add_agg(&c->sum, k, &a, true, &c->err);
	spaa_aggregate_release(&a);
}

void spaa_compare_base_init(struct spaa_compare_base *b, struct spaa_compare_keys *k,
			const struct spaa_profile *p, const char *event,
			const char *metric, const struct spaa_filter *filter)
{
	memset(b, 0, sizeof(*b));
	b->nevents = p->nevents;
	b->events = spaa_xcalloc((size_t)p->nevents + 1, sizeof(*b->events));
	for (uint32_t i = 0; i < p->nevents; i++)
		b->events[i] = spaa_xstrdup(spaa_profile_str(p, p->events[i].name));
	/* a profile without events has one choice: the error of asking */
	b->nchoices = event || !p->nevents ? 1 : p->nevents;
	b->choices = spaa_xcalloc(b->nchoices, sizeof(*b->choices));
	for (uint32_t i = 0; i < b->nchoices; i++)
		choice_init(&b->choices[i], k, p, event ? event : b->events[i],
			    metric, filter);
}

void spaa_compare_base_release(struct spaa_compare_base *b)
{
	for (uint32_t i = 0; i < b->nevents; i++)
		free(b->events[i]);
	free(b->events);
	for (uint32_t i = 0; i < b->nchoices; i++) {
		free(b->choices[i].event);
		free(b->choices[i].metric);
		spaa_compare_sum_release(&b->choices[i].sum);
	}
	free(b->choices);
	memset(b, 0, sizeof(*b));
}

struct spaa_compare_choice *spaa_compare_base_choice(struct spaa_compare_base *b,
					     const char *event)
{
	for (uint32_t i = 0; event && i < b->nchoices; i++)
		if (b->choices[i].event && !strcmp(b->choices[i].event, event))
			return &b->choices[i];
	return &b->choices[0];
}

const char *spaa_compare_base_event_list(const struct spaa_compare_base *b, char *buf,
				     size_t size)
{
	size_t at = 0;

	buf[0] = '\0';
	for (uint32_t i = 0; i < b->nevents && at < size; i++)
		at += snprintf(buf + at, size - at, "%s'%s'", i ? ", " : "",
			       b->events[i]);
	return buf;
}

static void describe(const struct spaa_metrics_sem *m, char *buf, size_t size)
{
	if (m->cls == SPAA_METRICS_NUMBER)
		snprintf(buf, size, "a number in '%s'", m->unit);
	else
		snprintf(buf, size, "a %s", spaa_metrics_class_name(m->cls));
}

int spaa_compare_init(struct spaa_compare *c, enum spaa_compare_normalize mode,
		  const struct spaa_metrics_sem *bsem, uint64_t btotal,
		  const struct spaa_metrics_sem *tsem, uint64_t ttotal,
		  struct spaa_error *err)
{
	char b[200], t[200];

	memset(c, 0, sizeof(*c));
	if (bsem->cls != tsem->cls || strcmp(bsem->unit, tsem->unit)) {
		describe(bsem, b, sizeof(b));
		describe(tsem, t, sizeof(t));
		return spaa_error_set(err, SPAA_E_USAGE,
				      "the compared weight is %s in the baseline but %s in the target",
				      b, t);
	}
	if (!btotal || !ttotal)
		return spaa_error_set(err, SPAA_E_NO_DATA,
				      "the %s has no weight to compare",
				      btotal ? "target" : "baseline");
	c->mode = mode == SPAA_COMPARE_NONE ? SPAA_COMPARE_NONE : SPAA_COMPARE_SHARE;
	c->bsem = *bsem;
	c->tsem = *tsem;
	c->btotal = btotal;
	c->ttotal = ttotal;
	return 0;
}

enum spaa_compare_normalize spaa_compare_default(enum spaa_event_kind kind)
{
	return kind == SPAA_EV_ALLOCATION ? SPAA_COMPARE_NONE : SPAA_COMPARE_SHARE;
}

/* Exact integer arithmetic first, so that equal rows give exactly 0. */
void spaa_compare_compute(const struct spaa_compare *c, uint64_t b, uint64_t t,
		      struct spaa_compare_delta *d)
{
	double B = (double)c->btotal, T = (double)c->ttotal;
	/* t*B - b*T, exactly: both products fit in 128 unsigned bits */
	unsigned __int128 tb = (unsigned __int128)t * c->btotal;
	unsigned __int128 bt = (unsigned __int128)b * c->ttotal;
	double cross = tb >= bt ? (double)(tb - bt) : -(double)(bt - tb);
	double bnorm = (double)bt / B * c->tsem.scale;

	memset(d, 0, sizeof(*d));
	d->base = (double)b * c->bsem.scale;
	d->target = (double)t * c->tsem.scale;
	d->bshare = (double)b / B;
	d->tshare = (double)t / T;
	d->share_delta = cross != 0 ? cross / (T * B) : 0.0;
	if (c->bsem.scale == c->tsem.scale)
		d->raw = t == b ? 0.0 : (double)((__int128)t - (__int128)b) * c->tsem.scale;
	else
		d->raw = d->target - d->base;
	d->normalized = cross != 0 ? cross / B * c->tsem.scale : 0.0;
	if (c->mode == SPAA_COMPARE_NONE) {
		d->delta = d->raw;
		d->relative = b && d->base != 0 ? d->raw / d->base : NAN;
	} else {
		d->delta = d->normalized;
		d->relative = b && bnorm != 0 ? d->normalized / bnorm : NAN;
	}
}

static int cmp_desc(double a, double b)
{
	return a > b ? -1 : a < b;
}

/* The keys of rank_cmp, before the names. */
static int rank_cmp_keys(const struct spaa_compare_rank *a, const struct spaa_compare_rank *b)
{
	int c;

	if ((c = cmp_desc(fabs(a->key), fabs(b->key))) ||
	    (c = cmp_desc(fabs(a->key2), fabs(b->key2))))
		return c;
	return cmp_desc(a->key3, b->key3);
}

static int rank_cmp(const void *x, const void *y)
{
	const struct spaa_compare_rank *a = x, *b = y;
	int c;

	if ((c = rank_cmp_keys(a, b)) ||
	    (c = strcmp(a->name ? a->name : "", b->name ? b->name : "")) ||
	    (c = strcmp(a->name2 ? a->name2 : "", b->name2 ? b->name2 : "")))
		return c;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

void spaa_compare_rank_sort(struct spaa_compare_rank *r, size_t n)
{
	qsort(r, n, sizeof(*r), rank_cmp);
}

/* rank_cmp with the names of path keys x->idx and y->idx; ctx the keys. */
static int path_rank_cmp(const void *x, const void *y, const void *ctx)
{
	const struct spaa_compare_keys *k = ctx;
	const struct spaa_compare_rank *a = x, *b = y;
	int c;

	if ((c = rank_cmp_keys(a, b)) ||
	    (c = spaa_strtab_join_cmp(&k->paths, a->idx, b->idx, function_name,
				      k, ';')))
		return c;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

void spaa_compare_rank_paths(const struct spaa_compare_keys *k, struct spaa_compare_rank *r,
			 size_t n)
{
	spaa_sort(r, n, sizeof(*r), path_rank_cmp, k);
}

struct part_progress {
	const struct spaa_load_opts *opts;
	unsigned part, nparts;
};

static void part_progress(void *data, uint64_t done, uint64_t total)
{
	const struct part_progress *pp = data;

	/* total 0 (stdin): unknown size, the caller shows "*" */
	if (!total || total > UINT64_MAX / pp->nparts)
		pp->opts->on_progress(pp->opts->progress_data, done, 0);
	else
		pp->opts->on_progress(pp->opts->progress_data,
				      pp->part * total + done, pp->nparts * total);
}

int spaa_compare_load(struct spaa_profile *p, const char *path, unsigned part,
		  unsigned nparts, const struct spaa_load_opts *opts,
		  struct spaa_error *err)
{
	struct spaa_load_opts lo = *opts;
	struct part_progress pp = { opts, part, nparts };

	if (opts->on_progress) {
		lo.on_progress = part_progress;
		lo.progress_data = &pp;
	}
	return spaa_load(p, &path, 1, &lo, err);
}
