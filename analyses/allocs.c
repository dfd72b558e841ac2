/*
 * spaa-allocs: who allocates, who leaks?
 *
 * Every stack record of an `allocation` or `deallocation` event (spec
 * section 9) is accounted to its site stack: the stack without the
 * allocator frames at its leaf (malloc, operator new, je_*, ...; the
 * regexes of memory.c, --skip adds more, --no-skip drops the defaults),
 * in its process.  Frees of deallocation events land on the site stack
 * with the same functions, so they meet the allocations they free.
 * Live bytes and counts are the profile's own where it has them, else
 * allocated - freed; memory.h has the rules.  The tables then sum site
 * stacks:
 *   - sites: by site function (the first non-allocator frame);
 *   - leaks: by call path, those still holding live bytes;
 *   - processes: by pid;
 *   - timeline: the sample records of memory events in time bins, a
 *     sample's bytes being its period (heap profilers sampling "every N
 *     bytes" write N there).
 * Titles say which numbers were derived and which are unknown.
 *
 * With --begin/--end the sample records inside the range replace the
 * stack records (memory.h says how); a profile without sample records
 * covers its whole time and the titles say so.
 *
 * --svg draws the allocated bytes of the samples over time, a band per
 * top site (timechart.h, bins of round widths, at most --bins), the live
 * bytes as a line where frees are known, and
 * under it the sites ranked by allocated bytes, with their live
 * bytes where known and the leak suspects (a site with a call path
 * still holding live bytes) marked.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/aggregate.h"
#include "analysis/memory.h"
#include "analysis/timequanta.h"
#include "model/util.h"
#include "report/analysis.h"
#include "report/table.h"
#include "report/textout.h"
#include "report/timechart.h"

#define BINS_DEFAULT 20
#define BINS_MAX 10000

/*
 * Sites sorted by a metric or by name; perf report's and pprof's keys
 * where they mean the same: a site's own bytes are its self weight, its
 * allocations its samples.  A site has no total (its callees are
 * allocator frames), so "total" is refused with the list.
 */
enum { SORT_ALLOCATED, SORT_LIVE, SORT_COUNT, SORT_PEAK, SORT_NAME };

static const char *const sort_keys[] = {
	"allocated", "live", "count", "peak", "name", "self=allocated", "samples=count", NULL,
};

struct options {
	struct spaa_option_list skip;
	bool no_skip;
	int sort;               /* index into sort_keys */
	uint64_t bins;
	struct spaa_timechart_args svg;
};

static void options_init(void *o)
{
	((struct options *)o)->bins = BINS_DEFAULT;
}

#define AT(field) offsetof(struct options, field)

static const struct spaa_option options[] = {
	{ "skip", 0, SPAA_OPTION_LIST, AT(skip), "REGEX",
	  "also treat functions matching REGEX as allocator frames (repeatable)",
	  NULL, NULL },
	{ "no-skip", 0, SPAA_OPTION_FLAG, AT(no_skip), NULL,
	  "drop the default allocator-frame patterns", NULL, NULL },
	{ "sort", 's', SPAA_OPTION_CHOICE, AT(sort), "KEY",
	  "rank sites by allocated (default; also: self), live, count (also: samples), peak or name",
	  sort_keys, NULL },
	{ "bins", 0, SPAA_OPTION_U64, AT(bins), "N",
	  "time bins of the allocations-over-time table (default 20)", NULL, NULL },
	SPAA_TIMECHART_OPTIONS(struct options, svg,
			       "draw allocated bytes over time per site and the sites ranked into FILE (SVG)"),
	{ NULL, 0, 0, 0, NULL, NULL, NULL, NULL },
};

enum { T_SITES, T_LEAKS, T_PROCESSES, T_TIMELINE };

static const struct spaa_lami_column sites_cols[] = {
	{ "Function", SPAA_LAMI_STRING, NULL },
	{ "DSO", SPAA_LAMI_PATH, NULL },
	{ "Allocated", SPAA_LAMI_SIZE, NULL },
	{ "Allocations", SPAA_LAMI_INT, NULL },
	{ "Freed", SPAA_LAMI_SIZE, NULL },
	{ "Frees", SPAA_LAMI_INT, NULL },
	{ "Live", SPAA_LAMI_SIZE, NULL },
	{ "Live count", SPAA_LAMI_INT, NULL },
	{ "Peak", SPAA_LAMI_SIZE, NULL },
	{ "Share of allocated", SPAA_LAMI_RATIO, NULL },
};

