/*
 * load - turns paths into a profile: the single entry point analyses use.
 *
 * Each path may be a file (any compression), "-" (stdin) or a directory
 * (every profile in it); all of them load into one struct spaa_profile.
 * The format is decided by content (detect.h): SPAA NDJSON is read by
 * spaa_reader, SPX reports (pathlist.h says which paths are) by
 * spx_reader, perf script text, folded stacks and pprof profiles by their
 * converters through writer_load.h, V8 CPU profiles and traces by
 * v8_cpu, V8 heap profiles by v8_heap, DTrace aggregations by dtrace.
 * Each file's struct spaa_file.format names the format it was read in
 * ("SPAA", "SPX report", "perf script", "folded stacks", "pprof",
 * "perf.data", "V8 CPU profile", "V8 heap snapshot", "V8 heap profile",
 * "DTrace"), for the text header (report/header.h).
 * A validating load (findings.fn set) reads every file as SPAA.
 *
 * Sample records are not stored: each is handed to opts->on_sample as it
 * is read, so an analysis folds it into whatever it needs (time bins,
 * per-stack sums).  A sample may name a stack defined later in the file:
 * its `stack` index is valid but the stack may still be a placeholder;
 * resolve stacks after spaa_load returns (an undefined one is an error by
 * then).
 *
 * Ownership: the options and their callbacks are the caller's; a struct
 * spaa_sample handed to on_sample is borrowed for the call.
 */
#ifndef SPAA_LOAD_H
#define SPAA_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "io/input.h"
#include "io/json.h"
#include "model/error.h"
#include "model/profile.h"
#include "model/repeats.h"
#include "model/warn.h"

/*
 * Resource bounds: a hostile input meets a clear SPAA_E_LIMIT error naming
 * the file and line instead of exhausting memory.  Each is configurable
 * through spaa_load_opts, which spaa_load_limits_env fills from the
 * environment variables named here (README.md, spaa-tools(7)).
 */
#define SPAA_LOAD_MAX_DEPTH_DEFAULT 65536u           /* SPAA_MAX_DEPTH: frames in one stack */
#define SPAA_LOAD_MAX_STRINGS_DEFAULT (1u << 24)     /* SPAA_MAX_STRINGS: distinct strings */
#define SPAA_LOAD_MAX_EVENTS_DEFAULT 65536u          /* SPAA_MAX_EVENTS: events of one header */
/* SPAA_MAX_ZSTD_WINDOW: bytes of a zstd window, SPAA_INPUT_MAX_WINDOW_DEFAULT (input.h) */
/* SPAA_MAX_LINE: bytes in one line, SPAA_INPUT_MAX_LINE_DEFAULT (input.h) */
/* SPAA_MAX_PPROF: bytes of one decoded pprof message, SPAA_PPROF_MAX_BYTES_DEFAULT (pprof.h) */

struct spaa_sample {
	int64_t time;           /* ns, same epoch as the profile's time range */
	uint32_t event;         /* index into events */
	uint32_t stack;         /* index into stacks (maybe not yet defined) */
	int64_t pid, tid, cpu;  /* SPAA_NO_ID when absent */
	bool has_period;
	uint64_t period;
	/*
	 * String index of the metric `period` measures (SPX slices: "wt"),
	 * 0 = the metric named "period".  spaa_fold sums periods as the
	 * weight of that metric (aggregate.h).
	 */
	uint32_t period_metric;
	uint32_t file;          /* index into files */
	unsigned long line;
};

/*
 * Where a validating load reports each record that breaks the spec (see
 * spaa_load_opts.findings).  e is borrowed for the duration of the call.
 */
struct spaa_load_finding_sink {
	void (*fn)(void *data, const struct spaa_error *e);
	void *data;
};

/*
 * How the sample and stack records of SPAA input were read: by the input's block
 * scanner, by the fast path line by line, by the general JSON parser
 * (the fast path's hit rate, which make bench reports).
 */
struct spaa_load_stats {
	uint64_t scanned, fast, general;
	/* the same of stack records (spaa_stack_scan.h) */
	uint64_t stacks_scanned, stacks_fast, stacks_general;
	/* other records whose JSON a reading thread parsed ahead of the reader */
	uint64_t parsed_ahead;
	/*
	 * Stack records of a thread the file had declared without a comm
	 * (so far): read into a model that knows the thread from an earlier
	 * file, such a record takes that file's comm.  A file read into a
	 * model of its own (ahead.h) is read again in place when it has any.
	 */
	uint64_t unnamed_threads;
	/* small files read into models of their own and grafted (ahead.h) */
	uint64_t grafted;
};

