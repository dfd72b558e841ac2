#include <stdlib.h>
#include <string.h>

#include "analysis/callgraph.h"
#include "model/util.h"

static bool matches(const regex_t *re, const char *name)
{
	return re && !regexec(re, name, 0, NULL, 0);
}

void spaa_callgraph_init(struct spaa_callgraph *cg, const struct spaa_profile *p,
			 const regex_t *callers, const regex_t *callees)
{
	uint32_t nfn = spaa_profile_nfunctions(p);

	memset(cg, 0, sizeof(*cg));
	cg->p = p;
	cg->chosen = spaa_xcalloc(nfn + 1, sizeof(*cg->chosen));
	for (uint32_t f = 0; f < nfn; f++) {
		const char *name = spaa_profile_str(p, p->functions[f].name);

		cg->chosen[f] = (uint8_t)((matches(callers, name) << SPAA_CALLGRAPH_CALLER) |
					  (matches(callees, name) << SPAA_CALLGRAPH_CALLEE));
		cg->nchosen += cg->chosen[f] != 0;
	}
	spaa_map_init(&cg->edges, sizeof(struct spaa_callgraph_edge));
}

void spaa_callgraph_release(struct spaa_callgraph *cg)
{
	free(cg->chosen);
	free(cg->weight);
	free(cg->mark);
	spaa_map_release(&cg->edges);
	memset(cg, 0, sizeof(*cg));
}

/* Adds w to the edge (fn, other, side) once in the stack of cg->gen. */
static int add_edge(struct spaa_callgraph *cg, uint32_t fn, uint32_t other,
		    uint32_t side, uint64_t w, struct spaa_error *err)
{
	struct spaa_callgraph_edge k;
	uint32_t i;
	bool created;

	if (fn == other)
		return 0;
	memset(&k, 0, sizeof(k));
	k.fn = fn;
	k.other = other;
	k.side = side;
	i = spaa_map_intern(&cg->edges, &k, &created);
	if (created) {
		size_t old = cg->alloc;

		if (i >= cg->alloc) {
			cg->alloc = old ? old * 2 : 64;
			cg->weight = spaa_xrealloc(cg->weight, cg->alloc * sizeof(*cg->weight));
			cg->mark = spaa_xrealloc(cg->mark, cg->alloc * sizeof(*cg->mark));
		}
		cg->weight[i] = 0;
		cg->mark[i] = 0;
	}
	if (cg->mark[i] == cg->gen)
		return 0;
	cg->mark[i] = cg->gen;
	if (spaa_add_u64(cg->weight[i], w, &cg->weight[i]))
		return spaa_error_set(err, SPAA_E_LIMIT,
				      "a caller or callee weight overflows 64 bits");
	return 0;
}

int spaa_callgraph_add(struct spaa_callgraph *cg, const uint32_t *frames,
		       uint32_t n, uint64_t w, struct spaa_error *err)
{
	const struct spaa_profile *p = cg->p;

	if (!cg->nchosen)
		return 0;
	/* a new stack: no edge counted in it yet */
	if (++cg->gen == 0) {
		memset(cg->mark, 0, cg->edges.nr * sizeof(*cg->mark));
		cg->gen = 1;
	}
	for (uint32_t i = 0; i < n; i++) {
		uint32_t fn = p->frames[frames[i]].fn;
		unsigned side = cg->chosen[fn];

		if ((side & 1 << SPAA_CALLGRAPH_CALLER) && i + 1 < n &&
		    add_edge(cg, fn, p->frames[frames[i + 1]].fn,
			     SPAA_CALLGRAPH_CALLER, w, err))
			return -1;
		if ((side & 1 << SPAA_CALLGRAPH_CALLEE) && i > 0 &&
		    add_edge(cg, fn, p->frames[frames[i - 1]].fn,
			     SPAA_CALLGRAPH_CALLEE, w, err))
			return -1;
	}
	return 0;
}
