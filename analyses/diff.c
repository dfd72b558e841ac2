/*
 * spaa-diff: what got slower, or bigger, between two profiles?
 *
 * A baseline and a target profile of the same workload, one event and one
 * metric of it present on both sides (by default the baseline's first
 * event that the target also has, with its primary metric).  Each side is
 * aggregated on its own as spaa-hotspots does it; then rows are matched by
 * content, never by ids (compare.h): functions by (function, DSO) names,
 * stacks by their root-to-leaf sequence of those.  So two conversions of
 * one recording, with other frame ids, stack id modes or frame orders,
 * compare as identical.  One model is in memory at a time: the baseline
 * is reduced to its sums (compare.h) before the target is loaded.
 *
 * Runs of different lengths compare fairly by default: --normalize share
 * compares each side's fraction of its own total (the baseline is scaled
 * to the target's total), total does the same and shows the scaled
 * baseline, none compares raw weights.  Rows are ranked by the size of
 * their delta, growth and shrinkage alike.
 *
 * Allocation events (spec 9) are compared as raw bytes per allocating
 * function, when both sides have them.
 *
 * --begin/--end apply to the target only (Trace Compass sends the range
 * selected on the trace it runs on, the target); the baseline is whole.
 *
 * --svg FILE also draws the comparison as a differential flame graph
 * (flamegraph.h): the target's call tree, each frame red when its total
 * grew and blue when it shrank, under the same normalization as the
 * tables; call paths only in the baseline are listed in the hover text of
 * their callers and counted under the title.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/aggregate.h"
#include "report/analysis.h"
#include "analysis/compare.h"
#include "report/flamegraph.h"
#include "io/output.h"
#include "report/report.h"
#include "model/units.h"
#include "model/util.h"

static const char *opt_baseline, *opt_event, *opt_metric, *opt_normalize;
static const char *opt_svg, *opt_svg_title, *opt_svg_min_width;
static uint64_t opt_svg_width;
static struct spaa_lami_strlist opt_dso_map;

static const struct spaa_lami_option options[] = {
	{ "baseline", SPAA_LAMI_OPT_STRING, &opt_baseline, "PATH",
	  "baseline profile (then the only path is the target)" },
	{ "event", SPAA_LAMI_OPT_STRING, &opt_event, "NAME",
	  "event to compare (default: the baseline's first event the target has)" },
	{ "metric", SPAA_LAMI_OPT_STRING, &opt_metric, "NAME",
	  "weight to compare (default: the event's primary metric)" },
	{ "normalize", SPAA_LAMI_OPT_STRING, &opt_normalize, "share|total|none",
	  "compare shares of each total (default), the baseline scaled to the target total, or raw weights" },
	{ "dso-map", SPAA_LAMI_OPT_LIST, &opt_dso_map, "OLD=NEW",
	  "match the baseline's DSO OLD as the target's DSO NEW (repeatable)" },
	{ "svg", SPAA_LAMI_OPT_STRING, &opt_svg, "FILE",
	  "also write a differential flame graph (SVG) to FILE" },
	{ "svg-title", SPAA_LAMI_OPT_STRING, &opt_svg_title, "TEXT",
	  "title of the flame graph (default: \"Differential flame graph of TARGET against BASELINE\")" },
	{ "svg-width", SPAA_LAMI_OPT_U64, &opt_svg_width, "PX",
	  "width of the flame graph in pixels (default: 1200)" },
	{ "svg-min-width", SPAA_LAMI_OPT_STRING, &opt_svg_min_width, "PX",
	  "leave out frames narrower than PX pixels, counted in a note (default: 0.1)" },
	{ NULL, 0, NULL, NULL, NULL },
};

enum { T_FUNCTIONS, T_INCLUSIVE, T_STACKS, T_ALLOCS, T_SUMMARY };

static const struct spaa_lami_column functions_cols[] = {
	{ "Function", SPAA_LAMI_STRING, NULL },
	{ "DSO", SPAA_LAMI_PATH, NULL },
	{ "Baseline", SPAA_LAMI_MIXED, NULL },
	{ "Target", SPAA_LAMI_MIXED, NULL },
	{ "Delta", SPAA_LAMI_MIXED, NULL },
	{ "Baseline share", SPAA_LAMI_RATIO, NULL },
	{ "Target share", SPAA_LAMI_RATIO, NULL },
	{ "Share delta", SPAA_LAMI_RATIO, NULL },
	{ "Relative change", SPAA_LAMI_RATIO, NULL },
};

static const struct spaa_lami_column stacks_cols[] = {
	{ "Call path", SPAA_LAMI_STRING, NULL },
	{ "Baseline", SPAA_LAMI_MIXED, NULL },
	{ "Target", SPAA_LAMI_MIXED, NULL },
	{ "Delta", SPAA_LAMI_MIXED, NULL },
	{ "Share delta", SPAA_LAMI_RATIO, NULL },
	{ "Status", SPAA_LAMI_STRING, NULL },
};

static const struct spaa_lami_column allocs_cols[] = {
	{ "Site", SPAA_LAMI_STRING, NULL },
	{ "DSO", SPAA_LAMI_PATH, NULL },
	{ "Baseline allocated", SPAA_LAMI_SIZE, NULL },
	{ "Target allocated", SPAA_LAMI_SIZE, NULL },
	{ "Allocated delta", SPAA_LAMI_NUMBER, "bytes" },
	{ "Baseline live", SPAA_LAMI_SIZE, NULL },
	{ "Target live", SPAA_LAMI_SIZE, NULL },
	{ "Live delta", SPAA_LAMI_NUMBER, "bytes" },
};

static const struct spaa_lami_column summary_cols[] = {
	{ "Baseline profile", SPAA_LAMI_PATH, NULL },
	{ "Target profile", SPAA_LAMI_PATH, NULL },
	{ "Baseline total", SPAA_LAMI_MIXED, NULL },
	{ "Target total", SPAA_LAMI_MIXED, NULL },
	{ "Total delta", SPAA_LAMI_MIXED, NULL },
	{ "Baseline samples", SPAA_LAMI_INT, NULL },
	{ "Target samples", SPAA_LAMI_INT, NULL },
	{ "Matched stacks", SPAA_LAMI_INT, NULL },
	{ "New stacks", SPAA_LAMI_INT, NULL },
	{ "Gone stacks", SPAA_LAMI_INT, NULL },
};

#define COLS(c) c, sizeof(c) / sizeof(c[0])

static const struct spaa_lami_table_class classes[] = {
	[T_FUNCTIONS] = { "functions", "Function self weight deltas", COLS(functions_cols) },
	[T_INCLUSIVE] = { "inclusive", "Function total weight deltas", COLS(functions_cols) },
	[T_STACKS] = { "stacks", "Call path deltas", COLS(stacks_cols) },
	[T_ALLOCS] = { "allocations", "Allocated and live bytes deltas per allocating function", COLS(allocs_cols) },
	[T_SUMMARY] = { "summary", "Baseline and target", COLS(summary_cols) },
};

/* Everything one run needs to fill its tables. */
struct diff {
	struct spaa_analysis_run *run;
	const char *bpath, *tpath;
	struct spaa_compare_base base;      /* the baseline, reduced before the target loads */
	struct spaa_compare_choice *bchoice;        /* weak: the event compared, in base */
	struct spaa_profile target;
	struct spaa_aggregate tagg;
	struct spaa_compare_keys keys;
	struct spaa_compare_side bside, tside;
	struct spaa_compare cmp;
	struct spaa_metrics_sem bsem, tsem;
	uint32_t tevent, tmetric;
	int64_t begin, end;
	char what[512];         /* "event 'x', metric 'y', ..." and any caveat */
};