static const struct spaa_lami_column leaks_cols[] = {
	{ "Call path", SPAA_LAMI_STRING, NULL },
	{ "Live", SPAA_LAMI_SIZE, NULL },
	{ "Live count", SPAA_LAMI_INT, NULL },
	{ "Allocated", SPAA_LAMI_SIZE, NULL },
	{ "Live / allocated", SPAA_LAMI_RATIO, NULL },
};

static const struct spaa_lami_column processes_cols[] = {
	{ "Process", SPAA_LAMI_PROCESS, NULL },
	{ "Allocated", SPAA_LAMI_SIZE, NULL },
	{ "Live", SPAA_LAMI_SIZE, NULL },
	{ "Peak", SPAA_LAMI_SIZE, NULL },
};

static const struct spaa_lami_column timeline_cols[] = {
	{ "Time range", SPAA_LAMI_TIME_RANGE, NULL },
	{ "Allocated", SPAA_LAMI_SIZE, NULL },
	{ "Freed", SPAA_LAMI_SIZE, NULL },
	/* a number, not a size: it goes negative when frees win */
	{ "Net", SPAA_LAMI_NUMBER, "bytes" },
	{ "Samples", SPAA_LAMI_INT, NULL },
};

#define COLS(c) c, sizeof(c) / sizeof(c[0])

static const struct spaa_lami_table_class classes[] = {
	[T_SITES] = { "sites", "Allocation sites", COLS(sites_cols) },
	[T_LEAKS] = { "leaks", "Leak suspects (call paths with live bytes)", COLS(leaks_cols) },
	[T_PROCESSES] = { "processes", "Memory per process", COLS(processes_cols) },
	[T_TIMELINE] = { "timeline", "Allocations over time", COLS(timeline_cols) },
};

static const struct spaa_metrics_sem size_sem = { SPAA_METRICS_SIZE, 1, "" };
static const struct spaa_metrics_sem int_sem = { SPAA_METRICS_INT, 1, "" };

/* what a timeline quantum sums */
enum { TL_ALLOC, TL_FREE, TL_SAMPLES, TL_UNSIZED, TL_N };

/* Everything one run needs. */
struct allocs {
	struct spaa_analysis_run *run;
	const struct options *opts;
	const struct spaa_filter *filter;
	const struct spaa_profile *p;
	struct spaa_table tables;       /* range and caveats of every table */
	struct spaa_memory heap;
	struct spaa_fold fold;
	struct spaa_timequanta timeline;
	struct spaa_memory_time over_time;      /* --svg */
	struct spaa_timechart_opts chart;       /* --svg */
	uint64_t memory_samples;
	uint32_t records_seen;  /* by spaa_memory_has_records */
};

/* Sums of site stacks under one key: a site, a path or a process. */
struct sums {
	uint64_t v[SPAA_MEMORY_NMETRICS];
	unsigned known;
	bool used;
};

/*
 * The site stacks come from the samples in range, or from the samples
 * of a profile without memory stack records: once one such record is
 * read, no sample is folded and the fold is given back.
 */
static bool folding(struct allocs *a, const struct spaa_profile *p)
{
	if (spaa_filter_has_range(a->filter) ||
	    !spaa_memory_has_records(p, &a->records_seen))
		return true;
	spaa_fold_release(&a->fold);
	return false;
}

static int on_sample(void *data, const struct spaa_profile *p,
		     const struct spaa_sample *s, struct spaa_error *err)
{
	struct allocs *a = data;
	uint64_t v[TL_N] = { 0 };

	if (!spaa_memory_event(p, s->event))
		return 0;
	a->memory_samples++;
	if (folding(a, p) && spaa_fold_add(&a->fold, s, err))
		return -1;
	if (!spaa_filter_time(a->filter, s->time) ||
	    !spaa_filter_context(a->filter, p, s->pid, s->tid, 0))
		return 0;
	v[p->events[s->event].kind == SPAA_EV_DEALLOCATION ? TL_FREE : TL_ALLOC] =
		s->has_period ? s->period : 0;
	v[TL_SAMPLES] = 1;
	v[TL_UNSIZED] = !s->has_period;
	if (a->opts->svg.path && spaa_memory_time_add(&a->over_time, p, a->filter, s, err))
		return -1;
	return spaa_timequanta_add(&a->timeline, s->time, v, err);
}

