/*
 * spaa-hotspots: where does the time (or the events) go?
 *
 * One event of the profile, one of its metrics (by default the header's
 * first event and its primary metric; several events are never mixed
 * into one total).  Every stack of that event adds its weight:
 *   - self to the function of its leaf (or of its exclusive frame), total
 *     to every function on it, once even when the function recurses;
 *   - to its call path, to its thread and to its CPU;
 *   - self, again, to the DSO of the leaf function.
 * The tables rank these by weight, with each weight's share of the event
 * total.  Weights are shown in the class their metric means (durations
 * for clocks, numbers in "cycles" for counters, sizes for bytes).
 *
 * With --net, for a metric M that SPX split in two (M the positive
 * parts, "M-" the magnitudes of the negative ones, spx_reader.h), M and
 * M- are summed into two aggregates with the same keys and every weight
 * shown is M - (M-), a signed number: the net change of memory over a
 * call.  Shares are then of the net total, unknown when it is not
 * positive.
 *
 * --sort orders the functions table by another key, --percent-limit
 * leaves out the rows of a small share of the total, --inverted writes
 * the call paths leaf first.  --callers/--callees add the edges between
 * the functions they match and those just above or below them on the
 * stacks (callgraph.h), as pprof's -peek shows them.
 *
 * With --begin/--end the stack records are not used: the sample records
 * inside the range are folded instead (see aggregate.h).  A profile
 * without sample records cannot be cut in time; the tables then cover
 * the whole profile and their titles say so.
 */
#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/aggregate.h"
#include "analysis/callgraph.h"
#include "model/units.h"
#include "model/util.h"
#include "report/analysis.h"
#include "report/flamegraph.h"
#include "report/table.h"

enum { SORT_SELF, SORT_TOTAL, SORT_SAMPLES, SORT_NAME };

static const char *const sort_keys[] = { "self", "total", "samples", "name", NULL };

/* what the functions table is ordered by, in its title */
static const char *const sort_titles[] = {
	"self weight", "total weight", "self samples", "name",
};

struct options {
	bool net;
	const char *svg;
	struct spaa_flamegraph_args svg_args;
	int sort;               /* SORT_* */
	const char *callers, *callees;  /* REGEX, or NULL */
	bool inverted;
};

#define AT(field) offsetof(struct options, field)

static const struct spaa_option options[] = {
	{ "sort", 's', SPAA_OPTION_CHOICE, AT(sort), "KEY",
	  "order of the functions table: self (default), total, samples or name",
	  sort_keys, NULL },
	{ "callers", 0, SPAA_OPTION_STRING, AT(callers), "REGEX",
	  "add a table of the immediate callers of the functions matching REGEX",
	  NULL, NULL },
	{ "callees", 0, SPAA_OPTION_STRING, AT(callees), "REGEX",
	  "add a table of the functions those matching REGEX call directly",
	  NULL, NULL },
	{ "inverted", 'G', SPAA_OPTION_FLAG, AT(inverted), NULL,
	  "hot call paths leaf first (callers of the hottest code)", NULL, NULL },
	{ "net", 0, SPAA_OPTION_FLAG, AT(net), NULL,
	  "net weights, metric minus its negative part METRIC- (SPX zm, mu, ...)",
	  NULL, NULL },
	{ "svg", 0, SPAA_OPTION_STRING, offsetof(struct options, svg), "FILE",
	  "also write a flame graph with an inverted view (SVG) to FILE", NULL, NULL },
	SPAA_FLAMEGRAPH_OPTIONS(struct options, svg_args),
	{ NULL, 0, 0, 0, NULL, NULL, NULL, NULL },
};

enum { T_FUNCTIONS, T_STACKS, T_THREADS, T_CPUS, T_DSOS, T_CALLERS, T_CALLEES };

/* Mixed columns hold the weights, in the class of the metric (table.h). */
static const struct spaa_lami_column functions_cols[] = {
	{ "Function", SPAA_LAMI_STRING, NULL },
	{ "DSO", SPAA_LAMI_PATH, NULL },
	{ "Self", SPAA_LAMI_MIXED, NULL },
	{ "Self share", SPAA_LAMI_RATIO, NULL },
	{ "Total", SPAA_LAMI_MIXED, NULL },
	{ "Total share", SPAA_LAMI_RATIO, NULL },
	{ "Self samples", SPAA_LAMI_INT, NULL },
	{ "Calls", SPAA_LAMI_INT, NULL },
};

