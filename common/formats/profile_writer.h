/*
 * profile_writer - writes a loaded struct spaa_profile out as SPAA.
 *
 * The way out for inputs that only the model understands (SPX reports,
 * read by spx_reader through spaa_load): nothing is parsed twice, the
 * model is written as it is.  spaa_writer builds its own model from
 * samples (perf script, folded); this one starts from spaa_profile.
 *
 * Sample records are not in the model: pass spaa_profile_writer_on_sample as
 * spaa_load_opts.on_sample (data = the writer) and they are spooled to a
 * temporary file, in load order, as fixed-size binary records (the stack
 * of an SPX slice is only defined at the end of its report, so ids are
 * resolved when written).  Memory: the profile, plus one id per frame,
 * stack and record; never the samples.
 *
 * What is written (spaa_profile_writer_write), in this order:
 *   header     format spaa 1.0, source_tool given, frame_order
 *              leaf_to_root, stack_id_mode content_addressable; every
 *              event with its kind, sampling mode, primary_metric,
 *              frequency_hz and sample_period when known,
 *              allocation_tracking when known; time_range in nanoseconds
 *              (the profile's whole time) when it has one;
 *   dso        the DSOs stack records use, ids from 1 in first use;
 *   frame      the frames stack records use, ids from 1 in first use;
 *              frames equal in content (function, DSO, ip, srcline,
 *              kind, inlined, inline_depth, func_resolved) are one frame
 *              (SPX has one frame per [functions] line, names repeat);
 *   thread     every thread with a known pid and tid, with its comm;
 *   stack      one per record (absorbed related records left out: the
 *              logical stack is written unified, weight counted once),
 *              its context (event, pid, tid, cpu, comm, labels), weights with
 *              units, exclusive weights on the leaf;
 *   sample     the spooled samples (timestamp ns, pid, tid, cpu, event,
 *              period, stack_id).
 *
 * Stack ids: the content hash documented in spaa_writer.h, so a stack
 * converted from SPX and the same stack converted from perf text agree.
 * Records with the same frames share the id (allowed in content
 * addressable mode); two different frame sequences with the same hash
 * are an error (SPAA_E_INTERNAL), never merged.
 */
#ifndef SPAA_PROFILE_WRITER_H
#define SPAA_PROFILE_WRITER_H

#include <stdbool.h>

#include "formats/load.h"
#include "io/output.h"
#include "model/error.h"
#include "model/profile.h"

struct spaa_profile_writer;

/* A new writer owned by the caller (spaa_profile_writer_free). */
struct spaa_profile_writer *spaa_profile_writer_new(void);
void spaa_profile_writer_free(struct spaa_profile_writer *w);        /* accepts NULL */

/*
 * An spaa_load_opts.on_sample callback (data: the writer): spools s.
 * Returns 0, or -1 with SPAA_E_IO when the spool cannot be written.
 */
int spaa_profile_writer_on_sample(void *data, const struct spaa_profile *p,
			   const struct spaa_sample *s, struct spaa_error *err);

/*
 * Writes p and the spooled samples as SPAA NDJSON with header
 * source_tool source_tool.  Returns 0 or -1 with err: SPAA_E_IO,
 * SPAA_E_INTERNAL (hash collision, a sample of a stack without record).
 */
int spaa_profile_writer_write(struct spaa_profile_writer *w, const struct spaa_profile *p,
		       const char *source_tool, struct spaa_output *out,
		       struct spaa_error *err);

#endif
