#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "model/util.h"

void spaa_report_left_out(struct spaa_left_out *lo, const struct spaa_profile *p,
			  bool (*analysed)(const struct spaa_profile *p,
					   uint32_t event, const void *ctx),
			  const void *ctx)
{
	for (uint32_t i = 0; i < p->nrecords; i++)
		if (!p->records[i].absorbed && !analysed(p, p->records[i].event, ctx))
			lo->records++;
	for (uint32_t e = 0; e < p->nevents; e++)
		if (!analysed(p, e, ctx))
			lo->samples += p->events[e].nsamples;
}

static bool is_event(const struct spaa_profile *p, uint32_t event, const void *ctx)
{
	(void)p;
	return event == *(const uint32_t *)ctx;
}

void spaa_report_left_out_event(struct spaa_left_out *lo,
				const struct spaa_profile *p, uint32_t event)
{
	spaa_report_left_out(lo, p, is_event, &event);
}

/* "a, b, c" of the event names, or of the metrics used by one event */
static void list_events(const struct spaa_profile *p, char *buf, size_t size)
{
	size_t at = 0;

	buf[0] = '\0';
	for (uint32_t i = 0; i < p->nevents && at < size; i++)
		at += snprintf(buf + at, size - at, "%s'%s'", i ? ", " : "",
			       spaa_profile_str(p, p->events[i].name));
}

static bool event_has_metric(const struct spaa_profile *p, uint32_t event,
			     uint32_t metric)
{
	uint64_t v;

	for (uint32_t i = 0; i < p->nrecords; i++)
		if (p->records[i].event == event &&
		    spaa_profile_weights_get(p, p->records[i].weights,
				     p->records[i].nweights, metric, &v))
			return true;
	return false;
}

static void list_metrics(const struct spaa_profile *p, uint32_t event,
			 char *buf, size_t size)
{
	struct spaa_map seen;
	size_t at = 0;

	spaa_map_init(&seen, sizeof(uint32_t));
	buf[0] = '\0';
	for (uint32_t i = 0; i < p->nrecords && at < size; i++) {
		const struct spaa_record *r = &p->records[i];

		for (uint32_t w = 0; r->event == event && w < r->nweights && at < size; w++) {
			uint32_t m = p->weight_pool[r->weights + w].metric;
			bool created;

			spaa_map_intern(&seen, &m, &created);
			if (created)
				at += snprintf(buf + at, size - at, "%s'%s'",
					       seen.nr > 1 ? ", " : "", spaa_profile_str(p, m));
		}
	}
	spaa_map_release(&seen);
}

int spaa_report_select(const struct spaa_profile *p, const char *event_name,
		       const char *metric_name, uint32_t *event,
		       uint32_t *metric, struct spaa_error *err)
{
	char list[512];
	uint32_t m;

	if (!p->nevents)
		return spaa_error_set(err, SPAA_E_NO_DATA, "the profile declares no events");
	*event = event_name ? spaa_profile_find_event(p, event_name) : 0;
	if (*event == SPAA_NONE) {
		list_events(p, list, sizeof(list));
		return spaa_error_set(err, SPAA_E_USAGE,
				      "no event '%s' in the profile (it has %s)",
				      event_name, list);
	}
	if (!metric_name) {
		*metric = p->events[*event].primary_metric;
		return 0;
	}
	m = spaa_strtab_find(&p->strings, metric_name, strlen(metric_name));
	if (m == SPAA_NONE || !event_has_metric(p, *event, m)) {
		list_metrics(p, *event, list, sizeof(list));
		return spaa_error_set(err, SPAA_E_USAGE,
				      "event '%s' has no metric '%s' (it has %s)",
				      spaa_profile_str(p, p->events[*event].name),
				      metric_name, *list ? list : "none");
	}
	*metric = m;
	return 0;
}

void spaa_report_weight_column(struct spaa_lami_table *t, size_t col,
			       const struct spaa_metrics_sem *m)
{
	switch (m->cls) {
	case SPAA_METRICS_DURATION:
		spaa_lami_table_set_column(t, col, SPAA_LAMI_DURATION, NULL);
		break;
	case SPAA_METRICS_SIZE:
		spaa_lami_table_set_column(t, col, SPAA_LAMI_SIZE, NULL);
		break;
	case SPAA_METRICS_INT:
		spaa_lami_table_set_column(t, col, SPAA_LAMI_INT, NULL);
		break;
	case SPAA_METRICS_NUMBER:
		spaa_lami_table_set_column(t, col, SPAA_LAMI_NUMBER, m->unit);
		break;
	}
}

