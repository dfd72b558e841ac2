#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include "io/ordered.h"
#include "io/output.h"
#include "model/util.h"

/* A run: what its threads share, under lock. */
struct ordered {
	const struct spaa_ordered_job *job;
	unsigned slots;
	pthread_mutex_t lock;
	pthread_cond_t changed;         /* a piece was made, or used */
	size_t next;                    /* the next piece to make */
	size_t used;                    /* the next piece to use */
	bool *ready;                    /* owned, [slots]: its piece is made */
};

/*
 * The next piece to make, when there is one and its slot is free (the
 * piece slots before it has been used).  Under lock.
 */
static bool claim(struct ordered *o, size_t *piece)
{
	if (o->next >= o->job->npieces || o->next >= o->used + o->slots)
		return false;
	*piece = o->next++;
	return true;
}

/* Makes piece outside the lock, held on entry and on return. */
static void make(struct ordered *o, size_t piece)
{
	unsigned slot = (unsigned)(piece % o->slots);

	pthread_mutex_unlock(&o->lock);
	o->job->make(o->job->ctx, piece, slot);
	pthread_mutex_lock(&o->lock);
	o->ready[slot] = true;
	pthread_cond_broadcast(&o->changed);
}

static void *worker(void *arg)
{
	struct ordered *o = arg;
	size_t piece;

	pthread_mutex_lock(&o->lock);
	while (o->next < o->job->npieces) {
		if (claim(o, &piece))
			make(o, piece);
		else
			pthread_cond_wait(&o->changed, &o->lock);
	}
	pthread_mutex_unlock(&o->lock);
	return NULL;
}

void spaa_ordered_run(const struct spaa_ordered_job *job)
{
	unsigned threads = job->threads ? job->threads : 1, started = 0;
	struct ordered o = { .job = job };
	pthread_t *tids;
	size_t piece;

	if (threads == 1 || job->npieces < 2) {
		for (piece = 0; piece < job->npieces; piece++) {
			job->make(job->ctx, piece, 0);
			job->use(job->ctx, piece, 0);
		}
		return;
	}
	o.slots = job->slots > threads ? job->slots : threads;
	o.ready = spaa_xcalloc(o.slots, sizeof(*o.ready));
	tids = spaa_xmalloc((threads - 1) * sizeof(*tids));
	pthread_mutex_init(&o.lock, NULL);
	pthread_cond_init(&o.changed, NULL);
	for (unsigned k = 0; k + 1 < threads; k++)
		if (!spaa_output_thread_create(&tids[started], worker, &o))
			started++;
	/*
	 * The caller uses the pieces in order, and makes pieces itself
	 * while the next one to use is not made yet.
	 */
	pthread_mutex_lock(&o.lock);
	while (o.used < job->npieces) {
		unsigned slot = (unsigned)(o.used % o.slots);

		if (o.ready[slot]) {
			/* its slot is claimed again only once used is past it */
			o.ready[slot] = false;
			pthread_mutex_unlock(&o.lock);
			job->use(job->ctx, o.used, slot);
			pthread_mutex_lock(&o.lock);
			o.used++;
			pthread_cond_broadcast(&o.changed);
		} else if (claim(&o, &piece)) {
			make(&o, piece);
		} else {
			pthread_cond_wait(&o.changed, &o.lock);
		}
	}
	pthread_mutex_unlock(&o.lock);
	while (started)
		pthread_join(tids[--started], NULL);
	pthread_cond_destroy(&o.changed);
	pthread_mutex_destroy(&o.lock);
	free(tids);
	free(o.ready);
}
