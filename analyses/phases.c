/*
 * spaa-phases: how does the behaviour of a run change over time?
 *
 * The sample records of one event (the header's first by default) are
 * binned by timestamp as they stream by (timegrid.h).  Each sample adds
 * its weight (1, or its period when the metric is "period") to its bin
 * under its stack, its thread and its CPU; samples themselves are never
 * kept.  The bin width is a round number (1, 2, 5 x 10^k ns): from
 * --bin-width, else from the header's time range, else it starts at 1 us
 * and doubles (x2, x5) whenever the samples span too many bins.  After
 * the pass the bins are merged down to --bins (default: about the square
 * root of the sample count, at most 1000).
 *
 * Each stack then resolves to one function, its leaf (or the leaf-most
 * frame matching --label, by default --focus's pattern), so each bin
 * holds a distribution of weight over functions, and changepoint.h
 * splits the bins into phases where that distribution changes:
 * bottom-up merging by Jensen-Shannon divergence against --penalty,
 * --min-phase, --max-phases.  Stretches
 * without samples at least --min-phase long are idle phases.
 *
 * --focus and --ignore (filter.h) keep only the samples whose stacks pass
 * them, as in every analysis.  A sample whose stack is known when it
 * streams by is kept or left out there; one whose stack record comes
 * later is binned under its stack (and its thread and CPU cells under
 * the stack too) and decided after the pass, so every series drops it
 * alike.
 *
 * Tables: phases, the timeline of bins, window records, and with
 * --by-thread the weight of each thread in each phase (--percent-limit:
 * the rows under P % of their phase).
 */
#include <inttypes.h>
#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/aggregate.h"
#include "analysis/changepoint.h"
#include "analysis/timegrid.h"
#include "model/units.h"
#include "model/util.h"
#include "model/warn.h"
#include "report/analysis.h"
#include "report/table.h"
#include "report/timechart.h"

#define MAX_BINS 10000u         /* segmentation is quadratic in bins */
#define DEFAULT_MAX_BINS 1000u
#define FINE_BINS 4096u         /* bins kept during the pass */
#define DEFAULT_PENALTY 0.05    /* bits */
#define START_WIDTH 1000        /* ns: 1 us, when the span is unknown */
/*
 * Cells (bin x function, bin x thread, bin x CPU) kept during the pass:
 * past this the bins coarsen, so memory stays bounded (a few MB) however
 * long the profile and however many functions each bin holds.
 */
#define MAX_CELLS (1u << 17)
#define STACK_KEY 0x80000000u   /* a cell key that is a stack, not a label */
#define LABEL_NONE 0x7fffffffu  /* no frame to label a stack with */
#define LABEL_OUT 0x7ffffffeu   /* a stack --focus/--ignore leave out */

struct options {
	uint64_t bins, max_phases;
	const char *bin_width, *min_phase, *penalty, *label;
	bool by_thread;
	struct spaa_timechart_args svg;
};

#define AT(field) offsetof(struct options, field)

static const struct spaa_option options[] = {
	{ "bins", 0, SPAA_OPTION_U64, AT(bins), "N",
	  "at most N time bins (default: about the square root of the samples)",
	  NULL, NULL },
	{ "bin-width", 0, SPAA_OPTION_STRING, AT(bin_width), "DURATION",
	  "time bins of this width, e.g. 10ms (instead of --bins)", NULL, NULL },
	{ "min-phase", 0, SPAA_OPTION_STRING, AT(min_phase), "DURATION",
	  "shortest phase and idle gap (default: two bins)", NULL, NULL },
	{ "max-phases", 0, SPAA_OPTION_U64, AT(max_phases), "N",
	  "at most N phases (default: no limit)", NULL, NULL },
	{ "penalty", 0, SPAA_OPTION_STRING, AT(penalty), "BITS",
	  "divergence that separates phases, 0 to 1 (default: 0.05)", NULL, NULL },
	{ "label", 0, SPAA_OPTION_STRING, AT(label), "REGEX",
	  "attribute samples to the leaf-most function matching REGEX (default: --focus's)",
	  NULL, NULL },
	{ "by-thread", 0, SPAA_OPTION_FLAG, AT(by_thread), NULL,
	  "add the weight of each thread in each phase", NULL, NULL },
	SPAA_TIMECHART_OPTIONS(struct options, svg,
			       "also draw the timeline as stacked bars of the top functions, phases marked (SVG), to FILE"),
	{ NULL, 0, 0, 0, NULL, NULL, NULL, NULL },
};

/* Why a profile cannot be cut into phases. */
#define NO_TIME "the profile has no time information: no 'sample' or 'window' records"

enum { T_PHASES, T_TIMELINE, T_WINDOWS, T_PHASE_THREADS };

static const struct spaa_lami_column phases_cols[] = {
	{ "Phase", SPAA_LAMI_INT, NULL },
	{ "Kind", SPAA_LAMI_STRING, NULL },
	{ "Time range", SPAA_LAMI_TIME_RANGE, NULL },
	{ "Duration", SPAA_LAMI_DURATION, NULL },
	{ "Samples", SPAA_LAMI_INT, NULL },
	{ "Weight", SPAA_LAMI_MIXED, NULL },
	{ "Top function", SPAA_LAMI_STRING, NULL },
	{ "Top share", SPAA_LAMI_RATIO, NULL },
	{ "Second function", SPAA_LAMI_STRING, NULL },
	{ "Second share", SPAA_LAMI_RATIO, NULL },
	{ "Threads", SPAA_LAMI_INT, NULL },
	{ "CPUs", SPAA_LAMI_INT, NULL },
};

static const struct spaa_lami_column timeline_cols[] = {
	{ "Time range", SPAA_LAMI_TIME_RANGE, NULL },
	{ "Phase", SPAA_LAMI_INT, NULL },
	{ "Samples", SPAA_LAMI_INT, NULL },
	{ "Weight", SPAA_LAMI_MIXED, NULL },
	{ "Top function", SPAA_LAMI_STRING, NULL },
	{ "Top share", SPAA_LAMI_RATIO, NULL },
};