/* A sample of stack is coming: its fold group is fetched meanwhile. */
static void on_sample_soon(void *data, uint32_t stack, bool near)
{
	struct allocs *a = data;

	spaa_fold_prefetch(&a->fold, stack, near);
}

/* Adds group g into s; a metric stays known only if every group knows it. */
static int add_sums(struct sums *s, const struct spaa_memory_group *g,
		    struct spaa_error *err)
{
	s->known = s->used ? s->known & g->known : g->known;
	s->used = true;
	for (int m = 0; m < SPAA_MEMORY_NMETRICS; m++)
		if (spaa_add_u64(s->v[m], g->v[m], &s->v[m]))
			return spaa_error_set(err, SPAA_E_LIMIT,
					      "a sum of allocation metrics overflows 64 bits");
	return 0;
}

static void cell(struct spaa_lami_table *t, const struct sums *s, int m)
{
	bool bytes = m != SPAA_MEMORY_ALLOC_COUNT && m != SPAA_MEMORY_FREE_COUNT &&
		     m != SPAA_MEMORY_LIVE_COUNT;

	if (!(s->known & SPAA_MEMORY_BIT(m)))
		spaa_lami_cell_unknown(t);
	else
		spaa_table_weight_cell(t, bytes ? &size_sem : &int_sem, s->v[m]);
}

static uint64_t known_value(const struct sums *s, int m)
{
	return s->known & SPAA_MEMORY_BIT(m) ? s->v[m] : 0;
}

static int sites_table(struct allocs *a, uint64_t total, struct spaa_error *err)
{
	static const int sort_metric[] = {
		[SORT_ALLOCATED] = SPAA_MEMORY_ALLOC_BYTES, [SORT_LIVE] = SPAA_MEMORY_LIVE_BYTES,
		[SORT_COUNT] = SPAA_MEMORY_ALLOC_COUNT, [SORT_PEAK] = SPAA_MEMORY_PEAK_BYTES,
		[SORT_NAME] = SPAA_MEMORY_ALLOC_BYTES,
	};
	const struct spaa_profile *p = a->p;
	int sort = a->opts->sort, m = sort_metric[sort];
	uint32_t nfn = spaa_profile_nfunctions(p);
	struct sums *fn = spaa_xcalloc(nfn + 1, sizeof(*fn));
	struct spaa_rank *rank = spaa_xmalloc((nfn + 1) * sizeof(*rank));
	struct spaa_lami_table *t;
	double whole = 0;
	size_t n = 0;
	int ret = -1;

	for (uint32_t g = 0; g < a->heap.ngroups; g++)
		if (add_sums(&fn[a->heap.groups[g].site], &a->heap.groups[g], err))
			goto out;
	/* --percent-limit: of the total of the metric sorted by (bytes for names) */
	for (uint32_t f = 0; f < nfn; f++)
		whole += (double)known_value(&fn[f], m);
	for (uint32_t f = 0; f < nfn; f++)
		if (fn[f].used && spaa_filter_percent(a->run->opts->percent_limit,
						      (double)known_value(&fn[f], m), whole))
			rank[n++] = (struct spaa_rank){
				sort == SORT_NAME ? 0 : known_value(&fn[f], m),
				sort == SORT_NAME ? 0 : sort ? fn[f].v[SPAA_MEMORY_ALLOC_BYTES] :
				known_value(&fn[f], SPAA_MEMORY_ALLOC_COUNT),
				spaa_profile_str(p, p->functions[f].name), f, f,
			};
	spaa_rank_sort(rank, n);
	t = spaa_table_new(&a->tables, &classes[T_SITES], "sorted by %s", sort_keys[sort]);
	for (size_t i = 0; i < spaa_table_rows(&a->tables, n); i++) {
		const struct sums *s = &fn[rank[i].idx];

		spaa_lami_row_begin(t);
		spaa_lami_cell_string(t, rank[i].name);
		spaa_lami_cell_path(t, spaa_profile_str(p, p->dsos[p->functions[rank[i].idx].dso].name));
		for (int k = 0; k < SPAA_MEMORY_NMETRICS; k++)
			cell(t, s, k);
		spaa_table_share_cell(t, known_value(s, SPAA_MEMORY_ALLOC_BYTES), total);
		spaa_lami_row_end(t);
	}
	spaa_table_add(&a->tables, t);
	ret = 0;
out:
	free(fn);
	free(rank);
	return ret;
}

