#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "io/prefetch.h"
#include "io/output.h"
#include "model/util.h"

/* A file opened ahead: its input, or the error of its open. */
struct slot {
	size_t i;
	int ready;              /* fetched (else a thread is on it) */
	int ret;
	struct spaa_input *in;  /* owned until taken */
	struct spaa_error err;
};

/*
 * The threads claim the next slot of the ring and the next path under
 * the lock, in list order, then fetch without it, several at once; the
 * caller empties the ring in the same order, waiting for the slot at
 * the head to be ready.  An input is touched by one thread at a time
 * (its fetching thread until it is ready, then the caller).
 */
struct spaa_prefetch {
	pthread_t *threads;     /* owned */
	unsigned nthreads, running;
	pthread_mutex_t lock;
	pthread_cond_t changed;
	const struct spaa_pathlist *list;       /* weak */
	const bool *want;               /* weak */
	size_t n;
	struct spaa_input_opts opts;
	struct slot *ring;      /* owned, ahead slots */
	size_t ahead;
	size_t head, count;     /* ring[head] is the next to take; count claimed */
	size_t next;            /* the next path a thread looks at */
	int stop;
};

/*
 * Opens path i.  A file read inline is left for the caller to decode,
 * on the core that parses it: handed over decoded, a small file's bytes
 * (116 kB of a 7 kB zstd report) cost the caller more cache misses than
 * decoding them itself.
 */
static void fetch(const struct spaa_prefetch *pf, struct slot *s)
{
	struct spaa_sbuf path = { 0 };

	spaa_error_init(&s->err);
	s->in = NULL;
	s->ret = spaa_input_open(&s->in, spaa_pathlist_path(pf->list, s->i, &path),
				 &pf->opts, &s->err);
	free(path.s);
	if (s->ret)
		return;
	if (!spaa_input_inline(s->in))
		spaa_input_readahead(s->in);
}

static void *prefetch_run(void *arg)
{
	struct spaa_prefetch *pf = arg;

	pthread_mutex_lock(&pf->lock);
	for (;;) {
		struct slot *s;

		while (!pf->stop && pf->count == pf->ahead)
			pthread_cond_wait(&pf->changed, &pf->lock);
		while (pf->next < pf->n && !pf->want[pf->next])
			pf->next++;
		if (pf->stop || pf->next == pf->n)
			break;
		s = &pf->ring[(pf->head + pf->count++) % pf->ahead];
		s->i = pf->next++;
		s->ready = 0;
		pthread_mutex_unlock(&pf->lock);
		fetch(pf, s);
		pthread_mutex_lock(&pf->lock);
		s->ready = 1;
		pthread_cond_broadcast(&pf->changed);
	}
	pf->running--;
	pthread_cond_broadcast(&pf->changed);
	pthread_mutex_unlock(&pf->lock);
	return NULL;
}

struct spaa_prefetch *spaa_prefetch_start(const struct spaa_pathlist *list,
					  const bool *want,
					  const struct spaa_input_opts *opts)
{
	struct spaa_prefetch *pf = spaa_xcalloc(1, sizeof(*pf));
	unsigned threads = opts && opts->threads > 2 ? opts->threads - 1 : 1;

	if (threads > SPAA_PREFETCH_MAX_THREADS)
		threads = SPAA_PREFETCH_MAX_THREADS;
	pf->list = list;
	pf->want = want;
	pf->n = list->nr;
	if (opts)
		pf->opts = *opts;
	pf->ahead = threads + SPAA_PREFETCH_AHEAD - 1;
	pf->ring = spaa_xcalloc(pf->ahead, sizeof(*pf->ring));
	pf->threads = spaa_xcalloc(threads, sizeof(*pf->threads));
	pthread_mutex_init(&pf->lock, NULL);
	pthread_cond_init(&pf->changed, NULL);
	pthread_mutex_lock(&pf->lock);
	while (pf->nthreads < threads &&
	       !spaa_output_thread_create(&pf->threads[pf->nthreads], prefetch_run, pf))
		pf->running = ++pf->nthreads;
	pthread_mutex_unlock(&pf->lock);
	if (!pf->nthreads) {
		spaa_prefetch_free(pf);
		return NULL;
	}
	return pf;
}

int spaa_prefetch_take(struct spaa_prefetch *pf, size_t i,
		       struct spaa_input **in, struct spaa_error *err)
{
	struct slot s = { .i = SIZE_MAX };

	pthread_mutex_lock(&pf->lock);
	while (pf->count ? !pf->ring[pf->head].ready : pf->running)
		pthread_cond_wait(&pf->changed, &pf->lock);
	if (pf->count && pf->ring[pf->head].i == i) {
		s = pf->ring[pf->head];
		pf->head = (pf->head + 1) % pf->ahead;
		pf->count--;
		pthread_cond_broadcast(&pf->changed);
	}
	pthread_mutex_unlock(&pf->lock);
	if (s.i != i) { /* not a file the threads were asked for: open it here */
		struct spaa_sbuf path = { 0 };
		int r = spaa_input_open(in, spaa_pathlist_path(pf->list, i, &path),
					&pf->opts, err);

		free(path.s);
		return r;
	}
	*in = s.in;
	if (s.ret)
		*err = s.err;
	return s.ret;
}

void spaa_prefetch_free(struct spaa_prefetch *pf)
{
	if (!pf)
		return;
	pthread_mutex_lock(&pf->lock);
	pf->stop = 1;
	pthread_cond_broadcast(&pf->changed);
	pthread_mutex_unlock(&pf->lock);
	for (unsigned t = 0; t < pf->nthreads; t++)
		pthread_join(pf->threads[t], NULL);
	/* every claimed slot is fetched once its thread has stopped */
	for (; pf->count; pf->count--, pf->head = (pf->head + 1) % pf->ahead)
		spaa_input_close(pf->ring[pf->head].in);
	pthread_mutex_destroy(&pf->lock);
	pthread_cond_destroy(&pf->changed);
	free(pf->ring);
	free(pf->threads);
	free(pf);
}
