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
static struct lami_strlist opt_dso_map;

static const struct lami_option options[] = {
	{ "baseline", LAMI_OPT_STRING, &opt_baseline, "PATH",
	  "baseline profile (then the only path is the target)" },
	{ "event", LAMI_OPT_STRING, &opt_event, "NAME",
	  "event to compare (default: the baseline's first event the target has)" },
	{ "metric", LAMI_OPT_STRING, &opt_metric, "NAME",
	  "weight to compare (default: the event's primary metric)" },
	{ "normalize", LAMI_OPT_STRING, &opt_normalize, "share|total|none",
	  "compare shares of each total (default), the baseline scaled to the target total, or raw weights" },
	{ "dso-map", LAMI_OPT_LIST, &opt_dso_map, "OLD=NEW",
	  "match the baseline's DSO OLD as the target's DSO NEW (repeatable)" },
	{ "svg", LAMI_OPT_STRING, &opt_svg, "FILE",
	  "also write a differential flame graph (SVG) to FILE" },
	{ "svg-title", LAMI_OPT_STRING, &opt_svg_title, "TEXT",
	  "title of the flame graph (default: \"Differential flame graph of TARGET against BASELINE\")" },
	{ "svg-width", LAMI_OPT_U64, &opt_svg_width, "PX",
	  "width of the flame graph in pixels (default: 1200)" },
	{ "svg-min-width", LAMI_OPT_STRING, &opt_svg_min_width, "PX",
	  "leave out frames narrower than PX pixels, counted in a note (default: 0.1)" },
	{ NULL, 0, NULL, NULL, NULL },
};

enum { T_FUNCTIONS, T_INCLUSIVE, T_STACKS, T_ALLOCS, T_SUMMARY };

static const struct lami_column functions_cols[] = {
	{ "Function", LAMI_STRING, NULL },
	{ "DSO", LAMI_PATH, NULL },
	{ "Baseline", LAMI_MIXED, NULL },
	{ "Target", LAMI_MIXED, NULL },
	{ "Delta", LAMI_MIXED, NULL },
	{ "Baseline share", LAMI_RATIO, NULL },
	{ "Target share", LAMI_RATIO, NULL },
	{ "Share delta", LAMI_RATIO, NULL },
	{ "Relative change", LAMI_RATIO, NULL },
};

static const struct lami_column stacks_cols[] = {
	{ "Call path", LAMI_STRING, NULL },
	{ "Baseline", LAMI_MIXED, NULL },
	{ "Target", LAMI_MIXED, NULL },
	{ "Delta", LAMI_MIXED, NULL },
	{ "Share delta", LAMI_RATIO, NULL },
	{ "Status", LAMI_STRING, NULL },
};

static const struct lami_column allocs_cols[] = {
	{ "Site", LAMI_STRING, NULL },
	{ "DSO", LAMI_PATH, NULL },
	{ "Baseline allocated", LAMI_SIZE, NULL },
	{ "Target allocated", LAMI_SIZE, NULL },
	{ "Allocated delta", LAMI_NUMBER, "bytes" },
	{ "Baseline live", LAMI_SIZE, NULL },
	{ "Target live", LAMI_SIZE, NULL },
	{ "Live delta", LAMI_NUMBER, "bytes" },
};

static const struct lami_column summary_cols[] = {
	{ "Baseline profile", LAMI_PATH, NULL },
	{ "Target profile", LAMI_PATH, NULL },
	{ "Baseline total", LAMI_MIXED, NULL },
	{ "Target total", LAMI_MIXED, NULL },
	{ "Total delta", LAMI_MIXED, NULL },
	{ "Baseline samples", LAMI_INT, NULL },
	{ "Target samples", LAMI_INT, NULL },
	{ "Matched stacks", LAMI_INT, NULL },
	{ "New stacks", LAMI_INT, NULL },
	{ "Gone stacks", LAMI_INT, NULL },
};

#define COLS(c) c, sizeof(c) / sizeof(c[0])

static const struct lami_table_class classes[] = {
	[T_FUNCTIONS] = { "functions", "Function self weight deltas", COLS(functions_cols) },
	[T_INCLUSIVE] = { "inclusive", "Function total weight deltas", COLS(functions_cols) },
	[T_STACKS] = { "stacks", "Call path deltas", COLS(stacks_cols) },
	[T_ALLOCS] = { "allocations", "Allocated and live bytes deltas per allocating function", COLS(allocs_cols) },
	[T_SUMMARY] = { "summary", "Baseline and target", COLS(summary_cols) },
};

