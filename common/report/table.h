/*
 * table - what the tables of every analysis share: titles that say what
 * is weighed ("Functions by self weight (event 'E', metric 'M')"), the
 * time range they cover, weight columns in the class their metric means
 * (metrics.h), --limit, and the cells of weights, shares, deltas and
 * processes.  An analysis file picks rows and their order; this module
 * makes the cells.
 *
 * One struct spaa_table per run holds the parts common to its tables.
 * It owns nothing (the results and options are the run's), so it needs
 * no release; spaa_table_init fills it.
 */
#ifndef SPAA_TABLE_H
#define SPAA_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/filter.h"
#include "model/metrics.h"
#include "model/profile.h"
#include "report/lami.h"

struct spaa_table {
	struct spaa_lami_results *results;      /* weak: where tables go */
	uint64_t limit;                 /* --limit: rows per table */
	int64_t begin, end;             /* the time range of the results */
	struct spaa_metrics_sem sem;    /* what the weights mean */
	bool net;                       /* weights are signed nets (--net) */
	char what[768];                 /* said in every title: event, metric, caveats */
};

/*
 * Starts t for results, with no rows limit, no time range ([0, 0]) and
 * counts as weights (int); the run then sets what it knows.
 */
void spaa_table_init(struct spaa_table *t, struct spaa_lami_results *results,
		     uint64_t limit);

/* The time range of filter over p (spaa_filter_range) becomes t's. */
void spaa_table_set_range(struct spaa_table *t, const struct spaa_filter *f,
			  const struct spaa_profile *p);

/*
 * Appends to what, after ", " (more about what is weighed: "event 'E',
 * metric 'M', net: ...") or after "; " (a caveat: "...; whole profile:
 * ..."); neither separator when what is empty.
 */
void spaa_table_what_more(struct spaa_table *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void spaa_table_what_add(struct spaa_table *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Appends to what the stacks f selects beyond time, as a caveat
 * (spaa_filter_describe: "thread 8, stacks through 'RE'").
 */
void spaa_table_what_filter(struct spaa_table *t, const struct spaa_filter *f);

/*
 * A new table of class c over t's time range, titled "TITLE (WHAT)" or,
 * with extra_fmt, "TITLE (WHAT; EXTRA)", where every column the class
 * declares mixed holds weights (spaa_table_weight_column, or
 * spaa_table_net_column with t->net).  Owned by the caller until
 * spaa_table_add.
 */
struct spaa_lami_table *spaa_table_new(const struct spaa_table *t,
				       const struct spaa_lami_table_class *c,
				       const char *extra_fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * A --begin/--end window holding no sample of what is weighed, in a
 * profile that has samples: the analysis gives its tables without rows
 * rather than an error (a selection in Trace Compass' timeline may well
 * fall between samples).  spaa_table_empty_window adds to what that no
 * samples fall between --begin and --end, and the time p covers (p
 * named name: "the profile"); spaa_table_add_empty then adds a table of
 * class c without rows.  A window f moved from another clock that misses
 * p altogether is rather an error (spaa_filter_check_overlap): -1.
 */
int spaa_table_empty_window(struct spaa_table *t, const struct spaa_filter *f,
			    const struct spaa_profile *p, const char *name,
			    struct spaa_error *err);
void spaa_table_add_empty(struct spaa_table *t,
			  const struct spaa_lami_table_class *c);

/* How many of n ranked rows a table shows (--limit). */
static inline size_t spaa_table_rows(const struct spaa_table *t, size_t n)
{
	return t->limit < n ? (size_t)t->limit : n;
}

/* Adds lt to the results (which take it; a table without rows is freed). */
void spaa_table_add(struct spaa_table *t, struct spaa_lami_table *lt);

/* ---- weights --------------------------------------------------------- */

/* Declares column col of lt as holding weights of semantics m. */
void spaa_table_weight_column(struct spaa_lami_table *lt, size_t col,
			      const struct spaa_metrics_sem *m);

/*
 * A weight cell: duration / size / int / number per m.  A count of a
 * number class (scale 1) of 10^15 or more, past the 15 digits a number
 * cell keeps, is an int cell: exact in text and CSV, and in LAMI up to
 * 2^63 - 1 (past it an overflow error names the row: lami.h).
 */
void spaa_table_weight_cell(struct spaa_lami_table *lt,
			    const struct spaa_metrics_sem *m, uint64_t raw);

/* part / whole as a ratio cell; unknown when whole is 0. */
void spaa_table_share_cell(struct spaa_lami_table *lt, uint64_t part,
			   uint64_t whole);

/*
 * The weight pos of t's metric, or with t->net the signed net pos - neg
 * (weights.h), as a cell; and its share of the whole, unknown when the
 * whole is not positive or (net) when the part is negative or larger
 * than the whole: a share outside 0 to 100 % is no share.
 */
void spaa_table_weight(const struct spaa_table *t, struct spaa_lami_table *lt,
		       uint64_t pos, uint64_t neg);
void spaa_table_share(const struct spaa_table *t, struct spaa_lami_table *lt,
		      uint64_t part_pos, uint64_t part_neg,
		      uint64_t whole_pos, uint64_t whole_neg);

/*
 * Net weights are numbers (they may be negative: LAMI durations and
 * sizes may not) with m's unit: "ns" for durations, "bytes" for sizes,
 * "count" for counts, the metric's own unit for numbers; durations,
 * sizes and counts rounded to whole units.
 */
void spaa_table_net_column(struct spaa_lami_table *lt, size_t col,
			   const struct spaa_metrics_sem *m);
void spaa_table_net_cell(struct spaa_lami_table *lt,
			 const struct spaa_metrics_sem *m, int64_t net);

/* ---- values in class units (comparisons) ----------------------------- */

/*
 * A weight in class units (ns, bytes, ...: compare.h computes in them)
 * as a cell of m's class, durations, sizes and counts rounded to the
 * nearest integer.
 */
void spaa_table_value_cell(struct spaa_lami_table *lt,
			   const struct spaa_metrics_sem *m, double v);

/*
 * A difference of such values, in a weight column (spaa_table_new): a
 * cell of m's class rounded to a signed integer (ns, bytes, counts, the
 * counter's unit), so that Trace Compass shows no fractions in
 * scientific notation; never "-0".  One past the range of int64 (a
 * difference of weights past 2^63) is never clamped: the output is an
 * overflow error naming the row (spaa_lami_cell_past_i64).
 */
void spaa_table_delta_cell(struct spaa_lami_table *lt,
			   const struct spaa_metrics_sem *m, double v);

/*
 * Column col of lt holds differences of ratios (share deltas): text
 * shows them in percentage points, "pp" (LAMI keeps ratio cells).
 */
void spaa_table_points_column(struct spaa_lami_table *lt, size_t col);

/* A ratio, or unknown when v is not finite; never "-0". */
void spaa_table_ratio_cell(struct spaa_lami_table *lt, double v);

/* ---- processes ------------------------------------------------------- */

/*
 * The one way a process or thread is named: "comm (pid/tid)" as a LAMI
 * process cell.  The name is comm when the data gave one (a string index
 * of p, 0: none), else the comm p declares for the thread (pid, tid),
 * else the one of the process' main thread (pid, pid).  tid SPAA_NO_ID:
 * a whole process.
 */
void spaa_table_process_cell(struct spaa_lami_table *lt,
			     const struct spaa_profile *p, int64_t pid,
			     int64_t tid, uint32_t comm);

#endif
