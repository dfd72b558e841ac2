#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "analysis/weights.h"
#include "model/util.h"
#include "report/table.h"

void spaa_table_init(struct spaa_table *t, struct spaa_lami_results *results,
		     uint64_t limit)
{
	memset(t, 0, sizeof(*t));
	t->results = results;
	t->limit = limit;
	t->sem = (struct spaa_metrics_sem){ SPAA_METRICS_INT, 1.0, "" };
}

void spaa_table_set_range(struct spaa_table *t, const struct spaa_filter *f,
			  const struct spaa_profile *p)
{
	spaa_filter_range(f, p, &t->begin, &t->end);
}

/* Appends sep (unless what is empty) and the formatted text to what. */
__attribute__((format(printf, 3, 0)))
static void what_append(struct spaa_table *t, const char *sep, const char *fmt,
			va_list ap)
{
	size_t at = strlen(t->what);

	if (at && at < sizeof(t->what))
		at += (size_t)snprintf(t->what + at, sizeof(t->what) - at, "%s", sep);
	if (at < sizeof(t->what))
		vsnprintf(t->what + at, sizeof(t->what) - at, fmt, ap);
}

void spaa_table_what_more(struct spaa_table *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	what_append(t, ", ", fmt, ap);
	va_end(ap);
}

void spaa_table_what_add(struct spaa_table *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	what_append(t, "; ", fmt, ap);
	va_end(ap);
}

void spaa_table_what_filter(struct spaa_table *t, const struct spaa_filter *f)
{
	char said[512];

	if (*spaa_filter_describe(f, said, sizeof(said)))
		spaa_table_what_add(t, "%s", said);
}

struct spaa_lami_table *spaa_table_new(const struct spaa_table *t,
				       const struct spaa_lami_table_class *c,
				       const char *extra_fmt, ...)
{
	struct spaa_lami_table *lt = spaa_lami_table_new(c, t->begin, t->end);
	char extra[512] = "";
	va_list ap;

	if (extra_fmt) {
		va_start(ap, extra_fmt);
		vsnprintf(extra, sizeof(extra), extra_fmt, ap);
		va_end(ap);
	}
	spaa_lami_table_set_title(lt, "%s (%s%s%s)", c->title, t->what,
				  extra_fmt ? "; " : "", extra);
	for (size_t i = 0; i < c->ncolumns; i++) {
		if (c->columns[i].cls != SPAA_LAMI_MIXED)
			continue;
		if (t->net)
			spaa_table_net_column(lt, i, &t->sem);
		else
			spaa_table_weight_column(lt, i, &t->sem);
	}
	return lt;
}

int spaa_table_empty_window(struct spaa_table *t, const struct spaa_filter *f,
			    const struct spaa_profile *p, const char *name,
			    struct spaa_error *err)
{
	if (spaa_filter_check_overlap(f, p, err))
		return -1;
	spaa_table_what_add(t, "no samples between --begin %" PRId64
			    " and --end %" PRId64 " ns; %s covers %" PRId64
			    " to %" PRId64 " ns", t->begin, t->end, name,
			    p->time_start, p->time_end);
	if (f->clock_from[0])
		spaa_table_what_more(t, "in its clock: --begin/--end less %" PRId64
				     " ns, the offset %s", f->clock_offset,
				     f->clock_from);
	return 0;
}

void spaa_table_add_empty(struct spaa_table *t,
			  const struct spaa_lami_table_class *c)
{
	struct spaa_lami_table *lt = spaa_table_new(t, c, NULL);

	spaa_lami_table_keep_empty(lt);
	spaa_table_add(t, lt);
}

void spaa_table_add(struct spaa_table *t, struct spaa_lami_table *lt)
{
	spaa_lami_results_add(t->results, lt);
}

void spaa_table_weight_column(struct spaa_lami_table *lt, size_t col,
			      const struct spaa_metrics_sem *m)
{
	static const enum spaa_lami_class cls[] = {
		[SPAA_METRICS_DURATION] = SPAA_LAMI_DURATION,
		[SPAA_METRICS_SIZE] = SPAA_LAMI_SIZE,
		[SPAA_METRICS_INT] = SPAA_LAMI_INT,
		[SPAA_METRICS_NUMBER] = SPAA_LAMI_NUMBER,
	};

	spaa_lami_table_set_column(lt, col, cls[m->cls],
				   m->cls == SPAA_METRICS_NUMBER ? m->unit : NULL);
}

/* The cell kind of an integer class of weights. */
static enum spaa_lami_cell_kind int_kind(enum spaa_metrics_class c)
{
	return c == SPAA_METRICS_DURATION ? SPAA_LAMI_CELL_DURATION :
	       c == SPAA_METRICS_SIZE ? SPAA_LAMI_CELL_SIZE : SPAA_LAMI_CELL_INT;
}

/*
 * A non-negative value in class units, rounded, as an unsigned cell:
 * sums past INT64_MAX are kept, never clamped (lami.h).
 */
static void u64_cell(struct spaa_lami_table *lt, enum spaa_lami_cell_kind k,
		     double v)
{
	if (!(v < 18446744073709551616.0))
		spaa_lami_cell_past_u64(lt, k);
	else if (v < 9223372036854775808.0)
		spaa_lami_cell_u64(lt, k, (uint64_t)llround(v));
	else
		spaa_lami_cell_u64(lt, k, (uint64_t)v);  /* an integer at this size */
}