/* A table of class c whose weight / delta columns get the metric's class. */
static struct spaa_lami_table *table(struct diff *d, int c, const size_t *wcols,
				size_t nwcols, size_t dcol)
{
	struct spaa_lami_table *t = spaa_lami_table_new(&classes[c], d->begin, d->end);

	spaa_lami_table_set_title(t, "%s (%s)", classes[c].title, d->what);
	for (size_t i = 0; i < nwcols; i++)
		spaa_compare_weight_column(t, wcols[i], &d->tsem);
	spaa_compare_delta_column(t, dcol, &d->tsem);
	return t;
}

/* Self (T_FUNCTIONS) or total (T_INCLUSIVE) weight per function. */
static void functions_table(struct diff *d, int c, const struct spaa_compare_sums *bs,
			    const struct spaa_compare_sums *ts)
{
	static const size_t wcols[] = { 2, 3 };
	uint32_t nkeys = spaa_compare_nfunctions(&d->keys);
	struct spaa_compare_rank *rank = spaa_xmalloc(((size_t)nkeys + 1) * sizeof(*rank));
	struct spaa_lami_table *t = table(d, c, wcols, 2, 4);
	size_t n = 0;

	for (uint32_t k = 1; k < nkeys; k++) {
		uint64_t b = spaa_compare_get(bs, k), tv = spaa_compare_get(ts, k);
		struct spaa_compare_delta dl;

		if (!b && !tv)
			continue;
		spaa_compare_compute(&d->cmp, b, tv, &dl);
		rank[n++] = (struct spaa_compare_rank){
			dl.delta, dl.share_delta, dl.target,
			spaa_compare_function_name(&d->keys, k),
			spaa_compare_function_dso(&d->keys, k), k,
		};
	}
	spaa_compare_rank_sort(rank, n);
	for (size_t i = 0; i < spaa_lami_rows(d->run->opts, n); i++) {
		uint32_t k = rank[i].idx;
		struct spaa_compare_delta dl;

		spaa_compare_compute(&d->cmp, spaa_compare_get(bs, k), spaa_compare_get(ts, k), &dl);
		spaa_lami_row_begin(t);
		spaa_lami_cell_string(t, rank[i].name);
		spaa_lami_cell_path(t, rank[i].name2);
		spaa_compare_weight_cell(t, &d->tsem, dl.base);
		spaa_compare_weight_cell(t, &d->tsem, dl.target);
		spaa_compare_delta_cell(t, &d->tsem, dl.delta);
		spaa_compare_ratio_cell(t, dl.bshare);
		spaa_compare_ratio_cell(t, dl.tshare);
		spaa_compare_ratio_cell(t, dl.share_delta);
		spaa_compare_ratio_cell(t, dl.relative);
		spaa_lami_row_end(t);
	}
	free(rank);
	spaa_lami_results_add(&d->run->results, t);
}

