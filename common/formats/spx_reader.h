/*
 * spx_reader - SPX "full" reports into the profile model.
 *
 * SPX, the PHP profiler, writes one report as two files: KEY.json
 * (metadata: exec_ts, process_pid/tid, enabled_metrics, ...) and
 * KEY.txt.gz (gzip text: "[events]", lines "IDX FLAG V1 .. VN" with
 * cumulative metric values, then "[functions]", one name a line, line k
 * naming index k).  The reader is handed the .json path (input.h decides
 * what is an SPX report) and opens the .txt.gz beside it.
 *
 * Model mapping (what analyses see):
 *   - one report = one process: every record and sample carries the
 *     metadata's process_pid and process_tid; comm is the CLI command
 *     line, or "METHOD URI" for an HTTP request, so a directory of
 *     reports is told apart in per-process tables;
 *   - event "spx" (kind timer, mode event, primary metric "wt");
 *   - when zmab is enabled, also event "spx-alloc" (kind allocation,
 *     primary metric "alloc_bytes") whose records carry SPAA's standard
 *     allocation metrics: alloc_bytes = zmab, alloc_count = zmac,
 *     free_bytes = zmfb, free_count = zmfc (those that are enabled), so
 *     allocation analyses need no SPX knowledge; a path that allocated
 *     and freed nothing has no record there;
 *   - a function is (name from [functions], DSO "php"): one DSO for all
 *     of PHP, because SPX says nothing about where code lives (file
 *     frames are themselves functions named by their path), and merging
 *     by name is what a directory of reports of one application needs;
 *   - each distinct call path (sequence of function indices from a root
 *     call) is one stack, frames leaf first, with one record per event;
 *   - a record's weights are the path's EXCLUSIVE cost for every enabled
 *     metric, under SPX's own names (wt, ct, zm, ...: metrics.h knows
 *     them), and its exclusive weights are the same values.  That is the
 *     model's contract (a record is "what happened with exactly this
 *     stack"): aggregate.h adds a record's weight to every function on it,
 *     so the inclusive cost of a function (exit - entry summed over its
 *     calls, recursion counted once) is its total there, and the sum over
 *     records is the whole run;
 *   - one more weight, "calls": how many times the path was entered
 *     (its entry events), exclusive like the others, so a function's
 *     self "calls" is how often it was called (every path ending in it)
 *     and its total the calls made in its subtree, itself included;
 *   - exclusive = inclusive - children's inclusive.  It is computed
 *     exactly as the sum, over the slices between consecutive events
 *     during which the path is on top of the stack, of each metric's
 *     change (the same number by telescoping, and one pass);
 *   - negative values: deltas of zm, zo, zgb, mor, ct (and in principle
 *     any column) can be negative, weights cannot.  A metric M whose
 *     exclusive value is negative on some path of the file is split in
 *     two non-negative metrics: M holds the positive parts and "M-" the
 *     magnitudes of the negative parts, so the net change of M over any
 *     set of paths is sum(M) - sum(M-), exactly.  "M-" exists in a file
 *     only when some path needs it (metrics.h gives it M's class);
 *   - timeline: every slice between two consecutive events while a call
 *     is open becomes a sample on opts->on_sample: time = exec_ts (s) *
 *     1e9 + wt at the slice's start (ns), stack = the path on top,
 *     period = the slice's wall time, period_metric = "wt".  So folding
 *     samples by period gives exactly the records' wt; the file's time
 *     range is [exec_ts, exec_ts + last wt].
 *
 * What real SPX writes and is accepted (doc/SPX.md): times in
 * ns; values relative to the first event, negative values printed like
 * "-551.9999" or "-.9999" (rounded to the nearest integer, see
 * spaa_spx_reader_parse_value); any number of metric columns in the order of
 * enabled_metrics; several root calls; names with spaces, UTF-8 and a
 * leading "::" (a name is the whole line); zero events and functions;
 * raw control bytes inside metadata strings (escaped before the strict
 * JSON parser sees them: the only leniency); stacks thousands of frames
 * deep (nothing here recurses).
 *
 * Warned: calls still open at the end of [events] (a report that was not
 * finalized: they are closed at the last event), wall time going back
 * (the slice counts as 0), a missing exec_ts (times start at 0).
 *
 * Rejected, with file and line: metadata that is not JSON, without a
 * non-empty enabled_metrics array of distinct strings including "wt"; an
 * event file not starting with "[events]"; an event line with a bad
 * index or flag, a value that is not a number, or a number of values
 * other than len(enabled_metrics); an exit without an open call, or of
 * another function than the open one; a function index past the names
 * of [functions]; no [functions] section; a truncated or corrupt gzip
 * stream; sums overflowing 64 bits; deeper stacks than opts->max_depth;
 * more than SPAA_SPX_READER_MAX_FRAMES frames over all call paths of a file
 * (hostile input could otherwise ask for depth^2 memory).
 *
 * Memory: one trie node per distinct call path (a hash map keyed by
 * (parent node, function index)), with one int64 per metric; the open
 * calls; the function names; the samples of at most 65,536 slices,
 * held until the stacks are known so that a call path of an earlier
 * report is shared (past that, the report's paths are stacks of their
 * own and its samples stream).  Never the events.
 *
 * The profile is the caller's; the reader keeps nothing once it returns.
 */
#ifndef SPAA_SPX_READER_H
#define SPAA_SPX_READER_H

#include <stddef.h>
#include <stdint.h>

#include "formats/load.h"
#include "model/error.h"
#include "model/profile.h"
#include "model/repeats.h"

/* Bound on frames stored for the call paths of one report (256 MiB). */
#define SPAA_SPX_READER_MAX_FRAMES ((uint64_t)64 << 20)

/*
 * Samples held until a report's names come (32 bytes each): past it, the
 * report's call paths are stacks of their own and its samples stream.
 */
#define SPAA_SPX_READER_HELD 65536

/* Bound on the size of a metadata file. */
#define SPAA_SPX_READER_MAX_META ((size_t)16 << 20)

/*
 * Reads the SPX report whose metadata is json_path (KEY.json; the events
 * are KEY.txt.gz) into p as one file.  rep (may be NULL: nothing is
 * shared) indexes what earlier files of the load put in p: a function's
 * frame, a call path's stack and a path's record in the same process
 * (pid, tid, comm) are then theirs, weights summed (repeats.h).
 * bytes_base and bytes_total place it in the progress of the whole load; *bytes_read receives the bytes
 * it read from disk (both files).  Returns 0, or -1 with err set.
 */
int spaa_spx_reader_read(struct spaa_profile *p, const char *json_path,
		    const struct spaa_load_opts *opts, struct spaa_repeats *rep,
		    uint64_t bytes_base, uint64_t bytes_total, uint64_t *bytes_read,
		    struct spaa_error *err);

/*
 * One value token s[0..len) of an event line: an optional '-', decimal
 * digits, an optional '.' and more digits, at least one digit in all
 * ("0", "155069", "-551.9999", "-.9999"), rounded to the nearest
 * integer, halves away from zero, exactly (no floating point).  Returns
 * 0, or -1 when the token is not such a number or is outside int64.
 */
int spaa_spx_reader_parse_value(const char *s, size_t len, int64_t *out);

#endif