static const struct spaa_lami_column stacks_cols[] = {
	{ "Call path", SPAA_LAMI_STRING, NULL },
	{ "Weight", SPAA_LAMI_MIXED, NULL },
	{ "Share", SPAA_LAMI_RATIO, NULL },
};

static const struct spaa_lami_column threads_cols[] = {
	{ "Process", SPAA_LAMI_PROCESS, NULL },
	{ "Weight", SPAA_LAMI_MIXED, NULL },
	{ "Share", SPAA_LAMI_RATIO, NULL },
	{ "Hottest function", SPAA_LAMI_STRING, NULL },
};

static const struct spaa_lami_column cpus_cols[] = {
	{ "CPU", SPAA_LAMI_CPU, NULL },
	{ "Weight", SPAA_LAMI_MIXED, NULL },
	{ "Share", SPAA_LAMI_RATIO, NULL },
};

static const struct spaa_lami_column dsos_cols[] = {
	{ "DSO", SPAA_LAMI_PATH, NULL },
	{ "Self", SPAA_LAMI_MIXED, NULL },
	{ "Share", SPAA_LAMI_RATIO, NULL },
};

static const struct spaa_lami_column callers_cols[] = {
	{ "Function", SPAA_LAMI_STRING, NULL },
	{ "Caller", SPAA_LAMI_STRING, NULL },
	{ "Weight", SPAA_LAMI_MIXED, NULL },
	{ "Share of function", SPAA_LAMI_RATIO, NULL },
};

static const struct spaa_lami_column callees_cols[] = {
	{ "Function", SPAA_LAMI_STRING, NULL },
	{ "Callee", SPAA_LAMI_STRING, NULL },
	{ "Weight", SPAA_LAMI_MIXED, NULL },
	{ "Share of function", SPAA_LAMI_RATIO, NULL },
};

#define COLS(c) c, sizeof(c) / sizeof(c[0])

static const struct spaa_lami_table_class classes[] = {
	[T_FUNCTIONS] = { "functions", "Functions by self weight", COLS(functions_cols) },
	[T_STACKS] = { "stacks", "Hot call paths", COLS(stacks_cols) },
	[T_THREADS] = { "threads", "Weight per process and thread", COLS(threads_cols) },
	[T_CPUS] = { "cpus", "Weight per CPU", COLS(cpus_cols) },
	[T_DSOS] = { "dsos", "Self weight per DSO", COLS(dsos_cols) },
	[T_CALLERS] = { "callers", "Immediate callers", COLS(callers_cols) },
	[T_CALLEES] = { "callees", "Immediate callees", COLS(callees_cols) },
};

/* Everything one run needs to fill its tables. */
struct hotspots {
	struct spaa_analysis_run *run;
	const struct spaa_profile *p;
	struct spaa_table tables;       /* title, range, weights: of every table */
	struct spaa_aggregate agg;
	struct spaa_aggregate cpu_agg;  /* from samples, when records lack CPUs */
	struct spaa_aggregate neg, cpu_neg;     /* --net: the twin metric's, same keys */
	struct spaa_callgraph calls;    /* --callers, --callees */
	struct spaa_aggregate entries;  /* metric "calls" (SPX), when has_calls */
	bool has_calls;
	uint32_t event, metric, twin;
};

/*
 * A weight as the tables show it: pos alone, or with --net pos - neg of
 * the same key in the twin aggregate (n, NULL without --net).
 */
struct weight {
	uint64_t pos, neg;
};

#define W(a, n, field, i) ((struct weight){ (a)->field[i], (n) ? (n)->field[i] : 0 })
#define W_TOTAL(a, n) ((struct weight){ (a)->total, (n) ? (n)->total : 0 })

static const struct spaa_aggregate *neg_of(const struct hotspots *h,
					   const struct spaa_aggregate *a)
{
	if (!h->tables.net)
		return NULL;
	return a == &h->agg ? &h->neg : &h->cpu_neg;
}

static bool nonzero(struct weight w)
{
	return w.pos || w.neg;
}

/* Ranks as the cell reads: descending weight, net weights signed. */
static uint64_t key(const struct hotspots *h, struct weight w)
{
	return h->tables.net ? spaa_weights_net_key(spaa_weights_net(w.pos, w.neg)) : w.pos;
}

