#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/timegrid.h"
#include "model/units.h"
#include "model/util.h"

#define BIN_BYTES sizeof(int64_t)
#define CACHE_SIZE 4096         /* entries per series, a power of two */

/* floor(a / b) for b > 0: C division truncates toward zero */
static int64_t floor_div(int64_t a, int64_t b)
{
	int64_t q = a / b;

	return (a % b < 0) ? q - 1 : q;
}

void spaa_timegrid_init(struct spaa_timegrid *tb, int64_t origin, int64_t width,
		       bool fixed, uint32_t max_bins, const size_t *keysizes,
		       size_t nseries)
{
	assert(width >= 1 && max_bins >= 1);
	memset(tb, 0, sizeof(*tb));
	tb->origin = origin;
	tb->width = width;
	tb->fixed = fixed;
	tb->max_bins = max_bins;
	tb->series = spaa_xcalloc(nseries, sizeof(*tb->series));
	tb->nseries = nseries;
	for (size_t i = 0; i < nseries; i++) {
		struct spaa_timegrid_series *s = &tb->series[i];

		/* rounded so that keys stay 8-byte aligned after the bin */
		s->keybytes = keysizes[i];
		s->keysize = (keysizes[i] + 7) / 8 * 8;
		spaa_map_init(&s->cells, BIN_BYTES + s->keysize);
		s->scratch = spaa_xcalloc(1, SPAA_TIMEGRID_CACHED > BIN_BYTES + s->keysize ?
					  SPAA_TIMEGRID_CACHED : BIN_BYTES + s->keysize);
		if (BIN_BYTES + s->keysize <= SPAA_TIMEGRID_CACHED)
			s->cache = spaa_xcalloc(CACHE_SIZE, sizeof(*s->cache));
	}
}

void spaa_timegrid_release(struct spaa_timegrid *tb)
{
	for (size_t i = 0; i < tb->nseries; i++) {
		spaa_map_release(&tb->series[i].cells);
		free(tb->series[i].sums);
		free(tb->series[i].scratch);
		free(tb->series[i].cache);
	}
	free(tb->series);
	memset(tb, 0, sizeof(*tb));
}

/* Where key k goes in a series' cache: a multiply per word, then mixed. */
static size_t cache_slot(const uint64_t k[SPAA_TIMEGRID_CACHED / 8])
{
	uint64_t h = k[0] * 0x9e3779b97f4a7c15ULL ^ k[1] * 0xc2b2ae3d27d4eb4fULL ^
		     k[2] * 0x165667b19e3779f9ULL;

	return (size_t)(h >> 40) & (CACHE_SIZE - 1);
}

/* The sums of the cell with the key in s->scratch, created as zero. */
static struct spaa_timegrid_sum *cell(struct spaa_timegrid_series *s)
{
	struct spaa_timegrid_cached *c = NULL;
	uint64_t k[SPAA_TIMEGRID_CACHED / 8];
	bool created;
	uint32_t i;

	if (s->cache) {
		/* scratch holds zeros past the key, up to SPAA_TIMEGRID_CACHED */
		memcpy(k, s->scratch, sizeof(k));
		c = &s->cache[cache_slot(k)];
		if (c->cell && !memcmp(c->key, k, sizeof(k)))
			return &s->sums[c->cell - 1];
	}
	i = spaa_map_intern(&s->cells, s->scratch, &created);
	if (created) {
		SPAA_ALLOC_GROW(s->sums, (size_t)i + 1, s->alloc);
		s->sums[i] = (struct spaa_timegrid_sum){ 0, 0 };
	}
	if (c) {
		memcpy(c->key, k, sizeof(k));
		c->cell = i + 1;
	}
	return &s->sums[i];
}

static int overflow(struct spaa_error *err)
{
	return spaa_error_set(err, SPAA_E_LIMIT, "a sum of weights overflows 64 bits");
}

int spaa_timegrid_add(struct spaa_timegrid *tb, size_t si, int64_t bin,
		     const void *key, uint64_t count, uint64_t weight,
		     struct spaa_error *err)
{
	struct spaa_timegrid_series *s = &tb->series[si];
	struct spaa_timegrid_sum *sum;

	memcpy(s->scratch, &bin, BIN_BYTES);
	/* the padding after keybytes stays zero from xcalloc */
	memcpy(s->scratch + BIN_BYTES, key, s->keybytes);
	sum = cell(s);
	if (spaa_add_u64(sum->count, count, &sum->count) ||
	    spaa_add_u64(sum->weight, weight, &sum->weight))
		return overflow(err);
	return 0;
}

int spaa_timegrid_coarsen(struct spaa_timegrid *tb, int64_t factor,
			 struct spaa_error *err)
{
	int64_t width;

