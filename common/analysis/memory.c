#include <stdlib.h>
#include <string.h>

#include "analysis/memory.h"
#include "model/metrics.h"
#include "model/util.h"

/*
 * Anchored, so that "mallocator_init" or "free_list_pop" (real work of
 * the program) stay sites.  "@plt" is how perf names the PLT stubs.
 */
const char *const spaa_memory_default_skip[] = {
	/* C allocator entry points and libc string duplicators */
	"^(malloc|calloc|realloc|reallocarray|free|cfree|valloc|pvalloc|memalign|posix_memalign|aligned_alloc|strdup|strndup)(@plt)?$",
	/* glibc internals below them */
	"^(__libc_|__GI___libc_|_int_)(malloc|calloc|realloc|free|memalign)$",
	"^(sysmalloc|tcache_get|tcache_put|malloc_consolidate)$",
	/* C++ operator new/delete, demangled and mangled (_Znwm, _Znam, _ZdlPv, _ZdaPvm, ...) */
	"^operator (new|delete)(\\[\\])?(\\(.*\\))?$",
	"^_Zn[wa][jmy]",
	"^_Zd[la]Pv",
	/* jemalloc and tcmalloc */
	"^je_",
	"^(mallocx|rallocx|xallocx|sallocx|dallocx|sdallocx|nallocx)$",
	"^tc_",
	"^tcmalloc::",
	/* Rust's global allocator shims */
	"^__rust_(alloc|alloc_zeroed|realloc|dealloc)$",
	NULL,
};

enum { FN_UNSEEN, FN_SITE, FN_ALLOCATOR };

struct group_key {
	int64_t pid;
	uint32_t path, pad;
};

/* What a group counts while it is built, beside it. */
struct group_tally {
	unsigned alloc_records; /* allocation records (or fold groups) added */
	unsigned has[SPAA_MEMORY_NMETRICS];       /* of those, carrying metric m */
	bool dealloc;           /* some deallocation record landed here */
};

/* Only while spaa_memory_build runs: the tables never need it. */
struct build {
	struct spaa_memory *h;
	const struct spaa_memory_skip *skip;
	const struct spaa_filter *filter;       /* may be NULL */
	struct spaa_map keys;           /* (pid, path) -> group */
	struct group_tally *tally;      /* by group */
	size_t alloc;                   /* groups and tallies allocated */
	uint8_t *fn_class;              /* per function: FN_* */
	uint8_t *fn_select;             /* spaa_filter_functions' memo, with --focus/--ignore */
	uint32_t *seq;                  /* scratch */
	size_t seq_alloc;
};

static const char *const metric_names[SPAA_MEMORY_NMETRICS] = {
	"alloc_bytes", "alloc_count", "free_bytes", "free_count",
	"live_bytes", "live_count", "peak_bytes",
};

const char *spaa_memory_metric_name(enum spaa_memory_metric m)
{
	return metric_names[m];
}

static int overflow(struct spaa_error *err)
{
	return spaa_error_set(err, SPAA_E_LIMIT,
			      "a sum of allocation metrics overflows 64 bits");
}

static int add_to(uint64_t *sum, uint64_t v, struct spaa_error *err)
{
	return spaa_add_u64(*sum, v, sum) ? overflow(err) : 0;
}

/* ---- allocator frames ------------------------------------------------- */

static int skip_add(struct spaa_memory_skip *s, const char *pattern,
		    struct spaa_error *err)
{
	char why[256];
	int rc;

	SPAA_ALLOC_GROW(s->res, s->nr + 1, s->alloc);
	rc = regcomp(&s->res[s->nr], pattern, REG_EXTENDED | REG_NOSUB);
	if (rc) {
		regerror(rc, &s->res[s->nr], why, sizeof(why));
		regfree(&s->res[s->nr]);
		return spaa_error_set(err, SPAA_E_USAGE,
				      "invalid regular expression '%s' for '--skip': %s",
				      pattern, why);
	}
	s->nr++;
	return 0;
}

int spaa_memory_skip_init(struct spaa_memory_skip *s, bool defaults,
			const char *const *extra, size_t nextra,
			struct spaa_error *err)
{
	memset(s, 0, sizeof(*s));
	for (const char *const *d = spaa_memory_default_skip; defaults && *d; d++)
		if (skip_add(s, *d, err))
			goto fail;
	for (size_t i = 0; i < nextra; i++)
		if (skip_add(s, extra[i], err))
			goto fail;
	return 0;
fail:
	spaa_memory_skip_release(s);
	return -1;
}