/* The weight cell of w and its share of the total of a (and na). */
static void weight_cells(const struct hotspots *h, struct spaa_lami_table *t,
			 struct weight w, const struct spaa_aggregate *a,
			 const struct spaa_aggregate *na)
{
	struct weight whole = W_TOTAL(a, na);

	spaa_table_weight(&h->tables, t, w.pos, w.neg);
	spaa_table_share(&h->tables, t, w.pos, w.neg, whole.pos, whole.neg);
}

/* --percent-limit: whether w is at least P % of the total of a (and na). */
static bool shown(const struct hotspots *h, struct weight w,
		  const struct spaa_aggregate *a, const struct spaa_aggregate *na)
{
	struct weight whole = W_TOTAL(a, na);

	return spaa_filter_percent(h->run->opts->percent_limit,
				   (double)w.pos - (double)w.neg,
				   (double)whole.pos - (double)whole.neg);
}

/* The rank of function f of a (and na) by the key of --sort. */
static struct spaa_rank function_rank(const struct hotspots *h, uint32_t f,
				      const struct spaa_aggregate *a,
				      const struct spaa_aggregate *na)
{
	const struct options *own = h->run->options;
	uint64_t self = key(h, W(a, na, fn_self, f)), total = key(h, W(a, na, fn_total, f));
	struct spaa_rank r = { self, total, spaa_profile_str(h->p, h->p->functions[f].name), f, f };

	if (own->sort == SORT_TOTAL) {
		r.key = total;
		r.key2 = self;
	} else if (own->sort == SORT_SAMPLES) {
		r.key = a->fn_samples[f];
		r.key2 = self;
	} else if (own->sort == SORT_NAME) {
		r.key = r.key2 = 0;
	}
	return r;
}

static void functions_table(struct hotspots *h)
{
	const struct spaa_profile *p = h->p;
	const struct options *own = h->run->options;
	const struct spaa_aggregate *a = &h->agg, *na = neg_of(h, a);
	uint32_t nfn = spaa_profile_nfunctions(p);
	struct spaa_rank *rank = spaa_xmalloc((nfn + 1) * sizeof(*rank));
	struct spaa_lami_table *t = spaa_table_new(&h->tables, &classes[T_FUNCTIONS], NULL);
	size_t n = 0;

	if (own->sort != SORT_SELF)
		spaa_lami_table_set_title(t, "Functions by %s (%s)", sort_titles[own->sort],
					  h->tables.what);
	for (uint32_t f = 0; f < nfn; f++)
		if ((nonzero(W(a, na, fn_total, f)) || nonzero(W(a, na, fn_self, f))) &&
		    shown(h, own->sort == SORT_TOTAL ? W(a, na, fn_total, f) :
			  W(a, na, fn_self, f), a, na))
			rank[n++] = function_rank(h, f, a, na);
	spaa_rank_sort(rank, n);
	for (size_t i = 0; i < spaa_table_rows(&h->tables, n); i++) {
		uint32_t f = rank[i].idx;

		spaa_lami_row_begin(t);
		spaa_lami_cell_string(t, spaa_profile_str(p, p->functions[f].name));
		spaa_lami_cell_path(t, spaa_profile_str(p, p->dsos[p->functions[f].dso].name));
		weight_cells(h, t, W(a, na, fn_self, f), a, na);
		weight_cells(h, t, W(a, na, fn_total, f), a, na);
		if (a->samples_known)
			spaa_lami_cell_u64(t, SPAA_LAMI_CELL_INT, a->fn_samples[f]);
		else
			spaa_lami_cell_unknown(t);
		if (h->has_calls)
			spaa_lami_cell_u64(t, SPAA_LAMI_CELL_INT, h->entries.fn_self[f]);
		else
			spaa_lami_cell_unknown(t);
		spaa_lami_row_end(t);
	}
	free(rank);
	spaa_table_add(&h->tables, t);
}

/* The ranked call paths, whose rows threads make (stack_rows). */
struct stack_rows {
	const struct hotspots *h;
	const struct spaa_rank *rank;
};

/* Rows lo to hi - 1 of the stacks table: only reads what threads share. */
static void stack_rows(void *ctx, struct spaa_lami_table *t, size_t lo, size_t hi)
{
	const struct stack_rows *s = ctx;
	const struct hotspots *h = s->h;
	const struct options *own = h->run->options;
	const struct spaa_aggregate *a = &h->agg, *na = neg_of(h, a);

	for (size_t i = lo; i < hi; i++) {
		uint32_t path = s->rank[i].idx;
		size_t len = spaa_aggregate_path_name_len(a, path);

		spaa_lami_row_begin(t);
		spaa_aggregate_path_name_to(a, path, own->inverted,
					    spaa_lami_cell_string_room(t, len));
		weight_cells(h, t, W(a, na, path_weight, path), a, na);
		spaa_lami_row_end(t);
	}
}

