/*
 * check_metrics - the metric-semantics table of metrics.h, row by row,
 * on profiles filled by hand, and the rounding and saturation of
 * spaa_metrics_scaled.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "model/metrics.h"
#include "model/util.h"

Suite *metrics_suite(void);

static uint32_t str(struct spaa_profile *p, const char *s)
{
	return spaa_strtab_intern(&p->strings, s, strlen(s));
}

/* Appends an event the way a reader would; returns its index. */
static uint32_t add_event(struct spaa_profile *p, const char *name,
			  enum spaa_sampling_mode mode, double hz,
			  const char *primary)
{
	struct spaa_event e = { 0 };
	uint32_t i;

	e.name = str(p, name);
	e.kind = SPAA_EV_HARDWARE;
	e.mode = mode;
	e.frequency_hz = hz;
	e.primary_metric = str(p, primary);
	e.tracks_frees = -1;
	i = spaa_profile_add_event(p, &e);
	p->events[i].has_timestamps = -1;
	return i;
}

#define P SPAA_MODE_PERIOD
#define F SPAA_MODE_FREQUENCY
#define E SPAA_MODE_EVENT
#define DUR SPAA_METRICS_DURATION
#define SIZE SPAA_METRICS_SIZE
#define INT SPAA_METRICS_INT
#define NUM SPAA_METRICS_NUMBER

