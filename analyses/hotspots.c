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
 * With --begin/--end the stack records are not used: the sample records
 * inside the range are folded instead (see aggregate.h).  A profile
 * without sample records cannot be cut in time; the tables then cover
 * the whole profile and their titles say so.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/aggregate.h"
#include "report/analysis.h"
#include "report/report.h"
#include "model/util.h"

static const char *opt_event, *opt_metric;
static int64_t opt_pid = SPAA_NO_ID, opt_tid = SPAA_NO_ID;
static bool opt_net;

static const struct spaa_lami_option options[] = {
	{ "event", SPAA_LAMI_OPT_STRING, &opt_event, "NAME",
	  "event to analyse (default: the header's first event)" },
	{ "metric", SPAA_LAMI_OPT_STRING, &opt_metric, "NAME",
	  "weight to rank by (default: the event's primary metric)" },
	{ "net", SPAA_LAMI_OPT_BOOL, &opt_net, NULL,
	  "net weights, metric minus its negative part METRIC- (SPX zm, mu, ...)" },
	{ "pid", SPAA_LAMI_OPT_I64, &opt_pid, "PID", "only stacks of this process" },
	{ "tid", SPAA_LAMI_OPT_I64, &opt_tid, "TID", "only stacks of this thread" },
	{ NULL, 0, NULL, NULL, NULL },
};

enum { T_FUNCTIONS, T_STACKS, T_THREADS, T_CPUS, T_DSOS };

