#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/aggregate.h"
#include "io/output.h"
#include "model/util.h"

struct thread_key {
	int64_t pid, tid;
};

struct thread_fn_key {
	uint32_t thread, fn;
};


static int overflow(struct spaa_error *err)
{
	return spaa_error_set(err, SPAA_E_LIMIT,
			      "a sum of weights overflows 64 bits");
}

static int add_to(uint64_t *sum, uint64_t v, struct spaa_error *err)
{
	return spaa_add_u64(*sum, v, sum) ? overflow(err) : 0;
}

void spaa_aggregate_init(struct spaa_aggregate *a, const struct spaa_profile *p)
{
	uint32_t nfn = spaa_profile_nfunctions(p);

	memset(a, 0, sizeof(*a));
	a->p = p;
	a->samples_known = true;
	a->fn_self = spaa_xcalloc(nfn, sizeof(uint64_t));
	a->fn_total = spaa_xcalloc(nfn, sizeof(uint64_t));
	a->fn_samples = spaa_xcalloc(nfn, sizeof(uint64_t));
	a->fn_mark = spaa_xcalloc(nfn, sizeof(uint32_t));
	a->dso_self = spaa_xcalloc(spaa_profile_ndsos(p), sizeof(uint64_t));
	spaa_strtab_init(&a->paths);
	spaa_map_init(&a->threads, sizeof(struct thread_key));
	spaa_map_init(&a->thread_fn, sizeof(struct thread_fn_key));
	spaa_map_init(&a->cpus, sizeof(int64_t));
}

void spaa_aggregate_release(struct spaa_aggregate *a)
{
	free(a->fn_self);
	free(a->fn_total);
	free(a->fn_samples);
	free(a->fn_mark);
	free(a->fn_select);
	free(a->dso_self);
	spaa_strtab_release(&a->paths);
	free(a->path_weight);
	spaa_map_release(&a->threads);
	free(a->thread_weight);
	free(a->thread_comm);
	spaa_map_release(&a->thread_fn);
	free(a->thread_fn_self);
	spaa_map_release(&a->cpus);
	free(a->cpu_weight);
	free(a->seq);
	memset(a, 0, sizeof(*a));
}

/* Grows *vals (*alloc of them) to n at least, with zeros. */
static void grow_zeroed(uint64_t **vals, size_t n, size_t *alloc)
{
	size_t old = *alloc;

	if (n <= old)
		return;
	SPAA_ALLOC_GROW(*vals, n, *alloc);
	memset(*vals + old, 0, (*alloc - old) * sizeof(**vals));
}

/* Index of key in m, growing the parallel uint64 array with zeros. */
static uint32_t slot(struct spaa_map *m, const void *key, uint64_t **vals,
		     size_t *alloc)
{
	bool created;
	uint32_t i = spaa_map_intern(m, key, &created);

	if (created) {
		size_t old = *alloc;

		SPAA_ALLOC_GROW(*vals, (size_t)i + 1, *alloc);
		memset(*vals + old, 0, (*alloc - old) * sizeof(**vals));
	}
	return i;
}

static int add_path(struct spaa_aggregate *a, const struct spaa_aggregate_occurrence *o,
		    struct spaa_error *err)
{
	const struct spaa_profile *p = a->p;
	uint32_t path;

	/* by name, as flame graphs fold: rows never show the same path twice */
	SPAA_ALLOC_GROW(a->seq, o->nframes, a->seq_alloc);
	for (uint32_t i = 0; i < o->nframes; i++) {
		uint32_t fn = p->frames[o->frames[o->nframes - 1 - i]].fn;

		a->seq[i] = a->path_by_function ? fn : p->functions[fn].name;
	}
	path = spaa_strtab_intern(&a->paths, a->seq, o->nframes * sizeof(uint32_t));
	if (path >= a->path_alloc) {
		size_t old = a->path_alloc;

		SPAA_ALLOC_GROW(a->path_weight, (size_t)path + 1, a->path_alloc);
		memset(a->path_weight + old, 0,
		       (a->path_alloc - old) * sizeof(*a->path_weight));
	}
	return add_to(&a->path_weight[path], o->weight, err);
}

