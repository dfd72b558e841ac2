/*
 * main - the one main() of every analysis executable.
 *
 * The only place that writes to stdout and stderr and that chooses exit
 * statuses:
 *   0  success (results written; or compatible, metadata, help, version)
 *   1  the input or the analysis failed (LAMI error object on stdout)
 *   2  usage error (LAMI error object on stdout)
 *   3  results written, and they hold a condition the user asked to fail
 *      on (spaa-diff --fail-if; analysis.h, SPAA_ANALYSIS_CONDITION)
 * On failure the error object goes to stdout (LAMI) and the same message
 * to stderr, because Trace Compass shows only stderr after a non-zero exit.
 * With --format text, csv or html, stdout is for people and spreadsheets: a
 * failure leaves it empty and says why on stderr only (same status), and
 * on a terminal a progress bar is drawn on stderr while the input is read
 * (text only), erased before anything else is written.
 * In --mi-version, --metadata and --test-compatibility modes TC merges
 * stderr into stdout, so nothing is written to stderr there.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "io/output.h"
#include "model/util.h"
#include "model/warn.h"
#include "model/sbuf.h"
#include "report/analysis.h"
#include "report/htmlout.h"
#include "report/textout.h"
#include "report/version.h"

/*
 * The Makefile compiles this file once per analysis, naming its
 * descriptor (analysis.h): -DSPAA_ANALYSIS=spaa_analysis_NAME.
 */
#ifndef SPAA_ANALYSIS
#error "compile with -DSPAA_ANALYSIS=spaa_analysis_NAME (see the Makefile)"
#endif

/* Warnings are capped so stderr stays far below TC's 64 KiB pipe. */
#define MAX_WARNINGS 50

/* What main writes while an analysis runs, besides the results. */
struct chatter {
	const char *prog;
	unsigned warnings;
	struct spaa_lami_progress lami;      /* --output-progress lines on stdout */
	struct spaa_textout_bar bar;         /* --format text on a terminal */
};

/*
 * The peak RSS of this program (VmHWM): of its own memory since exec,
 * where getrusage's ru_maxrss also counts the memory of the process that
 * forked it (a Python test's 15 MB).
 */
static void peak_rss(const char *prog)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "VmHWM:", 6))
			fprintf(stderr, "%s: stats: peak RSS %s", prog, line + strspn(line + 6, " \t") + 6);
	if (f)
		fclose(f);
}

/* SPAA_STATS set: how the sample and stack records were read, for make bench. */
static void print_stats(const char *prog, const struct spaa_load_stats *st)
{
	uint64_t n = st->scanned + st->fast + st->general;

	fprintf(stderr, "%s: stats: %" PRIu64 " sample records: %" PRIu64
		" scanned in blocks, %" PRIu64 " by the fast path line by line, %"
		PRIu64 " by the JSON parser; fast path %.1f %%\n", prog, n,
		st->scanned, st->fast, st->general,
		n ? 100.0 * (double)(st->scanned + st->fast) / (double)n : 0.0);
	n = st->stacks_scanned + st->stacks_fast + st->stacks_general;
	fprintf(stderr, "%s: stats: %" PRIu64 " stack records: %" PRIu64
		" scanned in blocks, %" PRIu64 " by the fast path line by line, %"
		PRIu64 " by the JSON parser; fast path %.1f %%\n", prog, n,
		st->stacks_scanned, st->stacks_fast, st->stacks_general,
		n ? 100.0 * (double)(st->stacks_scanned + st->stacks_fast) / (double)n : 0.0);
	fprintf(stderr, "%s: stats: %" PRIu64 " other records parsed ahead by reading threads\n",
		prog, st->parsed_ahead);
	fprintf(stderr, "%s: stats: %" PRIu64 " small files read ahead into models of their own and grafted\n",
		prog, st->grafted);
	peak_rss(prog);
}

static void print_warning(void *data, const char *file, unsigned long line,
			  const char *msg)
{
	struct chatter *w = data;
	char text[2400];

	if (++w->warnings > MAX_WARNINGS)
		return;
	spaa_textout_bar_clear(&w->bar);
	if (line)
		snprintf(text, sizeof(text), "%s:%lu: %s", file, line, msg);
	else
		snprintf(text, sizeof(text), "%s: %s", file, msg);
	fprintf(stderr, "%s: warning: %s\n", w->prog, spaa_clean_controls(text));
}

static void progress(void *data, uint64_t done, uint64_t total)
{
	struct chatter *c = data;

	spaa_lami_progress_update(&c->lami, done, total, "reading profile");
	spaa_textout_bar_update(&c->bar, done, total);
}

/*
 * Nothing dropped silently: what the analysis did not look at, in the
 * text header (h) or else on stderr.
 */