/* Everything one run needs to fill its tables. */
struct diff {
	struct spaa_run *run;
	const char *bpath, *tpath;
	struct spaa_cmp_base base;      /* the baseline, reduced before the target loads */
	struct spaa_cmp_choice *bchoice;        /* weak: the event compared, in base */
	struct spaa_profile target;
	struct spaa_agg tagg;
	struct spaa_cmp_keys keys;
	struct spaa_cmp_side bside, tside;
	struct spaa_cmp cmp;
	struct spaa_metric_sem bsem, tsem;
	uint32_t tevent, tmetric;
	int64_t begin, end;
	char what[512];         /* "event 'x', metric 'y', ..." and any caveat */
};

static int fold_sample(void *data, const struct spaa_profile *p,
		       const struct spaa_sample *s, struct spaa_error *err)
{
	(void)p;
	return spaa_fold_add(data, s, err);
}

/* A table of class c whose weight / delta columns get the metric's class. */
static struct lami_table *table(struct diff *d, int c, const size_t *wcols,
				size_t nwcols, size_t dcol)
{
	struct lami_table *t = lami_table_new(&classes[c], d->begin, d->end);

	lami_table_set_title(t, "%s (%s)", classes[c].title, d->what);
	for (size_t i = 0; i < nwcols; i++)
		spaa_cmp_weight_column(t, wcols[i], &d->tsem);
	spaa_cmp_delta_column(t, dcol, &d->tsem);
	return t;
}

/* Self (T_FUNCTIONS) or total (T_INCLUSIVE) weight per function. */
static void functions_table(struct diff *d, int c, const struct spaa_cmp_sums *bs,
			    const struct spaa_cmp_sums *ts)
{
	static const size_t wcols[] = { 2, 3 };
	uint32_t nkeys = spaa_cmp_nfunctions(&d->keys);
	struct spaa_cmp_rank *rank = spaa_xmalloc(((size_t)nkeys + 1) * sizeof(*rank));
	struct lami_table *t = table(d, c, wcols, 2, 4);
	size_t n = 0;

	for (uint32_t k = 1; k < nkeys; k++) {
		uint64_t b = spaa_cmp_get(bs, k), tv = spaa_cmp_get(ts, k);
		struct spaa_cmp_delta dl;

		if (!b && !tv)
			continue;
		spaa_cmp_compute(&d->cmp, b, tv, &dl);
		rank[n++] = (struct spaa_cmp_rank){
			dl.delta, dl.share_delta, dl.target,
			spaa_cmp_function_name(&d->keys, k),
			spaa_cmp_function_dso(&d->keys, k), k,
		};
	}
	spaa_cmp_rank_sort(rank, n);
	for (size_t i = 0; i < lami_rows(d->run->opts, n); i++) {
		uint32_t k = rank[i].idx;
		struct spaa_cmp_delta dl;

		spaa_cmp_compute(&d->cmp, spaa_cmp_get(bs, k), spaa_cmp_get(ts, k), &dl);
		lami_row_begin(t);
		lami_cell_string(t, rank[i].name);
		lami_cell_path(t, rank[i].name2);
		spaa_cmp_weight_cell(t, &d->tsem, dl.base);
		spaa_cmp_weight_cell(t, &d->tsem, dl.target);
		spaa_cmp_delta_cell(t, &d->tsem, dl.delta);
		spaa_cmp_ratio_cell(t, dl.bshare);
		spaa_cmp_ratio_cell(t, dl.tshare);
		spaa_cmp_ratio_cell(t, dl.share_delta);
		spaa_cmp_ratio_cell(t, dl.relative);
		lami_row_end(t);
	}
	free(rank);
	lami_results_add(&d->run->results, t);
}