static void stacks_table(struct hotspots *h)
{
	const struct options *own = h->run->options;
	const struct spaa_aggregate *a = &h->agg, *na = neg_of(h, a);
	uint32_t npaths = a->paths.nr;
	struct spaa_rank *rank = spaa_xmalloc((npaths + 1) * sizeof(*rank));
	struct spaa_lami_table *t = own->inverted ?
		spaa_table_new(&h->tables, &classes[T_STACKS], "leaf first") :
		spaa_table_new(&h->tables, &classes[T_STACKS], NULL);
	struct stack_rows rows = { h, rank };
	size_t n = 0;

	/* path 0 is the empty sequence of the string table, never a stack */
	for (uint32_t i = 1; i < npaths; i++)
		if (nonzero(W(a, na, path_weight, i)) && shown(h, W(a, na, path_weight, i), a, na))
			rank[n++] = (struct spaa_rank){
				key(h, W(a, na, path_weight, i)), 0, NULL, i, i,
			};
	spaa_aggregate_rank_paths(a, rank, n);
	/* a row for every stack of a profile: the load's threads make them */
	spaa_lami_table_fill(t, spaa_table_rows(&h->tables, n), spaa_load_threads(&h->run->load),
			     stack_rows, &rows);
	free(rank);
	spaa_table_add(&h->tables, t);
}

/* The function with the most self weight in each thread. */
static uint32_t *hottest_per_thread(const struct hotspots *h)
{
	const struct spaa_aggregate *a = &h->agg, *na = neg_of(h, a);
	uint32_t *best = spaa_xmalloc((a->threads.nr + 1) * sizeof(*best));

	for (uint32_t t = 0; t < a->threads.nr; t++)
		best[t] = SPAA_NONE;
	for (uint32_t i = 0; i < a->thread_fn.nr; i++) {
		const uint32_t *k = spaa_map_key(&a->thread_fn, i);   /* thread, fn */
		uint32_t cur = best[k[0]];
		uint64_t w = key(h, W(a, na, thread_fn_self, i));
		uint64_t wcur = cur == SPAA_NONE ? 0 : key(h, W(a, na, thread_fn_self, cur));

		if (cur == SPAA_NONE || w > wcur ||
		    (w == wcur &&
		     strcmp(spaa_profile_str(h->p, h->p->functions[k[1]].name),
			    spaa_profile_str(h->p, h->p->functions[((const uint32_t *)
				spaa_map_key(&a->thread_fn, cur))[1]].name)) < 0))
			best[k[0]] = i;
	}
	return best;
}

static void threads_table(struct hotspots *h)
{
	const struct spaa_profile *p = h->p;
	const struct spaa_aggregate *a = &h->agg, *na = neg_of(h, a);
	struct spaa_rank *rank = spaa_xmalloc((a->threads.nr + 1) * sizeof(*rank));
	uint32_t *best = hottest_per_thread(h);
	struct spaa_lami_table *t = spaa_table_new(&h->tables, &classes[T_THREADS], NULL);
	size_t n = 0;

	for (uint32_t i = 0; i < a->threads.nr; i++) {
		const int64_t *k = spaa_map_key(&a->threads, i);       /* pid, tid */

		if (shown(h, W(a, na, thread_weight, i), a, na))
			rank[n++] = (struct spaa_rank){
				key(h, W(a, na, thread_weight, i)), 0, NULL, k[1], i,
			};
	}
	spaa_rank_sort(rank, n);
	for (size_t i = 0; i < spaa_table_rows(&h->tables, n); i++) {
		uint32_t th = rank[i].idx;
		const int64_t *k = spaa_map_key(&a->threads, th);

		spaa_lami_row_begin(t);
		spaa_table_process_cell(t, p, k[0], k[1], a->thread_comm[th]);
		weight_cells(h, t, W(a, na, thread_weight, th), a, na);
		if (best[th] == SPAA_NONE ||
		    !nonzero(W(a, na, thread_fn_self, best[th]))) {
			spaa_lami_cell_unknown(t);
		} else {
			const uint32_t *fk = spaa_map_key(&a->thread_fn, best[th]);

			spaa_lami_cell_string(t, spaa_profile_str(p, p->functions[fk[1]].name));
		}
		spaa_lami_row_end(t);
	}
	free(best);
	free(rank);
	spaa_table_add(&h->tables, t);
}