static void note_left_out(const char *prog, const struct spaa_analysis *a,
			  const struct spaa_weights_left_out *lo,
			  struct spaa_header *h)
{
	const char *choose = a->flags & SPAA_ANALYSIS_EVENT ?
			     " (pick one with --event NAME)" : "";

	if (!lo->records && !lo->samples)
		return;
	if (h)
		spaa_header_add(h, "Left out", "%s: %" PRIu64 " stack records, %"
				PRIu64 " samples%s", lo->events, lo->records,
				lo->samples, choose);
	else
		fprintf(stderr, "%s: note: left out %" PRIu64 " stack records and %"
			PRIu64 " samples of events not analysed: %s%s\n", prog,
			lo->records, lo->samples, lo->events, choose);
}

/*
 * Trace Compass hands an external analysis run on an experiment the
 * experiment's name where a trace's path goes: a bare name that is not
 * there is most likely one.
 */
static void hint_experiment(struct spaa_error *err, const char *trace)
{
	size_t n = strlen(err->msg);

	if (!trace || strcmp(err->code, SPAA_E_NOT_FOUND) ||
	    strcmp(err->file, trace) || strchr(trace, '/'))
		return;
	snprintf(err->msg + n, sizeof(err->msg) - n,
		 " (if Trace Compass ran this on an experiment, '%s' is the experiment's name, not a file: run the analysis on one of its traces)",
		 trace);
}

/* lami: the error object on stdout; quiet: nothing on stderr. */
static int fail(const char *prog, const struct spaa_error *err, bool lami,
		bool quiet)
{
	char msg[2200];

	spaa_error_format(err, msg, sizeof(msg));
	if (lami)
		spaa_lami_error_write(stdout, err->code[0] ? err->code : SPAA_E_INTERNAL, msg);
	fflush(stdout);
	if (!quiet)
		fprintf(stderr, "%s: error: %s\n", prog, spaa_clean_controls(msg));
	return !strcmp(err->code, SPAA_E_USAGE) ? 2 : 1;
}

static void write_metadata(const struct spaa_analysis *a)
{
	static const char *const authors[] = { "spaa-tools developers", NULL };
	static const char *const tags[] = { "spaa", "profile", "stack", NULL };
	struct spaa_lami_meta m = {
		.title = a->title,
		.description = a->description,
		.authors = authors,
		.tags = tags,
		.version_major = SPAA_VERSION_MAJOR,
		.version_minor = SPAA_VERSION_MINOR,
		.version_patch = SPAA_VERSION_PATCH,
		.classes = a->classes,
		.nclasses = a->nclasses,
	};

	spaa_lami_metadata_write(stdout, &m);
}

/*
 * Big blocks (128 KiB and up: a model's arrays and pools, a table's
 * cells and strings) get mappings of their own, for the whole run.
 * glibc starts so, but raises that bound past each mapped block freed,
 * and analyses free a model and then build more: spaa-diff its
 * baseline's before loading the target, the others their stacks before
 * their tables.  The arrays built after would grow inside the heap,
 * copied as they double, the pages of the old copies kept (on the bench
 * file: spaa-diff 58 to 62 MB instead of 43, spaa-hotspots 40 instead of
 * 35, spaa-phases 43 instead of 38).  Mapped, a block grows in place
 * (mremap) and goes back when freed.
 *
 * And one heap for every thread.  A load's threads pass models to one
 * another (a file read ahead on one is cleared and read again on
 * another, formats/ahead.h), so each of glibc's per-thread heaps would
 * hold the high-water mark of its own share of them, which none of the
 * others may reuse: on 20,000 small files up to 14 % more peak memory
 * than on 2,000 (nothing else grows with the files but their names),
 * 2.5 to 4.5 % with one heap, for 1 to 2 % more CPU time
 * (doc/PERFORMANCE.md, Many files).  Small blocks come from each
 * thread's cache (tcache) without the heap's lock anyway.
 */
static void malloc_setup(void)
{
#if defined(__GLIBC__) && defined(M_MMAP_THRESHOLD)
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
#if defined(__GLIBC__) && defined(M_ARENA_MAX)
	mallopt(M_ARENA_MAX, 1);
#endif
}

/* --format html: the page, with the picture the run drew inlined. */
static int write_html(const struct spaa_analysis *a, const struct spaa_analysis_opts *o,
		      const struct spaa_analysis_run *run, struct spaa_error *err)
{
	struct spaa_htmlout_page page = {
		.title = a->title, .sources = o->paths.items, .nsources = o->paths.nr,
	};
	struct spaa_sbuf svg = { 0 };

	if (run->picture) {
		if (spaa_htmlout_read_picture(run->picture, &svg, err))
			return -1;
		page.picture = svg.s;
		page.picture_len = svg.len;
	}
	spaa_htmlout_write(stdout, &run->results, &page);
	free(svg.s);
	return 0;
}

