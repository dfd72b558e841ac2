#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "formats/ctf_clock.h"
#include "model/units.h"
#include "model/util.h"
#include "report/analysis.h"
#include "report/textout.h"

static int parse_begin(void *base, const char *value)
{
	struct spaa_analysis_opts *o = base;

	return spaa_filter_set_begin(&o->filter, value);
}

static int parse_end(void *base, const char *value)
{
	struct spaa_analysis_opts *o = base;

	return spaa_filter_set_end(&o->filter, value);
}

static int parse_clock_offset(void *base, const char *value)
{
	struct spaa_analysis_opts *o = base;

	o->has_clock_offset = true;
	return spaa_parse_i64(value, &o->clock_offset);
}

static const char *const time_forms[] = { SPAA_FILTER_TIME_FORMS, NULL };

static int parse_limit(void *base, const char *value)
{
	struct spaa_analysis_opts *o = base;

	if (!strcmp(value, "unlimited")) {
		o->limit = SPAA_ANALYSIS_UNLIMITED;
		return 0;
	}
	if (spaa_parse_u64(value, &o->limit))
		return -1;
	/* as in perf report and pprof: 0 rows would be no table at all */
	if (!o->limit)
		o->limit = SPAA_ANALYSIS_UNLIMITED;
	return 0;
}

static int format_of(const char *value, enum spaa_analysis_format *f)
{
	if (!strcmp(value, "lami") || !strcmp(value, "json"))
		*f = SPAA_ANALYSIS_LAMI;
	else if (!strcmp(value, "text"))
		*f = SPAA_ANALYSIS_TEXT;
	else if (!strcmp(value, "csv"))
		*f = SPAA_ANALYSIS_CSV;
	else if (!strcmp(value, "html"))
		*f = SPAA_ANALYSIS_HTML;
	else
		return -1;
	return 0;
}

/*
 * The parse stops at a mistake: a --format further on still says where
 * its usage error goes (none on stdout for text and CSV).
 */
static void later_format(int argc, char **argv, struct spaa_analysis_opts *o)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		const char *v = !strncmp(argv[i], "--format=", 9) ? argv[i] + 9 :
				!strcmp(argv[i], "--format") && i + 1 < argc ? argv[++i] : NULL;

		if (v)
			(void)format_of(v, &o->format);
	}
}

static int parse_format(void *base, const char *value)
{
	struct spaa_analysis_opts *o = base;

	o->format_given = true;
	return format_of(value, &o->format);
}

static int parse_width(void *base, const char *value)
{
	struct spaa_analysis_opts *o = base;
	uint64_t w;

	if (spaa_parse_u64(value, &w) || w < SPAA_TEXTOUT_MIN_WIDTH ||
	    w > SPAA_TEXTOUT_MAX_WIDTH)
		return -1;
	o->width = (size_t)w;
	return 0;
}

/*
 * The format without --format: people at a terminal read text, and
 * everything else (Trace Compass, pipes, scripts) the LAMI it always
 * read; SPAA_FORMAT overrides both.
 */
static int default_format(struct spaa_analysis_opts *o, struct spaa_error *err)
{
	const char *env = getenv("SPAA_FORMAT");

	o->format = isatty(STDOUT_FILENO) ? SPAA_ANALYSIS_TEXT : SPAA_ANALYSIS_LAMI;
	if (env && *env && format_of(env, &o->format))
		return spaa_error_set(err, SPAA_E_USAGE,
				      "invalid value '%s' for SPAA_FORMAT (lami, json, text, csv or html)",
				      env);
	return 0;
}

static int parse_path(void *base, const char *value)
{
	struct spaa_analysis_opts *o = base;

	o->test_compat = value;
	return *value ? 0 : -1;
}

#define AT(field) offsetof(struct spaa_analysis_opts, field)