static void cpus_table(struct hotspots *h, const struct spaa_aggregate *a)
{
	const struct spaa_aggregate *na = neg_of(h, a);
	struct spaa_rank *rank = spaa_xmalloc((a->cpus.nr + 1) * sizeof(*rank));
	struct spaa_lami_table *t = a == &h->agg ?
		spaa_table_new(&h->tables, &classes[T_CPUS], NULL) :
		spaa_table_new(&h->tables, &classes[T_CPUS],
			       "CPUs as the sample records give them, shares of the sampled weight");

	size_t n = 0;

	for (uint32_t i = 0; i < a->cpus.nr; i++)
		if (shown(h, W(a, na, cpu_weight, i), a, na))
			rank[n++] = (struct spaa_rank){
				key(h, W(a, na, cpu_weight, i)), 0, NULL,
				*(const int64_t *)spaa_map_key(&a->cpus, i), i,
			};
	spaa_rank_sort(rank, n);
	for (size_t i = 0; i < spaa_table_rows(&h->tables, n); i++) {
		spaa_lami_row_begin(t);
		spaa_lami_cell_cpu(t, rank[i].tie);
		weight_cells(h, t, W(a, na, cpu_weight, rank[i].idx), a, na);
		spaa_lami_row_end(t);
	}
	free(rank);
	spaa_table_add(&h->tables, t);
}

static void dsos_table(struct hotspots *h)
{
	const struct spaa_profile *p = h->p;
	const struct spaa_aggregate *a = &h->agg, *na = neg_of(h, a);
	uint32_t ndso = spaa_profile_ndsos(p);
	struct spaa_rank *rank = spaa_xmalloc((ndso + 1) * sizeof(*rank));
	struct spaa_lami_table *t = spaa_table_new(&h->tables, &classes[T_DSOS], NULL);
	size_t n = 0;

	for (uint32_t d = 0; d < ndso; d++)
		if (nonzero(W(a, na, dso_self, d)) && shown(h, W(a, na, dso_self, d), a, na))
			rank[n++] = (struct spaa_rank){
				key(h, W(a, na, dso_self, d)), 0,
				spaa_profile_str(p, p->dsos[d].name), d, d,
			};
	spaa_rank_sort(rank, n);
	for (size_t i = 0; i < spaa_table_rows(&h->tables, n); i++) {
		spaa_lami_row_begin(t);
		spaa_lami_cell_path(t, rank[i].name);
		weight_cells(h, t, W(a, na, dso_self, rank[i].idx), a, na);
		spaa_lami_row_end(t);
	}
	free(rank);
	spaa_table_add(&h->tables, t);
}

/*
 * --callers or --callees: the edges of one side, grouped by function,
 * the function of most total weight first, then the heaviest edge.
 */
static void calls_table(struct hotspots *h, uint32_t side, const char *regex)
{
	const struct spaa_profile *p = h->p;
	const struct spaa_aggregate *a = &h->agg;
	const struct spaa_callgraph *cg = &h->calls;
	uint32_t nfn = spaa_profile_nfunctions(p), ne = cg->edges.nr;
	struct spaa_rank *fns = spaa_xmalloc((nfn + 1) * sizeof(*fns));
	struct spaa_rank *rank = spaa_xmalloc(((size_t)ne + 1) * sizeof(*rank));
	uint32_t *pos = spaa_xmalloc((nfn + 1) * sizeof(*pos));
	int cls = side == SPAA_CALLGRAPH_CALLER ? T_CALLERS : T_CALLEES;
	struct spaa_lami_table *t = spaa_table_new(&h->tables, &classes[cls],
						   "functions matching '%s'", regex);
	size_t nf = 0, n = 0;

	for (uint32_t f = 0; f < nfn; f++)
		if (cg->chosen[f])
			fns[nf++] = (struct spaa_rank){
				a->fn_total[f], 0, spaa_profile_str(p, p->functions[f].name), f, f,
			};
	spaa_rank_sort(fns, nf);
	for (size_t i = 0; i < nf; i++)
		pos[fns[i].idx] = (uint32_t)i;
	for (uint32_t i = 0; i < ne; i++) {
		const struct spaa_callgraph_edge *e = spaa_callgraph_edge(cg, i);

		if (e->side == side && cg->weight[i])
			rank[n++] = (struct spaa_rank){
				UINT64_MAX - pos[e->fn], cg->weight[i],
				spaa_profile_str(p, p->functions[e->other].name), e->other, i,
			};
	}
	spaa_rank_sort(rank, n);
	for (size_t i = 0; i < spaa_table_rows(&h->tables, n); i++) {
		const struct spaa_callgraph_edge *e = spaa_callgraph_edge(cg, rank[i].idx);

		spaa_lami_row_begin(t);
		spaa_lami_cell_string(t, spaa_profile_str(p, p->functions[e->fn].name));
		spaa_lami_cell_string(t, rank[i].name);
		spaa_table_weight(&h->tables, t, rank[i].key2, 0);
		spaa_table_share_cell(t, rank[i].key2, a->fn_total[e->fn]);
		spaa_lami_row_end(t);
	}
	free(pos);
	free(rank);
	free(fns);
	spaa_table_add(&h->tables, t);
}