static const char *status(uint64_t b, uint64_t t, const struct spaa_cmp_delta *dl)
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
	uint32_t nkeys = spaa_cmp_npaths(&d->keys);
	struct spaa_cmp_rank *rank = spaa_xmalloc(((size_t)nkeys + 1) * sizeof(*rank));
	struct lami_table *t = table(d, T_STACKS, wcols, 2, 3);
	size_t n = 0;

	/* path 0 is the empty sequence, never a stack */
	for (uint32_t k = 1; k < nkeys; k++) {
		uint64_t b = spaa_cmp_get(&d->bside.path, k);
		uint64_t tv = spaa_cmp_get(&d->tside.path, k);
		struct spaa_cmp_delta dl;

		if (!b && !tv)
			continue;
		spaa_cmp_compute(&d->cmp, b, tv, &dl);
		rank[n++] = (struct spaa_cmp_rank){
			dl.delta, dl.share_delta, dl.target, NULL, NULL, k,
		};
	}
	/* by name too, but one made at a time: a row's as it is written */
	spaa_cmp_rank_paths(&d->keys, rank, n);
	for (size_t i = 0; i < lami_rows(d->run->opts, n); i++) {
		uint64_t b = spaa_cmp_get(&d->bside.path, rank[i].idx);
		uint64_t tv = spaa_cmp_get(&d->tside.path, rank[i].idx);
		char *name = spaa_cmp_path_name(&d->keys, rank[i].idx);
		struct spaa_cmp_delta dl;

		spaa_cmp_compute(&d->cmp, b, tv, &dl);
		lami_row_begin(t);
		lami_cell_string(t, name);
		free(name);
		spaa_cmp_weight_cell(t, &d->tsem, dl.base);
		spaa_cmp_weight_cell(t, &d->tsem, dl.target);
		spaa_cmp_delta_cell(t, &d->tsem, dl.delta);
		spaa_cmp_ratio_cell(t, dl.share_delta);
		lami_cell_string(t, status(b, tv, &dl));
		lami_row_end(t);
	}
	free(rank);
	lami_results_add(&d->run->results, t);
}

/* Raw bytes: allocation volumes are compared as measured, never scaled. */
static void allocs_table(struct diff *d)
{
	const struct spaa_cmp_side *bs = &d->bside, *ts = &d->tside;
	uint32_t nkeys = spaa_cmp_nfunctions(&d->keys);
	struct spaa_cmp_rank *rank = spaa_xmalloc(((size_t)nkeys + 1) * sizeof(*rank));
	struct lami_table *t = lami_table_new(&classes[T_ALLOCS], d->begin, d->end);
	size_t n = 0;

	for (uint32_t k = 1; k < nkeys; k++) {
		uint64_t ba = spaa_cmp_get(&bs->alloc, k), ta = spaa_cmp_get(&ts->alloc, k);
		uint64_t bl = spaa_cmp_get(&bs->live, k), tl = spaa_cmp_get(&ts->live, k);

		if (!ba && !ta && !bl && !tl)
			continue;
		rank[n++] = (struct spaa_cmp_rank){
			(double)ta - (double)ba, (double)tl - (double)bl, (double)ta,
			spaa_cmp_function_name(&d->keys, k),
			spaa_cmp_function_dso(&d->keys, k), k,
		};
	}
	spaa_cmp_rank_sort(rank, n);
	for (size_t i = 0; i < lami_rows(d->run->opts, n); i++) {
		uint32_t k = rank[i].idx;

		lami_row_begin(t);
		lami_cell_string(t, rank[i].name);
		lami_cell_path(t, rank[i].name2);
		lami_cell_size(t, (int64_t)spaa_cmp_get(&bs->alloc, k));
		lami_cell_size(t, (int64_t)spaa_cmp_get(&ts->alloc, k));
		lami_cell_number(t, rank[i].key);
		if (bs->has_live)
			lami_cell_size(t, (int64_t)spaa_cmp_get(&bs->live, k));
		else
			lami_cell_unknown(t);
		if (ts->has_live)
			lami_cell_size(t, (int64_t)spaa_cmp_get(&ts->live, k));
		else
			lami_cell_unknown(t);
		if (bs->has_live && ts->has_live)
			lami_cell_number(t, rank[i].key2);
		else
			lami_cell_unknown(t);
		lami_row_end(t);
	}
	free(rank);
	lami_results_add(&d->run->results, t);
}

static void summary_table(struct diff *d)
{
	static const size_t wcols[] = { 2, 3 };
	struct lami_table *t = table(d, T_SUMMARY, wcols, 2, 4);
	int64_t matched = 0, added = 0, gone = 0;
	double btotal = (double)d->bside.total * d->bsem.scale;
	double ttotal = (double)d->tside.total * d->tsem.scale;

	for (uint32_t k = 1; k < spaa_cmp_npaths(&d->keys); k++) {
		bool b = spaa_cmp_get(&d->bside.path, k) != 0;
		bool tv = spaa_cmp_get(&d->tside.path, k) != 0;

		matched += b && tv;
		added += !b && tv;
		gone += b && !tv;
	}
	lami_row_begin(t);
	lami_cell_path(t, d->bpath);
	lami_cell_path(t, d->tpath);
	spaa_cmp_weight_cell(t, &d->tsem, btotal);
	spaa_cmp_weight_cell(t, &d->tsem, ttotal);
	/* as measured: under normalization the totals' delta is 0 by design */
	spaa_cmp_delta_cell(t, &d->tsem, ttotal - btotal);
	if (d->bside.samples_known)
		lami_cell_int(t, (int64_t)d->bside.samples);
	else
		lami_cell_unknown(t);
	if (d->tside.samples_known)
		lami_cell_int(t, (int64_t)d->tside.samples);
	else
		lami_cell_unknown(t);
	lami_cell_int(t, matched);
	lami_cell_int(t, added);
	lami_cell_int(t, gone);
	lami_row_end(t);
	lami_results_add(&d->run->results, t);
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
			       spaa_str(p, p->events[i].name));
	return buf;
}