void spaa_memory_skip_release(struct spaa_memory_skip *s)
{
	for (size_t i = 0; i < s->nr; i++)
		regfree(&s->res[i]);
	free(s->res);
	memset(s, 0, sizeof(*s));
}

bool spaa_memory_skip_match(const struct spaa_memory_skip *s, const char *name)
{
	for (size_t i = 0; i < s->nr; i++)
		if (!regexec(&s->res[i], name, 0, NULL, 0))
			return true;
	return false;
}

/* ---- accounting -------------------------------------------------------- */

bool spaa_memory_event(const struct spaa_profile *p, uint32_t event)
{
	return p->events[event].kind == SPAA_EV_ALLOCATION ||
	       p->events[event].kind == SPAA_EV_DEALLOCATION;
}

bool spaa_memory_has_records(const struct spaa_profile *p, uint32_t *seen)
{
	for (; *seen < p->nrecords; ++*seen)
		if (spaa_memory_event(p, p->records[*seen].event))
			return true;
	return false;
}

static bool is_allocator(struct build *b, uint32_t fn)
{
	const struct spaa_profile *p = b->h->p;

	if (b->fn_class[fn] == FN_UNSEEN)
		b->fn_class[fn] = spaa_memory_skip_match(b->skip,
				spaa_profile_str(p, p->functions[fn].name)) ?
				FN_ALLOCATOR : FN_SITE;
	return b->fn_class[fn] == FN_ALLOCATOR;
}

/*
 * The group index of frames (leaf first) in pid, created empty when new;
 * SPAA_NONE when --focus/--ignore leave its site stack out (the site
 * stack, not the record's: an allocation and the frees that meet it are
 * kept or left out together).
 */
static uint32_t group_of(struct build *b, const uint32_t *frames, uint32_t n,
			 int64_t pid)
{
	struct spaa_memory *h = b->h;
	const struct spaa_profile *p = h->p;
	struct group_key k;
	uint32_t first = 0, len, g;
	bool created;

	while (first < n && is_allocator(b, p->frames[frames[first]].fn))
		first++;
	/* nothing but allocator frames: the leaf is all there is to blame */
	if (first == n)
		first = 0;
	/* root first, so that a path's name is its sequence's names in order */
	len = n - first;
	SPAA_ALLOC_GROW(b->seq, len, b->seq_alloc);
	for (uint32_t i = 0; i < len; i++)
		b->seq[len - 1 - i] = p->frames[frames[first + i]].fn;
	if (b->fn_select && !spaa_filter_functions(b->filter, p, b->seq, len, b->fn_select))
		return SPAA_NONE;
	memset(&k, 0, sizeof(k));
	k.pid = pid;
	k.path = spaa_strtab_intern(&h->paths, b->seq, (size_t)len * sizeof(uint32_t));
	g = spaa_map_intern(&b->keys, &k, &created);
	if (created) {
		size_t old = b->alloc;

		SPAA_ALLOC_GROW(h->groups, (size_t)g + 1, b->alloc);
		if (b->alloc != old)
			b->tally = spaa_xrealloc(b->tally, b->alloc * sizeof(*b->tally));
		memset(&h->groups[g], 0, sizeof(h->groups[g]));
		memset(&b->tally[g], 0, sizeof(b->tally[g]));
		h->groups[g].path = k.path;
		h->groups[g].pid = pid;
		h->groups[g].site = b->seq[len - 1];
		h->ngroups = g + 1;
	}
	return g;
}

/*
 * What a record of a memory event carries: the values of the standard
 * metrics and a bit per metric present.  A deallocation record only
 * frees; alloc_bytes / free_bytes fall back to the primary metric when
 * that is a size.
 */