/* Index of thread k, its command set to comm unless it has one. */
static uint32_t thread_slot(struct spaa_aggregate *a, const struct thread_key *k,
			    uint32_t comm)
{
	size_t old = a->thread_alloc;
	uint32_t t = slot(&a->threads, k, &a->thread_weight, &a->thread_alloc);

	if (a->thread_alloc != old) {
		a->thread_comm = spaa_xrealloc(a->thread_comm,
					       a->thread_alloc * sizeof(uint32_t));
		memset(a->thread_comm + old, 0,
		       (a->thread_alloc - old) * sizeof(uint32_t));
	}
	if (!a->thread_comm[t])
		a->thread_comm[t] = comm;
	return t;
}

static int add_thread(struct spaa_aggregate *a, const struct spaa_aggregate_occurrence *o,
		      uint32_t self_fn, struct spaa_error *err)
{
	struct thread_key k;
	struct thread_fn_key fk;
	uint32_t t;

	if (o->pid == SPAA_NO_ID && o->tid == SPAA_NO_ID)
		return 0;
	memset(&k, 0, sizeof(k));
	k.pid = o->pid;
	k.tid = o->tid;
	t = thread_slot(a, &k, o->comm);
	if (add_to(&a->thread_weight[t], o->weight, err))
		return -1;
	fk.thread = t;
	fk.fn = self_fn;
	/* slot() may move the array: index first, then address */
	t = slot(&a->thread_fn, &fk, &a->thread_fn_self, &a->thread_fn_alloc);
	return add_to(&a->thread_fn_self[t], o->self, err);
}

static int add_cpu(struct spaa_aggregate *a, const struct spaa_aggregate_occurrence *o,
		   struct spaa_error *err)
{
	uint32_t c;

	if (o->cpu == SPAA_NO_ID)
		return 0;
	c = slot(&a->cpus, &o->cpu, &a->cpu_weight, &a->cpu_alloc);
	a->cpus_known = true;
	return add_to(&a->cpu_weight[c], o->weight, err);
}

/* o, or with keys_only its keys alone, in *tmp. */
static const struct spaa_aggregate_occurrence *
keys_of(const struct spaa_aggregate *a, const struct spaa_aggregate_occurrence *o,
	struct spaa_aggregate_occurrence *tmp)
{
	if (!a->keys_only)
		return o;
	*tmp = *o;
	tmp->weight = tmp->self = tmp->samples = 0;
	return tmp;
}

/*
 * Everything spaa_aggregate_add adds but the path: what one thread of
 * spaa_aggregate_add_records adds while another adds the paths.
 */
static int add_sums(struct spaa_aggregate *a, const struct spaa_aggregate_occurrence *o,
		    struct spaa_error *err)
{
	const struct spaa_profile *p = a->p;
	uint32_t self_fn = p->frames[o->self_frame].fn;

	a->occurrences++;
	if (a->edges && spaa_callgraph_add(a->edges, o->frames, o->nframes, o->weight, err))
		return -1;
	if (add_to(&a->total, o->weight, err) ||
	    add_to(&a->fn_self[self_fn], o->self, err) ||
	    add_to(&a->dso_self[p->functions[self_fn].dso], o->self, err))
		return -1;
	if (!o->has_samples)
		a->samples_known = false;
	else if (add_to(&a->fn_samples[self_fn], o->samples, err))
		return -1;

	/* a recursive function is counted once per stack toward its total */
	if (++a->gen == 0) {
		memset(a->fn_mark, 0, spaa_profile_nfunctions(p) * sizeof(uint32_t));
		a->gen = 1;
	}
	for (uint32_t i = 0; i < o->nframes; i++) {
		uint32_t fn = p->frames[o->frames[i]].fn;

		if (a->fn_mark[fn] == a->gen)
			continue;
		a->fn_mark[fn] = a->gen;
		if (add_to(&a->fn_total[fn], o->weight, err))
			return -1;
	}
	if (add_thread(a, o, self_fn, err))
		return -1;
	return add_cpu(a, o, err);
}

int spaa_aggregate_add(struct spaa_aggregate *a, const struct spaa_aggregate_occurrence *o,
		 struct spaa_error *err)
{
	struct spaa_aggregate_occurrence tmp;

	o = keys_of(a, o, &tmp);
	if (a->cpus_only) {
		a->occurrences++;
		if (add_to(&a->total, o->weight, err))
			return -1;
		return add_cpu(a, o, err);
	}
	if (add_sums(a, o, err) || add_path(a, o, err))
		return -1;
	return 0;
}

