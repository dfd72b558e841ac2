/*
 * analysis - what an analysis is: one descriptor per executable, and the
 * options every analysis shares.
 *
 * common/report/main.c owns main(): it parses the shared options plus
 * the analysis' own, answers --mi-version, --metadata, --help, --version
 * and --test-compatibility, runs the analysis, and is the only place
 * that turns a struct spaa_error into a LAMI error object and an exit
 * status.  An analysis file only describes its tables and options and
 * fills tables in run(); it never prints.
 *
 * Adding an analysis:
 *   1. write analyses/NAME.c defining `const struct spaa_analysis
 *      spaa_analysis_NAME`: its table classes, a struct of its own
 *      options with the option table that fills it (report/option.h),
 *      the flags of the shared options it takes, run() and compatible();
 *      declare it below; the Makefile builds spaa-NAME from it (main.c
 *      compiled with -DSPAA_ANALYSIS=spaa_analysis_NAME) with no edit;
 *   2. ask common/ for everything that is not the analysis itself: the
 *      loader (formats/load.h), sums (analysis/), titles, weight columns
 *      and cells (report/table.h); a computation another analysis could
 *      use goes into common/analysis/ with a unit test;
 *   3. add golden cases under tests/golden/ (make golden writes their
 *      expected output; review it);
 *   4. write man/spaa-NAME.1 (tests/cli_man.py checks it against --help)
 *      and a README example;
 *   5. if a person would want it on the one-page report, give it a
 *      section in tools/report.c (spaa-report runs the analyses in
 *      process, by their descriptors);
 *   6. nothing else: .gitignore ignores /spaa-*, make install installs
 *      every spaa-NAME with its Trace Compass descriptor.
 *
 * Ownership: the descriptor and its tables are static; struct
 * spaa_analysis_opts owns its positional-argument array (released by
 * spaa_analysis_opts_release, harmless twice) and borrows its strings from
 * argv; main owns the analysis' own options struct.  A struct
 * spaa_analysis_run borrows its options; its results are main's.
 */
#ifndef SPAA_ANALYSIS_H
#define SPAA_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/filter.h"
#include "analysis/weights.h"
#include "formats/load.h"
#include "model/error.h"
#include "report/header.h"
#include "report/lami.h"
#include "report/option.h"

/* How results are written (--format); errors too, see main.c. */
enum spaa_analysis_format {
	SPAA_ANALYSIS_LAMI,     /* "lami" or "json": the LAMI results object */
	SPAA_ANALYSIS_TEXT,     /* "text": aligned tables (textout.h) */
	SPAA_ANALYSIS_CSV,      /* "csv": one CSV block per table */
	SPAA_ANALYSIS_HTML,     /* "html": one self-contained page (htmlout.h) */
};

#define SPAA_ANALYSIS_UNLIMITED UINT64_MAX

/* The exit status of results that hold a --fail-if condition. */
#define SPAA_ANALYSIS_CONDITION 3

/*
 * The options of every analysis (the LAMI ones, listed under "LAMI
 * options") and those that several take when their descriptor asks
 * (flags below).  Filled by spaa_analysis_parse.
 */
struct spaa_analysis_opts {
	bool metadata;          /* --metadata */
	bool mi_version;        /* --mi-version */
	bool help;              /* --help, -h */
	bool version;           /* --version */
	bool output_progress;   /* --output-progress */
	const char *test_compat;        /* --test-compatibility PATH, or NULL */
	uint64_t limit;         /* --limit N|0|unlimited; default unlimited */
	/*
	 * --format; else SPAA_FORMAT from the environment; else text when
	 * standard output is a terminal, LAMI otherwise (Trace Compass,
	 * pipes and scripts read LAMI without asking).
	 */
	enum spaa_analysis_format format;
	bool format_given;      /* by --format (not from the default) */
	size_t width;           /* --width N: text columns; 0: the terminal's */
	bool wide;              /* --wide: text never cut nor dropped */
	/*
	 * --begin/--end TS (filter.h: ns, with units, from the start; moved
	 * onto the profile's clock by spaa_analysis_map_clock); --pid, --tid
	 */
	struct spaa_filter filter;
	bool has_clock_offset;  /* --clock-offset NS given */
	int64_t clock_offset;
	const char *event, *metric;     /* --event, --metric, or NULL */
	/* --percent-limit P: rows under P % of their total left out; 0: none */
	double percent_limit;
	uint64_t threads;       /* --threads N, 0 when not given (spaa_load_opts) */
	struct spaa_option_args paths;  /* positional arguments (owned) */
};