static const char *status(uint64_t b, uint64_t t, const struct spaa_compare_delta *dl)
{
	if (!b)
		return "new";
	if (!t)
		return "gone";
	return dl->delta != 0 ? "changed" : "unchanged";
}

static void stacks_table(struct diff *d)
{
	static const size_t wcols[] = { 1, 2 };
	uint32_t nkeys = spaa_compare_npaths(&d->keys);
	struct spaa_compare_rank *rank = spaa_xmalloc(((size_t)nkeys + 1) * sizeof(*rank));
	struct spaa_lami_table *t = table(d, T_STACKS, wcols, 2, 3);
	size_t n = 0;

	/* path 0 is the empty sequence, never a stack */
	for (uint32_t k = 1; k < nkeys; k++) {
		uint64_t b = spaa_compare_get(&d->bside.path, k);
		uint64_t tv = spaa_compare_get(&d->tside.path, k);
		struct spaa_compare_delta dl;

		if (!b && !tv)
			continue;
		spaa_compare_compute(&d->cmp, b, tv, &dl);
		rank[n++] = (struct spaa_compare_rank){
			dl.delta, dl.share_delta, dl.target, NULL, NULL, k,
		};
	}
	/* by name too, but one made at a time: a row's as it is written */
	spaa_compare_rank_paths(&d->keys, rank, n);
	for (size_t i = 0; i < spaa_lami_rows(d->run->opts, n); i++) {
		uint64_t b = spaa_compare_get(&d->bside.path, rank[i].idx);
		uint64_t tv = spaa_compare_get(&d->tside.path, rank[i].idx);
		char *name = spaa_compare_path_name(&d->keys, rank[i].idx);
		struct spaa_compare_delta dl;

		spaa_compare_compute(&d->cmp, b, tv, &dl);
		spaa_lami_row_begin(t);
		spaa_lami_cell_string(t, name);
		free(name);
		spaa_compare_weight_cell(t, &d->tsem, dl.base);
		spaa_compare_weight_cell(t, &d->tsem, dl.target);
		spaa_compare_delta_cell(t, &d->tsem, dl.delta);
		spaa_compare_ratio_cell(t, dl.share_delta);
		spaa_lami_cell_string(t, status(b, tv, &dl));
		spaa_lami_row_end(t);
	}
	free(rank);
	spaa_lami_results_add(&d->run->results, t);
}

