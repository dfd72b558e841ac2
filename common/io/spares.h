/*
 * spares - buffers and zstd decoders that closed inputs leave for the
 * inputs opened after them.
 *
 * Each input of a directory of small files would map its buffers (256
 * KiB each: big blocks get mappings of their own, see main.c) and its
 * zstd decoder afresh, fault their pages in, and unmap them at close;
 * unmapping in a process with several threads also flushes the other
 * cores' TLBs.  On this VM that was most of a small file's CPU time.
 * Kept here, the next file finds them mapped and their pages present.
 *
 * A load makes one set for its readers and threads (io.spares of
 * input.h); take and put may be called from any thread.  What is put
 * is the set's (at most a few buffers and decoders: more are freed, and
 * so is a buffer or decoder of more than SPAA_SPARES_BYTES_MAX, a long
 * line's or a big file's window); what is taken is the taker's.  spaa_spares_free frees the set
 * and what it holds (NULL is accepted).
 */
#ifndef SPAA_SPARES_H
#define SPAA_SPARES_H

#include <stddef.h>

#include <zstd.h>

/* Buffers and decoders a set keeps: the open inputs of a prefetching load. */
#define SPAA_SPARES_MAX 8
/* Bytes of a buffer or a zstd decoder (with its window) worth keeping. */
#define SPAA_SPARES_BYTES_MAX ((size_t)1 << 20)

struct spaa_spares;

struct spaa_spares *spaa_spares_new(void);
void spaa_spares_free(struct spaa_spares *s);

/* A buffer of exactly size bytes put back earlier, or NULL (also for s NULL). */
void *spaa_spares_take_buf(struct spaa_spares *s, size_t size);

/* Keeps buf, of size bytes, for a later take, or frees it (s NULL, full). */
void spaa_spares_put_buf(struct spaa_spares *s, void *buf, size_t size);

/*
 * A decoder put back earlier, reset to its defaults (a new session,
 * default parameters), or NULL (also for s NULL).
 */
ZSTD_DCtx *spaa_spares_take_zstd(struct spaa_spares *s);

/* Keeps zd for a later take, or frees it (s NULL, full, too big); NULL is accepted. */
void spaa_spares_put_zstd(struct spaa_spares *s, ZSTD_DCtx *zd);

#endif
