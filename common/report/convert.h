/*
 * convert - what spaa-convert does: other profilers' output into SPAA,
 * and SPAA out again, in one call; the program itself only parses its
 * command line and reports.
 *
 *   perf script text  --> SPAA or folded     (perf_script.h, spaa_writer.h)
 *   folded stacks     --> SPAA or folded     (folded.h, spaa_writer.h)
 *   pprof profiles    --> SPAA               (pprof.h), or folded
 *                         through the loader (load.h)
 *   perf.data         --> as perf script text, which perf prints of it
 *                         (perf_data.h)
 *   SPX reports       --> SPAA or folded     (load.h, profile_writer.h)
 *   SPAA              --> SPAA (validated by the reader while each line
 *                         is copied as it is: unknown fields survive)
 *                         or folded          (load.h, folded.h)
 *   any of them       --> a flame graph SVG  (flamegraph.h): perf and
 *                         folded input through a temporary SPAA file read
 *                         back into the profile model
 *
 * The input format is told by the path for SPX reports (a report by
 * either of its files, or a directory of them) and by the content
 * otherwise (detect.h); what the content does not tell is read as
 * folded stacks, whose parser names the line it cannot read.
 */
#ifndef SPAA_CONVERT_H
#define SPAA_CONVERT_H

#include <stdbool.h>

#include "formats/load.h"
#include "model/error.h"
#include "report/flamegraph.h"

enum spaa_convert_format {
	SPAA_CONVERT_AUTO,      /* told from the content (input only) */
	SPAA_CONVERT_PERF,      /* perf script text (input only) */
	SPAA_CONVERT_FOLDED,
	SPAA_CONVERT_SPX,       /* SPX reports (input only) */
	SPAA_CONVERT_SPAA,
	SPAA_CONVERT_PPROF,     /* pprof profiles (input only) */
	SPAA_CONVERT_PERF_DATA, /* perf.data, through perf script (input only) */
	SPAA_CONVERT_MERGE,     /* several inputs or a directory: loaded as one */
	SPAA_CONVERT_SVG,       /* an interactive flame graph (output only) */
	SPAA_CONVERT_LOADER,    /* what only the loader reads: V8, DTrace (input only, by content) */
};

/* What to convert; the strings are borrowed for the call. */
struct spaa_convert_opts {
	enum spaa_convert_format from, to;
	const char *input;      /* a path, "-" for standard input */
	/*
	 * Several inputs (ninputs > 1; input is inputs[0]) are merged into
	 * one profile: see spaa_convert.
	 */
	const char *const *inputs;
	size_t ninputs;
	const char *output;     /* a path, "-" for standard output */
	int compress;           /* enum spaa_input_comp; -1: from output's name (.zst, .gz) */
	bool no_samples;        /* SPAA output without sample records */
	/*
	 * SPAA output for Trace Compass' custom parser
	 * (tools/tracecompass-parser.xml), which reads integer nanoseconds:
	 * every input, SPAA too, is loaded and written from the model, so
	 * times are ns (header unit and sample timestamps); a profile
	 * without sample records gets a warning saying what that means.
	 */
	bool time_ns;
	/* folded and SVG output: the event and metric (NULL: the first, its primary) */
	const char *event, *metric;
	/* SVG output: title (NULL: "Flame graph of INPUT"), width, min_width */
	struct spaa_flamegraph_opts svg;
	/* the bounds (SPAA_MAX_*) and where the readers' warnings go */
	struct spaa_load_opts load;
};

/*
 * Converts o->input into o->output.  A failed conversion leaves no output
 * file (output.h).  Errors name the file and line where they can.
 *
 * Merging: several inputs, or a directory of profiles, of any formats the
 * loader reads, load into one model (load.h; what a later file repeats
 * of an earlier one is stored once, records of equal content merged with
 * their weights summed, repeats.h) and are written as one profile:
 * events by name (one name with two kinds or primary metrics is an error
 * naming both files), dictionaries renumbered, the time range the union,
 * stack ids the content hash, sample records of every input unless
 * no_samples.  The order of the inputs changes the order of records, not
 * what any analysis reads from the result, and a merge of merges is the
 * merge of all.
 */
int spaa_convert(const struct spaa_convert_opts *o, struct spaa_error *err);

#endif