/*
 * Compiles --callers and --callees and chooses their functions, whose
 * edges h->agg then sums; a usage error for a regex that does not
 * compile, or with --net.
 */
static int choose_calls(struct hotspots *h, struct spaa_error *err)
{
	const struct options *own = h->run->options;
	const char *res[2] = { own->callers, own->callees };
	const char *names[2] = { "callers", "callees" };
	regex_t re[2];
	int nre = 0, ret = -1;

	if (!own->callers && !own->callees)
		return 0;
	if (own->net)
		return spaa_error_set(err, SPAA_E_USAGE,
				      "'--%s' weighs calls, not the signed nets of '--net'",
				      own->callers ? "callers" : "callees");
	for (; nre < 2; nre++)
		if (res[nre] && regcomp(&re[nre], res[nre], REG_EXTENDED | REG_NOSUB)) {
			spaa_error_set(err, SPAA_E_USAGE,
				       "invalid value '%s' for '--%s' (a POSIX extended regular expression)",
				       res[nre], names[nre]);
			goto out;
		}
	spaa_callgraph_init(&h->calls, h->p, res[0] ? &re[0] : NULL, res[1] ? &re[1] : NULL);
	h->agg.edges = &h->calls;
	ret = 0;
out:
	while (nre-- > 0)
		if (res[nre])
			regfree(&re[nre]);
	return ret;
}

/*
 * Adds the chosen metric to a, from the records or from the samples in
 * range; with --net also its twin to n.  Each of the two sees both
 * metrics' occurrences, in the same order, the other's as keys only, so
 * their paths, threads and CPUs have the same indices.
 */
static int add_metric(struct hotspots *h, struct spaa_aggregate *a,
		      struct spaa_aggregate *n, const struct spaa_fold *fold,
		      struct spaa_error *err)
{
	const struct spaa_filter *f = &h->run->opts->filter;
	const uint32_t metrics[2] = { h->metric, h->twin };
	struct spaa_aggregate *aggs[2] = { a, n };
	int nr = h->tables.net ? 2 : 1;

	for (int m = 0; m < nr; m++)
		for (int g = 0; g < nr; g++) {
			aggs[g]->keys_only = g != m;
			if (fold ? spaa_aggregate_add_fold(aggs[g], fold, h->event,
							   metrics[m], f, err)
				 : spaa_aggregate_add_records(aggs[g], h->event,
							      metrics[m], f, err))
				return -1;
		}
	return 0;
}

/*
 * The calls of each function, when the records count them (SPX: metric
 * "calls", the entries of each path, spx_reader.h): the self sums of
 * that metric.  Records only: calls cannot be cut in time.
 */
static int add_calls(struct hotspots *h, struct spaa_error *err)
{
	const struct spaa_profile *p = h->p;
	uint32_t calls = spaa_strtab_find(&p->strings, "calls", 5);

	if (calls == SPAA_NONE || !spaa_profile_total(p, h->event, calls))
		return 0;
	h->has_calls = true;
	spaa_aggregate_init(&h->entries, p);
	return spaa_aggregate_add_records(&h->entries, h->event, calls,
					  &h->run->opts->filter, err);
}

/* Resolves --net: the chosen metric's twin "M-", or a usage error. */
static int select_twin(struct hotspots *h, struct spaa_error *err)
{
	const struct spaa_profile *p = h->p;

	h->twin = spaa_weights_twin(p, h->event, h->metric);
	if (h->twin != SPAA_NONE) {
		h->tables.net = true;
		return 0;
	}
	return spaa_error_set(err, SPAA_E_USAGE,
			      "--net: event '%s' has no metric '%s-' (the negative "
			      "part of '%s'; without one, '%s' needs no netting)",
			      spaa_profile_str(p, p->events[h->event].name),
			      spaa_profile_str(p, h->metric), spaa_profile_str(p, h->metric),
			      spaa_profile_str(p, h->metric));
}