static const struct spaa_lami_column windows_cols[] = {
	{ "Window", SPAA_LAMI_STRING, NULL },
	{ "Time range", SPAA_LAMI_TIME_RANGE, NULL },
	{ "Duration", SPAA_LAMI_DURATION, NULL },
	{ "Weight", SPAA_LAMI_MIXED, NULL },
	{ "Top stack", SPAA_LAMI_STRING, NULL },
	{ "Top stack share", SPAA_LAMI_RATIO, NULL },
};

static const struct spaa_lami_column phase_threads_cols[] = {
	{ "Phase", SPAA_LAMI_INT, NULL },
	{ "Process", SPAA_LAMI_PROCESS, NULL },
	{ "Weight", SPAA_LAMI_MIXED, NULL },
	{ "Share", SPAA_LAMI_RATIO, NULL },
};

#define COLS(c) c, sizeof(c) / sizeof(c[0])

static const struct spaa_lami_table_class classes[] = {
	[T_PHASES] = { "phases", "Phases", COLS(phases_cols) },
	[T_TIMELINE] = { "timeline", "Timeline", COLS(timeline_cols) },
	[T_WINDOWS] = { "windows", "Time windows", COLS(windows_cols) },
	[T_PHASE_THREADS] = { "phase-threads", "Weight per thread in each phase",
			      COLS(phase_threads_cols) },
};

/* The series of the time bins: what a sample is grouped by within a bin. */
enum { S_STACK, S_THREAD, S_CPU, NSERIES };

/*
 * The thread and CPU cells of a sample: stack is SPAA_NONE, or the stack
 * of a sample decided only after the pass (see the top).
 */
struct thread_key {
	int64_t pid, tid;
	uint32_t stack, pad;
};

struct cpu_key {
	int64_t cpu;
	uint32_t stack, pad;
};

/* State of the sample pass. */
struct pass {
	const struct spaa_analysis_opts *o;
	const struct spaa_profile *p;   /* being loaded */
	bool started;
	uint32_t event;         /* resolved at the first sample */
	int64_t width;          /* --bin-width, or 0 */
	uint32_t fine_bins;
	struct spaa_timegrid tb;
	uint64_t samples;       /* of the event, in range */
	uint64_t no_period;     /* of those, without a period */
	/*
	 * The metric the periods measure: 0 for "period", else the metric
	 * a sample names (SPX slices: "wt"); periods of mixed metrics
	 * cannot be one weight.
	 */
	uint32_t period_metric;
	bool period_metric_mixed;
	/*
	 * The label (function) of each stack, SPAA_NONE until resolved;
	 * LABEL_NONE when no frame has one.  Samples of a stack whose label
	 * is final when they arrive are binned by label, so the cells of a
	 * bin are its functions, not its (many more) stacks.
	 */
	uint32_t *label;
	size_t label_alloc;
	uint8_t *early;         /* by stack: labelled while samples streamed */
	size_t early_alloc;
	const regex_t *label_re;        /* --label (or --focus), or NULL */
	uint8_t *selected;      /* spaa_filter_stack's memo, by function */
	size_t selected_alloc;
};

/* Everything one run needs to fill its tables. */
struct phases {
	struct spaa_analysis_run *run;
	const struct options *opts;
	const struct spaa_profile *p;
	struct pass pass;
	uint32_t event, metric;
	bool by_period;         /* weights are periods, else sample counts */
	/* range and weights (of bins and phases) of every table */
	struct spaa_table tables;
	regex_t label;
	bool has_label;         /* --label given */
	double penalty;         /* --penalty */
	int64_t min_phase;      /* --min-phase, ns (0 when not given) */
	uint32_t nolabel;       /* the label of a stack without a function */
	struct spaa_changepoint_obs *obs;       /* (bin, function) weights */
	uint32_t nobs;
	struct spaa_changepoint_result cp;
	uint32_t *phase_of;     /* phase per bin */
	struct spaa_timechart_opts chart;       /* --svg */
	char grid[64];          /* "bins of 100ms" */
};

/* The logical frames of a stack: those of its first record, if any. */
static void stack_frames(const struct spaa_profile *p, uint32_t stack,
			 const uint32_t **frames, uint32_t *n)
{
	const struct spaa_stack *s = &p->stacks[stack];

	if (s->first_record != SPAA_NONE) {
		*frames = spaa_profile_record_frames(p, &p->records[s->first_record]);
		*n = p->records[s->first_record].nframes;
	} else {
		*frames = p->frame_pool + s->frames;
		*n = s->nframes;
	}
}

static const char *fn_name(const struct spaa_profile *p, uint32_t frame)
{
	return spaa_profile_str(p, p->functions[p->frames[frame].fn].name);
}

/* Whether --focus/--ignore keep the stack of these frames. */
static bool selected(struct pass *ps, const struct spaa_profile *p,
		     const uint32_t *frames, uint32_t n)
{
	const struct spaa_filter *f = &ps->o->filter;
	size_t nfn = spaa_profile_nfunctions(p);

	if (!spaa_filter_has_stacks(f))
		return true;
	/* functions come as the profile streams by: the memo grows with them */
	if (nfn + 1 > ps->selected_alloc) {
		size_t old = ps->selected_alloc;

		SPAA_ALLOC_GROW(ps->selected, nfn + 1, ps->selected_alloc);
		memset(ps->selected + old, 0, ps->selected_alloc - old);
	}
	return spaa_filter_stack(f, p, frames, n, ps->selected);
}

/*
 * The function a stack's weight goes to: its leaf, or the --label match;
 * LABEL_NONE when no frame matches, LABEL_OUT when --focus/--ignore leave
 * the stack out.  Cached: both run regexes.
 */
