/*
 * calltree - a call tree with self weights per node, into the profile
 * model: what the readers of formats that come as a tree (V8 CPU and heap
 * profiles) or as aggregated stacks (DTrace) share.
 *
 * A reader adds nodes (a frame under a parent node), adds self weights
 * to nodes, and may ask for a node's stack index at any time (for the
 * samples it hands to on_sample: the stack is a placeholder until
 * spaa_calltree_finish).  At the end every node that holds weight or was
 * asked for becomes one stack (frames leaf first: the node, then its
 * ancestors) with one stack record of the tree's event and thread, whose
 * weights and exclusive weights are the node's self weights: the model's
 * contract (aggregate.h adds a record's weight to every function on it,
 * so a function's total is the inclusive weight, recursion counted once).
 *
 * Memory: a few words per node and nmetrics weights per node; nothing
 * per sample.
 *
 * Ownership: the tree is the caller's (zeroed, then spaa_calltree_init;
 * spaa_calltree_release frees it and accepts a zeroed or released
 * tree); it borrows the profile.
 */
#ifndef SPAA_CALLTREE_H
#define SPAA_CALLTREE_H

#include <stdbool.h>
#include <stdint.h>

#include "model/error.h"
#include "model/map.h"
#include "model/profile.h"

#define SPAA_CALLTREE_MAX_METRICS 4

struct spaa_calltree {
	struct spaa_profile *p;
	uint32_t file, event;
	int64_t pid, tid;       /* of every record, SPAA_NO_ID when unknown */
	uint32_t comm;          /* string index, 0 when unknown */
	uint32_t nmetrics;
	uint32_t metric[SPAA_CALLTREE_MAX_METRICS], unit[SPAA_CALLTREE_MAX_METRICS];
	const char *path;       /* for messages (borrowed) */

	uint32_t nnodes;
	size_t alloc;
	uint32_t *parent;       /* SPAA_NONE for a root */
	uint32_t *frame;        /* index into p->frames */
	uint32_t *stack;        /* index into p->stacks, or SPAA_NONE */
	uint64_t *w;            /* nmetrics self weights per node */
	struct spaa_map children;       /* (parent, frame) -> node, for spaa_calltree_child */
};

/*
 * Starts an empty tree of event (index) whose records carry metrics[]
 * (NUL-terminated names, units[] may hold NULL) in file.
 */
void spaa_calltree_init(struct spaa_calltree *t, struct spaa_profile *p,
			const char *path, uint32_t file, uint32_t event,
			const char *const *metrics, const char *const *units,
			uint32_t nmetrics);
void spaa_calltree_release(struct spaa_calltree *t);

/*
 * A new frame of function name[0..len) in DSO dso_name (a kernel DSO for
 * a kernel frame); srcline may be NULL.  Returns its index in p->frames.
 */
uint32_t spaa_calltree_frame(struct spaa_profile *p, const char *name, size_t len,
			     const char *dso_name, const char *srcline,
			     enum spaa_frame_kind kind);

/* A new node of frame under parent (SPAA_NONE: a root); its index. */
uint32_t spaa_calltree_node(struct spaa_calltree *t, uint32_t parent, uint32_t frame);

/*
 * The node of frame under parent, made on first use (aggregated stacks).
 * A tree is built either with this or with spaa_calltree_node, not both.
 */
uint32_t spaa_calltree_child(struct spaa_calltree *t, uint32_t parent, uint32_t frame);

/*
 * Sets the parent of a node made without one (formats that list
 * children).  Returns false when it has one already.  Cycles are found
 * by spaa_calltree_finish.
 */
bool spaa_calltree_set_parent(struct spaa_calltree *t, uint32_t node, uint32_t parent);

/* Adds w[0..nmetrics) to node's self weights; -1 on overflow (err). */
int spaa_calltree_add(struct spaa_calltree *t, uint32_t node, const uint64_t *w,
		      struct spaa_error *err);

/* The stack of node, a placeholder until spaa_calltree_finish. */
uint32_t spaa_calltree_stack(struct spaa_calltree *t, uint32_t node);

/*
 * Makes the stacks and records (see above), adds the weights to the
 * profile's totals.  Returns 0, or -1 with err: SPAA_E_INVALID when the
 * parents make a cycle, SPAA_E_LIMIT for a stack deeper than max_depth,
 * more than SPAA_CALLTREE_MAX_FRAMES frames over all stacks, or a total
 * that overflows.
 */
int spaa_calltree_finish(struct spaa_calltree *t, uint32_t max_depth,
			 struct spaa_error *err);

/* Bound on the frames of all stacks of one tree (hostile deep trees). */
#define SPAA_CALLTREE_MAX_FRAMES ((uint64_t)64 << 20)

#endif