static const struct spaa_lami_column functions_cols[] = {
	{ "Function", SPAA_LAMI_STRING, NULL },
	{ "DSO", SPAA_LAMI_PATH, NULL },
	{ "Self", SPAA_LAMI_MIXED, NULL },
	{ "Self share", SPAA_LAMI_RATIO, NULL },
	{ "Total", SPAA_LAMI_MIXED, NULL },
	{ "Total share", SPAA_LAMI_RATIO, NULL },
	{ "Self samples", SPAA_LAMI_INT, NULL },
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

#define COLS(c) c, sizeof(c) / sizeof(c[0])

static const struct spaa_lami_table_class classes[] = {
	[T_FUNCTIONS] = { "functions", "Functions by self weight", COLS(functions_cols) },
	[T_STACKS] = { "stacks", "Hot call paths", COLS(stacks_cols) },
	[T_THREADS] = { "threads", "Weight per process and thread", COLS(threads_cols) },
	[T_CPUS] = { "cpus", "Weight per CPU", COLS(cpus_cols) },
	[T_DSOS] = { "dsos", "Self weight per DSO", COLS(dsos_cols) },
};

/* Everything one run needs to fill its tables. */
struct hotspots {
	struct spaa_analysis_run *run;
	const struct spaa_profile *p;
	struct spaa_aggregate agg;
	struct spaa_aggregate cpu_agg;        /* from samples, when records lack CPUs */
	bool has_cpu_agg;
	bool net;                       /* --net: weights are agg - neg */
	struct spaa_aggregate neg, cpu_neg;   /* the twin metric's, same keys */
	struct spaa_metrics_sem sem;
	uint32_t event, metric, twin;
	int64_t begin, end;
	char what[512];         /* "event 'x', metric 'y'" and any caveat */
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
	if (!h->net)
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
	return h->net ? spaa_report_net_key(spaa_report_net(w.pos, w.neg)) : w.pos;
}

static void weight_cell(const struct hotspots *h, struct spaa_lami_table *t,
			struct weight w)
{
	if (h->net)
		spaa_report_net_cell(t, &h->sem, spaa_report_net(w.pos, w.neg));
	else
		spaa_report_weight_cell(t, &h->sem, w.pos);
}

static void share_cell(const struct hotspots *h, struct spaa_lami_table *t,
		       struct weight part, struct weight whole)
{
	if (h->net)
		spaa_report_net_share_cell(t, spaa_report_net(part.pos, part.neg),
					   spaa_report_net(whole.pos, whole.neg));
	else
		spaa_report_share_cell(t, part.pos, whole.pos);
}

/* A table of class c whose weight columns get the metric's class. */
static struct spaa_lami_table *table(struct hotspots *h, int c, const size_t *wcols,
				size_t nwcols)
{
	struct spaa_lami_table *t = spaa_lami_table_new(&classes[c], h->begin, h->end);

	spaa_lami_table_set_title(t, "%s (%s)", classes[c].title, h->what);
	for (size_t i = 0; i < nwcols; i++)
		if (h->net)
			spaa_report_net_column(t, wcols[i], &h->sem);
		else
			spaa_report_weight_column(t, wcols[i], &h->sem);
	return t;
}

static void functions_table(struct hotspots *h)
{
	static const size_t wcols[] = { 2, 4 };
	const struct spaa_profile *p = h->p;
	const struct spaa_aggregate *a = &h->agg, *na = neg_of(h, a);
	uint32_t nfn = spaa_profile_nfunctions(p);
	struct spaa_rank *rank = spaa_xmalloc((nfn + 1) * sizeof(*rank));
	struct spaa_lami_table *t = table(h, T_FUNCTIONS, wcols, 2);
	size_t n = 0;

	for (uint32_t f = 0; f < nfn; f++)
		if (nonzero(W(a, na, fn_total, f)) || nonzero(W(a, na, fn_self, f)))
			rank[n++] = (struct spaa_rank){
				key(h, W(a, na, fn_self, f)),
				key(h, W(a, na, fn_total, f)),
				spaa_profile_str(p, p->functions[f].name), f, f,
			};
	spaa_rank_sort(rank, n);
	for (size_t i = 0; i < spaa_lami_rows(h->run->opts, n); i++) {
		uint32_t f = rank[i].idx;

		spaa_lami_row_begin(t);
		spaa_lami_cell_string(t, spaa_profile_str(p, p->functions[f].name));
		spaa_lami_cell_path(t, spaa_profile_str(p, p->dsos[p->functions[f].dso].name));
		weight_cell(h, t, W(a, na, fn_self, f));
		share_cell(h, t, W(a, na, fn_self, f), W_TOTAL(a, na));
		weight_cell(h, t, W(a, na, fn_total, f));
		share_cell(h, t, W(a, na, fn_total, f), W_TOTAL(a, na));
		if (a->samples_known)
			spaa_lami_cell_int(t, (int64_t)a->fn_samples[f]);
		else
			spaa_lami_cell_unknown(t);
		spaa_lami_row_end(t);
	}
	free(rank);
	spaa_lami_results_add(&h->run->results, t);
}

static void stacks_table(struct hotspots *h)
{
	static const size_t wcols[] = { 1 };
	const struct spaa_aggregate *a = &h->agg, *na = neg_of(h, a);
	uint32_t npaths = a->paths.nr;
	struct spaa_rank *rank = spaa_xmalloc((npaths + 1) * sizeof(*rank));
	struct spaa_lami_table *t = table(h, T_STACKS, wcols, 1);
	size_t n = 0;

	/* path 0 is the empty sequence of the string table, never a stack */
	for (uint32_t i = 1; i < npaths; i++)
		if (nonzero(W(a, na, path_weight, i)))
			rank[n++] = (struct spaa_rank){
				key(h, W(a, na, path_weight, i)), 0, NULL, i, i,
			};
	spaa_aggregate_rank_paths(a, rank, n);
	for (size_t i = 0; i < spaa_lami_rows(h->run->opts, n); i++) {
		char *name = spaa_aggregate_path_name(a, rank[i].idx);

		spaa_lami_row_begin(t);
		spaa_lami_cell_string(t, name);
		weight_cell(h, t, W(a, na, path_weight, rank[i].idx));
		share_cell(h, t, W(a, na, path_weight, rank[i].idx), W_TOTAL(a, na));
		spaa_lami_row_end(t);
		free(name);
	}
	free(rank);
	spaa_lami_results_add(&h->run->results, t);
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
	static const size_t wcols[] = { 1 };
	const struct spaa_profile *p = h->p;
	const struct spaa_aggregate *a = &h->agg, *na = neg_of(h, a);
	struct spaa_rank *rank = spaa_xmalloc((a->threads.nr + 1) * sizeof(*rank));
	uint32_t *best = hottest_per_thread(h);
	struct spaa_lami_table *t = table(h, T_THREADS, wcols, 1);

	for (uint32_t i = 0; i < a->threads.nr; i++) {
		const int64_t *k = spaa_map_key(&a->threads, i);       /* pid, tid */

		rank[i] = (struct spaa_rank){
			key(h, W(a, na, thread_weight, i)), 0, NULL, k[1], i,
		};
	}
	spaa_rank_sort(rank, a->threads.nr);
	for (size_t i = 0; i < spaa_lami_rows(h->run->opts, a->threads.nr); i++) {
		uint32_t th = rank[i].idx;
		const int64_t *k = spaa_map_key(&a->threads, th);
		uint32_t comm = a->thread_comm[th];

		spaa_lami_row_begin(t);
		spaa_lami_cell_process(t, comm ? spaa_profile_str(p, comm) : NULL,
				  k[0] == SPAA_NO_ID ? SPAA_LAMI_NO_ID : k[0],
				  k[1] == SPAA_NO_ID ? SPAA_LAMI_NO_ID : k[1]);
		weight_cell(h, t, W(a, na, thread_weight, th));
		share_cell(h, t, W(a, na, thread_weight, th), W_TOTAL(a, na));
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
	spaa_lami_results_add(&h->run->results, t);
}

static void cpus_table(struct hotspots *h, const struct spaa_aggregate *a)
{
	static const size_t wcols[] = { 1 };
	const struct spaa_aggregate *na = neg_of(h, a);
	struct spaa_rank *rank = spaa_xmalloc((a->cpus.nr + 1) * sizeof(*rank));
	struct spaa_lami_table *t = table(h, T_CPUS, wcols, 1);

	if (a != &h->agg)
		spaa_lami_table_set_title(t, "%s (%s; CPUs as the sample records give them, shares of the sampled weight)",
				     classes[T_CPUS].title, h->what);

	for (uint32_t i = 0; i < a->cpus.nr; i++)
		rank[i] = (struct spaa_rank){
			key(h, W(a, na, cpu_weight, i)), 0, NULL,
			*(const int64_t *)spaa_map_key(&a->cpus, i), i,
		};
	spaa_rank_sort(rank, a->cpus.nr);
	for (size_t i = 0; i < spaa_lami_rows(h->run->opts, a->cpus.nr); i++) {
		spaa_lami_row_begin(t);
		spaa_lami_cell_cpu(t, rank[i].tie);
		weight_cell(h, t, W(a, na, cpu_weight, rank[i].idx));
		share_cell(h, t, W(a, na, cpu_weight, rank[i].idx), W_TOTAL(a, na));
		spaa_lami_row_end(t);
	}
	free(rank);
	spaa_lami_results_add(&h->run->results, t);
}

static void dsos_table(struct hotspots *h)
{
	static const size_t wcols[] = { 1 };
	const struct spaa_profile *p = h->p;
	const struct spaa_aggregate *a = &h->agg, *na = neg_of(h, a);
	uint32_t ndso = spaa_profile_ndsos(p);
	struct spaa_rank *rank = spaa_xmalloc((ndso + 1) * sizeof(*rank));
	struct spaa_lami_table *t = table(h, T_DSOS, wcols, 1);
	size_t n = 0;

	for (uint32_t d = 0; d < ndso; d++)
		if (nonzero(W(a, na, dso_self, d)))
			rank[n++] = (struct spaa_rank){
				key(h, W(a, na, dso_self, d)), 0,
				spaa_profile_str(p, p->dsos[d].name), d, d,
			};
	spaa_rank_sort(rank, n);
	for (size_t i = 0; i < spaa_lami_rows(h->run->opts, n); i++) {
		spaa_lami_row_begin(t);
		spaa_lami_cell_path(t, rank[i].name);
		weight_cell(h, t, W(a, na, dso_self, rank[i].idx));
		share_cell(h, t, W(a, na, dso_self, rank[i].idx), W_TOTAL(a, na));
		spaa_lami_row_end(t);
	}
	free(rank);
	spaa_lami_results_add(&h->run->results, t);
}

/*
 * Adds the chosen metric to a, from the records or from the samples in
 * range; with --net also its twin to n.  Each of the two sees both
 * metrics' occurrences, in the same order, the other's as keys only, so
 * their paths, threads and CPUs have the same indices.
 */
static int add_metric(struct hotspots *h, struct spaa_aggregate *a, struct spaa_aggregate *n,
		      const struct spaa_fold *fold, struct spaa_error *err)
{
	const uint32_t metrics[2] = { h->metric, h->twin };
	struct spaa_aggregate *aggs[2] = { a, n };
	int nr = h->net ? 2 : 1;

	for (int m = 0; m < nr; m++)
		for (int g = 0; g < nr; g++) {
			aggs[g]->keys_only = g != m;
			if (fold ? spaa_aggregate_add_fold(aggs[g], fold, h->event, metrics[m],
						     opt_pid, opt_tid, err)
				 : spaa_aggregate_add_records(aggs[g], h->event, metrics[m],
							opt_pid, opt_tid, err))
				return -1;
		}
	return 0;
}

/* Resolves --net: the chosen metric's twin "M-", or a usage error. */
static int select_twin(struct hotspots *h, struct spaa_error *err)
{
	const struct spaa_profile *p = h->p;

	h->twin = spaa_report_twin(p, h->event, h->metric);
	if (h->twin != SPAA_NONE) {
		h->net = true;
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
	const struct spaa_lami_opts *o = h->run->opts;
	bool restrict_time = o->has_begin || o->has_end;
	int at;

	if (spaa_report_select(p, opt_event, opt_metric, &h->event, &h->metric, err) ||
	    (opt_net && select_twin(h, err)))
		return -1;
	spaa_report_left_out_event(&h->run->left_out, p, h->event);
	spaa_metrics_semantics(p, h->event, h->metric,
			      spaa_metrics_unit(p, h->event, h->metric), &h->sem);
	spaa_report_range(o, p, &h->begin, &h->end);
	at = snprintf(h->what, sizeof(h->what), "event '%s', %s '%s'",
		      spaa_profile_str(p, p->events[h->event].name),
		      h->metric == p->events[h->event].primary_metric ?
		      "primary metric" : "metric", spaa_profile_str(p, h->metric));
	if (h->net)
		at += snprintf(h->what + at, sizeof(h->what) - at,
			       ", net: '%s' - '%s'", spaa_profile_str(p, h->metric),
			       spaa_profile_str(p, h->twin));

	spaa_aggregate_init(&h->agg, p);
	if (h->net)
		spaa_aggregate_init(&h->neg, p);
	if (restrict_time && p->nsamples)
		return add_metric(h, &h->agg, &h->neg, fold, err);
	if (restrict_time)
		snprintf(h->what + at, sizeof(h->what) - at,
			 "; whole profile: it has no sample records to restrict to --begin/--end");
	if (add_metric(h, &h->agg, &h->neg, NULL, err))
		return -1;
	/* records rarely say which CPU ran them; samples often do */
	if (h->agg.cpus_known || !p->nsamples)
		return 0;
	spaa_aggregate_init(&h->cpu_agg, p);
	h->cpu_agg.cpus_only = true;
	if (h->net) {
		spaa_aggregate_init(&h->cpu_neg, p);
		h->cpu_neg.cpus_only = true;
	}
	h->has_cpu_agg = true;
	return add_metric(h, &h->cpu_agg, &h->cpu_neg, fold, err);
}

static int hotspots_run(struct spaa_analysis_run *run, struct spaa_error *err)
{
	const struct spaa_lami_opts *o = run->opts;
	struct spaa_load_opts lo = run->load;
	struct spaa_profile p;
	struct spaa_fold fold;
	struct hotspots h = { .run = run, .p = &p };
	int ret = -1;

	spaa_profile_init(&p);
	spaa_fold_init(&fold, o->has_begin ? o->begin : INT64_MIN,
		       o->has_end ? o->end : INT64_MAX);
	lo.on_sample = spaa_fold_on_sample;
	lo.on_sample_soon = spaa_fold_prefetch;
	lo.data = &fold;
	if (spaa_load(&p, o->paths, o->npaths, &lo, err) ||
	    aggregate(&h, &fold, err))
		goto out;
	/* the tables need only the aggregates and names: a lower peak */
	spaa_fold_release(&fold);
	spaa_profile_release_stacks(&p);

	functions_table(&h);
	stacks_table(&h);
	if (h.agg.threads.nr)
		threads_table(&h);
	if (h.agg.cpus_known)
		cpus_table(&h, &h.agg);
	else if (h.has_cpu_agg && h.cpu_agg.cpus_known)
		cpus_table(&h, &h.cpu_agg);
	dsos_table(&h);
	ret = 0;
out:
	if (h.agg.p)
		spaa_aggregate_release(&h.agg);
	if (h.neg.p)
		spaa_aggregate_release(&h.neg);
	if (h.has_cpu_agg)
		spaa_aggregate_release(&h.cpu_agg);
	if (h.cpu_neg.p)
		spaa_aggregate_release(&h.cpu_neg);
	spaa_fold_release(&fold);
	spaa_profile_release(&p);
	return ret;
}

const struct spaa_analysis spaa_this_analysis = {
	.name = "hotspots",
	.title = "SPAA hotspots",
	.description = "Where the time or events of a stack profile go: functions "
		       "by self and total weight, hot call paths, and weight per "
		       "thread, CPU and DSO.",
	.synopsis = "PROFILE",
	.classes = classes,
	.nclasses = sizeof(classes) / sizeof(classes[0]),
	.options = options,
	.run = hotspots_run,
	.compatible = spaa_report_need_stacks,
};
