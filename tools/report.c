/*
 * spaa-report - one HTML page a person opens: every analysis that applies
 * to a profile, each with its picture and its top tables, a summary at
 * the top and, against a baseline, what changed.
 *
 * The analyses run in this process, through their descriptors
 * (report/analysis.h), on command lines built here, exactly as their
 * programs would run them; nothing is spawned.  Each reads the profile
 * itself: they fold the samples as they stream by, each into what it
 * needs, so the profile is read once per section (the sample records are
 * never stored, and their callbacks are each analysis' own).
 *
 * A section whose analysis has nothing to say about the profile (phases
 * without timed samples, allocations without allocation events) is left
 * out, and the summary says why.  Any other failure fails the report.
 *
 * Exit status: 0 the page was written, 1 an input could not be read or
 * analysed or the page not written, 2 usage.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/output.h"
#include "model/sbuf.h"
#include "model/util.h"
#include "report/analysis.h"
#include "report/htmlout.h"
#include "report/svg.h"
#include "report/textout.h"
#include "report/version.h"

#define PROG "spaa-report"
/* Warnings are capped so that stderr stays readable (main.c does so too). */
#define MAX_WARNINGS 50

static const char description[] =
	"Writes one self-contained HTML page about PROFILE: a summary, then\n"
	"spaa-hotspots' flame graph and tables, spaa-phases' timeline (when the\n"
	"profile has timed samples), spaa-allocs' sites and leak suspects (when\n"
	"it has allocation events) and, with --baseline, spaa-diff's\n"
	"differential flame graph and deltas.  The analyses run in this\n"
	"process, each as its program runs with --svg and --limit unlimited;\n"
	"the page shows the first rows of each table and counts the rest.";

struct options {
	const char *output;     /* -o FILE: required */
	const char *baseline;   /* --baseline BASELINE, or NULL */
	uint64_t rows;          /* --rows N: rows shown per table */
	const char *title;      /* --title TEXT */
	uint64_t threads;       /* --threads N (spaa_option_program), 0: not given */
};

static const struct spaa_option options[] = {
	{ "output", 'o', SPAA_OPTION_STRING, offsetof(struct options, output), "FILE",
	  "write the page to FILE (- for standard output)", NULL, NULL },
	{ "baseline", 0, SPAA_OPTION_STRING, offsetof(struct options, baseline), "BASELINE",
	  "also compare PROFILE with BASELINE (spaa-diff)", NULL, NULL },
	{ "rows", 0, SPAA_OPTION_U64, offsetof(struct options, rows), "N",
	  "rows shown of each table (default 10; the rest are counted)", NULL, NULL },
	{ "title", 0, SPAA_OPTION_STRING, offsetof(struct options, title), "TEXT",
	  "the page's title (default: SPAA report of PROFILE)", NULL, NULL },
	{ NULL, 0, 0, 0, NULL, NULL, NULL, NULL },
};

/* One section of the page: which analysis, and what it found. */
struct section {
	const struct spaa_analysis *a;
	const char *heading;
	bool compare;           /* needs --baseline */
	struct spaa_lami_results results;
	struct spaa_sbuf picture;       /* the SVG document it drew, or empty */
	char left_out[512];     /* why the section is not there, or "" */
};

static void print_warning(void *data, const char *file, unsigned long line,
			  const char *msg)
{
	unsigned *n = data;
	char text[2400];

	if (++*n > MAX_WARNINGS)
		return;
	if (line)
		snprintf(text, sizeof(text), "%s:%lu: %s", file, line, msg);
	else
		snprintf(text, sizeof(text), "%s: %s", file, msg);
	fprintf(stderr, PROG ": warning: %s\n", spaa_clean_controls(text));
}

/*
 * Runs s->a on profile as "spaa-NAME --limit unlimited [--svg TEMP]
 * [--baseline BASELINE] PROFILE" would, keeping its results and picture.
 * Unlimited: the summary counts rows; the page shows the first ones.
 */