static const struct {
	const char *event;
	enum spaa_sampling_mode mode;
	double hz;
	const char *metric;
	const char *unit;               /* weight unit, NULL for none */
	enum spaa_metrics_class cls;
	double scale;
	const char *label;              /* unit label of a number, else "" */
} sem_cases[] = {
	/* perf clock events: the period is nanoseconds */
	{ "cpu-clock:ppp", P, 0, "period", NULL, DUR, 1, "" },
	{ "cpu-clock", P, 0, "period", NULL, DUR, 1, "" },
	{ "task-clock", P, 0, "period", NULL, DUR, 1, "" },
	{ "task-clock:u", P, 0, "period", NULL, DUR, 1, "" },
	{ "cpu-clock", F, 4000, "period", "events", DUR, 1, "" },
	/* a name that merely starts like one is a counter */
	{ "cpu-clocks", P, 0, "period", NULL, NUM, 1, "cpu-clocks" },
	{ "xcpu-clock", P, 0, "period", NULL, NUM, 1, "xcpu-clock" },
	/* counters: number, labelled with the event name for "period" */
	{ "cycles", P, 0, "period", NULL, NUM, 1, "cycles" },
	{ "cycles:u", P, 0, "period", "events", NUM, 1, "cycles:u" },
	{ "instructions", F, 4000, "period", NULL, NUM, 1, "instructions" },
	{ "cycles", P, 0, "cache_misses", NULL, NUM, 1, "cache_misses" },
	{ "cycles", P, 0, "branch_misses", "misses", NUM, 1, "misses" },
	/* samples: time only for a frequency event with its rate */
	{ "profile-997", F, 997, "samples", NULL, DUR, 1e9 / 997, "" },
	{ "cpu-clock", F, 4000, "samples", NULL, DUR, 1e9 / 4000, "" },
	{ "profile-997", F, 0, "samples", NULL, INT, 1, "" },
	{ "cycles", P, 0, "samples", NULL, INT, 1, "" },
	{ "syscall::read:entry", E, 0, "samples", NULL, INT, 1, "" },
	{ "profile-997", F, 997, "count", NULL, INT, 1, "" },
	{ "syscall::read:entry", E, 0, "count", NULL, INT, 1, "" },
	/* time units on the weight win over the metric name */
	{ "probe", E, 0, "time_us", "microseconds", DUR, 1e3, "" },
	{ "probe", E, 0, "elapsed", "us", DUR, 1e3, "" },
	{ "probe", E, 0, "elapsed", "ns", DUR, 1, "" },
	{ "probe", E, 0, "elapsed", "nanoseconds", DUR, 1, "" },
	{ "probe", E, 0, "elapsed", "ms", DUR, 1e6, "" },
	{ "probe", E, 0, "elapsed", "milliseconds", DUR, 1e6, "" },
	{ "probe", E, 0, "elapsed", "s", DUR, 1e9, "" },
	{ "probe", E, 0, "elapsed", "seconds", DUR, 1e9, "" },
	{ "cycles", P, 0, "period", "ns", DUR, 1, "" },
	{ "probe", E, 0, "count", "ms", DUR, 1e6, "" },
	/* time suffixes on the metric name */
	{ "cycles", P, 0, "cpu_time_ns", NULL, DUR, 1, "" },
	{ "probe", E, 0, "time_us", NULL, DUR, 1e3, "" },
	{ "probe", E, 0, "wait_ms", NULL, DUR, 1e6, "" },
	/* sizes */
	{ "malloc", E, 0, "alloc_bytes", NULL, SIZE, 1, "" },
	{ "malloc", E, 0, "alloc_bytes", "bytes", SIZE, 1, "" },
	{ "free", E, 0, "free_bytes", NULL, SIZE, 1, "" },
	{ "malloc", E, 0, "live_bytes", NULL, SIZE, 1, "" },
	{ "malloc", E, 0, "peak_bytes", NULL, SIZE, 1, "" },
	{ "malloc", E, 0, "rss_bytes", NULL, SIZE, 1, "" },
	{ "malloc", E, 0, "heap", "bytes", SIZE, 1, "" },
	/* counts */
	{ "malloc", E, 0, "alloc_count", NULL, INT, 1, "" },
	{ "free", E, 0, "free_count", NULL, INT, 1, "" },
	{ "malloc", E, 0, "live_count", NULL, INT, 1, "" },
	{ "malloc", E, 0, "page_count", NULL, INT, 1, "" },
	/* SPX: wt ct it are ns */
	{ "spx", E, 0, "wt", NULL, DUR, 1, "" },
	{ "spx", E, 0, "ct", NULL, DUR, 1, "" },
	{ "spx", E, 0, "it", NULL, DUR, 1, "" },
	{ "spx", E, 0, "zm", NULL, SIZE, 1, "" },
	{ "spx", E, 0, "mu", NULL, SIZE, 1, "" },
	{ "spx", E, 0, "pmu", NULL, SIZE, 1, "" },
	{ "spx", E, 0, "mor", NULL, SIZE, 1, "" },
	{ "spx", E, 0, "zmab", NULL, SIZE, 1, "" },
	{ "spx", E, 0, "zmfb", NULL, SIZE, 1, "" },
	{ "spx", E, 0, "io", NULL, SIZE, 1, "" },
	{ "spx", E, 0, "ior", NULL, SIZE, 1, "" },
	{ "spx", E, 0, "iow", NULL, SIZE, 1, "" },
	{ "spx", E, 0, "zmac", NULL, INT, 1, "" },
	{ "spx", E, 0, "zmfc", NULL, INT, 1, "" },
	{ "spx", E, 0, "zgr", NULL, INT, 1, "" },
	{ "spx", E, 0, "zgb", NULL, INT, 1, "" },
	{ "spx", E, 0, "zgc", NULL, INT, 1, "" },
	{ "spx", E, 0, "zif", NULL, INT, 1, "" },
	{ "spx", E, 0, "zil", NULL, INT, 1, "" },
	{ "spx", E, 0, "zuc", NULL, INT, 1, "" },
	{ "spx", E, 0, "zuf", NULL, INT, 1, "" },
	{ "spx", E, 0, "zuo", NULL, INT, 1, "" },
	{ "spx", E, 0, "zo", NULL, INT, 1, "" },
	{ "spx", E, 0, "ze", NULL, INT, 1, "" },
	/* anything else: a number labelled by its unit, else its name */
	{ "probe", E, 0, "retries", NULL, NUM, 1, "retries" },
	{ "probe", E, 0, "retries", "tries", NUM, 1, "tries" },
};