/* Parses argv afresh into o and options, clock mapped (what main did first). */
static int reparse(const struct spaa_analysis *a, int argc, char **argv,
		   struct spaa_analysis_opts *o, void *options, struct spaa_error *err)
{
	spaa_analysis_opts_release(o);
	spaa_analysis_options_release(a, options);
	memset(options, 0, a->options_size ? a->options_size : 1);
	if (a->options_init)
		a->options_init(options);
	return spaa_analysis_parse(a, argc, argv, o, options, err) ||
	       spaa_analysis_map_clock(o, err);
}

/*
 * Runs the analysis.  --format html carries its picture even without
 * --svg FILE: an analysis that draws one (it has an --svg option) runs
 * as if "--svg TEMP" came first, so a --svg of the user's, later, wins.
 * When that makes the run fail as a usage or no-data error (hotspots'
 * --net draws no flame graph, phases without samples has none to draw)
 * it runs again as asked, quietly, and the page has no picture.
 * *temp and *argv2 are main's to free.
 */
static int run_analysis(const struct spaa_analysis *a, int argc, char **argv,
			struct spaa_analysis_opts *o, void *options,
			struct spaa_analysis_run *run, char **temp, char ***argv2,
			struct spaa_error *err)
{
	if (o->format != SPAA_ANALYSIS_HTML || !spaa_analysis_has_option(a, "svg"))
		return a->run(run, err);
	if (spaa_output_temp_create(temp, "spaa-picture", err))
		return -1;
	*argv2 = spaa_xmalloc(((size_t)argc + 3) * sizeof(**argv2));
	(*argv2)[0] = argv[0];
	(*argv2)[1] = (char *)"--svg";
	(*argv2)[2] = *temp;
	memcpy(*argv2 + 3, argv + 1, (size_t)argc * sizeof(*argv));
	if (reparse(a, argc + 2, *argv2, o, options, err))
		return -1;
	if (!a->run(run, err))
		return 0;
	if (strcmp(err->code, SPAA_E_USAGE) && strcmp(err->code, SPAA_E_NO_DATA))
		return -1;
	spaa_analysis_run_release(run);
	run->picture = NULL;
	run->status = 0;
	run->left_out = (struct spaa_weights_left_out){ 0 };
	spaa_header_release(&run->header);
	run->load.warn = (struct spaa_warn_sink){ 0 };  /* said the first time */
	spaa_error_init(err);
	if (reparse(a, argc, argv, o, options, err))
		return -1;
	return a->run(run, err);
}

/* Text tables under a header are not titled with what it says. */
static void short_titles(struct spaa_lami_results *r, const struct spaa_header *h)
{
	for (size_t i = 0; i < r->nr; i++) {
		char *title = spaa_header_short_title(h, spaa_lami_table_title(r->tables[i]));

		spaa_lami_table_set_title(r->tables[i], "%s", title);
		free(title);
	}
}

