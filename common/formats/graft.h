/*
 * graft - a SPAA file read alone into a model of its own, added to the
 * model of a load as reading the file into it would have added it.
 *
 * A directory of small files is read on several threads (ahead.h), each
 * file into a model of its own; the load's reader then grafts them on in
 * file order.  Grafting costs a look-up per distinct string, frame,
 * stack and record of the file, where reading costs the JSON and a
 * look-up per name as written: so the reader keeps up with the threads.
 *
 * What the load's model gets must be exactly what spaa_reader_read would
 * have given it: the same entries in the same order (strings, DSOs,
 * functions, frames, threads, events, stacks, stack records, weights,
 * totals), the same repeats of earlier files found (repeats.h).  That
 * holds for a file of the common shape, which is all spaa_graft takes:
 * one file of stack records without sample or window records or related
 * stacks, read without a warning.  Whatever reading it into the load's
 * model could find or warn about (an event that earlier files declare
 * otherwise, a total past 64 bits, the bound on strings, a thread named
 * only by an earlier file: spaa_load_stats.unnamed_threads) makes
 * spaa_graft decline, so the caller reads the file in place and says it
 * as that reading says it.
 *
 * Ownership: both models are the caller's; q is only read.
 */
#ifndef SPAA_GRAFT_H
#define SPAA_GRAFT_H

#include <stdint.h>

#include "model/profile.h"
#include "model/repeats.h"

/*
 * Adds q, the model spaa_reader_read made of one file with rep NULL and
 * fold_repeats set, and no warning, to p as spaa_reader_read would have
 * with rep (NULL for the load's first file), max_strings being the
 * load's bound on strings.  Returns true when done, false when it may
 * not be done exactly (p unchanged): the caller then reads the file
 * into p.
 */
bool spaa_graft(struct spaa_profile *p, const struct spaa_profile *q,
		struct spaa_repeats *rep, uint32_t max_strings);

#endif
