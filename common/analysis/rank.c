#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/rank.h"
#include "io/output.h"
#include "model/util.h"

static int rank_cmp(const void *x, const void *y)
{
	const struct spaa_rank *a = x, *b = y;
	int c;

	if (a->key != b->key)
		return a->key > b->key ? -1 : 1;
	if (a->key2 != b->key2)
		return a->key2 > b->key2 ? -1 : 1;
	c = strcmp(a->name ? a->name : "", b->name ? b->name : "");
	if (c)
		return c;
	return a->tie < b->tie ? -1 : a->tie > b->tie;
}

void spaa_rank_sort(struct spaa_rank *r, size_t n)
{
	qsort(r, n, sizeof(*r), rank_cmp);
}

struct joined_names {
	const struct spaa_strtab *t;
	const char *(*name)(const void *ctx, uint32_t id);
	const void *ctx;
};

/* rank_cmp with the joined names of entries x->idx and y->idx. */
static int joined_rank_cmp(const void *px, const void *py, const void *ctx)
{
	const struct joined_names *j = ctx;
	const struct spaa_rank *x = px, *y = py;
	int c;

	if (x->key != y->key)
		return x->key > y->key ? -1 : 1;
	if (x->key2 != y->key2)
		return x->key2 > y->key2 ? -1 : 1;
	c = spaa_strtab_join_cmp(j->t, x->idx, y->idx, j->name, j->ctx, ';');
	if (c)
		return c;
	return x->tie < y->tie ? -1 : x->tie > y->tie;
}

/*
 * The rows of every call path of a profile (50,000 on make bench's) take
 * 9 ms to sort, mostly comparing the names of paths of the same weight:
 * with a thread to spare, it sorts the first half meanwhile, and the
 * halves are merged.  The order is the same: every row ranks apart.
 */
#define RANK_SORT_SPLIT 8192

struct half {
	struct spaa_rank *r;
	size_t n;
	const struct joined_names *j;
};

static void *sort_half(void *arg)
{
	const struct half *h = arg;

	spaa_sort(h->r, h->n, sizeof(*h->r), joined_rank_cmp, h->j);
	return NULL;
}

/* Names are compared where they are (spaa_strtab_join_cmp), never made. */
void spaa_rank_sort_joined(struct spaa_rank *r, size_t n, const struct spaa_strtab *t,
			   const char *(*name)(const void *ctx, uint32_t id),
			   const void *ctx, unsigned threads)
{
	struct joined_names j = { t, name, ctx };
	struct half h = { r, n / 2, &j };
	struct spaa_rank *out;
	size_t a = 0, b = h.n, k = 0;
	pthread_t thread;

	if (threads < 2 || n < RANK_SORT_SPLIT ||
	    spaa_output_thread_create(&thread, sort_half, &h)) {
		spaa_sort(r, n, sizeof(*r), joined_rank_cmp, &j);
		return;
	}
	spaa_sort(r + h.n, n - h.n, sizeof(*r), joined_rank_cmp, &j);
	pthread_join(thread, NULL);
	out = spaa_xmalloc(n * sizeof(*out));
	while (a < h.n && b < n)
		out[k++] = joined_rank_cmp(&r[b], &r[a], &j) < 0 ? r[b++] : r[a++];
	while (a < h.n)
		out[k++] = r[a++];
	while (b < n)
		out[k++] = r[b++];
	memcpy(r, out, n * sizeof(*out));
	free(out);
}