static const struct spaa_option lami_options[] = {
	{ "begin", 0, SPAA_OPTION_CUSTOM, 0, "TS",
	  "ignore samples before TS (ns; or 795.1s, 120ms, 3us; +1.5s: from the start)",
	  time_forms, parse_begin },
	{ "end", 0, SPAA_OPTION_CUSTOM, 0, "TS",
	  "ignore samples after TS (same forms)", time_forms, parse_end },
	{ "clock-offset", 0, SPAA_OPTION_CUSTOM, 0, "NS",
	  "take --begin/--end as in a clock NS ahead of the profile's (default: the clock offset of a CTF trace directory analysed, else 0)",
	  NULL, parse_clock_offset },
	{ "limit", 0, SPAA_OPTION_CUSTOM, 0, "N",
	  "write at most N rows per table; 0 or 'unlimited' (the default): all",
	  NULL, parse_limit },
	{ "format", 0, SPAA_OPTION_CUSTOM, 0, "FMT",
	  "lami (also: json), text, csv or html; default: text on a terminal, else lami",
	  NULL, parse_format },
	{ "width", 0, SPAA_OPTION_CUSTOM, 0, "N",
	  "text fits N columns (default: COLUMNS, the terminal's width, or 100)",
	  NULL, parse_width },
	{ "wide", 0, SPAA_OPTION_FLAG, AT(wide), NULL,
	  "text never cuts names nor leaves columns out to fit a width", NULL,
	  NULL },
	SPAA_OPTION_THREADS(struct spaa_analysis_opts, threads),
	{ "output-progress", 0, SPAA_OPTION_FLAG, AT(output_progress), NULL,
	  "write progress lines before the results", NULL, NULL },
	{ "metadata", 0, SPAA_OPTION_FLAG, AT(metadata), NULL,
	  "write the LAMI metadata object and exit", NULL, NULL },
	{ "mi-version", 0, SPAA_OPTION_FLAG, AT(mi_version), NULL,
	  "write the LAMI version this program speaks and exit", NULL, NULL },
	{ "test-compatibility", 0, SPAA_OPTION_CUSTOM, 0, "PATH",
	  "say whether PATH can be analyzed and exit", NULL, parse_path },
	{ "version", 0, SPAA_OPTION_FLAG, AT(version), NULL,
	  "show the program version and exit", NULL, NULL },
	{ "help", 'h', SPAA_OPTION_FLAG, AT(help), NULL,
	  "show this help and exit", NULL, NULL },
	{ NULL, 0, 0, 0, NULL, NULL, NULL, NULL },
};

/* SPAA_ANALYSIS_EVENT */
static const struct spaa_option event_options[] = {
	{ "event", 0, SPAA_OPTION_STRING, AT(event), "NAME",
	  "event to analyse (default: the header's first event)", NULL, NULL },
	{ "metric", 0, SPAA_OPTION_STRING, AT(metric), "NAME",
	  "weight to use (default: the event's primary metric)", NULL, NULL },
	{ NULL, 0, 0, 0, NULL, NULL, NULL, NULL },
};

static int parse_focus(void *base, const char *value)
{
	struct spaa_analysis_opts *o = base;

	return spaa_filter_set_focus(&o->filter, value);
}

static int parse_ignore(void *base, const char *value)
{
	struct spaa_analysis_opts *o = base;

	return spaa_filter_set_ignore(&o->filter, value);
}

static int parse_percent(void *base, const char *value)
{
	struct spaa_analysis_opts *o = base;

	return spaa_units_parse_decimal(value, &o->percent_limit) ||
	       o->percent_limit > 100 ? -1 : 0;
}

static const char *const percent_form[] = { "a percentage from 0 to 100", NULL };

/* SPAA_ANALYSIS_PERCENT */
static const struct spaa_option percent_options[] = {
	{ "percent-limit", 0, SPAA_OPTION_CUSTOM, 0, "P",
	  "leave out rows under P % of the total (perf report's option)",
	  percent_form, parse_percent },
	{ NULL, 0, 0, 0, NULL, NULL, NULL, NULL },
};

static const char *const regex_form[] = {
	"a POSIX extended regular expression", NULL,
};

/* SPAA_ANALYSIS_THREADS */
static const struct spaa_option thread_options[] = {
	{ "pid", 0, SPAA_OPTION_I64, AT(filter.pid), "PID",
	  "only stacks of this process", NULL, NULL },
	{ "tid", 0, SPAA_OPTION_I64, AT(filter.tid), "TID",
	  "only stacks of this thread", NULL, NULL },
	{ "comm", 0, SPAA_OPTION_STRING, AT(filter.comm), "NAME",
	  "only stacks of threads of this command name", NULL, NULL },
	{ NULL, 0, 0, 0, NULL, NULL, NULL, NULL },
};

