/*
 * ordered - work cut into pieces, made by several threads at once and
 * used one after the other in piece order: the text of a big table's
 * rows, made a chunk of rows by each thread and written in row order, so
 * the output is the same bytes whatever the number of threads.
 *
 * The pieces wait for their use in slots (at most job.slots pieces are
 * made and not yet used), so memory stays bounded whatever the number
 * of pieces; slot s is the caller's to hold one piece (a buffer each).
 *
 * Threads are started as every thread of the library is
 * (spaa_output_thread_create: the fatal signals blocked in them).
 *
 * Ownership: the job is the caller's; nothing is allocated that outlives
 * spaa_ordered_run.
 */
#ifndef SPAA_ORDERED_H
#define SPAA_ORDERED_H

#include <stddef.h>

struct spaa_ordered_job {
	size_t npieces;
	/*
	 * Threads making pieces, the caller's included: 1 (or 0) runs
	 * everything on the caller's thread, one piece at a time, and
	 * starts no thread.
	 */
	unsigned threads;
	unsigned slots;         /* at least threads (raised to it) */
	/*
	 * Makes piece into slot (0 <= slot < slots), on any of the threads,
	 * at the same time as other pieces are made in other slots and
	 * others used.
	 */
	void (*make)(void *ctx, size_t piece, unsigned slot);
	/* Uses the piece in slot: on the caller's thread, in piece order. */
	void (*use)(void *ctx, size_t piece, unsigned slot);
	void *ctx;
};

/*
 * Runs job: every piece is made once and used once, pieces used in
 * order 0, 1, ...  A thread that cannot be started leaves its share to
 * the others (the caller's thread always takes part).
 */
void spaa_ordered_run(const struct spaa_ordered_job *job);

#endif