/* Raw bytes: allocation volumes are compared as measured, never scaled. */
static void allocs_table(struct diff *d)
{
	const struct spaa_compare_side *bs = &d->bside, *ts = &d->tside;
	uint32_t nkeys = spaa_compare_nfunctions(&d->keys);
	struct spaa_compare_rank *rank = spaa_xmalloc(((size_t)nkeys + 1) * sizeof(*rank));
	struct spaa_lami_table *t = spaa_lami_table_new(&classes[T_ALLOCS], d->begin, d->end);
	size_t n = 0;

	for (uint32_t k = 1; k < nkeys; k++) {
		uint64_t ba = spaa_compare_get(&bs->alloc, k), ta = spaa_compare_get(&ts->alloc, k);
		uint64_t bl = spaa_compare_get(&bs->live, k), tl = spaa_compare_get(&ts->live, k);

		if (!ba && !ta && !bl && !tl)
			continue;
		rank[n++] = (struct spaa_compare_rank){
			(double)ta - (double)ba, (double)tl - (double)bl, (double)ta,
			spaa_compare_function_name(&d->keys, k),
			spaa_compare_function_dso(&d->keys, k), k,
		};
	}
	spaa_compare_rank_sort(rank, n);
	for (size_t i = 0; i < spaa_lami_rows(d->run->opts, n); i++) {
		uint32_t k = rank[i].idx;

		spaa_lami_row_begin(t);
		spaa_lami_cell_string(t, rank[i].name);
		spaa_lami_cell_path(t, rank[i].name2);
		spaa_lami_cell_size(t, (int64_t)spaa_compare_get(&bs->alloc, k));
		spaa_lami_cell_size(t, (int64_t)spaa_compare_get(&ts->alloc, k));
		spaa_lami_cell_number(t, rank[i].key);
		if (bs->has_live)
			spaa_lami_cell_size(t, (int64_t)spaa_compare_get(&bs->live, k));
		else
			spaa_lami_cell_unknown(t);
		if (ts->has_live)
			spaa_lami_cell_size(t, (int64_t)spaa_compare_get(&ts->live, k));
		else
			spaa_lami_cell_unknown(t);
		if (bs->has_live && ts->has_live)
			spaa_lami_cell_number(t, rank[i].key2);
		else
			spaa_lami_cell_unknown(t);
		spaa_lami_row_end(t);
	}
	free(rank);
	spaa_lami_results_add(&d->run->results, t);
}

static void summary_table(struct diff *d)
{
	static const size_t wcols[] = { 2, 3 };
	struct spaa_lami_table *t = table(d, T_SUMMARY, wcols, 2, 4);
	int64_t matched = 0, added = 0, gone = 0;
	double btotal = (double)d->bside.total * d->bsem.scale;
	double ttotal = (double)d->tside.total * d->tsem.scale;

	for (uint32_t k = 1; k < spaa_compare_npaths(&d->keys); k++) {
		bool b = spaa_compare_get(&d->bside.path, k) != 0;
		bool tv = spaa_compare_get(&d->tside.path, k) != 0;

		matched += b && tv;
		added += !b && tv;
		gone += b && !tv;
	}
	spaa_lami_row_begin(t);
	spaa_lami_cell_path(t, d->bpath);
	spaa_lami_cell_path(t, d->tpath);
	spaa_compare_weight_cell(t, &d->tsem, btotal);
	spaa_compare_weight_cell(t, &d->tsem, ttotal);
	/* as measured: under normalization the totals' delta is 0 by design */
	spaa_compare_delta_cell(t, &d->tsem, ttotal - btotal);
	if (d->bside.samples_known)
		spaa_lami_cell_int(t, (int64_t)d->bside.samples);
	else
		spaa_lami_cell_unknown(t);
	if (d->tside.samples_known)
		spaa_lami_cell_int(t, (int64_t)d->tside.samples);
	else
		spaa_lami_cell_unknown(t);
	spaa_lami_cell_int(t, matched);
	spaa_lami_cell_int(t, added);
	spaa_lami_cell_int(t, gone);
	spaa_lami_row_end(t);
	spaa_lami_results_add(&d->run->results, t);
}

/* Names err's file: report.c's messages do not say which side they are about. */
static int on_side(struct spaa_error *err, const char *path)
{
	snprintf(err->file, sizeof(err->file), "%s", path);
	return -1;
}