static uint32_t label_of(struct pass *ps, const struct spaa_profile *p,
			 uint32_t stack)
{
	const uint32_t *frames;
	uint32_t n, l = LABEL_NONE;

	if (stack >= ps->label_alloc) {
		size_t old = ps->label_alloc;

		SPAA_ALLOC_GROW(ps->label, (size_t)stack + 1, ps->label_alloc);
		for (size_t i = old; i < ps->label_alloc; i++)
			ps->label[i] = SPAA_NONE;
	}
	if (ps->label[stack] != SPAA_NONE)
		return ps->label[stack];
	stack_frames(p, stack, &frames, &n);
	if (!selected(ps, p, frames, n))
		return ps->label[stack] = LABEL_OUT;
	for (uint32_t i = 0; i < n; i++)
		if (!ps->label_re || !regexec(ps->label_re, fn_name(p, frames[i]), 0, NULL, 0)) {
			l = p->frames[frames[i]].fn;
			break;
		}
	return ps->label[stack] = l;
}

/*
 * What a sample is binned under: its stack's label when that is final
 * already, else the stack itself (STACK_KEY set), labelled after the
 * pass.  A label is final once the stack is defined, unless a record of
 * it names related stacks: a kernel stack may then be put on top at the
 * end of the file (spaa_reader.h), and the leaf becomes the kernel's.
 * (A record naming them after samples of the stack were labelled is
 * found by late_labels.)
 */
static uint32_t sample_key(struct pass *ps, const struct spaa_profile *p,
			   uint32_t stack)
{
	const struct spaa_stack *s = &p->stacks[stack];

	if (!s->defined || s->related)
		return stack | STACK_KEY;
	if (stack >= ps->early_alloc) {
		size_t old = ps->early_alloc;

		SPAA_ALLOC_GROW(ps->early, (size_t)stack + 1, ps->early_alloc);
		memset(ps->early + old, 0, ps->early_alloc - old);
	}
	ps->early[stack] = 1;
	return label_of(ps, p, stack);
}

/*
 * Stacks labelled while samples streamed whose label changed since: a
 * later record of theirs named a related kernel stack.  Their earlier
 * samples stay under the old label; the count goes into a warning.
 */
static uint32_t late_labels(struct pass *ps, const struct spaa_profile *p)
{
	uint32_t n = 0;

	for (uint32_t s = 0; s < ps->early_alloc && s < p->nstacks; s++) {
		uint32_t was;

		if (!ps->early[s] || !p->stacks[s].related)
			continue;
		was = ps->label[s];
		ps->label[s] = SPAA_NONE;
		n += label_of(ps, p, s) != was;
	}
	return n;
}

/* What on_sample will read of a stack, fetched ahead (load.h). */
static void sample_soon(void *data, uint32_t stack, bool near)
{
	const struct pass *ps = data;

	if (near)
		return;
	if (stack < ps->p->nstacks)
		__builtin_prefetch(&ps->p->stacks[stack]);
	if (stack < ps->label_alloc)
		__builtin_prefetch(&ps->label[stack]);
	if (stack < ps->early_alloc)
		__builtin_prefetch(&ps->early[stack]);
}

static int on_sample(void *data, const struct spaa_profile *p,
		     const struct spaa_sample *s, struct spaa_error *err)
{
	static const size_t keysizes[NSERIES] = {
		[S_STACK] = sizeof(uint32_t),
		[S_THREAD] = sizeof(struct thread_key),
		[S_CPU] = sizeof(struct cpu_key),
	};
	struct pass *ps = data;
	const struct spaa_analysis_opts *o = ps->o;
	const struct spaa_filter *f = &o->filter;
	struct thread_key tk;
	struct cpu_key ck;
	uint32_t key;
	int64_t bin;

	if (!ps->started) {
		const struct spaa_file *file = &p->files[s->file];
		int64_t origin = f->has_begin ? f->begin :
				 file->has_time_range ? file->time_start : 0;
		int64_t width = ps->width;

		ps->started = true;
		ps->event = o->event ? spaa_profile_find_event(p, o->event) : 0;
		if (!width && file->has_time_range) {
			/* the span up front: bins fine enough, never too many */
			int64_t lo = f->begin > file->time_start ? f->begin : file->time_start;
			int64_t hi = f->end < file->time_end ? f->end : file->time_end;
			uint64_t span = hi > lo ? (uint64_t)hi - (uint64_t)lo : 0;

			width = spaa_timegrid_round_width((int64_t)(span / ps->fine_bins) + 1, 1);
		}
		spaa_timegrid_init(&ps->tb, origin, width ? width : START_WIDTH,
				  ps->width != 0, ps->fine_bins, keysizes, NSERIES);
		ps->tb.max_cells = MAX_CELLS;
	}
	if (s->event != ps->event || !spaa_filter_time(f, s->time) ||
	    !spaa_filter_context(f, p, s->pid, s->tid, 0))
		return 0;
	key = sample_key(ps, p, s->stack);
	if (key == LABEL_OUT)
		return 0;
	if (ps->samples && s->period_metric != ps->period_metric)
		ps->period_metric_mixed = true;
	ps->period_metric = s->period_metric;
	ps->samples++;
	ps->no_period += !s->has_period;
	if (spaa_timegrid_place(&ps->tb, s->time, &bin, err) ||
	    spaa_timegrid_add(&ps->tb, S_STACK, bin, &key, 1, s->period, err))
		goto fail;
	memset(&tk, 0, sizeof(tk));
	memset(&ck, 0, sizeof(ck));
	tk.pid = s->pid;
	tk.tid = s->tid;
	ck.cpu = s->cpu;
	/* undecided: the thread and CPU cells wait for the stack's verdict */
	tk.stack = ck.stack = key & STACK_KEY && spaa_filter_has_stacks(f) ? s->stack :
			      SPAA_NONE;
	if (spaa_timegrid_add(&ps->tb, S_THREAD, bin, &tk, 1, s->period, err))
		goto fail;
	if (s->cpu != SPAA_NO_ID &&
	    spaa_timegrid_add(&ps->tb, S_CPU, bin, &ck, 1, s->period, err))
		goto fail;
	if (spaa_timegrid_limit_cells(&ps->tb, err))
		goto fail;
	return 0;
fail:
	/* the error is about this sample: name its line (copies: no aliasing) */
	{
		struct spaa_error e = *err;

		return spaa_error_at(err, e.code, spaa_profile_str(p, p->files[s->file].path),
				     s->line, "%s", e.msg);
	}
}

