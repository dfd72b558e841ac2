#include <inttypes.h>
#include <stdio.h>

#include "analysis/filter.h"

void spaa_filter_init(struct spaa_filter *f)
{
	*f = (struct spaa_filter){
		.begin = INT64_MIN, .end = INT64_MAX,
		.pid = SPAA_NO_ID, .tid = SPAA_NO_ID,
	};
}

void spaa_filter_range(const struct spaa_filter *f, const struct spaa_profile *p,
		       int64_t *begin, int64_t *end)
{
	*begin = p->has_time ? p->time_start : 0;
	*end = p->has_time ? p->time_end : 0;
	if (f->has_begin)
		*begin = f->begin;
	if (f->has_end)
		*end = f->end;
	if (*end < *begin)
		*end = *begin;
}

int spaa_filter_shift(struct spaa_filter *f, int64_t offset, const char *from,
		      struct spaa_error *err)
{
	int64_t begin = f->begin, end = f->end;

	if ((f->has_begin && __builtin_sub_overflow(f->begin, offset, &begin)) ||
	    (f->has_end && __builtin_sub_overflow(f->end, offset, &end)))
		return spaa_error_set(err, SPAA_E_USAGE,
				      "'--begin'/'--end' less the clock offset of %" PRId64
				      " ns (%s) pass 64 bits", offset, from);
	f->begin = begin;
	f->end = end;
	f->clock_offset = offset;
	snprintf(f->clock_from, sizeof(f->clock_from), "%s", from);
	return 0;
}

int spaa_filter_check_overlap(const struct spaa_filter *f,
			      const struct spaa_profile *p, struct spaa_error *err)
{
	if (!f->clock_from[0] || !p->has_time ||
	    (f->end >= p->time_start && f->begin <= p->time_end))
		return 0;
	return spaa_error_set(err, SPAA_E_NO_DATA,
			      "the selection and the profile do not overlap: --begin/--end are %"
			      PRId64 " to %" PRId64 " ns in the profile's clock (%" PRId64
			      " ns less: the offset %s), and the profile covers %" PRId64
			      " to %" PRId64 " ns (is it of this trace, recorded with 'perf record -k mono'? else give '--clock-offset')",
			      f->begin, f->end, f->clock_offset, f->clock_from,
			      p->time_start, p->time_end);
}
