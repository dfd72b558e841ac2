#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/metrics.h"
#include "model/util.h"

static bool is_one_of(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(s, *list))
			return true;
	return false;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n > m && !strcmp(s + n - m, suffix);
}

/* "cpu-clock", "cpu-clock:ppp", "task-clock:u": perf's ns-period events */
static bool is_clock_event(const char *name)
{
	static const char *const clocks[] = { "cpu-clock", "task-clock", NULL };

	for (const char *const *c = clocks; *c; c++) {
		size_t n = strlen(*c);

		if (!strncmp(name, *c, n) && (name[n] == '\0' || name[n] == ':'))
			return true;
	}
	return false;
}

/* ns per unit for time units, 0 for anything else */
static double time_unit_scale(const char *unit)
{
	static const struct { const char *name; double ns; } units[] = {
		{ "ns", 1 }, { "nanoseconds", 1 }, { "us", 1e3 },
		{ "microseconds", 1e3 }, { "ms", 1e6 }, { "milliseconds", 1e6 },
		{ "s", 1e9 }, { "seconds", 1e9 },
	};

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(unit, units[i].name))
			return units[i].ns;
	return 0;
}

void spaa_metrics_semantics(const struct spaa_profile *p, uint32_t event,
			   uint32_t metric, uint32_t unit,
			   struct spaa_metrics_sem *out)
{
	static const char *const spx_time[] = { "wt", "ct", "it", NULL };
	static const char *const sizes[] = {
		"alloc_bytes", "free_bytes", "live_bytes", "peak_bytes",
		"zm", "mu", "pmu", "mor", "zmab", "zmfb", "io", "ior", "iow", NULL,
	};
	static const char *const counts[] = {
		"samples", "count", "calls", "zmac", "zmfc", "zgr", "zgb", "zgc", "zif",
		"zil", "zuc", "zuf", "zuo", "zo", "ze", NULL,
	};
	const struct spaa_event *ev = &p->events[event];
	const char *m = spaa_profile_str(p, metric), *u = spaa_profile_str(p, unit);
	size_t mlen = strlen(m);
	char base[128];
	double ns;

	/* "zm-": the negative part of an SPX metric (spx_reader.h) is of its kind */
	if (mlen > 1 && m[mlen - 1] == '-' && mlen <= sizeof(base)) {
		memcpy(base, m, mlen - 1);
		base[mlen - 1] = '\0';
		m = base;
	}
	memset(out, 0, sizeof(*out));
	out->scale = 1;
	if ((ns = time_unit_scale(u)) > 0) {
		out->cls = SPAA_METRICS_DURATION;
		out->scale = ns;
	} else if (!strcmp(m, "period") && is_clock_event(spaa_profile_str(p, ev->name))) {
		out->cls = SPAA_METRICS_DURATION;
	} else if (!strcmp(m, "samples") && ev->mode == SPAA_MODE_FREQUENCY &&
		   ev->frequency_hz > 0) {
		out->cls = SPAA_METRICS_DURATION;
		out->scale = 1e9 / ev->frequency_hz;
	} else if (is_one_of(m, spx_time)) {
		out->cls = SPAA_METRICS_DURATION;
	} else if (!strcmp(u, "bytes") || is_one_of(m, sizes) ||
		   ends_with(m, "_bytes")) {
		out->cls = SPAA_METRICS_SIZE;
	} else if (is_one_of(m, counts) || ends_with(m, "_count")) {
		out->cls = SPAA_METRICS_INT;
	} else if (ends_with(m, "_ns") || ends_with(m, "_us") || ends_with(m, "_ms")) {
		out->cls = SPAA_METRICS_DURATION;
		out->scale = time_unit_scale(m + strlen(m) - 2);
	} else {
		out->cls = SPAA_METRICS_NUMBER;
		snprintf(out->unit, sizeof(out->unit), "%s",
			 !strcmp(m, "period") ? spaa_profile_str(p, ev->name) : *u ? u : m);
	}
}

uint32_t spaa_metrics_unit(const struct spaa_profile *p, uint32_t event,
			  uint32_t metric)
{
	for (uint32_t i = 0; i < p->nrecords; i++) {
		const struct spaa_record *r = &p->records[i];
		uint64_t v;

		if (r->event == event &&
		    spaa_profile_weights_get(p, r->weights, r->nweights, metric, &v))
			return spaa_profile_weights_unit(p, r->weights, r->nweights, metric);
	}
	return 0;
}

int64_t spaa_metrics_scaled(const struct spaa_metrics_sem *m, uint64_t raw)
{
	double v = (double)raw * m->scale;

	if (m->scale == 1 && raw <= INT64_MAX)
		return (int64_t)raw;    /* exact: no detour through double */
	if (!(v < 9.2233720368547758e18))
		return INT64_MAX;
	return (int64_t)llround(v);
}

const char *spaa_metrics_class_name(enum spaa_metrics_class c)
{
	switch (c) {
	case SPAA_METRICS_DURATION: return "duration";
	case SPAA_METRICS_SIZE: return "size";
	case SPAA_METRICS_INT: return "int";
	case SPAA_METRICS_NUMBER: return "number";
	}
	return "number";
}