static unsigned record_values(const struct spaa_profile *p,
			      const uint32_t *metric_str,
			      const struct spaa_record *r, uint64_t *v)
{
	bool dealloc = p->events[r->event].kind == SPAA_EV_DEALLOCATION;
	int bytes = dealloc ? SPAA_MEMORY_FREE_BYTES : SPAA_MEMORY_ALLOC_BYTES;
	unsigned present = 0;

	for (int m = 0; m < SPAA_MEMORY_NMETRICS; m++) {
		v[m] = 0;
		if (dealloc && m != SPAA_MEMORY_FREE_BYTES && m != SPAA_MEMORY_FREE_COUNT)
			continue;
		if (metric_str[m] != SPAA_NONE &&
		    spaa_profile_weights_get(p, r->weights, r->nweights, metric_str[m], &v[m]))
			present |= SPAA_MEMORY_BIT(m);
	}
	if (!(present & SPAA_MEMORY_BIT(bytes))) {
		uint32_t prim = p->events[r->event].primary_metric;
		struct spaa_metrics_sem sem;

		spaa_metrics_semantics(p, r->event, prim,
				      spaa_profile_weights_unit(p, r->weights, r->nweights, prim),
				      &sem);
		if (sem.cls == SPAA_METRICS_SIZE &&
		    spaa_profile_weights_get(p, r->weights, r->nweights, prim, &v[bytes]))
			present |= SPAA_MEMORY_BIT(bytes);
	}
	return present;
}

static int contribute(struct build *b, const uint32_t *frames, uint32_t nframes,
		      int64_t pid, bool dealloc, const uint64_t *v, unsigned present,
		      struct spaa_error *err)
{
	uint32_t i = group_of(b, frames, nframes, pid);
	struct spaa_memory_group *g;
	struct group_tally *t;

	if (i == SPAA_NONE)
		return 0;
	g = &b->h->groups[i];
	t = &b->tally[i];
	b->h->records++;
	if (dealloc) {
		t->dealloc = true;
		if (((present & SPAA_MEMORY_BIT(SPAA_MEMORY_FREE_BYTES)) &&
		     add_to(&g->v[SPAA_MEMORY_FREE_BYTES], v[SPAA_MEMORY_FREE_BYTES], err)) ||
		    ((present & SPAA_MEMORY_BIT(SPAA_MEMORY_FREE_COUNT)) &&
		     add_to(&g->v[SPAA_MEMORY_FREE_COUNT], v[SPAA_MEMORY_FREE_COUNT], err)))
			return -1;
		return 0;
	}
	t->alloc_records++;
	for (int m = 0; m < SPAA_MEMORY_NMETRICS; m++) {
		if (!(present & SPAA_MEMORY_BIT(m)))
			continue;
		t->has[m]++;
		if (add_to(&g->v[m], v[m], err))
			return -1;
	}
	return 0;
}

static int add_records(struct build *b, const uint32_t *metric_str,
		       struct spaa_error *err)
{
	const struct spaa_profile *p = b->h->p;
	uint64_t v[SPAA_MEMORY_NMETRICS];

	for (uint32_t i = 0; i < p->nrecords; i++) {
		const struct spaa_record *r = &p->records[i];
		unsigned present;

		if (r->absorbed || !spaa_memory_event(p, r->event) ||
		    (b->filter && !spaa_filter_context(b->filter, p, r->pid, r->tid, r->comm)))
			continue;
		present = record_values(p, metric_str, r, v);
		if (contribute(b, spaa_profile_record_frames(p, r), r->nframes, r->pid,
			       p->events[r->event].kind == SPAA_EV_DEALLOCATION,
			       v, present, err))
			return -1;
	}
	return 0;
}

