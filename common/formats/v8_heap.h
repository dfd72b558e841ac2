/*
 * v8_heap - V8 heap profiles into the profile model: heap snapshots and
 * heap timelines with an allocation trace (node --track-heap-objects
 * with v8.writeHeapSnapshot(), DevTools "Allocation instrumentation on
 * timeline", HeapProfiler.stopTrackingHeapObjects chunks concatenated),
 * and sampling heap profiles (.heapprofile from node --heap-prof,
 * DevTools "Allocation sampling").  doc/V8.md has the formats.
 *
 * Model mapping: one event "allocation" (kind allocation, mode event,
 * primary metric alloc_bytes, tracks_frees false; has_timestamps for a
 * timeline) whose records carry alloc_bytes (unit bytes) and
 * alloc_count, so spaa-allocs and spaa-diff (a snapshot before against
 * one after) work on them:
 *   - a snapshot's allocation trace tree: each trace node is a frame of
 *     its function info (name, or "(anonymous)"; DSO the script name, or
 *     "(program)"; srcline "script:line:column" when V8 knows the line),
 *     and its count and size, which V8 keeps per node (self values), are
 *     the record of the node's stack; a timeline's samples give the
 *     file's time range (V8 counts from the start of tracking), not
 *     timed allocations: only objects still alive have a time (through
 *     their node id), a thousandth of the bytes in a real timeline
 *     (doc/V8.md says why they are left out);
 *   - a sampling profile's tree: each node's selfSize is alloc_bytes and
 *     its number of samples alloc_count (V8 lists samples of nodes its
 *     tree leaves out: those are counted in a warning, not in a node);
 *   - "(root)" is left out of every stack, as in CPU profiles; what V8
 *     counts on the root itself (allocations outside any JavaScript
 *     function) stays, as the self weight of a function "(root)".
 *
 * Streaming: the heap graph ("nodes", "edges", "locations"), tens to
 * hundreds of MB, is read past token by token and never kept; of
 * "strings" only those the trace's functions name are kept.  Memory:
 * the trace tree and the function infos.
 *
 * Rejected (file, line, byte): bad JSON; a snapshot without an
 * allocation trace (taken without --track-heap-objects: SPAA_E_NO_DATA,
 * saying how to get one); trace fields or function infos that do not
 * match the meta description; a function info or string index out of
 * range.
 */
#ifndef SPAA_V8_HEAP_H
#define SPAA_V8_HEAP_H

#include "formats/load.h"
#include "formats/v8_cpu.h"
#include "io/input.h"
#include "model/error.h"
#include "model/profile.h"

/*
 * Reads the heap snapshot or sampling heap profile of input in (kind
 * SPAA_V8_HEAPSNAPSHOT or SPAA_V8_HEAPPROFILE, from spaa_v8_sniff) into
 * p as one file.  Returns 0, or -1 with err.
 */
int spaa_v8_heap_read(struct spaa_profile *p, struct spaa_input *in,
		      enum spaa_v8_kind kind, const struct spaa_load_opts *opts,
		      uint64_t bytes_base, uint64_t bytes_total, struct spaa_error *err);

#endif
