/*
 * pprof - pprof profiles (profile.proto: Go's runtime/pprof, pprof's own
 * tools, Pyroscope, jemalloc and tcmalloc heap profiles) into SPAA.
 *
 * The message is decoded by protobuf-c from the schema in pprof.proto,
 * compiled at build time.  A protobuf message is decoded whole, so the
 * profile is read into memory, up to max_bytes decoded (gzip is undone by
 * the input, as for every format; SPAA_MAX_PPROF, default 256 MiB):
 * beyond that a clear SPAA_E_LIMIT error, never an attempt.  Before
 * protobuf-c sees it, the message is walked field by field against the
 * schema, so a truncated message, a wrong wire type or a bad length is an
 * error naming its byte offset and field rather than protobuf-c's bare
 * failure.  Then every id and string index is checked (a Location naming
 * an unknown Mapping or Function, a string index past the table: errors
 * naming the record).
 *
 * What maps to what (one event; doc/PPROF.md has the table):
 *   sample_type       each a metric, named by its type and carrying its
 *                     unit ("nanoseconds": a duration, "bytes": a size,
 *                     "count"/"objects": an integer); Go's heap types
 *                     become the allocation metrics: alloc_space ->
 *                     alloc_bytes, alloc_objects -> alloc_count,
 *                     inuse_space -> live_bytes, inuse_objects -> live_count
 *   default_sample_type  the primary metric; unset, the last sample type
 *                     (pprof's own rule: what `go tool pprof` shows)
 *   period_type       the event's name ("cpu", "space"; else "pprof");
 *   period            its sample_period (mode "period"; "event" without)
 *                     kind: allocation with Go's heap types, timer when
 *                     the period or a sample type is a time, else software
 *   time_nanos, duration_nanos  the header's time range (pprof samples
 *                     carry no time: --begin/--end cannot cut them)
 *   Mapping           a dso: file name ("[unknown]" when empty or absent),
 *                     build id, kernel when named like the kernel's
 *   Location + Line   frames, leaf first: a Location with several Lines
 *                     is one physical frame (the last Line) under inlined
 *                     frames (the first Line is the deepest), spec 3.3;
 *                     srcline "file:line"; ip the address; a Location
 *                     without Lines is its address, unresolved
 *   Sample            one stack record, id the FNV-1a hash of its frame
 *                     ids (the same stack in one file, the same id);
 *                     exclusive weights on its leaf
 *   Label             context "labels": {"key": "str" or num}, which the
 *                     model keeps with the record (profile.h), so merges
 *                     and SPAA copies keep them; numeric labels "pid"
 *                     and "tid" become the context's pid, tid
 *   drop_frames, keep_frames  applied as pprof applies them (POSIX
 *                     extended regular expressions matching whole
 *                     function names)
 * Negative sample values (pprof's -diff_base profiles) are an error:
 * SPAA weights are non-negative.  Samples whose stack is empty (no
 * location, or all dropped) are left out and counted in one warning.
 */
#ifndef SPAA_PPROF_H
#define SPAA_PPROF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/input.h"
#include "io/output.h"
#include "model/error.h"
#include "model/warn.h"

#define SPAA_PPROF_MAX_BYTES_DEFAULT ((size_t)256 << 20)       /* SPAA_MAX_PPROF */

/*
 * Whether data[0..len), the first decoded bytes of an input, is the start
 * of a pprof Profile: its fields, walked in order, are fields of Profile
 * with their wire types (sub-messages walked whole, no unknown field at
 * any depth), and a whole sample_type comes before any fault (every
 * profile has one; Go writes time_nanos first).  A fault after it is a
 * damaged profile, whose error the reader words.  complete: data is the
 * whole input (a field cannot run past it).  Text does not pass: a
 * sample_type takes a '\n', a length and then bytes 0x08 or 0x10 with
 * varints, which no text holds.
 */
bool spaa_pprof_sniff(const unsigned char *data, size_t len, bool complete);

struct spaa_pprof_opts {
	size_t max_bytes;               /* 0 = SPAA_PPROF_MAX_BYTES_DEFAULT */
	uint32_t max_depth;             /* frames in one stack; 0 = no bound */
	const struct spaa_warn_sink *warn;      /* may be NULL */
};

/*
 * Reads the pprof profile in in (from its first byte) and writes it to
 * out as SPAA.  Errors name the input: SPAA_E_LIMIT (larger than
 * max_bytes, a stack deeper than max_depth), SPAA_E_PARSE (not a
 * well-formed message), SPAA_E_INVALID (a bad id, string index, value or
 * regular expression), SPAA_E_NO_DATA (no sample type or no sample),
 * those of the input and of out.
 */
int spaa_pprof_convert(struct spaa_input *in, struct spaa_output *out,
		       const struct spaa_pprof_opts *o, struct spaa_error *err);

#endif