enum {
	/*
	 * BASELINE TARGET, e.g. spaa-diff.  main does not check the number
	 * of paths: run() does (SPAA_E_USAGE), since the baseline may also
	 * come from an option (--baseline PATH, what Trace Compass can pass).
	 */
	SPAA_ANALYSIS_TWO_INPUTS = 1,
	/* Takes --event NAME and --metric NAME: one event and metric weighed. */
	SPAA_ANALYSIS_EVENT = 2,
	/*
	 * Takes --pid, --tid and --comm: only the stacks of one process,
	 * thread or command.
	 */
	SPAA_ANALYSIS_THREADS = 4,
	/*
	 * Takes --focus (and its alias --symbol-filter) and --ignore: only
	 * stacks through, or not through, some functions (filter.h).
	 */
	SPAA_ANALYSIS_STACKS = 8,
	/*
	 * Takes --percent-limit P (perf report's): its ranked tables leave
	 * out the rows under P % of their total (spaa_filter_percent).
	 */
	SPAA_ANALYSIS_PERCENT = 16,
};

/* What main hands to an analysis. */
struct spaa_analysis_run {
	const struct spaa_analysis_opts *opts;  /* weak */
	const void *options;    /* weak: the analysis' own options struct */
	/*
	 * Warning sink and progress callback set by main; an analysis passes
	 * a copy to spaa_load after setting on_sample.  Warnings are silenced
	 * in the modes where Trace Compass merges stderr into stdout.
	 */
	struct spaa_load_opts load;
	struct spaa_lami_results results;       /* the analysis adds its tables here */
	/*
	 * 0, or SPAA_ANALYSIS_CONDITION when the results hold a condition the
	 * user asked to be told of by the exit status (spaa-diff --fail-if);
	 * main then writes status_note on standard error.
	 */
	int status;
	char status_note[256];
	/* an SVG file the run wrote (--svg), which --format html inlines */
	const char *picture;
	struct spaa_weights_left_out left_out;  /* records of events not analysed */
	/* what --format text says before the tables (the run fills it) */
	struct spaa_header header;
};

struct spaa_analysis {
	const char *name;               /* "hotspots": the program spaa-hotspots */
	const char *title;              /* LAMI metadata title */
	const char *description;        /* one paragraph, for metadata and --help */
	const char *synopsis;           /* positional arguments for --help */
	const struct spaa_lami_table_class *classes;
	size_t nclasses;
	/*
	 * The analysis' own options (NULL: none), writing into a struct of
	 * options_size bytes that main allocates, zeroes and hands to
	 * options_init (NULL: zeroes are the defaults), then to run() as
	 * run->options.  main releases its SPAA_OPTION_LIST fields.
	 */
	const struct spaa_option *options;
	size_t options_size;
	void (*options_init)(void *options);
	unsigned flags;                 /* SPAA_ANALYSIS_* */
	/*
	 * --test-compatibility: main loads path quietly (no callbacks) into
	 * p and asks; 0 if the analysis can run on it, else -1 with err
	 * saying why (SPAA_E_INCOMPATIBLE).  Load errors never reach here.
	 */
	int (*compatible)(const struct spaa_profile *p, const char *path,
			  struct spaa_error *err);
	/*
	 * --test-compatibility, before path is loaded: whether the inputs
	 * the options name load (spaa-diff's --baseline): a command typed
	 * into Trace Compass may carry them, and Trace Compass offers the
	 * analysis when the probe passes.  NULL: nothing to check;
	 * else 0, or -1 with err.  Quiet, like the probe.
	 */
	int (*probe_options)(const void *options, struct spaa_error *err);
	/* The analysis: adds tables to run->results, or fails with err. */
	int (*run)(struct spaa_analysis_run *run, struct spaa_error *err);
};

