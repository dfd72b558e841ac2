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
 * An SPX report (spx_reader.h) is of that shape too, with samples: the
 * reader holds them until the report's stacks are known and gives them
 * to the load between its stacks and its records, which is where
 * spaa_graft gives them (struct spaa_graft_samples).  A report whose
 * samples streamed (more than SPAA_SPX_READER_HELD) gave them earlier,
 * and is not grafted.
 *
 * Ownership: both models are the caller's; q is only read.
 */
#ifndef SPAA_GRAFT_H
#define SPAA_GRAFT_H

#include <stdint.h>

#include "formats/load.h"
#include "model/error.h"
#include "model/profile.h"
#include "model/repeats.h"

/* A sample of q as the load's on_sample got it, but for what all share. */
struct spaa_graft_sample {
	int64_t time;
	uint64_t period;
	uint32_t stack, line;
};

/*
 * The samples reading q's file alone gave, in order: like holds the
 * fields all of them share (event, pid, tid, cpu, has_period,
 * period_metric, file; q's indices), v the others (weak).
 */
struct spaa_graft_samples {
	struct spaa_sample like;
	const struct spaa_graft_sample *v;
	size_t n;
	/*
	 * Called once grafting is sure, before the first sample is given,
	 * so that the caller tells what reading in place tells before its
	 * samples (the progress of reading the report, but for its end).
	 */
	void (*before)(void *data);
	void *data;
};

/*
 * Adds q, the model a reader made of one file with rep NULL and
 * fold_repeats set, and no warning, to p as reading the file into p
 * would have with rep (NULL for the load's first file), max_strings
 * being the load's bound on strings; gives q's samples (smp: NULL when
 * none) to the load with o as that reading would have (spaa_load_sample).
 * Returns 1 when done, 0 when it may not be done exactly (p unchanged):
 * the caller then reads the file into p; -1 with err set when the
 * load's on_sample failed, as it would have reading in place.
 */
int spaa_graft(struct spaa_profile *p, const struct spaa_profile *q,
	       struct spaa_repeats *rep, uint32_t max_strings,
	       const struct spaa_graft_samples *smp, const struct spaa_load_opts *o,
	       struct spaa_error *err);

#endif