/* SPAA_ANALYSIS_STACKS */
static const struct spaa_option stack_options[] = {
	{ "focus", 0, SPAA_OPTION_CUSTOM, 0, "REGEX",
	  "only stacks through a function matching REGEX", regex_form, parse_focus },
	{ "symbol-filter", 0, SPAA_OPTION_CUSTOM, 0, "REGEX",
	  "the same as --focus (perf report's name)", regex_form, parse_focus },
	{ "ignore", 0, SPAA_OPTION_CUSTOM, 0, "REGEX",
	  "no stack through a function matching REGEX", regex_form, parse_ignore },
	{ NULL, 0, 0, 0, NULL, NULL, NULL, NULL },
};

#define HINT(name, short_name, what) \
	{ name, short_name, SPAA_OPTION_HINT, 0, NULL, what, NULL, NULL }

/*
 * What people type from habit (perf report, pprof) and what it is here:
 * a usage error that says so beats "unknown option" (option.h).
 */
static const struct spaa_option habit_hints[] = {
	HINT("children", 0, "perf report's --children is the Total column of "
	     "spaa-hotspots' functions table, always shown"),
	HINT("no-children", 0, "perf report's --no-children is the Self column; "
	     "spaa-hotspots ranks functions by it"),
	HINT("stdio", 0, "perf report's --stdio is '--format text' (the default "
	     "on a terminal)"),
	HINT("input", 'i', "perf report's --input is the PROFILE argument here"),
	HINT("show-nr-samples", 'n', "perf report's --show-nr-samples is the "
	     "Self samples column of spaa-hotspots, always shown"),
	HINT("call-graph", 'g', "perf report's --call-graph is spaa-hotspots' "
	     "'--callers REGEX' and '--callees REGEX' (and '--inverted') here"),
	HINT("peek", 0, "pprof's -peek is spaa-hotspots' '--callers REGEX "
	     "--callees REGEX' here"),
	HINT("comms", 0, "perf report's --comms is '--comm NAME' here (one name)"),
	HINT("time", 0, "perf report's --time is '--begin T' and '--end T' here"),
	HINT("symbols", 0, "perf report's --symbols is '--focus REGEX' (also "
	     "'--symbol-filter') here: stacks through the functions matching it"),
	HINT("dsos", 0, "perf report's --dsos has no filter here: spaa-hotspots' dsos "
	     "table weighs each DSO"),
	HINT("cpu", 0, "perf report's --cpu has no filter here: spaa-hotspots' cpus "
	     "table weighs each CPU"),
	HINT("tui", 0, "perf report's --tui is '--format text' (the default on a "
	     "terminal) or '--format html'"),
	HINT("gtk", 0, "perf report's --gtk is '--format html' here"),
	HINT("header", 0, "perf report's --header is the '#' lines before the tables "
	     "of '--format text', always written"),
	HINT("header-only", 0, "perf report's --header-only is the '#' lines before "
	     "the tables of '--format text'"),
	HINT("top", 0, "pprof's -top is spaa-hotspots' functions table"),
	HINT("nodecount", 0, "pprof's -nodecount is '--limit N' here"),
	HINT("nodefraction", 0, "pprof's -nodefraction is '--percent-limit P' here "
	     "(a percentage: 0.5 % for -nodefraction=0.005)"),
	HINT("http", 0, "pprof's -http is '--format html' here"),
	HINT("cum", 0, "pprof's -cum is spaa-hotspots' '--sort total' here"),
	HINT("flat", 0, "pprof's -flat is spaa-hotspots' '--sort self' (the default) here"),
	HINT("sample_index", 0, "pprof's -sample_index is '--metric NAME' (and "
	     "'--event NAME') here"),
	HINT("base", 0, "pprof's -base is 'spaa-diff BASELINE TARGET' here"),
	HINT("diff_base", 0, "pprof's -diff_base is 'spaa-diff BASELINE TARGET' here"),
	HINT("traces", 0, "pprof's -traces is spaa-hotspots' hot call paths table "
	     "(stacks)"),
	HINT("tree", 0, "pprof's -tree is spaa-hotspots' '--callers REGEX' and "
	     "'--callees REGEX' here"),
	/* the analyses that rank rows have their own --sort, found first */
	HINT("sort", 's', "spaa-phases' tables are in time order; --sort orders the "
	     "rows of spaa-hotspots, spaa-allocs and spaa-diff"),
	HINT("hide", 0, "pprof's -hide has no equivalent here: '--ignore REGEX' "
	     "leaves out whole stacks through a match"),
	{ NULL, 0, 0, 0, NULL, NULL, NULL, NULL },
};