static const char *label_name(const struct phases *h, uint32_t l)
{
	if (l == SPAA_CHANGEPOINT_NO_LABEL)
		return NULL;
	if (l == h->nolabel)
		return h->has_label ? "[no frame matches --label]" : "[empty stack]";
	return spaa_profile_str(h->p, h->p->functions[l].name);
}

/*
 * Weights: periods when every sample has one and they measure the
 * metric ("period", or what the samples name, e.g. SPX's "wt"); sample
 * counts for "samples"/"count" and for any other metric, which samples
 * cannot split by time (the title says so).
 */
static void choose_weights(struct phases *h)
{
	const struct spaa_profile *p = h->p;
	const char *m = spaa_profile_str(p, h->metric);
	uint32_t samples = spaa_strtab_find(&p->strings, "samples", 7);
	struct spaa_table *t = &h->tables;
	const char *event = spaa_profile_str(p, p->events[h->event].name);

	h->by_period = !h->pass.no_period && !h->pass.period_metric_mixed &&
		       (h->pass.period_metric ? h->pass.period_metric == h->metric :
			!strcmp(m, "period"));
	if (h->by_period) {
		spaa_metrics_semantics(p, h->event, h->metric,
				       spaa_metrics_unit(p, h->event, h->metric), &t->sem);
		spaa_table_what_add(t, "event '%s', weight: %s", event, m);
		return;
	}
	if (samples != SPAA_NONE)
		spaa_metrics_semantics(p, h->event, samples, 0, &t->sem);
	if (!strcmp(m, "samples") || !strcmp(m, "count"))
		spaa_table_what_add(t, "event '%s', weight: samples", event);
	else
		spaa_table_what_add(t, "event '%s', weight: samples, as metric '%s' %s",
				    event, m, strcmp(m, "period") ?
				    "cannot be split by time" :
				    "is missing from some samples");
}

/*
 * Extends the bins over the whole result range (within the profile's
 * span), so that stretches without samples at its start or end show as
 * idle.  A fixed grid is extended only while it stays within its bins.
 */
static int cover_range(struct phases *h, struct spaa_error *err)
{
	const struct spaa_profile *p = h->p;
	struct spaa_timegrid *tb = &h->pass.tb;
	int64_t lo = h->tables.begin > p->time_start ? h->tables.begin : p->time_start;
	int64_t hi = h->tables.end < p->time_end ? h->tables.end : p->time_end;
	int64_t b, d;

	if (!p->has_time || lo > hi)
		return 0;
	/* a time range's end is where the next bin would start */
	if (hi > lo)
		hi--;
	if (tb->fixed) {
		/* lo and hi are bins apart by (hi - lo) / width + 1 at most */
		if (__builtin_sub_overflow(hi, lo, &d) || d / tb->width + 2 >= tb->max_bins)
			return 0;
	}
	return spaa_timegrid_place(tb, lo, &b, err) || spaa_timegrid_place(tb, hi, &b, err) ? -1 : 0;
}

/* Merges the fine bins of the pass down to --bins (or the default). */
static int final_bins(struct phases *h, struct spaa_error *err)
{
	struct spaa_timegrid *tb = &h->pass.tb;
	uint64_t want = h->opts->bins;
	int64_t w;

	if (tb->fixed)
		return 0;
	if (!want) {
		want = (uint64_t)ceil(sqrt((double)h->pass.samples));
		if (want > DEFAULT_MAX_BINS)
			want = DEFAULT_MAX_BINS;
	}
	if (spaa_timegrid_nbins(tb) <= want)
		return 0;
	/* the smallest round width that leaves at most want bins */
	w = spaa_timegrid_round_width(tb->width + 1, tb->width);
	for (;;) {
		int64_t f = w / tb->width;
		int64_t lo = tb->lo / f - (tb->lo % f < 0), hi = tb->hi / f - (tb->hi % f < 0);

		if ((uint64_t)hi - (uint64_t)lo < want || w > INT64_MAX / 2)
			break;
		w = spaa_timegrid_round_width(w + 1, tb->width);
	}
	return spaa_timegrid_coarsen(tb, w / tb->width, err);
}

