#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/changepoint.h"
#include "model/util.h"

struct item {
	uint32_t label;
	uint64_t weight, samples;
};

struct segment {
	uint32_t first, last;
	bool idle;
	uint64_t samples, weight;
	struct item *items;     /* owned, sorted by label */
	uint32_t nitems;
	uint32_t prev, next;    /* neighbours, or NONE */
	double cost;            /* of merging with next */
};

#define NONE UINT32_MAX

static int overflow(struct spaa_error *err)
{
	return spaa_error_set(err, SPAA_E_LIMIT, "a sum of weights overflows 64 bits");
}

static int obs_cmp(const void *x, const void *y)
{
	const struct spaa_changepoint_obs *a = x, *b = y;

	if (a->bin != b->bin)
		return a->bin < b->bin ? -1 : 1;
	return a->label < b->label ? -1 : a->label > b->label;
}

/* The weighted JS divergence of two sparse distributions minus its noise. */
static double cost_of(const struct item *a, uint32_t na, uint64_t wa, uint64_t sa,
		      const struct item *b, uint32_t nb, uint64_t wb, uint64_t sb)
{
	double W = (double)wa + (double)wb, js = 0;
	uint32_t i = 0, j = 0, k = 0;

	if (!wa || !wb)
		return -HUGE_VAL;
	while (i < na || j < nb) {
		double x = 0, y = 0;

		if (j == nb || (i < na && a[i].label < b[j].label)) {
			x = (double)a[i++].weight;
		} else if (i == na || b[j].label < a[i].label) {
			y = (double)b[j++].weight;
		} else {
			x = (double)a[i++].weight;
			y = (double)b[j++].weight;
		}
		if (x + y <= 0)
			continue;
		k++;
		if (x > 0)
			js += x / W * log2(x * W / ((double)wa * (x + y)));
		if (y > 0)
			js += y / W * log2(y * W / ((double)wb * (x + y)));
	}
	if (js < 0)     /* rounding: the divergence is never negative */
		js = 0;
	return js - (double)(k - 1) / (2.0 * ((double)sa + (double)sb) * M_LN2);
}

double spaa_changepoint_cost(const uint64_t *wa, const uint64_t *wb, size_t n,
		    uint64_t samples_a, uint64_t samples_b)
{
	struct item *a = spaa_xcalloc(n + 1, sizeof(*a)), *b = spaa_xcalloc(n + 1, sizeof(*b));
	uint32_t na = 0, nb = 0;
	uint64_t ta = 0, tb = 0;
	double c;

	for (size_t i = 0; i < n; i++) {
		if (wa[i])
			a[na++] = (struct item){ (uint32_t)i, wa[i], 0 };
		if (wb[i])
			b[nb++] = (struct item){ (uint32_t)i, wb[i], 0 };
		ta += wa[i];
		tb += wb[i];
	}
	c = cost_of(a, na, ta, samples_a, b, nb, tb, samples_b);
	free(a);
	free(b);
	return c;
}

static double seg_cost(const struct segment *s, uint32_t x)
{
	const struct segment *a = &s[x], *b = &s[a->next];

	if (a->idle || b->idle)
		return HUGE_VAL;
	return cost_of(a->items, a->nitems, a->weight, a->samples,
		       b->items, b->nitems, b->weight, b->samples);
}