/* The string indices of the metrics that count samples. */
struct sample_metrics {
	uint32_t samples, count;        /* SPAA_NONE: not in the profile */
};

static struct sample_metrics sample_metrics(const struct spaa_profile *p)
{
	return (struct sample_metrics){
		spaa_strtab_find(&p->strings, "samples", 7),
		spaa_strtab_find(&p->strings, "count", 5),
	};
}

static bool record_samples(const struct spaa_profile *p, struct sample_metrics sm,
			   const struct spaa_record *r, uint64_t *n)
{
	return (sm.samples != SPAA_NONE &&
		spaa_profile_weights_get(p, r->weights, r->nweights, sm.samples, n)) ||
	       (sm.count != SPAA_NONE &&
		spaa_profile_weights_get(p, r->weights, r->nweights, sm.count, n));
}

/* spaa_aggregate_record_occurrence, the sample metrics looked up once per loop. */
static bool record_occurrence(const struct spaa_profile *p, struct sample_metrics sm,
			      uint32_t rec, uint32_t metric, struct spaa_aggregate_occurrence *o)
{
	const struct spaa_record *r = &p->records[rec];

	memset(o, 0, sizeof(*o));
	if (!spaa_profile_weights_get(p, r->weights, r->nweights, metric, &o->weight))
		return false;
	o->frames = spaa_profile_record_frames(p, r);
	o->nframes = r->nframes;
	o->self_frame = o->frames[0];
	o->self = o->weight;
	if (r->excl_frame != SPAA_NONE &&
	    spaa_profile_weights_get(p, r->excl, r->nexcl, metric, &o->self))
		o->self_frame = r->excl_frame;
	o->has_samples = record_samples(p, sm, r, &o->samples);
	o->pid = r->pid;
	o->tid = r->tid;
	o->cpu = r->cpu;
	o->comm = r->comm;
	return true;
}

bool spaa_aggregate_record_occurrence(const struct spaa_profile *p, uint32_t rec,
			    uint32_t metric, struct spaa_aggregate_occurrence *o)
{
	return record_occurrence(p, sample_metrics(p), rec, metric, o);
}

/* Whether filter (NULL keeps everything) keeps a stack in its context. */
static bool keep(struct spaa_aggregate *a, const struct spaa_filter *f,
		 int64_t pid, int64_t tid, uint32_t comm, const uint32_t *frames,
		 uint32_t nframes)
{
	if (!f)
		return true;
	if (!spaa_filter_context(f, a->p, pid, tid, comm))
		return false;
	if (!spaa_filter_has_stacks(f))
		return true;
	if (!a->fn_select)
		a->fn_select = spaa_xcalloc(spaa_profile_nfunctions(a->p) + 1, 1);
	return spaa_filter_stack(f, a->p, frames, nframes, a->fn_select);
}

/* keep() of a sample group: its stack is read only when the filter looks at stacks. */
static bool keep_group(struct spaa_aggregate *a, const struct spaa_filter *f,
		       const struct spaa_fold_key *k)
{
	const struct spaa_stack *s;

	if (!f || !spaa_filter_has_stacks(f))
		return keep(a, f, k->pid, k->tid, 0, NULL, 0);
	s = &a->p->stacks[k->stack];
	return keep(a, f, k->pid, k->tid, 0, a->p->frame_pool + s->frames, s->nframes);
}

/* The frames of stack into o, the leaf taking the self weight. */
static void stack_frames(const struct spaa_profile *p, uint32_t stack,
			 struct spaa_aggregate_occurrence *o)
{
	const struct spaa_stack *s = &p->stacks[stack];

	o->frames = p->frame_pool + s->frames;
	o->nframes = s->nframes;
	o->self_frame = o->frames[0];
}

/* What one pass over the records adds (spaa_aggregate_add_records). */
enum part {
	ALL,    /* spaa_aggregate_add */
	SUMS,   /* add_sums */
	PATHS,  /* add_path */
};

/* The records of event that filter keeps into a, part of each. */
static int add_records(struct spaa_aggregate *a, uint32_t event, uint32_t metric,
		       const struct spaa_filter *filter, enum part part,
		       struct spaa_error *err)
{
	const struct spaa_profile *p = a->p;
	struct sample_metrics sm = sample_metrics(p);

