/*
 * ahead - the small SPAA files and the SPX reports of a load read on
 * several threads, each into a model of its own, and grafted onto the
 * load's model in file order (graft.h).
 *
 * A directory of thousands of small reports is read file by file on
 * the load's reader; a file read inline parses on the core that reads
 * it (prefetch.h says why handing a file's bytes or JSON trees across
 * cores did not pay).  Here what crosses cores is a file's model, a
 * tenth of its text once its names, frames and stacks are interned:
 * threads read the files after the reader's into models of their own,
 * and the reader grafts each onto the load's model when it comes to it,
 * a look-up per distinct entry instead of the JSON and a look-up per
 * name as written.  A reader that finds its next file still being read
 * reads a later one meanwhile; a file no thread took yet it reads in
 * place, as without threads.
 *
 * The result is the load without threads, byte for byte: the files are
 * grafted in list order, and a file graft.h declines (any warning, any
 * error, samples in an SPAA file, windows, related stacks, what only
 * reading it into the load's model can tell) is read again in place by
 * the reader, so its warnings and errors come as, and where, they come
 * without threads.  Progress and an SPX report's samples are told as
 * reading it in place tells them; a thread keeps a report's samples
 * for that (graft.h), at most SPAA_SPX_READER_HELD of 24 bytes for each
 * file read ahead.
 *
 * Ownership: spaa_ahead_start borrows the list, the flags and the
 * options for the life of the struct; spaa_ahead_free stops the threads
 * and frees what they read (NULL is accepted).
 */
#ifndef SPAA_AHEAD_H
#define SPAA_AHEAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "formats/load.h"
#include "io/pathlist.h"
#include "model/error.h"
#include "model/profile.h"
#include "model/repeats.h"

/*
 * Files of a load under this size (compressed bytes when compressed;
 * an SPX report's two files together) are the small ones read ahead;
 * the others are prefetched (prefetch.h) and read by the reader.  Not
 * the input's own threshold for a decoding thread (input.h): a file of
 * 900 KB with samples, read ahead, is read again in place (graft.h
 * declines samples), and a directory of 200 such files took 1.3 times
 * the wall time and 1.6 times the CPU time read ahead.
 */
#define SPAA_AHEAD_FILE_MAX ((uint64_t)256 << 10)

/* The bound on files read ahead and not yet grafted, per thread. */
#define SPAA_AHEAD_PER_THREAD 4
/* The bound on threads reading ahead (beside the load's reader). */
#define SPAA_AHEAD_MAX_THREADS 15

struct spaa_ahead;

/*
 * Starts o->threads - 1 threads (at most SPAA_AHEAD_MAX_THREADS, one
 * less than the files) reading the files i of list with mine[i] true.
 * NULL when no thread is worth starting (fewer than two such files,
 * one thread, a load that does not fold repeats or that validates or
 * watches lines): the caller reads every file.
 */
struct spaa_ahead *spaa_ahead_start(const struct spaa_pathlist *list, const bool *mine,
				    const struct spaa_load_opts *o);

/*
 * For file i (mine[i] true, increasing from call to call), p being the
 * load's model with every earlier file read and rep its repeats index
 * (NULL for the first file), base and total the progress so far: 1
 * when the file is grafted onto p, its progress and samples told and
 * *bytes its bytes; 0 when the caller must read it in place; -1 with
 * err set when the load's on_sample failed, as reading in place fails.
 */
int spaa_ahead_take(struct spaa_ahead *a, size_t i, struct spaa_profile *p,
		    struct spaa_repeats *rep, uint64_t base, uint64_t total,
		    uint64_t *bytes, struct spaa_error *err);

void spaa_ahead_free(struct spaa_ahead *a);

#endif