static int run_section(struct section *s, const struct options *o, const char *profile,
		       bool draw, struct spaa_warn_sink warn, struct spaa_error *err)
{
	const struct spaa_analysis *a = s->a;
	void *own = spaa_xcalloc(1, a->options_size ? a->options_size : 1);
	struct spaa_analysis_run run = { 0 };
	struct spaa_analysis_opts opts = { 0 };
	char name[64];
	char *picture = NULL;
	const char *argv[10];
	int argc = 0, ret = -1;

	snprintf(name, sizeof(name), "spaa-%s", a->name);
	if (draw && spaa_output_temp_create(&picture, "spaa-report-svg", err))
		goto out;
	argv[argc++] = name;
	argv[argc++] = "--limit";
	argv[argc++] = "unlimited";
	if (draw) {
		argv[argc++] = "--svg";
		argv[argc++] = picture;
	}
	if (s->compare) {
		argv[argc++] = "--baseline";
		argv[argc++] = o->baseline;
	}
	argv[argc++] = profile;
	argv[argc] = NULL;
	if (a->options_init)
		a->options_init(own);
	if (spaa_analysis_parse(a, argc, (char **)argv, &opts, own, err))
		goto out;
	run.opts = &opts;
	run.options = own;
	run.load.warn = warn;
	run.load.fold_repeats = true;
	run.load.threads = o->threads;
	if (spaa_load_limits_env(&run.load, err))
		goto out;
	if (a->run(&run, err) || !run.results.nr) {
		if (!run.results.nr && !err->code[0])
			spaa_error_set(err, SPAA_E_NO_DATA, "the profile has no data for it");
		/* not this profile's kind: the page goes on without it */
		if (strcmp(err->code, SPAA_E_NO_DATA) && strcmp(err->code, SPAA_E_INCOMPATIBLE))
			goto out;
		spaa_error_format(err, s->left_out, sizeof(s->left_out));
		spaa_error_init(err);
		ret = 0;
		goto out;
	}
	s->left_out[0] = '\0';
	if (run.picture && spaa_htmlout_read_picture(run.picture, &s->picture, err))
		goto out;
	s->results = run.results;
	spaa_lami_results_init(&run.results);
	ret = 0;
out:
	spaa_analysis_run_release(&run);        /* its header is text only */
	spaa_analysis_opts_release(&opts);
	spaa_analysis_options_release(a, own);
	free(own);
	spaa_output_temp_remove(picture);
	return ret;
}

/* The first table of class name in r, or NULL. */
static const struct spaa_lami_table *find_table(const struct spaa_lami_results *r,
						const char *name)
{
	for (size_t i = 0; i < r->nr; i++)
		if (!strcmp(spaa_lami_table_class_of(r->tables[i])->name, name))
			return r->tables[i];
	return NULL;
}

/* The index of the column titled title in t's class; its count if none. */
static size_t find_column(const struct spaa_lami_table *t, const char *title)
{
	const struct spaa_lami_table_class *c = spaa_lami_table_class_of(t);
	size_t col = 0;

	while (col < c->ncolumns && strcmp(c->columns[col].title, title))
		col++;
	return col;
}

/* Cell (row, column titled title) of t; false when t has no such column. */
static bool cell(const struct spaa_lami_table *t, size_t row, const char *title,
		 struct spaa_lami_cell_view *v)
{
	size_t col = find_column(t, title);

	if (col == spaa_lami_table_class_of(t)->ncolumns)
		return false;
	spaa_lami_table_cell(t, row, col, v);
	return true;
}

/* "top 5 functions: a (31.2 %), b (20.0 %), ..." of spaa-hotspots. */
static void summarize_hotspots(struct spaa_sbuf *sb, const struct section *s)
{
	const struct spaa_lami_table *t = find_table(&s->results, "functions");
	size_t n = t ? spaa_lami_table_rows(t) : 0;
	struct spaa_lami_cell_view name, share;
	char buf[64];

	if (!n)
		return;
	n = n < 5 ? n : 5;
	spaa_sbuf_printf(sb, "top %zu function%s by self weight: ", n, n == 1 ? "" : "s");
	for (size_t r = 0; r < n; r++) {
		if (!cell(t, r, "Function", &name) || !cell(t, r, "Self share", &share))
			return;
		spaa_sbuf_printf(sb, "%s%s (%s)", r ? ", " : "", name.str ? name.str : "?",
				 share.kind == SPAA_LAMI_CELL_RATIO ?
				 spaa_textout_ratio(share.d, buf, sizeof(buf)) : "?");
	}
}