/* "'a', 'b'": the events of p, for messages. */
static const char *event_list(const struct spaa_profile *p, char *buf, size_t size)
{
	size_t at = 0;

	buf[0] = '\0';
	for (uint32_t i = 0; i < p->nevents && at < size; i++)
		at += snprintf(buf + at, size - at, "%s'%s'", i ? ", " : "",
			       spaa_profile_str(p, p->events[i].name));
	return buf;
}

/*
 * The event and metric compared, by name on both sides: the baseline's
 * choice for that event was made when it was reduced.
 */
static int select_metric(struct diff *d, struct spaa_error *err)
{
	struct spaa_compare_base *b = &d->base;
	const struct spaa_profile *t = &d->target;
	const char *event = opt_event;
	char bl[256], tl[256];

	for (uint32_t i = 0; !event && i < b->nevents; i++)
		if (spaa_profile_find_event(t, b->events[i]) != SPAA_NONE)
			event = b->events[i];
	if (!event && b->nevents && t->nevents)
		return spaa_error_set(err, SPAA_E_USAGE,
				      "the baseline (events %s) and the target (events %s) have no event in common",
				      spaa_compare_base_event_list(b, bl, sizeof(bl)),
				      event_list(t, tl, sizeof(tl)));
	d->bchoice = spaa_compare_base_choice(b, event);
	if (d->bchoice->unselectable) {
		*err = d->bchoice->err;
		return on_side(err, d->bpath);
	}
	if (spaa_report_select(t, event, d->bchoice->metric, &d->tevent,
			       &d->tmetric, err))
		return on_side(err, d->tpath);
	d->run->left_out.records += d->bchoice->left_out.records;
	d->run->left_out.samples += d->bchoice->left_out.samples;
	spaa_report_left_out_event(&d->run->left_out, t, d->tevent);
	d->bsem = d->bchoice->sem;
	spaa_metrics_semantics(t, d->tevent, d->tmetric,
			      spaa_metrics_unit(t, d->tevent, d->tmetric), &d->tsem);
	return 0;
}

/*
 * Sums the target, from its samples in range with --begin/--end, beside
 * the baseline's sums of the event compared.
 */
static int aggregate(struct diff *d, const struct spaa_fold *fold,
		     enum spaa_compare_normalize mode, struct spaa_error *err)
{
	static const char *const how[] = {
		[SPAA_COMPARE_SHARE] = "compared as shares of each total",
		[SPAA_COMPARE_TOTAL] = "baseline scaled to the target total",
		[SPAA_COMPARE_NONE] = "raw weights",
	};
	const struct spaa_lami_opts *o = d->run->opts;
	bool restrict_time = o->has_begin || o->has_end;
	struct spaa_compare_choice *b;
	int at;

	if (select_metric(d, err))
		return -1;
	b = d->bchoice;
	spaa_report_range(o, &d->target, &d->begin, &d->end);
	at = snprintf(d->what, sizeof(d->what), "event '%s', %s '%s', %s",
		      b->event, b->primary ? "primary metric" : "metric",
		      b->metric, how[mode]);
	if (restrict_time)
		snprintf(d->what + at, sizeof(d->what) - at, d->target.nsamples ?
			 "; target restricted to --begin/--end, baseline whole" :
			 "; whole profiles: the target has no sample records to restrict to --begin/--end");

	if (b->overflows) {
		*err = b->err;
		return -1;
	}
	spaa_aggregate_init(&d->tagg, &d->target);
	d->tagg.path_by_function = true;
	if (restrict_time && d->target.nsamples ?
	    spaa_aggregate_add_fold(&d->tagg, fold, d->tevent, d->tmetric, SPAA_NO_ID,
			      SPAA_NO_ID, err) :
	    spaa_aggregate_add_records(&d->tagg, d->tevent, d->tmetric, SPAA_NO_ID,
				 SPAA_NO_ID, err))
		return -1;
	/* the sides need the target's names, no longer its stacks */
	if (spaa_compare_side_add_allocs(&d->tside, &d->keys, &d->target, err))
		return -1;
	spaa_profile_release_stacks(&d->target);
	if (spaa_compare_side_take_sum(&d->bside, &d->keys, &b->sum, err) ||
	    spaa_compare_side_add_agg(&d->tside, &d->keys, &d->tagg, err))
		return -1;
	if (!d->bside.total || !d->tside.total)
		return spaa_error_at(err, SPAA_E_NO_DATA,
				     d->bside.total ? d->tpath : d->bpath, 0,
				     "no weight for event '%s', metric '%s'%s",
				     b->event, b->metric,
				     restrict_time && d->bside.total ? " in the time range" : "");
	return spaa_compare_init(&d->cmp, mode, &d->bsem, d->bside.total,
			     &d->tsem, d->tside.total, err);
}