static int segment(struct phases *h, struct spaa_error *err)
{
	const struct spaa_timegrid *tb = &h->pass.tb;
	uint32_t n = spaa_timegrid_ncells(tb, S_STACK);
	struct spaa_changepoint_obs *obs = spaa_xmalloc(((size_t)n + 1) * sizeof(*obs));
	struct spaa_changepoint_opts co = { .penalty = h->penalty };
	int64_t min_phase = h->min_phase;
	uint32_t nbins = (uint32_t)spaa_timegrid_nbins(tb);

	/* a bin straddling a boundary must not become a phase: two bins by default */
	co.min_bins = h->opts->min_phase ? (uint32_t)((min_phase + tb->width - 1) / tb->width) : 2;
	if (!co.min_bins || (uint64_t)min_phase / (uint64_t)tb->width > nbins)
		co.min_bins = co.min_bins ? nbins + 1 : 1;
	co.idle_bins = h->opts->min_phase ? co.min_bins : 2;
	co.max_phases = h->opts->max_phases > UINT32_MAX ? UINT32_MAX :
			(uint32_t)h->opts->max_phases;
	h->nobs = 0;
	for (uint32_t i = 0; i < n; i++) {
		struct spaa_timegrid_sum sum;
		int64_t bin;
		uint32_t key, l;

		memcpy(&key, spaa_timegrid_cell(tb, S_STACK, i, &bin, &sum), sizeof(key));
		l = key & STACK_KEY ? label_of(&h->pass, h->p, key & ~STACK_KEY) : key;
		if (l == LABEL_OUT) {
			/* decided after the pass: left out, uncounted */
			h->pass.samples -= sum.count;
			continue;
		}
		obs[h->nobs++] = (struct spaa_changepoint_obs){
			(uint32_t)(bin - tb->lo), l == LABEL_NONE ? h->nolabel : l,
			h->by_period ? sum.weight : sum.count, sum.count,
		};
	}
	h->obs = obs;
	n = h->nobs;
	if (spaa_changepoint_segment(obs, n, nbins, &co, &h->cp, err))
		return -1;
	h->phase_of = spaa_xmalloc(((size_t)nbins + 1) * sizeof(*h->phase_of));
	for (uint32_t ph = 0; ph < h->cp.nphases; ph++)
		for (uint32_t b = h->cp.phases[ph].first; b <= h->cp.phases[ph].last; b++)
			h->phase_of[b] = ph;
	return 0;
}

/*
 * The timeline as a picture (--svg): each bin's weight over its
 * functions, each phase labelled with its number and top function.
 */
static int draw_timeline(struct phases *h, struct spaa_error *err)
{
	const struct spaa_timegrid *tb = &h->pass.tb;
	struct spaa_timechart *tc = spaa_timechart_new(spaa_timegrid_start(tb, tb->lo),
						       tb->width, h->cp.nbins);
	struct spaa_timechart_opts o = h->chart;
	char title[1024], what[1024];
	int ret = -1;

	for (uint32_t i = 0; i < h->nobs; i++) {
		const char *name = label_name(h, h->obs[i].label);

		if (spaa_timechart_add(tc, h->obs[i].bin, name, strlen(name),
				       h->obs[i].weight, err))
			goto out;
	}
	for (uint32_t i = 0; i < h->cp.nphases; i++) {
		const struct spaa_changepoint_phase *ph = &h->cp.phases[i];
		const char *top = label_name(h, ph->sum.top[0]);

		snprintf(title, sizeof(title), "%" PRIu32 ": %s", i + 1,
			 ph->idle || !top ? "idle" : top);
		spaa_timechart_span(tc, ph->first, ph->last, title);
	}
	snprintf(title, sizeof(title), "Phases of %s", h->run->opts->paths.items[0]);
	snprintf(what, sizeof(what), "%s; %s; %" PRIu32 " phase%s", h->tables.what,
		 h->grid, h->cp.nphases, h->cp.nphases == 1 ? "" : "s");
	if (!o.title)
		o.title = title;
	o.what = what;
	o.sem = &h->tables.sem;
	o.other = "other functions";
	ret = spaa_timechart_write_file(tc, &o, h->opts->svg.path, err);
	if (!ret)
		h->run->picture = h->opts->svg.path;
out:
	spaa_timechart_free(tc);
	return ret;
}

static void top_cells(struct phases *h, struct spaa_lami_table *t,
		      const struct spaa_changepoint_summary *s, int n)
{
	for (int i = 0; i < n; i++) {
		if (s->top[i] == SPAA_CHANGEPOINT_NO_LABEL) {
			spaa_lami_cell_unknown(t);
			spaa_lami_cell_unknown(t);
			continue;
		}
		spaa_lami_cell_string(t, label_name(h, s->top[i]));
		spaa_table_share_cell(t, s->top_weight[i], s->weight);
	}
}

/*
 * Distinct threads and CPUs of each phase, and with --by-thread the
 * weight of each (phase, thread).  Counts are -1 when no sample says.
 */
struct phase_ctx {
	int64_t *threads, *cpus;
	struct spaa_map pt;     /* (phase, pid, tid) */
	uint64_t *pt_weight;
	size_t pt_alloc;
};

struct pt_key {
	uint32_t phase, pad;
	int64_t pid, tid;
};

static void phase_context(struct phases *h, struct phase_ctx *c)
{
	const struct spaa_timegrid *tb = &h->pass.tb;
	uint32_t np = h->cp.nphases;
	struct spaa_map cpus;   /* (phase, cpu) */

	c->threads = spaa_xmalloc(((size_t)np + 1) * sizeof(int64_t));
	c->cpus = spaa_xmalloc(((size_t)np + 1) * sizeof(int64_t));
	for (uint32_t i = 0; i < np; i++)
		c->threads[i] = c->cpus[i] = -1;
	spaa_map_init(&c->pt, sizeof(struct pt_key));
	c->pt_weight = NULL;
	c->pt_alloc = 0;
	for (uint32_t i = 0; i < spaa_timegrid_ncells(tb, S_THREAD); i++) {
		struct spaa_timegrid_sum sum;
		struct pt_key k;
		int64_t bin;
		const struct thread_key *tk = spaa_timegrid_cell(tb, S_THREAD, i, &bin, &sum);
		bool created;
		uint32_t at;

		if (tk->stack != SPAA_NONE && label_of(&h->pass, h->p, tk->stack) == LABEL_OUT)
			continue;
		memset(&k, 0, sizeof(k));
		k.phase = h->phase_of[bin - tb->lo];
		k.pid = tk->pid;
		k.tid = tk->tid;
		at = spaa_map_intern(&c->pt, &k, &created);
		if (created) {
			SPAA_ALLOC_GROW(c->pt_weight, (size_t)at + 1, c->pt_alloc);
			c->pt_weight[at] = 0;
			if (k.pid != SPAA_NO_ID || k.tid != SPAA_NO_ID)
				c->threads[k.phase] = c->threads[k.phase] < 0 ? 1 : c->threads[k.phase] + 1;
		}
		/* parts of the phase weight, which fitted */
		c->pt_weight[at] += h->by_period ? sum.weight : sum.count;
	}
	spaa_map_init(&cpus, sizeof(int64_t) * 2);
	for (uint32_t i = 0; i < spaa_timegrid_ncells(tb, S_CPU); i++) {
		struct spaa_timegrid_sum sum;
		int64_t bin, k[2];
		bool created;
		const struct cpu_key *ck = spaa_timegrid_cell(tb, S_CPU, i, &bin, &sum);

		if (ck->stack != SPAA_NONE && label_of(&h->pass, h->p, ck->stack) == LABEL_OUT)
			continue;
		k[1] = ck->cpu;
		k[0] = h->phase_of[bin - tb->lo];
		spaa_map_intern(&cpus, k, &created);
		if (created)
			c->cpus[k[0]] = c->cpus[k[0]] < 0 ? 1 : c->cpus[k[0]] + 1;
	}
	spaa_map_release(&cpus);
	/* a phase of a profile that names threads (CPUs) has some, maybe 0 */
	for (uint32_t i = 0; i < np; i++) {
		if (c->threads[i] < 0 && spaa_profile_nthreads(h->p))
			c->threads[i] = 0;
		if (c->cpus[i] < 0 && spaa_timegrid_ncells(tb, S_CPU))
			c->cpus[i] = 0;
	}
}