/*
 * The event and metric compared, by name on both sides: the baseline's
 * choice for that event was made when it was reduced.
 */
static int select_metric(struct diff *d, struct spaa_error *err)
{
	struct spaa_cmp_base *b = &d->base;
	const struct spaa_profile *t = &d->target;
	const char *event = opt_event;
	char bl[256], tl[256];

	for (uint32_t i = 0; !event && i < b->nevents; i++)
		if (spaa_profile_find_event(t, b->events[i]) != SPAA_NONE)
			event = b->events[i];
	if (!event && b->nevents && t->nevents)
		return spaa_error_set(err, SPAA_E_USAGE,
				      "the baseline (events %s) and the target (events %s) have no event in common",
				      spaa_cmp_base_event_list(b, bl, sizeof(bl)),
				      event_list(t, tl, sizeof(tl)));
	d->bchoice = spaa_cmp_base_choice(b, event);
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
	spaa_metric_semantics(t, d->tevent, d->tmetric,
			      spaa_metric_unit(t, d->tevent, d->tmetric), &d->tsem);
	return 0;
}

/*
 * Sums the target, from its samples in range with --begin/--end, beside
 * the baseline's sums of the event compared.
 */
static int aggregate(struct diff *d, const struct spaa_fold *fold,
		     enum spaa_cmp_normalize mode, struct spaa_error *err)
{
	static const char *const how[] = {
		[SPAA_CMP_SHARE] = "compared as shares of each total",
		[SPAA_CMP_TOTAL] = "baseline scaled to the target total",
		[SPAA_CMP_NONE] = "raw weights",
	};
	const struct lami_opts *o = d->run->opts;
	bool restrict_time = o->has_begin || o->has_end;
	struct spaa_cmp_choice *b;
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
	spaa_agg_init(&d->tagg, &d->target);
	d->tagg.path_by_function = true;
	if (restrict_time && d->target.nsamples ?
	    spaa_agg_add_fold(&d->tagg, fold, d->tevent, d->tmetric, SPAA_NO_ID,
			      SPAA_NO_ID, err) :
	    spaa_agg_add_records(&d->tagg, d->tevent, d->tmetric, SPAA_NO_ID,
				 SPAA_NO_ID, err))
		return -1;
	/* the sides need the target's names, no longer its stacks */
	if (spaa_cmp_side_add_allocs(&d->tside, &d->keys, &d->target, err))
		return -1;
	spaa_profile_release_stacks(&d->target);
	if (spaa_cmp_side_take_sum(&d->bside, &d->keys, &b->sum, err) ||
	    spaa_cmp_side_add_agg(&d->tside, &d->keys, &d->tagg, err))
		return -1;
	if (!d->bside.total || !d->tside.total)
		return spaa_error_at(err, SPAA_E_NO_DATA,
				     d->bside.total ? d->tpath : d->bpath, 0,
				     "no weight for event '%s', metric '%s'%s",
				     b->event, b->metric,
				     restrict_time && d->bside.total ? " in the time range" : "");
	return spaa_cmp_init(&d->cmp, mode, &d->bsem, d->bside.total,
			     &d->tsem, d->tside.total, err);
}

