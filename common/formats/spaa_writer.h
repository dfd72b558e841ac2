/*
 * spaa_writer - builds a SPAA profile from a stream of samples and writes
 * it as SPAA NDJSON (or as folded stacks).
 *
 * Converters (perf script, folded stacks) hand it dictionary entries and
 * one call per sample; it interns DSOs, frames and stacks, sums weights
 * per stack and context, and spools the raw sample records to a temporary
 * file.  Memory grows with the dictionaries, the unique stacks and the
 * distinct (stack, event, pid, tid, comm) contexts, never with the number
 * of samples: that is what lets several GB of perf script text convert.
 * The header must come first but holds the time range and each event's
 * sampling mode, known only at the end, hence the spool.
 *
 * What is written (spaa_writer_write_spaa), in this order:
 *   header     format spaa 1.0, frame_order leaf_to_root, stack_id_mode
 *              content_addressable, time_range in nanoseconds (first and
 *              last sample) when samples had times; per event: the kind
 *              given, mode "period" with sample_period when every sample
 *              had the same period, "frequency" when periods varied (perf
 *              -F adjusts them), "event" with primary "samples" when no
 *              sample had a period; primary_metric "period" otherwise;
 *   dso        ids from 1 in first-seen order; is_kernel as given;
 *   frame      ids from 1 in first-seen order; func_resolved, inlined,
 *              inline_depth written only when they differ from the
 *              defaults (true, false, absent);
 *   thread     one per (pid, tid) seen with a known pid, last comm;
 *   stack      one per (stack, event, pid, tid, comm): weights "samples"
 *              and, for events with periods, "period" (their sum);
 *              exclusive on frames[0] with the same weights;
 *   sample     the spooled records, in input order (when enabled and the
 *              sample had a time).
 *
 * Stack ids (content addressable): "0x" and 16 lowercase hex digits of
 * the 64-bit FNV-1a hash (offset basis 0xcbf29ce484222325, prime
 * 0x100000001b3) of, for each frame from leaf to root, the bytes
 *     func 0x1F dso-name 0x1F ip 0x1F symoff 0x1F srcline 0x1E
 * where ip is "0x" + lowercase hex (empty when absent) and absent
 * strings are empty.  The same call stack of the same binaries gets the
 * same id in every file, whatever the frame ids, so profiles diff by id.
 * Two different stacks with the same hash are reported as an error
 * (SPAA_E_INTERNAL) rather than merged.
 */
#ifndef SPAA_SPAA_WRITER_H
#define SPAA_SPAA_WRITER_H

#include <stdbool.h>
#include <stdint.h>

#include "io/output.h"
#include "model/error.h"
#include "model/warn.h"
#include "model/profile.h"

struct spaa_writer_opts {
	const char *source_tool;        /* header source_tool, e.g. "perf" */
	bool samples;                   /* write sample records */
};

/* A frame to intern; strings are copied (NULL = absent). */
struct spaa_writer_frame {
	const char *func;
	uint32_t dso;                   /* from spaa_writer_add_dso */
	bool has_ip;
	uint64_t ip;
	const char *symoff, *srcline;
	bool func_resolved, inlined;
	int inline_depth;               /* -1 = absent */
	enum spaa_frame_kind kind;
};

struct spaa_writer_sample {
	uint32_t event;                 /* from spaa_writer_add_event */
	int64_t pid, tid, cpu;          /* SPAA_NO_ID when unknown */
	const char *comm;               /* NULL or "" when unknown */
	bool has_time;
	int64_t time;                   /* ns */
	uint64_t count;                 /* samples this stands for (1 for perf) */
	bool has_period;
	uint64_t period;
};

/*
 * The stack hash above, for other writers (profile_writer): start from
 * SPAA_WRITER_STACK_HASH_INIT and fold in each frame, leaf first.  ip is the
 * text written in the frame record ("0x..."); NULL strings count as empty.
 */
#define SPAA_WRITER_STACK_HASH_INIT 0xcbf29ce484222325ULL
uint64_t spaa_writer_stack_hash(uint64_t h, const char *func, const char *dso,
			       const char *ip, const char *symoff,
			       const char *srcline);

struct spaa_writer;

/* A new, empty writer owned by the caller (spaa_writer_free). */
struct spaa_writer *spaa_writer_new(const struct spaa_writer_opts *o);
void spaa_writer_free(struct spaa_writer *w);  /* accepts NULL */

/* Interning: each returns a dense index for later calls. */
uint32_t spaa_writer_add_event(struct spaa_writer *w, const char *name,
			   enum spaa_event_kind kind);
uint32_t spaa_writer_add_dso(struct spaa_writer *w, const char *name,
			 bool is_kernel);
uint32_t spaa_writer_add_frame(struct spaa_writer *w, const struct spaa_writer_frame *f);

/*
 * Adds one sample whose stack is frames[0..n) (frame indices, leaf
 * first, n >= 1).  Returns 0, or -1 with err: SPAA_E_LIMIT when a sum
 * overflows 64 bits, SPAA_E_IO when the sample spool cannot be written.
 */
int spaa_writer_add_sample(struct spaa_writer *w, const struct spaa_writer_sample *s,
		    const uint32_t *frames, uint32_t n, struct spaa_error *err);

/* Number of stack records (contexts) and unique stacks so far. */
uint32_t spaa_writer_nrecords(const struct spaa_writer *w);
uint32_t spaa_writer_nstacks(const struct spaa_writer *w);

/* Writes everything as SPAA NDJSON.  Returns 0 or -1 with err. */
int spaa_writer_write_spaa(struct spaa_writer *w, struct spaa_output *out,
			   struct spaa_error *err);

/*
 * Writes folded stacks of one event (NULL: the first one) weighted by
 * metric ("samples" or "period"; NULL: the event's primary metric).
 * Changed names (folded.h) and the events left out are warnings on warn
 * (may be NULL) naming file.  Errors: SPAA_E_USAGE for an unknown event
 * or metric.
 */
int spaa_writer_write_folded(struct spaa_writer *w, const char *event,
			     const char *metric, struct spaa_output *out,
			     const struct spaa_warn_sink *warn, const char *file,
			     struct spaa_error *err);

#endif