static void phase_context_release(struct phase_ctx *c)
{
	free(c->threads);
	free(c->cpus);
	spaa_map_release(&c->pt);
	free(c->pt_weight);
}

/* A duration too long for 64-bit ns (292 years) is unknown, never wrapped. */
static void duration_cell(struct spaa_lami_table *t, int64_t b, int64_t e, int64_t extra)
{
	int64_t d;

	if (spaa_time_span(b, e, extra, &d))
		spaa_lami_cell_unknown(t);
	else
		spaa_lami_cell_duration(t, d);
}

static void phases_table(struct phases *h, const struct phase_ctx *c)
{
	const struct spaa_timegrid *tb = &h->pass.tb;
	struct spaa_lami_table *t = spaa_table_new(&h->tables, &classes[T_PHASES],
						   "%s", h->grid);

	for (size_t i = 0; i < spaa_table_rows(&h->tables, h->cp.nphases); i++) {
		const struct spaa_changepoint_phase *ph = &h->cp.phases[i];
		int64_t b = spaa_timegrid_start(tb, tb->lo + ph->first);
		int64_t e = spaa_timegrid_end(tb, tb->lo + ph->last);

		spaa_lami_row_begin(t);
		spaa_lami_cell_int(t, (int64_t)i + 1);
		spaa_lami_cell_string(t, ph->idle ? "idle" : "active");
		spaa_lami_cell_time_range(t, b, e);
		duration_cell(t, b, e, 1);
		spaa_lami_cell_u64(t, SPAA_LAMI_CELL_INT, ph->sum.samples);
		spaa_table_weight_cell(t, &h->tables.sem, ph->sum.weight);
		top_cells(h, t, &ph->sum, 2);
		if (c->threads[i] < 0)
			spaa_lami_cell_unknown(t);
		else
			spaa_lami_cell_int(t, c->threads[i]);
		if (c->cpus[i] < 0)
			spaa_lami_cell_unknown(t);
		else
			spaa_lami_cell_int(t, c->cpus[i]);
		spaa_lami_row_end(t);
	}
	spaa_table_add(&h->tables, t);
}

static void timeline_table(struct phases *h)
{
	const struct spaa_timegrid *tb = &h->pass.tb;
	struct spaa_lami_table *t = spaa_table_new(&h->tables, &classes[T_TIMELINE],
						   "%s", h->grid);

	for (size_t i = 0; i < spaa_table_rows(&h->tables, h->cp.nbins); i++) {
		const struct spaa_changepoint_summary *s = &h->cp.bins[i];

		spaa_lami_row_begin(t);
		spaa_lami_cell_time_range(t, spaa_timegrid_start(tb, tb->lo + (int64_t)i),
				     spaa_timegrid_end(tb, tb->lo + (int64_t)i));
		spaa_lami_cell_int(t, (int64_t)h->phase_of[i] + 1);
		spaa_lami_cell_u64(t, SPAA_LAMI_CELL_INT, s->samples);
		spaa_table_weight_cell(t, &h->tables.sem, s->weight);
		top_cells(h, t, s, 1);
		spaa_lami_row_end(t);
	}
	spaa_table_add(&h->tables, t);
}

static int phase_threads_table(struct phases *h, const struct phase_ctx *c)
{
	const struct spaa_profile *p = h->p;
	uint32_t n = c->pt.nr;
	struct spaa_rank *rank = spaa_xmalloc(((size_t)n + 1) * sizeof(*rank));
	struct spaa_lami_table *t = spaa_table_new(&h->tables, &classes[T_PHASE_THREADS],
						   NULL);

	size_t rows = 0;

	/* by phase, then by weight: the phase in key, inverted, ranks first */
	for (uint32_t i = 0; i < n; i++) {
		const struct pt_key *k = spaa_map_key(&c->pt, i);

		if (spaa_filter_percent(h->run->opts->percent_limit, (double)c->pt_weight[i],
					(double)h->cp.phases[k->phase].sum.weight))
			rank[rows++] = (struct spaa_rank){
				UINT32_MAX - k->phase, c->pt_weight[i], NULL, k->tid, i,
			};
	}
	spaa_rank_sort(rank, rows);
	for (size_t i = 0; i < spaa_table_rows(&h->tables, rows); i++) {
		const struct pt_key *k = spaa_map_key(&c->pt, rank[i].idx);

		spaa_lami_row_begin(t);
		spaa_lami_cell_int(t, (int64_t)k->phase + 1);
		spaa_table_process_cell(t, p, k->pid, k->tid, 0);
		spaa_table_weight_cell(t, &h->tables.sem, c->pt_weight[rank[i].idx]);
		spaa_table_share_cell(t, c->pt_weight[rank[i].idx],
				       h->cp.phases[k->phase].sum.weight);
		spaa_lami_row_end(t);
	}
	free(rank);
	spaa_table_add(&h->tables, t);
	return 0;
}

