/*
 * prefetch - the files of a list opened, read and decoded by threads of
 * their own a few files ahead of the caller, who parses them in order.
 *
 * A directory of thousands of reports is read file by file, so opening
 * and reading (from disk, when the files are not in the page cache)
 * would wait on the parser's core.  Here threads open the next files
 * while the caller parses the current one, each thread on a file of its
 * own: a file read inline (input.h: a small file, read with one read(2)
 * at its open) is read, not decoded (decoded or parsed on another core,
 * a small file's records cost the parser more in cache misses than
 * doing it itself: doc/PERFORMANCE.md, Cores); a file big enough for
 * its own decoding thread is opened and its pages asked for
 * (spaa_input_readahead).  The caller takes the files in list order, so what it sees
 * (the files, their bytes, the errors and where they come) is the same
 * as opening each itself, whatever the number of threads.
 *
 * Ownership: spaa_prefetch_start borrows the list and the options for
 * the life of the prefetch; an input taken is the caller's
 * (spaa_input_close); spaa_prefetch_free stops the threads and closes
 * what was not taken (NULL is accepted).
 */
#ifndef SPAA_PREFETCH_H
#define SPAA_PREFETCH_H

#include <stdbool.h>
#include <stddef.h>

#include "io/input.h"
#include "io/pathlist.h"
#include "model/error.h"

/* Files opened ahead of the one being parsed, with one thread. */
#define SPAA_PREFETCH_AHEAD 2
/* The bound on threads that open files ahead (one per file at a time). */
#define SPAA_PREFETCH_MAX_THREADS 16

struct spaa_prefetch;

/*
 * Starts opening path i of list for each i with want[i] true, in order, at most
 * SPAA_PREFETCH_AHEAD - 1 more than the threads ahead of the last one
 * taken.  The threads: opts->threads - 1 (one for 0, 1 or 2), at
 * most SPAA_PREFETCH_MAX_THREADS, each on its own file.  Returns NULL
 * when no thread can start (the caller then opens the files itself).
 */
struct spaa_prefetch *spaa_prefetch_start(const struct spaa_pathlist *list,
					  const bool *want,
					  const struct spaa_input_opts *opts);

/*
 * The input of path i (want[i] true, i increasing from call to call):
 * 0 with *in the caller's, or -1 with err as spaa_input_open set it.
 */
int spaa_prefetch_take(struct spaa_prefetch *pf, size_t i,
		       struct spaa_input **in, struct spaa_error *err);

void spaa_prefetch_free(struct spaa_prefetch *pf);

#endif