	assert(factor >= 1);
	if (factor == 1)
		return 0;
	if (__builtin_mul_overflow(tb->width, factor, &width))
		return spaa_error_set(err, SPAA_E_LIMIT,
				      "time bins wider than 64-bit nanoseconds");
	for (size_t i = 0; i < tb->nseries; i++) {
		struct spaa_timegrid_series *s = &tb->series[i];
		struct spaa_map old = s->cells;
		struct spaa_timegrid_sum *old_sums = s->sums;
		size_t ks = BIN_BYTES + s->keysize;

		spaa_map_init(&s->cells, ks);
		s->sums = NULL;
		s->alloc = 0;
		/* the cells are numbered anew */
		if (s->cache)
			memset(s->cache, 0, CACHE_SIZE * sizeof(*s->cache));
		for (uint32_t c = 0; c < old.nr; c++) {
			struct spaa_timegrid_sum *sum;
			int64_t bin;

			memcpy(s->scratch, spaa_map_key(&old, c), ks);
			memcpy(&bin, s->scratch, BIN_BYTES);
			bin = floor_div(bin, factor);
			memcpy(s->scratch, &bin, BIN_BYTES);
			sum = cell(s);
			/* parts of sums that fitted before: cannot overflow
			 * unless the caller's weights did, so check anyway */
			if (spaa_add_u64(sum->count, old_sums[c].count, &sum->count) ||
			    spaa_add_u64(sum->weight, old_sums[c].weight, &sum->weight)) {
				spaa_map_release(&old);
				free(old_sums);
				return overflow(err);
			}
		}
		spaa_map_release(&old);
		free(old_sums);
	}
	tb->width = width;
	tb->lo = floor_div(tb->lo, factor);
	tb->hi = floor_div(tb->hi, factor);
	tb->coarsenings++;
	return 0;
}

int spaa_timegrid_limit_cells(struct spaa_timegrid *tb, struct spaa_error *err)
{
	for (;;) {
		uint64_t cells = 0;

		for (size_t i = 0; i < tb->nseries; i++)
			cells += tb->series[i].cells.nr;
		if (!tb->max_cells || tb->fixed || cells <= tb->max_cells)
			return 0;
		if (tb->width > INT64_MAX / 2)
			return spaa_error_set(err, SPAA_E_LIMIT,
					      "time bins wider than 64-bit nanoseconds");
		if (spaa_timegrid_coarsen(tb, spaa_timegrid_round_width(tb->width * 2, tb->width) /
					 tb->width, err))
			return -1;
	}
}

int64_t spaa_timegrid_round_width(int64_t at_least, int64_t multiple_of)
{
	static const int64_t mant[] = { 1, 2, 5 };
	int64_t w;

	assert(at_least >= 1 && multiple_of >= 1);
	for (int64_t p = 1; p <= INT64_MAX / 10; p *= 10)
		for (size_t i = 0; i < 3; i++) {
			w = mant[i] * p;
			if (w >= at_least && w % multiple_of == 0)
				return w;
		}
	/* no round width: the next multiple, saturated */
	w = at_least / multiple_of * multiple_of;
	if (w < at_least && !__builtin_add_overflow(w, multiple_of, &w))
		return w;
	return w < at_least ? INT64_MAX / multiple_of * multiple_of : w;
}

int spaa_timegrid_place(struct spaa_timegrid *tb, int64_t t, int64_t *bin,
		       struct spaa_error *err)
{
	int64_t d, b, lo, hi;

	if (__builtin_sub_overflow(t, tb->origin, &d))
		return spaa_error_set(err, SPAA_E_LIMIT,
				      "timestamp %lld ns is too far from the start of the profile",
				      (long long)t);
	b = floor_div(d, tb->width);
	if (!tb->any) {
		tb->any = true;
		tb->lo = tb->hi = *bin = b;
		return 0;
	}
	lo = b < tb->lo ? b : tb->lo;
	hi = b > tb->hi ? b : tb->hi;
	/* hi >= lo, so the unsigned difference is exact */
	while ((uint64_t)hi - (uint64_t)lo >= tb->max_bins) {
		int64_t f;

		if (tb->fixed) {
			char w[32];

			return spaa_error_set(err, SPAA_E_LIMIT,
					      "the samples span more than %u bins of %s",
					      tb->max_bins,
					      spaa_units_format_duration(tb->width, w, sizeof(w)));
		}
		if (tb->width > INT64_MAX / 2)
			return spaa_error_set(err, SPAA_E_LIMIT,
					      "time bins wider than 64-bit nanoseconds");
		f = spaa_timegrid_round_width(tb->width * 2, tb->width) / tb->width;
		if (spaa_timegrid_coarsen(tb, f, err))
			return -1;
		lo = floor_div(lo, f);
		hi = floor_div(hi, f);
		b = floor_div(b, f);
	}
	tb->lo = lo;
	tb->hi = hi;
	*bin = b;
	return 0;
}

uint64_t spaa_timegrid_nbins(const struct spaa_timegrid *tb)
{
	return tb->any ? (uint64_t)tb->hi - (uint64_t)tb->lo + 1 : 0;
}

static int64_t sat_edge(const struct spaa_timegrid *tb, int64_t b)
{
	int64_t off, t;

	if (__builtin_mul_overflow(b, tb->width, &off) ||
	    __builtin_add_overflow(tb->origin, off, &t))
		return (b < 0) ? INT64_MIN : INT64_MAX;
	return t;
}

int64_t spaa_timegrid_start(const struct spaa_timegrid *tb, int64_t b)
{
	return sat_edge(tb, b);
}

int64_t spaa_timegrid_end(const struct spaa_timegrid *tb, int64_t b)
{
	int64_t next = b < INT64_MAX ? sat_edge(tb, b + 1) : INT64_MAX;

	return next == INT64_MAX || next == INT64_MIN ? next : next - 1;
}

const void *spaa_timegrid_cell(const struct spaa_timegrid *tb, size_t s,
			      uint32_t i, int64_t *bin,
			      struct spaa_timegrid_sum *sum)
{
	const unsigned char *k = spaa_map_key(&tb->series[s].cells, i);

	memcpy(bin, k, BIN_BYTES);
	*sum = tb->series[s].sums[i];
	return k + BIN_BYTES;
}