/* The ranked leak suspects, whose rows threads make (leak_rows). */
struct leak_rows {
	const struct allocs *a;
	const struct sums *path;
	const struct spaa_rank *rank;
};

/* Rows lo to hi - 1 of the leaks table: only reads what threads share. */
static void leak_rows(void *ctx, struct spaa_lami_table *t, size_t lo, size_t hi)
{
	const struct leak_rows *l = ctx;

	for (size_t i = lo; i < hi; i++) {
		const struct sums *s = &l->path[l->rank[i].idx];
		char *name = spaa_memory_path_name(&l->a->heap, l->rank[i].idx);

		spaa_lami_row_begin(t);
		spaa_lami_cell_string(t, name);
		cell(t, s, SPAA_MEMORY_LIVE_BYTES);
		cell(t, s, SPAA_MEMORY_LIVE_COUNT);
		cell(t, s, SPAA_MEMORY_ALLOC_BYTES);
		spaa_table_share_cell(t, s->v[SPAA_MEMORY_LIVE_BYTES],
				       known_value(s, SPAA_MEMORY_ALLOC_BYTES));
		spaa_lami_row_end(t);
		free(name);
	}
}

static int leaks_table(struct allocs *a, struct spaa_error *err)
{
	uint32_t npaths = a->heap.paths.nr;
	struct sums *path = spaa_xcalloc(npaths + 1, sizeof(*path));
	struct spaa_rank *rank = spaa_xmalloc((npaths + 1) * sizeof(*rank));
	struct spaa_lami_table *t;
	double live = 0;
	size_t n = 0;
	int ret = -1;

	for (uint32_t g = 0; g < a->heap.ngroups; g++)
		if (add_sums(&path[a->heap.groups[g].path], &a->heap.groups[g], err))
			goto out;
	for (uint32_t i = 0; i < npaths; i++)
		live += (double)known_value(&path[i], SPAA_MEMORY_LIVE_BYTES);
	for (uint32_t i = 0; i < npaths; i++)
		if (path[i].used && known_value(&path[i], SPAA_MEMORY_LIVE_BYTES) &&
		    spaa_filter_percent(a->run->opts->percent_limit,
					(double)path[i].v[SPAA_MEMORY_LIVE_BYTES], live))
			rank[n++] = (struct spaa_rank){
				path[i].v[SPAA_MEMORY_LIVE_BYTES],
				known_value(&path[i], SPAA_MEMORY_LIVE_COUNT),
				NULL, i, i,
			};
	spaa_memory_rank_paths(&a->heap, rank, n);
	t = spaa_table_new(&a->tables, &classes[T_LEAKS], NULL);
	/* a row for every live stack: the load's threads make them */
	spaa_lami_table_fill(t, spaa_table_rows(&a->tables, n), spaa_load_threads(&a->run->load),
			     leak_rows, &(struct leak_rows){ a, path, rank });
	spaa_table_add(&a->tables, t);
	ret = 0;
out:
	free(path);
	free(rank);
	return ret;
}

static int processes_table(struct allocs *a, struct spaa_error *err)
{
	const struct spaa_profile *p = a->p;
	struct spaa_map pids;
	struct sums *proc = NULL;
	struct spaa_rank *rank = NULL;
	size_t alloc = 0, n = 0;
	double allocated = 0;
	struct spaa_lami_table *t;
	int ret = -1;

	spaa_map_init(&pids, sizeof(int64_t));
	for (uint32_t g = 0; g < a->heap.ngroups; g++) {
		const struct spaa_memory_group *grp = &a->heap.groups[g];
		bool created;
		uint32_t i;

		if (grp->pid == SPAA_NO_ID)
			continue;
		i = spaa_map_intern(&pids, &grp->pid, &created);
		if (created) {
			size_t old = alloc;

			SPAA_ALLOC_GROW(proc, (size_t)i + 1, alloc);
			memset(proc + old, 0, (alloc - old) * sizeof(*proc));
		}
		if (add_sums(&proc[i], grp, err))
			goto out;
	}
	if (!pids.nr) {
		ret = 0;        /* no process to show */
		goto out;
	}
	rank = spaa_xmalloc(pids.nr * sizeof(*rank));
	for (uint32_t i = 0; i < pids.nr; i++)
		allocated += (double)known_value(&proc[i], SPAA_MEMORY_ALLOC_BYTES);
	for (uint32_t i = 0; i < pids.nr; i++)
		if (spaa_filter_percent(a->run->opts->percent_limit,
					(double)known_value(&proc[i], SPAA_MEMORY_ALLOC_BYTES),
					allocated))
			rank[n++] = (struct spaa_rank){
				known_value(&proc[i], SPAA_MEMORY_ALLOC_BYTES),
				known_value(&proc[i], SPAA_MEMORY_LIVE_BYTES), NULL,
				*(const int64_t *)spaa_map_key(&pids, i), i,
			};
	spaa_rank_sort(rank, n);
	t = spaa_table_new(&a->tables, &classes[T_PROCESSES], NULL);
	for (size_t i = 0; i < spaa_table_rows(&a->tables, n); i++) {
		int64_t pid = rank[i].tie;

		spaa_lami_row_begin(t);
		spaa_table_process_cell(t, p, pid, SPAA_NO_ID, 0);
		cell(t, &proc[rank[i].idx], SPAA_MEMORY_ALLOC_BYTES);
		cell(t, &proc[rank[i].idx], SPAA_MEMORY_LIVE_BYTES);
		cell(t, &proc[rank[i].idx], SPAA_MEMORY_PEAK_BYTES);
		spaa_lami_row_end(t);
	}
	spaa_table_add(&a->tables, t);
	ret = 0;
out:
	spaa_map_release(&pids);
	free(proc);
	free(rank);
	return ret;
}