static int add_fold(struct build *b, const uint32_t *metric_str,
		    const struct spaa_fold *f, struct spaa_error *err)
{
	const struct spaa_profile *p = b->h->p;
	struct spaa_fold_records recs;
	uint64_t v[SPAA_MEMORY_NMETRICS];
	int ret = -1;

	spaa_fold_records_init(&recs, f, p);
	for (uint32_t i = 0; i < f->nkeys; i++) {
		const struct spaa_fold_key *k = spaa_fold_key(f, i);
		bool dealloc = p->events[k->event].kind == SPAA_EV_DEALLOCATION;
		int bytes = dealloc ? SPAA_MEMORY_FREE_BYTES : SPAA_MEMORY_ALLOC_BYTES;
		const uint32_t *frames;
		uint32_t nframes;
		unsigned present = 0;
		int64_t pid = k->pid;

		if (!spaa_memory_event(p, k->event) || !f->groups[i].in_count ||
		    (b->filter && !spaa_filter_context(b->filter, p, k->pid, k->tid, 0)))
			continue;
		if (recs.of[i] != SPAA_NONE) {
			const struct spaa_record *r = &p->records[recs.of[i]];

			present = record_values(p, metric_str, r, v);
			/* a high-water mark cannot be cut in time */
			present &= ~SPAA_MEMORY_BIT(SPAA_MEMORY_PEAK_BYTES);
			for (int m = 0; m < SPAA_MEMORY_NMETRICS; m++)
				v[m] = spaa_fold_records_share(&recs, f, i, v[m]);
			frames = spaa_profile_record_frames(p, r);
			nframes = r->nframes;
			if (pid == SPAA_NO_ID)
				pid = r->pid;
		} else {
			const struct spaa_stack *s = &p->stacks[k->stack];

			memset(v, 0, sizeof(v));
			frames = p->frame_pool + s->frames;
			nframes = s->nframes;
		}
		if (f->all_period[i]) {
			v[bytes] = f->groups[i].in_period;
			present |= SPAA_MEMORY_BIT(bytes);
		}
		if (!present)
			continue;       /* no record to share out, no periods */
		if (contribute(b, frames, nframes, pid, dealloc, v, present, err))
			goto out;
	}
	ret = 0;
out:
	spaa_fold_records_release(&recs);
	return ret;
}

static bool profile_tracks_frees(const struct spaa_profile *p)
{
	for (uint32_t e = 0; e < p->nevents; e++)
		if (p->events[e].kind == SPAA_EV_DEALLOCATION ||
		    (p->events[e].kind == SPAA_EV_ALLOCATION &&
		     p->events[e].tracks_frees == 1))
			return true;
	return false;
}

static void finish_group(struct spaa_memory *h, struct spaa_memory_group *g,
			 const struct group_tally *t)
{
	static const int live[][3] = {
		{ SPAA_MEMORY_LIVE_BYTES, SPAA_MEMORY_ALLOC_BYTES, SPAA_MEMORY_FREE_BYTES },
		{ SPAA_MEMORY_LIVE_COUNT, SPAA_MEMORY_ALLOC_COUNT, SPAA_MEMORY_FREE_COUNT },
	};
	unsigned n = t->alloc_records, native = 0, derived = 0;

	/* a stack that only frees allocated nothing the profile saw */
	for (int m = SPAA_MEMORY_ALLOC_BYTES; m <= SPAA_MEMORY_ALLOC_COUNT; m++)
		if (t->has[m] || !n)
			g->known |= SPAA_MEMORY_BIT(m);
	for (int m = SPAA_MEMORY_FREE_BYTES; m <= SPAA_MEMORY_FREE_COUNT; m++) {
		if (t->has[m] || t->dealloc)
			native |= SPAA_MEMORY_BIT(m);
		if (t->has[m] || t->dealloc || h->frees_known)
			g->known |= SPAA_MEMORY_BIT(m);
	}
	for (size_t i = 0; i < sizeof(live) / sizeof(live[0]); i++) {
		int m = live[i][0], a = live[i][1], fr = live[i][2];

		if (n && t->has[m] == n) {
			native |= SPAA_MEMORY_BIT(m);
			g->known |= SPAA_MEMORY_BIT(m);
		} else if ((g->known & SPAA_MEMORY_BIT(a)) && (g->known & SPAA_MEMORY_BIT(fr))) {
			g->v[m] = g->v[a] > g->v[fr] ? g->v[a] - g->v[fr] : 0;
			derived |= SPAA_MEMORY_BIT(m);
			g->known |= SPAA_MEMORY_BIT(m);
		} else {
			g->v[m] = 0;
		}
	}
	if (n && t->has[SPAA_MEMORY_PEAK_BYTES] == n)
		g->known |= SPAA_MEMORY_BIT(SPAA_MEMORY_PEAK_BYTES);
	else
		g->v[SPAA_MEMORY_PEAK_BYTES] = 0;
	for (int m = 0; m < SPAA_MEMORY_NMETRICS; m++)
		if (t->has[m])
			native |= SPAA_MEMORY_BIT(m);
	h->native |= native & g->known;
	h->derived |= derived;
	h->unknown |= ~g->known & ((1u << SPAA_MEMORY_NMETRICS) - 1);
}

