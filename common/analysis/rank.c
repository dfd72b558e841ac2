#include <stdlib.h>
#include <string.h>

#include "analysis/rank.h"
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

/* Names are compared where they are (spaa_strtab_join_cmp), never made. */
void spaa_rank_sort_joined(struct spaa_rank *r, size_t n, const struct spaa_strtab *t,
			   const char *(*name)(const void *ctx, uint32_t id),
			   const void *ctx)
{
	struct joined_names j = { t, name, ctx };

	spaa_sort(r, n, sizeof(*r), joined_rank_cmp, &j);
}