/* Merges segment x with the one after it, into x. */
static int merge(struct segment *s, uint32_t x, struct spaa_error *err)
{
	struct segment *a = &s[x], *b = &s[a->next];
	struct item *m = spaa_xmalloc(((size_t)a->nitems + b->nitems + 1) * sizeof(*m));
	uint32_t i = 0, j = 0, n = 0;

	while (i < a->nitems || j < b->nitems) {
		if (j == b->nitems || (i < a->nitems && a->items[i].label < b->items[j].label)) {
			m[n++] = a->items[i++];
		} else if (i == a->nitems || b->items[j].label < a->items[i].label) {
			m[n++] = b->items[j++];
		} else {
			m[n] = a->items[i++];
			if (spaa_add_u64(m[n].weight, b->items[j].weight, &m[n].weight) ||
			    spaa_add_u64(m[n].samples, b->items[j].samples, &m[n].samples)) {
				free(m);
				return overflow(err);
			}
			n++;
			j++;
		}
	}
	if (spaa_add_u64(a->weight, b->weight, &a->weight) ||
	    spaa_add_u64(a->samples, b->samples, &a->samples)) {
		free(m);
		return overflow(err);
	}
	free(a->items);
	SPAA_FREE_AND_NULL(b->items);
	a->items = m;
	a->nitems = n;
	a->last = b->last;
	a->idle = a->idle && b->idle;
	a->next = b->next;
	if (a->next != NONE)
		s[a->next].prev = x;
	if (a->next != NONE)
		a->cost = seg_cost(s, x);
	if (a->prev != NONE)
		s[a->prev].cost = seg_cost(s, a->prev);
	return 0;
}

/*
 * The leftmost pair with the lowest cost: first the non-idle pairs, and
 * pairs with an idle segment only when allow_idle.  NONE if no pair.
 */
static uint32_t cheapest(const struct segment *s, uint32_t head, bool allow_idle)
{
	uint32_t best = NONE, best_rank = 2;

	for (uint32_t x = head; x != NONE && s[x].next != NONE; x = s[x].next) {
		uint32_t rank = s[x].idle || s[s[x].next].idle;

		if (rank && !allow_idle)
			continue;
		if (best == NONE || rank < best_rank ||
		    (rank == best_rank && s[x].cost < s[best].cost)) {
			best = x;
			best_rank = rank;
		}
	}
	return best;
}

static void summarize(const struct item *it, uint32_t n, uint64_t samples,
		      uint64_t weight, struct spaa_changepoint_summary *sum)
{
	sum->samples = samples;
	sum->weight = weight;
	sum->nlabels = n;
	sum->top[0] = sum->top[1] = SPAA_CHANGEPOINT_NO_LABEL;
	sum->top_weight[0] = sum->top_weight[1] = 0;
	/* items are sorted by label, so strict > keeps the smaller label on ties */
	for (uint32_t i = 0; i < n; i++) {
		if (sum->top[0] == SPAA_CHANGEPOINT_NO_LABEL || it[i].weight > sum->top_weight[0]) {
			sum->top[1] = sum->top[0];
			sum->top_weight[1] = sum->top_weight[0];
			sum->top[0] = it[i].label;
			sum->top_weight[0] = it[i].weight;
		} else if (sum->top[1] == SPAA_CHANGEPOINT_NO_LABEL || it[i].weight > sum->top_weight[1]) {
			sum->top[1] = it[i].label;
			sum->top_weight[1] = it[i].weight;
		}
	}
}

/* One segment per bin, from sorted obs; idle runs not yet joined. */
static int bin_segments(const struct spaa_changepoint_obs *o, size_t nobs, uint32_t nbins,
			struct segment *s, struct spaa_error *err)
{
	size_t i = 0;

	for (uint32_t b = 0; b < nbins; b++) {
		struct segment *g = &s[b];

		g->first = g->last = b;
		g->prev = b ? b - 1 : NONE;
		g->next = b + 1 < nbins ? b + 1 : NONE;
		for (size_t j = i; j < nobs && o[j].bin == b; j++)
			g->nitems++;
		g->items = spaa_xmalloc(((size_t)g->nitems + 1) * sizeof(*g->items));
		g->nitems = 0;
		for (; i < nobs && o[i].bin == b; i++) {
			struct item *it = g->nitems ? &g->items[g->nitems - 1] : NULL;

			if (!it || it->label != o[i].label) {
				it = &g->items[g->nitems++];
				*it = (struct item){ o[i].label, 0, 0 };
			}
			if (spaa_add_u64(it->weight, o[i].weight, &it->weight) ||
			    spaa_add_u64(it->samples, o[i].samples, &it->samples) ||
			    spaa_add_u64(g->weight, o[i].weight, &g->weight) ||
			    spaa_add_u64(g->samples, o[i].samples, &g->samples))
				return overflow(err);
		}
	}
	return 0;
}

