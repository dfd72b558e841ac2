/*
 * prefetch - the files of a list opened, read and decoded by a thread of
 * its own a few files ahead of the caller, who parses them in order.
 *
 * A directory of thousands of small reports is read inline file by file
 * (input.h: a small file gets no decoding thread), so opening, reading
 * and decompressing would wait on the parser's core.  Here one thread
 * does that for the next files while the caller parses the current one:
 * a file read inline is opened and its first SPAA_PREFETCH_BYTES decoded
 * (all of a small file) before it is handed over; a file big enough for
 * its own decoding thread is only opened.  The caller takes the files in
 * list order, so what it sees (the files, their bytes, the errors and
 * where they come) is the same as opening each itself.
 *
 * Ownership: spaa_prefetch_start borrows paths and the options for the
 * life of the prefetch; an input taken is the caller's (spaa_input_close);
 * spaa_prefetch_free stops the thread and closes what was not taken
 * (NULL is accepted).
 */
#ifndef SPAA_PREFETCH_H
#define SPAA_PREFETCH_H

#include <stdbool.h>
#include <stddef.h>

#include "io/input.h"
#include "model/error.h"

/* Files opened ahead of the one being parsed. */
#define SPAA_PREFETCH_AHEAD 2

struct spaa_prefetch;

/*
 * Starts opening paths[i] for each i with want[i] true, in order, at most
 * SPAA_PREFETCH_AHEAD ahead of the last one taken.  Returns NULL when the
 * thread cannot start (the caller then opens the files itself).
 */
struct spaa_prefetch *spaa_prefetch_start(const char *const *paths,
					  const bool *want, size_t n,
					  const struct spaa_input_opts *opts);

/*
 * The input of paths[i] (want[i] true, i increasing from call to call):
 * 0 with *in the caller's, or -1 with err as spaa_input_open set it.
 */
int spaa_prefetch_take(struct spaa_prefetch *pf, size_t i,
		       struct spaa_input **in, struct spaa_error *err);

void spaa_prefetch_free(struct spaa_prefetch *pf);

#endif