/* Sums the chosen event and metric, from records or from samples in range. */
static int aggregate(struct hotspots *h, const struct spaa_fold *fold,
		     struct spaa_error *err)
{
	const struct spaa_profile *p = h->p;
	const struct spaa_analysis_opts *o = h->run->opts;
	const struct options *own = h->run->options;
	bool restrict_time = spaa_filter_has_range(&o->filter);
	struct spaa_table *t = &h->tables;

	if (spaa_weights_select(p, o->event, o->metric, &h->event, &h->metric, err) ||
	    (own->net && select_twin(h, err)))
		return -1;
	spaa_metrics_semantics(p, h->event, h->metric,
			       spaa_metrics_unit(p, h->event, h->metric), &t->sem);
	spaa_table_set_range(t, &o->filter, p);
	spaa_weights_describe(t->what, sizeof(t->what),
			      spaa_profile_str(p, p->events[h->event].name),
			      h->metric == p->events[h->event].primary_metric,
			      spaa_profile_str(p, h->metric));
	if (t->net)
		spaa_table_what_more(t, "net: '%s' - '%s', shares of the net total where they are "
				    "between 0 and 100 %%", spaa_profile_str(p, h->metric),
				    spaa_profile_str(p, h->twin));
	spaa_table_what_filter(t, &o->filter);

	spaa_aggregate_init(&h->agg, p);
	h->agg.workers = spaa_load_threads(&h->run->load);
	if (t->net) {
		spaa_aggregate_init(&h->neg, p);
		h->neg.workers = h->agg.workers;
	}
	if (choose_calls(h, err))
		return -1;
	if (restrict_time && p->nsamples)
		return add_metric(h, &h->agg, &h->neg, fold, err);
	if (restrict_time)
		spaa_table_what_add(t, SPAA_FILTER_WHOLE_PROFILE);
	if (add_metric(h, &h->agg, &h->neg, NULL, err) || add_calls(h, err))
		return -1;
	/* records rarely say which CPU ran them; samples often do */
	if (h->agg.cpus_known || !p->nsamples)
		return 0;
	spaa_aggregate_init(&h->cpu_agg, p);
	h->cpu_agg.cpus_only = true;
	if (t->net) {
		spaa_aggregate_init(&h->cpu_neg, p);
		h->cpu_neg.cpus_only = true;
	}
	return add_metric(h, &h->cpu_agg, &h->cpu_neg, fold, err);
}

/*
 * The text header: the profile, what is weighed and its total, with the
 * calls (SPX) or samples the sums counted (else the profile's samples,
 * when nothing is filtered out).
 */
static void describe(struct hotspots *h)
{
	const struct spaa_analysis_opts *o = h->run->opts;
	const struct spaa_filter *f = &o->filter;
	uint64_t n = SPAA_HEADER_NO_SAMPLES;

	spaa_header_profile(&h->run->header, "Profile", h->p, o->paths.items[0], &h->tables);
	if (h->has_calls) {
		spaa_header_weights(&h->run->header, &h->tables, &h->agg.total,
				    h->entries.total, "calls");
		return;
	}
	if (h->agg.samples_known && h->agg.occurrences) {
		n = 0;
		for (size_t i = 0; i < spaa_profile_nfunctions(h->p); i++)
			n += h->agg.fn_samples[i];
	} else if (!spaa_filter_has_range(f) && f->pid == SPAA_NO_ID &&
		   f->tid == SPAA_NO_ID) {
		n = spaa_header_samples(h->p, h->event);
	}
	spaa_header_weights(&h->run->header, &h->tables, &h->agg.total, n, "samples");
}

/*
 * --svg: the flame graph of the call paths summed (so --begin/--end and
 * --pid/--tid apply), and the same paths leaf first as the inverted view.
 */
static int write_svg(struct hotspots *h, const struct spaa_flamegraph_opts *opts,
		     struct spaa_error *err)
{
	const struct options *own = h->run->options;
	struct spaa_flamegraph *fg = spaa_flamegraph_new(), *inv = spaa_flamegraph_new();
	struct spaa_flamegraph_opts o = *opts;
	char title[2048];
	int ret = -1;