	for (uint32_t i = 0; i < p->nrecords; i++) {
		const struct spaa_record *r = &p->records[i];
		struct spaa_aggregate_occurrence o, tmp;

		if (r->event != event || r->absorbed ||
		    !keep(a, filter, r->pid, r->tid, r->comm,
			  spaa_profile_record_frames(p, r), r->nframes))
			continue;
		if (part == PATHS) {
			/* a path needs the frames and the weight alone */
			memset(&o, 0, sizeof(o));
			if (!spaa_profile_weights_get(p, r->weights, r->nweights, metric,
						      &o.weight))
				continue;
			o.frames = spaa_profile_record_frames(p, r);
			o.nframes = r->nframes;
			if (add_path(a, keys_of(a, &o, &tmp), err))
				return -1;
			continue;
		}
		if (!record_occurrence(p, sm, i, metric, &o))
			continue;
		if (part == ALL ? spaa_aggregate_add(a, &o, err) :
		    add_sums(a, keys_of(a, &o, &tmp), err))
			return -1;
	}
	return 0;
}

/* The sums but the paths of spaa_aggregate_add_records, on a thread of their own. */
struct sums_job {
	struct spaa_aggregate *a;
	uint32_t event, metric;
	const struct spaa_filter *filter;
	int ret;
	struct spaa_error err;
};

static void *sums_main(void *arg)
{
	struct sums_job *j = arg;

	j->ret = add_records(j->a, j->event, j->metric, j->filter, SUMS, &j->err);
	return NULL;
}

/*
 * Room in a for the paths of nrec records, one a stack at most, so that
 * its table of paths is not rehashed as it grows: each rehash reads every
 * path again (a fifth of the time of a pass on make bench's profile).
 */
static void reserve_paths(struct spaa_aggregate *a, uint32_t nrec)
{
	size_t n = 1 + (size_t)(nrec < a->p->nstacks ? nrec : a->p->nstacks);

	spaa_strtab_reserve(&a->paths, n);
	grow_zeroed(&a->path_weight, n, &a->path_alloc);
}

int spaa_aggregate_add_records(struct spaa_aggregate *a, uint32_t event,
			       uint32_t metric, const struct spaa_filter *filter,
			       struct spaa_error *err)
{
	uint32_t min = a->split_min ? a->split_min : SPAA_AGGREGATE_SPLIT_MIN;
	struct sums_job j = { .a = a, .event = event, .metric = metric, .filter = filter };
	pthread_t thread;
	int ret;

	if (a->cpus_only)
		return add_records(a, event, metric, filter, ALL, err);
	reserve_paths(a, a->p->nrecords);
	/*
	 * On two threads, one adding the paths and the other everything
	 * else, each over every record in order: each table is built as one
	 * pass builds it, by one thread (they share no field).  A filter of
	 * stacks keeps its memo in a: one pass then.
	 */
	spaa_error_init(&j.err);
	if (a->workers < 2 || a->p->nrecords < min ||
	    (filter && spaa_filter_has_stacks(filter)) ||
	    spaa_output_thread_create(&thread, sums_main, &j))
		return add_records(a, event, metric, filter, ALL, err);
	ret = add_records(a, event, metric, filter, PATHS, err);
	pthread_join(thread, NULL);
	/* either error is the one pass's: an overflow, said the same way */
	if (!ret && j.ret) {
		*err = j.err;
		ret = -1;
	}
	return ret;
}

