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