/* The --svg options, checked before anything is loaded. */
static int svg_options(double *min_width, struct spaa_error *err)
{
	*min_width = SPAA_FLAMEGRAPH_MIN_WIDTH_DEFAULT;
	if ((opt_svg_title || opt_svg_width || opt_svg_min_width) && !opt_svg)
		return spaa_error_set(err, SPAA_E_USAGE,
				      "'--svg-title', '--svg-width' and '--svg-min-width' need '--svg FILE'");
	if (opt_svg && (!*opt_svg || !strcmp(opt_svg, "-")))
		return spaa_error_set(err, SPAA_E_USAGE,
				      "'--svg' needs a file name: standard output carries the LAMI results");
	if (opt_svg_width && (opt_svg_width < SPAA_FLAMEGRAPH_WIDTH_MIN ||
			      opt_svg_width > SPAA_FLAMEGRAPH_WIDTH_MAX))
		return spaa_error_set(err, SPAA_E_USAGE,
				      "'--svg-width' must be from 100 to 100000 pixels");
	if (opt_svg_min_width && spaa_units_parse_decimal(opt_svg_min_width, min_width))
		return spaa_error_set(err, SPAA_E_USAGE,
				      "'--svg-min-width' must be a non-negative number of pixels, not '%s'",
				      opt_svg_min_width);
	return 0;
}

/* The differential flame graph: every compared call path, target widths. */
static int write_svg(struct diff *d, double min_width, struct spaa_error *err)
{
	struct spaa_flamegraph *fg = spaa_flamegraph_new();
	struct spaa_output *out = NULL;
	char title[2048];
	int ret = -1;

	for (uint32_t k = 1; k < spaa_compare_npaths(&d->keys); k++) {
		uint64_t b = spaa_compare_get(&d->bside.path, k);
		uint64_t t = spaa_compare_get(&d->tside.path, k);

		if (!b && !t)
			continue;
		spaa_flamegraph_begin(fg);
		for (uint32_t i = 0; i < spaa_compare_path_len(&d->keys, k); i++) {
			uint32_t fn = spaa_compare_path_function(&d->keys, k, i);
			const char *name = spaa_compare_function_name(&d->keys, fn);
			const char *dso = spaa_compare_function_dso(&d->keys, fn);

			spaa_flamegraph_push(fg, name, strlen(name), dso,
					spaa_flamegraph_classify(dso, false));
		}
		if (spaa_flamegraph_add(fg, t, b, err))
			goto out;
	}
	snprintf(title, sizeof(title), "Differential flame graph of %s against %s",
		 d->tpath, d->bpath);
	if (spaa_output_open(&out, opt_svg, SPAA_INPUT_COMP_NONE, 0, err) ||
	    spaa_flamegraph_write(fg, &(struct spaa_flamegraph_opts){
		    .title = opt_svg_title ? opt_svg_title : title, .what = d->what,
		    .width = (unsigned)opt_svg_width, .min_width = min_width,
		    .cmp = &d->cmp,
	    }, out, err))
		goto out;
	ret = spaa_output_close(out, err);
	out = NULL;
out:
	spaa_output_abort(out);
	spaa_flamegraph_free(fg);
	return ret;
}

/* BASELINE TARGET, or --baseline BASELINE TARGET. */
static int paths(struct diff *d, struct spaa_error *err)
{
	const struct spaa_lami_opts *o = d->run->opts;

	if (opt_baseline) {
		if (o->npaths != 1)
			return spaa_error_set(err, SPAA_E_USAGE,
					      "with '--baseline', expected one target profile, got %zu path%s (see --help)",
					      o->npaths, o->npaths == 1 ? "" : "s");
		d->bpath = opt_baseline;
		d->tpath = o->paths[0];
	} else {
		if (o->npaths != 2)
			return spaa_error_set(err, SPAA_E_USAGE,
					      "expected a baseline and a target profile, got %zu path%s (see --help)",
					      o->npaths, o->npaths == 1 ? "" : "s");
		d->bpath = o->paths[0];
		d->tpath = o->paths[1];
	}
	if (!strcmp(d->bpath, "-") && !strcmp(d->tpath, "-"))
		return spaa_error_set(err, SPAA_E_USAGE,
				      "the baseline and the target cannot both be standard input");
	return 0;
}