struct spaa_load_opts {
	struct spaa_warn_sink warn;     /* SHOULD-warn findings, resource notes */
	/*
	 * Optional (spaa-validate).  When fn is set, a record that breaks
	 * the spec (SPAA_E_INVALID, SPAA_E_PARSE, SPAA_E_LIMIT) is reported
	 * here, skipped, and reading goes on, so one run finds every bad
	 * record; a stack referenced but never defined is reported once per
	 * stack.  spaa_load then returns -1 at the end of the file if any
	 * finding was reported (err: SPAA_E_INVALID, line 0, the count).
	 * I/O and decompression errors still stop the load at once.  The
	 * model built from a file with findings lacks the skipped records
	 * and is only good for counting.  NULL fn: stop at the first error.
	 */
	struct spaa_load_finding_sink findings;
	/*
	 * Report every warning as it happens, with its own line, instead of
	 * folding the repeats of one kind into one warning with a count.
	 */
	bool unfold_warnings;
	/*
	 * Called for every sample record in file order.  Returning -1 (with
	 * err filled) stops the load with that error.  May be NULL.
	 */
	int (*on_sample)(void *data, const struct spaa_profile *p,
			 const struct spaa_sample *s, struct spaa_error *err);
	/*
	 * A hint, may be NULL: a sample record of this stack is some
	 * records ahead (when the reader knows it early), so on_sample can
	 * have its memory fetched while earlier records are added; told
	 * twice, first with near false, then a few records before it comes
	 * with near true (time to fetch what the first fetch points to).
	 * Not every sample is announced, and an announced one may not come;
	 * it must change nothing.
	 */
	void (*on_sample_soon)(void *data, uint32_t stack, bool near);
	/*
	 * May be NULL: called once a load with the time the profile starts
	 * at (what --begin +1.5s counts from, filter.h): just before the
	 * first sample record goes to on_sample, the earliest of the header
	 * time ranges read so far and that sample's time; or, in a load
	 * without samples, at its end, the start of the profile's time (0
	 * without one).
	 */
	void (*on_start)(void *start_data, int64_t start);
	void *start_data;
	/*
	 * SPAA input only (spaa-convert's validating copy): called with each
	 * line as read (line ending removed), before it is parsed, which may
	 * change the buffer.  Returning -1 (with err filled) stops the load
	 * with that error.  May be NULL.
	 */
	int (*on_line)(void *data, const char *line, size_t len,
		       struct spaa_error *err);
	void *data;             /* passed to on_sample and on_line */
	/* Called now and then with bytes read so far over all inputs. */
	void (*on_progress)(void *progress_data, uint64_t done, uint64_t total);
	void *progress_data;
	size_t max_line;        /* 0 = SPAA_INPUT_MAX_LINE_DEFAULT */
	/*
	 * Read every SPAA record with the general parser, never with the
	 * fast path for sample records of the common shape: the same model
	 * either way, slower (the differential test compares the two).
	 */
	bool no_fast_path;
	/*
	 * Sample records are not scanned ahead in blocks (spaa_reader.c,
	 * input.h): the fast path reads them line by line.  The same model
	 * either way; for the differential test.
	 */
	bool no_scanner;
	/*
	 * Files below this size are read without a thread of their own
	 * (spaa_input_opts.thread_min; 0: the default, input.h's for a lone
	 * file and SPAA_AHEAD_FILE_MAX in a load of several; 1: every file
	 * gets one, for the differential test of small files).
	 */
	uint64_t thread_min;
	/*
	 * A load of several small SPAA files with threads (ahead.h): every
	 * one that may be is read alone and grafted, none read in place
	 * when no thread took it.  The same model either way; for the
	 * differential test of grafting.
	 */
	bool graft_all;
	struct spaa_load_stats *stats;  /* may be NULL; counts added, the caller's */
	/*
	 * Several files: what a file repeats of earlier ones (frames,
	 * stacks, stack records of the same context) is stored once,
	 * weights summed (model/repeats.h), so memory grows with what the
	 * files hold that differs, not with their number; so is a SPAA
	 * stack record that repeats one of its own file.  Every sum over
	 * the model is the same; the counts of frames, stacks and records
	 * are not (the analyses set it; spaa-validate and spaa-convert,
	 * which count or copy records, do not).
	 */
	bool fold_repeats;
	uint32_t max_depth;     /* 0 = SPAA_LOAD_MAX_DEPTH_DEFAULT */
	/*
	 * Distinct strings of the model (names, ids; not file paths): what grows
	 * with hostile input when the number of stacks does not.
	 * 0 = SPAA_LOAD_MAX_STRINGS_DEFAULT.
	 */
	uint32_t max_strings;
	size_t max_pprof;       /* 0 = SPAA_PPROF_MAX_BYTES_DEFAULT */
	uint32_t max_events;    /* 0 = SPAA_LOAD_MAX_EVENTS_DEFAULT */
	uint64_t max_window;    /* 0 = SPAA_INPUT_MAX_WINDOW_DEFAULT */
	/*
	 * Threads a load may use, the caller's included (--threads,
	 * SPAA_THREADS): 1 reads everything on the caller's thread, no
	 * decoding or prefetching thread.  0: the cores the process may run
	 * on (sched_getaffinity).  What a load gives is the same whatever
	 * the count: samples come in file order, the model is built in it.
	 */
	uint64_t threads;
	/*
	 * Set by spaa_load for its readers (leave it NULL): the JSON parsers
	 * of the threads that parse SPAA records ahead, kept from file to
	 * file of a directory.
	 */
	struct spaa_json_pool *tree_pool;
	/*
	 * Set by spaa_load for its inputs (leave it NULL): the buffers and
	 * decoders each file leaves to the next (spares.h).
	 */
	struct spaa_spares *spares;
};