static void summarize_phases(struct spaa_sbuf *sb, const struct section *s)
{
	const struct spaa_lami_table *t = find_table(&s->results, "phases");
	size_t n = t ? spaa_lami_table_rows(t) : 0;

	if (t)
		spaa_sbuf_printf(sb, "%zu phase%s", n, n == 1 ? "" : "s");
}

static void summarize_allocs(struct spaa_sbuf *sb, const struct section *s)
{
	const struct spaa_lami_table *t = find_table(&s->results, "leaks");
	size_t n = t ? spaa_lami_table_rows(t) : 0;

	spaa_sbuf_printf(sb, "%zu leak suspect%s", n, n == 1 ? "" : "s");
}

/* The function whose self share grew most, or that none grew. */
static void summarize_diff(struct spaa_sbuf *sb, const struct section *s)
{
	const struct spaa_lami_table *t = find_table(&s->results, "functions");
	size_t n = t ? spaa_lami_table_rows(t) : 0;
	struct spaa_lami_cell_view v, best = { 0 };
	size_t at = 0;

	for (size_t r = 0; r < n; r++) {
		if (!cell(t, r, "Share delta", &v) || v.kind != SPAA_LAMI_CELL_RATIO)
			continue;
		if (v.d > best.d) {
			best = v;
			at = r;
		}
	}
	if (best.d <= 0) {
		spaa_sbuf_adds(sb, "no function's self share grew");
		return;
	}
	cell(t, at, "Function", &v);
	spaa_sbuf_printf(sb, "biggest regression +%.1f pp in %s", best.d * 100,
			 v.str ? v.str : "?");
}

static void (*const summarize[])(struct spaa_sbuf *, const struct section *) = {
	summarize_hotspots, summarize_phases, summarize_allocs, summarize_diff,
};

/* The page: header, summary, then each section that has results. */
static void write_page(FILE *f, const struct options *o, const char *profile,
		       struct section *s, size_t ns)
{
	const char *sources[2] = { profile, NULL };
	struct spaa_sbuf title = { 0 }, baseline = { 0 }, sb = { 0 }, esc = { 0 };
	struct spaa_htmlout_page page = { .sources = sources, .nsources = 1 };

	if (o->title)
		spaa_sbuf_adds(&title, o->title);
	else
		spaa_sbuf_printf(&title, "SPAA report of %s", profile);
	if (o->baseline) {
		spaa_sbuf_printf(&baseline, "against the baseline %s", o->baseline);
		sources[1] = baseline.s;
		page.nsources = 2;
	}
	page.title = title.s;
	spaa_htmlout_begin(f, &page, &s[0].results);
	fputs("<section id=\"summary\">\n<h2>Summary</h2>\n<ul>\n", f);
	for (size_t i = 0; i < ns; i++) {
		sb.len = 0;
		if (s[i].compare && !o->baseline)
			continue;
		spaa_sbuf_printf(&sb, "%s: ", s[i].heading);
		if (s[i].left_out[0])
			spaa_sbuf_printf(&sb, "not in this report (%s)", s[i].left_out);
		else
			summarize[i](&sb, &s[i]);
		esc.len = 0;
		spaa_svg_text_str(&esc, sb.s);
		fprintf(f, "<li>%s</li>\n", esc.s);
	}
	fputs("</ul>\n</section>\n", f);
	for (size_t i = 0; i < ns; i++) {
		if (!s[i].results.nr)
			continue;
		fprintf(f, "<section class=\"analysis\" id=\"%s\">\n<h2 class=\"analysis\">%s</h2>\n",
			s[i].a->name, s[i].heading);
		if (s[i].picture.len)
			spaa_htmlout_picture_framed(f, s[i].picture.s, s[i].picture.len);
		spaa_htmlout_tables(f, &s[i].results, o->rows);
		fputs("</section>\n", f);
	}
	spaa_htmlout_end(f);
	free(title.s);
	free(baseline.s);
	free(sb.s);
	free(esc.s);
}

