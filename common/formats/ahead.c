#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "formats/ahead.h"
#include "formats/detect.h"
#include "formats/graft.h"
#include "formats/spaa_reader.h"
#include "formats/spx_reader.h"
#include "io/input.h"
#include "io/output.h"
#include "model/sbuf.h"
#include "model/util.h"

#define NO_POS SIZE_MAX

/* A file read into a model of its own, by whichever thread claimed it. */
struct slot {
	size_t pos;             /* its position in the list, or NO_POS: free */
	bool done;              /* read (else a thread is on it) */
	bool ok;                /* read without error or warning */
	struct spaa_profile q;  /* owned: emptied for each file, kept */
	struct spaa_load_stats stats;
	uint64_t bytes;
	uint64_t *progress;     /* owned: the progress reading told, from 0 */
	size_t nprogress, progress_alloc;
	struct spaa_graft_samples smp;  /* an SPX report's samples */
	struct spaa_graft_sample *samples;      /* owned: smp.v */
	size_t samples_alloc;
};

/*
 * Positions are indices into the list, of its files with mine true.
 * The reader takes them in order; pos is the one it is on.  A thread
 * claims the first free position after it, within the ring (slot j %
 * nslots holds position j), reads it without the lock and marks it
 * done; the reader grafts it and frees the slot.  A position nobody
 * claimed when the reader comes to it the reader reads in place.  (No
 * array of the positions: a directory of 20,000 reports is a shape the
 * bench measures, and its memory must not grow with the files.)
 */
struct spaa_ahead {
	const struct spaa_pathlist *list;       /* weak */
	const bool *mine;       /* weak: the files to read */
	size_t pos;
	struct slot *slots;     /* owned */
	size_t nslots;
	struct spaa_load_opts o;        /* for reading a file alone */
	const struct spaa_load_opts *load;      /* weak: the load's */
	struct spaa_input_opts io;
	pthread_mutex_t lock;
	pthread_cond_t changed;
	bool stop;
	pthread_t *threads;     /* owned */
	unsigned nthreads;
	size_t share;           /* one position in share is the reader's */
};

static void note_warning(void *data, const char *file, unsigned long line, const char *msg)
{
	(void)file;
	(void)line;
	(void)msg;
	((struct slot *)data)->ok = false;
}

static void note_progress(void *data, uint64_t done, uint64_t total)
{
	struct slot *s = data;

	(void)total;
	SPAA_ALLOC_GROW(s->progress, s->nprogress + 1, s->progress_alloc);
	s->progress[s->nprogress++] = done;
}

/*
 * Keeps an SPX report's sample for the graft, while they share what
 * struct spaa_graft_samples says they share and are held (graft.h);
 * else fails the reading, which then is not grafted.
 */
static int keep_sample(void *data, const struct spaa_profile *q,
		       const struct spaa_sample *x, struct spaa_error *err)
{
	struct slot *s = data;
	struct spaa_sample *l = &s->smp.like;

	(void)q;
	if (!s->smp.n)
		*l = *x;
	if (s->smp.n >= SPAA_SPX_READER_HELD || x->line > UINT32_MAX ||
	    x->event != l->event || x->pid != l->pid || x->tid != l->tid ||
	    x->cpu != l->cpu || x->has_period != l->has_period ||
	    x->period_metric != l->period_metric || x->file != l->file)
		return spaa_error_at(err, SPAA_E_LIMIT, NULL, 0, "not a sample to graft");
	SPAA_ALLOC_GROW(s->samples, s->smp.n + 1, s->samples_alloc);
	s->samples[s->smp.n++] = (struct spaa_graft_sample){
		x->time, x->period, x->stack, (uint32_t)x->line,
	};
	return 0;
}