int spaa_changepoint_segment(const struct spaa_changepoint_obs *obs, size_t nobs, uint32_t nbins,
		    const struct spaa_changepoint_opts *opts, struct spaa_changepoint_result *res,
		    struct spaa_error *err)
{
	struct spaa_changepoint_obs *o = spaa_xmalloc((nobs + 1) * sizeof(*o));
	struct segment *s = spaa_xcalloc(nbins + 1, sizeof(*s));
	uint32_t head = 0, nseg = nbins, x;
	uint32_t idle_bins = opts->idle_bins ? opts->idle_bins : 1;
	int ret = -1;

	assert(nbins >= 1);
	memset(res, 0, sizeof(*res));
	for (size_t i = 0; i < nobs; i++)
		assert(obs[i].bin < nbins);
	if (nobs)
		memcpy(o, obs, nobs * sizeof(*o));
	qsort(o, nobs, sizeof(*o), obs_cmp);
	if (bin_segments(o, nobs, nbins, s, err))
		goto out;
	res->bins = spaa_xcalloc(nbins, sizeof(*res->bins));
	res->nbins = nbins;
	for (uint32_t b = 0; b < nbins; b++)
		summarize(s[b].items, s[b].nitems, s[b].samples, s[b].weight, &res->bins[b]);

	/* idle runs: long enough stretches without samples become one segment */
	for (uint32_t b = 0; b < nbins;) {
		uint32_t e = b;

		while (e < nbins && !s[e].samples)
			e++;
		if (e - b >= idle_bins) {
			s[b].idle = true;
			while (s[b].next != NONE && s[b].next < e) {
				s[s[b].next].idle = true;
				if (merge(s, b, err))
					goto out;
				nseg--;
			}
		}
		b = e > b ? e : b + 1;
	}
	for (x = head; x != NONE; x = s[x].next)
		s[x].cost = s[x].next != NONE ? seg_cost(s, x) : HUGE_VAL;

	/* 1. merge what the penalty says is one phase */
	while ((x = cheapest(s, head, false)) != NONE && s[x].cost < opts->penalty) {
		if (merge(s, x, err))
			goto out;
		nseg--;
	}
	/* 2. absorb phases shorter than min_bins into their cheaper neighbour */
	for (;;) {
		uint32_t shortest = NONE, len = 0;

		for (x = head; x != NONE; x = s[x].next) {
			uint32_t l = s[x].last - s[x].first + 1;
			bool left = s[x].prev != NONE && !s[s[x].prev].idle;
			bool right = s[x].next != NONE && !s[s[x].next].idle;

			if (!s[x].idle && l < opts->min_bins && (left || right) &&
			    (shortest == NONE || l < len)) {
				shortest = x;
				len = l;
			}
		}
		if (shortest == NONE)
			break;
		x = shortest;
		if (s[x].prev != NONE && !s[s[x].prev].idle &&
		    (s[x].next == NONE || s[s[x].next].idle ||
		     s[s[x].prev].cost <= s[x].cost))
			x = s[x].prev;
		if (merge(s, x, err))
			goto out;
		nseg--;
	}
	/* 3. at most max_phases */
	while (opts->max_phases && nseg > opts->max_phases) {
		x = cheapest(s, head, true);
		if (merge(s, x, err))
			goto out;
		nseg--;
	}

	res->phases = spaa_xcalloc(nseg, sizeof(*res->phases));
	for (x = head; x != NONE; x = s[x].next) {
		struct spaa_changepoint_phase *ph = &res->phases[res->nphases++];

		ph->first = s[x].first;
		ph->last = s[x].last;
		ph->idle = s[x].idle;
		summarize(s[x].items, s[x].nitems, s[x].samples, s[x].weight, &ph->sum);
	}
	ret = 0;
out:
	for (uint32_t b = 0; b < nbins; b++)
		free(s[b].items);
	free(s);
	free(o);
	return ret;
}

void spaa_changepoint_result_release(struct spaa_changepoint_result *res)
{
	free(res->phases);
	free(res->bins);
	memset(res, 0, sizeof(*res));
}