/* The heaviest folded call path of window w, into *name (owned), or NULL. */
static int window_top(struct phases *h, const struct spaa_window *w,
		      uint64_t *total, uint64_t *top, char **name,
		      struct spaa_error *err)
{
	const struct spaa_profile *p = h->p;
	struct spaa_aggregate a;
	uint32_t best = 0;
	int ret = -1;

	*name = NULL;
	*top = 0;
	spaa_aggregate_init(&a, p);
	for (uint32_t i = 0; i < w->nentries; i++) {
		const struct spaa_window_entry *e = &p->window_entries[w->entries + i];
		struct spaa_aggregate_occurrence o;
		uint64_t v;

		if (!spaa_profile_weights_get(p, e->weights, e->nweights, h->metric, &v) || !v)
			continue;
		memset(&o, 0, sizeof(o));
		stack_frames(p, e->stack, &o.frames, &o.nframes);
		if (!o.nframes || !selected(&h->pass, p, o.frames, o.nframes))
			continue;
		o.self_frame = o.frames[0];
		o.weight = o.self = v;
		o.pid = o.tid = o.cpu = SPAA_NO_ID;
		if (spaa_aggregate_add(&a, &o, err))
			goto out;
	}
	/* ties: the first path seen, as entries come in file order */
	for (uint32_t i = 1; i < a.paths.nr; i++)
		if (a.path_weight[i] > *top) {
			*top = a.path_weight[i];
			best = i;
		}
	if (best)
		*name = spaa_aggregate_path_name(&a, best);
	*total = a.total;
	ret = 0;
out:
	spaa_aggregate_release(&a);
	return ret;
}

static int windows_table(struct phases *h, struct spaa_error *err)
{
	const struct spaa_profile *p = h->p;
	const struct spaa_filter *f = &h->run->opts->filter;
	struct spaa_metrics_sem sem;
	struct spaa_lami_table *t = spaa_table_new(&h->tables, &classes[T_WINDOWS], NULL);
	size_t rows = 0;

	/* windows carry the metric itself, whatever the samples weigh */
	spaa_metrics_semantics(p, h->event, h->metric,
			       spaa_metrics_unit(p, h->event, h->metric), &sem);
	spaa_lami_table_set_title(t, "%s (metric '%s')", classes[T_WINDOWS].title,
				  spaa_profile_str(p, h->metric));
	spaa_table_weight_column(t, 3, &sem);
	for (uint32_t i = 0; i < p->nwindows && rows < h->tables.limit; i++) {
		const struct spaa_window *w = &p->windows[i];
		uint64_t total, top;
		char *name;

		if (w->end < f->begin || w->start > f->end)
			continue;
		if (window_top(h, w, &total, &top, &name, err)) {
			spaa_lami_table_free(t);
			return -1;
		}
		spaa_lami_row_begin(t);
		spaa_lami_cell_string(t, spaa_profile_str(p, w->id));
		spaa_lami_cell_time_range(t, w->start, w->end);
		duration_cell(t, w->start, w->end, 0);
		spaa_table_weight_cell(t, &sem, total);
		if (name)
			spaa_lami_cell_string(t, name);
		else
			spaa_lami_cell_unknown(t);
		spaa_table_share_cell(t, top, total);
		spaa_lami_row_end(t);
		free(name);
		rows++;
	}
	spaa_table_add(&h->tables, t);
	return 0;
}

/* Options that the option table cannot check by itself. */
static int check_options(struct pass *ps, struct phases *h, struct spaa_error *err)
{
	const struct options *o = h->opts;
	int rc;

	if (o->bins && o->bin_width)
		return spaa_error_set(err, SPAA_E_USAGE, "give '--bins' or '--bin-width', not both");
	if (o->bins > MAX_BINS)
		return spaa_error_set(err, SPAA_E_USAGE, "'--bins' must be at most %u", MAX_BINS);
	if (o->bin_width && (spaa_units_parse_duration(o->bin_width, &ps->width) || !ps->width))
		return spaa_error_set(err, SPAA_E_USAGE,
				      "invalid value '%s' for '--bin-width' (a positive duration such as 10ms)",
				      o->bin_width);
	h->penalty = DEFAULT_PENALTY;
	if (o->penalty && spaa_units_parse_decimal(o->penalty, &h->penalty))
		return spaa_error_set(err, SPAA_E_USAGE, "invalid value '%s' for '--penalty'",
				      o->penalty);
	if (o->min_phase && spaa_units_parse_duration(o->min_phase, &h->min_phase))
		return spaa_error_set(err, SPAA_E_USAGE,
				      "invalid value '%s' for '--min-phase' (a duration such as 500ms)",
				      o->min_phase);
	ps->fine_bins = ps->width ? MAX_BINS : o->bins * 4 > FINE_BINS ? (uint32_t)o->bins * 4 : FINE_BINS;
	if (spaa_timechart_args_apply(&o->svg, &h->chart, err))
		return -1;
	if (o->label) {
		rc = regcomp(&h->label, o->label, REG_EXTENDED | REG_NOSUB);
		if (rc) {
			char msg[256];

			regerror(rc, &h->label, msg, sizeof(msg));
			return spaa_error_set(err, SPAA_E_USAGE,
					      "invalid value '%s' for '--label': %s", o->label, msg);
		}
		h->has_label = true;
		ps->label_re = &h->label;
	} else if (ps->o->filter.has_focus) {
		/* what --focus keeps is labelled by what it matched */
		ps->label_re = &ps->o->filter.focus;
	}
	return 0;
}