/* Reads file s->pos into s->q; s->ok when graft.h may take it. */
static void read_alone(const struct spaa_ahead *a, struct slot *s)
{
	struct spaa_load_opts o = a->o;
	size_t i = s->pos;
	struct spaa_sbuf path = { 0 };
	struct spaa_input *in = NULL;
	enum spaa_detect_format fmt;
	struct spaa_error err;

	s->ok = true;
	s->nprogress = 0;
	s->bytes = 0;
	s->smp.n = 0;
	memset(&s->stats, 0, sizeof(s->stats));
	o.warn = (struct spaa_warn_sink){ note_warning, s };
	o.on_progress = note_progress;
	o.progress_data = s;
	o.stats = &s->stats;
	spaa_error_init(&err);
	spaa_profile_clear(&s->q);
	spaa_pathlist_path(a->list, i, &path);
	if (a->list->kinds[i] == SPAA_PATHLIST_SPX) {
		o.on_sample = keep_sample;
		o.data = s;
		if (spaa_spx_reader_read(&s->q, path.s, &o, NULL, 0, 0, &s->bytes, &err))
			s->ok = false;
		s->smp.v = s->samples;
	} else {
		if (spaa_input_open(&in, path.s, &a->io, &err) ||
		    spaa_detect(in, &fmt, &err) || fmt != SPAA_DETECT_SPAA ||
		    spaa_reader_read(&s->q, in, &o, NULL, 0, 0, &err))
			s->ok = false;
		if (in)
			s->bytes = spaa_input_bytes_read(in);
		spaa_input_close(in);
	}
	free(path.s);
	/* a comm an earlier file may give (load.h): only reading in place says */
	if (s->stats.unnamed_threads)
		s->ok = false;
}

/*
 * Whether position j is left to the reader, to read in place: grafting
 * costs it a little of what reading costs, so it can read some files
 * itself while it grafts the threads' (with one thread, half of them;
 * with more, fewer: its grafts of their files take its time).
 */
static bool readers(const struct spaa_ahead *a, size_t j)
{
	return j % a->share == 0;
}

/*
 * The first position after the reader's that no thread has claimed, or
 * NO_POS.  Under the lock.  A thread (reader false) takes one left to
 * the reader only when it would otherwise wait and the position is in
 * the far half of the ring: then the reader is behind (its grafts, or
 * a slower core), and a graft costs it less than reading in place; a
 * nearer one it may be about to read.
 */
static size_t claimable(const struct spaa_ahead *a, bool reader)
{
	size_t end = a->pos + a->nslots < a->list->nr ? a->pos + a->nslots : a->list->nr;
	size_t left = NO_POS;

	for (size_t j = a->pos + 1; j < end; j++) {
		if (!a->mine[j] || a->slots[j % a->nslots].pos != NO_POS)
			continue;
		if (reader || !readers(a, j))
			return j;
		if (left == NO_POS && j >= a->pos + a->nslots / 2)
			left = j;
	}
	return left;
}

/* Claims position j, reads it, marks it done.  Called and returns under the lock. */
static void claim_and_read(struct spaa_ahead *a, size_t j)
{
	struct slot *s = &a->slots[j % a->nslots];

	s->pos = j;
	s->done = false;
	pthread_mutex_unlock(&a->lock);
	read_alone(a, s);
	pthread_mutex_lock(&a->lock);
	s->done = true;
	pthread_cond_broadcast(&a->changed);
}

/* Reads the position claimable gives, or waits for a change.  Under the lock. */
static void read_or_wait(struct spaa_ahead *a, bool reader)
{
	size_t j = claimable(a, reader);

	if (j == NO_POS)
		pthread_cond_wait(&a->changed, &a->lock);
	else
		claim_and_read(a, j);
}

static void *ahead_run(void *arg)
{
	struct spaa_ahead *a = arg;

	pthread_mutex_lock(&a->lock);
	while (!a->stop)
		read_or_wait(a, false);
	pthread_mutex_unlock(&a->lock);
	return NULL;
}

struct spaa_ahead *spaa_ahead_start(const struct spaa_pathlist *list, const bool *mine,
				    const struct spaa_load_opts *o)
{
	struct spaa_ahead *a;
	size_t n = 0;
	uint64_t want;

	if (o->threads < 2 || !o->fold_repeats || o->findings.fn || o->on_line)
		return NULL;
	for (size_t i = 0; i < list->nr; i++)
		n += mine[i];
	if (n < 2)
		return NULL;
	a = spaa_xcalloc(1, sizeof(*a));
	a->list = list;
	a->mine = mine;
	a->load = o;
	a->o = *o;
	/* alone: no callbacks of the load's, no thread of its own */
	a->o.on_sample = NULL;
	a->o.on_sample_soon = NULL;
	a->o.on_start = NULL;
	a->o.data = NULL;
	a->o.tree_pool = NULL;
	a->o.threads = 1;
	spaa_load_input_opts(&a->o, &a->io);
	want = o->threads - 1;
	if (want > SPAA_AHEAD_MAX_THREADS)
		want = SPAA_AHEAD_MAX_THREADS;
	if (want > n - 1)
		want = n - 1;
	a->nslots = (size_t)(want + 1) * SPAA_AHEAD_PER_THREAD;
	a->share = 2 * (size_t)want;
	a->slots = spaa_xcalloc(a->nslots, sizeof(*a->slots));
	for (size_t i = 0; i < a->nslots; i++) {
		a->slots[i].pos = NO_POS;
		spaa_profile_init(&a->slots[i].q);
		/* hashed once here, on the thread that reads the file */
		spaa_strtab_keep_hashes(&a->slots[i].q.strings);
	}
	a->threads = spaa_xcalloc(want, sizeof(*a->threads));
	pthread_mutex_init(&a->lock, NULL);
	pthread_cond_init(&a->changed, NULL);
	/* a thread that does not start leaves its files to the others and the reader */
	while (a->nthreads < want &&
	       !spaa_output_thread_create(&a->threads[a->nthreads], ahead_run, a))
		a->nthreads++;
	return a;
}