START_TEST(test_semantics)
{
	struct spaa_profile p;
	struct spaa_metrics_sem m;
	uint32_t ev, unit;

	spaa_profile_init(&p);
	/* another event first, so the event index matters */
	add_event(&p, "other", SPAA_MODE_FREQUENCY, 1, "samples");
	ev = add_event(&p, sem_cases[_i].event, sem_cases[_i].mode,
		       sem_cases[_i].hz, sem_cases[_i].metric);
	unit = sem_cases[_i].unit ? str(&p, sem_cases[_i].unit) : 0;
	memset(&m, 0x55, sizeof(m));
	spaa_metrics_semantics(&p, ev, str(&p, sem_cases[_i].metric), unit, &m);
	ck_assert_msg(m.cls == sem_cases[_i].cls,
		      "case %d (%s %s): class %s, want %s", _i,
		      sem_cases[_i].event, sem_cases[_i].metric,
		      spaa_metrics_class_name(m.cls),
		      spaa_metrics_class_name(sem_cases[_i].cls));
	/* the scale is the same double expression, so exactly equal */
	ck_assert_msg(m.scale == sem_cases[_i].scale,
		      "case %d: scale %.17g, want %.17g", _i, m.scale,
		      sem_cases[_i].scale);
	ck_assert_str_eq(m.unit, sem_cases[_i].label);
	spaa_profile_release(&p);
}
END_TEST

START_TEST(test_class_names)
{
	ck_assert_str_eq(spaa_metrics_class_name(SPAA_METRICS_DURATION), "duration");
	ck_assert_str_eq(spaa_metrics_class_name(SPAA_METRICS_SIZE), "size");
	ck_assert_str_eq(spaa_metrics_class_name(SPAA_METRICS_INT), "int");
	ck_assert_str_eq(spaa_metrics_class_name(SPAA_METRICS_NUMBER), "number");
}
END_TEST