int spaa_aggregate_add_fold(struct spaa_aggregate *a, const struct spaa_fold *f,
			    uint32_t event, uint32_t metric,
			    const struct spaa_filter *filter, struct spaa_error *err)
{
	const struct spaa_profile *p = a->p;
	const char *m = spaa_profile_str(p, metric);
	bool counts = !strcmp(m, "samples") || !strcmp(m, "count");
	bool by_period = !strcmp(m, "period");
	struct spaa_fold_records recs = { 0 };    /* found at the first group that needs them */
	struct sample_metrics sm = sample_metrics(p);
	int ret = -1;

	for (uint32_t i = 0; i < f->nkeys; i++) {
		const struct spaa_fold_key *k = &f->groups[i].key;
		/* the period is the weight of the metric the samples name */
		bool period = k->period_metric ? k->period_metric == metric : by_period;
		/*
		 * Sums per CPU of the group's own count or periods need nothing
		 * of its record (a record's frames and threads are not summed
		 * there): records are found only when a group's weight is a
		 * share of its record's, or its frames count.  spaa-hotspots'
		 * table of CPUs sums the samples of every group (100,000 on
		 * make bench's profile) this way, each record found before a
		 * random read of its weights.
		 */
		bool own = a->cpus_only && (counts || (period && f->all_period[i]));
		struct spaa_aggregate_occurrence o;

		if (k->event != event || !f->groups[i].in_count ||
		    !keep_group(a, filter, k))
			continue;
		if (!own && !recs.of)
			spaa_fold_records_init(&recs, f, p);
		if (own || recs.of[i] == SPAA_NONE ||
		    !record_occurrence(p, sm, recs.of[i], metric, &o)) {
			if (!counts && !(period && f->all_period[i]))
				continue;       /* no weight to share out */
			memset(&o, 0, sizeof(o));
			/*
			 * Sums per CPU read no frames: a group's stack and its
			 * first frame are two random reads (two thirds of the
			 * time of this loop on make bench's profile, where the
			 * groups themselves are read in order).
			 */
			if (!a->cpus_only)
				stack_frames(p, k->stack, &o);
		}
		if (counts) {
			o.weight = o.self = f->groups[i].in_count;
		} else if (period && f->all_period[i]) {
			o.weight = o.self = f->groups[i].in_period;
		} else {
			o.self = spaa_fold_records_share(&recs, f, i, o.self);
			o.weight = spaa_fold_records_share(&recs, f, i, o.weight);
		}
		o.has_samples = true;
		o.samples = f->groups[i].in_count;
		o.pid = k->pid;
		o.tid = k->tid;
		o.cpu = k->cpu;
		if (spaa_aggregate_add(a, &o, err))
			goto out;
	}
	ret = 0;
out:
	spaa_fold_records_release(&recs);
	return ret;
}

/* a path element: a name string, or a function (path_by_function) */
static const char *path_element(const void *ctx, uint32_t id)
{
	const struct spaa_aggregate *a = ctx;

	return spaa_profile_str(a->p, a->path_by_function ? a->p->functions[id].name : id);
}

/*
 * Names are measured with strlen, as where they are printed: one with a
 * NUL byte inside (a reader may keep one) ends there.
 */
size_t spaa_aggregate_path_name_len(const struct spaa_aggregate *a, uint32_t path)
{
	/* the ids are stored unaligned among strings: copy each one out */
	const char *seq = spaa_strtab_get(&a->paths, path);
	uint32_t n = spaa_strtab_len(&a->paths, path) / sizeof(uint32_t), id;
	size_t len = n ? n - 1 : 0;     /* the separators */

	for (uint32_t k = 0; k < n; k++) {
		memcpy(&id, seq + k * sizeof(id), sizeof(id));
		len += strlen(path_element(a, id));
	}
	return len;
}

void spaa_aggregate_path_name_to(const struct spaa_aggregate *a, uint32_t path,
				 bool leaf_first, char *d)
{
	const char *seq = spaa_strtab_get(&a->paths, path);
	uint32_t n = spaa_strtab_len(&a->paths, path) / sizeof(uint32_t), id;

	for (uint32_t k = 0; k < n; k++) {
		const char *name;
		size_t l;

		memcpy(&id, seq + (leaf_first ? n - 1 - k : k) * sizeof(id), sizeof(id));
		name = path_element(a, id);
		l = strlen(name);
		memcpy(d, name, l);
		d += l;
		if (k + 1 < n)
			*d++ = ';';
	}
}

static char *path_name(const struct spaa_aggregate *a, uint32_t path, bool leaf_first)
{
	size_t len = spaa_aggregate_path_name_len(a, path);
	char *s = spaa_xmalloc(len + 1);

	spaa_aggregate_path_name_to(a, path, leaf_first, s);
	s[len] = '\0';
	return s;
}

char *spaa_aggregate_path_name(const struct spaa_aggregate *a, uint32_t path)
{
	return path_name(a, path, false);
}

char *spaa_aggregate_path_name_leaf_first(const struct spaa_aggregate *a, uint32_t path)
{
	return path_name(a, path, true);
}

void spaa_aggregate_rank_paths(const struct spaa_aggregate *a, struct spaa_rank *r, size_t n)
{
	spaa_rank_sort_joined(r, n, &a->paths, path_element, a, a->workers);
}
