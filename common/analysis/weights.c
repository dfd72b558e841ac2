#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/weights.h"
#include "model/util.h"

/* Adds 'name' to lo->events unless there; "..." once it is full. */
static void add_name(struct spaa_weights_left_out *lo, const char *name)
{
	size_t at = strlen(lo->events), room = sizeof(lo->events) - 4;
	char quoted[sizeof(lo->events)];

	snprintf(quoted, sizeof(quoted), "'%s'", name);
	if (strstr(lo->events, quoted) || (at >= 3 && !strcmp(lo->events + at - 3, "...")))
		return;
	if (at + strlen(quoted) + 2 > room) {
		snprintf(lo->events + at, sizeof(lo->events) - at, "%s...", at ? ", " : "");
		return;
	}
	snprintf(lo->events + at, sizeof(lo->events) - at, "%s%s", at ? ", " : "", quoted);
}

void spaa_weights_left_out(struct spaa_weights_left_out *lo, const struct spaa_profile *p,
			  bool (*analysed)(const struct spaa_profile *p,
					   uint32_t event, const void *ctx),
			  const void *ctx)
{
	uint64_t *records = spaa_xcalloc(p->nevents + 1, sizeof(*records));

	for (uint32_t i = 0; i < p->nrecords; i++)
		if (!p->records[i].absorbed && !analysed(p, p->records[i].event, ctx))
			records[p->records[i].event]++;
	for (uint32_t e = 0; e < p->nevents; e++) {
		if (analysed(p, e, ctx))
			continue;
		lo->records += records[e];
		lo->samples += p->events[e].nsamples;
		if (records[e] || p->events[e].nsamples)
			add_name(lo, spaa_profile_str(p, p->events[e].name));
	}
	free(records);
}

static bool is_event(const struct spaa_profile *p, uint32_t event, const void *ctx)
{
	(void)p;
	return event == *(const uint32_t *)ctx;
}

void spaa_weights_left_out_event(struct spaa_weights_left_out *lo,
				const struct spaa_profile *p, uint32_t event)
{
	spaa_weights_left_out(lo, p, is_event, &event);
}

const char *spaa_weights_event_list(const struct spaa_profile *p, int kind,
				    char *buf, size_t size)
{
	size_t at = 0;

	buf[0] = '\0';
	for (uint32_t e = 0; e < p->nevents && at < size; e++)
		if (kind == SPAA_WEIGHTS_ANY_KIND || (int)p->events[e].kind == kind)
			at += (size_t)snprintf(buf + at, size - at, "%s'%s'",
					       at ? ", " : "",
					       spaa_profile_str(p, p->events[e].name));
	return buf;
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

int spaa_weights_select(const struct spaa_profile *p, const char *event_name,
		       const char *metric_name, uint32_t *event,
		       uint32_t *metric, struct spaa_error *err)
{
	char list[512];
	uint32_t m;

	if (!p->nevents)
		return spaa_error_set(err, SPAA_E_NO_DATA, "the profile declares no events");
	*event = event_name ? spaa_profile_find_event(p, event_name) : 0;
	if (*event == SPAA_NONE) {
		spaa_weights_event_list(p, SPAA_WEIGHTS_ANY_KIND, list, sizeof(list));
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

int spaa_weights_describe(char *buf, size_t size, const char *event,
			  bool primary, const char *metric)
{
	return snprintf(buf, size, "event '%s', %s '%s'", event,
			primary ? "primary metric" : "metric", metric);
}

uint32_t spaa_weights_twin(const struct spaa_profile *p, uint32_t event,
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

int64_t spaa_weights_net(uint64_t pos, uint64_t neg)
{
	if (pos >= neg)
		return pos - neg > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)(pos - neg);
	return neg - pos > (uint64_t)INT64_MAX ? INT64_MIN : -(int64_t)(neg - pos);
}

uint64_t spaa_weights_net_key(int64_t v)
{
	return (uint64_t)v ^ ((uint64_t)1 << 63);
}