static int timeline_table(struct allocs *a, struct spaa_error *err)
{
	int64_t begin = a->tables.begin, end = a->tables.end;
	size_t n = (size_t)a->opts->bins;
	size_t nbins = spaa_timequanta_nbins(begin, end, n);
	uint64_t w = spaa_timequanta_bin_width(begin, end, n);
	uint64_t *bins = spaa_xmalloc(nbins * TL_N * sizeof(*bins));
	uint64_t unsized = 0;
	struct spaa_lami_table *t;
	char extra[160] = "";

	if (spaa_timequanta_bins(&a->timeline, begin, end, n, bins, err)) {
		free(bins);
		return -1;
	}
	for (size_t b = 0; b < nbins; b++)
		unsized += bins[b * TL_N + TL_UNSIZED];
	if (unsized)
		snprintf(extra, sizeof(extra),
			 "; %" PRIu64 " samples had no period: counted, their bytes unknown",
			 unsized);
	t = spaa_table_new(&a->tables, &classes[T_TIMELINE], NULL);
	/*
	 * Not the caveats of the other tables: this one counts samples alone,
	 * as they stream by, before their stacks may be known (a stack record
	 * may come after its samples): --focus/--ignore cannot apply.
	 */
	spaa_lami_table_set_title(t, "%s (bytes of a sample = its period; %zu bins of %" PRIu64 " ns%s%s)",
				  classes[T_TIMELINE].title, nbins, w, extra,
				  spaa_filter_has_stacks(a->filter) ?
				  "; every stack: --focus/--ignore select sites" : "");
	for (size_t b = 0; b < spaa_table_rows(&a->tables, nbins); b++) {
		const uint64_t *v = bins + b * TL_N;
		int64_t from = (int64_t)((uint64_t)begin + b * w);
		int64_t to = b + 1 == nbins ? end : (int64_t)((uint64_t)from + w);

		spaa_lami_row_begin(t);
		spaa_lami_cell_time_range(t, from, to);
		spaa_table_weight_cell(t, &size_sem, v[TL_ALLOC]);
		spaa_table_weight_cell(t, &size_sem, v[TL_FREE]);
		spaa_lami_cell_number(t, (double)v[TL_ALLOC] - (double)v[TL_FREE]);
		spaa_table_weight_cell(t, &int_sem, v[TL_SAMPLES]);
		spaa_lami_row_end(t);
	}
	free(bins);
	spaa_table_add(&a->tables, t);
	return 0;
}

struct chart_sites {
	const struct spaa_profile *p;
	struct spaa_timechart *tc;
};

static int chart_add(void *data, uint32_t bin, uint32_t site, uint64_t bytes,
		     struct spaa_error *err)
{
	struct chart_sites *cs = data;
	const char *name = spaa_profile_str(cs->p, cs->p->functions[site].name);

	return spaa_timechart_add(cs->tc, bin, name, strlen(name), bytes, err);
}

/*
 * --svg: the samples' allocated bytes over time per site (needs the
 * stacks, to find their sites), then every site ranked by allocated
 * bytes with its live bytes where known, marked when a call path of it
 * holds live bytes (the leaks table's rows).
 */