/* The --svg options, checked before anything is loaded. */
static int svg_options(double *min_width, struct spaa_error *err)
{
	*min_width = SPAA_FLAME_MIN_WIDTH_DEFAULT;
	if ((opt_svg_title || opt_svg_width || opt_svg_min_width) && !opt_svg)
		return spaa_error_set(err, SPAA_E_USAGE,
				      "'--svg-title', '--svg-width' and '--svg-min-width' need '--svg FILE'");
	if (opt_svg && (!*opt_svg || !strcmp(opt_svg, "-")))
		return spaa_error_set(err, SPAA_E_USAGE,
				      "'--svg' needs a file name: standard output carries the LAMI results");
	if (opt_svg_width && (opt_svg_width < SPAA_FLAME_WIDTH_MIN ||
			      opt_svg_width > SPAA_FLAME_WIDTH_MAX))
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
	struct spaa_flame *fg = spaa_flame_new();
	struct spaa_output *out = NULL;
	char title[2048];
	int ret = -1;

	for (uint32_t k = 1; k < spaa_cmp_npaths(&d->keys); k++) {
		uint64_t b = spaa_cmp_get(&d->bside.path, k);
		uint64_t t = spaa_cmp_get(&d->tside.path, k);

		if (!b && !t)
			continue;
		spaa_flame_begin(fg);
		for (uint32_t i = 0; i < spaa_cmp_path_len(&d->keys, k); i++) {
			uint32_t fn = spaa_cmp_path_function(&d->keys, k, i);
			const char *name = spaa_cmp_function_name(&d->keys, fn);
			const char *dso = spaa_cmp_function_dso(&d->keys, fn);

			spaa_flame_push(fg, name, strlen(name), dso,
					spaa_flame_classify(dso, false));
		}
		if (spaa_flame_add(fg, t, b, err))
			goto out;
	}
	snprintf(title, sizeof(title), "Differential flame graph of %s against %s",
		 d->tpath, d->bpath);
	if (spaa_output_open(&out, opt_svg, SPAA_COMP_NONE, 0, err) ||
	    spaa_flame_write(fg, &(struct spaa_flame_opts){
		    .title = opt_svg_title ? opt_svg_title : title, .what = d->what,
		    .width = (unsigned)opt_svg_width, .min_width = min_width,
		    .cmp = &d->cmp,
	    }, out, err))
		goto out;
	ret = spaa_output_close(out, err);
	out = NULL;
out:
	spaa_output_abort(out);
	spaa_flame_free(fg);
	return ret;
}

/* BASELINE TARGET, or --baseline BASELINE TARGET. */
static int paths(struct diff *d, struct spaa_error *err)
{
	const struct lami_opts *o = d->run->opts;

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

static int diff_run(struct spaa_run *run, struct spaa_error *err)
{
	const struct lami_opts *o = run->opts;
	struct spaa_load_opts blo = run->load, tlo = run->load;
	struct spaa_profile base;
	struct spaa_fold fold;
	struct diff *d = spaa_xcalloc(1, sizeof(*d));
	enum spaa_cmp_normalize mode;
	double min_width;
	int ret = -1;

	d->run = run;
	spaa_profile_init(&base);
	spaa_profile_init(&d->target);
	spaa_cmp_keys_init(&d->keys, &opt_dso_map);
	spaa_cmp_side_init(&d->bside, true);
	spaa_cmp_side_init(&d->tside, false);
	spaa_fold_init(&fold, o->has_begin ? o->begin : INT64_MIN,
		       o->has_end ? o->end : INT64_MAX);
	/* the target's records hold its whole sums: samples only restrict them */
	if (o->has_begin || o->has_end) {
		tlo.on_sample = fold_sample;
		tlo.data = &fold;
	}
	if (paths(d, err) ||
	    svg_options(&min_width, err) ||
	    spaa_cmp_normalize_parse(opt_normalize, &mode, err) ||
	    spaa_cmp_dso_map_check(&opt_dso_map, err) ||
	    spaa_cmp_load(&base, d->bpath, 0, 2, &blo, err))
		goto out;
	/*
	 * Two models would share the peak of memory: the baseline's goes
	 * before the target's is loaded.  What the comparison reads of it
	 * stays: its allocation sums, and its sums of each event it may be
	 * compared under (the target decides which).
	 */
	if (spaa_cmp_side_add_allocs(&d->bside, &d->keys, &base, err))
		goto out;
	spaa_cmp_base_init(&d->base, &d->keys, &base, opt_event, opt_metric);
	spaa_profile_release(&base);
	if (spaa_cmp_load(&d->target, d->tpath, 1, 2, &tlo, err) ||
	    aggregate(d, &fold, mode, err))
		goto out;
	/*
	 * The tables and the graph read only the compared sides and their
	 * keys (names copied): what built them goes before the rows come.
	 */
	spaa_agg_release(&d->tagg);
	spaa_fold_release(&fold);
	spaa_profile_release(&d->target);
	spaa_cmp_base_release(&d->base);

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
		spaa_agg_release(&d->tagg);
	spaa_cmp_side_release(&d->bside);
	spaa_cmp_side_release(&d->tside);
	spaa_cmp_base_release(&d->base);
	spaa_cmp_keys_release(&d->keys);
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