static int usage_error(const struct spaa_error *err)
{
	char msg[2200];

	spaa_error_format(err, msg, sizeof(msg));
	fprintf(stderr, PROG ": error: %s (see --help)\n", spaa_clean_controls(msg));
	return 2;
}

int main(int argc, char **argv)
{
	struct section sections[] = {
		{ .a = &spaa_analysis_hotspots, .heading = "Hotspots" },
		{ .a = &spaa_analysis_phases, .heading = "Phases" },
		{ .a = &spaa_analysis_allocs, .heading = "Allocations" },
		{ .a = &spaa_analysis_diff, .heading = "Against the baseline", .compare = true },
	};
	const size_t ns = sizeof(sections) / sizeof(sections[0]);
	struct options o = { .rows = 10 };
	struct spaa_option_program prog = { 0 };
	const struct spaa_option_set sets[] = {
		{ "Options", options, &o },
		{ NULL, spaa_option_program_options, &prog },
	};
	struct spaa_option_args paths;
	struct spaa_output *out = NULL;
	unsigned warnings = 0;
	struct spaa_warn_sink warn = { print_warning, &warnings };
	struct spaa_error err;
	char *page = NULL;
	size_t len = 0;
	FILE *f;
	int status = 1;

	spaa_error_init(&err);
	if (spaa_option_parse(argc, argv, sets, 2, &paths, &err))
		return usage_error(&err);
	o.threads = prog.threads;
	if (prog.help || prog.version) {
		if (prog.help)
			spaa_option_help(stdout, PROG, "-o FILE [--baseline BASELINE] PROFILE",
					 description, sets, 2, NULL);
		else
			printf(PROG " (spaa-tools) %s\n", SPAA_VERSION);
		spaa_option_args_release(&paths);
		return fflush(stdout) ? 1 : 0;
	}
	if (paths.nr != 1 || !o.output) {
		spaa_error_set(&err, SPAA_E_USAGE, paths.nr != 1 ?
			       "expected one profile path, got %zu" : "'-o FILE' is required",
			       paths.nr);
		spaa_option_args_release(&paths);
		return usage_error(&err);
	}
	for (size_t i = 0; i < ns; i++) {
		spaa_lami_results_init(&sections[i].results);
		if (sections[i].compare && !o.baseline)
			continue;
		struct section *s = &sections[i];
		bool draw = spaa_analysis_has_option(s->a, "svg");

		if (run_section(s, &o, paths.items[0], draw, warn, &err))
			goto fail;
		/* the picture needs samples; some tables do not (phases' windows) */
		if (s->left_out[0] && draw &&
		    run_section(s, &o, paths.items[0], false, (struct spaa_warn_sink){ 0 }, &err))
			goto fail;
	}
	if (!sections[0].results.nr) {
		spaa_error_at(&err, SPAA_E_NO_DATA, paths.items[0], 0,
			      "nothing to report: %s", sections[0].left_out);
		goto fail;
	}
	f = open_memstream(&page, &len);
	if (!f) {
		spaa_error_set(&err, SPAA_E_IO, "cannot build the page: %s", strerror(errno));
		goto fail;
	}
	write_page(f, &o, paths.items[0], sections, ns);
	if (fclose(f)) {
		spaa_error_set(&err, SPAA_E_IO, "cannot build the page: %s", strerror(errno));
		goto fail;
	}
	if (spaa_output_open(&out, o.output, SPAA_INPUT_COMP_NONE, 0, &err) ||
	    spaa_output_write(out, page, len, &err)) {
		spaa_output_abort(out);
		goto fail;
	}
	if (spaa_output_close(out, &err))
		goto fail;
	status = 0;
	goto out;
fail:
	{
		char msg[2200];

		spaa_error_format(&err, msg, sizeof(msg));
		fprintf(stderr, PROG ": error: %s\n", spaa_clean_controls(msg));
	}
out:
	if (warnings > MAX_WARNINGS)
		fprintf(stderr, PROG ": warning: %u more warnings not shown\n",
			warnings - MAX_WARNINGS);
	for (size_t i = 0; i < ns; i++) {
		spaa_lami_results_release(&sections[i].results);
		free(sections[i].picture.s);
	}
	free(page);
	spaa_option_args_release(&paths);
	return status;
}