void spaa_report_weight_cell(struct spaa_lami_table *t,
			     const struct spaa_metrics_sem *m, uint64_t raw)
{
	switch (m->cls) {
	case SPAA_METRICS_DURATION:
		spaa_lami_cell_duration(t, spaa_metrics_scaled(m, raw));
		break;
	case SPAA_METRICS_SIZE:
		spaa_lami_cell_size(t, spaa_metrics_scaled(m, raw));
		break;
	case SPAA_METRICS_INT:
		spaa_lami_cell_int(t, spaa_metrics_scaled(m, raw));
		break;
	case SPAA_METRICS_NUMBER:
		spaa_lami_cell_number(t, (double)raw * m->scale);
		break;
	}
}

void spaa_report_share_cell(struct spaa_lami_table *t, uint64_t part, uint64_t whole)
{
	if (!whole)
		spaa_lami_cell_unknown(t);
	else
		spaa_lami_cell_ratio(t, (double)part / (double)whole);
}

uint32_t spaa_report_twin(const struct spaa_profile *p, uint32_t event,
			  uint32_t metric)
{
	const char *name = spaa_profile_str(p, metric);
	size_t len = strlen(name);
	char *twin = spaa_xmalloc(len + 2);
	uint32_t m;

	memcpy(twin, name, len);
	twin[len] = '-';
	twin[len + 1] = '\0';
	m = spaa_strtab_find(&p->strings, twin, len + 1);
	free(twin);
	return m != SPAA_NONE && event_has_metric(p, event, m) ? m : SPAA_NONE;
}

int64_t spaa_report_net(uint64_t pos, uint64_t neg)
{
	if (pos >= neg)
		return pos - neg > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)(pos - neg);
	return neg - pos > (uint64_t)INT64_MAX ? INT64_MIN : -(int64_t)(neg - pos);
}

uint64_t spaa_report_net_key(int64_t v)
{
	return (uint64_t)v ^ ((uint64_t)1 << 63);
}

void spaa_report_net_column(struct spaa_lami_table *t, size_t col,
			    const struct spaa_metrics_sem *m)
{
	static const char *const units[] = {
		[SPAA_METRICS_DURATION] = "ns",
		[SPAA_METRICS_SIZE] = "bytes",
		[SPAA_METRICS_INT] = "count",
	};

	spaa_lami_table_set_column(t, col, SPAA_LAMI_NUMBER,
			      m->cls == SPAA_METRICS_NUMBER ? m->unit : units[m->cls]);
}

void spaa_report_net_cell(struct spaa_lami_table *t, const struct spaa_metrics_sem *m,
			  int64_t net)
{
	double v = (double)net * m->scale;

	/* durations, sizes and counts are whole units, as their own cells */
	spaa_lami_cell_number(t, m->cls == SPAA_METRICS_NUMBER ? v : round(v));
}

void spaa_report_net_share_cell(struct spaa_lami_table *t, int64_t part, int64_t whole)
{
	if (whole <= 0)
		spaa_lami_cell_unknown(t);
	else
		spaa_lami_cell_ratio(t, (double)part / (double)whole);
}

int spaa_report_need_stacks(const struct spaa_profile *p, const char *path,
			    struct spaa_error *err)
{
	if (p->nrecords || p->nsamples)
		return 0;
	return spaa_error_at(err, SPAA_E_INCOMPATIBLE, path, 0,
			     "the profile has no stack or sample records");
}

void spaa_report_range(const struct spaa_lami_opts *o, const struct spaa_profile *p,
		       int64_t *begin, int64_t *end)
{
	*begin = p->has_time ? p->time_start : 0;
	*end = p->has_time ? p->time_end : 0;
	if (o->has_begin)
		*begin = o->begin;
	if (o->has_end)
		*end = o->end;
	if (*end < *begin)
		*end = *begin;
}