/* The bound on threads (--threads, SPAA_THREADS). */
#define SPAA_LOAD_MAX_THREADS 256

/*
 * What a reader does with a sample record s once it has counted it in p
 * (p->nsamples) and in p's time: on_start before the first, then
 * on_sample; its result.
 */
static inline int spaa_load_sample(const struct spaa_load_opts *o,
				   const struct spaa_profile *p,
				   const struct spaa_sample *s, struct spaa_error *err)
{
	if (p->nsamples == 1 && o->on_start)
		o->on_start(o->start_data, p->time_start);
	return o->on_sample ? o->on_sample(o->data, p, s, err) : 0;
}

/*
 * Sets the resource bounds of o from the environment: SPAA_MAX_LINE
 * (bytes), SPAA_MAX_DEPTH (frames), SPAA_MAX_STRINGS (count),
 * SPAA_MAX_PPROF (bytes), SPAA_MAX_EVENTS (count), SPAA_MAX_ZSTD_WINDOW
 * (bytes), each a
 * positive decimal integer; an unset or empty variable leaves the field
 * as it is.  Also the thread count from SPAA_THREADS (1 to
 * SPAA_LOAD_MAX_THREADS) when o->threads is 0 (--threads wins), and
 * checks a given o->threads against that bound ("invalid value '999' for
 * '--threads': expected an integer from 1 to 256").  Returns 0, or -1
 * with SPAA_E_USAGE naming the variable or option.
 */
int spaa_load_limits_env(struct spaa_load_opts *o, struct spaa_error *err);

/*
 * The threads a load with o uses: o->threads, else the cores the process
 * may run on, at most SPAA_LOAD_MAX_THREADS.
 */
unsigned spaa_load_threads(const struct spaa_load_opts *o);

/* How a load with o opens its inputs (bounds, threads). */
void spaa_load_input_opts(const struct spaa_load_opts *o, struct spaa_input_opts *io);

/*
 * Loads every profile named by paths into p (initialized by the caller).
 * On error returns -1 with err naming the file, the line and the cause;
 * p is then partly filled and must still be released by the caller.
 */
int spaa_load(struct spaa_profile *p, const char *const *paths, size_t npaths,
	      const struct spaa_load_opts *opts, struct spaa_error *err);

/*
 * Loads the open input in (any format but SPX, told from its content)
 * into p as one file, as spaa_load loads each of its files; rep (may be
 * NULL) as for spaa_reader_read; bytes_base and bytes_total place it in
 * the progress of a whole load.  in is the caller's.  Errors as
 * spaa_load's.
 */
int spaa_load_input(struct spaa_profile *p, struct spaa_input *in,
		    const struct spaa_load_opts *opts, struct spaa_repeats *rep,
		    uint64_t bytes_base, uint64_t bytes_total, struct spaa_error *err);

#endif