void spaa_table_weight_cell(struct spaa_lami_table *lt,
			    const struct spaa_metrics_sem *m, uint64_t raw)
{
	if (m->cls == SPAA_METRICS_NUMBER && (m->scale != 1 || raw < 1000000000000000))
		spaa_lami_cell_number(lt, (double)raw * m->scale);
	else if (m->cls == SPAA_METRICS_NUMBER)
		spaa_lami_cell_u64(lt, SPAA_LAMI_CELL_INT, raw);        /* past 15 digits */
	else if (m->scale == 1)
		spaa_lami_cell_u64(lt, int_kind(m->cls), raw);   /* exact */
	else
		u64_cell(lt, int_kind(m->cls), (double)raw * m->scale);
}

void spaa_table_share_cell(struct spaa_lami_table *lt, uint64_t part,
			   uint64_t whole)
{
	if (!whole)
		spaa_lami_cell_unknown(lt);
	else
		spaa_lami_cell_ratio(lt, (double)part / (double)whole);
}

void spaa_table_weight(const struct spaa_table *t, struct spaa_lami_table *lt,
		       uint64_t pos, uint64_t neg)
{
	if (t->net)
		spaa_table_net_cell(lt, &t->sem, spaa_weights_net(pos, neg));
	else
		spaa_table_weight_cell(lt, &t->sem, pos);
}

void spaa_table_share(const struct spaa_table *t, struct spaa_lami_table *lt,
		      uint64_t part_pos, uint64_t part_neg,
		      uint64_t whole_pos, uint64_t whole_neg)
{
	int64_t part, whole;

	if (!t->net) {
		spaa_table_share_cell(lt, part_pos, whole_pos);
		return;
	}
	part = spaa_weights_net(part_pos, part_neg);
	whole = spaa_weights_net(whole_pos, whole_neg);
	/* nets of both signs are no parts of their total: no share */
	if (whole <= 0 || part < 0 || part > whole)
		spaa_lami_cell_unknown(lt);
	else
		spaa_lami_cell_ratio(lt, (double)part / (double)whole);
}

/* The unit of a number that holds m's weights or their differences. */
static const char *number_unit(const struct spaa_metrics_sem *m)
{
	static const char *const units[] = {
		[SPAA_METRICS_DURATION] = "ns",
		[SPAA_METRICS_SIZE] = "bytes",
		[SPAA_METRICS_INT] = "count",
	};

	return m->cls == SPAA_METRICS_NUMBER ? m->unit : units[m->cls];
}

void spaa_table_net_column(struct spaa_lami_table *lt, size_t col,
			   const struct spaa_metrics_sem *m)
{
	spaa_lami_table_set_column(lt, col, SPAA_LAMI_NUMBER, number_unit(m));
}

void spaa_table_net_cell(struct spaa_lami_table *lt,
			 const struct spaa_metrics_sem *m, int64_t net)
{
	double v = (double)net * m->scale;

	/* durations, sizes and counts are whole units, as their own cells */
	spaa_lami_cell_number(lt, m->cls == SPAA_METRICS_NUMBER ? v : round(v));
}

/* Nearest integer, saturated to int64; 0 for NaN. */
static int64_t round_i64(double v)
{
	if (v != v)
		return 0;
	if (v >= 9223372036854775807.0)
		return INT64_MAX;
	if (v <= -9223372036854775808.0)
		return INT64_MIN;
	return (int64_t)llround(v);
}

void spaa_table_value_cell(struct spaa_lami_table *lt,
			   const struct spaa_metrics_sem *m, double v)
{
	assert(!(v < 0) && "weights are never negative");
	if (m->cls == SPAA_METRICS_NUMBER)
		spaa_lami_cell_number(lt, v);
	else
		u64_cell(lt, int_kind(m->cls), v == v ? v : 0);
}

void spaa_table_delta_cell(struct spaa_lami_table *lt,
			   const struct spaa_metrics_sem *m, double v)
{
	int64_t i = round_i64(v);

	if (!(v < 9223372036854775808.0 && v >= -9223372036854775808.0) && v == v) {
		spaa_lami_cell_past_i64(lt, m->cls == SPAA_METRICS_NUMBER ? SPAA_LAMI_CELL_INT :
					int_kind(m->cls));
		return;
	}
	switch (m->cls) {
	case SPAA_METRICS_DURATION:
		spaa_lami_cell_duration(lt, i);
		break;
	case SPAA_METRICS_SIZE:
		spaa_lami_cell_size(lt, i);
		break;
	case SPAA_METRICS_INT:
		spaa_lami_cell_int(lt, i);
		break;
	case SPAA_METRICS_NUMBER:
		/* raw counts are integers: a fraction is the scaling's noise */
		spaa_lami_cell_number(lt, (double)i);
		break;
	}
}

void spaa_table_points_column(struct spaa_lami_table *lt, size_t col)
{
	spaa_lami_table_set_column(lt, col, SPAA_LAMI_RATIO, "pp");
}

void spaa_table_ratio_cell(struct spaa_lami_table *lt, double v)
{
	if (isfinite(v))
		spaa_lami_cell_ratio(lt, v == 0 ? 0.0 : v);
	else
		spaa_lami_cell_unknown(lt);
}

void spaa_table_process_cell(struct spaa_lami_table *lt,
			     const struct spaa_profile *p, int64_t pid,
			     int64_t tid, uint32_t comm)
{
	uint32_t th;

	if (!comm && pid != SPAA_NO_ID) {
		th = spaa_profile_find_thread(p, pid, tid == SPAA_NO_ID ? pid : tid);
		if (th == SPAA_NONE && tid != SPAA_NO_ID)
			th = spaa_profile_find_thread(p, pid, pid);
		comm = th == SPAA_NONE ? 0 : p->threads[th].comm;
	}
	spaa_lami_cell_process(lt, comm ? spaa_profile_str(p, comm) : NULL,
			       pid == SPAA_NO_ID ? SPAA_LAMI_NO_ID : pid,
			       tid == SPAA_NO_ID ? SPAA_LAMI_NO_ID : tid);
}
