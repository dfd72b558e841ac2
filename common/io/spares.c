#include <pthread.h>
#include <stdlib.h>

#include "io/spares.h"
#include "model/util.h"

struct spare_buf {
	void *p;        /* owned */
	size_t size;
};

struct spaa_spares {
	pthread_mutex_t lock;
	struct spare_buf bufs[SPAA_SPARES_MAX];
	unsigned nbufs;
	ZSTD_DCtx *zstd[SPAA_SPARES_MAX];      /* owned */
	unsigned nzstd;
};

struct spaa_spares *spaa_spares_new(void)
{
	struct spaa_spares *s = spaa_xcalloc(1, sizeof(*s));

	pthread_mutex_init(&s->lock, NULL);
	return s;
}

void spaa_spares_free(struct spaa_spares *s)
{
	if (!s)
		return;
	while (s->nbufs)
		free(s->bufs[--s->nbufs].p);
	while (s->nzstd)
		ZSTD_freeDCtx(s->zstd[--s->nzstd]);
	pthread_mutex_destroy(&s->lock);
	free(s);
}

void *spaa_spares_take_buf(struct spaa_spares *s, size_t size)
{
	void *p = NULL;

	if (!s)
		return NULL;
	pthread_mutex_lock(&s->lock);
	/* the newest first: its pages are the likeliest still cached */
	for (unsigned i = s->nbufs; i-- > 0;)
		if (s->bufs[i].size == size) {
			p = s->bufs[i].p;
			s->bufs[i] = s->bufs[--s->nbufs];
			break;
		}
	pthread_mutex_unlock(&s->lock);
	return p;
}

void spaa_spares_put_buf(struct spaa_spares *s, void *buf, size_t size)
{
	if (s && buf && size <= SPAA_SPARES_BYTES_MAX) {
		pthread_mutex_lock(&s->lock);
		if (s->nbufs < SPAA_SPARES_MAX) {
			s->bufs[s->nbufs++] = (struct spare_buf){ buf, size };
			buf = NULL;
		}
		pthread_mutex_unlock(&s->lock);
	}
	free(buf);
}

ZSTD_DCtx *spaa_spares_take_zstd(struct spaa_spares *s)
{
	ZSTD_DCtx *zd = NULL;

	if (!s)
		return NULL;
	pthread_mutex_lock(&s->lock);
	if (s->nzstd)
		zd = s->zstd[--s->nzstd];
	pthread_mutex_unlock(&s->lock);
	return zd;
}

void spaa_spares_put_zstd(struct spaa_spares *s, ZSTD_DCtx *zd)
{
	if (!zd)
		return;
	/* a new session and default parameters, as ZSTD_createDCtx gives */
	if (s && ZSTD_sizeof_DCtx(zd) <= SPAA_SPARES_BYTES_MAX &&
	    !ZSTD_isError(ZSTD_DCtx_reset(zd, ZSTD_reset_session_and_parameters))) {
		pthread_mutex_lock(&s->lock);
		if (s->nzstd < SPAA_SPARES_MAX) {
			s->zstd[s->nzstd++] = zd;
			zd = NULL;
		}
		pthread_mutex_unlock(&s->lock);
	}
	ZSTD_freeDCtx(zd);
}
