/*
 * spaa_reader - SPAA 1.0 NDJSON into the profile model, with the
 * validation rules of spec section 7.
 *
 * Rejected (SPAA_E_INVALID, or SPAA_E_PARSE for bad JSON/UTF-8), with the
 * file and line: header not first, a second header, a frame naming an
 * unknown DSO, a stack naming an unknown frame, a stack of a declared
 * event without that event's primary metric, a frame order that does not
 * match the header (the exclusive frame is the root end, or inline depths
 * increase toward the leaf), an exclusive frame that is not the leaf, a
 * stack id reused with different frames, a sample or window naming a
 * stack that is never defined, required fields missing or of the wrong
 * type, enum values outside the spec, weights that are not non-negative
 * integers, sums overflowing 64 bits, stacks deeper than the bound.
 *
 * Warned (never silent, folded per kind with a count): unknown
 * source_tool, unknown context keys, zero values of a primary metric,
 * unknown record types (skipped and counted), blank lines, related
 * stacks that are never defined.
 *
 * What real producers write and is accepted (doc/SPAA.md): keys
 * in any order, the same stack id on several records that share frames
 * but differ in context (each record is kept), numeric stack ids,
 * exclusive weights with fewer metrics than weights, no samples at all.
 *
 * The profile and the input are the caller's; the reader keeps nothing of
 * its own once spaa_reader_read returns.
 */
#ifndef SPAA_READER_H
#define SPAA_READER_H

#include "formats/load.h"
#include "io/input.h"
#include "model/repeats.h"

/*
 * Reads all of in into p as one file (added to p->files).  bytes_base
 * and bytes_total place this file in the progress of the whole load.
 * rep (may be NULL, borrowed) indexes what earlier files of the load put
 * in p: what this file repeats of it is stored once (repeats.h).
 */
int spaa_reader_read(struct spaa_profile *p, struct spaa_input *in,
		     const struct spaa_load_opts *opts, struct spaa_repeats *rep,
		     uint64_t bytes_base, uint64_t bytes_total, struct spaa_error *err);

#endif