	if (spaa_flamegraph_add_paths(fg, &h->agg, false, err) ||
	    spaa_flamegraph_add_paths(inv, &h->agg, true, err))
		goto out;
	snprintf(title, sizeof(title), "Flame graph of %s", h->run->opts->paths.items[0]);
	if (!o.title)
		o.title = title;
	o.what = h->tables.what;
	o.sem = &h->tables.sem;
	o.inverted = inv;
	ret = spaa_flamegraph_write_file(fg, &o, own->svg, err);
	if (!ret)
		h->run->picture = own->svg;
out:
	spaa_flamegraph_free(fg);
	spaa_flamegraph_free(inv);
	return ret;
}

static int hotspots_run(struct spaa_analysis_run *run, struct spaa_error *err)
{
	const struct spaa_analysis_opts *o = run->opts;
	struct spaa_load_opts lo = run->load;
	struct spaa_profile p;
	struct spaa_fold fold;
	struct hotspots h = { .run = run, .p = &p };
	const struct options *own = run->options;
	struct spaa_flamegraph_opts svg = { 0 };
	int ret = -1;

	spaa_profile_init(&p);
	spaa_table_init(&h.tables, &run->results, o->limit);
	spaa_fold_init(&fold, &o->filter);
	if (spaa_flamegraph_args_check(own->svg, &own->svg_args, &svg, err))
		goto out;
	if (own->svg && own->net) {
		spaa_error_set(err, SPAA_E_USAGE,
			       "'--svg' draws weights, not the signed nets of '--net'");
		goto out;
	}
	lo.on_sample = spaa_fold_on_sample;
	lo.on_sample_soon = spaa_fold_prefetch;
	lo.data = &fold;
	if (spaa_load(&p, o->paths.items, o->paths.nr, &lo, err) ||
	    aggregate(&h, &fold, err) ||
	    (!h.agg.occurrences && spaa_filter_explain_empty(&o->filter, &p, err)))
		goto out;
	spaa_weights_left_out_event(&run->left_out, &p, h.event);
	describe(&h);
	if (own->svg && write_svg(&h, &svg, err))
		goto out;
	/* the tables need only the aggregates and names: a lower peak */
	spaa_fold_release(&fold);
	spaa_profile_release_stacks(&p);

	if (spaa_filter_has_range(&o->filter) && p.nsamples && !h.agg.occurrences) {
		/* a selection between samples: empty tables that say so */
		if (spaa_table_empty_window(&h.tables, &o->filter, &p, "the profile", err))
			goto out;
		for (size_t c = 0; c < sizeof(classes) / sizeof(classes[0]); c++)
			if ((c != T_CALLERS || own->callers) && (c != T_CALLEES || own->callees))
				spaa_table_add_empty(&h.tables, &classes[c]);
		ret = 0;
		goto out;
	}
	functions_table(&h);
	stacks_table(&h);
	if (h.agg.threads.nr)
		threads_table(&h);
	if (h.agg.cpus_known)
		cpus_table(&h, &h.agg);
	else if (h.cpu_agg.cpus_known)
		cpus_table(&h, &h.cpu_agg);
	dsos_table(&h);
	if (own->callers)
		calls_table(&h, SPAA_CALLGRAPH_CALLER, own->callers);
	if (own->callees)
		calls_table(&h, SPAA_CALLGRAPH_CALLEE, own->callees);
	ret = 0;
out:
	/* released whether they were used or not: zeroed, they hold nothing */
	spaa_aggregate_release(&h.agg);
	spaa_aggregate_release(&h.neg);
	spaa_aggregate_release(&h.cpu_agg);
	spaa_aggregate_release(&h.cpu_neg);
	spaa_aggregate_release(&h.entries);
	spaa_callgraph_release(&h.calls);
	spaa_fold_release(&fold);
	spaa_profile_release(&p);
	return ret;
}

const struct spaa_analysis spaa_analysis_hotspots = {
	.name = "hotspots",
	.title = "SPAA hotspots",
	.description = "Where the time or events of a stack profile go: functions "
		       "by self and total weight, hot call paths, and weight per "
		       "thread, CPU and DSO.",
	.synopsis = "PROFILE",
	.classes = classes,
	.nclasses = sizeof(classes) / sizeof(classes[0]),
	.options = options,
	.options_size = sizeof(struct options),
	.flags = SPAA_ANALYSIS_EVENT | SPAA_ANALYSIS_THREADS | SPAA_ANALYSIS_STACKS |
		 SPAA_ANALYSIS_PERCENT,
	.run = hotspots_run,
	.compatible = spaa_analysis_need_stacks,
};