/*
 * The descriptors, one per analyses/NAME.c.  Each analysis executable
 * links its own (main.c names it through SPAA_ANALYSIS); spaa-report and
 * the fuzz targets link several and run them in process.
 */
extern const struct spaa_analysis spaa_analysis_allocs;
extern const struct spaa_analysis spaa_analysis_diff;
extern const struct spaa_analysis spaa_analysis_hotspots;
extern const struct spaa_analysis spaa_analysis_phases;

/*
 * Parses argv into o (initialized here) and the analysis' own options
 * struct options (already holding its defaults).  Besides the errors of
 * spaa_option_parse (option.h), SPAA_E_USAGE:
 *   "'--begin' (7) is after '--end' (5)"
 *   "'--output-progress' needs '--format lami'"
 * --limit takes a count, 0 or "unlimited" (no limit); --begin/--end
 * a time of spaa_filter_parse_time (the message of one that does not
 * parse lists the forms); --format lami, json, text, csv or html, and so does
 * SPAA_FORMAT ("invalid value 'x' for SPAA_FORMAT (lami, json, text,
 * csv or html)"); --width a count of 20 or more; a --sort value that is
 * one of perf report's grouping keys ("dso") says which table groups so.
 * On failure o->format keeps a
 * --format read before the mistake, so main can still report the error
 * that way.  Release o with spaa_analysis_opts_release (harmless twice),
 * and the options' lists with spaa_analysis_options_release, after a
 * failure too.
 */
int spaa_analysis_parse(const struct spaa_analysis *a, int argc, char **argv,
			struct spaa_analysis_opts *o, void *options,
			struct spaa_error *err);
void spaa_analysis_opts_release(struct spaa_analysis_opts *o);
void spaa_analysis_options_release(const struct spaa_analysis *a,
				   void *options);

/* Frees what a run filled (its results and header); harmless twice. */
void spaa_analysis_run_release(struct spaa_analysis_run *run);

/*
 * --begin/--end onto the profile's clock, when they were given: less
 * --clock-offset NS, else less the offset of the clock of a CTF trace
 * directory that is the last path (Trace Compass shows a CTF trace in
 * its clock plus that offset, formats/ctf_clock.h), when the metadata
 * declares exactly one clock; else unchanged.  -1 with err when the
 * metadata cannot be read or the result passes 64 bits.
 */
int spaa_analysis_map_clock(struct spaa_analysis_opts *o, struct spaa_error *err);

/*
 * A directory without profiles that is a CTF trace: err (SPAA_E_NO_PROFILE
 * about path) becomes SPAA_E_INCOMPATIBLE saying so, and where the
 * profile goes.  Other errors are left alone.
 */
void spaa_analysis_hint_trace(struct spaa_error *err, const char *path);

/* Writes --help: the LAMI options, then the analysis options. */
void spaa_analysis_help(FILE *out, const struct spaa_analysis *a,
			const char *prog);

/*
 * Whether a's own options include --NAME: an analysis with --svg FILE
 * draws a picture there (main.c has --format html carry it).
 */
bool spaa_analysis_has_option(const struct spaa_analysis *a, const char *name);

/*
 * The compatibility test of analyses that work on any stacks
 * (struct spaa_analysis.compatible): p has stack or sample records.
 */
int spaa_analysis_need_stacks(const struct spaa_profile *p, const char *path,
			      struct spaa_error *err);

#endif
