#include <stdlib.h>
#include <string.h>

#include "analysis/timequanta.h"
#include "model/util.h"

static int overflow(struct spaa_error *err)
{
	return spaa_error_set(err, SPAA_E_LIMIT,
			      "a sum of values over time overflows 64 bits");
}

/* floor(x / 2^k) without relying on the sign behaviour of >> */
static int64_t floor_shift(int64_t x, unsigned k)
{
	if (x >= 0)
		return (int64_t)((uint64_t)x >> k);
	/* x + 1 cannot overflow; -(x + 1) >= 0 */
	return -(int64_t)((uint64_t)(-(x + 1)) >> k) - 1;
}

void spaa_timequanta_init(struct spaa_timequanta *t, size_t nvalues,
			uint32_t max_quanta)
{
	memset(t, 0, sizeof(*t));
	t->nvalues = nvalues;
	t->max_quanta = max_quanta ? max_quanta : SPAA_TIMEQUANTA_MAX_DEFAULT;
	if (t->max_quanta < 2)
		t->max_quanta = 2;
	spaa_map_init(&t->quanta, sizeof(int64_t));
}

void spaa_timequanta_release(struct spaa_timequanta *t)
{
	spaa_map_release(&t->quanta);
	free(t->sums);
	memset(t, 0, sizeof(*t));
}

/* Index of quantum q, with zero sums when new. */
static uint32_t quantum(struct spaa_timequanta *t, int64_t q)
{
	bool created;
	uint32_t i = spaa_map_intern(&t->quanta, &q, &created);

	if (!created)
		return i;
	if (i >= t->alloc) {
		/*
		 * Doubling, but never past the max_quanta + 1 quanta ever in
		 * use at once (spaa_timequanta_add coarsens beyond max_quanta).
		 */
		size_t na = t->alloc ? t->alloc * 2 : 16;

		if (na > (size_t)t->max_quanta + 1)
			na = (size_t)t->max_quanta + 1;
		if (na <= i)
			na = (size_t)i + 1;
		t->sums = spaa_xrealloc(t->sums, na * t->nvalues * sizeof(*t->sums));
		t->alloc = na;
	}
	memset(t->sums + (size_t)i * t->nvalues, 0, t->nvalues * sizeof(*t->sums));
	return i;
}

/*
 * Doubles the quantum: pairs of neighbouring quanta merge.  The sums
 * merge in place: a merged quantum is numbered no later than the first
 * of its halves, whose sums have then been read.  The quanta go back
 * into the same map, emptied, whose slots are already big enough, and
 * the sums keep their room for the quanta that follow: a new map grown
 * from empty, and sums shrunk to grow again, took about a sixth of
 * spaa-allocs' CPU time on make bench's allocation profile in fresh
 * pages.  On an overflow the timeline is left half merged, fit only to
 * be released.
 */
static int coarsen(struct spaa_timequanta *t, struct spaa_error *err)
{
	size_t nv = t->nvalues;
	uint32_t n = t->quanta.nr;
	int64_t *old = spaa_xmalloc((size_t)n * sizeof(*old));

	memcpy(old, t->quanta.keys, (size_t)n * sizeof(*old));
	spaa_map_clear(&t->quanta);
	for (uint32_t i = 0; i < n; i++) {
		int64_t q = floor_shift(old[i], 1);
		bool created;
		uint32_t j = spaa_map_intern(&t->quanta, &q, &created);
		uint64_t *dst = t->sums + (size_t)j * nv;
		const uint64_t *src = t->sums + (size_t)i * nv;

		if (created) {
			if (j != i)
				memcpy(dst, src, nv * sizeof(*dst));
			continue;
		}
		for (size_t v = 0; v < nv; v++)
			if (spaa_add_u64(dst[v], src[v], &dst[v])) {
				free(old);
				return overflow(err);
			}
	}
	free(old);
	t->shift++;
	return 0;
}

int spaa_timequanta_add(struct spaa_timequanta *t, int64_t time, const uint64_t *v,
		      struct spaa_error *err)
{
	uint32_t i = quantum(t, floor_shift(time, t->shift));

	for (size_t j = 0; j < t->nvalues; j++)
		if (spaa_add_u64(t->sums[i * t->nvalues + j], v[j],
				 &t->sums[i * t->nvalues + j]))
			return overflow(err);
	t->added++;
	/*
	 * At shift 62 every int64 falls in one of four quanta, so the loop
	 * ends; stopping there keeps 2^shift an int64.
	 */
	while (t->quanta.nr > t->max_quanta && t->shift < 62)
		if (coarsen(t, err))
			return -1;
	return 0;
}

uint64_t spaa_timequanta_bin_width(int64_t begin, int64_t end, size_t n)
{
	uint64_t span = (uint64_t)end - (uint64_t)begin;

	if (!span || !n)
		return 1;
	return span / n + (span % n != 0);
}

size_t spaa_timequanta_nbins(int64_t begin, int64_t end, size_t n)
{
	uint64_t span = (uint64_t)end - (uint64_t)begin;
	uint64_t w = spaa_timequanta_bin_width(begin, end, n);

	if (!span)
		return 1;
	return (size_t)(span / w + (span % w != 0));
}

int spaa_timequanta_bins(const struct spaa_timequanta *t, int64_t begin,
		       int64_t end, size_t n, uint64_t *out,
		       struct spaa_error *err)
{
	uint64_t w = spaa_timequanta_bin_width(begin, end, n);
	size_t nbins = spaa_timequanta_nbins(begin, end, n);

	memset(out, 0, nbins * t->nvalues * sizeof(*out));
	for (uint32_t i = 0; i < t->quanta.nr; i++) {
		int64_t q = *(const int64_t *)spaa_map_key(&t->quanta, i);
		/*
		 * The quantum's start q * 2^shift lies between INT64_MIN (a
		 * multiple of 2^shift) and a time added: no overflow.
		 */
		int64_t start = q * ((int64_t)1 << t->shift);
		uint64_t off;
		size_t b;

		if (start < begin)
			start = begin;
		if (start > end)
			start = end;
		off = (uint64_t)start - (uint64_t)begin;
		b = (size_t)(off / w);
		if (b >= nbins)
			b = nbins - 1;
		for (size_t j = 0; j < t->nvalues; j++)
			if (spaa_add_u64(out[b * t->nvalues + j],
					 t->sums[i * t->nvalues + j],
					 &out[b * t->nvalues + j]))
				return overflow(err);
	}
	return 0;
}
