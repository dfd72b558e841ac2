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
 * Every row shows its raw delta (target - baseline, as measured).  What
 * is compared, and ranks rows by its size (growth and shrinkage alike),
 * suits the data by default (compare.h): time profiles, whose runs
 * differ in length, compare shares of each total, with a normalized
 * delta (the baseline scaled to the target's total) beside the raw one;
 * allocation events compare raw bytes, since a heap that grew did grow.
 * Every title says which (--normalize share|none overrides).
 *
 * Allocation events (spec 9) are also compared as raw bytes per
 * allocating function, when both sides have them.
 *
 * A program renamed between the runs (cwork -> cwork_hashslow) would
 * match nothing: DSOs found on one side only that share most of their
 * function names are paired (compare.h), as --dso-map pairs them by
 * hand, and the titles say so; DSOs unmatched on both sides otherwise
 * get a hint at --dso-map.
 *
 * --begin/--end apply to the target only (Trace Compass sends the range
 * selected on the trace it runs on, the target); the baseline is whole.
 * --pid, --tid, --comm, --focus and --ignore select the same stacks on
 * both sides (the same program run twice keeps its command and function
 * names; its ids only when the recording fixed them), and the header and
 * every title say so.
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
#include "analysis/gate.h"
#include "analysis/compare.h"
#include "io/output.h"
#include "model/sbuf.h"
#include "model/units.h"
#include "model/util.h"
#include "report/analysis.h"
#include "report/flamegraph.h"
#include "report/table.h"

static const char *const normalize_modes[] = {
	[SPAA_COMPARE_AUTO] = "auto",
	[SPAA_COMPARE_SHARE] = "share",
	[SPAA_COMPARE_TOTAL] = "total",
	[SPAA_COMPARE_NONE] = "none",
	NULL,
};

/*
 * Row orders: by the compared delta (the default), the raw one, either
 * side's weight, or by name.  hotspots' self and total are tables here
 * (functions, inclusive), not orders.
 */
enum { SORT_DELTA, SORT_RAW, SORT_TARGET, SORT_BASELINE, SORT_NAME };

static const char *const sort_keys[] = { "delta", "raw", "target", "baseline", "name", NULL };

static const char *const sort_titles[] = {
	NULL, "sorted by raw delta", "sorted by target weight", "sorted by baseline weight",
	"sorted by name",
};

struct options {
	const char *baseline;
	int sort;               /* SORT_* */
	int normalize;          /* enum spaa_compare_normalize */
	struct spaa_option_list dso_map;
	bool no_dso_pairing;
	const char *svg;
	struct spaa_flamegraph_args svg_args;
	struct spaa_option_list fail_if;
};

#define AT(field) offsetof(struct options, field)

static const struct spaa_option options[] = {
	{ "baseline", 0, SPAA_OPTION_STRING, AT(baseline), "PATH",
	  "baseline profile (then the only path is the target)", NULL, NULL },
	{ "sort", 's', SPAA_OPTION_CHOICE, AT(sort), "KEY",
	  "order of the delta tables: delta (the compared one, by size; default), raw, target, baseline or name",
	  sort_keys, NULL },
	{ "normalize", 0, SPAA_OPTION_CHOICE, AT(normalize), "auto|share|none",
	  "compare shares of each total (total: the same) or raw weights; auto (default): raw for allocation events, else shares",
	  normalize_modes, NULL },
	{ "dso-map", 0, SPAA_OPTION_LIST, AT(dso_map), "OLD=NEW",
	  "match the baseline's DSO OLD as the target's DSO NEW (repeatable)",
	  NULL, NULL },
	{ "no-dso-pairing", 0, SPAA_OPTION_FLAG, AT(no_dso_pairing), NULL,
	  "never pair a DSO only in the baseline with one only in the target that has most of its function names",
	  NULL, NULL },
	{ "svg", 0, SPAA_OPTION_STRING, AT(svg), "FILE",
	  "also write a differential flame graph (SVG) to FILE", NULL, NULL },
	SPAA_FLAMEGRAPH_OPTIONS(struct options, svg_args),
	{ "fail-if", 0, SPAA_OPTION_LIST, AT(fail_if), "EXPR",
	  "exit with status 3 when EXPR holds beyond sampling noise: [NAME:]share+>Npp or total+>N% (repeatable: any)",
	  NULL, NULL },
	{ NULL, 0, 0, 0, NULL, NULL, NULL, NULL },
};

enum { T_FUNCTIONS, T_INCLUSIVE, T_STACKS, T_ALLOCS, T_SUMMARY, T_GATE };

/*
 * Weights and deltas in the metric's class (mixed here, decided per run),
 * integers: a duration delta in ns, a size delta in bytes.  The share
 * delta comes before the shares: a narrow text table drops columns from
 * the right.
 */
static const struct spaa_lami_column functions_cols[] = {
	{ "Function", SPAA_LAMI_STRING, NULL },
	{ "DSO", SPAA_LAMI_PATH, NULL },
	{ "Baseline", SPAA_LAMI_MIXED, NULL },
	{ "Target", SPAA_LAMI_MIXED, NULL },
	{ "Raw delta", SPAA_LAMI_MIXED, NULL },
	{ "Normalized delta", SPAA_LAMI_MIXED, NULL },
	{ "Share delta", SPAA_LAMI_RATIO, NULL },
	{ "Baseline share", SPAA_LAMI_RATIO, NULL },
	{ "Target share", SPAA_LAMI_RATIO, NULL },
	{ "Relative change", SPAA_LAMI_RATIO, NULL },
};

enum { F_RAW_DELTA = 4, F_SHARE_DELTA = 6 };

static const struct spaa_lami_column stacks_cols[] = {
	{ "Call path", SPAA_LAMI_STRING, NULL },
	{ "Baseline", SPAA_LAMI_MIXED, NULL },
	{ "Target", SPAA_LAMI_MIXED, NULL },
	{ "Raw delta", SPAA_LAMI_MIXED, NULL },
	{ "Normalized delta", SPAA_LAMI_MIXED, NULL },
	{ "Share delta", SPAA_LAMI_RATIO, NULL },
	{ "Status", SPAA_LAMI_STRING, NULL },
};

enum { S_RAW_DELTA = 3, S_SHARE_DELTA = 5 };

static const struct spaa_lami_column allocs_cols[] = {
	{ "Site", SPAA_LAMI_STRING, NULL },
	{ "DSO", SPAA_LAMI_PATH, NULL },
	{ "Baseline allocated", SPAA_LAMI_SIZE, NULL },
	{ "Target allocated", SPAA_LAMI_SIZE, NULL },
	{ "Raw allocated delta", SPAA_LAMI_SIZE, NULL },
	{ "Baseline live", SPAA_LAMI_SIZE, NULL },
	{ "Target live", SPAA_LAMI_SIZE, NULL },
	{ "Raw live delta", SPAA_LAMI_SIZE, NULL },
};

enum { A_RAW_ALLOC_DELTA = 4 };

static const struct spaa_lami_column summary_cols[] = {
	{ "Baseline profile", SPAA_LAMI_PATH, NULL },
	{ "Target profile", SPAA_LAMI_PATH, NULL },
	{ "Baseline total", SPAA_LAMI_MIXED, NULL },
	{ "Target total", SPAA_LAMI_MIXED, NULL },
	{ "Raw total delta", SPAA_LAMI_MIXED, NULL },
	{ "Baseline samples", SPAA_LAMI_INT, NULL },
	{ "Target samples", SPAA_LAMI_INT, NULL },
	{ "Matched stacks", SPAA_LAMI_INT, NULL },
	{ "New stacks", SPAA_LAMI_INT, NULL },
	{ "Gone stacks", SPAA_LAMI_INT, NULL },
};

#define COLS(c) c, sizeof(c) / sizeof(c[0])

/*
 * A share condition's change is a difference of shares (percentage
 * points), a total condition's a ratio of totals (%): two columns, so
 * neither is read as the other; a row fills the pair of its kind.
 */
static const struct spaa_lami_column gate_cols[] = {
	{ "Condition", SPAA_LAMI_STRING, NULL },
	{ "Function", SPAA_LAMI_STRING, NULL },
	{ "Share change", SPAA_LAMI_RATIO, NULL },
	{ "Share noise", SPAA_LAMI_RATIO, NULL },
	{ "Total change", SPAA_LAMI_RATIO, NULL },
	{ "Total noise", SPAA_LAMI_RATIO, NULL },
	{ "Verdict", SPAA_LAMI_STRING, NULL },
};

enum { G_SHARE_CHANGE = 2, G_SHARE_NOISE = 3, G_TOTAL_NOISE = 5 };

static const struct spaa_lami_table_class classes[] = {
	[T_FUNCTIONS] = { "functions", "Function self weight deltas", COLS(functions_cols) },
	[T_INCLUSIVE] = { "inclusive", "Function total weight deltas", COLS(functions_cols) },
	[T_STACKS] = { "stacks", "Call path deltas", COLS(stacks_cols) },
	[T_ALLOCS] = { "allocations", "Allocated and live bytes deltas per allocating function (raw bytes)", COLS(allocs_cols) },
	[T_SUMMARY] = { "summary", "Baseline and target", COLS(summary_cols) },
	[T_GATE] = { "gate", "Regression gate (--fail-if)", COLS(gate_cols) },
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
	struct spaa_metrics_sem bsem;   /* the target's is tables.sem */
	uint32_t tevent, tmetric;
	/* range, target weights and "event 'x', metric 'y', ..." of every table */
	struct spaa_table tables;
	bool empty_window;      /* no target sample in --begin/--end */
	char *dsos_said;        /* owned: DSOs paired or unmatched, for the header */
	char selected[512];     /* what --pid ... --ignore select, "" if nothing */
};

/*
 * A selection that keeps nothing of a side: that side's error saying
 * why and what it has instead (filter.h), rather than a comparison with
 * nothing.
 */
static int side_selects(const struct spaa_filter *f, const struct spaa_profile *p,
			const char *side, const char *path, struct spaa_error *err)
{
	struct spaa_error why;

	spaa_error_init(&why);
	if (spaa_filter_keeps_records(f, p) || !spaa_filter_explain_empty(f, p, &why))
		return 0;
	return spaa_error_at(err, why.code, path, 0, "the %s: %s", side, why.msg);
}

/*
 * A table of class c whose column raw holds the raw deltas, which a
 * narrow text keeps whatever else goes, and column pp share deltas.
 */
static struct spaa_lami_table *table(struct diff *d, int c, size_t raw, size_t pp)
{
	const char *sorted = sort_titles[((const struct options *)d->run->options)->sort];
	struct spaa_lami_table *t = sorted ? spaa_table_new(&d->tables, &classes[c], "%s", sorted) :
				    spaa_table_new(&d->tables, &classes[c], NULL);

	spaa_lami_table_keep_column(t, raw);
	spaa_table_points_column(t, pp);
	return t;
}

/*
 * The rank of a row by --sort: sizes of deltas (growth and shrinkage
 * alike) or weights, ties by the next key; all keys 0 for names only.
 */
static struct spaa_compare_rank row_rank(const struct diff *d, const struct spaa_compare_delta *dl,
					 const char *name, const char *name2, uint32_t k)
{
	struct spaa_compare_rank r = { dl->delta, dl->share_delta, dl->target, name, name2, k };

	switch (((const struct options *)d->run->options)->sort) {
	case SORT_RAW:
		r.key = dl->raw;
		r.key2 = dl->delta;
		break;
	case SORT_TARGET:
		r.key = dl->target;
		r.key2 = dl->base;
		r.key3 = 0;
		break;
	case SORT_BASELINE:
		r.key = dl->base;
		r.key2 = dl->target;
		r.key3 = 0;
		break;
	case SORT_NAME:
		r.key = r.key2 = r.key3 = 0;
		break;
	}
	return r;
}

/*
 * --percent-limit: a row at least P % of its side's total on either side
 * (a change is seen from both ends: what vanished and what appeared).
 */
static bool shown(const struct diff *d, const struct spaa_compare_delta *dl)
{
	return spaa_filter_percent(d->run->opts->percent_limit,
				   fmax(fabs(dl->bshare), fabs(dl->tshare)), 1.0);
}

/* The normalized delta of a row, which a raw comparison has not. */
static void normalized_cell(struct diff *d, struct spaa_lami_table *t,
			    const struct spaa_compare_delta *dl)
{
	if (d->cmp.mode == SPAA_COMPARE_NONE)
		spaa_lami_cell_unknown(t);
	else
		spaa_table_delta_cell(t, &d->tables.sem, dl->normalized);
}

/* Self (T_FUNCTIONS) or total (T_INCLUSIVE) weight per function. */
static void functions_table(struct diff *d, int c, const struct spaa_compare_sums *bs,
			    const struct spaa_compare_sums *ts)
{
	uint32_t nkeys = spaa_compare_nfunctions(&d->keys);
	struct spaa_compare_rank *rank = spaa_xmalloc(((size_t)nkeys + 1) * sizeof(*rank));
	struct spaa_lami_table *t = table(d, c, F_RAW_DELTA, F_SHARE_DELTA);
	size_t n = 0;

	for (uint32_t k = 1; k < nkeys; k++) {
		uint64_t b = spaa_compare_get(bs, k), tv = spaa_compare_get(ts, k);
		struct spaa_compare_delta dl;

		if (!b && !tv)
			continue;
		spaa_compare_compute(&d->cmp, b, tv, &dl);
		if (shown(d, &dl))
			rank[n++] = row_rank(d, &dl, spaa_compare_function_name(&d->keys, k),
					     spaa_compare_function_dso(&d->keys, k), k);
	}
	spaa_compare_rank_sort(rank, n);
	for (size_t i = 0; i < spaa_table_rows(&d->tables, n); i++) {
		uint32_t k = rank[i].idx;
		struct spaa_compare_delta dl;

		spaa_compare_compute(&d->cmp, spaa_compare_get(bs, k), spaa_compare_get(ts, k), &dl);
		spaa_lami_row_begin(t);
		spaa_lami_cell_string(t, rank[i].name);
		spaa_lami_cell_path(t, rank[i].name2);
		spaa_table_value_cell(t, &d->tables.sem, dl.base);
		spaa_table_value_cell(t, &d->tables.sem, dl.target);
		spaa_table_delta_cell(t, &d->tables.sem, dl.raw);
		normalized_cell(d, t, &dl);
		spaa_table_ratio_cell(t, dl.share_delta);
		spaa_table_ratio_cell(t, dl.bshare);
		spaa_table_ratio_cell(t, dl.tshare);
		spaa_table_ratio_cell(t, dl.relative);
		spaa_lami_row_end(t);
	}
	free(rank);
	spaa_table_add(&d->tables, t);
}

static const char *status(uint64_t b, uint64_t t, const struct spaa_compare_delta *dl)
{
	if (!b)
		return "new";
	if (!t)
		return "gone";
	return dl->delta != 0 ? "changed" : "unchanged";
}

/* The ranked call paths, whose rows threads make (stack_rows). */
struct stack_rows {
	struct diff *d;
	const struct spaa_compare_rank *rank;
};

/* Rows lo to hi - 1 of the stacks table: only reads what threads share. */
static void stack_rows(void *ctx, struct spaa_lami_table *t, size_t lo, size_t hi)
{
	const struct stack_rows *s = ctx;
	struct diff *d = s->d;

	for (size_t i = lo; i < hi; i++) {
		uint64_t b = spaa_compare_get(&d->bside.path, s->rank[i].idx);
		uint64_t tv = spaa_compare_get(&d->tside.path, s->rank[i].idx);
		char *name = spaa_compare_path_name(&d->keys, s->rank[i].idx);
		struct spaa_compare_delta dl;

		spaa_compare_compute(&d->cmp, b, tv, &dl);
		spaa_lami_row_begin(t);
		spaa_lami_cell_string(t, name);
		free(name);
		spaa_table_value_cell(t, &d->tables.sem, dl.base);
		spaa_table_value_cell(t, &d->tables.sem, dl.target);
		spaa_table_delta_cell(t, &d->tables.sem, dl.raw);
		normalized_cell(d, t, &dl);
		spaa_table_ratio_cell(t, dl.share_delta);
		spaa_lami_cell_string(t, status(b, tv, &dl));
		spaa_lami_row_end(t);
	}
}

static void stacks_table(struct diff *d)
{
	uint32_t nkeys = spaa_compare_npaths(&d->keys);
	struct spaa_compare_rank *rank = spaa_xmalloc(((size_t)nkeys + 1) * sizeof(*rank));
	struct spaa_lami_table *t = table(d, T_STACKS, S_RAW_DELTA, S_SHARE_DELTA);
	size_t n = 0;

	/* path 0 is the empty sequence, never a stack */
	for (uint32_t k = 1; k < nkeys; k++) {
		uint64_t b = spaa_compare_get(&d->bside.path, k);
		uint64_t tv = spaa_compare_get(&d->tside.path, k);
		struct spaa_compare_delta dl;

		if (!b && !tv)
			continue;
		spaa_compare_compute(&d->cmp, b, tv, &dl);
		if (shown(d, &dl))
			rank[n++] = row_rank(d, &dl, NULL, NULL, k);
	}
	/* by name too, but one made at a time: a row's as it is written */
	spaa_compare_rank_paths(&d->keys, rank, n);
	/* a row for every stack of both profiles: the load's threads make them */
	spaa_lami_table_fill(t, spaa_table_rows(&d->tables, n), spaa_load_threads(&d->run->load),
			     stack_rows, &(struct stack_rows){ d, rank });
	free(rank);
	spaa_table_add(&d->tables, t);
}

/* Raw bytes: allocation volumes are compared as measured, never scaled. */
static void allocs_table(struct diff *d)
{
	static const struct spaa_metrics_sem bytes = { SPAA_METRICS_SIZE, 1, "" };
	const struct spaa_compare_side *bs = &d->bside, *ts = &d->tside;
	uint32_t nkeys = spaa_compare_nfunctions(&d->keys);
	struct spaa_compare_rank *rank = spaa_xmalloc(((size_t)nkeys + 1) * sizeof(*rank));
	/* bytes whatever the event compared: no weight columns, no caveats */
	struct spaa_lami_table *t = spaa_lami_table_new(&classes[T_ALLOCS],
							d->tables.begin, d->tables.end);
	size_t n = 0;

	if (d->selected[0])
		spaa_lami_table_set_title(t, "%s (%s in both profiles)",
					  classes[T_ALLOCS].title, d->selected);
	spaa_lami_table_keep_column(t, A_RAW_ALLOC_DELTA);

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
	for (size_t i = 0; i < spaa_table_rows(&d->tables, n); i++) {
		uint32_t k = rank[i].idx;

		spaa_lami_row_begin(t);
		spaa_lami_cell_string(t, rank[i].name);
		spaa_lami_cell_path(t, rank[i].name2);
		spaa_lami_cell_u64(t, SPAA_LAMI_CELL_SIZE, spaa_compare_get(&bs->alloc, k));
		spaa_lami_cell_u64(t, SPAA_LAMI_CELL_SIZE, spaa_compare_get(&ts->alloc, k));
		spaa_table_delta_cell(t, &bytes, rank[i].key);
		if (bs->has_live)
			spaa_lami_cell_u64(t, SPAA_LAMI_CELL_SIZE, spaa_compare_get(&bs->live, k));
		else
			spaa_lami_cell_unknown(t);
		if (ts->has_live)
			spaa_lami_cell_u64(t, SPAA_LAMI_CELL_SIZE, spaa_compare_get(&ts->live, k));
		else
			spaa_lami_cell_unknown(t);
		if (bs->has_live && ts->has_live)
			spaa_table_delta_cell(t, &bytes, rank[i].key2);
		else
			spaa_lami_cell_unknown(t);
		spaa_lami_row_end(t);
	}
	free(rank);
	spaa_table_add(&d->tables, t);
}

static void summary_table(struct diff *d)
{
	struct spaa_lami_table *t = spaa_table_new(&d->tables, &classes[T_SUMMARY], NULL);
	int64_t matched = 0, added = 0, gone = 0;
	struct spaa_compare_delta dl;

	spaa_compare_compute(&d->cmp, d->bside.total, d->tside.total, &dl);

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
	spaa_table_value_cell(t, &d->tables.sem, dl.base);
	spaa_table_value_cell(t, &d->tables.sem, dl.target);
	/* normalized, the totals' delta is 0 by design */
	spaa_table_delta_cell(t, &d->tables.sem, dl.raw);
	if (d->bside.samples_known)
		spaa_lami_cell_u64(t, SPAA_LAMI_CELL_INT, d->bside.samples);
	else
		spaa_lami_cell_unknown(t);
	if (d->tside.samples_known)
		spaa_lami_cell_u64(t, SPAA_LAMI_CELL_INT, d->tside.samples);
	else
		spaa_lami_cell_unknown(t);
	spaa_lami_cell_int(t, matched);
	spaa_lami_cell_int(t, added);
	spaa_lami_cell_int(t, gone);
	spaa_lami_row_end(t);
	spaa_lami_table_set_record(t);
	spaa_table_add(&d->tables, t);
}

/* One row that crossed a --fail-if threshold, or the closest of none. */
struct crossing {
	const char *name;       /* NULL: the whole profile */
	double change, noise;
	enum spaa_gate_verdict verdict;
};

static int crossing_cmp(const void *a, const void *b)
{
	const struct crossing *x = a, *y = b;

	if (x->change != y->change)
		return x->change > y->change ? -1 : 1;
	return strcmp(x->name ? x->name : "", y->name ? y->name : "");
}

/* The change and noise of x in the pair of columns of its kind (mine). */
static void change_cells(struct spaa_lami_table *t, bool mine, const struct crossing *x)
{
	if (!mine) {
		spaa_lami_cell_empty(t);
		spaa_lami_cell_empty(t);
	} else if (x) {
		spaa_table_ratio_cell(t, x->change);
		spaa_table_ratio_cell(t, x->noise);
	} else {
		spaa_lami_cell_unknown(t);
		spaa_lami_cell_unknown(t);
	}
}

static void gate_row(struct spaa_lami_table *t, const struct spaa_gate_cond *c,
		     const struct crossing *x, bool crossed)
{
	static const char *const verdicts[] = {
		[SPAA_GATE_HELD] = "held", [SPAA_GATE_NOISE] = "within noise",
		[SPAA_GATE_TRIPPED] = "tripped",
	};

	spaa_lami_row_begin(t);
	spaa_lami_cell_string(t, c->text);
	if (x && x->name)
		spaa_lami_cell_string(t, x->name);
	else if (x && c->kind == SPAA_GATE_TOTAL)
		spaa_lami_cell_string(t, "(whole profile)");
	else
		spaa_lami_cell_unknown(t);
	change_cells(t, c->kind == SPAA_GATE_SHARE, x);
	change_cells(t, c->kind == SPAA_GATE_TOTAL, x);
	spaa_lami_cell_string(t, verdicts[crossed ? x->verdict : SPAA_GATE_HELD]);
	spaa_lami_row_end(t);
}

/*
 * --fail-if: for each condition, every row past its threshold (tripped
 * or within noise), the largest change first, or one "held" row with the
 * closest change.  Any tripped row makes the exit status 3.
 */
static void gate_table(struct diff *d, const struct spaa_gate *g)
{
	uint32_t nkeys = spaa_compare_nfunctions(&d->keys);
	uint64_t nb = d->bside.samples_known ? d->bside.samples : 0;
	uint64_t nt = d->tside.samples_known ? d->tside.samples : 0;
	double btotal = (double)d->bside.total * d->bsem.scale;
	double ttotal = (double)d->tside.total * d->tables.sem.scale;
	struct crossing *x = spaa_xmalloc(((size_t)nkeys + 1) * sizeof(*x));
	struct spaa_lami_table *t = spaa_table_new(&d->tables, &classes[T_GATE], NULL);
	size_t tripped = 0;

	spaa_table_points_column(t, G_SHARE_CHANGE);
	spaa_table_points_column(t, G_SHARE_NOISE);
	/* what the verdict weighs: a change and the noise it is judged against */
	for (size_t col = G_SHARE_CHANGE; col <= G_TOTAL_NOISE; col++)
		spaa_lami_table_keep_column(t, col);
	for (size_t i = 0; i < g->n; i++) {
		const struct spaa_gate_cond *c = &g->conds[i];
		struct crossing closest = { 0 };
		bool any = false;
		size_t n = 0;

		if (c->kind == SPAA_GATE_TOTAL) {
			x[n] = (struct crossing){ NULL, ttotal / btotal - 1,
						  spaa_gate_total_noise(nb, nt), 0 };
			x[n].verdict = spaa_gate_judge(c, x[n].change, x[n].noise);
			closest = x[n];
			any = true;
			n += x[n].verdict != SPAA_GATE_HELD;
		}
		for (uint32_t k = 1; c->kind == SPAA_GATE_SHARE && k < nkeys; k++) {
			uint64_t b = spaa_compare_get(&d->bside.fn_self, k);
			uint64_t tv = spaa_compare_get(&d->tside.fn_self, k);
			const char *name = spaa_compare_function_name(&d->keys, k);
			struct spaa_compare_delta dl;

			if ((!b && !tv) || !spaa_gate_applies(c, name))
				continue;
			spaa_compare_compute(&d->cmp, b, tv, &dl);
			x[n] = (struct crossing){
				name, dl.share_delta,
				spaa_gate_share_noise(dl.bshare, nb, dl.tshare, nt), 0,
			};
			x[n].verdict = spaa_gate_judge(c, x[n].change, x[n].noise);
			if (!any || c->sign * x[n].change > c->sign * closest.change)
				closest = x[n];
			any = true;
			n += x[n].verdict != SPAA_GATE_HELD;
		}
		qsort(x, n, sizeof(*x), crossing_cmp);
		for (size_t r = 0; r < n; r++) {
			gate_row(t, c, &x[r], true);
			tripped += x[r].verdict == SPAA_GATE_TRIPPED;
		}
		if (!n)
			gate_row(t, c, any ? &closest : NULL, false);
	}
	free(x);
	spaa_table_add(&d->tables, t);
	if (tripped) {
		d->run->status = SPAA_ANALYSIS_CONDITION;
		snprintf(d->run->status_note, sizeof(d->run->status_note),
			 "--fail-if: %zu row%s tripped a condition (see the gate table)",
			 tripped, tripped == 1 ? "" : "s");
	}
}

/* Names err's file: weights.c's messages do not say which side they are about. */
static int on_side(struct spaa_error *err, const char *path)
{
	snprintf(err->file, sizeof(err->file), "%s", path);
	return -1;
}

/*
 * The event and metric compared, by name on both sides: the baseline's
 * choice for that event was made when it was reduced.
 */
static int select_metric(struct diff *d, struct spaa_error *err)
{
	struct spaa_compare_base *b = &d->base;
	const struct spaa_profile *t = &d->target;
	const char *event = d->run->opts->event;
	char bl[256], tl[256];

	for (uint32_t i = 0; !event && i < b->nevents; i++)
		if (spaa_profile_find_event(t, b->events[i]) != SPAA_NONE)
			event = b->events[i];
	if (!event && b->nevents && t->nevents)
		return spaa_error_set(err, SPAA_E_USAGE,
				      "the baseline (events %s) and the target (events %s) have no event in common",
				      spaa_compare_base_event_list(b, bl, sizeof(bl)),
				      spaa_weights_event_list(t, SPAA_WEIGHTS_ANY_KIND, tl,
							      sizeof(tl)));
	d->bchoice = spaa_compare_base_choice(b, event);
	if (d->bchoice->unselectable) {
		*err = d->bchoice->err;
		return on_side(err, d->bpath);
	}
	if (spaa_weights_select(t, event, d->bchoice->metric, &d->tevent,
			       &d->tmetric, err))
		return on_side(err, d->tpath);
	d->run->left_out.records += d->bchoice->left_out.records;
	d->run->left_out.samples += d->bchoice->left_out.samples;
	spaa_weights_left_out_event(&d->run->left_out, t, d->tevent);
	d->bsem = d->bchoice->sem;
	spaa_metrics_semantics(t, d->tevent, d->tmetric,
			       spaa_metrics_unit(t, d->tevent, d->tmetric),
			       &d->tables.sem);
	return 0;
}

/* "a" or "a and 3 more": the first of n names, for a title. */
static const char *names(const char *const *v, size_t n, char *buf, size_t size)
{
	if (n > 1)
		snprintf(buf, size, "%s and %zu more", v[0], n - 1);
	else
		snprintf(buf, size, "%s", v[0]);
	return buf;
}

/*
 * DSOs that only one side has: renamed programs paired (or, with
 * --no-dso-pairing, what would pair them), else a hint at --dso-map.
 */
static int pair_dsos(struct diff *d, bool apply, struct spaa_error *err)
{
	struct spaa_compare_dsos dsos;
	struct spaa_sbuf said = { 0 };
	char b[512], tg[512];

	if (spaa_compare_pair_dsos(&d->keys, &d->bside, &d->tside, apply, &dsos, err)) {
		spaa_compare_dsos_release(&dsos);
		return -1;
	}
	/* a few, for people: a container of renamed libraries may pair hundreds */
	for (size_t i = 0; i < dsos.npairs && i < 3; i++) {
		const struct spaa_compare_dso_pair *p = &dsos.pairs[i];
		uint32_t most = p->nfrom > p->nto ? p->nfrom : p->nto;

		if (apply)
			spaa_sbuf_printf(&said, "%sbaseline DSO %s paired with target DSO %s, a renamed binary (%u of %u function names shared; --no-dso-pairing refuses)",
					 said.len ? "; " : "", p->from, p->to, p->common, most);
		else
			spaa_sbuf_printf(&said, "%sbaseline DSO %s and target DSO %s share %u of %u function names: --dso-map %s=%s matches them",
					 said.len ? "; " : "", p->from, p->to, p->common, most,
					 p->from, p->to);
	}
	if (dsos.npairs > 3)
		spaa_sbuf_printf(&said, "; %zu more DSO pairs %s", dsos.npairs - 3,
				 apply ? "paired alike" : "alike");
	if (dsos.nbase && dsos.ntarget)
		spaa_sbuf_printf(&said, "%sDSOs only in the baseline (%s) and only in the target (%s): --dso-map OLD=NEW matches a renamed one",
				 said.len ? "; " : "",
				 names(dsos.only_base, dsos.nbase, b, sizeof(b)),
				 names(dsos.only_target, dsos.ntarget, tg, sizeof(tg)));
	if (said.len) {
		spaa_table_what_add(&d->tables, "%s", said.s);
		d->dsos_said = spaa_sbuf_detach(&said);
	}
	spaa_compare_dsos_release(&dsos);
	return 0;
}

/*
 * Sums the target, from its samples in range with --begin/--end, beside
 * the baseline's sums of the event compared.
 */
static int aggregate(struct diff *d, const struct spaa_fold *fold,
		     enum spaa_compare_normalize mode, struct spaa_error *err)
{
	const struct spaa_filter *f = &d->run->opts->filter;
	bool restrict_time = spaa_filter_has_range(f);
	struct spaa_table *t = &d->tables;
	struct spaa_compare_choice *b;
	bool by_default;

	if (select_metric(d, err))
		return -1;
	b = d->bchoice;
	by_default = mode == SPAA_COMPARE_AUTO;
	if (by_default)
		mode = spaa_compare_default(d->tevent < d->target.nevents ?
					    d->target.events[d->tevent].kind :
					    SPAA_EV_SOFTWARE);
	spaa_table_set_range(t, f, &d->target);
	spaa_weights_describe(t->what, sizeof(t->what), b->event, b->primary,
			      b->metric);
	if (mode == SPAA_COMPARE_NONE)
		spaa_table_what_more(t, "raw weights compared%s",
				     by_default ? " (default for allocation events)" : "");
	else
		spaa_table_what_more(t, "shares compared, normalized delta = baseline scaled to target total%s",
				     by_default ? " (default for time profiles)" : "");
	if (*spaa_filter_describe(f, d->selected, sizeof(d->selected)))
		spaa_table_what_add(t, "%s in both profiles", d->selected);
	if (restrict_time)
		spaa_table_what_add(t, d->target.nsamples ?
				    "target restricted to --begin/--end, baseline whole" :
				    "whole profiles: the target has no sample records to restrict to --begin/--end");

	if (b->overflows) {
		*err = b->err;
		return -1;
	}
	spaa_aggregate_init(&d->tagg, &d->target);
	d->tagg.path_by_function = true;
	d->tagg.workers = spaa_load_threads(&d->run->load);
	if (restrict_time && d->target.nsamples ?
	    spaa_aggregate_add_fold(&d->tagg, fold, d->tevent, d->tmetric, f, err) :
	    spaa_aggregate_add_records(&d->tagg, d->tevent, d->tmetric, f, err))
		return -1;
	/* the sides need the target's names, no longer its stacks */
	if (spaa_compare_side_add_allocs(&d->tside, &d->keys, &d->target, f, err))
		return -1;
	spaa_profile_release_stacks(&d->target);
	if (spaa_compare_side_take_sum(&d->bside, &d->keys, &b->sum, err) ||
	    spaa_compare_side_add_agg(&d->tside, &d->keys, &d->tagg, err) ||
	    pair_dsos(d, !((const struct options *)d->run->options)->no_dso_pairing, err))
		return -1;
	if (restrict_time && d->target.nsamples && d->bside.total && !d->tside.total) {
		/* a selection between samples, not "everything vanished" */
		if (spaa_table_empty_window(t, f, &d->target, "the target", err))
			return -1;
		d->empty_window = true;
		return 0;
	}
	if (!d->bside.total || !d->tside.total)
		return spaa_error_at(err, SPAA_E_NO_DATA,
				     d->bside.total ? d->tpath : d->bpath, 0,
				     "no weight for event '%s', metric '%s'%s%s%s",
				     b->event, b->metric,
				     restrict_time && d->bside.total ? " in the time range" : "",
				     d->selected[0] ? " of " : "", d->selected);
	return spaa_compare_init(&d->cmp, mode, &d->bsem, d->bside.total,
				 &t->sem, d->tside.total, err);
}

/* The differential flame graph: every compared call path, target widths. */
static int write_svg(struct diff *d, const struct spaa_flamegraph_opts *opts,
		     struct spaa_error *err)
{
	const struct options *o = d->run->options;
	struct spaa_flamegraph *fg = spaa_flamegraph_new();
	struct spaa_flamegraph_opts svg = *opts;
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
	if (!svg.title)
		svg.title = title;
	svg.what = d->tables.what;
	svg.cmp = &d->cmp;
	ret = spaa_flamegraph_write_file(fg, &svg, o->svg, err);
	if (!ret)
		d->run->picture = o->svg;
out:
	spaa_flamegraph_free(fg);
	return ret;
}

/* BASELINE TARGET, or --baseline BASELINE TARGET. */
static int paths(struct diff *d, struct spaa_error *err)
{
	const struct spaa_option_args *a = &d->run->opts->paths;
	const char *baseline = ((const struct options *)d->run->options)->baseline;

	if (baseline) {
		if (a->nr != 1)
			return spaa_error_set(err, SPAA_E_USAGE,
					      "with '--baseline', expected one target profile, got %zu path%s (see --help)",
					      a->nr, a->nr == 1 ? "" : "s");
		d->bpath = baseline;
		d->tpath = a->items[0];
	} else {
		if (a->nr != 2)
			return spaa_error_set(err, SPAA_E_USAGE,
					      "expected a baseline and a target profile, got %zu path%s (see --help)",
					      a->nr, a->nr == 1 ? "" : "s");
		d->bpath = a->items[0];
		d->tpath = a->items[1];
	}
	if (!strcmp(d->bpath, "-") && !strcmp(d->tpath, "-"))
		return spaa_error_set(err, SPAA_E_USAGE,
				      "the baseline and the target cannot both be standard input");
	return 0;
}

/* --test-compatibility: a run with a --baseline that fails to load would fail. */
static int diff_probe_options(const void *opts, struct spaa_error *err)
{
	const struct options *o = opts;
	struct spaa_load_opts quiet = { 0 };
	struct spaa_profile base;
	int ret = 0;

	if (!o->baseline)
		return 0;
	spaa_profile_init(&base);
	if (spaa_load_limits_env(&quiet, err) ||
	    spaa_load(&base, &o->baseline, 1, &quiet, err))
		ret = -1;
	spaa_profile_release(&base);
	return ret;
}

static int diff_run(struct spaa_analysis_run *run, struct spaa_error *err)
{
	const struct spaa_analysis_opts *lo = run->opts;
	const struct options *o = run->options;
	struct spaa_load_opts blo = run->load, tlo = run->load;
	struct spaa_profile base;
	struct spaa_fold fold;
	struct diff *d = spaa_xcalloc(1, sizeof(*d));
	struct spaa_flamegraph_opts svg = { 0 };
	struct spaa_gate gate = { 0 };
	int ret = -1;

	d->run = run;
	spaa_profile_init(&base);
	spaa_profile_init(&d->target);
	spaa_table_init(&d->tables, &run->results, lo->limit);
	spaa_compare_keys_init(&d->keys, o->dso_map.items, o->dso_map.nr);
	spaa_compare_side_init(&d->bside, true);
	spaa_compare_side_init(&d->tside, false);
	spaa_fold_init(&fold, &lo->filter);
	/* the target's records hold its whole sums: samples only restrict them */
	if (spaa_filter_has_range(&lo->filter)) {
		tlo.on_sample = spaa_fold_on_sample;
		tlo.data = &fold;
	}
	if (paths(d, err) ||
	    spaa_gate_parse(&gate, o->fail_if.items, o->fail_if.nr, err) ||
	    spaa_flamegraph_args_check(o->svg, &o->svg_args, &svg, err) ||
	    spaa_compare_dso_map_check(o->dso_map.items, o->dso_map.nr, err) ||
	    spaa_compare_load(&base, d->bpath, 0, 2, &blo, err))
		goto out;
	/*
	 * Two models would share the peak of memory: the baseline's goes
	 * before the target's is loaded.  What the comparison reads of it
	 * stays: its allocation sums, and its sums of each event it may be
	 * compared under (the target decides which).
	 */
	spaa_header_profile(&run->header, "Baseline", &base, d->bpath, NULL);
	if (side_selects(&lo->filter, &base, "baseline", d->bpath, err) ||
	    spaa_compare_side_add_allocs(&d->bside, &d->keys, &base, &lo->filter, err))
		goto out;
	spaa_compare_base_init(&d->base, &d->keys, &base, lo->event, lo->metric,
			       &lo->filter);
	spaa_profile_release(&base);
	if (spaa_compare_load(&d->target, d->tpath, 1, 2, &tlo, err) ||
	    side_selects(&lo->filter, &d->target, "target", d->tpath, err) ||
	    aggregate(d, &fold, o->normalize, err))
		goto out;
	/* the totals and the way they compare are in the summary table */
	spaa_header_profile(&run->header, "Target", &d->target, d->tpath, &d->tables);
	spaa_header_weights(&run->header, &d->tables, NULL, 0, NULL);
	if (d->selected[0])
		spaa_header_add(&run->header, "Selected", "%s, in both profiles", d->selected);
	if (d->dsos_said)
		spaa_header_add(&run->header, "DSOs", "%s", d->dsos_said);
	/*
	 * The tables and the graph read only the compared sides and their
	 * keys (names copied): what built them goes before the rows come.
	 */
	spaa_aggregate_release(&d->tagg);
	spaa_fold_release(&fold);
	spaa_profile_release(&d->target);
	spaa_compare_base_release(&d->base);

	if (d->empty_window) {
		/* the tables a window with samples would have, no more */
		for (size_t c = 0; c < sizeof(classes) / sizeof(classes[0]); c++)
			if ((c != T_ALLOCS || (d->bside.has_alloc && d->tside.has_alloc)) &&
			    (c != T_GATE || gate.n))
				spaa_table_add_empty(&d->tables, &classes[c]);
		ret = 0;
		goto out;
	}
	/* the graph first: its tree goes before the tables are built */
	if (o->svg && write_svg(d, &svg, err))
		goto out;
	functions_table(d, T_FUNCTIONS, &d->bside.fn_self, &d->tside.fn_self);
	functions_table(d, T_INCLUSIVE, &d->bside.fn_total, &d->tside.fn_total);
	stacks_table(d);
	if (d->bside.has_alloc && d->tside.has_alloc)
		allocs_table(d);
	summary_table(d);
	if (gate.n)
		gate_table(d, &gate);
	ret = 0;
out:
	spaa_gate_release(&gate);
	spaa_aggregate_release(&d->tagg);
	spaa_compare_side_release(&d->bside);
	spaa_compare_side_release(&d->tside);
	spaa_compare_base_release(&d->base);
	spaa_compare_keys_release(&d->keys);
	spaa_fold_release(&fold);
	spaa_profile_release(&base);
	spaa_profile_release(&d->target);
	free(d->dsos_said);
	free(d);
	return ret;
}

const struct spaa_analysis spaa_analysis_diff = {
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
	.options_size = sizeof(struct options),
	.flags = SPAA_ANALYSIS_TWO_INPUTS | SPAA_ANALYSIS_EVENT | SPAA_ANALYSIS_THREADS |
		 SPAA_ANALYSIS_STACKS | SPAA_ANALYSIS_PERCENT,
	.run = diff_run,
	.compatible = spaa_analysis_need_stacks,
	.probe_options = diff_probe_options,
};