/* The text header: the profile, what is weighed, its total in the bins. */
static void describe(struct phases *h)
{
	uint64_t total = 0;

	spaa_header_profile(&h->run->header, "Profile", h->p,
			    h->run->opts->paths.items[0], &h->tables);
	for (uint32_t i = 0; i < h->nobs; i++)
		if (spaa_add_u64(total, h->obs[i].weight, &total))
			return;         /* past 64 bits: the tables say it (overflow) */
	spaa_header_weights(&h->run->header, &h->tables, &total, h->pass.samples, "samples");
}

static int phases_run(struct spaa_analysis_run *run, struct spaa_error *err)
{
	const struct spaa_analysis_opts *o = run->opts;
	struct spaa_load_opts lo = run->load;
	struct spaa_profile p;
	struct phases h = {
		.run = run, .opts = run->options, .p = &p, .pass = { .o = o, .p = &p },
	};
	struct phase_ctx ctx = { 0 };
	char width[32];
	int ret = -1;

	spaa_profile_init(&p);
	spaa_table_init(&h.tables, &run->results, o->limit);
	if (check_options(&h.pass, &h, err))
		goto out;
	lo.on_sample = on_sample;
	lo.on_sample_soon = sample_soon;
	lo.data = &h.pass;
	if (spaa_load(&p, o->paths.items, o->paths.nr, &lo, err) ||
	    spaa_weights_select(&p, o->event, o->metric, &h.event, &h.metric, err) ||
	    /* samples there, none selected: why (a profile without any is NO_TIME) */
	    (!h.pass.samples && p.nsamples && !p.nwindows &&
	     spaa_filter_explain_empty(&o->filter, &p, err)))
		goto out;
	spaa_weights_left_out_event(&run->left_out, &p, h.event);
	if (!p.nsamples && !p.nwindows) {
		spaa_error_set(err, SPAA_E_NO_DATA,
			       NO_TIME);
		goto out;
	}
	spaa_table_set_range(&h.tables, &o->filter, &p);
	choose_weights(&h);
	spaa_table_what_filter(&h.tables, &o->filter);
	if (h.has_label)
		spaa_table_what_add(&h.tables, "a stack counts for its leaf-most function matching '%s'",
				    h.opts->label);
	if (h.pass.samples) {
		uint32_t late = late_labels(&h.pass, &p);

		h.nolabel = spaa_profile_nfunctions(&p);
		if (late)
			spaa_warn(&run->load.warn, spaa_profile_str(&p, p.files[0].path), 0,
				  "%u stack%s named a related kernel stack only after some of their samples; those samples count under the stack's own leaf",
				  late, late == 1 ? "" : "s");
		/* samples decided after the pass may all have been left out */
		if (cover_range(&h, err) || final_bins(&h, err) || segment(&h, err) ||
		    (!h.pass.samples && spaa_filter_explain_empty(&o->filter, &p, err)))
			goto out;
		describe(&h);
		snprintf(h.grid, sizeof(h.grid), "bins of %s",
			 spaa_units_format_duration(h.pass.tb.width, width, sizeof(width)));
		phase_context(&h, &ctx);
		phases_table(&h, &ctx);
		timeline_table(&h);
		if (h.opts->by_thread && phase_threads_table(&h, &ctx))
			goto out;
		if (h.opts->svg.path && draw_timeline(&h, err))
			goto out;
	} else if (spaa_filter_has_range(&o->filter) && p.events[h.event].nsamples) {
		/* a selection between samples: the window, without phases */
		if (spaa_table_empty_window(&h.tables, &o->filter, &p, "the profile", err))
			goto out;
		spaa_table_add_empty(&h.tables, &classes[T_PHASES]);
		spaa_table_add_empty(&h.tables, &classes[T_TIMELINE]);
	}
	if (h.opts->svg.path && !h.pass.samples) {
		spaa_error_set(err, SPAA_E_NO_DATA,
			       "'--svg' draws samples, and there are none of event '%s'",
			       spaa_profile_str(&p, p.events[h.event].name));
		goto out;
	}
	if (p.nwindows && windows_table(&h, err))
		goto out;
	if (!run->results.nr) {
		spaa_error_set(err, SPAA_E_NO_DATA, "no samples of event '%s'%s",
			       spaa_profile_str(&p, p.events[h.event].name),
			       spaa_filter_has_range(&o->filter) ?
			       " between --begin and --end" : "");
		goto out;
	}
	ret = 0;
out:
	phase_context_release(&ctx);
	spaa_timegrid_release(&h.pass.tb);
	spaa_changepoint_result_release(&h.cp);
	free(h.phase_of);
	free(h.obs);
	free(h.pass.label);
	free(h.pass.early);
	free(h.pass.selected);
	if (h.has_label)
		regfree(&h.label);
	spaa_profile_release(&p);
	return ret;
}

/* Compatible: a profile with time-stamped samples or windows. */
static int phases_compatible(const struct spaa_profile *p, const char *path,
			     struct spaa_error *err)
{
	if (p->nsamples || p->nwindows)
		return 0;
	return spaa_error_at(err, SPAA_E_INCOMPATIBLE, path, 0,
			     NO_TIME);
}

const struct spaa_analysis spaa_analysis_phases = {
	.name = "phases",
	.title = "SPAA phases",
	.description = "How the behaviour of a run changes over time: the phases "
		       "where the mix of functions in the samples stays the same, "
		       "idle gaps, a timeline of time bins, and window records.",
	.synopsis = "PROFILE",
	.classes = classes,
	.nclasses = sizeof(classes) / sizeof(classes[0]),
	.options = options,
	.options_size = sizeof(struct options),
	.flags = SPAA_ANALYSIS_EVENT | SPAA_ANALYSIS_THREADS | SPAA_ANALYSIS_STACKS |
		 SPAA_ANALYSIS_PERCENT,
	.run = phases_run,
	.compatible = phases_compatible,
};