int spaa_memory_build(struct spaa_memory *h, const struct spaa_profile *p,
		    const struct spaa_memory_skip *skip,
		    const struct spaa_fold *fold, const struct spaa_filter *filter,
		    struct spaa_error *err)
{
	struct build b = { .h = h, .skip = skip, .filter = filter };
	uint32_t metric_str[SPAA_MEMORY_NMETRICS];
	int ret = -1;

	memset(h, 0, sizeof(*h));
	h->p = p;
	h->ranged = fold != NULL;
	spaa_strtab_init(&h->paths);
	spaa_map_init(&b.keys, sizeof(struct group_key));
	b.fn_class = spaa_xcalloc(spaa_profile_nfunctions(p) + 1, 1);
	if (filter && spaa_filter_has_stacks(filter))
		b.fn_select = spaa_xcalloc(spaa_profile_nfunctions(p) + 1, 1);
	for (int m = 0; m < SPAA_MEMORY_NMETRICS; m++)
		metric_str[m] = spaa_strtab_find(&p->strings, metric_names[m],
						 strlen(metric_names[m]));
	if (fold ? add_fold(&b, metric_str, fold, err) :
	    add_records(&b, metric_str, err))
		goto out;
	h->frees_known = profile_tracks_frees(p);
	for (uint32_t g = 0; g < h->ngroups; g++)
		if (b.tally[g].dealloc || b.tally[g].has[SPAA_MEMORY_FREE_BYTES] ||
		    b.tally[g].has[SPAA_MEMORY_FREE_COUNT])
			h->frees_known = true;
	for (uint32_t g = 0; g < h->ngroups; g++)
		finish_group(h, &h->groups[g], &b.tally[g]);
	/* the groups are all the tables read: give back what growth left over */
	if (h->ngroups)
		h->groups = spaa_xrealloc(h->groups, h->ngroups * sizeof(*h->groups));
	ret = 0;
out:
	spaa_map_release(&b.keys);
	free(b.tally);
	free(b.fn_class);
	free(b.fn_select);
	free(b.seq);
	return ret;
}

void spaa_memory_release(struct spaa_memory *h)
{
	spaa_strtab_release(&h->paths);
	free(h->groups);
	memset(h, 0, sizeof(*h));
}

static const char *function_name(const void *ctx, uint32_t fn)
{
	const struct spaa_profile *p = ctx;

	return spaa_profile_str(p, p->functions[fn].name);
}

char *spaa_memory_path_name(const struct spaa_memory *h, uint32_t path)
{
	return spaa_strtab_join(&h->paths, path, function_name, h->p, ';');
}

void spaa_memory_rank_paths(const struct spaa_memory *h, struct spaa_rank *r, size_t n)
{
	spaa_rank_sort_joined(r, n, &h->paths, function_name, h->p, 1);
}

/* ---- allocated bytes over time ---------------------------------------- */

/*
 * Series of the grid: allocated bytes keyed by stack, freed bytes keyed
 * by nothing (a zero: the frees matter only as a total per bin).
 */
enum { MT_ALLOC, MT_FREE };
static const size_t mt_keys[] = { sizeof(uint32_t), sizeof(uint32_t) };

void spaa_memory_time_init(struct spaa_memory_time *mt, uint32_t max_bins)
{
	memset(mt, 0, sizeof(*mt));
	mt->max_bins = max_bins;
}

void spaa_memory_time_release(struct spaa_memory_time *mt)
{
	if (mt->started)
		spaa_timegrid_release(&mt->grid);
	memset(mt, 0, sizeof(*mt));
}

int spaa_memory_time_add(struct spaa_memory_time *mt, const struct spaa_profile *p,
			 const struct spaa_filter *f, const struct spaa_sample *s,
			 struct spaa_error *err)
{
	bool dealloc = p->events[s->event].kind == SPAA_EV_DEALLOCATION;
	static const uint32_t none = 0;
	int64_t bin;