static int draw(struct allocs *a, const struct spaa_memory_skip *skip,
		struct spaa_error *err)
{
	const struct spaa_profile *p = a->p;
	const struct spaa_memory_time *mt = &a->over_time;
	uint64_t nbins = mt->started ? spaa_timegrid_nbins(&mt->grid) : 0;
	uint32_t nfn = spaa_profile_nfunctions(p), npaths = a->heap.paths.nr;
	struct sums *fn = spaa_xcalloc(nfn + 1, sizeof(*fn));
	struct sums *path = spaa_xcalloc(npaths + 1, sizeof(*path));
	uint32_t *path_site = spaa_xcalloc(npaths + 1, sizeof(*path_site));
	bool *suspect = spaa_xcalloc(nfn + 1, sizeof(*suspect));
	struct spaa_rank *rank = spaa_xmalloc((nfn + 1) * sizeof(*rank));
	struct chart_sites cs = { p, NULL };
	struct spaa_timechart_opts o = a->chart;
	char title[512];
	size_t n = 0;
	int ret = -1;

	/* without samples, the ranking alone: one empty bin over the range */
	cs.tc = nbins ? spaa_timechart_new(spaa_timegrid_start(&mt->grid, mt->grid.lo),
					   mt->grid.width, (uint32_t)nbins) :
		spaa_timechart_new(a->tables.begin, 1, 1);
	if (nbins && spaa_memory_time_sites(mt, p, skip, chart_add, &cs, err))
		goto out;
	if (nbins && a->heap.frees_known) {
		uint64_t *live = spaa_xmalloc(nbins * sizeof(*live));

		spaa_memory_time_live(mt, live);
		for (uint32_t b = 0; b < nbins; b++)
			spaa_timechart_line(cs.tc, b, live[b]);
		free(live);
	}
	for (uint32_t g = 0; g < a->heap.ngroups; g++) {
		const struct spaa_memory_group *grp = &a->heap.groups[g];

		if (add_sums(&fn[grp->site], grp, err) || add_sums(&path[grp->path], grp, err))
			goto out;
		path_site[grp->path] = grp->site;
	}
	/* the leaks table's rows: call paths holding known live bytes */
	for (uint32_t i = 0; i < npaths; i++)
		if (path[i].used && known_value(&path[i], SPAA_MEMORY_LIVE_BYTES))
			suspect[path_site[i]] = true;
	for (uint32_t f = 0; f < nfn; f++)
		if (fn[f].used)
			rank[n++] = (struct spaa_rank){
				known_value(&fn[f], SPAA_MEMORY_ALLOC_BYTES),
				known_value(&fn[f], SPAA_MEMORY_ALLOC_COUNT),
				spaa_profile_str(p, p->functions[f].name), f, f,
			};
	spaa_rank_sort(rank, n);
	for (size_t i = 0; i < n; i++) {
		const struct sums *s = &fn[rank[i].idx];
		bool live = s->known & SPAA_MEMORY_BIT(SPAA_MEMORY_LIVE_BYTES);

		spaa_timechart_rank(cs.tc, rank[i].name, rank[i].key, live,
				    known_value(s, SPAA_MEMORY_LIVE_BYTES),
				    suspect[rank[i].idx] ? "leak suspect" : NULL);
	}
	if (!o.title) {
		snprintf(title, sizeof(title), "Allocated bytes over time of %s",
			 a->run->opts->paths.items[0]);
		o.title = title;
	}
	o.what = a->heap.frees_known ?
		 "a sample's bytes = its period; bars: allocated by the top sites; line: live "
		 "(allocated - freed since the first bin)" :
		 "a sample's bytes = its period; bars: allocated by the top sites";
	o.line_label = "live";
	o.sem = &size_sem;
	o.rank_title = "Sites by allocated bytes (dark: live bytes)";
	o.inner_label = "live";
	o.empty = "no allocation samples: nothing to draw over time";
	ret = spaa_timechart_write_file(cs.tc, &o, a->opts->svg.path, err);
	if (!ret)
		a->run->picture = a->opts->svg.path;
out:
	spaa_timechart_free(cs.tc);
	free(fn);
	free(path);
	free(path_site);
	free(suspect);
	free(rank);
	return ret;
}

