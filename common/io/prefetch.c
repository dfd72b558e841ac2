#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "io/prefetch.h"
#include "io/output.h"
#include "model/util.h"

/* A file opened ahead: its input, or the error of its open. */
struct slot {
	size_t i;
	int ret;
	struct spaa_input *in;  /* owned until taken */
	struct spaa_error err;
};

/*
 * The thread fills the ring in list order, the caller empties it in the
 * same order; everything below the lock is shared, an input is touched
 * by one thread at a time (the thread until it is in the ring, then the
 * caller).
 */
struct spaa_prefetch {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t changed;
	const char *const *paths;       /* weak */
	const bool *want;               /* weak */
	size_t n;
	struct spaa_input_opts opts;
	struct slot ring[SPAA_PREFETCH_AHEAD];
	size_t head, count;             /* ring[head] is the next to take */
	size_t next;                    /* the next path the thread looks at */
	int stop, done;
};

/* Opens path i and, for a file read inline, decodes its first bytes. */
static void fetch(const struct spaa_prefetch *pf, struct slot *s)
{
	const char *data;
	size_t len;

	spaa_error_init(&s->err);
	s->in = NULL;
	s->ret = spaa_input_open(&s->in, pf->paths[s->i], &pf->opts, &s->err);
	if (s->ret)
		return;
	if (spaa_input_inline(s->in))
		/* an error is held back for getline to report in its place */
		(void)spaa_input_peek(s->in, SIZE_MAX, &data, &len, NULL);
	else
		spaa_input_readahead(s->in);
}

static void *prefetch_run(void *arg)
{
	struct spaa_prefetch *pf = arg;

	pthread_mutex_lock(&pf->lock);
	for (;;) {
		struct slot s;

		while (!pf->stop && pf->count == SPAA_PREFETCH_AHEAD)
			pthread_cond_wait(&pf->changed, &pf->lock);
		while (pf->next < pf->n && !pf->want[pf->next])
			pf->next++;
		if (pf->stop || pf->next == pf->n)
			break;
		s.i = pf->next++;
		pthread_mutex_unlock(&pf->lock);
		fetch(pf, &s);
		pthread_mutex_lock(&pf->lock);
		pf->ring[(pf->head + pf->count) % SPAA_PREFETCH_AHEAD] = s;
		pf->count++;
		pthread_cond_broadcast(&pf->changed);
	}
	pf->done = 1;
	pthread_cond_broadcast(&pf->changed);
	pthread_mutex_unlock(&pf->lock);
	return NULL;
}

struct spaa_prefetch *spaa_prefetch_start(const char *const *paths,
					  const bool *want, size_t n,
					  const struct spaa_input_opts *opts)
{
	struct spaa_prefetch *pf = spaa_xcalloc(1, sizeof(*pf));

	pf->paths = paths;
	pf->want = want;
	pf->n = n;
	if (opts)
		pf->opts = *opts;
	pthread_mutex_init(&pf->lock, NULL);
	pthread_cond_init(&pf->changed, NULL);
	if (spaa_output_thread_create(&pf->thread, prefetch_run, pf)) {
		pthread_mutex_destroy(&pf->lock);
		pthread_cond_destroy(&pf->changed);
		free(pf);
		return NULL;
	}
	return pf;
}

int spaa_prefetch_take(struct spaa_prefetch *pf, size_t i,
		       struct spaa_input **in, struct spaa_error *err)
{
	struct slot s = { .i = SIZE_MAX };

	pthread_mutex_lock(&pf->lock);
	while (!pf->count && !pf->done)
		pthread_cond_wait(&pf->changed, &pf->lock);
	if (pf->count && pf->ring[pf->head].i == i) {
		s = pf->ring[pf->head];
		pf->head = (pf->head + 1) % SPAA_PREFETCH_AHEAD;
		pf->count--;
		pthread_cond_broadcast(&pf->changed);
	}
	pthread_mutex_unlock(&pf->lock);
	if (s.i != i)   /* not a file the thread was asked for: open it here */
		return spaa_input_open(in, pf->paths[i], &pf->opts, err);
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
	pthread_join(pf->thread, NULL);
	for (; pf->count; pf->count--, pf->head = (pf->head + 1) % SPAA_PREFETCH_AHEAD)
		spaa_input_close(pf->ring[pf->head].in);
	pthread_mutex_destroy(&pf->lock);
	pthread_cond_destroy(&pf->changed);
	free(pf);
}