	if (!mt->started) {
		const struct spaa_file *file = &p->files[s->file];
		int64_t origin = file->has_time_range ? file->time_start : s->time;
		int64_t width = 1000;   /* 1 us while the span is unknown */

		/* samples come from the range: a --begin past the start starts the grid */
		if (f->has_begin && f->begin > origin)
			origin = f->begin;
		if (file->has_time_range) {
			/* the span up front: the widest bins that fit max_bins */
			int64_t lo = origin;
			int64_t hi = f->has_end && f->end < file->time_end ? f->end : file->time_end;
			uint64_t span = hi > lo ? (uint64_t)hi - (uint64_t)lo : 0;

			width = spaa_timegrid_round_width((int64_t)(span / mt->max_bins) + 1, 1);
		}
		spaa_timegrid_init(&mt->grid, origin, width, false, mt->max_bins, mt_keys, 2);
		mt->grid.max_cells = SPAA_MEMORY_TIME_MAX_CELLS;
		mt->started = true;
	}
	return spaa_timegrid_place(&mt->grid, s->time, &bin, err) ||
	       spaa_timegrid_add(&mt->grid, dealloc ? MT_FREE : MT_ALLOC, bin,
				 dealloc ? &none : &s->stack, 1,
				 s->has_period ? s->period : 0, err) ||
	       spaa_timegrid_limit_cells(&mt->grid, err) ? -1 : 0;
}

/* The site function of stack: the first frame from the leaf that is no allocator. */
static uint32_t stack_site(const struct spaa_profile *p, const struct spaa_memory_skip *skip,
			   uint32_t stack)
{
	const struct spaa_stack *st = &p->stacks[stack];
	const uint32_t *frames = p->frame_pool + st->frames;

	for (uint32_t i = 0; i < st->nframes; i++) {
		uint32_t fn = p->frames[frames[i]].fn;

		if (!spaa_memory_skip_match(skip, spaa_profile_str(p, p->functions[fn].name)))
			return fn;
	}
	/* nothing but allocator frames: the leaf is all there is to blame */
	return st->nframes ? p->frames[frames[0]].fn : SPAA_NONE;
}

int spaa_memory_time_sites(const struct spaa_memory_time *mt,
			   const struct spaa_profile *p,
			   const struct spaa_memory_skip *skip,
			   int (*fn)(void *data, uint32_t bin, uint32_t site,
				     uint64_t bytes, struct spaa_error *err),
			   void *data, struct spaa_error *err)
{
	uint32_t n = mt->started ? spaa_timegrid_ncells(&mt->grid, MT_ALLOC) : 0;
	/* sites by stack, each found once: a stack has a cell in many bins */
	uint32_t *site = spaa_xmalloc(((size_t)p->nstacks + 1) * sizeof(*site));
	int ret = 0;

	for (uint32_t i = 0; i < p->nstacks; i++)
		site[i] = SPAA_NONE - 1;
	for (uint32_t c = 0; c < n && !ret; c++) {
		struct spaa_timegrid_sum sum;
		int64_t bin;
		uint32_t stack = *(const uint32_t *)spaa_timegrid_cell(&mt->grid, MT_ALLOC, c,
								       &bin, &sum);

		if (site[stack] == SPAA_NONE - 1)
			site[stack] = stack_site(p, skip, stack);
		if (site[stack] != SPAA_NONE && sum.weight)
			ret = fn(data, (uint32_t)(bin - mt->grid.lo), site[stack], sum.weight, err);
	}
	free(site);
	return ret;
}

void spaa_memory_time_live(const struct spaa_memory_time *mt, uint64_t *live)
{
	uint64_t nbins = mt->started ? spaa_timegrid_nbins(&mt->grid) : 0;
	uint64_t *in = spaa_xcalloc(2 * nbins + 1, sizeof(*in)), *out = in + nbins;
	uint64_t now = 0;

	for (size_t s = MT_ALLOC; s <= MT_FREE && mt->started; s++)
		for (uint32_t c = 0; c < spaa_timegrid_ncells(&mt->grid, s); c++) {
			struct spaa_timegrid_sum sum;
			int64_t bin;
			uint64_t *at;

			spaa_timegrid_cell(&mt->grid, s, c, &bin, &sum);
			at = (s == MT_FREE ? out : in) + (bin - mt->grid.lo);
			*at = *at > UINT64_MAX - sum.weight ? UINT64_MAX : *at + sum.weight;
		}
	/* in time order; frees of memory from before the first bin stop at 0 */
	for (uint64_t b = 0; b < nbins; b++) {
		now = now > UINT64_MAX - in[b] ? UINT64_MAX : now + in[b];
		now = now > out[b] ? now - out[b] : 0;
		live[b] = now;
	}
	free(in);
}