/* The caveats every title carries: events, where live and peak came from. */
static void describe(struct allocs *a)
{
	struct spaa_table *t = &a->tables;
	const struct spaa_memory *h = &a->heap;
	unsigned lb = SPAA_MEMORY_BIT(SPAA_MEMORY_LIVE_BYTES);
	char allocs[200], frees[240];
	const char *live, *peak;

	spaa_weights_event_list(a->p, SPAA_EV_ALLOCATION, allocs, sizeof(allocs));
	spaa_weights_event_list(a->p, SPAA_EV_DEALLOCATION, frees, sizeof(frees));
	if (h->unknown & lb)
		live = h->frees_known ? "live unknown for some stacks" :
		       "live unknown: the profile does not track frees";
	else if ((h->derived & lb) && (h->native & lb))
		live = "live recorded for some stacks, derived as allocated - freed for others";
	else if (h->derived & lb)
		live = "live derived as allocated - freed";
	else
		live = "live as recorded";
	if (h->ranged)
		peak = "peak unknown in a time range";
	else if (h->unknown & SPAA_MEMORY_BIT(SPAA_MEMORY_PEAK_BYTES))
		peak = h->native & SPAA_MEMORY_BIT(SPAA_MEMORY_PEAK_BYTES) ?
		       "peak unknown for some stacks" : "peak not recorded";
	else
		peak = "peak = sum of the stacks' peak_bytes";
	spaa_table_what_add(t, "allocations: %s%s%s%s; %s; %s",
			    *allocs ? allocs : "none", *frees ? "; frees: " : "",
			    frees, *frees ? ", matched to sites by stack" : "",
			    live, peak);
	if (h->ranged)
		spaa_table_what_add(t, "samples in range");
	else if (spaa_filter_has_range(a->filter))
		spaa_table_what_add(t, SPAA_FILTER_WHOLE_PROFILE);
	spaa_table_what_filter(t, a->filter);
}

/* The text header: the profile, the events, the bytes allocated. */
static void header(struct allocs *a, uint64_t total)
{
	struct spaa_header *h = &a->run->header;
	char allocs[200], frees[240], size[64];

	spaa_header_profile(h, "Profile", a->p, a->run->opts->paths.items[0], &a->tables);
	spaa_weights_event_list(a->p, SPAA_EV_ALLOCATION, allocs, sizeof(allocs));
	spaa_weights_event_list(a->p, SPAA_EV_DEALLOCATION, frees, sizeof(frees));
	if (total > INT64_MAX)
		snprintf(size, sizeof(size), "%" PRIu64 " bytes", total);
	else
		spaa_textout_size((int64_t)total, size, sizeof(size));
	spaa_header_add(h, "Allocated", "%s by %s", size, *allocs ? allocs : "no allocation event");
	if (*frees)
		spaa_header_add(h, "Freed by", "%s", frees);
}

static int memory_events(const struct spaa_profile *p, const char *path,
			 const char *code, struct spaa_error *err)
{
	char list[512];

	for (uint32_t e = 0; e < p->nevents; e++)
		if (spaa_memory_event(p, e))
			return 0;
	spaa_weights_event_list(p, SPAA_WEIGHTS_ANY_KIND, list, sizeof(list));
	return spaa_error_at(err, code, path, 0,
			     "no allocation or deallocation events in the profile (it has %s): not a memory profile",
			     *list ? list : "no events");
}

static bool memory_event(const struct spaa_profile *p, uint32_t event,
			 const void *ctx)
{
	(void)ctx;
	return spaa_memory_event(p, event);
}

/* The options the option table cannot check, and the skip patterns. */
static int check_options(const struct options *o, struct spaa_memory_skip *skip,
			 struct spaa_error *err)
{
	if (!o->bins || o->bins > BINS_MAX)
		return spaa_error_set(err, SPAA_E_USAGE,
				      "invalid value '%" PRIu64 "' for '--bins' (1 to %d)",
				      o->bins, BINS_MAX);
	return spaa_memory_skip_init(skip, !o->no_skip, o->skip.items, o->skip.nr, err);
}