static int diff_run(struct spaa_analysis_run *run, struct spaa_error *err)
{
	const struct spaa_lami_opts *o = run->opts;
	struct spaa_load_opts blo = run->load, tlo = run->load;
	struct spaa_profile base;
	struct spaa_fold fold;
	struct diff *d = spaa_xcalloc(1, sizeof(*d));
	enum spaa_compare_normalize mode;
	double min_width;
	int ret = -1;

	d->run = run;
	spaa_profile_init(&base);
	spaa_profile_init(&d->target);
	spaa_compare_keys_init(&d->keys, &opt_dso_map);
	spaa_compare_side_init(&d->bside, true);
	spaa_compare_side_init(&d->tside, false);
	spaa_fold_init(&fold, o->has_begin ? o->begin : INT64_MIN,
		       o->has_end ? o->end : INT64_MAX);
	/* the target's records hold its whole sums: samples only restrict them */
	if (o->has_begin || o->has_end) {
		tlo.on_sample = spaa_fold_on_sample;
		tlo.data = &fold;
	}
	if (paths(d, err) ||
	    svg_options(&min_width, err) ||
	    spaa_compare_normalize_parse(opt_normalize, &mode, err) ||
	    spaa_compare_dso_map_check(&opt_dso_map, err) ||
	    spaa_compare_load(&base, d->bpath, 0, 2, &blo, err))
		goto out;
	/*
	 * Two models would share the peak of memory: the baseline's goes
	 * before the target's is loaded.  What the comparison reads of it
	 * stays: its allocation sums, and its sums of each event it may be
	 * compared under (the target decides which).
	 */
	if (spaa_compare_side_add_allocs(&d->bside, &d->keys, &base, err))
		goto out;
	spaa_compare_base_init(&d->base, &d->keys, &base, opt_event, opt_metric);
	spaa_profile_release(&base);
	if (spaa_compare_load(&d->target, d->tpath, 1, 2, &tlo, err) ||
	    aggregate(d, &fold, mode, err))
		goto out;
	/*
	 * The tables and the graph read only the compared sides and their
	 * keys (names copied): what built them goes before the rows come.
	 */
	spaa_aggregate_release(&d->tagg);
	spaa_fold_release(&fold);
	spaa_profile_release(&d->target);
	spaa_compare_base_release(&d->base);

	/* the graph first: its tree goes before the tables are built */
	if (opt_svg && write_svg(d, min_width, err))
		goto out;
	functions_table(d, T_FUNCTIONS, &d->bside.fn_self, &d->tside.fn_self);
	functions_table(d, T_INCLUSIVE, &d->bside.fn_total, &d->tside.fn_total);
	stacks_table(d);
	if (d->bside.has_alloc && d->tside.has_alloc)
		allocs_table(d);
	summary_table(d);
	ret = 0;
out:
	if (d->tagg.p)
		spaa_aggregate_release(&d->tagg);
	spaa_compare_side_release(&d->bside);
	spaa_compare_side_release(&d->tside);
	spaa_compare_base_release(&d->base);
	spaa_compare_keys_release(&d->keys);
	spaa_fold_release(&fold);
	spaa_profile_release(&base);
	spaa_profile_release(&d->target);
	free(d);
	return ret;
}

const struct spaa_analysis spaa_this_analysis = {
	.name = "diff",
	.title = "SPAA diff",
	.description = "What changed between a baseline and a target profile: "
		       "per-function self and total weight deltas, call path "
		       "deltas with new and vanished paths, allocation deltas and "
		       "a summary, matched by function and DSO names, never by ids.",
	.synopsis = "BASELINE TARGET | --baseline=BASELINE TARGET",
	.classes = classes,
	.nclasses = sizeof(classes) / sizeof(classes[0]),
	.options = options,
	.flags = SPAA_ANALYSIS_TWO_INPUTS,
	.run = diff_run,
	.compatible = spaa_report_need_stacks,
};