/* A long event name is cut to the label buffer, NUL-terminated. */
START_TEST(test_long_label)
{
	struct spaa_profile p;
	struct spaa_metrics_sem m;
	char name[300];
	uint32_t ev;

	memset(name, 'e', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	spaa_profile_init(&p);
	ev = add_event(&p, name, SPAA_MODE_PERIOD, 0, "period");
	spaa_metrics_semantics(&p, ev, str(&p, "period"), 0, &m);
	ck_assert_int_eq(m.cls, SPAA_METRICS_NUMBER);
	ck_assert_uint_eq(strlen(m.unit), sizeof(m.unit) - 1);
	ck_assert(!strncmp(m.unit, name, sizeof(m.unit) - 1));
	spaa_profile_release(&p);
}
END_TEST

/* spaa_metrics_unit: the unit of the first record of the event with it */
START_TEST(test_metric_unit)
{
	struct spaa_profile p;
	struct spaa_weight w[2];
	uint32_t e0, e1, bytes, count, kib;

	spaa_profile_init(&p);
	e0 = add_event(&p, "malloc", SPAA_MODE_EVENT, 0, "alloc_bytes");
	e1 = add_event(&p, "free", SPAA_MODE_EVENT, 0, "free_bytes");
	bytes = str(&p, "alloc_bytes");
	count = str(&p, "alloc_count");
	kib = str(&p, "KiB");
	p.records = spaa_xcalloc(3, sizeof(*p.records));
	p.records_alloc = 3;
	p.nrecords = 3;
	/* record 0: event 1 with alloc_bytes in KiB (another event) */
	w[0] = (struct spaa_weight){ bytes, kib, 1 };
	p.records[0].event = e1;
	p.records[0].weights = spaa_profile_add_weights(&p, w, 1);
	p.records[0].nweights = 1;
	/* record 1: event 0 without alloc_bytes */
	w[0] = (struct spaa_weight){ count, 0, 2 };
	p.records[1].event = e0;
	p.records[1].weights = spaa_profile_add_weights(&p, w, 1);
	p.records[1].nweights = 1;
	/* record 2: event 0 with alloc_bytes in bytes, second in its list */
	w[0] = (struct spaa_weight){ count, 0, 3 };
	w[1] = (struct spaa_weight){ bytes, str(&p, "bytes"), 4096 };
	p.records[2].event = e0;
	p.records[2].weights = spaa_profile_add_weights(&p, w, 2);
	p.records[2].nweights = 2;

	ck_assert_str_eq(spaa_profile_str(&p, spaa_metrics_unit(&p, e0, bytes)), "bytes");
	ck_assert_str_eq(spaa_profile_str(&p, spaa_metrics_unit(&p, e1, bytes)), "KiB");
	/* present without a unit, and absent */
	ck_assert_uint_eq(spaa_metrics_unit(&p, e0, count), 0);
	ck_assert_uint_eq(spaa_metrics_unit(&p, e1, count), 0);
	ck_assert_uint_eq(spaa_metrics_unit(&p, e0, str(&p, "nope")), 0);
	spaa_profile_release(&p);
}
END_TEST

static const struct {
	double scale;
	uint64_t raw;
	int64_t want;
} scaled_cases[] = {
	/* 3 samples at 997 Hz: 3e9/997 = 3009027.0812... -> 3009027 */
	{ 1e9 / 997, 3, 3009027 },
	/* 1e9/997 = 1003009.027... -> 1003009 */
	{ 1e9 / 997, 1, 1003009 },
	/* 997 samples at 997 Hz are one second */
	{ 1e9 / 997, 997, 1000000000 },
	/* 2 * 1003009.027 = 2006018.054 -> 2006018 */
	{ 1e9 / 997, 2, 2006018 },
	{ 1e9 / 997, 0, 0 },
	/* 1e9/3 ns per sample at 3 Hz: 2 -> 666666666.67 -> 666666667 */
	{ 1e9 / 3, 2, 666666667 },
	{ 1e3, 5, 5000 },
	{ 1e6, 7, 7000000 },
	/* halves round away from zero: 1.5 -> 2, 2.5 -> 3 */
	{ 0.5, 3, 2 },
	{ 0.5, 5, 3 },
	{ 0.5, 1, 1 },
	/* scale 1 is exact even past 2^53: 2^53 + 1 */
	{ 1, 9007199254740993ull, 9007199254740993ll },
	{ 1, INT64_MAX, INT64_MAX },
	/* saturation: 2^63 and 2^64-1 at scale 1 */
	{ 1, (uint64_t)INT64_MAX + 1, INT64_MAX },
	{ 1, UINT64_MAX, INT64_MAX },
	/* 9223372036 s = 9223372036000000000 ns, exact (a multiple of 1024) */
	{ 1e9, 9223372036ull, 9223372036000000000ll },
	/* 9223372037 s = 9.223372037e18 ns > 2^63 - 1 */
	{ 1e9, 9223372037ull, INT64_MAX },
	{ 1e9, UINT64_MAX, INT64_MAX },
	{ 1e9 / 997, UINT64_MAX, INT64_MAX },
};

START_TEST(test_scaled)
{
	struct spaa_metrics_sem m;

	memset(&m, 0, sizeof(m));
	m.cls = SPAA_METRICS_DURATION;
	m.scale = scaled_cases[_i].scale;
	ck_assert_msg(spaa_metrics_scaled(&m, scaled_cases[_i].raw) ==
		      scaled_cases[_i].want, "case %d: %lld, want %lld", _i,
		      (long long)spaa_metrics_scaled(&m, scaled_cases[_i].raw),
		      (long long)scaled_cases[_i].want);
}
END_TEST

/* The frequency row end to end: semantics, then scaling. */
START_TEST(test_frequency_samples_scaled)
{
	struct spaa_profile p;
	struct spaa_metrics_sem m;
	uint32_t ev;

	spaa_profile_init(&p);
	ev = add_event(&p, "profile-997", SPAA_MODE_FREQUENCY, 997, "samples");
	spaa_metrics_semantics(&p, ev, str(&p, "samples"), 0, &m);
	ck_assert_int_eq(m.cls, SPAA_METRICS_DURATION);
	/* 3 samples: 3e9/997 = 3009027.08 ns; 1994 samples: 2 s exactly */
	ck_assert_int_eq(spaa_metrics_scaled(&m, 3), 3009027);
	ck_assert_int_eq(spaa_metrics_scaled(&m, 1994), 2000000000);
	spaa_profile_release(&p);
}
END_TEST

Suite *metrics_suite(void)
{
	Suite *s = suite_create("metrics");
	TCase *tc;

	tc = tcase_create("semantics");
	tcase_add_loop_test(tc, test_semantics, 0,
			    sizeof(sem_cases) / sizeof(sem_cases[0]));
	tcase_add_test(tc, test_class_names);
	tcase_add_test(tc, test_long_label);
	tcase_add_test(tc, test_metric_unit);
	suite_add_tcase(s, tc);

	tc = tcase_create("scaled");
	tcase_add_loop_test(tc, test_scaled, 0,
			    sizeof(scaled_cases) / sizeof(scaled_cases[0]));
	tcase_add_test(tc, test_frequency_samples_scaled);
	suite_add_tcase(s, tc);
	return s;
}
