/*
 * perf_script - a parser for the text `perf script` prints.
 *
 * Usable on its own (no profile model): feed it lines, it calls back once
 * per complete sample.  Accepted (what perf versions and options print):
 *
 *   - the sample line: COMM [PID/]TID [CPU] TIME: [PERIOD] EVENT: [REST]
 *     with any of the fields left out by -F except EVENT; COMM may hold
 *     spaces ("V8 DefaultWorke") and colons ("kworker/0:1"), because the
 *     line is split around the first token shaped like a timestamp
 *     (digits '.' digits ':');
 *   - REST: either one frame "IP SYM+OFF (DSO)" (a sample without a call
 *     graph, or -F ip,sym) or tracepoint arguments (ignored);
 *   - call-graph lines (fp or dwarf), leaf first: "IP SYM[+OFF] (DSO)",
 *     where SYM may contain spaces and parentheses (demangled C++) and
 *     DSO is the last parenthesised group of the line; "[unknown]"
 *     symbols and DSOs; "(inlined)" frames printed by newer perf for
 *     --call-graph dwarf;
 *   - srcline lines (-F srcline) under a frame: "  file.c:12" or
 *     "  file.c:12 (inlined)"; the first one is the frame's srcline;
 *   - blank lines between samples, and "#" comment lines (perf script
 *     --header).
 *
 * Times are converted to integer nanoseconds exactly from the decimal
 * text.  A line that fits none of these shapes is an error naming the
 * line (SPAA_E_PARSE): converting garbage silently is worse than failing.
 */
#ifndef SPAA_PERF_SCRIPT_H
#define SPAA_PERF_SCRIPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "formats/spaa_writer.h"
#include "io/input.h"
#include "model/error.h"
#include "model/warn.h"

#define SPAA_PERF_SCRIPT_NO_ID INT64_MIN    /* a pid/tid/cpu the output did not show */

/* Strings are NUL-terminated and weak: valid during the callback only. */
struct spaa_perf_script_frame {
	bool has_ip;
	uint64_t ip;
	const char *sym;        /* without "+0x..."; "[unknown]" kept as is */
	const char *symoff;     /* "0x56", or NULL */
	const char *dso;        /* inside the parentheses; "inlined" for (inlined) */
	bool inlined;           /* perf printed "(inlined)" */
	const char *srcline;    /* NULL when absent */
};

struct spaa_perf_script_sample {
	const char *comm;       /* "" when not printed */
	int64_t pid, tid, cpu;  /* SPAA_PERF_SCRIPT_NO_ID when not printed */
	bool has_time;
	int64_t time;           /* ns */
	bool has_period;
	uint64_t period;
	const char *event;      /* as printed, without the final ':' */
	const struct spaa_perf_script_frame *frames;        /* leaf first */
	uint32_t nframes;
	unsigned long line;     /* of the sample line */
};

/*
 * Called once per sample, in input order.  Returning -1 (err filled)
 * stops the parse with that error.
 */
typedef int (*spaa_perf_script_fn)(void *data, const struct spaa_perf_script_sample *s,
			      struct spaa_error *err);

struct spaa_perf_script;

/* A new parser for input named path (for messages); free with spaa_perf_script_free. */
struct spaa_perf_script *spaa_perf_script_new(const char *path, spaa_perf_script_fn fn,
				    void *data);
void spaa_perf_script_free(struct spaa_perf_script *ps);  /* accepts NULL */

/*
 * Feeds one line (without its newline; len bytes, need not be
 * NUL-terminated) numbered lineno.  Returns 0 or -1 with err set.
 */
int spaa_perf_script_line(struct spaa_perf_script *ps, const char *line, size_t len,
		     unsigned long lineno, struct spaa_error *err);

/* Ends the input: delivers the last sample.  Returns 0 or -1. */
int spaa_perf_script_finish(struct spaa_perf_script *ps, struct spaa_error *err);

/* Samples delivered so far. */
uint64_t spaa_perf_script_nsamples(const struct spaa_perf_script *ps);

/*
 * True when text looks like perf script output: its first non-comment,
 * non-blank line parses as a sample line.  For format detection.
 */
bool spaa_perf_script_sniff(const char *line, size_t len);

/*
 * Reads perf script text from in into w: each perf sample becomes a
 * sample of w, its event kind told from perf's event name (tracepoints
 * are probes; cpu-clock, page-faults, ... software; the rest hardware),
 * "[unknown]" symbols become their address, inlined frames ("(inlined)"
 * DSO) take the DSO and address of the physical frame after them, with
 * inline depths counted from it, and DSOs named like the kernel's
 * (spaa_profile_kernel_dso) hold kernel frames.  Samples without a frame
 * are left out and counted in one warning.  Errors: those of the input
 * and the parser, SPAA_E_LIMIT for a stack deeper than max_depth,
 * SPAA_E_NO_DATA when the input holds no sample.
 */
int spaa_perf_script_convert(struct spaa_input *in, struct spaa_writer *w,
			     uint32_t max_depth, const struct spaa_warn_sink *warn,
			     struct spaa_error *err);

#endif
