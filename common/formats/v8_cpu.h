/*
 * v8_cpu - Chrome / V8 CPU profiles into the profile model: .cpuprofile
 * files (node --cpu-prof, DevTools "Save profile") and trace files
 * (DevTools Performance panel, chrome://tracing, node
 * --trace-event-categories disabled-by-default-v8.cpu_profiler) with
 * Profile / ProfileChunk events.  doc/V8.md has the formats.
 *
 * Model mapping:
 *   - event "cpu-profile" (kind timer, mode frequency, primary metric
 *     "samples", frequency_hz = samples / duration, truncated
 *     as the reference converter does), weights
 *     "samples" and "time_us" (unit microseconds): the time of a sample
 *     is its timeDeltas entry, the gap since the sample before it (V8's
 *     sampling interval as it really was); a negative delta (V8 writes
 *     them when samples come out of order) counts 0;
 *   - one call-tree node = one frame: function = (functionName, or
 *     "(anonymous)" when empty; DSO = the script URL, or "(program)" for
 *     V8's own and native code), srcline "url:line:column" (1-based) when
 *     V8 gave a line; a stack per sampled node (leaf first, up its
 *     parents), its record's weights = the node's self weights;
 *   - pseudo nodes: the tree's root "(root)" is not a function and is
 *     left out of every stack (its children are the roots); "(program)"
 *     (native code outside JS), "(idle)" (the thread waited) and
 *     "(garbage collector)" stay, each a root-level function of DSO
 *     "(program)", so totals are the whole sampled time and --pid/--tid
 *     or a flame graph show where GC and idle time went;
 *   - every sample goes to on_sample: time = startTime + the deltas so
 *     far (µs, V8's monotonic clock, as ns), period = its time_us,
 *     period_metric "time_us", so --begin/--end and spaa-phases work;
 *   - a .cpuprofile has no process: pid/tid are absent.  A trace keeps
 *     each profile apart (one call tree per (pid, profile id), never a
 *     node id of one matched with another's), records and samples carry
 *     the pid and tid of the Profile event, and thread names come from
 *     thread_name metadata events;
 *   - a .cpuprofile without "samples" (hitCount only) gives "samples"
 *     from hitCount, with no time.
 *
 * Streaming: the document is read token by token (jsonstream.h); a node
 * or trace event is parsed alone.  The samples and timeDeltas arrays of
 * a .cpuprofile are spooled to a temporary file and paired at the end,
 * so memory grows with the nodes, never the samples.
 *
 * Rejected (file, line, byte): bad JSON; a node without an integer id or
 * callFrame, a duplicate id, a child or sample naming no node, a node
 * with two parents, a cycle; samples and timeDeltas of different
 * lengths; non-integer samples or deltas; no node at all; a trace with
 * no ProfileChunk.
 */
#ifndef SPAA_V8_CPU_H
#define SPAA_V8_CPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "formats/load.h"
#include "io/input.h"
#include "model/error.h"
#include "model/profile.h"

enum spaa_v8_kind {
	SPAA_V8_NONE,           /* not a V8 document (SPAA, perhaps) */
	SPAA_V8_CPUPROFILE,
	SPAA_V8_TRACE,
	SPAA_V8_HEAPSNAPSHOT,   /* also a heap timeline */
	SPAA_V8_HEAPPROFILE,    /* sampling heap profile */
};

/*
 * Which V8 document data[0..len) (the first bytes of the input) begins:
 * told by the first member name ("nodes", "startTime", ... for a CPU
 * profile; "traceEvents", "metadata" or an array of objects for a
 * trace; "snapshot" for a heap snapshot; "head" for a sampling heap
 * profile).
 */
enum spaa_v8_kind spaa_v8_sniff(const char *data, size_t len);

/*
 * Reads the .cpuprofile or trace document of input in (kind from
 * spaa_v8_sniff) into p as one file.  bytes_base/bytes_total place it
 * in the load's progress.  Returns 0, or -1 with err.
 */
int spaa_v8_cpu_read(struct spaa_profile *p, struct spaa_input *in,
		     enum spaa_v8_kind kind, const struct spaa_load_opts *opts,
		     uint64_t bytes_base, uint64_t bytes_total, struct spaa_error *err);

#endif
