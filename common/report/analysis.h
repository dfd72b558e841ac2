/*
 * analysis - what an analysis is: one descriptor per executable.
 *
 * common/main.c owns main(): it parses the shared LAMI options plus the
 * analysis' own, answers --mi-version, --metadata, --help, --version and
 * --test-compatibility, runs the analysis, and is the only place that
 * turns a struct spaa_error into a LAMI error object and an exit status.
 * An analysis file only describes its tables and options and fills
 * tables in run(); it never prints.
 *
 * Adding an analysis:
 *   1. write analyses/NAME.c defining `const struct spaa_analysis
 *      spaa_this_analysis` (the Makefile builds spaa-NAME from it);
 *   2. add golden cases under tests/golden/ and unit tests for any new
 *      common/ code;
 *   3. write man/spaa-NAME.1 and a README example;
 *   4. add /spaa-NAME to nothing: .gitignore already ignores /spaa-*.
 */
#ifndef SPAA_ANALYSIS_H
#define SPAA_ANALYSIS_H

#include "model/error.h"
#include "report/lami.h"
#include "formats/load.h"
#include "report/report.h"

#define SPAA_VERSION "0.1.0"
#define SPAA_VERSION_MAJOR 0
#define SPAA_VERSION_MINOR 1
#define SPAA_VERSION_PATCH 0

/* What main hands to an analysis. */
struct spaa_analysis_run {
	const struct spaa_lami_opts *opts;   /* weak */
	/*
	 * Warning sink and progress callback set by main; an analysis passes
	 * a copy to spaa_load after setting on_sample.  Warnings are silenced
	 * in the modes where Trace Compass merges stderr into stdout.
	 */
	struct spaa_load_opts load;
	struct spaa_lami_results results;    /* the analysis adds its tables here */
	struct spaa_left_out left_out;  /* records of events not analysed */
};

enum {
	/*
	 * BASELINE TARGET, e.g. spaa-diff.  main does not check the number
	 * of paths: run() does (SPAA_E_USAGE), since the baseline may also
	 * come from an option (--baseline PATH, what Trace Compass can pass).
	 */
	SPAA_ANALYSIS_TWO_INPUTS = 1,
};

struct spaa_analysis {
	const char *name;               /* "hotspots": the program spaa-hotspots */
	const char *title;              /* LAMI metadata title */
	const char *description;        /* one paragraph, for metadata and --help */
	const char *synopsis;           /* positional arguments for --help */
	const struct spaa_lami_table_class *classes;
	size_t nclasses;
	const struct spaa_lami_option *options;      /* extra options or NULL */
	unsigned flags;
	/*
	 * --test-compatibility: main loads path quietly (no callbacks) into
	 * p and asks; 0 if the analysis can run on it, else -1 with err
	 * saying why (SPAA_E_INCOMPATIBLE).  Load errors never reach here.
	 */
	int (*compatible)(const struct spaa_profile *p, const char *path,
			  struct spaa_error *err);
	/* The analysis: adds tables to run->results, or fails with err. */
	int (*run)(struct spaa_analysis_run *run, struct spaa_error *err);
};

/* Defined by the one analysis file linked into each executable. */
extern const struct spaa_analysis spaa_this_analysis;

#endif
