/*
 * filter - which samples and stack records an analysis looks at: a time
 * range (--begin/--end) and a process or thread (--pid/--tid).  One
 * object, built once by main from the command line, so every analysis
 * cuts the same way.
 *
 * A time range can only cut sample records (stack records carry no
 * time): with one, analyses fold the samples in range instead of reading
 * the stack records, and a profile without samples is shown whole, its
 * titles saying so.
 *
 * A struct spaa_filter owns nothing; spaa_filter_init makes one that
 * lets everything through.
 */
#ifndef SPAA_FILTER_H
#define SPAA_FILTER_H

#include <stdbool.h>
#include <stdint.h>

#include "formats/load.h"
#include "model/profile.h"

/* What a title says when a time range was asked of a profile without samples. */
#define SPAA_FILTER_WHOLE_PROFILE \
	"whole profile: it has no sample records to restrict to --begin/--end"

struct spaa_filter {
	bool has_begin, has_end;        /* a time range was asked for */
	int64_t begin, end;     /* inclusive, ns; INT64_MIN / INT64_MAX when not given */
	int64_t pid, tid;       /* only this process / thread; SPAA_NO_ID: any */
	/*
	 * begin and end were given in another clock (a trace's, as Trace
	 * Compass shows it) and are clock_offset ns less here, in the
	 * profile's clock; clock_from says whence the offset ("given by
	 * '--clock-offset'", "of the clock 'monotonic' of DIR/metadata"), ""
	 * when they were not moved.
	 */
	int64_t clock_offset;
	char clock_from[512];
};

void spaa_filter_init(struct spaa_filter *f);

/*
 * Moves a given begin and end onto the profile's clock: offset ns less
 * (offset: how far the clock they were given in is ahead), from saying
 * whence the offset.  -1 (SPAA_E_USAGE) when one would pass 64 bits.
 */
int spaa_filter_shift(struct spaa_filter *f, int64_t offset, const char *from,
		      struct spaa_error *err);

/*
 * A moved range (spaa_filter_shift) that does not overlap p's time at
 * all most likely means clocks that do not match, not a selection
 * between samples: -1 with SPAA_E_NO_DATA saying so, else 0.
 */
int spaa_filter_check_overlap(const struct spaa_filter *f,
			      const struct spaa_profile *p, struct spaa_error *err);

/* Whether a time range was asked for (--begin or --end). */
static inline bool spaa_filter_has_range(const struct spaa_filter *f)
{
	return f->has_begin || f->has_end;
}

static inline bool spaa_filter_time(const struct spaa_filter *f, int64_t t)
{
	return t >= f->begin && t <= f->end;
}

/* Whether a record or sample of (pid, tid) passes --pid/--tid. */
static inline bool spaa_filter_thread(const struct spaa_filter *f, int64_t pid,
				      int64_t tid)
{
	return (f->pid == SPAA_NO_ID || pid == f->pid) &&
	       (f->tid == SPAA_NO_ID || tid == f->tid);
}

/*
 * The time range results cover: the one asked for where given, else the
 * profile's own span, else [0, 0] for a profile without time.
 */
void spaa_filter_range(const struct spaa_filter *f, const struct spaa_profile *p,
		       int64_t *begin, int64_t *end);

#endif
