/*
 * metrics - what a weight means: the metric-semantics table of doc/SPAA.md
 * in one place, so every analysis shows the same weight the same way.
 *
 *   weight unit ns/us/ms/s (or their long names)     duration, scaled to ns
 *   metric "period" of perf cpu-clock / task-clock   duration (period is ns)
 *   "samples" of a frequency event with frequency_hz duration: n * 1e9 / hz
 *   SPX wt, ct, it                                   duration (ns)
 *   unit "bytes", *_bytes, SPX zm mu pmu mor zmab zmfb io ior iow   size
 *   *_count, "samples", "count", SPX zmac zmfc zgr zgb zgc zif zil
 *   zuc zuf zuo zo ze                                int
 *   *_ns, *_us, *_ms metric names                    duration
 *   NAME- (SPX's negative part of NAME)              as NAME
 *   anything else (cycles, instructions, ...)        number; unit = the
 *                                                    event name for
 *                                                    "period", else the
 *                                                    weight's unit, else
 *                                                    the metric name
 *
 * Sums are kept in raw integer units; the scale is applied once, at
 * output, so shares are exact.
 *
 * struct spaa_metrics_sem is a plain value: it owns nothing and needs no
 * release.
 */
#ifndef SPAA_METRICS_H
#define SPAA_METRICS_H

#include <stdint.h>

#include "model/profile.h"

enum spaa_metrics_class {
	SPAA_METRICS_DURATION,       /* LAMI duration, ns */
	SPAA_METRICS_SIZE,           /* LAMI size, bytes */
	SPAA_METRICS_INT,            /* LAMI int */
	SPAA_METRICS_NUMBER,         /* LAMI number with a unit */
};

struct spaa_metrics_sem {
	enum spaa_metrics_class cls;
	double scale;           /* class unit per raw unit (ns per raw unit, ...) */
	char unit[128];         /* label of a SPAA_METRICS_NUMBER, else "" */
};

/*
 * Semantics of metric (string index) of event (index); unit is the
 * weight's unit string index as found in the file (0 if none).
 */
void spaa_metrics_semantics(const struct spaa_profile *p, uint32_t event,
			   uint32_t metric, uint32_t unit,
			   struct spaa_metrics_sem *out);

/*
 * The unit a profile's records give metric under event (the first record
 * of that event carrying the metric), or 0.
 */
uint32_t spaa_metrics_unit(const struct spaa_profile *p, uint32_t event,
			  uint32_t metric);

/* raw * scale, rounded to the nearest integer and saturated to int64. */
int64_t spaa_metrics_scaled(const struct spaa_metrics_sem *m, uint64_t raw);

/* Name of the LAMI class: "duration", "size", "int", "number". */
const char *spaa_metrics_class_name(enum spaa_metrics_class c);

#endif