/* A grafted file's progress, as reading it in place tells it. */
struct told {
	const struct slot *s;
	const struct spaa_load_opts *o;
	uint64_t base, total;
	size_t k;       /* told so far */
};

static void tell(struct told *t, size_t upto)
{
	for (; t->k < upto && t->o->on_progress; t->k++)
		t->o->on_progress(t->o->progress_data, t->base + t->s->progress[t->k], t->total);
}

/* An SPX report tells its progress before its samples, but for the end. */
static void tell_before_samples(void *data)
{
	struct told *t = data;

	tell(t, t->s->nprogress ? t->s->nprogress - 1 : 0);
}

int spaa_ahead_take(struct spaa_ahead *a, size_t i, struct spaa_profile *p,
		    struct spaa_repeats *rep, uint64_t base, uint64_t total,
		    uint64_t *bytes, struct spaa_error *err)
{
	const struct spaa_load_opts *o = a->load;
	struct slot *s = &a->slots[i % a->nslots];
	struct told t = { s, o, base, total, 0 };
	int ret;

	/* the caller takes the files in order, each once */
	assert(i < a->list->nr && a->mine[i] && i >= a->pos);
	pthread_mutex_lock(&a->lock);
	a->pos = i;
	pthread_cond_broadcast(&a->changed);
	if (s->pos != i && o->graft_all)
		claim_and_read(a, i);
	/* its thread is on it: read a later one meanwhile */
	while (s->pos == i && !s->done)
		read_or_wait(a, true);
	pthread_mutex_unlock(&a->lock);
	if (s->pos != i)
		return 0;       /* nobody took it: the reader reads it in place */
	s->smp.before = tell_before_samples;
	s->smp.data = &t;
	ret = s->ok ? spaa_graft(p, &s->q, rep, o->max_strings,
				 s->smp.n ? &s->smp : NULL, o, err) : 0;
	if (ret > 0) {
		tell(&t, s->nprogress);
		*bytes = s->bytes;
		if (o->stats) {
			o->stats->scanned += s->stats.scanned;
			o->stats->fast += s->stats.fast;
			o->stats->general += s->stats.general;
			o->stats->stacks_scanned += s->stats.stacks_scanned;
			o->stats->stacks_fast += s->stats.stacks_fast;
			o->stats->stacks_general += s->stats.stacks_general;
			o->stats->parsed_ahead += s->stats.parsed_ahead;
			o->stats->grafted++;
		}
	}
	pthread_mutex_lock(&a->lock);
	s->pos = NO_POS;
	pthread_cond_broadcast(&a->changed);
	pthread_mutex_unlock(&a->lock);
	return ret;
}

void spaa_ahead_free(struct spaa_ahead *a)
{
	if (!a)
		return;
	pthread_mutex_lock(&a->lock);
	a->stop = true;
	pthread_cond_broadcast(&a->changed);
	pthread_mutex_unlock(&a->lock);
	for (unsigned t = 0; t < a->nthreads; t++)
		pthread_join(a->threads[t], NULL);
	for (size_t i = 0; i < a->nslots; i++) {
		spaa_profile_release(&a->slots[i].q);
		free(a->slots[i].progress);
		free(a->slots[i].samples);
	}
	pthread_mutex_destroy(&a->lock);
	pthread_cond_destroy(&a->changed);
	free(a->slots);
	free(a->threads);
	free(a);
}