static const struct spaa_option no_options[] = {
	{ NULL, 0, 0, 0, NULL, NULL, NULL, NULL },
};

/*
 * perf report's sort keys group rows; here each grouping is a table of
 * its own and --sort orders rows: a bad --sort value that is one of
 * perf's says where its grouping is.
 */
static const struct {
	const char *key, *here;
} perf_sort_keys[] = {
	{ "sym", "the functions table" }, { "symbol", "the functions table" },
	{ "dso", "spaa-hotspots' dsos table" }, { "comm", "spaa-hotspots' threads table" },
	{ "pid", "spaa-hotspots' threads table" }, { "tid", "spaa-hotspots' threads table" },
	{ "cpu", "spaa-hotspots' cpus table" },
};

static void hint_sort_key(struct spaa_error *err)
{
	static const char prefix[] = "invalid value '";
	const char *v, *end;

	if (!err)
		return;
	v = err->msg + sizeof(prefix) - 1;
	if (strncmp(err->msg, prefix, sizeof(prefix) - 1) || !(end = strchr(v, '\'')) ||
	    strncmp(end, "' for '--sort'", 14))
		return;
	for (size_t i = 0; i < sizeof(perf_sort_keys) / sizeof(perf_sort_keys[0]); i++)
		if (strlen(perf_sort_keys[i].key) == (size_t)(end - v) &&
		    !strncmp(v, perf_sort_keys[i].key, (size_t)(end - v))) {
			size_t at = strlen(err->msg);

			snprintf(err->msg + at, sizeof(err->msg) - at,
				 "; perf report's --sort %s groups rows: that is %s here, and --sort orders the rows",
				 perf_sort_keys[i].key, perf_sort_keys[i].here);
			return;
		}
}

enum { OPTION_SETS = 7 };

/*
 * The tables of a's command line, in --help order: the LAMI options, then
 * under "Analysis options" the shared ones a takes and its own; last the
 * habits of other tools, which --help leaves out.
 */
static size_t option_sets(const struct spaa_analysis *a,
			  struct spaa_analysis_opts *o, void *options,
			  struct spaa_option_set sets[OPTION_SETS])
{
	const char *heading = "Analysis options";
	size_t n = 0;

	sets[n++] = (struct spaa_option_set){ "LAMI options", lami_options, o };
	if (a->flags & SPAA_ANALYSIS_EVENT) {
		sets[n++] = (struct spaa_option_set){ heading, event_options, o };
		heading = NULL;
	}
	if (a->flags & SPAA_ANALYSIS_THREADS) {
		sets[n++] = (struct spaa_option_set){ heading, thread_options, o };
		heading = NULL;
	}
	if (a->flags & SPAA_ANALYSIS_STACKS) {
		sets[n++] = (struct spaa_option_set){ heading, stack_options, o };
		heading = NULL;
	}
	if (a->flags & SPAA_ANALYSIS_PERCENT) {
		sets[n++] = (struct spaa_option_set){ heading, percent_options, o };
		heading = NULL;
	}
	sets[n++] = (struct spaa_option_set){
		heading, a->options ? a->options : no_options, options,
	};
	sets[n++] = (struct spaa_option_set){ NULL, habit_hints, NULL };
	return n;
}

int spaa_analysis_parse(const struct spaa_analysis *a, int argc, char **argv,
			struct spaa_analysis_opts *o, void *options,
			struct spaa_error *err)
{
	struct spaa_option_set sets[OPTION_SETS];
	size_t nsets;

