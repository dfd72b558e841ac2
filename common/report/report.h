/*
 * report - what analyses share between the profile and their tables:
 * choosing the event and metric, turning raw weights into LAMI cells of
 * the right class (metrics.h), shares, and the time range of the results.
 */
#ifndef SPAA_REPORT_H
#define SPAA_REPORT_H

#include <stdint.h>

#include "model/error.h"
#include "report/lami.h"
#include "model/metrics.h"
#include "model/profile.h"

/*
 * Resolves --event NAME (NULL: the first event of the header) and
 * --metric NAME (NULL: the event's primary metric) to indices.  Errors
 * (SPAA_E_USAGE) list what the profile does have.
 */
int spaa_report_select(const struct spaa_profile *p, const char *event_name,
		       const char *metric_name, uint32_t *event,
		       uint32_t *metric, struct spaa_error *err);

/* Declares column col of t as holding weights of semantics m. */
void spaa_report_weight_column(struct spaa_lami_table *t, size_t col,
			       const struct spaa_metrics_sem *m);

/* A weight cell: duration / size / int / number per m. */
void spaa_report_weight_cell(struct spaa_lami_table *t,
			     const struct spaa_metrics_sem *m, uint64_t raw);

/* part / whole as a ratio cell; unknown when whole is 0. */
void spaa_report_share_cell(struct spaa_lami_table *t, uint64_t part, uint64_t whole);

/*
 * Net weights, for a metric M split in two non-negative metrics: M the
 * positive parts and its twin "M-" the magnitudes of the negative parts
 * (SPX, spx_reader.h), so net = M - (M-), signed.
 *
 * spaa_report_twin: the string index of "M-" when event has it, else
 * SPAA_NONE.
 */
uint32_t spaa_report_twin(const struct spaa_profile *p, uint32_t event,
			  uint32_t metric);

/* pos - neg, saturated to int64 (sums are below 2^63 in any real profile). */
int64_t spaa_report_net(uint64_t pos, uint64_t neg);

/* A uint64 ordered as v is (for struct spaa_rank keys): v + 2^63. */
uint64_t spaa_report_net_key(int64_t v);

/*
 * Declares column col of t as holding net weights of semantics m: a
 * number with m's unit ("ns" for durations, "bytes" for sizes, "count"
 * for counts, the metric's own unit for numbers).
 */
void spaa_report_net_column(struct spaa_lami_table *t, size_t col,
			    const struct spaa_metrics_sem *m);

/* A net weight cell, scaled per m like spaa_report_weight_cell. */
void spaa_report_net_cell(struct spaa_lami_table *t, const struct spaa_metrics_sem *m,
			  int64_t net);

/* part / whole as a ratio cell; unknown when whole <= 0. */
void spaa_report_net_share_cell(struct spaa_lami_table *t, int64_t part, int64_t whole);

/*
 * What an analysis leaves out because it looks at other events: stack
 * records (not absorbed into a related stack) and sample records of the
 * events it does not analyse.  main writes a note on stderr at the end
 * of a run when either is not 0, so nothing is dropped silently.
 */
struct spaa_left_out {
	uint64_t records, samples;
};

/*
 * Adds to lo what p holds of the events for which analysed(p, event,
 * ctx) is false.  spaa_report_left_out_event: every event but one.
 */
void spaa_report_left_out(struct spaa_left_out *lo, const struct spaa_profile *p,
			  bool (*analysed)(const struct spaa_profile *p,
					   uint32_t event, const void *ctx),
			  const void *ctx);
void spaa_report_left_out_event(struct spaa_left_out *lo,
				const struct spaa_profile *p, uint32_t event);

/*
 * The compatibility test of analyses that work on any stacks
 * (struct spaa_analysis.compatible): p has stack or sample records.
 */
int spaa_report_need_stacks(const struct spaa_profile *p, const char *path,
			    struct spaa_error *err);

/*
 * The time range the results cover: --begin/--end where given, else the
 * profile's own span, else [0, 0] for a profile without time.
 */
void spaa_report_range(const struct spaa_lami_opts *o, const struct spaa_profile *p,
		       int64_t *begin, int64_t *end);

#endif