int main(int argc, char **argv)
{
	const struct spaa_analysis *a = &SPAA_ANALYSIS;
	struct spaa_analysis_run run = { 0 };
	struct spaa_load_stats stats = { 0 };
	struct spaa_analysis_opts opts;
	void *options = spaa_xcalloc(1, a->options_size ? a->options_size : 1);
	struct chatter ch = { 0 };
	struct spaa_error err;
	char *picture = NULL, **argv2 = NULL;
	char name[64];
	bool lami;
	int status = 0;

	malloc_setup();
	snprintf(name, sizeof(name), "spaa-%s", a->name);
	ch.prog = name;
	spaa_error_init(&err);
	spaa_lami_results_init(&run.results);
	if (a->options_init)
		a->options_init(options);
	/* a --format before or after a mistake counts */
	if (spaa_analysis_parse(a, argc, argv, &opts, options, &err)) {
		status = fail(name, &err, opts.format == SPAA_ANALYSIS_LAMI, false);
		goto out;
	}
	lami = opts.format == SPAA_ANALYSIS_LAMI;
	run.opts = &opts;
	run.options = options;

	if (opts.mi_version) {
		/* "1.0" switches Trace Compass to progress + compatibility mode */
		puts("1.0");
	} else if (opts.help) {
		spaa_analysis_help(stdout, a, name);
	} else if (opts.version) {
		printf("%s (spaa-tools) %s\n", name, SPAA_VERSION);
	} else if (opts.metadata) {
		write_metadata(a);
	} else if (opts.test_compat) {
		/* silent: stderr is merged into stdout and must stay clean */
		struct spaa_load_opts quiet = { .threads = opts.threads };
		struct spaa_profile p;

		spaa_profile_init(&p);
		if ((a->probe_options && a->probe_options(options, &err)) ||
		    spaa_load_limits_env(&quiet, &err) ||
		    spaa_load(&p, &opts.test_compat, 1, &quiet, &err) ||
		    a->compatible(&p, opts.test_compat, &err)) {
			hint_experiment(&err, opts.test_compat);
			spaa_analysis_hint_trace(&err, opts.test_compat);
			status = fail(name, &err, true, true);
		}
		spaa_profile_release(&p);
	} else if (!(a->flags & SPAA_ANALYSIS_TWO_INPUTS) && opts.paths.nr != 1) {
		/* two-input analyses count their own paths (--baseline PATH) */
		spaa_error_set(&err, SPAA_E_USAGE,
			       "expected one profile path, got %zu (see --help)",
			       opts.paths.nr);
		status = fail(name, &err, lami, false);
	} else {
		spaa_lami_progress_init(&ch.lami, opts.output_progress ? stdout : NULL);
		spaa_textout_bar_init(&ch.bar, opts.format == SPAA_ANALYSIS_TEXT &&
				      spaa_textout_bar_wanted(fileno(stderr)) ?
				      stderr : NULL);
		run.load.warn = (struct spaa_warn_sink){ print_warning, &ch };
		run.load.on_progress = progress;
		/* --begin/--end +T count from the profile's start (filter.h) */
		run.load.on_start = spaa_filter_start;
		run.load.start_data = &opts.filter;
		run.load.fold_repeats = true;
		run.load.threads = opts.threads;
		run.load.progress_data = &ch;
		if (getenv("SPAA_STATS"))
			run.load.stats = &stats;
		status = spaa_load_limits_env(&run.load, &err) ||
			 spaa_analysis_map_clock(&opts, &err) ||
			 run_analysis(a, argc, argv, &opts, options, &run, &picture, &argv2, &err);
		spaa_textout_bar_clear(&ch.bar);
		if (status) {
			/* TC puts the trace's path last */
			hint_experiment(&err, opts.paths.nr ?
					opts.paths.items[opts.paths.nr - 1] : NULL);
			spaa_analysis_hint_trace(&err, opts.paths.nr ?
						 opts.paths.items[opts.paths.nr - 1] : NULL);
			status = fail(name, &err, lami, false);
		} else if (!run.results.nr) {
			spaa_error_set(&err, SPAA_E_NO_DATA,
				       "nothing to report: the profile has no data for this analysis");
			status = fail(name, &err, lami, false);
		} else if (spaa_lami_results_overflow(&run.results, lami, &err)) {
			status = fail(name, &err, lami, false);
		} else if (lami) {
			/* the threads the load had: every stack's row is 20 MB of text */
			spaa_lami_results_write_threads(stdout, &run.results,
							spaa_load_threads(&run.load));
		} else if (opts.format == SPAA_ANALYSIS_HTML) {
			status = write_html(a, &opts, &run, &err);
			if (status)
				status = fail(name, &err, false, false);
		} else {
			size_t width = opts.wide ? 0 : opts.width ? opts.width :
				       spaa_textout_width(STDOUT_FILENO);

			if (opts.format == SPAA_ANALYSIS_TEXT) {
				char said[512];

				/* spaa-diff says its own: the same in both profiles */
				if (!(a->flags & SPAA_ANALYSIS_TWO_INPUTS) &&
				    *spaa_filter_describe(&opts.filter, said, sizeof(said)))
					spaa_header_add(&run.header, "Selected", "%s", said);
				note_left_out(name, a, &run.left_out, &run.header);
				spaa_header_write(stdout, &run.header, width);
				short_titles(&run.results, &run.header);
			}
			spaa_textout_write(stdout, &run.results,
					   opts.format == SPAA_ANALYSIS_CSV ?
					   SPAA_TEXTOUT_CSV : SPAA_TEXTOUT_TEXT, width);
		}
		if (!status && opts.format != SPAA_ANALYSIS_TEXT)
			note_left_out(name, a, &run.left_out, NULL);
		if (run.load.stats)
			print_stats(name, &stats);
		if (!status && run.status) {
			fprintf(stderr, "%s: %s\n", name, run.status_note);
			status = run.status;
		}
		if (ch.warnings > MAX_WARNINGS)
			fprintf(stderr, "%s: warning: %u more warnings not shown\n",
				name, ch.warnings - MAX_WARNINGS);
	}
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "%s: error: cannot write the output\n", name);
		status = 1;
	}
out:
	spaa_analysis_run_release(&run);
	spaa_analysis_opts_release(&opts);
	/* repeatable options fill lists only main can free on every path */
	spaa_analysis_options_release(a, options);
	free(options);
	spaa_output_temp_remove(picture);
	free(argv2);
	return status;
}