	memset(o, 0, sizeof(*o));
	o->limit = SPAA_ANALYSIS_UNLIMITED;
	spaa_filter_init(&o->filter);
	nsets = option_sets(a, o, options, sets);
	if (default_format(o, err))
		return -1;
	if (spaa_option_parse(argc, argv, sets, nsets, &o->paths, err)) {
		hint_sort_key(err);
		later_format(argc, argv, o);
		return -1;
	}
	/* progress lines are for LAMI readers, even at a terminal */
	if (o->output_progress && !o->format_given)
		o->format = SPAA_ANALYSIS_LAMI;
	if (spaa_filter_inverted(&o->filter)) {
		bool rel = o->filter.begin_from_start;

		spaa_error_set(err, SPAA_E_USAGE,
			       "'--begin' (%s%" PRId64 ") is after '--end' (%s%" PRId64 ")",
			       rel ? "+" : "",
			       rel ? o->filter.begin_offset : o->filter.begin,
			       rel ? "+" : "", rel ? o->filter.end_offset : o->filter.end);
		goto fail;
	}
	/* progress lines are LAMI: they would end up inside a table */
	if (o->output_progress && o->format != SPAA_ANALYSIS_LAMI) {
		spaa_error_set(err, SPAA_E_USAGE,
			       "'--output-progress' needs '--format lami'");
		goto fail;
	}
	return 0;
fail:
	spaa_analysis_opts_release(o);
	return -1;
}

void spaa_analysis_opts_release(struct spaa_analysis_opts *o)
{
	spaa_option_args_release(&o->paths);
	spaa_filter_release(&o->filter);
}

void spaa_analysis_options_release(const struct spaa_analysis *a,
				   void *options)
{
	for (const struct spaa_option *x = a->options; x && x->name; x++)
		if (x->kind == SPAA_OPTION_LIST)
			spaa_option_list_release((struct spaa_option_list *)
						 ((char *)options + x->offset));
}

void spaa_analysis_run_release(struct spaa_analysis_run *run)
{
	spaa_lami_results_release(&run->results);
	spaa_header_release(&run->header);
}

void spaa_analysis_help(FILE *out, const struct spaa_analysis *a,
			const char *prog)
{
	struct spaa_option_set sets[OPTION_SETS];
	size_t nsets = option_sets(a, NULL, NULL, sets);

	spaa_option_help(out, prog, a->synopsis, a->description, sets, nsets,
			 NULL);
}

bool spaa_analysis_has_option(const struct spaa_analysis *a, const char *name)
{
	for (const struct spaa_option *o = a->options; o && o->name; o++)
		if (!strcmp(o->name, name))
			return true;
	return false;
}

int spaa_analysis_need_stacks(const struct spaa_profile *p, const char *path,
			      struct spaa_error *err)
{
	if (p->nrecords || p->nsamples)
		return 0;
	return spaa_error_at(err, SPAA_E_INCOMPATIBLE, path, 0,
			     "the profile has no stack or sample records");
}

int spaa_analysis_map_clock(struct spaa_analysis_opts *o, struct spaa_error *err)
{
	struct spaa_ctf_clock c;
	const char *trace;
	char from[sizeof(o->filter.clock_from)];
	int r;

	if (!spaa_filter_has_range(&o->filter))
		return 0;
	if (o->has_clock_offset)
		return spaa_filter_shift(&o->filter, o->clock_offset,
					 "given by '--clock-offset'", err);
	if (!o->paths.nr)
		return 0;
	/* Trace Compass puts the trace's path last */
	trace = o->paths.items[o->paths.nr - 1];
	r = spaa_ctf_clock_read(trace, &c, err);
	if (r <= 0 || c.nclocks != 1)
		return r < 0 ? -1 : 0;
	snprintf(from, sizeof(from), "of the clock '%s' of %s/metadata", c.name, trace);
	return spaa_filter_shift(&o->filter, c.offset_ns, from, err);
}

void spaa_analysis_hint_trace(struct spaa_error *err, const char *path)
{
	struct spaa_ctf_clock c;
	struct spaa_error ignored;

	if (!path || strcmp(err->code, SPAA_E_NO_PROFILE) ||
	    spaa_ctf_clock_read(path, &c, &ignored) != 1)
		return;
	spaa_error_at(err, SPAA_E_INCOMPATIBLE, path, 0,
		      "a CTF trace without a profile: no profile found in the trace's directory (put one there: spaa-convert -o %s/run.spaa.zst perf.data)",
		      path);
}
