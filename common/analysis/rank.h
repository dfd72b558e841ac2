/*
 * rank - the one order of table rows: deterministic, so the same input
 * gives the same rows whatever the order of its records.
 *
 * struct spaa_rank is a value; its name is borrowed and must outlive the
 * sort.
 */
#ifndef SPAA_RANK_H
#define SPAA_RANK_H

#include <stddef.h>
#include <stdint.h>

#include "model/strtab.h"

/*
 * A row to rank: key descending, then key2 descending,
 * then name ascending (NULL sorts as ""), then tie ascending.
 */
struct spaa_rank {
	uint64_t key, key2;
	const char *name;
	int64_t tie;
	uint32_t idx;
};

void spaa_rank_sort(struct spaa_rank *r, size_t n);

/*
 * Sorts like spaa_rank_sort with spaa_strtab_join(t, r[i].idx, name, ctx,
 * ';') as the name (r[i].name is not used), comparing the names without
 * making them: a profile of many stacks need not hold every name at once.
 * With threads > 1 a second thread sorts half of a long r meanwhile; name
 * is then called by both.
 */
void spaa_rank_sort_joined(struct spaa_rank *r, size_t n, const struct spaa_strtab *t,
			   const char *(*name)(const void *ctx, uint32_t id),
			   const void *ctx, unsigned threads);

#endif