static int allocs_run(struct spaa_analysis_run *run, struct spaa_error *err)
{
	const struct spaa_analysis_opts *o = run->opts;
	struct spaa_load_opts lo = run->load;
	struct spaa_profile p;
	struct spaa_memory_skip skip = { 0 };
	struct allocs a = {
		.run = run, .opts = run->options, .filter = &o->filter, .p = &p,
	};
	bool use_fold;
	uint64_t total;
	int ret = -1;

	spaa_profile_init(&p);
	spaa_table_init(&a.tables, &run->results, o->limit);
	spaa_fold_init(&a.fold, a.filter);
	spaa_timequanta_init(&a.timeline, TL_N, 0);
	spaa_memory_time_init(&a.over_time, (uint32_t)a.opts->bins);
	if (check_options(a.opts, &skip, err) ||
	    spaa_timechart_args_apply(&a.opts->svg, &a.chart, err))
		goto out;
	lo.on_sample = on_sample;
	lo.on_sample_soon = on_sample_soon;
	lo.data = &a;
	if (spaa_load(&p, o->paths.items, o->paths.nr, &lo, err) ||
	    memory_events(&p, o->paths.items[0], SPAA_E_NO_DATA, err))
		goto out;
	spaa_weights_left_out(&run->left_out, &p, memory_event, NULL);
	/* a profile of samples alone is folded whole */
	use_fold = a.memory_samples && folding(&a, &p);
	if (spaa_memory_build(&a.heap, &p, &skip, use_fold ? &a.fold : NULL, a.filter, err) ||
	    (!a.heap.ngroups && !a.timeline.added && spaa_filter_explain_empty(a.filter, &p, err)))
		goto out;
	spaa_table_set_range(&a.tables, a.filter, &p);
	if (a.opts->svg.path && draw(&a, &skip, err))
		goto out;
	/* the tables need only the site stacks and names: a lower peak */
	spaa_fold_release(&a.fold);
	spaa_profile_release_stacks(&p);
	describe(&a);

	total = 0;
	for (uint32_t g = 0; g < a.heap.ngroups; g++)
		if (spaa_add_u64(total, a.heap.groups[g].v[SPAA_MEMORY_ALLOC_BYTES], &total)) {
			spaa_error_set(err, SPAA_E_LIMIT, "the allocated bytes overflow 64 bits");
			goto out;
		}
	header(&a, total);
	if (spaa_filter_has_range(a.filter) && a.memory_samples && !a.timeline.added) {
		/* a selection between samples: empty tables that say so */
		if (spaa_table_empty_window(&a.tables, a.filter, &p, "the profile", err))
			goto out;
		for (size_t c = 0; c < sizeof(classes) / sizeof(classes[0]); c++)
			spaa_table_add_empty(&a.tables, &classes[c]);
		ret = 0;
		goto out;
	}
	if (a.heap.ngroups &&
	    (sites_table(&a, total, err) || leaks_table(&a, err) ||
	     processes_table(&a, err)))
		goto out;
	if (a.timeline.added && timeline_table(&a, err))
		goto out;
	ret = 0;
out:
	spaa_memory_release(&a.heap);
	spaa_memory_skip_release(&skip);
	spaa_timequanta_release(&a.timeline);
	spaa_memory_time_release(&a.over_time);
	spaa_fold_release(&a.fold);
	spaa_profile_release(&p);
	return ret;
}

/* Compatible: a profile with allocation or deallocation data. */
static int allocs_compatible(const struct spaa_profile *p, const char *path,
			     struct spaa_error *err)
{
	uint64_t samples = 0;
	uint32_t seen = 0;

	if (memory_events(p, path, SPAA_E_INCOMPATIBLE, err))
		return -1;
	for (uint32_t e = 0; e < p->nevents; e++)
		if (spaa_memory_event(p, e))
			samples += p->events[e].nsamples;
	if (spaa_memory_has_records(p, &seen) || samples)
		return 0;
	return spaa_error_at(err, SPAA_E_INCOMPATIBLE, path, 0,
			     "the profile has no stack or sample records of allocation or deallocation events");
}

const struct spaa_analysis spaa_analysis_allocs = {
	.name = "allocs",
	.title = "SPAA allocations",
	.description = "Who allocates and who leaks in a memory profile: "
		       "allocation sites (allocator frames skipped) with bytes, "
		       "counts, frees, live and peak; call paths still holding "
		       "live bytes; memory per process; allocations over time.",
	.synopsis = "PROFILE",
	.classes = classes,
	.nclasses = sizeof(classes) / sizeof(classes[0]),
	.options = options,
	.options_size = sizeof(struct options),
	.options_init = options_init,
	.flags = SPAA_ANALYSIS_THREADS | SPAA_ANALYSIS_STACKS | SPAA_ANALYSIS_PERCENT,
	.run = allocs_run,
	.compatible = allocs_compatible,
};
