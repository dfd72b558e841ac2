/*
 * detect - which format an input holds, told from its content, never from
 * its name (the loader and spaa-convert share this one decision).
 *
 * The input is looked at with spaa_input_peek, so nothing is consumed and
 * the chosen reader sees it from its first byte, standard input included.
 * Compression (gzip, zstd) is already undone by the input: the decoded
 * bytes are what is looked at.
 *
 * Binary formats come first: a perf.data file by its magic, a pprof profile is a protobuf message whose
 * first field is a well-formed sample type (spaa_pprof_sniff).
 * A V8 profile or trace is told by its first member name (v8_cpu.h),
 * DTrace output by its first lines (dtrace.h).
 * Text formats are told by the first line that is not blank or a '#'
 * comment, among the first SPAA_DETECT_SNIFF_BYTES: '{' is SPAA, a perf
 * script sample header is perf script, a line that parses as folded
 * stacks ("a;b;c 42") is folded.  Anything else is unknown: the caller
 * picks the reader whose error message helps most (the loader: SPAA's;
 * spaa-convert: folded's, as it always did).
 */
#ifndef SPAA_DETECT_H
#define SPAA_DETECT_H

#include <stddef.h>

#include "io/input.h"
#include "model/error.h"

#define SPAA_DETECT_SNIFF_BYTES ((size_t)64 << 10)

enum spaa_detect_format {
	SPAA_DETECT_UNKNOWN,    /* none of these */
	SPAA_DETECT_EMPTY,      /* only blank and '#' lines */
	SPAA_DETECT_SPAA,
	SPAA_DETECT_PERF,       /* perf script text */
	SPAA_DETECT_FOLDED,     /* folded stacks */
	SPAA_DETECT_PPROF,      /* a pprof protobuf message (pprof.h) */
	SPAA_DETECT_PERF_DATA,  /* a perf.data file, magic PERFILE2 (perf_data.h) */
	SPAA_DETECT_V8,         /* a V8 JSON document (v8_cpu.h: spaa_v8_sniff) */
	SPAA_DETECT_DTRACE,     /* DTrace aggregation text (dtrace.h) */
};

/* Sets *fmt from the content of in.  Errors: those of the input. */
int spaa_detect(struct spaa_input *in, enum spaa_detect_format *fmt,
		struct spaa_error *err);

/*
 * As spaa_detect, for a file a directory holds under a name no profile
 * has (pathlist.h: SPAA_PATHLIST_MAYBE), which may be anything: SPAA
 * only when its first line is a header record, folded stacks only when
 * the first line is a call path with a ';' (notes such as "run 1" parse
 * as folded), otherwise SPAA_DETECT_UNKNOWN or SPAA_DETECT_EMPTY.
 */
int spaa_detect_listed(struct spaa_input *in, enum spaa_detect_format *fmt,
		       struct spaa_error *err);

/* The formats the tools read, for messages about one they do not. */
#define SPAA_DETECT_FORMATS \
	"SPAA, perf script, perf.data, folded stacks, pprof, V8, DTrace and SPX " \
	"(spaa-tools(7))"

/*
 * For content spaa_detect called SPAA_DETECT_UNKNOWN or
 * SPAA_DETECT_EMPTY: -1 naming the input (and the line of the first text
 * line) with SPAA_E_PARSE saying what it looks like and what to do: an
 * ELF binary (profile it with perf record), a perf.data file of another
 * version or byte order, an archive or compression the tools do not
 * undo, a picture, a PDF, HTML, SVG or XML, a JSON array, SPAA behind a
 * byte order mark, the text of perf report or pprof, CSV, binary data,
 * or text of no format (with SPAA_DETECT_FORMATS); with SPAA_E_NO_DATA
 * for only blank lines and comments.  0 when a reader words the fault
 * better, *fmt saying which: SPAA_DETECT_FOLDED for a first line that is
 * a call path ("a;b;c ..."), SPAA_DETECT_SPAA for one that is a JSON
 * string and for an input of no bytes ("empty file").
 */
int spaa_detect_explain(struct spaa_input *in, enum spaa_detect_format *fmt,
			struct spaa_error *err);

#endif
