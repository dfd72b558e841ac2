/*
 * callgraph - the immediate callers and callees of chosen functions
 * (pprof's -peek, perf report's caller and callee call graphs).
 *
 * Each stack through a chosen function gives its weight to the edge from
 * that function to the function just above it on the stack (a caller)
 * and to the one just below it (a callee).  As pprof weighs its edges: a
 * stack counts once toward an edge however often the edge repeats in it
 * (recursion through other functions), and a function calling itself is
 * no edge.  So an edge's weight is at most the total of its function,
 * and its share of that total reads as "this much of f's time came
 * through this caller" (or went into this callee).
 *
 * Ownership: a callgraph owns its arrays and map and borrows its profile,
 * which must outlive it; spaa_callgraph_release frees and zeroes it, so a
 * zeroed or released one may be released (again).
 */
#ifndef SPAA_CALLGRAPH_H
#define SPAA_CALLGRAPH_H

#include <regex.h>
#include <stdbool.h>
#include <stdint.h>

#include "model/error.h"
#include "model/map.h"
#include "model/profile.h"

enum spaa_callgraph_side {
	SPAA_CALLGRAPH_CALLER,  /* other calls fn */
	SPAA_CALLGRAPH_CALLEE,  /* fn calls other */
};

/* An edge between a chosen function and another, one side of it. */
struct spaa_callgraph_edge {
	uint32_t fn, other;     /* function indices of the profile */
	uint32_t side;          /* enum spaa_callgraph_side */
};

struct spaa_callgraph {
	const struct spaa_profile *p;   /* weak */
	uint8_t *chosen;        /* by function: 1 << side for each side asked */
	uint32_t nchosen;
	struct spaa_map edges;  /* struct spaa_callgraph_edge */
	uint64_t *weight;       /* by edge */
	uint32_t *mark;         /* by edge: the stack that last counted it */
	size_t alloc;
	uint32_t gen;
};

/*
 * Chooses the functions of p whose names match callers (their callers
 * are wanted) or callees (their callees); either may be NULL; POSIX
 * regexes, matched anywhere in the name unless anchored.  p must be
 * loaded and outlive cg.
 */
void spaa_callgraph_init(struct spaa_callgraph *cg, const struct spaa_profile *p,
			 const regex_t *callers, const regex_t *callees);
void spaa_callgraph_release(struct spaa_callgraph *cg);

/*
 * Adds a stack of n frames of p (leaf first) of weight w; -1 with err
 * when an edge's weight would overflow 64 bits.
 */
int spaa_callgraph_add(struct spaa_callgraph *cg, const uint32_t *frames,
		       uint32_t n, uint64_t w, struct spaa_error *err);

/* Edge i (0 <= i < cg->edges.nr); borrowed. */
static inline const struct spaa_callgraph_edge *
spaa_callgraph_edge(const struct spaa_callgraph *cg, uint32_t i)
{
	return spaa_map_key(&cg->edges, i);
}

#endif
